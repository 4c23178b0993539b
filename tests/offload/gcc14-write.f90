! For the GPU check of the GCC 14 flavour (tests/gcc14-bundle.sh): a
! Fortran WRITE in a target region that must run on the device, which
! Debian 13's own runtime cannot even link.
program gcc14_write
  use omp_lib
  implicit none
  logical :: dev
  integer :: i
  i = 14
  dev = .false.
  !$omp target map(to: i) map(from: dev)
  dev = .not. omp_is_initial_device ()
  write (*, '(a, i0)') 'gcc14-write: from the device: ', i
  !$omp end target
  if (.not. dev) stop 1
end program gcc14_write
