#!/bin/sh
# build-aux/ar-drop-member.sh, which takes newlib's vprintf and lock stubs
# out of the device libc.a: it must find the member under newlib 3.3's
# (lib_a-) and 4.x's (libc_a-) names, leave look-alikes alone, and fail
# when a member is missing or ambiguous (plain "ar d" succeeds silently).
# Uses the host's ar on empty objects.  Environment: TOP, WORK.
d=$WORK/ar-drop
rm -rf "$d"; mkdir -p "$d"; cd "$d" || exit 1
drop=$TOP/build-aux/ar-drop-member.sh
mk ()  # ARCHIVE MEMBER...
{
  a=$1; shift
  for m in "$@"; do : > "$m"; done
  ar qc "$a" "$@" && rm -f "$@"
}
check ()  # DESCRIPTION EXPECTED-STATUS COMMAND...
{
  what=$1 want=$2; shift 2
  "$@" > out.log 2>&1; st=$?
  if { test "$want" = 0 && test $st = 0; } || { test "$want" != 0 && test $st != 0; }; then
    echo "PASS: ar-drop-member: $what"
  else
    echo "FAIL: ar-drop-member: $what (status $st)"; cat out.log
  fi
}
mk new.a libc_a-vprintf.o libc_a-lock.o libc_a-flock.o libc_a-vfprintf.o
check "newlib 4.x names dropped" 0 "$drop" ar new.a vprintf lock
if test "$(ar t new.a | tr '\n' ' ')" = "libc_a-flock.o libc_a-vfprintf.o "; then
  echo "PASS: ar-drop-member: look-alikes (flock, vfprintf) kept"
else
  echo "FAIL: ar-drop-member: archive now holds: $(ar t new.a | tr '\n' ' ')"
fi
check "a second drop fails (member missing)" 1 "$drop" ar new.a vprintf
mk old.a lib_a-vprintf.o lib_a-lock.o lib_a-printf.o
check "newlib 3.3 names dropped" 0 "$drop" ar old.a vprintf lock
test "$(ar t old.a)" = lib_a-printf.o \
  && echo "PASS: ar-drop-member: 3.3 archive keeps printf" \
  || echo "FAIL: ar-drop-member: 3.3 archive holds $(ar t old.a | tr '\n' ' ')"
mk both.a lib_a-lock.o libc_a-lock.o
check "two candidates refused" 1 "$drop" ar both.a lock
test "$(ar t both.a | wc -l)" -eq 2 \
  && echo "PASS: ar-drop-member: nothing dropped when ambiguous" \
  || echo "FAIL: ar-drop-member: an ambiguous drop changed the archive"
mk none.a libc_a-printf.o
check "missing member refused" 1 "$drop" ar none.a lock
