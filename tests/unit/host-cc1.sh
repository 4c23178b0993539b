#!/bin/sh
# The host compilers proper that gomp-gcc and gomp-g++ run (cc1, cc1plus
# with the reverse-offload patches) against Debian's: they are used (-B);
# they predefine the same macros and search the same include directories
# as Debian's for C and C++; and offload objects cross over both ways:
# an object compiled by plain gcc-12 links with gomp-gcc, and objects
# from gomp-gcc without reverse-offload regions link with plain gcc-12
# (Debian's nvptx lto1 reads their offload streams: same tree codes, same
# compression).  Environment: STAGE, WORK, PTX_EXTRACT.
stage=$STAGE
work=$WORK/host-cc1
rm -rf "$work"; mkdir -p "$work"
cd "$work" || exit 1

pass () { echo "PASS: host-cc1 $*"; }
fail () { echo "FAIL: host-cc1 $*"; }

dir=$stage/libexec/gomp-hs
if test -x "$dir/cc1" && test -x "$dir/cc1plus"; then
  pass "cc1 and cc1plus are installed"
else
  fail "cc1 or cc1plus missing in $dir"
  exit 0
fi
if "$stage/bin/gomp-gcc" -### -c -x c /dev/null -o x.o 2>&1 | grep -q "^ $dir/cc1 " \
   && "$stage/bin/gomp-g++" -### -c -x c++ /dev/null -o x.o 2>&1 \
      | grep -q "^ $dir/cc1plus "; then
  pass "gomp-gcc runs them"
else
  fail "gomp-gcc/gomp-g++ do not run $dir/cc1, cc1plus"
fi

for lang in c c++; do
  drv=gcc-12
  test $lang = c++ && drv=g++-12
  "$drv" -x $lang -dM -E - < /dev/null | sort > debian.macros
  "$drv" -B"$dir/" -x $lang -dM -E - < /dev/null | sort > ours.macros
  echo | "$drv" -x $lang -E -v - 2>&1 | sed -n '/search starts/,/End of/p' \
    | xargs -n1 realpath -m > debian.dirs
  echo | "$drv" -B"$dir/" -x $lang -E -v - 2>&1 | sed -n '/search starts/,/End of/p' \
    | xargs -n1 realpath -m > ours.dirs
  if cmp -s debian.macros ours.macros && cmp -s debian.dirs ours.dirs \
     && test -s ours.macros; then
    pass "$lang: same predefined macros and include directories as Debian's"
  else
    fail "$lang: predefined macros or include directories differ from Debian's"
  fi
done

# Optimized like Debian's: a cc1 built at -O0 (as recipe 1 of
# build-host-cc1.sh did) takes 3.5 times Debian's CPU time to compile
# libiberty's demangler at -O2, one built at -O2 about 1.3 times (Debian's
# is built with LTO and profile feedback).  CPU time, the best of two
# runs each, so that other jobs on the machine count little.
if test -f "$GCC_SRC/libiberty/cp-demangle.c" \
   && gcc-12 -E -DHAVE_STRING_H -DHAVE_STDLIB_H -I"$GCC_SRC/include" \
	"$GCC_SRC/libiberty/cp-demangle.c" -o demangle.i 2> /dev/null; then
  cpu ()  # the best user+system time, in ms, of two runs of COMMAND
  {
    best=
    for i in 1 2; do
      # The shell's "times": its own times, then its children's
      # ("0m1.070000s 0m0.050000s").
      sh -c '"$@" > /dev/null 2>&1 || exit 1; times' sh "$@" > cpu.txt \
	|| { echo 0; return; }
      ms=$(awk 'NR == 2 { split ($1, u, /[ms]/); split ($2, s, /[ms]/);
			  printf "%d", (u[1] * 60 + u[2] + s[1] * 60 + s[2]) * 1000 }' cpu.txt)
      if test -z "$best" || test "$ms" -lt "$best"; then best=$ms; fi
    done
    echo "$best"
  }
  d=$(cpu gcc-12 -O2 -w -c demangle.i -o d1.o)
  o=$(cpu gcc-12 -B"$dir/" -O2 -w -c demangle.i -o d2.o)
  if test "$d" -gt 0 && test "$o" -gt 0 && test "$o" -le $((d * 2)); then
    pass "cc1 is optimized: $o ms against Debian's $d ms for cp-demangle.c at -O2"
  else
    fail "cc1 is slow: $o ms against Debian's $d ms for cp-demangle.c at -O2 (more than twice: built without optimization?)"
  fi
else
  echo "UNSUPPORTED: host-cc1: speed: no libiberty/cp-demangle.c in GCC_SRC ($GCC_SRC)"
fi

if ! command -v x86_64-linux-gnu-accel-nvptx-none-gcc-12 > /dev/null 2>&1; then
  echo "UNSUPPORTED: host-cc1: no nvptx offload compiler"
  exit 0
fi
cat > kern.c <<'SRC'
int
kern (int n)
{
  int s = 0;
#pragma omp target map(tofrom: s)
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}
SRC
cat > main.c <<'SRC'
#include <stdio.h>
int kern (int);
int
main (void)
{
  int s = 0;
#pragma omp target map(tofrom: s)
  s = 7;
  printf ("%d %d\n", kern (10), s);
  return !(kern (10) == 45 && s == 7);
}
SRC
flags="-O2 -fopenmp -foffload=nvptx-none"
# shellcheck disable=SC2086
if gcc-12 $flags -c kern.c -o kern-debian.o \
   && "$stage/bin/gomp-gcc" $flags -c main.c -o main-ours.o \
   && "$stage/bin/gomp-gcc" $flags main-ours.o kern-debian.o -o mixed1 > link1.log 2>&1 \
   && ./mixed1 > run1.log 2>&1; then
  pass "an offload object from gcc-12 links with gomp-gcc's and runs"
else
  fail "gcc-12 object + gomp-gcc object, linked by gomp-gcc: $(tail -3 link1.log run1.log 2>/dev/null | tr '\n' ' ')"
fi
# shellcheck disable=SC2086
if "$stage/bin/gomp-gcc" $flags -c kern.c -o kern-ours.o \
   && gcc-12 $flags -c main.c -o main-debian.o \
   && gcc-12 $flags main-debian.o kern-ours.o -o mixed2 > link2.log 2>&1 \
   && ./mixed2 > run2.log 2>&1; then
  pass "an offload object from gomp-gcc links with plain gcc-12 (Debian's lto1 reads it) and runs"
else
  fail "gomp-gcc object linked by plain gcc-12: $(tail -3 link2.log run2.log 2>/dev/null | tr '\n' ' ')"
fi
mkdir -p ptx
if test -n "$PTX_EXTRACT" && "$PTX_EXTRACT" mixed2 ptx > /dev/null 2>&1 \
   && grep -q "kern._omp_fn" ptx/module-*.ptx; then
  pass "gcc-12's link of gomp-gcc's object embeds its kernel"
else
  fail "no kern._omp_fn in the PTX embedded by gcc-12's link"
fi
