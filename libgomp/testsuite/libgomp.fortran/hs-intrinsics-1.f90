! { dg-do run }
! Intrinsics that reach the system, in a target region: those host
! services carry work (RENAME, UNLINK, ACCESS, STAT, SYSTEM_CLOCK,
! DATE_AND_TIME, TIME); GETCWD and EXECUTE_COMMAND_LINE link, and report
! failure through their status arguments where the device cannot do them.

program hs_intrinsics_1
  implicit none
  integer, parameter :: nchecks = 7
  integer :: failed(nchecks)

  failed = 0
  !$omp target map(from: failed)
  block
    integer :: u, st, values(8), sarray(13)
    integer(8) :: count, rate, t
    character(len=256) :: dir

    open (newunit=u, file='hs-intrinsics-1.a', status='replace')
    write (u, '(a)') 'twelve bytes'
    close (u)
    call rename ('hs-intrinsics-1.a', 'hs-intrinsics-1.b', st)
    if (st /= 0) failed(1) = 1
    if (access ('hs-intrinsics-1.b', 'r') /= 0 &
	.or. access ('hs-intrinsics-1.a', ' ') == 0) failed(2) = 1
    call stat ('hs-intrinsics-1.b', sarray, st)
    if (st /= 0 .or. sarray(8) /= 13) failed(3) = 1
    call unlink ('hs-intrinsics-1.b', st)
    if (st /= 0 .or. access ('hs-intrinsics-1.b', ' ') == 0) failed(4) = 1
    call system_clock (count, rate)
    if (count <= 0 .or. rate <= 0) failed(5) = 1
    call date_and_time (values=values)
    t = time8 ()
    if (values(1) < 2024 .or. t < 1700000000_8) failed(6) = 1
    ! Where the device has no working directory, a status, not a crash.
    call getcwd (dir, st)
    if (st == 0 .and. len_trim (dir) == 0) failed(7) = 1
  end block
  !$omp end target

  if (any (failed /= 0)) then
    print '(a,7i2)', 'FAILED checks:', failed
    stop 1
  end if
  print '(a)', 'intrinsics ok'
end program hs_intrinsics_1

! { dg-output "intrinsics ok" }
! { dg-final { ptx-valid } }
