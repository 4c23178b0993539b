#!/bin/sh
# Build everything the GPU check needs into one folder that runs on a
# machine without a compiler: the host runtime, every DejaGnu test of
# libgomp/testsuite that runs (with its dg-options), the examples, the GPU
# benchmark, the GCC 14 flavour's GPU tests, and gpu-check.sh to run them;
# the LLVM peer (llvm/) when make-llvm-peer.sh has built it in LLVM_PEER.
# BUNDLE.tar.xz is the same, packed for a device run, which carries it
# and runs bench/gpu-run.sh.
# Usage: make-gpu-bundle.sh TOP STAGE BUNDLE [LLVM_PEER]
set -e
top=$1 stage=$2 bundle=$3 peer=$4
rm -rf "$bundle"
mkdir -p "$bundle/lib" "$bundle/tests"
cp -P "$stage"/lib/*.so* "$bundle/lib/"
# The server process (GOMP_HOST_SERVICES_SERVER=process), where
# lib/libgomp.so.1 looks for it.
mkdir -p "$bundle/libexec/gomp-hs"
cp "$stage/libexec/gomp-hs/gomp-hs-serve" "$bundle/libexec/gomp-hs/"
# The host Fortran and C++ runtimes, which the GPU machine may not have.
for l in libgfortran.so.5 libquadmath.so.0 libstdc++.so.6; do
  f=$(gcc-12 -print-file-name="$l")
  test -f "$f" && cp -L "$f" "$bundle/lib/$l"
done

# NAME.expect from the dg-output lines of SRC: Tcl strings of regular
# expressions, matched in order as one; undo Tcl's backslash
# substitution where a Perl regex differs.
expect_of ()
{
  sed -n 's/.*{ dg-output "\(.*\)" }.*/\1/p' "$1" \
    | sed -e 's/\\\[/[/g' -e 's/\\\]/]/g' -e 's/\\\\/\\/g' | tr -d '\n' \
    > "$bundle/tests/$2.expect"
  test -s "$bundle/tests/$2.expect" || rm -f "$bundle/tests/$2.expect"
}

for src in "$top"/libgomp/testsuite/libgomp.c/hs-*.c \
	   "$top"/libgomp/testsuite/libgomp.oacc-c/hs-*.c "$top"/examples/*.c; do
  grep -q 'dg-do \(link\|compile\)' "$src" && continue
  name=$(basename "$src" .c)
  case $src in
    */libgomp.oacc-c/*) flags="-O2 -fopenacc -foffload=nvptx-none" ;;
    *) flags="-O2 -fopenmp -foffload=nvptx-none" ;;
  esac
  opts=$(sed -n 's/.*{ dg-options "\(.*\)" }.*/\1/p' "$src")
  test -z "$opts" || flags=$opts
  # shellcheck disable=SC2086
  "$stage/bin/gomp-gcc" $flags "$src" -o "$bundle/tests/$name.exe" -lm
  expect_of "$src" "$name"
done
# The C++ tests, with gomp-g++.
for src in "$top"/libgomp/testsuite/libgomp.c++/hs-*.C; do
  test -f "$src" || continue
  grep -q 'dg-do \(link\|compile\)' "$src" && continue
  name=cxx-$(basename "$src" .C)
  "$stage/bin/gomp-g++" -O2 -fopenmp -foffload=nvptx-none "$src" \
    -o "$bundle/tests/$name.exe"
  expect_of "$src" "$name"
done
# The Fortran tests and examples, with gomp-gfortran.  A test that must
# fail (dg-shouldfail) gets NAME.status: the exit status it must end
# with (from an "exit status N" comment), or "nonzero".
for src in "$top"/libgomp/testsuite/libgomp.fortran/hs-*.f90 "$top"/examples/*.f90; do
  # Only tests that run; named apart from the C tests (hs-zero-cost-1 is
  # in both).
  grep -q 'dg-do \(link\|compile\)' "$src" && continue
  name=fortran-$(basename "$src" .f90)
  "$stage/bin/gomp-gfortran" -O2 -fopenmp -foffload=nvptx-none "$src" \
    -o "$bundle/tests/$name.exe"
  expect_of "$src" "$name"
  if grep -q 'dg-shouldfail' "$src"; then
    code=$(sed -n 's/.*exit status \([0-9][0-9]*\).*/\1/p' "$src" | head -n 1)
    echo "${code:-nonzero}" > "$bundle/tests/$name.status"
  fi
