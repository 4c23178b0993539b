#!/bin/sh
# Build a sample of GCC's gcc.c-torture/execute as nvptx-none programs for
# a machine with a GPU and no compiler: N tests, chosen deterministically
# among those without dg- directives (no special options, effective
# targets or skips) other than the skips of a target without stdio
# ("requires io" ... freestanding), the fileio and unwrapped effective
# targets and dg-prune-output: first those that print or write files
# (printf-1.c, fprintf-2.c, user-printf.c ...: GCC's testsuite skips them
# on nvptx, and these programs have the host's stdio and files), then the
# others in the order of
# tests/standalone/select-sample.sh -n; compiled with
# PREFIX/bin/gomp-nvptx-gcc at -O2 -w (the flags GCC's execute.exp gives
# them) into OUTDIR/NAME.exe.
# OUTDIR/MANIFEST lists one built test a line, "NAME.exe SOURCE OPTIONS";
# OUTDIR/build.txt says, for each candidate, "built NAME" or
# "not built NAME: FIRST ERROR LINE" (a test that does not compile is
# reported and replaced by the next candidate, so N are built where N can
# be).  tests/standalone/run-torture-sample.sh runs them.
# Usage: build-torture-sample.sh PREFIX OUTDIR N [GCC_SRC]
#   GCC_SRC  the GCC source tree (default: /usr/src/gcc-12's unpacked
#            tree, else $GCC_SRC)
# Environment: TORTURE_SAMPLE_FLAGS (default "-O2 -w").
# Exit status: 0 when N tests were built, 1 otherwise.
prefix=$1 outdir=$2 n=$3 gcc_src=${4:-$GCC_SRC}
here=$(cd "$(dirname "$0")" && pwd)
if test $# -lt 3; then
  echo "usage: build-torture-sample.sh PREFIX OUTDIR N [GCC_SRC]" >&2
  exit 2
fi
case $n in
  ''|*[!0-9]*|0) echo "build-torture-sample.sh: N must be a positive integer, not '$n'" >&2; exit 2 ;;
esac
cc=$prefix/bin/gomp-nvptx-gcc
test -x "$cc" || { echo "build-torture-sample.sh: no $cc" >&2; exit 1; }
ts=$gcc_src/gcc/testsuite
test -d "$ts/gcc.c-torture/execute" \
  || { echo "build-torture-sample.sh: no gcc.c-torture/execute in '$gcc_src' (give GCC_SRC)" >&2; exit 1; }
flags=${TORTURE_SAMPLE_FLAGS:--O2 -w}
test -d /usr/local/cuda/bin && PATH=$PATH:/usr/local/cuda/bin && export PATH
mkdir -p "$outdir" || exit 1
src=$ts/gcc.c-torture/execute
: > "$outdir/MANIFEST"
: > "$outdir/build.txt"
built=0
# Every candidate: those that skip only where there is no stdio, then the
# rest in hash order; the first N that build are kept.
all=$(find "$src" -maxdepth 1 -name '*.c' | wc -l)
sh "$here/select-sample.sh" -n "$all" "$ts" gcc.c-torture/execute \
  > "$outdir/order.txt" || exit 1
# (Test names have no spaces or glob characters.)
# shellcheck disable=SC2046,SC2086
io=$(cd "$src" && grep -l 'dg-skip-if "requires [a-z]*" { freestanding }' \
       $(cat "$outdir/order.txt") 2>/dev/null | LC_ALL=C sort)
# shellcheck disable=SC2046,SC2086
for t in $io $(grep -v -x -F "$(printf '%s\n' $io)" "$outdir/order.txt"); do
  test $built -ge "$n" && break
  # No dg- directive but those skips.
  grep '{ dg-' "$src/$t" \
    | grep -v -e 'dg-skip-if "requires [a-z]*" { \(freestanding\|avr-\*-\*\) }' \
	      -e 'dg-require-effective-target \(fileio\|unwrapped\) }' \
	      -e 'dg-prune-output ' \
    | grep -q . && continue
  name=${t%.c}
  # shellcheck disable=SC2086
  if "$cc" $flags "$src/$t" -o "$outdir/$name.exe" > "$outdir/$name.err" 2>&1; then
    echo "$name.exe gcc.c-torture/execute/$t $flags" >> "$outdir/MANIFEST"
    echo "built $name" >> "$outdir/build.txt"
    rm -f "$outdir/$name.err"
    built=$((built + 1))
  else
    echo "not built $name: $(grep -m 1 -i 'error' "$outdir/$name.err")" >> "$outdir/build.txt"
    rm -f "$outdir/$name.exe"
  fi
done
cp "$here/run-torture-sample.sh" "$outdir/" 2>/dev/null
echo "build-torture-sample: $built of $n built in $outdir ($(grep -c '^not built' "$outdir/build.txt") candidates did not build)"
test $built -eq "$n"
