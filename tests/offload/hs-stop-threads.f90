! STOP in a target region while other device threads are writing (issue
! 16, item 6): 256 OpenMP threads of 8 teams write lines to one unit the
! device opened, and one of them stops with code 7 in the middle.  The
! program must end with status 7 and the STOP message, not with a fault
! of a thread writing through a unit that the stopping thread freed.
! GPU only (bench/gpu-check.sh): on the host, STOP in a parallel region
! runs the host's exit under the other threads.

program hs_stop_threads
  use omp_lib
  implicit none
  integer :: u, i, k
  logical :: on_device

  !$omp target map(from: u, on_device)
    on_device = .not. omp_is_initial_device ()
    open (newunit=u, file='hs-stop-threads.txt', status='replace', &
	  action='write')
  !$omp end target
  if (on_device) then
    print '(a)', 'stop-threads: on the device'
  else
    print '(a)', 'stop-threads: on the host'
  end if
  flush (6)
  !$omp target teams distribute parallel do num_teams(8) thread_limit(32) &
  !$omp   map(to: u) private(k)
  do i = 1, 256
    do k = 1, 400
      write (u, '(a,i4,a,i4)') 'thread ', i, ' line ', k
      if (i == 37 .and. k == 50) stop 7
    end do
  end do
  print '(a)', 'not reached'
end program hs_stop_threads