done
# tests/offload: an executable and a shared library offloading at once,
# the refusal of device work from a callback, and a callback that never
# returns at teardown.
"$stage/bin/gomp-gcc" -O2 -fopenacc -foffload=nvptx-none -fPIC -shared \
  "$top/tests/offload/hs-dso-lib.c" -o "$bundle/lib/libhsdso.so"
"$stage/bin/gomp-gcc" -O2 -fopenacc -foffload=nvptx-none \
  "$top/tests/offload/hs-dso-main.c" -o "$bundle/tests/hs-dso-main.exe" \
  -L"$bundle/lib" -lhsdso
printf '%s\n' "device, 0 bad records" > "$bundle/tests/hs-dso-main.expect"
"$stage/bin/gomp-gcc" -O2 -fopenmp -foffload=nvptx-none \
  "$top/tests/offload/hs-refuse-gpu.c" -o "$bundle/tests/hs-refuse-gpu.exe"
printf '%s\n' "refused, ended" > "$bundle/tests/hs-refuse-gpu.expect"
# A callback that never returns, then teardown at exit: the program ends.
"$stage/bin/gomp-gcc" -O2 -fopenmp -foffload=nvptx-none \
  "$top/tests/offload/hs-stuck-gpu.c" -o "$bundle/tests/hs-stuck-gpu.exe"
printf '%s\n' "hs-stuck-gpu: ended" > "$bundle/tests/hs-stuck-gpu.expect"
"$stage/bin/gomp-gcc" -O2 -fopenmp -foffload=nvptx-none \
  "$top/tests/offload/hs-stdio-calls.c" -o "$bundle/hs-stdio-calls.exe"
# Fortran STOP while other device threads write; an OpenACC printf with
# host services off (gpu-check.sh runs them with their own checks).
"$stage/bin/gomp-gfortran" -O2 -fopenmp -foffload=nvptx-none \
  "$top/tests/offload/hs-stop-threads.f90" -o "$bundle/hs-stop-threads.exe"
"$stage/bin/gomp-gcc" -O2 -fopenacc -foffload=nvptx-none \
  "$top/tests/offload/hs-oacc-off.c" -o "$bundle/hs-oacc-off.exe"
# printf from divergent OpenACC vector lanes in sm_80 user code.
"$stage/bin/gomp-gcc" -O2 -fopenacc -foffload=nvptx-none \
  -foffload-options=nvptx-none=-misa=sm_80 \
  "$top/tests/offload/hs-oacc-lanes-printf.c" -o "$bundle/hs-oacc-lanes-printf.exe"
"$stage/bin/gomp-gcc" -O2 -fopenmp -foffload=nvptx-none \
  "$top/bench/gpu-bench.c" -o "$bundle/gpu-bench.exe"
# Standalone programs (tests/standalone, tests/launcher's PTX) and their
# launcher, which gpu-standalone.sh runs.
mkdir -p "$bundle/bin" "$bundle/standalone"
cp "$stage/bin/gomp-nvptx-run" "$bundle/bin/"
cp "$top/bench/gpu-standalone.sh" "$bundle/"
for n in sa-stdio sa-posix sa-exit; do
  "$stage/bin/gomp-nvptx-gcc" -O2 "$top/tests/standalone/$n.c" \
    -o "$bundle/standalone/$n.exe"
done
"$stage/bin/gomp-nvptx-gcc" -O2 -mgomp "$top/tests/standalone/sa-lanes.c" \
  -o "$bundle/standalone/sa-lanes.exe"
"$stage/bin/gomp-nvptx-gfortran" -O2 "$top/tests/standalone/sa-fortran.f90" \
  -o "$bundle/standalone/sa-fortran.exe"
