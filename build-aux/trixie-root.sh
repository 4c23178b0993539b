#!/bin/sh
# A Debian 13 (trixie) root with Debian's own GCC 14 offloading compilers
# (gcc-14, g++-14, gfortran-14, gcc-14-offload-nvptx, nvptx-tools) and
# DejaGnu (dejagnu: tests/gcc14-suites.sh runs GCC 14's libgomp testsuite
# and ours there), for testing the GCC 14 flavour against the compilers its
# users have.  Made with debootstrap (minbase) and cached, keyed by the
# versions of those packages in trixie's index (build-aux/
# fetch-trixie-sources.sh's apt configuration), so a new upload makes a
# new root.  Needs root (chroot).
#
# GOMP_HS_TRIXIE_EXTRA: more packages for the root (a root of its own,
# keyed by their names too): tests/native-gcc14.sh's build tools.
#
# GOMP_HS_GCC14_ROOT=noble: an Ubuntu 24.04 root instead, with Ubuntu's own
# compilers (build-aux/ubuntu-root.sh, which takes GOMP_HS_TRIXIE_EXTRA's
# packages too), so that every test run in this root runs against the
# compilers Ubuntu's users have (make check-ubuntu2404).  Unset, it is
# noble on an Ubuntu 24.04 host (its make check tests against its own
# system's compilers) and trixie elsewhere (GOMP_HS_OS_RELEASE: another
# file than /etc/os-release to tell).
#
# Usage: trixie-root.sh WORKDIR
# Prints the root's path on the last line.
# Usage: trixie-root.sh --kind
# Prints trixie or noble: the root it would make.
set -e
kind=${GOMP_HS_GCC14_ROOT:-}
osr=${GOMP_HS_OS_RELEASE:-/etc/os-release}
if test -z "$kind"; then
  kind=trixie
  test -r "$osr" && test "$(. "$osr" && echo "$ID $VERSION_CODENAME")" = "ubuntu noble" \
    && kind=noble
fi
case $kind in
  trixie|noble) ;;
  *) echo "[trixie-root] GOMP_HS_GCC14_ROOT=$kind: trixie or noble" >&2; exit 1 ;;
esac
# trixie-root.sh --kind: which root it makes here (tests/unit/gcc14-root-kind.sh).
test "$1" = --kind && { echo "$kind"; exit 0; }
test $kind = noble && GOMP_HS_UBUNTU_EXTRA=${GOMP_HS_UBUNTU_EXTRA-$GOMP_HS_TRIXIE_EXTRA} \
  exec "$(dirname "$0")/ubuntu-root.sh" "$@"
work=$1
cache=${GOMP_HS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libgomp-host-services}
suite=${GOMP_HS_TRIXIE_SUITE:-trixie}
mirror=${GOMP_HS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
pkgs="gcc-14 g++-14 gfortran-14 gcc-14-offload-nvptx nvptx-tools dejagnu"
extra=${GOMP_HS_TRIXIE_EXTRA:-}
RECIPE=1

test "$(id -u)" = 0 || { echo "[trixie-root] needs root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null 2>&1 \
  || { echo "[trixie-root] debootstrap not found (install debootstrap)" >&2; exit 1; }
mkdir -p "$work"
# The package index, through fetch-trixie-sources.sh's apt configuration.
"$(dirname "$0")"/fetch-trixie-sources.sh "$work" > /dev/null
apt=$work/trixie-apt
opts="-o Dir::Etc::SourceList=$apt/sources.list -o Dir::Etc::SourceParts=/nonexistent
 -o Dir::State::Lists=$apt/lists -o Dir::Cache=$apt/cache"
# shellcheck disable=SC2086
vers=$(apt-cache $opts show --no-all-versions $pkgs | sed -n 's/^Version: //p' | tr '\n' ' ')
if test "$(echo $vers | wc -w)" != "$(echo $pkgs | wc -w)"; then
  # No index (offline): the newest complete root, if any.
  d=$(ls -td "$cache"/trixie-root-*/.complete 2>/dev/null | head -n 1)
  test -n "$d" || { echo "[trixie-root] no package index for $suite and no cached root" >&2; exit 1; }
  echo "[trixie-root] no package index; using the cached $(dirname "$d")" >&2
  dirname "$d"
  exit 0
fi
key=$(echo "$RECIPE $suite $pkgs $vers${extra:+ extra $extra}" | sha256sum | cut -c1-16)
root=$cache/trixie-root-$key
# The jobs of tests/run-all.sh's pool may ask for the root at the same
# time: one makes it, the others wait for it (the lock is released when
# this script exits).
mkdir -p "$cache"
exec 9> "$cache/trixie-root-$key.lock"
flock 9
if test -f "$root/.complete"; then
  echo "[trixie-root] cached: $root" >&2
  echo "$root"
  exit 0
fi
log=$work/trixie-root.log
rm -rf "$root.tmp"
echo "[trixie-root] debootstrap $suite (about 1 min; log: $log)" >&2
debootstrap --variant=minbase "$suite" "$root.tmp" "$mirror" > "$log" 2>&1 \
  || { tail -20 "$log" >&2; echo "[trixie-root] debootstrap failed" >&2; exit 1; }
echo "[trixie-root] installing $pkgs (about 40 s)" >&2
cp /etc/resolv.conf "$root.tmp/etc/resolv.conf" 2>/dev/null || true
chroot "$root.tmp" sh -c "apt-get -q update && DEBIAN_FRONTEND=noninteractive \
  apt-get -q -y --no-install-recommends install $pkgs make $extra && apt-get clean" >> "$log" 2>&1 \
  || { tail -20 "$log" >&2; echo "[trixie-root] package installation failed" >&2; exit 1; }
chroot "$root.tmp" dpkg-query -W $pkgs >&2
touch "$root.tmp/.complete"
rm -rf "$root"; mv "$root.tmp" "$root"
echo "[trixie-root] done: $root" >&2
echo "$root"
