#!/bin/sh
# Unpack Debian's GCC 12 source tarball into DEST and apply the project's
# patches/gcc-*.patch (the compiler), patches/libgomp-*.patch and
# patches/libgfortran-*.patch in order.
set -e
top_srcdir=$1
dest=$2
tarball=${GCC_TARBALL:-/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz}
debian_patches=${DEBIAN_GCC_PATCHDIR:-/usr/src/gcc-12/debian/patches}
DEBIAN_GCC_PATCHES="gcc-gfdl-build"
if test -f "$dest/.unpacked"; then exit 0; fi
test -r "$tarball" || { echo "unpack-gcc: $tarball not found (install gcc-12-source)" >&2; exit 1; }
rm -rf "$dest" "$dest.tmp"
mkdir -p "$dest.tmp"
echo "[unpack] gcc-12 source -> $dest (about 1 min)"
tar -C "$dest.tmp" -xJf "$tarball" --strip-components=1
# Debian's own patch that lets the DFSG tarball (no GFDL texinfo) build.
for p in $DEBIAN_GCC_PATCHES; do
  echo "[patch] debian/patches/$p.diff"
  patch -s -p2 -d "$dest.tmp" < "$debian_patches/$p.diff"
done
for p in "$top_srcdir"/patches/gcc-*.patch "$top_srcdir"/patches/libgomp-*.patch \
	 "$top_srcdir"/patches/libgfortran-*.patch; do
  test -f "$p" || continue
  echo "[patch] $(basename "$p")"
  patch -s -p1 -d "$dest.tmp" < "$p"
done
touch "$dest.tmp/.unpacked"
mv "$dest.tmp" "$dest"
