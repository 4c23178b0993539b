! { dg-do run }
! { dg-shouldfail "runtime error" }
! The GPU check (bench/gpu-check.sh) wants exit status 2.
! A runtime error without IOSTAT= in a target region: the host's message
! for the failing OPEN, and error termination (exit status 2).

program hs_error_1
  implicit none
  integer :: u
  !$omp target
    open (newunit=u, file='hs-error-1.missing', status='old')
    print '(a)', 'not reached'
  !$omp end target
end program hs_error_1

! { dg-output "Cannot open file 'hs-error-1.missing': No such file or directory" }
! { dg-final { ptx-valid } }
