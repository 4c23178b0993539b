! { dg-do run }
! A Fortran target region without I/O links none of the I/O library and
! no host-service client.

program hs_zero_cost_1
  implicit none
  integer :: a(100), i
  !$omp target map(from: a)
    do i = 1, 100
      a(i) = i * i
    end do
  !$omp end target
  if (a(10) /= 100) stop 1
end program hs_zero_cost_1

! { dg-final { ptx-valid } }
! { dg-final { ptx-not-defined _gfortran_st_write gomp_hs_call __gomp_host_service } }
