#!/bin/sh
# tests/upstream/stock-cache.sh (the cache of Debian's side of the upstream
# comparison) and tests/upstream/merge-sums.sh (ours run in two halves) on
# small fake runs: the key follows the testsuite and the tests chosen; a
# broken run is not kept; a kept run comes back with its paths rewritten;
# two halves merge into one run whose regressions compare-sums.sh still
# finds, with the lines an .exp prints once kept once.
# Environment (from tests/run-all.sh): TOP, WORK, HOST_CC.
top=${TOP:?} work=${WORK:?}/upstream-stock-cache
cc=${HOST_CC:-gcc-12}
sc=$top/tests/upstream/stock-cache.sh
merge=$top/tests/upstream/merge-sums.sh
rm -rf "$work"
mkdir -p "$work/ts/libgomp.c" "$work/cache"

pass () { echo "PASS: upstream-stock-cache: $1"; }
fail () { echo "FAIL: upstream-stock-cache: $1"; }
check () { if eval "$2"; then pass "$1"; else fail "$1"; fi; }

# The key.
echo 'int main (void) { return 0; }' > "$work/ts/libgomp.c/a.c"
key () { sh "$sc" key "$work/ts" sm_80 1 "$cc" "$cc" "$cc" "$@"; }
if ! command -v dpkg-query > /dev/null 2>&1; then
  echo "UNSUPPORTED: upstream-stock-cache: the key (no dpkg-query here)"
else
  k1=$(key c.exp=libgomp.c/a.c) k1b=$(key c.exp=libgomp.c/a.c)
  k2=$(key c.exp=libgomp.c/b.c)
  echo 'int main (void) { return 1; }' > "$work/ts/libgomp.c/a.c"
  k3=$(key c.exp=libgomp.c/a.c)
  check "the key is the same for the same inputs ($k1)" \
    'test -n "$k1" && test "$k1" = "$k1b"'
  check "the key changes with the tests chosen ($k2)" 'test "$k2" != "$k1"'
  check "the key changes with a testsuite file ($k3)" \
    'test "$k3" != "$k1" && test "$k3" != "$k2"'
fi

# A run of Debian's side, made in OLD (its work directory).
old=$work/old
mkdir -p "$old/stock"
cat > "$old/stock/libgomp.sum" <<EOF2
Running $work/ts/libgomp.c/c.exp ...
PASS: libgomp.c/a.c (test for excess errors)
PASS: libgomp.c/a.c output pattern test, is $old/stock/a.exe
EOF2
echo "Executing on host: $old/bin/stock-cc $work/ts/libgomp.c/a.c" > "$old/stock/libgomp.log"
: > "$old/stock/runtest.out"
echo 12 > "$old/stock/seconds"

cp -r "$old/stock" "$old/broken"
echo "ERROR: tcl error sourcing c.exp." > "$old/broken/runtest.out"
check "a run with a runtest ERROR is not kept" \
  '! sh "$sc" store "$work/cache" kbroken "$old/broken" "$work/ts" && ! test -e "$work/cache/kbroken"'
# A runtest stopped by a signal writes a summary of the tests it ran.
cp -r "$old/stock" "$old/stopped"
echo "got a SIGTERM signal, interrupted by user " > "$old/stopped/runtest.out"
check "a run that a signal stopped is not kept" \
  '! sh "$sc" store "$work/cache" kstopped "$old/stopped" "$work/ts" && ! test -e "$work/cache/kstopped"'
mkdir -p "$old/empty"; cp "$old/stock/runtest.out" "$old/stock/seconds" "$old/empty/"
echo "Running $work/ts/libgomp.c/c.exp ..." > "$old/empty/libgomp.sum"
check "a run without results is not kept" \
  '! sh "$sc" store "$work/cache" kempty "$old/empty" "$work/ts"'
check "a whole run is kept" 'sh "$sc" store "$work/cache" kgood "$old/stock" "$work/ts"'
check "no key, nothing restored" \
  '! sh "$sc" restore "$work/cache" knone "$work/new/stock" "$work/ts2"'
mkdir -p "$work/new/stock"
check "the kept run is restored" \
  'sh "$sc" restore "$work/cache" kgood "$work/new/stock" "$work/ts2"'
check "its paths name the new work directory and testsuite" \
  '! grep -q -e "$old" -e "$work/ts/" "$work/new/stock/libgomp.sum" "$work/new/stock/libgomp.log" \
   && grep -q "is $work/new/stock/a.exe" "$work/new/stock/libgomp.sum" \
   && grep -q "^Executing on host: $work/new/bin/stock-cc $work/ts2/libgomp.c/a.c" "$work/new/stock/libgomp.log"'

# Two halves of ours, and Debian's run of both.
half ()  # FILE TESTS...
{
  f=$1; shift
  { echo "Test run by root"; echo; echo "		=== libgomp tests ==="; echo
    echo "Running target unix"
    echo "Running /src/libgomp.c/c.exp ..."
    for t in "$@"; do echo "$t"; done
    echo "Running /src/libgomp.oacc-c/c.exp ..."
    echo "UNTESTED: libgomp.oacc-c nvptx-none offloading: supported, but hardware not accessible"
    echo; echo "		=== libgomp Summary ==="; echo
    echo "# of expected passes		9"; } > "$f"
}
half "$work/h1.sum" "PASS: libgomp.c/a.c execution test" "XFAIL: libgomp.c/x.c execution test"
half "$work/h2.sum" "PASS: libgomp.c/b.c execution test" "FAIL: libgomp.c/c.c execution test"
half "$work/ref.sum" "PASS: libgomp.c/a.c execution test" "XFAIL: libgomp.c/x.c execution test" \
  "PASS: libgomp.c/b.c execution test" "PASS: libgomp.c/c.c execution test"
sh "$merge" "$work/h1.sum" "$work/h2.sum" > "$work/merged.sum"
check "the merged run has every test's result once" \
  'test "$(grep -c "^[A-Z]*: libgomp.c/" "$work/merged.sum")" = 4 && grep -q "^FAIL: libgomp.c/c.c" "$work/merged.sum"'
check "an .exp file's own line is kept once" \
  'test "$(grep -c "^UNTESTED: libgomp.oacc-c nvptx-none" "$work/merged.sum")" = 1'
check "the summary counts the merged results (2 passes, 1 failure, 1 expected failure, 1 untested)" \
  'grep -q "^# of expected passes		2$" "$work/merged.sum" && grep -q "^# of unexpected failures		1$" "$work/merged.sum" \
   && grep -q "^# of expected failures		1$" "$work/merged.sum" && grep -q "^# of untested testcases		1$" "$work/merged.sum" \
   && test "$(grep -c "=== libgomp Summary ===" "$work/merged.sum")" = 1'
sh "$top/tests/upstream/compare-sums.sh" "$work/ref.sum" "$work/merged.sum" > "$work/compare.txt"
st=$?
check "compare-sums.sh finds the second half's regression in the merged run (status $st)" \
  'test $st = 1 && grep -q "^FAIL: upstream regression: libgomp.c/c.c execution test" "$work/compare.txt" \
   && grep -q "^upstream: .* 1 regressions$" "$work/compare.txt"'
sh "$merge" "$work/h1.sum" > /dev/null 2>&1
check "merge-sums.sh with one file is a usage error" 'test $? = 2'
