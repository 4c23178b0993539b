#!/bin/sh
# Merge the .sum files of two runtest runs of one testsuite over disjoint
# halves of its tests (run-upstream.sh's two halves of ours) into the
# .sum of one run, on standard output: the first file's lines up to its
# summary, the second's result lines (from its "Running target" on), and
# a summary that counts the merged results.  A result line whose name is
# a directory, not a test ("UNTESTED: libgomp.oacc-c nvptx-none
# offloading: ..."), is one that an .exp file prints once whatever tests
# it runs: both halves print it, and it is kept once.
#
# Usage: merge-sums.sh FIRST.sum SECOND.sum
if test $# -ne 2 || ! test -r "$1" || ! test -r "$2"; then
  echo "usage: merge-sums.sh FIRST.sum SECOND.sum" >&2
  exit 2
fi
{ sed '/=== libgomp Summary ===/,$d' "$1"
  sed -e '1,/^Running target /d' -e '/=== libgomp Summary ===/,$d' "$2"
} | LC_ALL=C awk '
  BEGIN {
    n = split("PASS expected passes|FAIL unexpected failures|XPASS unexpected successes|XFAIL expected failures|KPASS unknown successes|KFAIL known failures|UNRESOLVED unresolved testcases|UNTESTED untested testcases|UNSUPPORTED unsupported tests", l, "|")
    for (i = 1; i <= n; i++) {
      kind[i] = substr(l[i], 1, index(l[i], " ") - 1)
      what[kind[i]] = substr(l[i], index(l[i], " ") + 1)
    }
  }
  match($0, /^[A-Z]+: /) && (substr($0, 1, RLENGTH - 2) in what) {
    k = substr($0, 1, RLENGTH - 2)
    split(substr($0, RLENGTH + 1), w, " ")
    if (index(w[1], "/") == 0 && ($0 in once))
      next
    once[$0] = 1
    count[k]++
  }
  { print }
  END {
    print "\n\t\t=== libgomp Summary ===\n"
    for (i = 1; i <= n; i++)
      if (count[kind[i]] > 0)
	printf "# of %s\t\t%d\n", what[kind[i]], count[kind[i]]
  }'
