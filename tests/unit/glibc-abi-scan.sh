#!/bin/sh
# Unit test: a systematic scan of what glibc's headers make offloaded code
# reference.  Target-region code is preprocessed with the host's headers,
# so any symbol those headers substitute for a standard function (the
# __isoc99_ scanf family, the _FILE_OFFSET_BITS=64 names, the
# _FORTIFY_SOURCE __*_chk checkers) or reference from a macro must be
# defined by the device libraries whenever the function it stands for is.
#
# For each header set and macro configuration below, the preprocessed
# output is scanned for
#   NAME (...) __asm__ ("" "TARGET")   NAME is redirected to TARGET
#   __builtin___NAME_chk               the checker __NAME_chk
# and the rule checked is: if the device libraries define NAME (the
# function is available on the device), they define TARGET too.  One
# PASS/FAIL line per symbol.
# Environment: STAGE (install tree), HOST_CC, WORK.
cc=${HOST_CC:-gcc-12}
devlib=$STAGE/lib/nvptx-none
work=${WORK:-.}
headers="stdio.h errno.h stdlib.h string.h unistd.h fcntl.h sys/stat.h ctype.h"

# Symbols the device libraries define, for each multilib (default:
# OpenACC; mgomp: OpenMP).
defs=$work/device-defs
for ml in default mgomp; do
  d=$devlib
  test $ml = default || d=$devlib/$ml
  cat "$d/libgomp.a" "$d/libc.a" "$d/libm.a" \
    | tr -d '\000' | grep -a -o '^// BEGIN GLOBAL \(FUNCTION\|VAR\) DEF: [A-Za-z0-9_]*' \
    | sed 's/.*: //' | sort -u > "$defs.$ml"
done

src=$work/glibc-abi-scan.c
for h in $headers; do echo "#include <$h>"; done > "$src"
pairs=$work/glibc-abi-pairs.txt
: > "$pairs"
for cfg in "" "-D_GNU_SOURCE" "-D_FILE_OFFSET_BITS=64" \
	   "-O2 -D_FORTIFY_SOURCE=2" "-O2 -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE" \
	   "-O2 -D_FORTIFY_SOURCE=2 -D_FILE_OFFSET_BITS=64 -D_GNU_SOURCE"; do
  # shellcheck disable=SC2086
  "$cc" -E -P $cfg "$src" | tr '\n' ' ' | tr ';' '\n' | awk '
    {
      line = $0
      while (match (line, /[A-Za-z_][A-Za-z0-9_]* \([^()]*(\([^()]*\)[^()]*)*\) *__asm__ \("" "[A-Za-z0-9_]+"\)/)) {
	decl = substr (line, RSTART, RLENGTH)
	line = substr (line, RSTART + RLENGTH)
	name = decl; sub (/ .*/, "", name)
	target = decl; sub (/.*"" "/, "", target); sub (/"\)$/, "", target)
	# __NAME_alias is NAME itself; __NAME_chk_warn stands for NAME.
	if (name ~ /^__.*_alias$/) continue
	if (name ~ /^__.*_chk_warn$/) { sub (/^__/, "", name); sub (/_chk_warn$/, "", name) }
	print name, target
      }
      line = $0
      while (match (line, /__builtin___[a-z0-9_]+_chk/)) {
	b = substr (line, RSTART + 12, RLENGTH - 12)
	line = substr (line, RSTART + RLENGTH)
	base = b; sub (/^_*/, "", base); sub (/_chk$/, "", base)
	print base, "__" base "_chk"
      }
      # Checkers called directly from fortify inline functions.
      line = $0
      while (match (line, /__[a-z0-9_]+_chk[ (]/)) {
	c = substr (line, RSTART, RLENGTH - 1)
	line = substr (line, RSTART + RLENGTH)
	if (c ~ /^__builtin_/) continue
	base = c; sub (/^__/, "", base); sub (/_chk$/, "", base)
	print base, c
      }
    }' >> "$pairs"
done
# References made by macros rather than declarations ("-": always needed).
cat >> "$pairs" <<'PAIRS'
- stdin
- stdout
- stderr
- __errno_location
- __assert_fail
- __ctype_get_mb_cur_max
- __ctype_b_loc
- __ctype_tolower_loc
- __ctype_toupper_loc
PAIRS

sort -u "$pairs" | while read -r name target; do
  for ml in default mgomp; do
    if test "$name" != - && ! grep -qx "$name" "$defs.$ml"; then
      continue	# Not available on the device at all: nothing to redirect.
    fi
    if grep -qx "$target" "$defs.$ml"; then
      echo "PASS: glibc-abi-scan ($ml) ${name#-} -> $target"
    else
      echo "FAIL: glibc-abi-scan ($ml) ${name#-} -> $target: $target is not defined on the device"
    fi
  done
done
