! Host Fortran for tests/sim/exit-fortran.c: a READ that blocks holding
! unit 5, and a WRITE to unit 6 that stays in libgfortran's buffer.
subroutine hs_exit_reader () bind(c)
  character(len=64) :: line
  read (5, '(a)') line
end subroutine hs_exit_reader

subroutine hs_exit_write () bind(c)
  write (6, '(a)') 'fortran line'
end subroutine hs_exit_write
