#!/bin/sh
# Fetch Debian 13 (trixie)'s gcc-14-source and newlib-source packages, and
# the nvptx libgcc.a and crt0.o of its gcc-14-offload-nvptx (what the
# device libraries' configure links against), with an apt configuration of
# our own (the system's sources are never touched) and unpack them into
# the cache.  The packages are only unpacked, not installed, so this works
# on Debian 12 as on Debian 13.
#
# Usage: fetch-trixie-sources.sh WORKDIR
# Prints, on the last line, a directory D with D/gcc-14/gcc-14*.tar.xz,
# D/gcc-14/debian/patches, D/newlib/newlib-*.tar.xz and D/accel (Debian's
# lib/gcc/x86_64-linux-gnu/14/accel/nvptx-none).
set -e
work=$1
cache=${GOMP_HS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libgomp-host-services}
suite=${GOMP_HS_TRIXIE_SUITE:-trixie}
mirror=${GOMP_HS_DEBIAN_MIRROR:-http://deb.debian.org/debian}

apt=$work/trixie-apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
# Debian's archive keys, named outright: Debian's apt trusts them anyway,
# Ubuntu's only this way (its package debian-archive-keyring).
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
signed=
test -f "$keyring" && signed="[signed-by=$keyring] "
echo "deb $signed$mirror $suite main" > "$apt/sources.list"
opts="-o Dir::Etc::SourceList=$apt/sources.list -o Dir::Etc::SourceParts=/nonexistent
 -o Dir::State::Lists=$apt/lists -o Dir::Cache=$apt/cache
 -o APT::Sandbox::User=root"
log=$work/trixie-src-fetch.log
# Bump RECIPE when what is kept from the packages changes.
RECIPE=2
# Offline, or the mirror failing: the newest complete download, if any.
use_cached ()
{
  d=$(ls -td "$cache"/trixie-src-$RECIPE-*/.complete 2>/dev/null | head -n 1)
  test -n "$d" || { tail -20 "$log" >&2; echo "[trixie-src] $1 (see $log)" >&2; exit 1; }
  echo "[trixie-src] $1 (see $log); using the cached $(dirname "$d")" >&2
  dirname "$d"
  exit 0
}
# shellcheck disable=SC2086
apt-get -q $opts update > "$log" 2>&1 || use_cached "apt-get update failed"
# The versions key the cache: a new upload of either is a new directory.
# shellcheck disable=SC2086
vers=$(apt-cache $opts show --no-all-versions gcc-14-source newlib-source gcc-14-offload-nvptx 2>>"$log" \
       | sed -n 's/^Version: //p' | tr '\n' ' ')
set -- $vers
test $# -eq 3 || use_cached "gcc-14-source, newlib-source or gcc-14-offload-nvptx not in $suite"
# (A binary-only upload of the offload package adds +bN.)
test "$1" = "${3%+b*}" || { echo "[trixie-src] gcc-14-source $1 and gcc-14-offload-nvptx $3 differ" >&2; exit 1; }
dest=$cache/trixie-src-$RECIPE-gcc-$1-newlib-$2
if test -f "$dest/.complete"; then
  echo "[trixie-src] cached: $dest" >&2
  echo "$dest"
  exit 0
fi
echo "[trixie-src] fetching gcc-14-source $1, newlib-source $2 and gcc-14-offload-nvptx from $suite (110 MB)" >&2
# shellcheck disable=SC2086
( cd "$apt/debs" && rm -f ./*.deb && apt-get -q $opts download gcc-14-source newlib-source \
      gcc-14-offload-nvptx ) \
  >> "$log" 2>&1 \
  || { tail -20 "$log" >&2; echo "[trixie-src] download failed (see $log)" >&2; exit 1; }
rm -rf "$dest.tmp"; mkdir -p "$dest.tmp/x"
for d in "$apt"/debs/*.deb; do
  dpkg-deb -x "$d" "$dest.tmp/x"
done
mv "$dest.tmp/x/usr/src/gcc-14" "$dest.tmp/x/usr/src/newlib" "$dest.tmp/"
mv "$dest.tmp/x/usr/lib/gcc/x86_64-linux-gnu/14/accel/nvptx-none" "$dest.tmp/accel"
rm -rf "$dest.tmp/x" "$apt/debs"
ls "$dest.tmp"/gcc-14/gcc-14*.tar.xz "$dest.tmp"/newlib/newlib-4*.tar.xz \
   "$dest.tmp"/accel/libgcc.a "$dest.tmp"/accel/mgomp/libgcc.a >/dev/null
touch "$dest.tmp/.complete"
rm -rf "$dest"; mv "$dest.tmp" "$dest"
echo "[trixie-src] done: $dest" >&2
echo "$dest"
