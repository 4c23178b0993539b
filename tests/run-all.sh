#!/bin/sh
# Run every test of the project against an install tree and print one
# closing line: "N passed, N failed, N skipped".
#   1. unit tests (tests/unit/*.c, tests/unit/*.sh): PASS:/FAIL: lines;
#   2. the DejaGnu testsuite in libgomp/testsuite (runtest --tool libgomp),
#      whose tests also check the embedded PTX with ptxas/nvlink;
#   3. a sample of GCC's own libgomp testsuite, run with Debian's runtime
#      and with ours and compared (tests/upstream/run-upstream.sh): one
#      PASS line for the comparison, one FAIL line per regression;
# With GCC14_ONLY set (a build for the GCC 14 flavour alone, on Debian 13),
# only the GCC 14 flavour's unit tests (tests/unit/gcc14-*.sh) run: the
# rest is written for the GCC 12 stage, and says UNSUPPORTED.
# Usage: run-all.sh TOP_SRCDIR STAGE WORKDIR NEWLIB_PREFIX
# Environment: PTXAS, NVLINK (may be empty), RUNTEST, HOST_CC, GCC_SRC (the
# patched GCC tree), UPSTREAM_SAMPLE (default 4; 0 leaves step 3 out),
# UPSTREAM_JOBS, GCC14_ONLY.
top=$1
stage=$2
work=$3
newlib=$4
cc=${HOST_CC:-gcc-12}
runtest=${RUNTEST:-runtest}

rm -rf "$work"
mkdir -p "$work/unit" "$work/dejagnu"
log=$work/unit/unit.log
: > "$log"

echo "[check] unit tests"
"$cc" -O2 -Wall -D_GNU_SOURCE -o "$work/ptx-extract" "$top/tests/ptx-extract.c" \
  || { echo "FAIL: build ptx-extract"; echo "0 passed, 1 failed"; exit 1; }
units_c="$top"/tests/unit/*.c units_sh="$top"/tests/unit/*.sh
if test -n "$GCC14_ONLY"; then
  units_c= units_sh="$top"/tests/unit/gcc14-*.sh
  echo "UNSUPPORTED: the GCC 12 flavour's unit tests, DejaGnu testsuite and upstream comparison (this build is for GCC 14 only)" >> "$log"
fi
for t in $units_c; do
  name=$(basename "$t" .c)
  if "$cc" -O2 -Wall -Werror -I"$top/libgomp/config/nvptx" -I"$top/libgomp" \
       -o "$work/unit/$name" "$t" -lpthread >> "$log" 2>&1; then
    ( cd "$work/unit" && "./$name" ) >> "$log" 2>&1 \
      || echo "FAIL: $name exited with status $?" >> "$log"
  else
    echo "FAIL: $name does not compile" >> "$log"
  fi
done
for t in $units_sh; do
  test -f "$t" || continue
  STAGE=$stage NEWLIB=$newlib TOP=$top WORK=$work/unit HOST_CC=$cc GCC_SRC=$GCC_SRC \
    PTXAS=$PTXAS NVLINK=$NVLINK PTX_EXTRACT=$work/ptx-extract \
    sh "$t" >> "$log" 2>&1 \
    || echo "FAIL: $(basename "$t") exited with status $?" >> "$log"
done
grep -E '^(FAIL|UNSUPPORTED):' "$log"
upass=$(grep -c '^PASS:' "$log")
ufail=$(grep -c '^FAIL:' "$log")
uskip=$(grep -c '^UNSUPPORTED:' "$log")
echo "[check] unit: $upass passed, $ufail failed, $uskip unsupported"

if test -n "$GCC14_ONLY"; then
  echo "[check] DejaGnu and upstream: left out (GCC 14 only)"
  echo "$upass passed, $ufail failed, $uskip skipped"
  test "$upass" -gt 0 && test "$ufail" -eq 0
  exit
fi

echo "[check] DejaGnu: libgomp/testsuite (log: $work/dejagnu/libgomp.log)"
( cd "$work/dejagnu" && "$runtest" --tool libgomp --srcdir "$top/libgomp/testsuite" \
    GOMP_HS_PREFIX="$stage" GOMP_PTX_EXTRACT="$work/ptx-extract" \
    PTXAS="$PTXAS" NVLINK="$NVLINK" ) > "$work/dejagnu/runtest.out" 2>&1
sum=$work/dejagnu/libgomp.sum
if test -f "$sum"; then
  grep -E '^(FAIL|XPASS|UNRESOLVED|UNSUPPORTED|ERROR):' "$sum"
  dpass=$(grep -c -E '^(PASS|XFAIL):' "$sum")
  dfail=$(grep -c -E '^(FAIL|XPASS|UNRESOLVED|ERROR):' "$sum")
  dskip=$(grep -c -E '^(UNSUPPORTED|UNTESTED):' "$sum")
  # A DejaGnu run that broke before counting anything is a failure.
  grep -q '^ERROR' "$work/dejagnu/runtest.out" && dfail=$((dfail + 1))
else
  tail -20 "$work/dejagnu/runtest.out"
  dpass=0 dfail=1 dskip=0
fi
echo "[check] DejaGnu: $dpass passed, $dfail failed, $dskip unsupported"

sample=${UPSTREAM_SAMPLE:-4}
upstream_pass=0 upstream_fail=0 upstream_skip=0
if test "$sample" = 0; then
  echo "[check] upstream: left out (UPSTREAM_SAMPLE=0)"
else
  echo "[check] upstream: GCC's libgomp testsuite, 1/$sample of each directory, Debian's and ours (log: $work/upstream.log)"
  UPSTREAM_SAMPLE=$sample UPSTREAM_JOBS=${UPSTREAM_JOBS:-2} RUNTEST=$runtest \
    sh "$top/tests/upstream/run-upstream.sh" "$top" "$GCC_SRC" "$stage" \
    "$work/upstream" > "$work/upstream.log" 2>&1
  grep -E '^(FAIL|XPASS|UNRESOLVED|ERROR):' "$work/upstream.log"
  tail -n 1 "$work/upstream.log"
  upstream_pass=$(grep -c '^PASS:' "$work/upstream.log")
  upstream_fail=$(grep -c '^FAIL:' "$work/upstream.log")
  upstream_skip=$(grep -c '^UNSUPPORTED:' "$work/upstream.log")
  test $((upstream_pass + upstream_fail)) -eq 0 && upstream_fail=1
  echo "[check] upstream: $upstream_pass passed, $upstream_fail failed, $upstream_skip unsupported"
fi

pass=$((upass + dpass + upstream_pass))
fail=$((ufail + dfail + upstream_fail))
skip=$((uskip + dskip + upstream_skip))
if test $((pass + fail)) -eq 0; then
  fail=1
fi
echo "$pass passed, $fail failed, $skip skipped"
test "$fail" -eq 0
