! { dg-do run }
! PRINT and WRITE to units *, 6 and 0 in a target region: list-directed
! and formatted, as the host's own units would write them.  (The line to
! stderr comes first: the host's own stdout, where the region falls back
! to the host, is buffered.)

program hs_print_1
  implicit none
  integer :: i
  real :: x

  i = 42
  x = 1.5
  !$omp target map(to: i, x)
    write (0, '(a,i0)') 'unit 0 (stderr): ', i
    print *, 'list-directed', i, x
    write (*, '(a,i0,a,f6.2)') 'formatted i=', i, ' x=', x
    write (6, '(a,3i4)') 'unit 6:', i, i + 1, i + 2
    write (6, '(a)', advance='no') 'no-advance '
    write (6, '(a)') 'then the rest'
  !$omp end target
end program hs_print_1

! { dg-output "unit 0 \\(stderr\\): 42(\n|\r\n|\r)" }
! { dg-output " list-directed +42 +1.50000000 *(\n|\r\n|\r)" }
! { dg-output "formatted i=42 x=  1.50(\n|\r\n|\r)" }
! { dg-output "unit 6:  42  43  44(\n|\r\n|\r)" }
! { dg-output "no-advance then the rest(\n|\r\n|\r)" }
! { dg-final { ptx-valid } }
! { dg-final { ptx-defined _gfortran_st_write _gfortran_st_write_done _gfortrani_device_init __gomp_host_exit gomp_hs_call } }
