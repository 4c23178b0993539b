#!/bin/sh
# Build newlib for nvptx, for the two multilibs the offload compiler links
# against (default: OpenACC; mgomp: OpenMP), with the nvptx cc1 built by
# build-nvptx-cc1.sh.  Debian's two nvptx newlib patches (the ones its
# gcc-12 package applies; DEBIAN_NEWLIB_PATCHES) and the project's
# newlib-*.patch from the version's patch set (GOMP_HS_PATCHES: patches/
# for newlib 3.3, patches/14/ for newlib 4.5) are applied.  Cached like
# cc1, keyed by everything that goes in.
#
# Usage: build-newlib.sh TOP_SRCDIR WORKDIR CC1_PREFIX
# Prints the install prefix on the last line: PREFIX/{.,mgomp}/lib{c,m}.a
# and PREFIX/include.
set -e
# Not the calling make's command line (make install prefix=DIR).
unset MAKEFLAGS MFLAGS
top_srcdir=$1
work=$2
cc1=$3
tarball=${NEWLIB_TARBALL:-/usr/src/newlib/newlib-3.3.0.tar.xz}
debian_patches=${DEBIAN_GCC_PATCHDIR:-/usr/src/gcc-12/debian/patches}
DEBIAN_NEWLIB_PATCHES=${DEBIAN_NEWLIB_PATCHES-"newlib-5fca4e0f180 newlib-6bb96d13a2d"}
patchset=${GOMP_HS_PATCHES:-$top_srcdir/patches}
cache=${GOMP_HS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libgomp-host-services}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
RECIPE=4
# ELIX level 4: the full stdio, so that fopen, fseeko, ftello and the
# wide-oriented paths of vfprintf resolve to newlib's own code.
# Retargetable locking: the locks (and newlib's static lock objects) come
# from libgomp's config/nvptx/stdio-lock.c; see below.
confargs="--target=nvptx-none --disable-multilib --enable-newlib-io-long-long
 --enable-newlib-elix-level=4 --disable-newlib-supplied-syscalls
 --enable-newlib-retargetable-locking"

test -r "$tarball" || { echo "build-newlib: $tarball not found (install newlib-source)" >&2; exit 1; }
key=$( { sha256sum "$tarball" | cut -d' ' -f1; echo "$RECIPE $confargs $cc1";
         for p in $DEBIAN_NEWLIB_PATCHES; do cat "$debian_patches/$p.diff"; done;
         cat "$patchset"/newlib-*.patch 2>/dev/null; } \
       | sha256sum | cut -c1-16)
prefix=$cache/newlib-nvptx-$key
if test -f "$prefix/.complete"; then
  echo "[newlib] cached: $prefix" >&2
  echo "$prefix"
  exit 0
fi

src=$work/newlib-src
rm -rf "$src"; mkdir -p "$src"
echo "[unpack] newlib source -> $src" >&2
tar -C "$src" -xJf "$tarball" --strip-components=1
for p in $DEBIAN_NEWLIB_PATCHES; do
  echo "[patch] debian/patches/$p.diff" >&2
  patch -s -p1 -d "$src" < "$debian_patches/$p.diff"
done
for p in "$patchset"/newlib-*.patch; do
  test -f "$p" || continue
  echo "[patch] $(basename "$p")" >&2
  patch -s -p1 -d "$src" < "$p"
done

rm -rf "$prefix.tmp"
for ml in default mgomp; do
  case $ml in
    default) flag= ; sub= ;;
    mgomp) flag=-mgomp ; sub=/mgomp ;;
  esac
  obj=$work/newlib-$ml
  log=$work/newlib-$ml.log
  rm -rf "$obj"; mkdir -p "$obj"
  echo "[newlib] $ml: configure and build (about 3 min on 2 cores; log: $log)" >&2
  (
    cd "$obj"
    "$src"/configure --prefix="$obj/inst" $confargs \
      CC_FOR_TARGET="$cc1/bin/nvptx-none-gcc $flag -Wa,--no-verify" \
      AR_FOR_TARGET=nvptx-none-ar RANLIB_FOR_TARGET=nvptx-none-ranlib \
      AS_FOR_TARGET=nvptx-none-as LD_FOR_TARGET=nvptx-none-ld \
      CFLAGS_FOR_TARGET="-O2"
    make -j"$jobs" all-target-newlib
    make install-target-newlib
  ) > "$log" 2>&1 || { tail -30 "$log" >&2; echo "[newlib] failed, see $log" >&2; exit 1; }
  mkdir -p "$prefix.tmp$sub"
  cp "$obj"/inst/nvptx-none/lib/libc.a "$obj"/inst/nvptx-none/lib/libm.a "$prefix.tmp$sub/"
  # On nvptx, vprintf is the CUDA runtime's printf system call, which
  # libgomp's own diagnostics use; a vprintf in libc.a would shadow it.
  # (Offloaded code compiled with optimization never calls vprintf:
  # glibc's headers inline it as vfprintf (stdout, ...).)
  # newlib's default retargetable locks (misc/lock.c) do nothing; libgomp
  # defines the real ones, and nvptx-ld rescans archives, so its
  # definitions resolve libc.a's references once this member is gone.
  # newlib's rename (stdio/rename.c) calls _rename_r, which on nvptx
  # makes a link and an unlink; libgomp's posix-io.c defines rename itself
  # as one host call.  With two definitions in two archives, the one that
  # wins depends on the linker: nvptx-tools 0.20240810 (Debian 13) takes
  # libc.a's and then fails with "multiple definitions of 'rename'" when
  # posix-io.o comes in (tests/unit/device-archives.sh).
  # newlib 3.3 names the members lib_a-NAME.o, 4.x libc_a-NAME.o, and
  # "ar d" of a missing member succeeds silently: fail unless exactly one
  # member of that name was there and none is left.
  "$top_srcdir"/build-aux/ar-drop-member.sh nvptx-none-ar "$prefix.tmp$sub/libc.a" vprintf lock rename \
    || { echo "[newlib] $ml: could not drop vprintf, lock and rename from libc.a" >&2; exit 1; }
  if test $ml = default; then
    cp -r "$obj"/inst/nvptx-none/include "$prefix.tmp/include"
  fi
done
touch "$prefix.tmp/.complete"
rm -rf "$prefix"; mv "$prefix.tmp" "$prefix"
echo "[newlib] done: $prefix" >&2
echo "$prefix"
