#!/bin/sh
# Unit tests of the gomp-gfortran driver and the device libgfortran: a
# clear error without the device library; a Fortran program without I/O
# in target regions embeds the same device code as without this
# libgfortran; one with I/O embeds the I/O library; the device library
# holds the I/O library and no minimal.o.  Environment: STAGE, WORK,
# PTX_EXTRACT.
stage=$STAGE
work=$WORK/gomp-gfortran
rm -rf "$work"; mkdir -p "$work"
cd "$work" || exit 1

pass () { echo "PASS: gomp-gfortran $*"; }
fail () { echo "FAIL: gomp-gfortran $*"; }

if ! command -v gfortran-12 > /dev/null 2>&1; then
  echo "UNSUPPORTED: gomp-gfortran: gfortran-12 is not installed"
  exit 0
fi

cat > plain.f90 <<'SRC'
program plain
  integer :: a(8), i
  !$omp target map(from: a)
    do i = 1, 8
      a(i) = i * i
    end do
  !$omp end target
  if (a(8) /= 64) stop 1
  print '(a)', 'plain ok'
end program plain
SRC
cat > io.f90 <<'SRC'
program io
  integer :: n
  n = 42
  !$omp target map(to: n)
    write (*, '(a,i0)') 'device n=', n
  !$omp end target
end program io
SRC

# 1. Without the device libgfortran: a clear error.
mkdir -p empty/bin empty/lib
cp "$stage/bin/gomp-gfortran" "$stage/bin/gomp-gcc" empty/bin/
cp -P "$stage"/lib/libgomp.so* empty/lib/ 2>/dev/null
if empty/bin/gomp-gfortran -fopenmp plain.f90 -o p-empty 2> err.txt; then
  fail "without a device libgfortran: succeeded"
elif grep -q "libgfortran.a is missing: build it with 'make' first" err.txt; then
  pass "without a device libgfortran: clear error"
else
  fail "without a device libgfortran: unexpected message: $(cat err.txt)"
fi

# 2. Zero cost: without I/O in target regions, the embedded modules are
# those of a build that does not link this libgfortran at all.
modules ()
{
  rm -rf "ptx-$1"; mkdir "ptx-$1"
  "$PTX_EXTRACT" "$1" "ptx-$1" > /dev/null || return 1
  cat "ptx-$1"/*.ptx | md5sum | cut -d' ' -f1
}
"$stage/bin/gomp-gfortran" -O2 -fopenmp plain.f90 -o p-ours 2> err.txt \
  && ./p-ours | grep -q 'plain ok' \
  && pass "a program without device I/O builds and runs" \
  || fail "a program without device I/O: $(cat err.txt)"
GOMP_GCC_CC=gfortran-12 "$stage/bin/gomp-gcc" -O2 -fopenmp plain.f90 \
  -o p-without 2> err.txt || fail "build without the device libgfortran: $(cat err.txt)"
a=$(modules p-ours) b=$(modules p-without)
if test -n "$a" && test "$a" = "$b"; then
  pass "without device I/O, the device code is the same as without the device libgfortran"
else
  fail "without device I/O, the device code differs ($a vs $b)"
fi

# 3. With I/O: the I/O library and the host-service client are in.
"$stage/bin/gomp-gfortran" -O2 -fopenmp io.f90 -o io 2> err.txt \
  && ./io | grep -q 'device n=42' \
  && pass "a program with device I/O builds and runs" \
  || fail "a program with device I/O: $(cat err.txt)"
modules io > /dev/null
for sym in _gfortran_st_write_done _gfortrani_device_init gomp_hs_call; do
  if grep -q "^// BEGIN GLOBAL FUNCTION DEF: $sym\$" ptx-io/*.ptx; then
    pass "with device I/O, $sym is linked"
  else
    fail "with device I/O, $sym is not linked"
  fi
done

# 4. The archives: the I/O library in, GCC's minimal runtime out.
for ml in . mgomp; do
  lib=$stage/lib/nvptx-none/$ml/libgfortran.a
  members=$(nvptx-none-ar t "$lib" 2>/dev/null)
  if echo "$members" | grep -qx transfer.o && echo "$members" | grep -qx device-runtime.o \
     && ! echo "$members" | grep -qx minimal.o; then
    pass "$ml/libgfortran.a holds the I/O library, not minimal.o"
  else
    fail "$ml/libgfortran.a members are wrong"
  fi
  # STOP on the device (exit, as the build maps it) flushes units under
  # locks it only tries to take, and closes or frees none (issue 16,
  # item 6): other device threads may be writing to them.
  # The calls of every function of the module but device_init.
  rt=$(nvptx-none-ar p "$lib" device-runtime.o 2>/dev/null \
       | awk '/^\/\/ BEGIN .*FUNCTION DEF:/ { p = $NF != "_gfortrani_device_init" }
	      p && /call/')
  if nvptx-none-ar p "$lib" device-runtime.o 2>/dev/null \
       | grep -q '^// BEGIN GLOBAL FUNCTION DEF: _gfortrani_device_exit$' \
     && echo "$rt" | grep -q '__retarget_lock_try_acquire_recursive' \
     && ! echo "$rt" | grep -q 'close_unit\|__retarget_lock_acquire_recursive\|__gomp_nvptx_gthread_lock'; then
    pass "$ml: device exit (STOP) flushes under trylocks and closes no unit"
  else
    fail "$ml: device exit (STOP) closes units or waits for their locks"
  fi
  # It also flushes the device's C streams (a program that prints with
  # printf too), under the same bounded try-locks: stdio's setup and
  # stream-table locks are only tried, and no stdio function that locks
  # a FILE and waits for it (fflush, newlib's exit flush) is called.
  # A second exiting thread waits, by the clock, for the first one
  # (whose identity it compares with its own) instead of ending the
  # program at once.
  ptx=$(nvptx-none-ar p "$lib" device-runtime.o 2>/dev/null)
  if echo "$ptx" | grep -q '__lock___sinit_recursive_mutex' \
     && echo "$ptx" | grep -q '__lock___sfp_recursive_mutex' \
     && echo "$ptx" | grep -q '__nvptx_exit_flush' \
     && ! echo "$rt" | grep -q 'call[^,]*\(fflush\|_fflush_r\|_fwalk\|__sinit\|__sfp_lock\|_flockfile\)'; then
    pass "$ml: device exit (STOP) flushes C streams under trylocks"
  else
    fail "$ml: device exit (STOP) does not flush C streams, or waits for their locks"
  fi
  if echo "$rt" | grep -q '__gomp_nvptx_thread_self' \
     && echo "$ptx" | grep -q '%globaltimer' \
     && echo "$ptx" | grep -q 'ld.volatile'; then
    pass "$ml: a second device exit waits, bounded, for the first"
  else
    fail "$ml: a second device exit does not wait for the first"
  fi
done
