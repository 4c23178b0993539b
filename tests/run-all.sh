#!/bin/sh
# Run every test of the project against an install tree and print one
# closing line: "N passed, N failed, N skipped".
#   1. unit tests (tests/unit/*.c, tests/unit/*.sh): PASS:/FAIL: lines;
#   2. the DejaGnu testsuite in libgomp/testsuite (runtest --tool libgomp),
#      whose tests also check the embedded PTX with ptxas/nvlink;
#   3. a sample of GCC's own libgomp testsuite, run with Debian's runtime
#      and with ours and compared (tests/upstream/run-upstream.sh): one
#      PASS line for the comparison, one FAIL line per regression;
#   4. the GCC 14 flavour's two DejaGnu suites, in the trixie root
#      (tests/gcc14-suites.sh): step 2's, and a sample of GCC 14's own
#      libgomp testsuite compared as in step 3.
# With GCC14_ONLY set (a build for the GCC 14 flavour alone, on Debian 13),
# only the GCC 14 flavour's unit tests (tests/unit/gcc14-*.sh) and step 4
# run: the rest is written for the GCC 12 stage, and says UNSUPPORTED.
# Usage: run-all.sh TOP_SRCDIR STAGE WORKDIR NEWLIB_PREFIX
#   STAGE  the GCC 12 stage; the GCC 14 one is in gcc-14/stage beside it.
# Environment: PTXAS, NVLINK (may be empty), RUNTEST, HOST_CC, GCC_SRC (the
# patched GCC tree), UPSTREAM_SAMPLE (default 4; 0 leaves steps 3 and 4's
# comparison out), UPSTREAM14_SAMPLE (step 4's, default 8), UPSTREAM_JOBS,
# CHECK_JOBS (how many jobs of steps 1, 2 and 4's DejaGnu run at a time),
# GOMP_PTXAS_MEMO (where the PTX checks keep ptxas's output; default:
# ptxas-memo in the build cache; empty: nowhere), MODEL_MEMO (where the
# spin models that passed are remembered; default: model-memo in the
# build cache; empty: nowhere), UPSTREAM_COMPILE_MEMO (where steps 3 and
# 4 keep what our side's compiles made, tests/compile-memo.sh; default:
# compile-memo in the build cache; empty: nowhere),
# UPSTREAM_STOCK_CACHE (where steps 3 and 4 keep Debian's side of their
# comparisons, tests/upstream/stock-cache.sh; default: upstream-stock in
# the build cache; "no" runs it every time), GCC14_ONLY.
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

# Steps 1, 2 and 4's DejaGnu suite are independent: they run as jobs of
# one pool, CHECK_JOBS at a time (default: the number of cores), each with
# its own log and directory (tests/check-job.sh).  The longest start
# first, so that no long job is left to run alone at the end: in the
# order of the seconds each took in the last run on this machine (kept in
# the build cache, check-times.txt), and where that has none (the first
# run, a new test) first of all, in this order: the two DejaGnu suites,
# the unit tests known to be slow, the rest in name order.  Results are
# read once every job has ended, in a fixed order.
#
# The unit tests in $spinning run the simulated device: its client and
# server threads hand each call over by spinning on shared words, so two
# of them at once on 2 cores wait out each other's time slices (hs-sim.sh
# took 790 s beside gcc14-host.sh, 183 s alone; 2026-12-07).  They are one
# job of the pool ("serial"), one after another, placed by their total
# time; the other slots run the compile-bound jobs beside them.
njobs=${CHECK_JOBS:-$(nproc 2>/dev/null || echo 1)}
hs_cache=${GOMP_HS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libgomp-host-services}
stock_cache=${UPSTREAM_STOCK_CACHE:-$hs_cache/upstream-stock}
case $njobs in ''|*[!0-9]*|0) njobs=1 ;; esac
# memo_dir VAR NAME SUFFIX: the directory of a memory of results, VAR
# (by default NAME in the build cache; none with GOMP_HS_BUILD_CACHES=no
# or when VAR is set empty), made absolute (the jobs run in directories
# of their own) and exported; empty when it cannot be made.  Only the
# memory's own files are pruned: KEY (32 hex digits) and SUFFIX, unused
# for 14 days, and .KEY.XXXXXX, a write left for an hour.
memo_dir ()
{
  md_dir=$hs_cache/$2
  test "${GOMP_HS_BUILD_CACHES:-yes}" = no && md_dir=
  eval "md_dir=\${$1-\$md_dir}"
  if test -n "$md_dir" && mkdir -p "$md_dir" \
     && md_dir=$(cd "$md_dir" && pwd -P); then
    find "$md_dir" -maxdepth 1 -type f -regextype posix-extended \
      -regex ".*/[0-9a-f]{32}$3" -mtime +14 -delete 2> /dev/null
    find "$md_dir" -maxdepth 1 -type f -regextype posix-extended \
      -regex '.*/\.[0-9a-f]{32}\.[A-Za-z0-9]{6}' -mmin +60 -delete 2> /dev/null
  else
    md_dir=
  fi
  eval "$1=\$md_dir"
  export "$1"
}
# The PTX checks (tests/ptx-link-check.sh) keep ptxas's output by module
# in the build cache: the device libraries' modules are the same in every
# test program, and were nine tenths of the DejaGnu suites' time.
memo_dir GOMP_PTXAS_MEMO ptxas-memo '\.cubin'
test -n "$GOMP_PTXAS_MEMO" \
  && echo "[check] ptxas results kept in $GOMP_PTXAS_MEMO ($(ls "$GOMP_PTXAS_MEMO" | wc -l) modules)"
