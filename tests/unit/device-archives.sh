#!/bin/sh
# Unit test: no global symbol is defined both by one of this project's
# device archives (libgomp.a, libgfortran.a) and by another device archive
# of the same multilib (newlib's libc.a and libm.a, or each other).  Where
# two archives define a symbol, which definition a program gets depends on
# the linker: the nvptx-ld of Debian 12's nvptx-tools takes the first
# archive on the command line that defines it, that of Debian 13's
# (0.20240810) may take a later one and then fail with "multiple
# definitions" when the other member comes in for another symbol.  That
# is how newlib's rename once shadowed libgomp's and broke every program
# that calls rename with the GCC 14 flavour.  libc.a and libm.a share a
# few of newlib's own functions (copysign, __isnand, ...): the same code
# either way, so those are not checked.
# A self-check first: two made-up archives that share a symbol must be
# found out (the negative case).
# Environment: STAGE (the GCC 12 stage; the GCC 14 one, when built, is in
# gcc-14/stage beside it), WORK.
w=$WORK/device-archives
rm -rf "$w"; mkdir -p "$w"

# Global definitions in a PTX archive (or object), one a line, sorted.
defs ()  # ARCHIVE
{
  tr -d '\000' < "$1" \
    | grep -a -o '^// BEGIN GLOBAL \(FUNCTION\|VAR\) DEF: [A-Za-z0-9_$.]*' \
    | sed 's/.*: //' | sort -u
}

# Print "A B SYMBOL" for each symbol defined by two of the archives,
# when one of the two is OURS (a space-separated list of archive names).
overlaps ()  # DIR OURS ARCHIVE...
{
  d=$1 ours=$2; shift 2
  for a in "$@"; do
    test -f "$d/$a" && defs "$d/$a" > "$w/$a.defs" || : > "$w/$a.defs"
  done
  for a in $ours; do
    for b in "$@"; do
      test "$a" = "$b" && continue
      # Each pair of ours once.
      case " $ours " in *" $b "*) expr "$b" \< "$a" > /dev/null && continue ;; esac
      comm -12 "$w/$a.defs" "$w/$b.defs" | sed "s/^/$a $b /"
    done
  done
}

# The negative case.
mkdir -p "$w/neg"
printf '// BEGIN GLOBAL FUNCTION DEF: shared_sym\n// BEGIN GLOBAL FUNCTION DEF: only_a\n' > "$w/neg/a.o"
printf '// BEGIN GLOBAL FUNCTION DECL: only_a\n// BEGIN GLOBAL FUNCTION DEF: shared_sym\n' > "$w/neg/b.o"
ar rc "$w/neg/liba.a" "$w/neg/a.o" && ar rc "$w/neg/libb.a" "$w/neg/b.o"
got=$(overlaps "$w/neg" "liba.a" liba.a libb.a)
if test "$got" = "liba.a libb.a shared_sym"; then
  echo "PASS: device-archives: the check finds a symbol two archives define (and not a declaration)"
else
  echo "FAIL: device-archives: the check's negative case gave '$got', not 'liba.a libb.a shared_sym'"
fi

stage14=$(dirname "$STAGE")/gcc-14/stage
for st in "$STAGE" "$stage14"; do
  test -f "$st/lib/nvptx-none/libgomp.a" || continue
  flavour=12
  test "$st" = "$stage14" && flavour=14
  for ml in default mgomp; do
    d=$st/lib/nvptx-none
    test $ml = default || d=$d/$ml
    # The C library under every name the nvptx driver links it by: -lc,
    # -lm, and -lg (with -g, before -lc).  One missing here is found in
    # Debian's accel directory instead: unpatched newlib.
    for a in libc.a libg.a libm.a; do
      if ! test -f "$d/$a"; then
	echo "FAIL: device-archives: GCC $flavour $ml: no $a in the stage: the driver would link Debian's"
      elif test $a = libg.a && ! cmp -s "$d/libg.a" "$d/libc.a"; then
	echo "FAIL: device-archives: GCC $flavour $ml: libg.a is not this stage's libc.a"
      else
	echo "PASS: device-archives: GCC $flavour $ml: the stage has its own $a"
      fi
    done
    bad=$(overlaps "$d" "libgomp.a libgfortran.a" libgomp.a libgfortran.a libc.a libm.a)
    if test -z "$bad"; then
      echo "PASS: device-archives: GCC $flavour $ml: libgomp.a and libgfortran.a share no definition with each other, libc.a or libm.a"
    else
      echo "$bad" | while read -r a b s; do
	echo "FAIL: device-archives: GCC $flavour $ml: $s is defined in $a and in $b"
      done
    fi
  done
done
