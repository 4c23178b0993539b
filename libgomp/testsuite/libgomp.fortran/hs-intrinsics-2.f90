! { dg-do link }
! Every intrinsic of the full library that reaches the system links in a
! target region, and the image passes ptxas and nvlink: none is left for
! the user to find as an unresolved symbol.  (What they do on the device
! is in the manual; hs-intrinsics-1.f90 runs those host services carry.)

program hs_intrinsics_2
  implicit none
  integer :: st, c, r, m, t(8), ios
  real :: cpu, ta(2), tt
  character(len=64) :: s
  integer(8) :: c8
  !$omp target map(from: st)
    call execute_command_line ('true', exitstat=st)
    call system_clock (c, r, m)
    call cpu_time (cpu)
    call date_and_time (values=t)
    call get_environment_variable ('HOME', s, status=st)
    call getcwd (s)
    call sleep (0)
    st = system ('true')
    call rename ('a', 'b')
    call unlink ('a')
    st = access ('a', 'r')
    st = time ()
    call ctime (0, s)
    call chdir ('.')
    call getlog (s)
    st = getpid ()
    st = getuid ()
    call hostnm (s)
    call perror ('x')
    tt = etime (ta)
    tt = dtime (ta)
    st = umask (0)
    call link ('a', 'c')
    call symlnk ('a', 'd')
    call chmod ('a', 'u+r')
    st = kill (1, 0)
    c8 = 0
    call get_command (s)
    call get_command_argument (1, s)
    c = command_argument_count ()
  !$omp end target
  print *, st
end program hs_intrinsics_2

! { dg-final { ptx-valid } }
