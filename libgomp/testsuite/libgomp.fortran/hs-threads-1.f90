! { dg-do run }
! Units from many OpenMP threads of many teams: every thread writes lines
! to one file opened before, each to a file of its own, and reports errors
! per thread.  One WRITE statement is one line, never mixed with another.
! The shared unit is opened and closed on the device, in target regions
! of their own: a unit the host opened is not the device's.

program hs_threads_1
  implicit none
  integer, parameter :: nteams = 4, nthr = 8, nlines = 16
  integer :: u, i, j, k, ios, bad, own_bad
  integer :: seen(nteams * nthr, nlines)
  character(len=80) :: line

  bad = 0
  own_bad = 0
  !$omp target map(from: u)
    open (newunit=u, file='hs-threads-1.txt', status='replace', action='write')
  !$omp end target
  !$omp target teams distribute parallel do collapse(2) num_teams(nteams) &
  !$omp   thread_limit(nthr) map(to: u) map(tofrom: own_bad) private(k)
  do i = 1, nteams
    do j = 1, nthr
      block
	integer :: v, e, id
	character(len=32) :: name
	character(len=40) :: got
	id = (i - 1) * nthr + j
	do k = 1, nlines
	  write (u, '(a,i4,a,i4,a)') 'thread', id, ' line', k, &
	    ' xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'
	end do
	! A file per thread: open, write, read back, delete.
	write (name, '(a,i0,a)') 'hs-threads-1.', id, '.tmp'
	open (newunit=v, file=trim (name), status='replace', iostat=e)
	if (e == 0) then
	  write (v, '(a,i0)') 'mine ', id
	  rewind (v)
	  read (v, '(a)', iostat=e) got
	  if (e /= 0 .or. got /= 'mine ' // trim (adjustl (itoa (id)))) e = 1
	  close (v, status='delete')
	end if
	if (e /= 0) then
	  !$omp atomic
	  own_bad = own_bad + 1
	end if
	! A failing OPEN in every thread: the error is this thread's.
	open (newunit=v, file='hs-threads-1.missing', status='old', iostat=e)
	if (e == 0) then
	  !$omp atomic
	  own_bad = own_bad + 1
	end if
      end block
    end do
  end do
  !$omp target map(to: u)
    close (u)
  !$omp end target

  seen = 0
  open (newunit=u, file='hs-threads-1.txt', status='old', action='read')
  do
    read (u, '(a)', iostat=ios) line
    if (ios /= 0) exit
    read (line, '(6x,i4,5x,i4)', iostat=ios) i, k
    if (ios /= 0 .or. i < 1 .or. i > nteams * nthr .or. k < 1 .or. k > nlines &
	.or. line(20:) /= ' xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx') then
      bad = bad + 1
      print '(a,a)', 'bad line: ', trim (line)
    else
      seen(i, k) = seen(i, k) + 1
    end if
  end do
  close (u, status='delete')
  if (bad /= 0 .or. any (seen /= 1) .or. own_bad /= 0) then
    print *, 'bad lines', bad, ' missing or doubled', count (seen /= 1), &
      ' own-file errors or failing opens that succeeded', own_bad
    stop 1
  end if
  print '(a,i0,a)', 'threads ok: ', nteams * nthr * nlines, ' lines'
contains
  pure function itoa (n) result (s)
    !$omp declare target
    integer, intent(in) :: n
    character(len=12) :: s
    write (s, '(i0)') n
  end function itoa
end program hs_threads_1

! { dg-output "threads ok: 512 lines" }
! { dg-final { ptx-valid } }
