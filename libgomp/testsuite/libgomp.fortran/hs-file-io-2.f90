! { dg-do run }
! More of Fortran's I/O in a target region: direct access, namelist,
! ENDFILE, FLUSH, ERR=, and asynchronous I/O (which runs synchronously on
! the device).  Each check sets one element of FAILED.

program hs_file_io_2
  implicit none
  integer, parameter :: nchecks = 8
  integer :: failed(nchecks)
  ! (A namelist group in a BLOCK inside a target region makes gfortran 12
  ! fail: the group is the program's.)
  integer :: a, b
  real :: r
  character(len=8) :: s
  namelist /params/ a, r, s

  failed = 0
  !$omp target map(from: failed) map(tofrom: a, b, r, s)
  block
    integer :: u, ios, k, rec(3)

    ! Direct access, unformatted: records written out of order.
    open (newunit=u, file='hs-file-io-2.dir', access='direct', &
	  form='unformatted', recl=12, status='replace')
    write (u, rec=3) 30, 31, 32
    write (u, rec=1) 10, 11, 12
    read (u, rec=3) rec
    if (any (rec /= [30, 31, 32])) failed(1) = 1
    read (u, rec=1) rec
    if (any (rec /= [10, 11, 12])) failed(2) = 1
    close (u, status='delete')

    ! Namelist out and back in.
    a = 7
    r = 0.5
    s = 'device'
    open (newunit=u, file='hs-file-io-2.nml', status='replace')
    write (u, nml=params)
    a = 0
    r = 0
    s = ''
    rewind (u)
    read (u, nml=params)
    if (a /= 7 .or. r /= 0.5 .or. s /= 'device') failed(3) = 1
    close (u, status='delete')

    ! ENDFILE cuts a sequential file; FLUSH sends it to the host.
    open (newunit=u, file='hs-file-io-2.seq', status='replace')
    do k = 1, 5
      write (u, '(i0)') k
    end do
    rewind (u)
    read (u, '(i5)') k
    read (u, '(i5)') k
    endfile (u)
    flush (u)
    rewind (u)
    k = 0
    do
      read (u, *, iostat=ios) a
      if (ios /= 0) exit
      k = k + 1
    end do
    if (k /= 2) failed(4) = 1
    close (u, status='delete')

    ! ERR= on a failing OPEN.
    open (newunit=u, file='hs-file-io-2.missing', status='old', err=10)
    failed(5) = 1
10  continue

    ! ERR= on a bad read.
    open (newunit=u, file='hs-file-io-2.txt', status='replace')
    write (u, '(a)') 'not a number'
    rewind (u)
    read (u, *, err=20) a
    failed(6) = 1
20  continue
    close (u, status='delete')

    ! Asynchronous I/O: accepted, done at once.
    open (newunit=u, file='hs-file-io-2.async', asynchronous='yes', &
	  form='unformatted', status='replace')
    write (u, asynchronous='yes') 1, 2, 3
    wait (u)
    rewind (u)
    read (u) a, b, k
    if (a /= 1 .or. b /= 2 .or. k /= 3) failed(7) = 1
    close (u, status='delete')

    ! Internal I/O.
    write (s, '(i4.4)') 42
    if (s /= '0042') failed(8) = 1
  end block
  !$omp end target

  if (any (failed /= 0)) then
    print '(a,8i2)', 'FAILED checks:', failed
    stop 1
  end if
  print '(a)', 'file-io-2 ok'
end program hs_file_io_2

! { dg-output "file-io-2 ok" }
! { dg-final { ptx-valid } }
