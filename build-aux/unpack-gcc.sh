#!/bin/sh
# Unpack Debian's GCC source tarball (GCC_TARBALL: GCC 12 unless given)
# into DEST and apply the project's gcc-*.patch (the compiler),
# libgomp-*.patch and libgfortran-*.patch from the version's patch set
# (GOMP_HS_PATCHES: patches/ for GCC 12, patches/14/ for GCC 14), in order.
set -e
top_srcdir=$1
dest=$2
tarball=${GCC_TARBALL:-/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz}
debian_patches=${DEBIAN_GCC_PATCHDIR:-/usr/src/gcc-12/debian/patches}
DEBIAN_GCC_PATCHES="gcc-gfdl-build"
patchset=${GOMP_HS_PATCHES:-$top_srcdir/patches}
name=$(basename "$tarball" | sed 's/\.tar\.xz$//')
if test -f "$dest/.unpacked"; then exit 0; fi
test -r "$tarball" || { echo "unpack-gcc: $tarball not found (install gcc-12-source; GCC 14: build-aux/fetch-trixie-sources.sh)" >&2; exit 1; }
rm -rf "$dest" "$dest.tmp"
mkdir -p "$dest.tmp"
echo "[unpack] $name -> $dest (about 1 min)"
tar -C "$dest.tmp" -xJf "$tarball" --strip-components=1
# Debian's own patch that lets the DFSG tarball (no GFDL texinfo) build.
for p in $DEBIAN_GCC_PATCHES; do
  echo "[patch] debian/patches/$p.diff"
  patch -s -p2 -d "$dest.tmp" < "$debian_patches/$p.diff"
done
for p in "$patchset"/gcc-*.patch "$patchset"/libgomp-*.patch \
	 "$patchset"/libgfortran-*.patch; do
  test -f "$p" || continue
  echo "[patch] $(basename "$p")"
  patch -s -p1 -d "$dest.tmp" < "$p"
done
touch "$dest.tmp/.unpacked"
mv "$dest.tmp" "$dest"
