#!/bin/sh
# An Ubuntu 24.04 (noble) root with Ubuntu's own GCC 14 offloading
# compilers (gcc-14, g++-14, gfortran-14, gcc-14-offload-nvptx,
# nvptx-tools) and DejaGnu, for testing the GCC 14 flavour where Ubuntu's
# users build it (build-aux/trixie-root.sh with GOMP_HS_GCC14_ROOT=noble,
# tests/ubuntu2404.sh).
# Made with debootstrap (minbase, main and universe, noble-updates and
# noble-security added) and cached, keyed by the versions of those
# packages in noble's index, read with an apt configuration of our own
# (the system's sources are never changed).
#
# Debian 12 has no package of Ubuntu's archive keys: they are taken from
# Ubuntu's ubuntu-keyring package, whose SHA-256 is fixed below (checked
# by apt-helper on download; its archive key signs noble's Release, the
# Ubuntu Archive Automatic Signing Key (2018), F6ECB376 2474EDA9 D21B7022
# 871920D1 991BC93C).  Every index and package is then checked by apt and
# debootstrap against those keys.
#
# GOMP_HS_UBUNTU_EXTRA: more packages for the root (a root of its own,
# keyed by their names too).  GOMP_HS_UBUNTU_MIRROR: the archive (default
# http://archive.ubuntu.com/ubuntu).
#
# Usage: ubuntu-root.sh WORKDIR
# Prints the root's path on the last line.  Needs root (chroot).
set -e
work=$1
cache=${GOMP_HS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libgomp-host-services}
suite=noble
mirror=${GOMP_HS_UBUNTU_MIRROR:-http://archive.ubuntu.com/ubuntu}
pkgs="gcc-14 g++-14 gfortran-14 gcc-14-offload-nvptx nvptx-tools dejagnu"
extra=${GOMP_HS_UBUNTU_EXTRA:-}
keyring_deb=pool/main/u/ubuntu-keyring/ubuntu-keyring_2023.11.28.1_all.deb
keyring_sha256=36de43b15853ccae0028e9a767613770c704833f82586f28eb262f0311adb8a8
RECIPE=1

say () { echo "[ubuntu-root] $*" >&2; }
test "$(id -u)" = 0 || { say "needs root (debootstrap, chroot)"; exit 1; }
command -v debootstrap > /dev/null 2>&1 \
  || { say "debootstrap not found (install debootstrap)"; exit 1; }
test -f /usr/share/debootstrap/scripts/gutsy \
  || { say "this debootstrap has no script for Ubuntu (gutsy)"; exit 1; }
mkdir -p "$work" "$cache"
log=$work/ubuntu-root.log
: > "$log"

# Ubuntu's archive keys.
keys=$cache/ubuntu-keyring-$(echo "$keyring_sha256" | cut -c1-16)
keyring=$keys/ubuntu-archive-keyring.gpg
if ! test -f "$keyring"; then
  rm -rf "$keys.tmp"; mkdir -p "$keys.tmp"
  /usr/lib/apt/apt-helper download-file "$mirror/$keyring_deb" "$keys.tmp/k.deb" \
      "SHA256:$keyring_sha256" >> "$log" 2>&1 \
    || { tail -5 "$log" >&2; say "cannot fetch Ubuntu's archive keys ($mirror/$keyring_deb)"; exit 1; }
  dpkg-deb -x "$keys.tmp/k.deb" "$keys.tmp/x"
  cp "$keys.tmp/x/usr/share/keyrings/ubuntu-archive-keyring.gpg" "$keys.tmp/"
  rm -rf "$keys.tmp/x" "$keys.tmp/k.deb" "$keys"
  mv "$keys.tmp" "$keys"
fi

# The package index, through an apt configuration of our own.
apt=$work/ubuntu-apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
sources ()  # KEYRING
{
  for s in $suite $suite-updates $suite-security; do
    echo "deb [signed-by=$1] $mirror $s main universe"
  done
}
sources "$keyring" > "$apt/sources.list"
opts="-o Dir::Etc::SourceList=$apt/sources.list -o Dir::Etc::SourceParts=/nonexistent
 -o Dir::State::Lists=$apt/lists -o Dir::Cache=$apt/cache -o APT::Architecture=amd64
 -o APT::Sandbox::User=root"
# shellcheck disable=SC2086
apt-get -q $opts update >> "$log" 2>&1 \
  || { tail -5 "$log" >&2; say "apt-get update for $suite failed ($log)"; exit 1; }
# shellcheck disable=SC2086
vers=$(apt-cache $opts show --no-all-versions $pkgs | sed -n 's/^Version: //p' | tr '\n' ' ')
test "$(echo $vers | wc -w)" = "$(echo $pkgs | wc -w)" \
  || { say "not all of $pkgs are in $suite's index"; exit 1; }
key=$(echo "$RECIPE $suite $pkgs $vers${extra:+ extra $extra}" | sha256sum | cut -c1-16)
root=$cache/ubuntu-root-$key
exec 9> "$cache/ubuntu-root-$key.lock"
flock 9
if test -f "$root/.complete"; then
  say "cached: $root"
  echo "$root"
  exit 0
fi
rm -rf "$root.tmp"
say "debootstrap $suite (about 2 min; log: $log)"
debootstrap --variant=minbase --components=main,universe --keyring="$keyring" \
    "$suite" "$root.tmp" "$mirror" /usr/share/debootstrap/scripts/gutsy >> "$log" 2>&1 \
  || { tail -20 "$log" >&2; say "debootstrap failed"; exit 1; }
mkdir -p "$root.tmp/etc/apt/keyrings"
cp "$keyring" "$root.tmp/etc/apt/keyrings/ubuntu-archive-keyring.gpg"
sources /etc/apt/keyrings/ubuntu-archive-keyring.gpg > "$root.tmp/etc/apt/sources.list"
cp /etc/resolv.conf "$root.tmp/etc/resolv.conf" 2> /dev/null || true
say "installing $pkgs${extra:+ $extra} (about 1 min)"
chroot "$root.tmp" sh -c "apt-get -q update && DEBIAN_FRONTEND=noninteractive \
  apt-get -q -y --no-install-recommends install $pkgs make $extra && apt-get clean" >> "$log" 2>&1 \
  || { tail -20 "$log" >&2; say "package installation failed"; exit 1; }
chroot "$root.tmp" dpkg-query -W $pkgs >&2
touch "$root.tmp/.complete"
rm -rf "$root"; mv "$root.tmp" "$root"
say "done: $root"
echo "$root"
