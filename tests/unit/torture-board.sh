#!/bin/sh
# The DejaGnu board for GCC's own testsuite on nvptx-none
# (tests/standalone/board/gomp-nvptx-run.exp, run by
# tests/standalone/run-torture.sh) and the prebuilt torture sample
# (build-torture-sample.sh, run-torture-sample.sh), without a GPU: stand-in
# launchers that pass, fail, trap, hang or find no GPU give PASS, FAIL,
# FAIL, FAIL and UNSUPPORTED executions, and the compile and link steps
# pass either way; the sample is deterministic.
# Environment (from tests/run-all.sh): TOP, WORK, STAGE, GCC_SRC.
top=${TOP:?} work=${WORK:?}/torture-board
stage=$STAGE
gcc_src=$GCC_SRC
rm -rf "$work"
mkdir -p "$work/bin"

pass () { echo "PASS: torture-board: $1"; }
fail () { echo "FAIL: torture-board: $1"; }

sel=$top/tests/standalone/select-sample.sh
ts=$gcc_src/gcc/testsuite
if ! test -d "$ts/gcc.c-torture/execute"; then
  echo "UNSUPPORTED: torture-board: no gcc.c-torture/execute in GCC_SRC '$gcc_src'"
  exit 0
fi
# The sample: the same twice, a proper non-empty subset, and the -n order
# a prefix-stable choice.
a=$(sh "$sel" "$ts" gcc.c-torture/execute 20)
b=$(sh "$sel" "$ts" gcc.c-torture/execute 20)
all=$(sh "$sel" "$ts" gcc.c-torture/execute 1 | wc -l)
na=$(echo "$a" | grep -c .)
if test -n "$a" && test "$a" = "$b" && test "$na" -lt "$all" \
   && test "$all" -eq "$(ls "$ts/gcc.c-torture/execute" | grep -c '\.c$')" \
   && test "$(sh "$sel" -n 5 "$ts" gcc.c-torture/execute)" \
	   = "$(sh "$sel" -n 10 "$ts" gcc.c-torture/execute | head -n 5)"; then
  pass "select-sample.sh: 1/20 of gcc.c-torture/execute is $na of $all tests, the same each run"
else
  fail "select-sample.sh: 1/20 gave $na of $all tests (or differed between runs)"
fi

if ! test -x "$stage/bin/gomp-nvptx-gcc"; then
  echo "UNSUPPORTED: torture-board: no $stage/bin/gomp-nvptx-gcc"
  exit 0
fi
if ! command -v "${RUNTEST:-runtest}" > /dev/null 2>&1; then
  echo "UNSUPPORTED: torture-board: no runtest (dejagnu)"
  exit 0
fi

# Stand-in launchers: one behaviour each.
stub ()
{
  printf '#!/bin/sh\n%s\n' "$2" > "$work/bin/$1"
  chmod +x "$work/bin/$1"
}
stub run-pass 'test -f "$1" || exit 126; exit 0'
stub run-fail 'echo "program said no"; exit 1'
stub run-trap 'echo "gomp-nvptx-run: the kernel failed: an illegal instruction (trap)" >&2; exit 134'
stub run-hang 'sleep 30'
stub run-nogpu 'echo "gomp-nvptx-run: error: no CUDA driver: libcuda.so.1: cannot open shared object file" >&2; exit 127'
# The launcher must get the program first, then its arguments.
stub run-args 'case $1 in *.exe) exit 0 ;; esac; exit 1'

t=20000112-1.c
board ()
{
  kind=$1 expect=$2
  TORTURE_TESTS=$t TORTURE_OPTIONS="{-O0} {-O2}" GOMP_NVPTX_RUN=$work/bin/run-$kind \
    GOMP_NVPTX_RUN_TIMEOUT=2 \
    sh "$top/tests/standalone/run-torture.sh" "$top" "$gcc_src" "$stage" \
      "$work/$kind" > "$work/$kind.out" 2>&1
  rc=$?
  sum=$work/$kind/execute/gcc.sum
  comp=$(grep -c "^PASS: gcc.c-torture/execute/$t .*(test for excess errors)" "$sum" 2>/dev/null)
  exe=$(grep "^[A-Z]*: gcc.c-torture/execute/$t .*execution" "$sum" 2>/dev/null \
	| sed 's/:.*//' | sort -u | tr '\n' ' ')
  want_rc=1
  test "$expect" = PASS || test "$expect" = UNSUPPORTED && want_rc=0
  if test "$comp" = 2 && test "$exe" = "$expect " && test $rc = $want_rc \
     && tail -n 1 "$work/$kind.out" | grep -q '^torture: execute: '; then
    pass "launcher that $3: compile and link PASS at -O0 and -O2, executions $expect"
  else
    fail "launcher that $3: $comp compile passes, executions '$exe', status $rc (want 2, $expect, $want_rc); see $work/$kind.out"
  fi
}
board pass PASS "exits 0"
board args PASS "gets the program as its first argument"
board fail FAIL "exits 1"
board trap FAIL "reports a trap (134)"
board hang FAIL "runs past GOMP_NVPTX_RUN_TIMEOUT"
board nogpu UNSUPPORTED "finds no GPU (127)"
if grep -q 'no GPU: executions unsupported' "$work/nogpu.out" \
   && test "$(grep -c 'Executing: timeout' "$work/nogpu/execute/gcc.log")" = 1; then
  pass "no GPU: the summary says so, and the launcher ran once"
