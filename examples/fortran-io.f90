! Fortran I/O in an OpenMP target region: every thread of every team
! writes its partial sum to one file with a formatted WRITE; the device
! reads the file back to add them up, and PRINTs the result.  Built with
! gomp-gfortran; runs on the GPU when there is one, else on the host.
! The device has units of its own (a unit the host opens is not one of
! them), so the file is opened and closed on the device too: the unit
! number, mapped back, stays valid in later target regions of the program.

program fortran_io
  use omp_lib
  implicit none
  integer, parameter :: n = 1000000, nchunk = 64
  integer :: u, ios, k, chunk
  integer(8) :: part, total, expected
  logical :: on_device

  !$omp target map(from: u)
    open (newunit=u, file='fortran-io.txt', status='replace', action='write')
  !$omp end target
  !$omp target teams distribute parallel do map(to: u) private(part, k)
  do chunk = 1, nchunk
    part = 0
    do k = chunk, n, nchunk
      part = part + k
    end do
    ! One statement, one line: never mixed with another thread's.
    write (u, '(a,i3,a,i0)') 'chunk ', chunk, ' sum ', part
  end do
  !$omp target map(to: u)
    close (u)
  !$omp end target

  !$omp target map(from: total, on_device)
    on_device = .not. omp_is_initial_device ()
    total = 0
    open (newunit=u, file='fortran-io.txt', status='old', action='read')
    do
      read (u, '(13x,i20)', iostat=ios) part
      if (ios /= 0) exit
      total = total + part
    end do
    close (u, status='delete')
    print '(a,i0,a,l1,a)', 'sum of 1..1000000 = ', total, &
      ' (read back on the device: ', on_device, ')'
  !$omp end target

  expected = int (n, 8) * (n + 1) / 2
  if (total /= expected) then
    print '(a,i0)', 'wrong sum, expected ', expected
    stop 1
  end if
end program fortran_io
