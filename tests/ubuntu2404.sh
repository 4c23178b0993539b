#!/bin/sh
# The GCC 14 flavour against Ubuntu 24.04's own compilers (gcc-14
# 14.2.0-4ubuntu2~24.04.1 on 2026-12-07, as Ubuntu's users have them),
# in an Ubuntu noble root (build-aux/ubuntu-root.sh): the tests that make
# check runs against Debian 13's, with GOMP_HS_GCC14_ROOT=noble:
#   - tests/unit/gcc14-flavour.sh: C, C++ and Fortran target regions built
#     by gomp-gcc, gomp-g++ and gomp-gfortran with this flavour's device
#     runtime (PTX checked with ptxas and nvlink, open and write the
#     host-service ones; Ubuntu's own runtime failing the same check),
#     GCC 14's reverse-offload and print tests, make GCC=14 install;
#   - tests/gcc14-suites.sh: this project's DejaGnu suite, and a sample of
#     GCC 14's libgomp testsuite compared between Ubuntu's runtime and ours.
# Not in make check (make check-ubuntu2404): it needs Ubuntu's archive,
# which CI's machine may not reach.  Needs root.  Without a GPU every
# region runs in host fallback, as in make check.
#
# Usage: ubuntu2404.sh TOP_SRCDIR STAGE WORKDIR
#   STAGE  the GCC 12 stage (build/stage); the GCC 14 one is beside it.
# Environment: PTXAS, NVLINK, HOST_CC, UPSTREAM14_SAMPLE (default 8),
# UPSTREAM_JOBS (default 2), GOMP_HS_CACHE.
# Ends with "N passed, N failed, N skipped".
top=$(cd "$1" && pwd) || exit 2
stage=$2
work=$3
test $# -eq 3 || { echo "usage: ubuntu2404.sh TOP_SRCDIR STAGE WORKDIR" >&2; exit 2; }
cc=${HOST_CC:-gcc-12}
rm -rf "$work"; mkdir -p "$work/unit" || exit 1
work=$(cd "$work" && pwd)
stage14=$(dirname "$stage")/gcc-14/stage
cache=${GOMP_HS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libgomp-host-services}
GOMP_HS_GCC14_ROOT=noble
export GOMP_HS_GCC14_ROOT

"$cc" -O2 -Wall -D_GNU_SOURCE -o "$work/ptx-extract" "$top/tests/ptx-extract.c" \
  || { echo "FAIL: ubuntu2404: build ptx-extract"; echo "0 passed, 1 failed"; exit 1; }
memo=$cache/compile-memo
mkdir -p "$memo" "$cache/upstream-stock" "$cache/ptxas-memo" 2> /dev/null \
  || memo=no

echo "[ubuntu2404] the GCC 14 flavour with Ubuntu 24.04's compilers (log: $work/flavour.log)"
TOP=$top STAGE=$stage WORK=$work/unit PTXAS=$PTXAS NVLINK=$NVLINK \
  PTX_EXTRACT=$work/ptx-extract sh "$top/tests/unit/gcc14-flavour.sh" \
  > "$work/flavour.log" 2>&1
echo "[ubuntu2404] the DejaGnu suite and GCC 14's libgomp testsuite, 1/${UPSTREAM14_SAMPLE:-8} of each directory (log: $work/suites.log)"
PTXAS=$PTXAS NVLINK=$NVLINK PTX_EXTRACT=$work/ptx-extract \
  GOMP_PTXAS_MEMO=$cache/ptxas-memo \
  UPSTREAM_SAMPLE=${UPSTREAM14_SAMPLE:-8} UPSTREAM_JOBS=${UPSTREAM_JOBS:-2} \
  UPSTREAM_STOCK_CACHE=$cache/upstream-stock UPSTREAM_COMPILE_MEMO=$memo \
  sh "$top/tests/gcc14-suites.sh" --dejagnu --upstream "$top" "$stage14" \
  "$work/suites" > "$work/suites.log" 2>&1
cat "$work/flavour.log" "$work/suites.log" \
  | sed -n 's/^\(PASS\|FAIL\|UNSUPPORTED\): /\1: ubuntu2404: /p' > "$work/results.txt"
grep -E '^(FAIL|UNSUPPORTED):' "$work/results.txt"
grep '^upstream: ' "$work/suites.log" | tail -n 1
grep -h 'ubuntu-root-' "$work/unit/gcc14/root.log" 2> /dev/null | tail -n 1
pass=$(grep -c '^PASS:' "$work/results.txt")
fail=$(grep -c '^FAIL:' "$work/results.txt")
skip=$(grep -c '^UNSUPPORTED:' "$work/results.txt")
test "$pass" -gt 0 || fail=$((fail + 1))
echo "$pass passed, $fail failed, $skip skipped"
test "$fail" -eq 0
