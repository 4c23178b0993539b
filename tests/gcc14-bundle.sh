#!/bin/sh
# For the GPU bundle: the GCC 14 flavour's GPU tests, built in the trixie
# root (build-aux/trixie-root.sh) with this flavour's gomp-gcc and
# gomp-gfortran driving Debian 13's gcc-14 and gfortran-14, and what they
# need to run on a GPU machine that is not Debian 13: trixie's dynamic
# loader and C, C++ and Fortran runtimes, and this flavour's libgomp and
# nvptx plugin (DEST/lib; the GPU machine's CUDA driver comes after them
# on the library path).  The tests: tests/offload/gcc14-io.c and
# gcc14-write.f90 (they fail unless they ran on the device),
# libgomp.c++/hs-c23-strtol-1.C, and GCC 14's own reverse-offload and
# print tests.  DEST/run.sh (tests/gcc14-gpu.sh)
# runs them.  Needs root (chroot).
# Usage: gcc14-bundle.sh TOP STAGE14 GCC14_SRC DEST
set -e
top=$1 stage=$2 src=$3 dest=$4
ts=$src/libgomp/testsuite
rm -rf "$dest"
mkdir -p "$dest/lib" "$dest/tests" "$dest/src"
work=$(dirname "$stage")/bundle-root
root=$("$top"/build-aux/trixie-root.sh "$work" | tail -n 1)
test -n "$root" && test -d "$root/usr/bin" || { echo "[gpu-bundle] gcc14: no trixie root" >&2; exit 1; }
in_root ()
{
  CUDA_BIN=/nonexistent "$top"/build-aux/in-trixie-root.sh "$root" "$dest" "$stage" \
    -- sh -c "cd $dest/src && $*"
}
cp "$top/tests/offload/gcc14-io.c" "$top/tests/offload/gcc14-write.f90" "$dest/src/"
# NAME DRIVER SOURCE...: build DEST/tests/NAME.exe.
build ()
{
  name=$1 drv=$2
  shift 2
  in_root "$stage/bin/$drv -O2 $* -o $dest/tests/$name.exe" > "$dest/src/$name.log" 2>&1 \
    || { tail -n 5 "$dest/src/$name.log" >&2; echo "[gpu-bundle] gcc14: $name does not build" >&2; exit 1; }
}
build io gomp-gcc -fopenmp gcc14-io.c
echo 'gcc14-io: on the device, fprintf 10, read back "device 14"' > "$dest/tests/io.expect"
build write gomp-gfortran -fopenmp gcc14-write.f90
echo 'gcc14-write: from the device: 14' > "$dest/tests/write.expect"
# This project's test of glibc's C23 strtol names, which only Debian 13's
# headers (with g++'s _GNU_SOURCE) make: host and device must agree.
cp "$top/libgomp/testsuite/libgomp.c++/hs-c23-strtol-1.C" "$dest/src/"
build cxx-hs-c23-strtol-1 gomp-g++ -fopenmp hs-c23-strtol-1.C
for t in $(grep -v -e '^#' -e '^cxx:' "$top/tests/upstream/gcc14-tests.txt"); do
  lang=${t%%:*} rel=${t#*:}
  s=$ts/$rel
  name=up-$lang-$(basename "$s" | sed 's/\.[^.]*$//')
  case $lang in
    c) drv="gomp-gcc -fopenmp" ;;
    acc) drv="gomp-gcc -fopenacc" ;;
    f) drv="gomp-gfortran -fopenmp" ;;
    facc) drv="gomp-gfortran -fopenacc" ;;
  esac
  cp "$s" "$dest/src/"
  srcs=$(basename "$s")
  for x in $(sed -n "s/.*dg-additional-sources \([^ ]*\) .*/\1/p" "$s"); do
    cp "$(dirname "$s")/$x" "$dest/src/"; srcs="$srcs $x"
  done
  incs=$(sed -n "s/^include '\([^']*\)'.*/\1/p" "$s")
  for x in $incs; do cp "$(dirname "$s")/$x" "$dest/src/"; done
  # shellcheck disable=SC2086
  build "$name" $drv $srcs
  # The print tests' dg-output (in the test or in what it includes).
  if (cd "$dest/src" && grep -q 'dg-output "The answer is 42' "$(basename "$s")" $incs); then
    echo 'The answer is 42' > "$dest/tests/$name.expect"
  fi
done
# Trixie's loader and runtimes, and this flavour's libgomp.
for l in ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 \
	 librt.so.1 libgcc_s.so.1 libstdc++.so.6 libgfortran.so.5 libquadmath.so.0; do
  cp -L "$root/usr/lib/x86_64-linux-gnu/$l" "$dest/lib/"
done
cp -L "$stage/lib/libgomp.so.1" "$stage/lib/libgomp-plugin-nvptx.so.1" "$dest/lib/"
rm -rf "$dest/src"/*.log
cp "$top/tests/gcc14-gpu.sh" "$dest/run.sh"
echo "[gpu-bundle] gcc14: $(ls "$dest/tests"/*.exe | wc -l) programs built with Debian 13's compilers"