cp "$top"/tests/launcher/*.ptx "$bundle/standalone/"
"$stage/bin/gomp-nvptx-gcc" -O2 "$top/examples/standalone/wc.c" \
  -o "$bundle/standalone/wc.exe"
cp "$top/examples/standalone/wc.c" "$bundle/standalone/"
# 60 tests of GCC's gcc.c-torture/execute, with their runner.
sh "$top/tests/standalone/build-torture-sample.sh" "$stage" "$bundle/torture" 60 \
  "${GCC_SRC:?}" > "$bundle/torture-build.log" 2>&1 \
  || { tail "$bundle/torture-build.log"; exit 1; }
# Asynchronous OpenACC kernels in an image with host services and in one
# without.
"$stage/bin/gomp-gcc" -O2 -fopenacc -foffload=nvptx-none \
  -DHS_ACC_HOST_SERVICES "$top/bench/gpu-acc-async.c" \
  -o "$bundle/gpu-acc-async-hs.exe"
"$stage/bin/gomp-gcc" -O2 -fopenacc -foffload=nvptx-none \
  "$top/bench/gpu-acc-async.c" -o "$bundle/gpu-acc-async.exe"
# The benchmark's baselines: the physical limits through the CUDA driver
# API (PTX from nvcc), and launches of an image without host services
# under this libgomp and under Debian's own (stock-lib/).
cuda=${CUDA_HOME:-/usr/local/cuda}
if test -x "$cuda/bin/nvcc"; then
  "$cuda/bin/nvcc" -ptx -arch=sm_90 -o "$bundle/gpu-baseline.ptx" \
    "$top/bench/gpu-baseline.cu"
  ${HOST_CC:-gcc-12} -O2 -I"$cuda/include" -o "$bundle/gpu-baseline.exe" \
    "$top/bench/gpu-baseline.c" -L"$cuda/lib64/stubs" -lcuda -pthread
else
  echo "[gpu-bundle] no nvcc in $cuda: no physical baselines"
fi
"$stage/bin/gomp-gcc" -O2 -fopenmp -foffload=nvptx-none \
  "$top/bench/gpu-launch.c" -o "$bundle/gpu-launch.exe"
${HOST_CC:-gcc-12} -O2 -fopenmp -foffload=nvptx-none \
  -foffload-options=nvptx-none=-misa=${GOMP_GCC_PTX_ISA:-sm_80} \
  "$top/bench/gpu-launch.c" -o "$bundle/gpu-launch-stock.exe" 2>/dev/null
mkdir -p "$bundle/stock-lib"
cp -L /usr/lib/x86_64-linux-gnu/libgomp.so.1 \
  /usr/lib/x86_64-linux-gnu/libgomp-plugin-nvptx.so.1 "$bundle/stock-lib/"
# GCC's own offloading tests, built with Debian's compiler and with ours,
# for a comparison on the device (tests/upstream/bundle-upstream.sh); only
# when GCC_SRC names the GCC tree the build uses.
if test -n "$GCC_SRC" && test -d "$GCC_SRC/libgomp/testsuite"; then
  sh "$top/tests/upstream/bundle-upstream.sh" "$top" "$GCC_SRC" "$stage" \
    "$bundle/upstream"
fi
# The GCC 14 flavour's GPU tests (tests/gcc14-bundle.sh), built in the
# trixie root, where the flavour is built and the root can be made.
stage14=$(dirname "$stage")/gcc-14/stage
if test -x "$stage14/bin/gomp-gcc" && test "$(id -u)" = 0; then
  sh "$top/tests/gcc14-bundle.sh" "$top" "$stage14" "$(dirname "$stage")/gcc-14/gcc-src" \
    "$bundle/gcc14"
else
  echo "[gpu-bundle] without the GCC 14 flavour's tests (make gcc14; as root)"
fi
cp "$top/bench/gpu-check.sh" "$bundle/"
if test -n "$peer" && test -x "$peer/run.sh"; then
  cp -r "$peer" "$bundle/llvm"
  echo "[gpu-bundle] with the LLVM peer from $peer"
else
  echo "[gpu-bundle] without the LLVM peer (make llvm-peer builds it)"
fi
echo "[gpu-bundle] packing $bundle.tar.xz"
rm -f "$bundle.tar.xz"
tar -C "$(dirname "$bundle")" -cf - "$(basename "$bundle")" \
  | xz -6 -T"${JOBS:-2}" > "$bundle.tar.xz.tmp"
mv "$bundle.tar.xz.tmp" "$bundle.tar.xz"
size=$(stat -c %s "$bundle.tar.xz")
echo "[gpu-bundle] $bundle: $(ls "$bundle/tests"/*.exe | wc -l) programs; $bundle.tar.xz: $((size / 1048576)) MiB"
# A device run carries at most 64 MiB in all.
if test "$size" -gt $((60 * 1048576)); then
  echo "[gpu-bundle] $bundle.tar.xz is over 60 MiB: too big to carry" >&2
  exit 1
fi
echo "[gpu-bundle] on a GPU machine: run gpu-bundle/gpu-check.sh, or carry gpu-bundle.tar.xz and run bench/gpu-run.sh"