# The spin models (tests/models/run-models.sh) that passed are
# remembered by everything their result depends on: an unchanged model
# is not checked again.
memo_dir MODEL_MEMO model-memo ''
# The upstream comparisons' compiles with our drivers are kept by
# command and inputs (tests/compile-memo.sh): the programs still run
# against this build's runtime, but are compiled again only when a
# compiler, a device library, a header or libgomp.so.1's interface changed.
memo_dir UPSTREAM_COMPILE_MEMO compile-memo '\.tar\.gz'
mkdir -p "$work/jobs"
slow="hs-sim.sh gcc14-host.sh gcc14-flavour.sh hs-process.sh fuzz.sh models.sh"
spinning="hs-sim.sh gcc14-host.sh hs-process.sh soak.sh"
echo "[check] unit tests and DejaGnu, $njobs at a time"
step_start=$(date +%s)
"$cc" -O2 -Wall -D_GNU_SOURCE -o "$work/ptx-extract" "$top/tests/ptx-extract.c" \
  || { echo "FAIL: build ptx-extract"; echo "0 passed, 1 failed"; exit 1; }
units=
for t in "$top"/tests/unit/*.c "$top"/tests/unit/*.sh; do
  test -f "$t" || continue
  n=$(basename "$t")
  if test -n "$GCC14_ONLY"; then
    case $n in gcc14-*.sh) ;; *) continue ;; esac
  fi
  units="$units $n"
done
{
  test -z "$GCC14_ONLY" && echo "dejagnu -"
  echo "gcc14-dejagnu -"
  for n in $slow; do
    case " $units " in *" $n "*) echo "unit $n" ;; esac
  done
  for n in $units; do
    case " $slow " in *" $n "*) continue ;; esac
    echo "unit $n"
  done
} > "$work/jobs/order.txt"
times_prev=$hs_cache/check-times.txt
test -f "$times_prev" || times_prev=/dev/null
LC_ALL=C awk -v prev="$times_prev" -v spinning="$spinning" '
  BEGIN { while ((getline l < prev) > 0) { split(l, f, " "); t[f[2]] = f[1] }
	  n = split(spinning, sp, " "); for (i = 1; i <= n; i++) spin[sp[i]] = 1 }
  { k = $1 "-" $2; s = (k in t) ? t[k] : 1000000 }
  $1 == "unit" && ($2 in spin) {
    group = group (group == "" ? "" : ",") $2; gsec += s; if (!gnr) gnr = NR
    next }
  { print s, NR, $0 }
  END { if (group != "") print gsec, gnr, "serial", group }' \
  "$work/jobs/order.txt" | LC_ALL=C sort -k1,1nr -k2,2n | cut -d ' ' -f 3- \
  > "$work/jobs/list.txt"
CHECK_TOP=$top CHECK_STAGE=$stage CHECK_WORK=$work CHECK_NEWLIB=$newlib \
  CHECK_CC=$cc CHECK_RUNTEST=$runtest PTXAS=$PTXAS NVLINK=$NVLINK GCC_SRC=$GCC_SRC \
  xargs -P "$njobs" -L 1 sh "$top/tests/check-job.sh" < "$work/jobs/list.txt"
pool_seconds=$(( $(date +%s) - step_start ))
# Each job's wall time, the longest first.
for f in "$work"/jobs/*.seconds; do
  test -f "$f" && echo "$(cat "$f") $(basename "$f" .seconds)"
done | sort -rn > "$work/jobs/times.txt"
mkdir -p "$hs_cache" && cp "$work/jobs/times.txt" "$hs_cache/check-times.txt.$$" \
  && mv "$hs_cache/check-times.txt.$$" "$hs_cache/check-times.txt"

test -n "$GCC14_ONLY" \
  && echo "UNSUPPORTED: the GCC 12 flavour's unit tests, DejaGnu testsuite and upstream comparison (this build is for GCC 14 only)" >> "$log"
for n in $units; do
  if test -f "$work/jobs/unit-$n.seconds"; then
    cat "$work/jobs/unit-$n.log" >> "$log"
  else
    echo "FAIL: $n did not run (tests/check-job.sh)" >> "$log"
  fi
done
grep -E '^(FAIL|UNSUPPORTED):' "$log"
upass=$(grep -c '^PASS:' "$log")
ufail=$(grep -c '^FAIL:' "$log")
uskip=$(grep -c '^UNSUPPORTED:' "$log")
echo "[check] unit: $upass passed, $ufail failed, $uskip unsupported (the pool: $pool_seconds s; each job's seconds: $work/jobs/times.txt)"

dpass=0 dfail=0 dskip=0
sample=${UPSTREAM_SAMPLE:-4}
upstream_pass=0 upstream_fail=0 upstream_skip=0
if test -n "$GCC14_ONLY"; then
  echo "[check] DejaGnu and upstream for GCC 12: left out (GCC 14 only)"
else
echo "[check] DejaGnu: libgomp/testsuite (log: $work/dejagnu/libgomp.log)"
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

if test "$sample" = 0; then
  echo "[check] upstream: left out (UPSTREAM_SAMPLE=0)"
else
  echo "[check] upstream: GCC's libgomp testsuite, 1/$sample of each directory, Debian's and ours (log: $work/upstream.log)"
  UPSTREAM_SAMPLE=$sample UPSTREAM_JOBS=${UPSTREAM_JOBS:-2} RUNTEST=$runtest \
    UPSTREAM_STOCK_CACHE=$stock_cache sh "$top/tests/upstream/run-upstream.sh" "$top" "$GCC_SRC" "$stage" \
    "$work/upstream" > "$work/upstream.log" 2>&1
  grep -E '^(FAIL|XPASS|UNRESOLVED|ERROR):' "$work/upstream.log"
  tail -n 1 "$work/upstream.log"
  upstream_pass=$(grep -c '^PASS:' "$work/upstream.log")
  upstream_fail=$(grep -c '^FAIL:' "$work/upstream.log")
  upstream_skip=$(grep -c '^UNSUPPORTED:' "$work/upstream.log")
  test $((upstream_pass + upstream_fail)) -eq 0 && upstream_fail=1
  echo "[check] upstream: $upstream_pass passed, $upstream_fail failed, $upstream_skip unsupported"
fi
fi

# 4. The GCC 14 flavour's suites.
sample14=${UPSTREAM14_SAMPLE:-8}
test "$sample" = 0 && sample14=0
log14=$work/gcc14-suites.log
echo "[check] GCC 14 flavour: DejaGnu (run in the pool above) and GCC 14's libgomp testsuite, 1/$sample14 of each directory, in the trixie root (log: $log14)"
cp "$work/jobs/gcc14-dejagnu--.log" "$log14" 2> /dev/null \
  || echo "FAIL: gcc14: dejagnu: did not run (tests/check-job.sh)" > "$log14"
UPSTREAM_SAMPLE=$sample14 UPSTREAM_JOBS=${UPSTREAM_JOBS:-2} PTXAS=$PTXAS NVLINK=$NVLINK \
  UPSTREAM_STOCK_CACHE=$stock_cache \
  PTX_EXTRACT=$work/ptx-extract \
  sh "$top/tests/gcc14-suites.sh" --upstream "$top" "$(dirname "$stage")/gcc-14/stage" \
  "$work/gcc14" >> "$log14" 2>&1
grep -E '^(FAIL|UNSUPPORTED):' "$log14"
grep '^upstream: ' "$log14" | tail -n 1
g14pass=$(grep -c '^PASS:' "$log14")
g14fail=$(grep -c '^FAIL:' "$log14")
g14skip=$(grep -c '^UNSUPPORTED:' "$log14")
test $((g14pass + g14fail + g14skip)) -eq 0 && g14fail=1
echo "[check] GCC 14 flavour's suites: $g14pass passed, $g14fail failed, $g14skip unsupported"

pass=$((upass + dpass + upstream_pass + g14pass))
fail=$((ufail + dfail + upstream_fail + g14fail))
skip=$((uskip + dskip + upstream_skip + g14skip))
if test $((pass + fail)) -eq 0; then
  fail=1
fi
echo "$pass passed, $fail failed, $skip skipped"
test "$fail" -eq 0
