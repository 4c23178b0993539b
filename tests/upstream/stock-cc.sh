#!/bin/sh
# The compiler of Debian's side of the upstream run: Debian's driver
# (STOCK_CC_REAL), with two linker warnings taken out of its messages.
# Debian 12's crtoffloadtable.o is not position-independent, so every
# offloading program linked as a PIE makes ld say
#   ...crtoffloadtable.o: warning: relocation against `__offload_vars_end'
#     in read-only section `.rodata'
#   warning: creating DT_TEXTREL in a PIE
# and the testsuite counts that as "excess errors": a packaging defect, the
# same in every test, that would hide from the comparison whatever else
# our side prints in those tests.  Nothing else changes: same driver, same
# options, same objects, same exit status.  Each pruned link is recorded in
# STOCK_CC_PRUNED (a file) when that is set.
cc=${STOCK_CC_REAL:?}
err=$(mktemp "${TMPDIR:-/tmp}/stock-cc-XXXXXX") || exit 1
"$cc" "$@" 2> "$err"
st=$?
if grep -q -e 'crtoffloadtable\.o: warning: relocation against' \
	   -e 'warning: creating DT_TEXTREL in a PIE' "$err"; then
  test -n "$STOCK_CC_PRUNED" && echo "$*" >> "$STOCK_CC_PRUNED"
  sed -e '/crtoffloadtable\.o: warning: relocation against .* in read-only section/d' \
      -e '/warning: creating DT_TEXTREL in a PIE/d' "$err" >&2
else
  cat "$err" >&2
fi
rm -f "$err"
exit $st
