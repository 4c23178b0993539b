#!/bin/sh
# Compare two DejaGnu .sum files of the same testsuite, test by test: the
# reference run (Debian's compiler and runtime) and ours.
#
# Usage: compare-sums.sh [-x EXCLUDED] [-s DIR]... REFERENCE.sum OURS.sum
#   -x EXCLUDED  a list of tests that cannot run from an installed tree, one
#                a line: "PATH REASON..." (PATH relative to the testsuite,
#                e.g. libgomp.c/foo.c; '#' starts a comment).  Their results
#                are dropped from both files; each counts as one UNSUPPORTED
#                result on both sides.
#   -s DIR       a directory name to replace by "." in result names (the
#                run directories differ between the two sides); repeatable.
#
# Each result line ("PASS: NAME", "FAIL: NAME", ...) is keyed by NAME and
# by how many times NAME occurred before it in the same file: DejaGnu
# repeats names (a test's "test for excess errors" at two options that
# print alike, say), and the Kth occurrence in one file is paired with the
# Kth in the other.  A result that only one side has is "missing" on the
# other.
#
# A result is good when the test did what it should: PASS, or an expected
# failure (XFAIL, KFAIL), or an unexpected pass (XPASS, KPASS).  Then:
#   regression   good with Debian's, not good with ours (FAIL, ERROR,
#                UNRESOLVED, UNSUPPORTED, UNTESTED, missing); or it passes
#                with Debian's and fails as an expected failure with ours;
#   improvement  an expected failure with Debian's that passes with ours
#                (XFAIL -> XPASS), or any other not-good result with
#                Debian's that passes with ours.
# Prints one "FAIL: upstream regression: ..." line per regression, one
# "IMPROVEMENT: upstream: ..." line per improvement, one
# "UNSUPPORTED: upstream: PATH (REASON)" line per excluded test, and ends
# with
#   upstream: N results, P pass with Debian's, Q pass with ours, R regressions
# where N counts the results of both sides (a result both have counts once)
# and P, Q the PASS/XPASS/KPASS results of each side.  Exit status 1 when
# R > 0, 2 on bad usage or an unreadable file.
excluded=
subst=
while test $# -gt 2; do
  case $1 in
    -x) excluded=$2; shift 2 ;;
    -s) subst="$subst$2
"; shift 2 ;;
    *) break ;;
  esac
done
if test $# -ne 2; then
  echo "usage: compare-sums.sh [-x EXCLUDED] [-s DIR]... REFERENCE.sum OURS.sum" >&2
  exit 2
fi
for f in "$1" "$2" ${excluded:+"$excluded"}; do
  test -r "$f" || { echo "compare-sums.sh: cannot read $f" >&2; exit 2; }
done
test -n "$excluded" || excluded=/dev/null

LC_ALL=C awk -v subst="$subst" '
function norm_path(p,    q) {
  # "libgomp.c/../libgomp.c-c++-common/x.c" -> "libgomp.c-c++-common/x.c"
  while (match(p, /[^\/]+\/\.\.\//))
    p = substr(p, 1, RSTART - 1) substr(p, RSTART + RLENGTH)
  return p
}
function good(r) { return r ~ /^(PASS|XPASS|KPASS|XFAIL|KFAIL)$/ }
function passed(r) { return r ~ /^(PASS|XPASS|KPASS)$/ }
function expfail(r) { return r ~ /^(XFAIL|KFAIL)$/ }
BEGIN {
  nsubst = split(subst, dirs, "\n")
  kinds = "PASS|FAIL|XPASS|XFAIL|KPASS|KFAIL|UNRESOLVED|UNSUPPORTED|UNTESTED|ERROR"
}
part == 0 {
  sub(/#.*/, "")
  if (NF == 0) next
  reason = $0
  sub(/^[ \t]*[^ \t]+[ \t]*/, "", reason)
  if (reason == "") reason = "cannot run from an installed tree"
  xreason[$1] = reason
  xorder[++nx] = $1
  next
}
{
  side = part
  if (!match($0, "^(" kinds "): "))
    next
  res = substr($0, 1, RLENGTH - 2)
  name = substr($0, RLENGTH + 1)
  sub(/[ \t\r]+$/, "", name)
  for (i = 1; i <= nsubst; i++)
    if (dirs[i] != "")
      while ((p = index(name, dirs[i])) > 0)
        name = substr(name, 1, p - 1) "." substr(name, p + length(dirs[i]))
  split(name, w, " ")
  if (norm_path(w[1]) in xreason)
    next
  k = name SUBSEP (++occ[side, name])
  if (!(k in known)) {
    known[k] = 1
    order[++n] = k
  }
  result[side, k] = res
}
END {
  pref = pours = nreg = nimp = 0
  for (i = 1; i <= n; i++) {
    k = order[i]
    split(k, kk, SUBSEP)
    label = kk[1]
    if (kk[2] > 1) label = label " [occurrence " kk[2] "]"
    a = ((1, k) in result) ? result[1, k] : "missing"
    b = ((2, k) in result) ? result[2, k] : "missing"
    if (passed(a)) pref++
    if (passed(b)) pours++
    if ((good(a) && !good(b)) || (passed(a) && expfail(b))) {
      printf "FAIL: upstream regression: %s (Debian'"'"'s %s, ours %s)\n", label, a, b
      nreg++
    } else if ((expfail(a) && passed(b)) || (!good(a) && passed(b))) {
      printf "IMPROVEMENT: upstream: %s (Debian'"'"'s %s, ours %s)\n", label, a, b
      nimp++
    } else if (a == "missing" && !good(b)) {
      printf "NOTE: upstream: only ours has %s: %s\n", b, label
    }
  }
  printf "upstream: %d improvements, %d tests that cannot run from an installed tree\n", nimp, nx
  for (i = 1; i <= nx; i++) {
    printf "UNSUPPORTED: upstream: %s (%s)\n", xorder[i], xreason[xorder[i]]
    n++
  }
  printf "upstream: %d results, %d pass with Debian'"'"'s, %d pass with ours, %d regressions\n", \
    n, pref, pours, nreg
  exit (nreg > 0)
}' part=0 "$excluded" part=1 "$1" part=2 "$2"
