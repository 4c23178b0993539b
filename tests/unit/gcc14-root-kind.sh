#!/bin/sh
# Which root build-aux/trixie-root.sh makes for the GCC 14 flavour's tests:
# GOMP_HS_GCC14_ROOT when set; otherwise Ubuntu's noble on an Ubuntu 24.04
# host (whose make check then tests against Ubuntu's own compilers) and
# Debian's trixie anywhere else.  Fake os-release files; nothing is built.
# Environment: TOP, WORK.
d=$WORK/gcc14-root-kind
rm -rf "$d"; mkdir -p "$d"
root=$TOP/build-aux/trixie-root.sh
osr ()  # NAME ID CODENAME
{
  printf 'PRETTY_NAME="%s"\nID=%s\nVERSION_CODENAME=%s\n' "$1" "$2" "$3" > "$d/$1"
}
osr noble ubuntu noble
osr jammy ubuntu jammy
osr bookworm debian bookworm
osr trixie debian trixie
check ()  # WANT ENV-ASSIGNMENT... (then trixie-root.sh --kind)
{
  want=$1; shift
  got=$(env "$@" sh "$root" --kind 2>&1)
  if test "$got" = "$want"; then
    echo "PASS: gcc14-root-kind: $* -> $want"
  else
    echo "FAIL: gcc14-root-kind: $*: '$got', not $want"
  fi
}
check noble GOMP_HS_GCC14_ROOT= GOMP_HS_OS_RELEASE="$d/noble"
check trixie GOMP_HS_GCC14_ROOT= GOMP_HS_OS_RELEASE="$d/jammy"
check trixie GOMP_HS_GCC14_ROOT= GOMP_HS_OS_RELEASE="$d/bookworm"
check trixie GOMP_HS_GCC14_ROOT= GOMP_HS_OS_RELEASE="$d/trixie"
check trixie GOMP_HS_GCC14_ROOT= GOMP_HS_OS_RELEASE="$d/none"
check trixie GOMP_HS_GCC14_ROOT=trixie GOMP_HS_OS_RELEASE="$d/noble"
check noble GOMP_HS_GCC14_ROOT=noble GOMP_HS_OS_RELEASE="$d/bookworm"
got=$(env GOMP_HS_GCC14_ROOT=jammy sh "$root" --kind 2>&1); st=$?
if test $st != 0 && echo "$got" | grep -q 'trixie or noble'; then
  echo "PASS: gcc14-root-kind: another GOMP_HS_GCC14_ROOT is refused, naming the two"
else
  echo "FAIL: gcc14-root-kind: GOMP_HS_GCC14_ROOT=jammy: status $st, '$got'"
fi
