#!/bin/sh
# The GCC 14 flavour's part of the GPU check (built by
# tests/gcc14-bundle.sh; gpu-check.sh runs it as gcc14/run.sh): every
# program runs under trixie's dynamic loader with trixie's runtimes and
# this flavour's libgomp first on the library path, then the directory of
# this machine's CUDA driver.  Target regions must run on the GPU
# (OMP_TARGET_OFFLOAD=mandatory).  A program passes when it exits 0 and,
# where it has NAME.expect, prints that line.  Last, a reverse-offload
# program with host services off must be refused.  Prints PASS:/FAIL:
# lines.
# Usage: run.sh [BUDGET_SECONDS]
here=$(cd "$(dirname "$0")" && pwd)
budget=${1:-120}
cuda=$(ldconfig -p 2>/dev/null | sed -n 's/.*libcuda\.so\.1 .*=> \(.*\)/\1/p' | head -n 1)
cuda_dir=${cuda:+$(dirname "$cuda")}
if test -z "$cuda_dir"; then
  for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/cuda/compat; do
    test -e "$d/libcuda.so.1" && { cuda_dir=$d; break; }
  done
fi
echo "# gcc14: CUDA driver in ${cuda_dir:-(not found)}"
work=$(mktemp -d)
start=$(date +%s)
for t in "$here"/tests/*.exe; do
  name=gcc14-$(basename "$t" .exe)
  if test $(( $(date +%s) - start )) -gt "$budget"; then
    echo "FAIL: $name (skipped: over the time budget of $budget s)"
    continue
  fi
  ( cd "$work" && OMP_TARGET_OFFLOAD=mandatory timeout 60 \
      "$here/lib/ld-linux-x86-64.so.2" --library-path "$here/lib${cuda_dir:+:$cuda_dir}" \
      "$t" ) > "$work/$name.out" 2>&1
  st=$?
  exp=${t%.exe}.expect
  if test $st -eq 0 && { ! test -f "$exp" || grep -qxF "$(cat "$exp")" "$work/$name.out"; }; then
    echo "PASS: $name"
  else
    if test -f "$exp"; then
      echo "FAIL: $name (status $st; expected the line: $(cat "$exp"))"
    else
      echo "FAIL: $name (status $st)"
    fi
    sed 's/^/  | /' "$work/$name.out" | head -20
  fi
done
# With host services off, an image with reverse-offload regions is not
# loaded, with a message: they run through host services alone (GCC's
# own slot is gone).
t=$here/tests/up-f-reverse-offload-1.exe
if test -x "$t"; then
  ( cd "$work" && GOMP_HOST_SERVICES=off OMP_TARGET_OFFLOAD=mandatory timeout 60 \
      "$here/lib/ld-linux-x86-64.so.2" --library-path "$here/lib${cuda_dir:+:$cuda_dir}" \
      "$t" ) > "$work/rev-off.out" 2>&1
  st=$?
  if test $st -ne 0 && test $st -ne 124 && grep -q 'reverse-offload regions' "$work/rev-off.out"; then
    echo "PASS: gcc14-rev-off (refused at load, status $st)"
  else
    echo "FAIL: gcc14-rev-off (status $st; expected a refusal at load that names reverse-offload regions)"
    sed 's/^/  | /' "$work/rev-off.out" | head -10
  fi
fi
rm -rf "$work"
