#!/bin/sh
# Check for the Debian packages the build needs; install the missing ones
# when running as root, otherwise say exactly what to install.
# OPTIONAL_PKGS are installed along (as root) but not required: clang-14
# with libclang-rt-14-dev (libFuzzer and the sanitizers' runtimes, only
# recommended by clang-14) and llvm-14 (llvm-cov) for the fuzzer
# (tests/unit/fuzz.sh says UNSUPPORTED without them; make fuzz).
# Usage: ensure-deps.sh [--check-only] [PACKAGE...]
# With PACKAGEs, those instead (none optional): make llvm-peer's own.
# Debian 13 (trixie) and later, and Ubuntu 24.04 and later, have no
# gcc-12-offload-nvptx: there the build is for the GCC 14 flavour alone
# (configure's GCC_FLAVOUR), whose sources are fetched from Debian 13's
# archive (build-aux/fetch-trixie-sources.sh), not installed.
PKGS="gcc-12 g++ gcc-12-source newlib-source gcc-12-offload-nvptx nvptx-tools
 gfortran-12 dejagnu autoconf automake make patch xz-utils flex bison
 libgmp-dev libmpfr-dev libmpc-dev libisl-dev zlib1g-dev libzstd-dev texinfo spin ccache
 debootstrap"
# debian-archive-keyring: Debian's archive keys, which the fetch of trixie's
# sources names (Ubuntu's apt does not trust them otherwise).
PKGS14="gcc-14 g++-14 gcc-14-offload-nvptx nvptx-tools gfortran-14 dejagnu
 autoconf automake make patch xz-utils flex bison libgmp-dev libmpfr-dev
 libmpc-dev libisl-dev zlib1g-dev libzstd-dev texinfo debootstrap ccache
 debian-archive-keyring"
os_id= os_ver=
if test -r /etc/os-release; then
  os_id=$(. /etc/os-release && echo "$ID")
  os_ver=$(. /etc/os-release && echo "${VERSION_ID%%.*}")
fi
case $os_id:$os_ver in
  debian:1[3-9]|debian:[2-9][0-9]|ubuntu:2[4-9]|ubuntu:[3-9][0-9]) PKGS=$PKGS14 ;;
  debian:) # testing or unstable: no VERSION_ID
    grep -q '^13\|trixie\|forky\|sid' /etc/debian_version 2>/dev/null && PKGS=$PKGS14 ;;
esac
OPTIONAL_PKGS="clang-14 libclang-rt-14-dev llvm-14"
# (clang-14 is Debian 12's; the fuzzer is tested there.)
test "$PKGS" = "$PKGS14" && OPTIONAL_PKGS=

not_installed ()
{
  for p in "$@"; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
    case "$st" in
      *"ok installed") ;;
      *) printf ' %s' "$p" ;;
    esac
  done
}
check_only=
test "$1" = --check-only && { check_only=1; shift; }
if test $# -gt 0; then
  PKGS="$*" OPTIONAL_PKGS=
fi
missing=$(not_installed $PKGS)
optional=$(not_installed $OPTIONAL_PKGS)
can_install=
test -z "$check_only" && test "$(id -u)" = 0 && command -v apt-get >/dev/null \
  && can_install=1

apt_install ()
{
  echo "[deps] installing:$*"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -q && apt-get install -y -q --no-install-recommends "$@"; } \
    > /tmp/libgomp-hs-apt.log 2>&1 \
    || { tail -20 /tmp/libgomp-hs-apt.log >&2; echo "[deps] apt-get failed" >&2; return 1; }
}

if test -z "$missing"; then
  if test -n "$optional"; then
    # shellcheck disable=SC2086
    test -n "$can_install" && apt_install $optional && exit 0
    echo "[deps] note: the fuzzer (tests/fuzz) needs:$optional" >&2
  fi
  exit 0
fi

if test -n "$can_install"; then
  # shellcheck disable=SC2086
  apt_install $missing $optional || exit 1
  exit 0
fi
echo "error: missing Debian packages:$missing" >&2
echo "  install them with: sudo apt-get install$missing$optional" >&2
exit 1
