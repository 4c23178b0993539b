#!/bin/sh
# Print the test sources of GCC's libgomp testsuite that a sampled run
# takes, one a line, relative to the testsuite directory
# (libgomp.c/target-1.c): every source whose name hashes to 0 modulo
# SAMPLE, plus every test listed in ALWAYS (one path a line, '#' starts a
# comment).  SAMPLE 1 takes them all.
# The hash is h = (31 h + byte) mod 2^32 over the relative path, so the
# choice is the same on every machine and run, and adding or removing one
# test changes no other test's membership; about 1/SAMPLE of each directory.
# Sources are what the .exp files gather: *.c, *.C and the Fortran suffixes,
# under each libgomp.* directory (recursively, like DejaGnu's find).
# Usage: select-tests.sh TESTSUITE SAMPLE [ALWAYS]
ts=$1
sample=$2
always=${3:-/dev/null}
test -d "$ts" || { echo "select-tests.sh: no directory $ts" >&2; exit 2; }
case $sample in
  ''|*[!0-9]*|0) echo "select-tests.sh: SAMPLE must be a positive integer, not '$sample'" >&2; exit 2 ;;
esac
test -r "$always" || { echo "select-tests.sh: cannot read $always" >&2; exit 2; }

(cd "$ts" && find libgomp.* -type f \( -name '*.c' -o -name '*.C' \
   -o -name '*.f' -o -name '*.F' -o -name '*.f90' -o -name '*.F90' \
   -o -name '*.f95' -o -name '*.F95' -o -name '*.f03' -o -name '*.F03' \
   -o -name '*.f08' -o -name '*.F08' \) -print) \
| LC_ALL=C sort \
| LC_ALL=C awk -v n="$sample" -v always="$always" '
BEGIN {
  for (i = 1; i < 256; i++)
    ord[sprintf("%c", i)] = i
  while ((getline line < always) > 0) {
    sub(/#.*/, "", line)
    gsub(/[ \t\r]/, "", line)
    if (line != "")
      keep[line] = 1
  }
}
{
  h = 0
  for (i = 1; i <= length($0); i++)
    h = (h * 31 + ord[substr($0, i, 1)]) % 4294967296
  if (h % n == 0 || ($0 in keep))
    print
}'
