! { dg-do run }
! Named files in a target region: OPEN/CLOSE/INQUIRE/REWIND/BACKSPACE,
! sequential formatted and unformatted, stream access, IOSTAT=/IOMSG=
! and END= with the host's errors.  Each check sets one element of FAILED;
! the host reports them.

program hs_file_io_1
  implicit none
  integer, parameter :: nchecks = 14
  integer :: failed(nchecks)

  failed = 0
  !$omp target map(from: failed)
  block
    integer :: u, ios, k, n, vals(5), back(5), pos
    character(len=64) :: line, msg
    logical :: there, opened
    real(8) :: d

    ! Sequential formatted: write, close, read back.
    open (newunit=u, file='hs-file-io-1.txt', status='replace', &
	  action='write', iostat=ios)
    if (ios /= 0) failed(1) = 1
    do k = 1, 3
      write (u, '(a,i0)') 'record ', k
    end do
    close (u)
    open (newunit=u, file='hs-file-io-1.txt', status='old', action='read')
    n = 0
    do
      read (u, '(a)', end=10) line
      n = n + 1
      if (line /= 'record ' // achar (iachar ('0') + n)) failed(2) = 1
    end do
10  continue
    if (n /= 3) failed(3) = 1
    ! REWIND, then BACKSPACE over the record just read.
    rewind (u)
    read (u, '(a)') line
    read (u, '(a)') line
    backspace (u)
    read (u, '(a)') line
    if (line /= 'record 2') failed(4) = 1
    inquire (unit=u, opened=opened)
    if (.not. opened) failed(5) = 1
    close (u)

    ! INQUIRE by name.
    inquire (file='hs-file-io-1.txt', exist=there)
    if (.not. there) failed(6) = 1
    inquire (file='hs-file-io-1.missing', exist=there)
    if (there) failed(7) = 1

    ! A missing file with status='old': IOSTAT and IOMSG, no termination.
    msg = ''
    open (newunit=u, file='hs-file-io-1.missing', status='old', &
	  iostat=ios, iomsg=msg)
    if (ios == 0 .or. len_trim (msg) == 0) failed(8) = 1

    ! List-directed read of numbers written by the device.
    open (newunit=u, file='hs-file-io-1.num', status='replace')
    write (u, *) 1, 2, 3, 4, 5
    write (u, *) 2.5d0
    rewind (u)
    read (u, *) vals
    read (u, *) d
    if (any (vals /= [1, 2, 3, 4, 5]) .or. d /= 2.5d0) failed(9) = 1
    close (u, status='delete')
    inquire (file='hs-file-io-1.num', exist=there)
    if (there) failed(10) = 1

    ! Sequential unformatted.
    open (newunit=u, file='hs-file-io-1.bin', form='unformatted', &
	  status='replace')
    write (u) [10, 20, 30, 40, 50]
    write (u) 3.25d0
    rewind (u)
    read (u) back
    read (u) d
    if (any (back /= [10, 20, 30, 40, 50]) .or. d /= 3.25d0) failed(11) = 1
    ! END= past the last record.
    read (u, end=20) k
    failed(12) = 1
20  continue
    close (u, status='delete')

    ! Stream access, with POS=.
    open (newunit=u, file='hs-file-io-1.str', access='stream', &
	  form='unformatted', status='replace')
    write (u) 7, 8, 9
    read (u, pos=5) k
    if (k /= 8) failed(13) = 1
    inquire (unit=u, pos=pos)
    if (pos /= 9) failed(14) = 1
    close (u, status='delete')
  end block
  !$omp end target

  if (any (failed /= 0)) then
    print '(a,14i2)', 'FAILED checks:', failed
    stop 1
  end if
  open (1, file='hs-file-io-1.txt', status='old')
  close (1, status='delete')
  print '(a)', 'file-io ok'
end program hs_file_io_1

! { dg-output "file-io ok" }
! { dg-final { ptx-valid } }
