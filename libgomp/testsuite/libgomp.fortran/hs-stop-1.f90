! { dg-do run }
! { dg-shouldfail "STOP 3" }
! The GPU check (bench/gpu-check.sh) wants exit status 3.
! STOP with a code in a target region: the message, what the device wrote
! before (to a file it never closed: the WRITE statement sent it), and the code as the
! program's exit status.

program hs_stop_1
  implicit none
  integer :: u
  !$omp target
    open (newunit=u, file='hs-stop-1.txt', status='replace')
    write (u, '(a)') 'written before STOP'
    stop 3
  !$omp end target
  print '(a)', 'not reached'
end program hs_stop_1

! { dg-output "STOP 3" }
! { dg-final { ptx-valid } }
