#!/bin/sh
# GCC's own gcc.c-torture/execute (and, optionally, gcc.dg, gfortran.dg) for the
# nvptx-none target, run with GCC's own .exp files through
# tests/standalone/board/gomp-nvptx-run.exp: compiled and linked with an
# install tree's gomp-nvptx-gcc, executed with its gomp-nvptx-run.  Where
# there is no GPU (or no CUDA driver) the executions are UNSUPPORTED and
# the compile and link results ("test for excess errors", ...) still count.
#
# Usage: run-torture.sh SRCDIR_TOP GCC_SRC PREFIX WORK [SAMPLE]
#   SRCDIR_TOP  this project's source tree (for the board)
#   GCC_SRC     a GCC source tree (its gcc/testsuite runs; GCC 12's)
#   PREFIX      the install tree: PREFIX/bin/gomp-nvptx-gcc (and
#               gomp-nvptx-gfortran), gomp-nvptx-run
#   WORK        a scratch directory (emptied); WORK/DIR/TOOL.{sum,log} per
#               testsuite directory (TOOL gcc or gfortran)
#   SAMPLE      N: the tests whose path hashes to 0 modulo N
#               (tests/standalone/select-sample.sh); 1 (default): all
# Environment:
#   TORTURE_DIRS     which directories: "execute" (default), "dg" (gcc.dg),
#                    "fortran" (gfortran.dg), or several
#   TORTURE_OPTIONS  a Tcl list of option sets for gcc.c-torture (and
#                    gfortran.dg's run tests) instead of GCC's (e.g.
#                    "{-O0} {-O2}")
#   TORTURE_TESTS    instead of a sample, these base names (glob patterns
#                    allowed) for each directory
#   RUNTEST          runtest (default: runtest on the PATH)
#   GOMP_NVPTX_RUN, GOMP_NVPTX_RUN_FLAGS, GOMP_NVPTX_RUN_TIMEOUT: as for
#                    the board (tests/standalone/board/gomp-nvptx-run.exp)
#   TORTURE_KNOWN    the known failures (default
#                    tests/standalone/known-failures.txt)
# Output: one "FAIL: torture: ..." line per FAIL/UNRESOLVED/XPASS of the
# .sum (with its line) and per harness ERROR, "XFAIL: torture: known ..."
# for those of a test in the known failures, and last a summary line per
# directory:
#   torture: DIR: P pass, F fail, U unsupported, X xfail, R unresolved,
#     XP xpass, E errors; K of the fail/unresolved known (N tests, T s[, no GPU...])
# Exit status 1 when an unexpected result or the set-up failed.
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
known=${TORTURE_KNOWN:-$top/tests/standalone/known-failures.txt}
test -r "$known" || fatal "cannot read $known"
known_names=$work/known-names.txt
sed -e 's/#.*//' "$known" | awk 'NF { print $1 }' > "$known_names"
version=$(cat "$gcc_src/gcc/BASE-VER" 2>/dev/null)

status=0
summary=
for d in $dirs; do
  case $d in
    execute) subdir=gcc.c-torture/execute exp=execute.exp tool=gcc names='\.c$' ;;
    dg) subdir=gcc.dg exp=dg.exp tool=gcc names='\.c$' ;;
    fortran) subdir=gfortran.dg exp=dg.exp tool=gfortran
	     names='\.[fF](90|95|03|08)?$' ;;
    *) fatal "unknown TORTURE_DIRS entry '$d' (execute, dg, fortran)" ;;
  esac
  test $tool = gcc || test -x "$prefix/bin/gomp-nvptx-gfortran" \
    || fatal "no $prefix/bin/gomp-nvptx-gfortran" 
  out=$work/$d
  mkdir -p "$out"
  if test -n "$TORTURE_TESTS"; then
    (cd "$ts/$subdir" && for p in $TORTURE_TESTS; do
       for f in $p; do test -f "$f" && echo "$f"; done
     done) > "$out/selected.txt"
  else
    sh "$top/tests/standalone/select-sample.sh" "$ts" "$subdir" "$sample" \
      "$names" > "$out/selected.txt" || fatal "select-sample.sh failed"
  fi
  n=$(wc -l < "$out/selected.txt")
  test "$n" -gt 0 || fatal "$d: no test selected"
  cat > "$out/site.exp" <<SITE
