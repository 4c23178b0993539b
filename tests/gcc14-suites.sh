#!/bin/sh
# The GCC 14 flavour's two DejaGnu suites, inside the cached trixie root of
# build-aux/trixie-root.sh (Debian 13's own gcc-14, g++-14, gfortran-14,
# gcc-14-offload-nvptx and dejagnu), as the GCC 12 flavour's run natively:
#   --dejagnu   this project's libgomp/testsuite (lib/tool/libgomp.exp),
#               with the GCC 14 stage's gomp-gcc, gomp-g++ and gomp-gfortran;
#   --upstream  GCC 14's own libgomp testsuite (that of the GCC 14 tree the
#               build unpacks), with Debian's gcc-14 and runtime and with
#               ours, compared (tests/upstream/run-upstream.sh, run in the
#               root with the same options as for GCC 12).
# No GPU is needed: without one every region runs in host fallback in both
# suites, as in the GCC 12 runs.
#
# Usage: gcc14-suites.sh [--dejagnu] [--upstream] TOP_SRCDIR STAGE14 WORKDIR
#   STAGE14  the GCC 14 stage (build/gcc-14/stage); its GCC tree is beside
#            it (gcc-src), and build-failed there says make gcc14 failed.
# Environment: PTXAS, NVLINK (outside the root; inside it the directory
# of the program PTXAS really runs is bound at /opt/gomp-hs-cuda/bin),
# PTX_EXTRACT (the tests/ptx-extract.c helper; --dejagnu only),
# UPSTREAM_SAMPLE, UPSTREAM_TESTS, UPSTREAM_JOBS, UPSTREAM_STOCK_CACHE and
# UPSTREAM_COMPILE_MEMO (each directory bound in the root at its own path)
# as for run-upstream.sh,
# GOMP_PTXAS_MEMO (--dejagnu; bound in the root at its own path) as for
# tests/ptx-link-check.sh.
# Output: PASS:/FAIL:/UNSUPPORTED: lines, each with "gcc14: dejagnu: " or
# "gcc14: " before what the suite says; WORKDIR/dejagnu/libgomp.sum and
# WORKDIR/upstream/ keep the suites' own results.  Exit status 0: the
# counts are in the lines.
do_dejagnu= do_upstream=
while :; do
  case $1 in
    --dejagnu) do_dejagnu=1; shift ;;
    --upstream) do_upstream=1; shift ;;
    *) break ;;
  esac
done
test -n "$do_dejagnu$do_upstream" || do_dejagnu=1 do_upstream=1
if test $# -ne 3; then
  echo "usage: gcc14-suites.sh [--dejagnu] [--upstream] TOP_SRCDIR STAGE14 WORKDIR" >&2
  exit 2
fi
top=$(cd "$1" && pwd) || exit 2
stage14=$2
w=$3
what=
test -n "$do_dejagnu" && what="the DejaGnu suite"
test -n "$do_upstream" && what="${what:+$what and }GCC 14's libgomp testsuite"

# One line for a suite that could not run, in each suite's name.
none ()  # KIND REASON
{
  test -n "$do_dejagnu" && echo "$1: gcc14: dejagnu: $2"
  test -n "$do_upstream" && echo "$1: gcc14: upstream: $2"
  exit 0
}
if test -f "$(dirname "$stage14")/build-failed"; then
  none FAIL "$(cat "$(dirname "$stage14")/build-failed")"
fi
test -x "$stage14/bin/gomp-gcc" \
  || none UNSUPPORTED "no GCC 14 flavour built ($stage14; make gcc14)"
stage14=$(cd "$stage14" && pwd)
gcc_src=$(dirname "$stage14")/gcc-src
if test "$(id -u)" != 0 || ! unshare --mount true 2> /dev/null; then
  none UNSUPPORTED "the trixie root needs root that may mount and chroot"
