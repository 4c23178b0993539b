! { dg-do run }
! { dg-shouldfail "ERROR STOP 5" }
! The GPU check (bench/gpu-check.sh) wants exit status 5.
! ERROR STOP with a code in a target region: the message and the code as
! the program's exit status, from one thread of many.

program hs_error_stop_1
  implicit none
  integer :: i
  !$omp target teams distribute parallel do
  do i = 1, 64
    if (i == 37) error stop 5
  end do
  print '(a)', 'not reached'
end program hs_error_stop_1

! { dg-output "ERROR STOP 5" }
! { dg-final { ptx-valid } }
