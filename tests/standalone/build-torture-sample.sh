#!/bin/sh
# Build a sample of GCC's gcc.c-torture/execute as nvptx-none programs for
# a machine with a GPU and no compiler: N tests, chosen deterministically
# (the first N in the order of tests/standalone/select-sample.sh -n) among
# those without any dg- directive (no special options, effective targets
# or skips), compiled with PREFIX/bin/gomp-nvptx-gcc at -O2 -w (the flags
# GCC's execute.exp gives them) into OUTDIR/NAME.exe.
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
# Every candidate in hash order; the first N that build are kept.
all=$(ls "$src" | grep -c '\.c$')
for t in $(sh "$here/select-sample.sh" -n "$all" "$ts" gcc.c-torture/execute); do
  test $built -ge "$n" && break
  grep -q '{ dg-' "$src/$t" && continue
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
