#!/bin/sh
# Check for the Debian packages the build needs; install the missing ones
# when running as root, otherwise say exactly what to install.
# Usage: ensure-deps.sh [--check-only]
PKGS="gcc-12 g++ gcc-12-source newlib-source gcc-12-offload-nvptx nvptx-tools
 dejagnu autoconf automake make patch xz-utils flex bison
 libgmp-dev libmpfr-dev libmpc-dev zlib1g-dev texinfo"

missing=
for p in $PKGS; do
  st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
  case "$st" in
    *"ok installed") ;;
    *) missing="$missing $p" ;;
  esac
done
test -z "$missing" && exit 0

if test "$1" != --check-only && test "$(id -u)" = 0 && command -v apt-get >/dev/null; then
  echo "[deps] installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } \
    > /tmp/libgomp-hs-apt.log 2>&1 \
    || { tail -20 /tmp/libgomp-hs-apt.log >&2; echo "[deps] apt-get failed" >&2; exit 1; }
  exit 0
fi
echo "error: missing Debian packages:$missing" >&2
echo "  install them with: sudo apt-get install$missing" >&2
exit 1
