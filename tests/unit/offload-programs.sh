#!/bin/sh
# The offload programs of tests/offload, built with gomp-gcc and run (on
# the host here; on a GPU by the GPU check, bench/gpu-check.sh): an
# executable and a shared library that both offload and call the host at
# once, the refusal of device work from a callback, and a callback that
# never returns at teardown.  Their embedded
# PTX is checked with ptxas and nvlink for sm_90 when CUDA's tools are
# there.  Environment: TOP, STAGE, WORK, PTXAS, NVLINK, PTX_EXTRACT.
gcc=$STAGE/bin/gomp-gcc
w=$WORK/offload
rm -rf "$w"; mkdir -p "$w"
cd "$w" || exit 1

build ()
{
  # shellcheck disable=SC2086
  if "$gcc" "$@" > build.log 2>&1; then
    return 0
  fi
  echo "FAIL: offload: gomp-gcc $*"
  cat build.log
  return 1
}

ptx_check ()
{
  name=$1 file=$2
  if test -z "$PTXAS" || test -z "$NVLINK"; then
    echo "UNSUPPORTED: offload: $name ptx-valid (no ptxas/nvlink)"
    return
  fi
  rm -rf "$file.ptx"; mkdir "$file.ptx"
  "$PTX_EXTRACT" "$file" "$file.ptx" > /dev/null 2>&1
  set -- "$file.ptx"/module-*.ptx
  if ! test -f "$1"; then
    echo "FAIL: offload: $name: no PTX embedded"
    return
  fi
  if why=$(sh "$TOP/tests/ptx-link-check.sh" sm_90 "$file.cubin" "$@"); then
    echo "PASS: offload: $name ptx-valid ($# modules)"
  else
    echo "FAIL: offload: $name: $why"
  fi
}

if build -O2 -fopenacc -foffload=nvptx-none -fPIC -shared \
     "$TOP/tests/offload/hs-dso-lib.c" -o libhsdso.so \
   && build -O2 -fopenacc -foffload=nvptx-none \
     "$TOP/tests/offload/hs-dso-main.c" -o hs-dso-main.exe -L. -lhsdso \
     -Wl,-rpath,'$ORIGIN'; then
  if ./hs-dso-main.exe > dso.out 2>&1 && grep -q "0 bad records" dso.out; then
    echo "PASS: offload: an executable and a shared library offloading at once: $(cat dso.out)"
  else
    echo "FAIL: offload: executable and shared library: $(cat dso.out)"
  fi
  ptx_check "hs-dso-main.exe" hs-dso-main.exe
  ptx_check "libhsdso.so" libhsdso.so
fi

if build -O2 -fopenmp -foffload=nvptx-none "$TOP/tests/offload/hs-stdio-calls.c" \
     -o hs-stdio-calls.exe; then
  if ./hs-stdio-calls.exe > calls.out 2>&1 && grep -q "3 lines appended" calls.out; then
    echo "PASS: offload: hs-stdio-calls runs (its host-call counts are checked on a GPU)"
  else
    echo "FAIL: offload: hs-stdio-calls: $(cat calls.out)"
  fi
  ptx_check "hs-stdio-calls.exe" hs-stdio-calls.exe
fi

if build -O2 -fopenmp -foffload=nvptx-none "$TOP/tests/offload/hs-refuse-gpu.c" \
     -o hs-refuse-gpu.exe; then
  if ./hs-refuse-gpu.exe > refuse.out 2>&1 && grep -q "no GPU" refuse.out; then
    echo "UNSUPPORTED: offload: hs-refuse-gpu (needs a GPU; runs in the GPU check)"
  elif grep -q "refused, ended" refuse.out; then
    echo "PASS: offload: hs-refuse-gpu: $(tail -n 1 refuse.out)"
  else
    echo "FAIL: offload: hs-refuse-gpu: $(cat refuse.out)"
  fi
  ptx_check "hs-refuse-gpu.exe" hs-refuse-gpu.exe
fi

if build -O2 -fopenmp -foffload=nvptx-none "$TOP/tests/offload/hs-stuck-gpu.c" \
     -o hs-stuck-gpu.exe; then
  if timeout 60 ./hs-stuck-gpu.exe > stuck.out 2>&1 && grep -q "no GPU" stuck.out; then
    echo "UNSUPPORTED: offload: hs-stuck-gpu (needs a GPU; runs in the GPU check)"
  elif grep -q "hs-stuck-gpu: ended" stuck.out; then
    echo "PASS: offload: hs-stuck-gpu: $(tail -n 2 stuck.out | head -n 1)"
  else
    echo "FAIL: offload: hs-stuck-gpu: $(cat stuck.out)"
  fi
  ptx_check "hs-stuck-gpu.exe" hs-stuck-gpu.exe
fi

# printf from OpenACC lanes with GOMP_HOST_SERVICES=off (issue 16, item
# 9): on a GPU each call fails with ENOSYS and the kernel ends cleanly;
# the host's printf succeeds, so here it only builds and its PTX is
# checked.
if build -O2 -fopenacc -foffload=nvptx-none "$TOP/tests/offload/hs-oacc-off.c" \
     -o hs-oacc-off.exe; then
  GOMP_HOST_SERVICES=off ./hs-oacc-off.exe > oacc-off.out 2>&1
  if grep -q '^host, ' oacc-off.out; then
    echo "UNSUPPORTED: offload: hs-oacc-off (needs a GPU; runs in the GPU check)"
  elif grep -q '^device, 64 of 64 printf calls failed with ENOSYS' oacc-off.out; then
    echo "PASS: offload: hs-oacc-off: $(tail -n 1 oacc-off.out)"
  else
    echo "FAIL: offload: hs-oacc-off: $(tail -n 5 oacc-off.out)"
  fi
  ptx_check "hs-oacc-off.exe" hs-oacc-off.exe
fi

# Fortran STOP while other device threads write (issue 16, item 6):
# GPU only (on the host, STOP in a parallel region runs the host's exit
# under the other threads); here it builds with gomp-gfortran and its
# PTX is checked.
if "$STAGE/bin/gomp-gfortran" -O2 -fopenmp -foffload=nvptx-none \
     "$TOP/tests/offload/hs-stop-threads.f90" -o hs-stop-threads.exe \
     > build.log 2>&1; then
  echo "UNSUPPORTED: offload: hs-stop-threads (needs a GPU; runs in the GPU check)"
  ptx_check "hs-stop-threads.exe" hs-stop-threads.exe
else
  echo "FAIL: offload: gomp-gfortran hs-stop-threads.f90"
  cat build.log
fi
