#!/bin/sh
# The GCC 14 (Debian 13) flavour's libraries, built on Debian 12 or 13 from
# trixie's gcc-14-source and newlib-source (build-aux/fetch-trixie-sources.sh)
# with the same scripts as the GCC 12 flavour, pointed at GCC 14's sources
# and at the patch set patches/14/:
#   1. the nvptx cc1 and f951 from GCC 14 (cached, keyed like GCC 12's);
#   2. newlib 4.5 for nvptx (cached);
#   3. GCC 14's tree, patched, with the project's files laid over it;
#   4. the host libgomp.so.1 and nvptx plugin;
#   5. the device libgomp.a and libgfortran.a (both multilibs);
#   6. the server library, the server process (libexec/gomp-hs/gomp-hs-serve)
#      and the standalone launcher gomp-nvptx-run;
#   7. a stage tree with those, newlib's libc.a and libm.a, the gomp-gcc,
#      gomp-g++, gomp-gfortran and gomp-nvptx-gcc drivers (libexec/gomp-hs/
#      gcc-version says 14) and the manual.
# tests/unit/gcc14-flavour.sh tests it against Debian 13's compilers;
# make GCC=14 install copies the stage tree (on Debian 13, plain make and
# make install: tests/native-gcc14.sh).  Not there yet: the rest of the
# suite on this flavour.
#
# Usage: build-gcc14.sh TOP_SRCDIR WORKDIR
# The stage tree is WORKDIR/stage.
set -e
top=$1
work=$2
mkdir -p "$work"
say () { echo "[gcc14] $*"; }

# The last line a step prints; the script stops when the step fails.
last_line () { out=$("$@") || exit 1; printf '%s\n' "$out" | tail -n 1; }

src=$(last_line "$top"/build-aux/fetch-trixie-sources.sh "$work") || exit 1
GCC_TARBALL=$(ls "$src"/gcc-14/gcc-14*-dfsg.tar.xz | head -n 1)
NEWLIB_TARBALL=$(ls "$src"/newlib/newlib-4*.tar.xz | head -n 1)
test -r "$GCC_TARBALL" && test -r "$NEWLIB_TARBALL" \
  || { say "no GCC 14 or newlib 4 tarball in $src"; exit 1; }
DEBIAN_GCC_PATCHDIR=$src/gcc-14/debian/patches
# Debian's two newlib 3.3 patches are in newlib 4.5 already.
DEBIAN_NEWLIB_PATCHES=
DEBIAN_ACCEL_DIR=$src/accel
GOMP_HS_PATCHES=$top/patches/14
export GCC_TARBALL NEWLIB_TARBALL DEBIAN_GCC_PATCHDIR DEBIAN_NEWLIB_PATCHES \
  DEBIAN_ACCEL_DIR GOMP_HS_PATCHES

say "nvptx cc1 and f951 from $(basename "$GCC_TARBALL")"
cc1=$(last_line "$top"/build-aux/build-nvptx-cc1.sh "$top" "$work") || exit 1
say "newlib for nvptx from $(basename "$NEWLIB_TARBALL")"
newlib=$(last_line "$top"/build-aux/build-newlib.sh "$top" "$work" "$cc1") || exit 1
echo "$newlib" > "$work/newlib-prefix"

# The patched tree, unpacked again whenever the source, Debian's patch or
# the patch set changes, and the libraries built from it anew.
sum=$( { sha256sum "$GCC_TARBALL" "$DEBIAN_GCC_PATCHDIR/gcc-gfdl-build.diff" \
	   "$top/build-aux/unpack-gcc.sh"; cat "$GOMP_HS_PATCHES"/*.patch; } \
       | sha256sum | cut -c1-16)
if test "$(cat "$work/gcc-src/.patchset" 2>/dev/null)" != "$sum"; then
  rm -rf "$work/gcc-src" "$work"/libgomp-nvptx-* "$work/libgomp-host" \
    "$work"/libgfortran-nvptx-*
  "$top"/build-aux/unpack-gcc.sh "$top" "$work/gcc-src"
  echo "$sum" > "$work/gcc-src/.patchset"
fi
"$top"/build-aux/overlay-tree.sh "$top" "$work/gcc-src"

stage=$work/stage
"$top"/build-aux/build-libgomp-host.sh "$work/gcc-src" "$work" "$stage"
"$top"/build-aux/build-libgomp-nvptx.sh "$work/gcc-src" "$work" "$cc1" "$newlib" \
  "$stage/lib/nvptx-none"
"$top"/build-aux/build-libgfortran-nvptx.sh "$work/gcc-src" "$work" "$cc1" "$newlib" \
  "$stage/lib/nvptx-none"
"$top"/build-aux/build-hs-server.sh "$top" "$work/gcc-src" "$work" "$stage"
"$top"/build-aux/build-launcher.sh "$top" "$work/gcc-src" "$stage" "$work/gomp-nvptx-run"
"$top"/build-aux/stage-tree.sh "$top" "$work" "$stage" 14 "$cc1" "$newlib" \
  "$work/gomp-nvptx-run"
say "done: $stage"