# Written by tests/standalone/run-torture.sh for GCC $version's testsuite.
set srcdir "$ts"
set objdir "$out"
set tmpdir "$out"
set rootme "$out"
set tool $tool
set build_triplet x86_64-pc-linux-gnu
set host_triplet x86_64-pc-linux-gnu
set target_triplet nvptx-unknown-none
set build_alias ""
set host_alias ""
set target_alias nvptx-none
set GCC_UNDER_TEST "$prefix/bin/gomp-nvptx-gcc"
set GFORTRAN_UNDER_TEST "$prefix/bin/gomp-nvptx-gfortran"
set HOSTCC "cc"
set HOSTCFLAGS ""
set libiconv ""
lappend boards_dir "$board_dir"
SITE
  if test -n "$TORTURE_OPTIONS"; then
    echo "set TORTURE_OPTIONS [list $TORTURE_OPTIONS]" >> "$out/site.exp"
  fi
  list=$(tr '\n' ' ' < "$out/selected.txt")
  echo "[torture] $subdir: $n tests (1/$sample${TORTURE_TESTS:+, TORTURE_TESTS}) with $prefix/bin/gomp-nvptx-$tool"
  start=$(date +%s)
  (cd "$out" && GOMP_NVPTX_GCC=$prefix/bin/gomp-nvptx-$tool \
     "$runtest" --tool $tool --srcdir "$ts" --target_board=gomp-nvptx-run \
     "$exp=$list") > "$out/runtest.out" 2>&1
  secs=$(( $(date +%s) - start ))
  sum=$out/$tool.sum
  if ! test -f "$sum"; then
    tail -n 20 "$out/runtest.out"
    fatal "$d: runtest produced no $tool.sum (see $out/runtest.out)"
  fi
  count () { grep -c "^$1: " "$sum"; }
  p=$(count PASS) f=$(count FAIL) u=$(count UNSUPPORTED) x=$(count XFAIL)
  r=$(count UNRESOLVED) xp=$(count XPASS)
  e=$(grep -c '^ERROR: ' "$out/runtest.out")
  # FAIL, UNRESOLVED and XPASS lines: those of a test in KNOWN are
  # expected (XFAIL: torture: known ...), the others count.
  grep -E '^(FAIL|UNRESOLVED|XPASS): ' "$sum" \
  | awk -v known="$known" '
    BEGIN {
      while ((getline line < known) > 0) {
        sub(/#.*/, "", line)
        if (split(line, w, " ") >= 1) {
          why = line
          sub(/^[ \t]*[^ \t]+[ \t]*/, "", why)
          k[w[1]] = why
        }
      }
    }
    ($2 in k) { print "XFAIL: torture: known (" k[$2] "): " $0; next }
    { print "FAIL: torture: " $0; bad++ }
    END { exit bad > 0 }'
  unexpected=$?
  kn=$(grep -E '^(FAIL|UNRESOLVED|XPASS): ' "$sum" | awk '{ print $2 }' \
       | grep -c -x -F -f "$known_names")
  grep '^ERROR: ' "$out/runtest.out" | head -n 5 | sed 's/^/FAIL: torture: /'
  test $unexpected -eq 0 && test "$e" -eq 0 || status=1
  nogpu=
  grep -q 'no CUDA driver or GPU' "$out/$tool.log" && nogpu=", no GPU: executions unsupported"
  line="torture: $d: $p pass, $f fail, $u unsupported, $x xfail, $r unresolved, $xp xpass, $e errors; $kn of the fail/unresolved known ($n tests, ${secs} s$nogpu)"
  echo "$line" > "$out/summary.txt"
  summary="$summary$line
"
done
printf '%s' "$summary"
exit $status