else
  fail "no GPU: summary or launcher count wrong (see $work/nogpu.out)"
fi

# "requires io" tests (skipped where GCC's testsuite takes nvptx for
# freestanding) build and run, unless GOMP_NVPTX_HOSTED=0.
hosted ()
{
  TORTURE_TESTS=printf-1.c TORTURE_OPTIONS="{-O2}" GOMP_NVPTX_HOSTED=$1 \
    GOMP_NVPTX_RUN=$work/bin/run-pass \
    sh "$top/tests/standalone/run-torture.sh" "$top" "$gcc_src" "$stage" \
      "$work/hosted$1" > "$work/hosted$1.out" 2>&1
  s=$work/hosted$1/execute/gcc.sum
  # Runs, then skips.
  echo "$(grep -c '^PASS: gcc.c-torture/execute/printf-1.c .*execution test' "$s")" \
       "$(grep -c '^UNSUPPORTED: gcc.c-torture/execute/printf-1.c  *-O2 *$' "$s")"
}
h1=$(hosted 1)
h0=$(hosted 0)
if test "$h1" = "1 0" && test "$h0" = "0 1"; then
  pass "printf-1.c runs (not freestanding); GOMP_NVPTX_HOSTED=0 skips it"
else
  fail "printf-1.c: runs and skips '$h1', with GOMP_NVPTX_HOSTED=0 '$h0' (want '1 0', '0 1')"
fi

# The prebuilt sample and its runner.
if sh "$top/tests/standalone/build-torture-sample.sh" "$stage" "$work/sample" 3 \
     "$gcc_src" > "$work/sample.out" 2>&1 \
   && test "$(wc -l < "$work/sample/MANIFEST")" = 3 \
   && test -x "$work/sample/run-torture-sample.sh"; then
  pass "build-torture-sample.sh builds 3 tests with a manifest"
else
  fail "build-torture-sample.sh: $(tail -n 1 "$work/sample.out")"
fi
first=$(sed -n '1s/\.exe .*//p' "$work/sample/MANIFEST")
stub run-one "case \$1 in */$first.exe) exit 3 ;; esac; test -f \"\$1\" || exit 126; exit 0"
out=$(sh "$work/sample/run-torture-sample.sh" "$work/sample" "$work/bin/run-one")
rc=$?
if test $rc = 1 && echo "$out" | grep -q "^FAIL: torture-sample: $first (status 3" \
   && test "$(echo "$out" | grep -c '^PASS: ')" = 2 \
   && echo "$out" | tail -n 1 | grep -q '^torture-sample: 2 pass, 1 fail, 0 unsupported'; then
  pass "run-torture-sample.sh: a non-zero status is a FAIL, 0 a PASS"
else
  fail "run-torture-sample.sh with one failing test: status $rc, $(echo "$out" | tail -n 1)"
fi
out=$(sh "$work/sample/run-torture-sample.sh" "$work/sample" "$work/bin/run-nogpu")
rc=$?
if test $rc = 0 && test "$(echo "$out" | grep -c '^UNSUPPORTED: ')" = 3; then
  pass "run-torture-sample.sh: no GPU makes every test UNSUPPORTED"
else
  fail "run-torture-sample.sh without a GPU: status $rc, $(echo "$out" | tail -n 1)"
fi
# TORTURE_BUDGET: once it is spent, the tests left fail as skipped.
if test -f "$work/sample/MANIFEST"; then
  stub run-slow "sleep 2; exit 0"
  out=$(TORTURE_BUDGET=1 sh "$work/sample/run-torture-sample.sh" "$work/sample" "$work/bin/run-slow")
  rc=$?
  if test $rc = 1 && test "$(echo "$out" | grep -c '^PASS: ')" = 1 \
     && test "$(echo "$out" | grep -c '^FAIL: .*skipped: over the budget of 1 s')" = 2; then
    pass "run-torture-sample.sh: TORTURE_BUDGET=1 runs one 2-second test, skips two as failed"
  else
    fail "run-torture-sample.sh with TORTURE_BUDGET=1: status $rc, $(echo "$out" | tr '\n' '|')"
  fi
fi
