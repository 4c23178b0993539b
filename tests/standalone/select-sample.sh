#!/bin/sh
# Print the test sources of one GCC testsuite directory that a sampled
# run takes, one base name a line, in C-locale order: those whose path
# relative to GCC's gcc/testsuite (gcc.c-torture/execute/pr12345.c) hashes
# to 0 modulo SAMPLE.  The hash is h = (31 h + byte) mod 2^32, as in
# tests/upstream/select-tests.sh: the same choice on every machine and run,
# and adding or removing a test changes no other test's membership.
# SAMPLE 1 takes every source.  Only the directory's own files count whose
# names match the extended regular expression NAMES (default '\.c$': what
# execute.exp and gcc.dg's dg.exp glob), not its subdirectories.
# With -n N instead of a sample, print the first N sources in the order of
# their hash (then name): a deterministic spread over the directory.
# Usage: select-sample.sh TESTSUITE SUBDIR SAMPLE [NAMES]
#        select-sample.sh -n N TESTSUITE SUBDIR [NAMES]
mode=sample
if test "$1" = -n; then
  mode=first
  count=$2
  shift 2
  set -- "$1" "$2" "$count" ${3+"$3"}
fi
ts=$1 subdir=$2 n=$3 names=${4:-'\.c$'}
test -d "$ts/$subdir" \
  || { echo "select-sample.sh: no directory $ts/$subdir" >&2; exit 2; }
case $n in
  ''|*[!0-9]*|0) echo "select-sample.sh: the count must be a positive integer, not '$n'" >&2; exit 2 ;;
esac
(cd "$ts/$subdir" && ls) | grep -E "$names" | LC_ALL=C sort \
| LC_ALL=C awk -v n="$n" -v mode="$mode" -v dir="$subdir" '
BEGIN {
  for (i = 1; i < 256; i++)
    ord[sprintf("%c", i)] = i
}
{
  p = dir "/" $0
  h = 0
  for (i = 1; i <= length(p); i++)
    h = (h * 31 + ord[substr(p, i, 1)]) % 4294967296
  if (mode == "sample") {
    if (h % n == 0)
      print
  } else
    printf "%010d %s\n", h, $0
}' \
| if test $mode = first; then LC_ALL=C sort | sed 's/^[0-9]* //' | head -n "$n"; else cat; fi
