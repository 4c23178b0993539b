#!/bin/sh
# On the GPU machine (from the bundle, as upstream/run.sh): GCC's libgomp
# tests that tests/upstream/bundle-upstream.sh built with Debian's
# compiler and with ours, each run on the device (OMP_TARGET_OFFLOAD=
# mandatory, ACC_DEVICE_TYPE=nvidia) under its own runtime: Debian's
# libgomp from STOCK_LIB for NAME.stock.exe, ours (LD_LIBRARY_PATH as the
# caller set it) for NAME.ours.exe.  A test that passes with Debian's and
# fails with ours is a regression.
# Usage: run.sh STOCK_LIB [BUDGET_SECONDS]
# Prints PASS:/FAIL: lines (one FAIL per regression), IMPROVEMENT:/NOTE:
# lines, and "upstream-gpu: N tests, P pass with Debian's, Q pass with
# ours, R regressions".
here=$(cd "$(dirname "$0")" && pwd)
stock_lib=$1
budget=${2:-90}
work=$(mktemp -d)
export OMP_TARGET_OFFLOAD=mandatory ACC_DEVICE_TYPE=nvidia
start=$(date +%s)

# Which libgomp each side runs, and that target regions reach the device.
s=$(cd "$work" && LD_LIBRARY_PATH="$stock_lib:$LD_LIBRARY_PATH" timeout 60 "$here/which-libgomp.stock.exe" 2>&1)
o=$(cd "$work" && timeout 60 "$here/which-libgomp.ours.exe" 2>&1)
sl=$(echo "$s" | sed -n 's/^libgomp //p')
ol=$(echo "$o" | sed -n 's/^libgomp //p')
if echo "$s" | grep -q 'on the device' && echo "$o" | grep -q 'on the device' \
   && test -n "$sl" && test -n "$ol" && test "$sl" != "$ol"; then
  echo "PASS: upstream-gpu: Debian's side runs $sl, ours $ol, both on the device"
else
  echo "FAIL: upstream-gpu: which libgomp: Debian's side: $(echo $s); ours: $(echo $o)"
fi

n=0 p=0 q=0 r=0 left=0
while read -r name rel; do
  if test $(( $(date +%s) - start )) -gt "$budget"; then
    left=$((left + 1))
    continue
  fi
  n=$((n + 1))
  (cd "$work" && LD_LIBRARY_PATH="$stock_lib:$LD_LIBRARY_PATH" \
     timeout 30 "$here/$name.stock.exe") > "$work/$name.stock.out" 2>&1
  a=$?
  (cd "$work" && timeout 30 "$here/$name.ours.exe") > "$work/$name.ours.out" 2>&1
  b=$?
  test $a = 0 && p=$((p + 1))
  test $b = 0 && q=$((q + 1))
  if test $a = 0 && test $b != 0; then
    r=$((r + 1))
    echo "FAIL: upstream-gpu regression: $rel (Debian's status 0, ours $b)"
    sed 's/^/  | /' "$work/$name.ours.out" | head -20
  elif test $a != 0 && test $b = 0; then
    echo "IMPROVEMENT: upstream-gpu: $rel (Debian's status $a, ours 0)"
  elif test $a != 0; then
    echo "NOTE: upstream-gpu: $rel fails with both (Debian's status $a, ours $b)"
  fi
done < "$here/tests.txt"
test $left -gt 0 && echo "NOTE: upstream-gpu: $left tests not run: over the budget of $budget s"
test $r = 0 && test $n -gt 0 && echo "PASS: upstream-gpu: no regressions in $n tests on the device"
test $n = 0 && echo "FAIL: upstream-gpu: no test ran"
echo "upstream-gpu: $n tests, $p pass with Debian's, $q pass with ours, $r regressions"
rm -rf "$work"
