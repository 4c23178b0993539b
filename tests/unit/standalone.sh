#!/bin/sh
# Standalone nvptx programs (tests/standalone), built with gomp-nvptx-gcc
# and gomp-nvptx-gfortran: each links, has main's kernel and the device
# runtime's host-service symbol, and its PTX passes ptxas and nvlink for
# sm_90; the calls whose newlib ABI differs from the host's go to the
# newlib-ABI functions; -mgomp links the uniform-SIMT multilib; the
# driver's errors are clear.  They run on a GPU in the GPU check
# (bench/gpu-check.sh, with gomp-nvptx-run).
# Environment: TOP, STAGE, WORK, PTXAS, NVLINK.
w=$WORK/standalone
rm -rf "$w"; mkdir -p "$w"
cd "$w" || exit 1
cc=$STAGE/bin/gomp-nvptx-gcc
fc=$STAGE/bin/gomp-nvptx-gfortran
src=$TOP/tests/standalone

ptx_check ()
{
  name=$1
  sh "$TOP/tests/ptx-split.sh" "$name.exe" "$name.ptx"
  set -- "$name.ptx"/module-*.ptx
  if ! test -f "$1"; then
    echo "FAIL: standalone: $name: no PTX modules"
    return
  fi
  grep -q '^\.visible \.entry __main' "$@" \
    || echo "FAIL: standalone: $name: no __main kernel"
  grep -q 'GLOBAL VAR DEF: __gomp_host_service$' "$@" \
    && echo "PASS: standalone: $name has the host-service client" \
    || echo "FAIL: standalone: $name: no __gomp_host_service"
  if test -z "$PTXAS" || test -z "$NVLINK"; then
    echo "UNSUPPORTED: standalone: $name ptx-valid (no ptxas/nvlink)"
    return
  fi
  if why=$(sh "$TOP/tests/ptx-link-check.sh" sm_90 "$name.cubin" "$@"); then
    echo "PASS: standalone: $name ptx-valid ($# modules)"
  else
    echo "FAIL: standalone: $name: $why"
  fi
}

build ()
{
  name=$1
  shift
  if "$@" -o "$name.exe" > "$name.log" 2>&1; then
    echo "PASS: standalone: $name builds"
    ptx_check "$name"
    return 0
  fi
  echo "FAIL: standalone: $name does not build: $*"
  sed 's/^/  /' "$name.log" | head -20
  return 1
}

build sa-stdio "$cc" -O2 -Wall -Werror "$src/sa-stdio.c"
build sa-exit "$cc" -O2 -Wall -Werror "$src/sa-exit.c"
build sa-fortran "$fc" -O2 -Wall "$src/sa-fortran.f90"
if build sa-posix "$cc" -O2 -Wall -Werror "$src/sa-posix.c"; then
  # The program's own module (the one that defines main) calls the
  # newlib-ABI names, never the host-ABI ones.
  m=$(grep -l 'GLOBAL FUNCTION DEF: main$' sa-posix.ptx/module-*.ptx)
  bad=
  for f in _open _stat __gomp_nvptx_fstat __gomp_nvptx_lstat \
	   __gomp_nvptx_clock_gettime; do
    grep -q "call.*[ ,(]$f," "$m" || bad="$bad missing:$f"
  done
  for f in open stat fstat lstat clock_gettime; do
    grep -q "call.*[ ,(]$f," "$m" && bad="$bad host-ABI:$f"
  done
  test -z "$bad" && echo "PASS: standalone: sa-posix calls the newlib-ABI open, stat, fstat, lstat, clock_gettime" \
    || echo "FAIL: standalone: sa-posix's calls:$bad"
fi
if build sa-lanes "$cc" -O2 -mgomp "$src/sa-lanes.c"; then
  # Uniform-SIMT code (the mgomp multilib) keeps its per-warp state in
  # __nvptx_uni: libc's modules use it too.
  n=$(grep -l '__nvptx_uni' sa-lanes.ptx/module-*.ptx | wc -l)
  test "$n" -gt 5 && echo "PASS: standalone: -mgomp links the uniform-SIMT multilib ($n modules)" \
    || echo "FAIL: standalone: -mgomp: only $n modules are uniform-SIMT code"
fi

# The ISA: the user's -misa that this ptxas rejects fails in nvptx-as,
# and a note after its errors says why and names the ISAs it accepts.
if test -n "$PTXAS"; then
  if PATH=$(dirname "$PTXAS"):$PATH "$cc" -misa=sm_30 -c "$src/sa-exit.c" \
       -o isa.o 2> isa.err; then
    echo "FAIL: standalone: -misa=sm_30 accepted by a ptxas that rejects it"
  elif tail -n 1 isa.err | grep -q '^gomp-nvptx-gcc: note: -misa=sm_30: the ptxas on PATH .* cannot assemble code for sm_30, .*use one it accepts: sm_'; then
    echo "PASS: standalone: -misa=sm_30: the compile fails, with a note naming the ISAs ptxas accepts"
  else
    echo "FAIL: standalone: -misa=sm_30: $(cat isa.err)"
  fi
fi

# No install around the driver: a clear error.
mkdir -p empty/bin
cp "$cc" empty/bin/
if empty/bin/gomp-nvptx-gcc "$src/sa-exit.c" -o x.exe 2> err.txt; then
  echo "FAIL: standalone: the driver without its install succeeded"
elif grep -q "build it with 'make' first" err.txt; then
  echo "PASS: standalone: the driver without its install: clear error"
else
  echo "FAIL: standalone: the driver without its install: $(cat err.txt)"
fi

# The device libgfortran (target regions and standalone programs alike) is
# compiled with newlib's headers: its open, stat, fstat, lstat and
# clock_gettime must be the newlib-ABI ones (gomp-nvptx-abi.h), never the
# host-ABI plain names, which would take newlib's flags and struct stat
# for the host's.
for ml in "" mgomp/; do
  lib=$STAGE/lib/nvptx-none/${ml}libgfortran.a
  rm -rf "gf-$ml"; mkdir -p "gf-$ml"
  ( cd "gf-$ml" && nvptx-none-ar x "$lib" ) || { echo "FAIL: standalone: cannot unpack $lib"; continue; }
  calls=$(cat "gf-$ml"/*.o | grep -o 'call[^,]*, *\(open\|stat\|fstat\|lstat\|clock_gettime\),' | sort -u)
  good=$(cat "gf-$ml"/*.o | grep -c 'call[^,]*, *\(_open\|_stat\|__gomp_nvptx_fstat\),')
  if test -z "$calls" && test "$good" -gt 0; then
    echo "PASS: standalone: ${ml}libgfortran.a calls the newlib-ABI open, stat, fstat ($good calls)"
  else
    echo "FAIL: standalone: ${ml}libgfortran.a calls host-ABI functions: $calls ($good newlib-ABI calls)"
  fi
done

# -nostdlib: neither crt0 nor the device libraries; the link then fails
# on the program's own references, which names them.
if "$cc" -nostdlib "$src/sa-exit.c" -o nostd.exe > nostd.log 2>&1; then
  echo "FAIL: standalone: -nostdlib linked a program that needs the C library"
elif grep -q 'unresolved symbol' nostd.log && ! grep -q 'crt0' nostd.log \
     && ! grep -q -- '-lgomp' nostd.log; then
  echo "PASS: standalone: -nostdlib links neither crt0 nor the device libraries"
else
  echo "FAIL: standalone: -nostdlib: $(head -3 nostd.log)"
fi
