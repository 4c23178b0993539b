! A standalone nvptx program in Fortran (gomp-nvptx-gfortran): OPEN,
! WRITE, READ, INQUIRE, CLOSE on a host file, PRINT, and STOP with a
! status.  Run as: sa-fortran DIR; prints "sa-fortran: ok" and stops
! with status 4, or names the failed check and stops with 1.
program sa_fortran
  implicit none
  character(len=4096) :: dir
  character(len=4200) :: name
  integer :: i, n, s, u, ios
  logical :: there

  call get_command_argument (1, dir)
  name = trim (dir) // "/fortran.txt"
  open (newunit=u, file=trim (name), status="replace", action="write")
  do i = 1, 100
    write (u, "(I0)") i
  end do
  close (u)
  inquire (file=trim (name), exist=there)
  if (.not. there) then
    print *, "sa-fortran: FAILED: inquire"
    stop 1
  end if
  s = 0
  open (newunit=u, file=trim (name), status="old", action="read")
  do
    read (u, *, iostat=ios) n
    if (ios /= 0) exit
    s = s + n
  end do
  close (u)
  if (s /= 5050) then
    print *, "sa-fortran: FAILED: sum", s
    stop 1
  end if
  print "(A)", "sa-fortran: ok"
  stop 4
end program sa_fortran
