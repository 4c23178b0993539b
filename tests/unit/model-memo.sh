#!/bin/sh
# The memory of tests/models/run-models.sh (MODEL_MEMO): a model that
# passed is not checked again while nothing its result depends on has
# changed, and a failure is never remembered.  Small models of its own,
# checked with the real spin.  UNSUPPORTED without spin.  Environment:
# TOP, WORK.
if ! command -v spin > /dev/null 2>&1; then
  echo "UNSUPPORTED: model-memo: spin not installed"
  exit 0
fi
w=$WORK/model-memo
rm -rf "$w"; mkdir -p "$w/m" "$w/memo"
run=$TOP/tests/models/run-models.sh
pass () { echo "PASS: model-memo: $*"; }
fail () { echo "FAIL: model-memo: $*"; }

# Compiled without optimization: quicker to build, as quick to check.
cat > "$w/m/ok.pml" <<'EOF'
/* model-check cc: -O0 -DSAFETY */
#include "ok.pmlh"
active proctype p () { byte x = ONE; assert (x == 1) }
EOF
echo '#define ONE 1' > "$w/m/ok.pmlh"
cat > "$w/m/neg-ok.pml" <<'EOF'
/* model-check cc: -O0 -DSAFETY */
active proctype p () { byte x = 2; assert (x == 1) }
EOF

# run OUT MODEL...: run-models.sh with the memory, its output in OUT.
run ()
{
  out=$1
  shift
  rm -rf "$w/work"
  MODEL_MEMO=$w/memo sh "$run" -w "$w/work" "$@" > "$w/$out" 2>&1
}
checked () { test -x "$w/work/$1/pan"; }

run 1.out "$w/m/ok.pml" "$w/m/neg-ok.pml"
if grep -q '^PASS: model ok$' "$w/1.out" \
   && grep -q '^PASS: model neg-ok (counterexample found, as it must be)$' "$w/1.out" \
   && checked ok && checked neg-ok \
   && test "$(ls "$w/memo" | wc -l)" -eq 2; then
  pass "a first run checks both models and remembers both"
else
  fail "first run: $(cat "$w/1.out"; ls "$w/memo")"
fi

run 2.out "$w/m/ok.pml" "$w/m/neg-ok.pml"
if grep -q '^PASS: model ok (verified before' "$w/2.out" \
   && grep -q '^PASS: model neg-ok (counterexample found, as it must be) (verified before' "$w/2.out" \
   && ! checked ok && ! checked neg-ok && tail -n 1 "$w/2.out" | grep -q '2 checked, 0 failed'; then
  pass "a second run checks neither, and says so"
else
  fail "second run: $(cat "$w/2.out")"
fi

# Each input of the key: the model, a header beside it, spin's version.
echo '/* changed */' >> "$w/m/ok.pml"
run 3.out "$w/m/ok.pml"
grep -q '^PASS: model ok$' "$w/3.out" && checked ok \
  && pass "a changed model is checked again" \
  || fail "changed model: $(cat "$w/3.out")"
echo '/* changed */' >> "$w/m/ok.pmlh"
run 4.out "$w/m/ok.pml"
grep -q '^PASS: model ok$' "$w/4.out" && checked ok \
  && pass "a changed header beside it: checked again" \
  || fail "changed header: $(cat "$w/4.out")"
mkdir -p "$w/bin"
real_spin=$(command -v spin)
cat > "$w/bin/spin" <<EOF
#!/bin/sh
test "\$1" = -V && { echo "Spin Version 0.0 (a stand-in)"; exit 0; }
exec "$real_spin" "\$@"
EOF
chmod +x "$w/bin/spin"
rm -rf "$w/work"
SPIN=$w/bin/spin MODEL_MEMO=$w/memo sh "$run" -w "$w/work" "$w/m/ok.pml" \
  > "$w/5.out" 2>&1
grep -q '^PASS: model ok$' "$w/5.out" && checked ok \
  && pass "another spin version: checked again" \
  || fail "other spin: $(cat "$w/5.out")"

# Failures are not remembered: a model that fails, and a negative case
# that stops finding its counterexample.
sed 's/x == 1/x == 2/' "$w/m/ok.pml" > "$w/m/bad.pml"
sed 's/x = 2/x = 1/' "$w/m/neg-ok.pml" > "$w/m/neg-lost.pml"
n=$(ls "$w/memo" | wc -l)
run 6.out "$w/m/bad.pml" "$w/m/neg-lost.pml"
run 7.out "$w/m/bad.pml" "$w/m/neg-lost.pml"
if grep -q '^FAIL: model bad ' "$w/6.out" && grep -q '^FAIL: model neg-lost ' "$w/6.out" \
   && grep -q '^FAIL: model bad ' "$w/7.out" && grep -q '^FAIL: model neg-lost ' "$w/7.out" \
   && test "$(ls "$w/memo" | wc -l)" -eq "$n"; then
  pass "a failing model and a negative case that verifies fail twice, and nothing is kept"
else
  fail "failures: $(cat "$w/6.out" "$w/7.out")"
fi

# An entry is a hit only when it holds this model's own PASS line.
for f in "$w/memo"/*; do echo "PASS: model something-else" > "$f"; done
run 8.out "$w/m/neg-ok.pml"
grep -q '^PASS: model neg-ok (counterexample found, as it must be)$' "$w/8.out" \
  && checked neg-ok \
  && pass "an entry that holds another line is no hit" \
  || fail "foreign entry: $(cat "$w/8.out")"
