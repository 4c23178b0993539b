#!/bin/sh
# The GPU check: run every GPU-capable test and the GPU benchmark, built
# beforehand by 'make gpu-bundle', on a machine with an NVIDIA GPU and its
# driver but no compiler.  Target regions must run on the GPU
# (OMP_TARGET_OFFLOAD=mandatory).  Prints PASS:/FAIL: lines and a summary;
# writes the log to $OUT (or ./gpu-check-out) for bench/results/.
# Usage: gpu-bundle/gpu-check.sh
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/gpu-check-out}
mkdir -p "$out"
log=$out/gpu-check.log
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_TARGET_OFFLOAD=mandatory
pass=0 fail=0
{
  echo "# gpu-check $(date -u)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
  work=$(mktemp -d)
  for t in "$here"/tests/*.exe; do
    name=$(basename "$t" .exe)
    exp="$here/tests/$name.expect"
    t0=$(date +%s.%N)
    ( cd "$work" && timeout 60 "$t" ) > "$work/$name.out" 2>&1
    st=$?
    secs=$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }")
    ok=1
    test $st -eq 0 || ok=0
    if test -f "$exp"; then
      while IFS= read -r pat; do
	grep -q -- "$pat" "$work/$name.out" || { ok=0; echo "  missing: $pat"; }
      done < "$exp"
    fi
    test $st -eq 124 && echo "  timed out (60 s): a hang"
    if test $ok = 1; then
      echo "PASS: $name ($secs s)"; pass=$((pass + 1))
    else
      echo "FAIL: $name (status $st)"; fail=$((fail + 1))
      sed 's/^/  | /' "$work/$name.out" | head -40
    fi
  done
  GOMP_DEBUG=1 timeout 120 "$here/tests/hs-stdio-1.exe" > "$work/trace.out" 2>&1
  if grep -q 'host-service: port [0-9]*: open (fd' "$work/trace.out"; then
    echo "PASS: GOMP_DEBUG=1 traces requests on the GPU"; pass=$((pass + 1))
  else
    echo "FAIL: GOMP_DEBUG=1 traces requests on the GPU"; fail=$((fail + 1))
  fi
  # Host calls that stdio makes: one write per puts, no lseek for an
  # append-mode stream.
  ( cd "$work" && GOMP_DEBUG=1 timeout 60 "$here/hs-stdio-calls.exe" ) \
    > "$work/calls.out" 2>&1
  writes=$(grep -c 'host-service: port [0-9]*: write (fd 1, ' "$work/calls.out")
  seeks=$(grep -c 'host-service: port [0-9]*: lseek ' "$work/calls.out")
  if grep -q 'device, 3 lines appended' "$work/calls.out" \
     && test "$writes" -eq 3 && test "$seeks" -eq 0; then
    echo "PASS: stdio: 3 puts are 3 writes; appending seeks 0 times"
    pass=$((pass + 1))
  else
    echo "FAIL: stdio: $writes writes to fd 1 for 3 puts, $seeks lseeks"
    fail=$((fail + 1))
    sed 's/^/  | /' "$work/calls.out" | head -40
  fi
  # What the plugin measured and set for an OpenACC image that uses host
  # services (CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, stack and heap limits).
  GOMP_DEBUG=1 timeout 60 "$here/tests/hs-oacc-stdio-1.exe" > "$work/oacc.out" 2>&1
  echo "# OpenACC image with host services:"
  grep -E 'bytes of local memory per thread|host services: (stack|device heap)|__gomp_nvptx_tls' \
    "$work/oacc.out" | sed 's/^/#   /'
  timeout 300 "$here/gpu-bench.exe" 2>&1
  echo "$pass passed, $fail failed"
} 2>&1 | tee "$log"
