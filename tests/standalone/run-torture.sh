#!/bin/sh
# GCC's own gcc.c-torture/execute (and, optionally, gcc.dg) for the
# nvptx-none target, run with GCC's own .exp files through
# tests/standalone/board/gomp-nvptx-run.exp: compiled and linked with an
# install tree's gomp-nvptx-gcc, executed with its gomp-nvptx-run.  Where
# there is no GPU (or no CUDA driver) the executions are UNSUPPORTED and
# the compile and link results ("test for excess errors", ...) still count.
#
# Usage: run-torture.sh SRCDIR_TOP GCC_SRC PREFIX WORK [SAMPLE]
#   SRCDIR_TOP  this project's source tree (for the board)
#   GCC_SRC     a GCC source tree (its gcc/testsuite runs; GCC 12's)
#   PREFIX      the install tree: PREFIX/bin/gomp-nvptx-gcc, gomp-nvptx-run
#   WORK        a scratch directory (emptied); WORK/DIR/gcc.{sum,log} per
#               testsuite directory
#   SAMPLE      N: the tests whose path hashes to 0 modulo N
#               (tests/standalone/select-sample.sh); 1 (default): all
# Environment:
#   TORTURE_DIRS     which directories: "execute" (default), "dg", or both
#   TORTURE_OPTIONS  a Tcl list of option sets for gcc.c-torture instead of
#                    GCC's 8 (e.g. "{-O0} {-O2}")
#   TORTURE_TESTS    instead of a sample, these base names (glob patterns
#                    allowed) for each directory
#   RUNTEST          runtest (default: runtest on the PATH)
#   GOMP_NVPTX_RUN, GOMP_NVPTX_RUN_FLAGS, GOMP_NVPTX_RUN_TIMEOUT: as for
#                    the board (tests/standalone/board/gomp-nvptx-run.exp)
# Output: one "FAIL: torture: ..." line per FAIL/UNRESOLVED/ERROR of the
# harness (with the .sum's line), and last a summary line
#   torture: DIR: P pass, F fail, U unsupported, X xfail, R unresolved (T s)
# for each directory.  Exit status 1 when a test or the set-up failed.
top=$1 gcc_src=$2 prefix=$3 work=$4 sample=${5:-1}
if test $# -lt 4 || test $# -gt 5; then
  echo "usage: run-torture.sh SRCDIR_TOP GCC_SRC PREFIX WORK [SAMPLE]" >&2
  exit 2
fi
top=$(cd "$top" 2>/dev/null && pwd) || top=$1
gcc_src=$(cd "$gcc_src" 2>/dev/null && pwd) || gcc_src=$2
prefix=$(cd "$prefix" 2>/dev/null && pwd) || prefix=$3
runtest=${RUNTEST:-runtest}
dirs=${TORTURE_DIRS:-execute}
ts=$gcc_src/gcc/testsuite
board_dir=$top/tests/standalone/board

fatal ()
{
  echo "FAIL: torture: $*"
  exit 1
}

test -f "$board_dir/gomp-nvptx-run.exp" || fatal "no board in $board_dir"
test -d "$ts/gcc.c-torture/execute" || fatal "no gcc/testsuite in $gcc_src"
test -x "$prefix/bin/gomp-nvptx-gcc" || fatal "no $prefix/bin/gomp-nvptx-gcc"
command -v "$runtest" > /dev/null 2>&1 || fatal "$runtest not found (dejagnu)"
command -v timeout > /dev/null 2>&1 || fatal "timeout not found (coreutils)"
case $sample in
  ''|*[!0-9]*|0) fatal "SAMPLE must be a positive integer, not '$sample'" ;;
esac
# nvptx-none-as checks the PTX with ptxas when it finds one.
test -d /usr/local/cuda/bin && PATH=$PATH:/usr/local/cuda/bin && export PATH

rm -rf "$work"
mkdir -p "$work" || fatal "cannot create $work"
work=$(cd "$work" && pwd)
version=$(cat "$gcc_src/gcc/BASE-VER" 2>/dev/null)

status=0
summary=
for d in $dirs; do
  case $d in
    execute) subdir=gcc.c-torture/execute exp=execute.exp ;;
    dg) subdir=gcc.dg exp=dg.exp ;;
    *) fatal "unknown TORTURE_DIRS entry '$d' (execute, dg)" ;;
  esac
  out=$work/$d
  mkdir -p "$out"
  if test -n "$TORTURE_TESTS"; then
    (cd "$ts/$subdir" && for p in $TORTURE_TESTS; do
       for f in $p; do test -f "$f" && echo "$f"; done
     done) > "$out/selected.txt"
  else
    sh "$top/tests/standalone/select-sample.sh" "$ts" "$subdir" "$sample" \
      > "$out/selected.txt" || fatal "select-sample.sh failed"
  fi
  n=$(wc -l < "$out/selected.txt")
  test "$n" -gt 0 || fatal "$d: no test selected"
  cat > "$out/site.exp" <<SITE
# Written by tests/standalone/run-torture.sh for GCC $version's testsuite.
set srcdir "$ts"
set objdir "$out"
set tmpdir "$out"
set rootme "$out"
set tool gcc
set build_triplet x86_64-pc-linux-gnu
set host_triplet x86_64-pc-linux-gnu
set target_triplet nvptx-unknown-none
set build_alias ""
set host_alias ""
set target_alias nvptx-none
set GCC_UNDER_TEST "$prefix/bin/gomp-nvptx-gcc"
set HOSTCC "cc"
set HOSTCFLAGS ""
set libiconv ""
lappend boards_dir "$board_dir"
SITE
  if test -n "$TORTURE_OPTIONS"; then
    echo "set TORTURE_OPTIONS [list $TORTURE_OPTIONS]" >> "$out/site.exp"
  fi
  list=$(tr '\n' ' ' < "$out/selected.txt")
  echo "[torture] $subdir: $n tests (1/$sample${TORTURE_TESTS:+, TORTURE_TESTS}) with $prefix/bin/gomp-nvptx-gcc"
  start=$(date +%s)
  (cd "$out" && GOMP_NVPTX_GCC=$prefix/bin/gomp-nvptx-gcc \
     "$runtest" --tool gcc --srcdir "$ts" --target_board=gomp-nvptx-run \
     "$exp=$list") > "$out/runtest.out" 2>&1
  secs=$(( $(date +%s) - start ))
  sum=$out/gcc.sum
  if ! test -f "$sum"; then
    tail -n 20 "$out/runtest.out"
    fatal "$d: runtest produced no gcc.sum (see $out/runtest.out)"
  fi
  count () { grep -c "^$1: " "$sum"; }
  p=$(count PASS) f=$(count FAIL) u=$(count UNSUPPORTED) x=$(count XFAIL)
  r=$(count UNRESOLVED) xp=$(count XPASS)
  e=$(grep -c '^ERROR: ' "$out/runtest.out")
  grep -E '^(FAIL|UNRESOLVED|XPASS): ' "$sum" | sed 's/^/FAIL: torture: /'
  grep '^ERROR: ' "$out/runtest.out" | head -n 5 | sed 's/^/FAIL: torture: /'
  test $((f + r + xp + e)) -eq 0 || status=1
  nogpu=
  grep -q 'no CUDA driver or GPU' "$out/gcc.log" && nogpu=", no GPU: executions unsupported"
  line="torture: $d: $p pass, $f fail, $u unsupported, $x xfail, $r unresolved${xp:+, $xp xpass}, $e errors ($n tests, ${secs} s$nogpu)"
  echo "$line" > "$out/summary.txt"
  summary="$summary$line
"
done
printf '%s' "$summary"
exit $status
