#!/bin/sh
# tests/upstream/compare-sums.sh on small fake .sum files: a regression, an
# improvement, a test missing with ours, repeated test names, an excluded
# test, run directories that differ; the closing line and the exit status.
# Environment (from tests/run-all.sh): TOP, WORK.
top=${TOP:?} work=${WORK:?}/upstream-compare
cmp=$top/tests/upstream/compare-sums.sh
rm -rf "$work"
mkdir -p "$work"

pass () { echo "PASS: upstream-compare: $1"; }
fail () { echo "FAIL: upstream-compare: $1"; }

cat > "$work/ref.sum" <<'EOF'
Test run by root on Tue Dec  1 22:00:00 2026
Native configuration is x86_64-pc-linux-gnu

		=== libgomp tests ===

Running /src/libgomp.c/c.exp ...
PASS: libgomp.c/a.c (test for excess errors)
PASS: libgomp.c/a.c execution test
PASS: libgomp.c/b.c (test for excess errors)
PASS: libgomp.c/b.c execution test
PASS: libgomp.c/gone.c execution test
PASS: libgomp.c/dup.c (test for excess errors)
PASS: libgomp.c/dup.c (test for excess errors)
PASS: libgomp.c/dup.c (test for excess errors)
FAIL: libgomp.c/textrel.c (test for excess errors)
XFAIL: libgomp.c/xf.c execution test
UNSUPPORTED: libgomp.c/u.c
FAIL: libgomp.c/bothfail.c execution test
PASS: libgomp.c/expfail.c execution test
PASS: libgomp.c/../libgomp.c-c++-common/ex.c execution test
PASS: libgomp.c/out.c output pattern test, is /run/stock/out.exe
Running /src/libgomp.fortran/fortran.exp ...
XFAIL: libgomp.fortran/print.f90   -O0  execution test
XFAIL: libgomp.fortran/print.f90   -O1  execution test

		=== libgomp Summary ===

# of expected passes		12
# of unexpected failures	2
EOF
cat > "$work/ours.sum" <<'EOF'
Test run by root on Tue Dec  1 22:30:00 2026
Native configuration is x86_64-pc-linux-gnu

		=== libgomp tests ===

Running /src/libgomp.c/c.exp ...
PASS: libgomp.c/a.c (test for excess errors)
PASS: libgomp.c/a.c execution test
PASS: libgomp.c/b.c (test for excess errors)
FAIL: libgomp.c/b.c execution test
PASS: libgomp.c/dup.c (test for excess errors)
FAIL: libgomp.c/dup.c (test for excess errors)
PASS: libgomp.c/textrel.c (test for excess errors)
XFAIL: libgomp.c/xf.c execution test
UNSUPPORTED: libgomp.c/u.c
FAIL: libgomp.c/bothfail.c execution test
XFAIL: libgomp.c/expfail.c execution test
FAIL: libgomp.c/../libgomp.c-c++-common/ex.c execution test
PASS: libgomp.c/out.c output pattern test, is /run/ours/out.exe
Running /src/libgomp.fortran/fortran.exp ...
XPASS: libgomp.fortran/print.f90   -O0  execution test
XFAIL: libgomp.fortran/print.f90   -O1  execution test
FAIL: libgomp.fortran/new.f90   -O0  execution test

		=== libgomp Summary ===

# of expected passes		8
EOF
printf '# tests that cannot run from an installed tree\nlibgomp.c-c++-common/ex.c needs the build tree\n' \
  > "$work/excluded.txt"

sh "$cmp" -x "$work/excluded.txt" -s /run/stock -s /run/ours \
  "$work/ref.sum" "$work/ours.sum" > "$work/out" 2>&1
st=$?
cat > "$work/expected" <<'EOF'
FAIL: upstream regression: libgomp.c/b.c execution test (Debian's PASS, ours FAIL)
FAIL: upstream regression: libgomp.c/gone.c execution test (Debian's PASS, ours missing)
FAIL: upstream regression: libgomp.c/dup.c (test for excess errors) [occurrence 2] (Debian's PASS, ours FAIL)
FAIL: upstream regression: libgomp.c/dup.c (test for excess errors) [occurrence 3] (Debian's PASS, ours missing)
IMPROVEMENT: upstream: libgomp.c/textrel.c (test for excess errors) (Debian's FAIL, ours PASS)
FAIL: upstream regression: libgomp.c/expfail.c execution test (Debian's PASS, ours XFAIL)
IMPROVEMENT: upstream: libgomp.fortran/print.f90   -O0  execution test (Debian's XFAIL, ours XPASS)
NOTE: upstream: only ours has FAIL: libgomp.fortran/new.f90   -O0  execution test
upstream: 2 improvements, 1 tests that cannot run from an installed tree
UNSUPPORTED: upstream: libgomp.c-c++-common/ex.c (needs the build tree)
upstream: 18 results, 10 pass with Debian's, 7 pass with ours, 5 regressions
EOF
if diff "$work/expected" "$work/out" > "$work/diff"; then
  pass "regressions, improvements, missing and repeated results, exclusions"
else
  fail "unexpected report:"
  sed 's/^/  /' "$work/diff"
fi
test $st = 1 && pass "exit status 1 with regressions" \
  || fail "exit status $st with regressions (want 1)"

# Without -s the differing run directories are two results each, and the
# one only the reference has is a regression.
sh "$cmp" "$work/ref.sum" "$work/ours.sum" > "$work/out2" 2>&1
if grep -q "^FAIL: upstream regression: libgomp.c/out.c output pattern test, is /run/stock/out.exe (Debian's PASS, ours missing)" "$work/out2" \
   && grep -q '^upstream: 19 results, 11 pass .* 7 regressions$' "$work/out2"; then
  pass "run directories are part of the name unless replaced"
else
  fail "without -s: $(tail -n 1 "$work/out2")"
fi

# A run compared with itself: no regression, exit status 0, every result
# once.
sh "$cmp" "$work/ours.sum" "$work/ours.sum" > "$work/out3" 2>&1
st=$?
if test $st = 0 && test "$(tail -n 1 "$work/out3")" \
   = "upstream: 16 results, 7 pass with Debian's, 7 pass with ours, 0 regressions" \
   && ! grep -q '^FAIL' "$work/out3"; then
  pass "a run against itself: 0 regressions, exit status 0"
else
  fail "a run against itself: status $st, $(tail -n 1 "$work/out3")"
fi

# Misuse: a missing file is an error (2), not "no regressions".
sh "$cmp" "$work/ref.sum" "$work/nonexistent.sum" > /dev/null 2>&1
st=$?
test $st = 2 && pass "an unreadable .sum file: exit status 2" \
  || fail "an unreadable .sum file: exit status $st (want 2)"
exit 0