fi
mkdir -p "$w" || none FAIL "cannot create $w"
w=$(cd "$w" && pwd)
root=$("$top"/build-aux/trixie-root.sh "$w" 2> "$w/root.log" | tail -n 1)
if test -z "$root" || ! test -x "$root/usr/bin/runtest"; then
  tail -n 5 "$w/root.log"
  none FAIL "no trixie root with DejaGnu ($w/root.log)"
fi
echo "[gcc14] $what in the trixie root $(basename "$root")"

# CUDA's tools as the root sees them: the directory of the program that
# PTXAS really runs (build-aux/real-program.sh: links and wrapper scripts
# followed) is bound at /opt/gomp-hs-cuda/bin (build-aux/in-trixie-root.sh);
# nvlink is taken when it is in the same directory.
cuda_bin= ptxas_in= nvlink_in= cache_bind= memo_bind= compile_bind=
case $PTXAS in
  /*) if real=$("$top"/build-aux/real-program.sh "$PTXAS"); then
	cuda_bin=$(dirname "$real")
	ptxas_in=/opt/gomp-hs-cuda/bin/$(basename "$real")
	test -n "$NVLINK" && nl=$("$top"/build-aux/real-program.sh "$NVLINK") \
	  && test "$(dirname "$nl")" = "$cuda_bin" \
	  && nvlink_in=/opt/gomp-hs-cuda/bin/$(basename "$nl")
      fi ;;
esac
# Variables for the command in the root (whose environment starts empty),
# each quoted for sh.
q () { printf "%s='%s' " "$1" "$(printf '%s' "$2" | sed "s/'/'\\\\''/g")"; }
in_root ()  # DIR COMMAND
{
  d=$1; shift
  CUDA_BIN=${cuda_bin:-/nonexistent} "$top"/build-aux/in-trixie-root.sh "$root" \
    "$top" "$w" "$stage14" ${PTX_EXTRACT:+"$(dirname "$PTX_EXTRACT")"} \
    ${cache_bind:+"$cache_bind"} ${memo_bind:+"$memo_bind"} \
    ${compile_bind:+"$compile_bind"} \
    -- sh -c "cd $d && $*"
}

# A ptxas that does not run in the root would fail every compile there
# (nvptx-as verifies with it): go without it, in both suites and on both
# sides of the comparison, and say so once; the GCC 12 runs and the unit
# tests check PTX outside the root.
if test -n "$ptxas_in" \
   && ! in_root / "$ptxas_in --version" > "$w/ptxas-probe.log" 2>&1; then
  echo "UNSUPPORTED: gcc14: CUDA's ptxas ($PTXAS) in the trixie root: $(grep . "$w/ptxas-probe.log" | tail -n 1 | cut -c1-200); the suites run without it"
  cuda_bin= ptxas_in= nvlink_in=
fi

if test -n "$do_dejagnu"; then
  mkdir -p "$w/dejagnu"
  # The PTX checks' memory of ptxas (tests/ptx-link-check.sh), bound in
  # the root at its own path.
  memo=
  if test -n "$ptxas_in" && test -n "$GOMP_PTXAS_MEMO" \
     && mkdir -p "$GOMP_PTXAS_MEMO" 2> /dev/null; then
    memo=$(cd "$GOMP_PTXAS_MEMO" && pwd -P) && memo_bind=$memo
  fi
  start=$(date +%s)
  in_root "$w/dejagnu" "runtest --tool libgomp --srcdir $top/libgomp/testsuite \
    GOMP_HS_PREFIX=$stage14 GOMP_PTX_EXTRACT=$PTX_EXTRACT \
    PTXAS=$ptxas_in NVLINK=$nvlink_in GOMP_PTXAS_MEMO=$memo" > "$w/dejagnu/runtest.out" 2>&1
  sum=$w/dejagnu/libgomp.sum
  if test -f "$sum"; then
    # As tests/run-all.sh counts the GCC 12 run: XFAIL passes; XPASS,
    # UNRESOLVED and ERROR fail; UNTESTED is unsupported.
    sed -n -e 's/^PASS: /PASS: gcc14: dejagnu: /p' \
	   -e 's/^XFAIL: /PASS: gcc14: dejagnu: (XFAIL) /p' \
	   -e 's/^FAIL: /FAIL: gcc14: dejagnu: /p' \
	   -e 's/^\(XPASS\|UNRESOLVED\|ERROR\): /FAIL: gcc14: dejagnu: (\1) /p' \
	   -e 's/^\(UNSUPPORTED\|UNTESTED\): /UNSUPPORTED: gcc14: dejagnu: (\1) /p' "$sum"
    grep -q -E '^(PASS|XFAIL): ' "$sum" \
      || echo "FAIL: gcc14: dejagnu: no test passed ($sum)"
    # A run that broke before counting anything is a failure.
    grep -q '^ERROR' "$w/dejagnu/runtest.out" \
      && echo "FAIL: gcc14: dejagnu: runtest: $(grep -m 1 '^ERROR' "$w/dejagnu/runtest.out")"
  else
    tail -n 20 "$w/dejagnu/runtest.out"
    echo "FAIL: gcc14: dejagnu: runtest produced no libgomp.sum ($w/dejagnu/runtest.out)"
  fi
  echo "[gcc14] DejaGnu suite: $(( $(date +%s) - start )) s"
fi

if test -n "$do_upstream"; then
  if test "${UPSTREAM_SAMPLE:-1}" = 0 && test -z "$UPSTREAM_TESTS"; then
    echo "[gcc14] upstream: left out (UPSTREAM_SAMPLE=0)"
    exit 0
  fi
  test -f "$gcc_src/libgomp/testsuite/lib/libgomp.exp" \
    || { echo "FAIL: gcc14: upstream: no GCC 14 tree at $gcc_src"; exit 0; }
  # The cache of Debian's side (run-upstream.sh) is a host directory,
  # bound in the root at the same path.
  stock_cache=${UPSTREAM_STOCK_CACHE:-no}
  test "$stock_cache" = no || mkdir -p "$stock_cache" || stock_cache=no
  test "$stock_cache" = no || cache_bind=$stock_cache
  # So is the memory of our side's compiles (tests/compile-memo.sh).
  compile_memo=${UPSTREAM_COMPILE_MEMO:-no}
  test "$compile_memo" = no || mkdir -p "$compile_memo" || compile_memo=no
  test "$compile_memo" = no || compile_memo=$(cd "$compile_memo" && pwd -P) || compile_memo=no
  test "$compile_memo" = no || compile_bind=$compile_memo
  env=$(q UPSTREAM_SAMPLE "${UPSTREAM_SAMPLE:-1}"; q UPSTREAM_TESTS "$UPSTREAM_TESTS"
	q UPSTREAM_JOBS "${UPSTREAM_JOBS:-1}"; q UPSTREAM_PTX_ISA "$UPSTREAM_PTX_ISA"
	q UPSTREAM_STOCK_CACHE "$stock_cache"; q UPSTREAM_COMPILE_MEMO "$compile_memo")
  start=$(date +%s)
  in_root "$w" "env $env sh $top/tests/upstream/run-upstream.sh $top $gcc_src \
    $stage14 $w/upstream" > "$w/upstream.log" 2>&1
  # run-upstream.sh's own lines, named for this flavour; the others (its
  # progress and closing count) as they are.
  sed -e 's/^\(PASS\|FAIL\|UNSUPPORTED\|XPASS\|UNRESOLVED\|ERROR\): /\1: gcc14: /' \
      "$w/upstream.log"
  grep -q -E '^(PASS|FAIL): ' "$w/upstream.log" \
    || echo "FAIL: gcc14: upstream: run-upstream.sh printed no result ($w/upstream.log)"
  echo "[gcc14] upstream: $(( $(date +%s) - start )) s"
fi
exit 0
