#!/bin/sh
# Build the host (x86_64) C and C++ compilers proper, cc1 and cc1plus, with
# this project's compiler patches (patches/compiler-*.patch: OpenMP reverse
# offload), as gomp-gcc and gomp-g++ use them.  Debian's gcc-12 driver,
# assembler, linker, lto-wrapper and its nvptx offload compiler (lto1,
# mkoffload) stay in use, so the tree must be shaped like Debian's: the
# release tarball plus gcc/m2 from gm2-20220506.tar.xz (one more tree
# code, which shifts every LTO tag) and zstd support (Debian's cc1 writes
# zstd-compressed LTO); configured as Debian configures gcc-12 where that
# changes what cc1 emits or where it searches (PIE by default, multiarch,
# offloading enabled, Graphite with isl, the same prefix and version
# directories).
#
# The result is cached outside the build tree, keyed by the two tarballs,
# the patches and this recipe.
#
# Usage: build-host-cc1.sh TOP_SRCDIR WORKDIR
# Prints the directory holding cc1 and cc1plus on the last line.
# GOMP_HS_KEEP_BUILD=1 keeps the object directory (for compiler work).
set -e
# Not the calling make's command line (make install prefix=DIR).
unset MAKEFLAGS MFLAGS
top_srcdir=$1
work=$2
tarball=${GCC_TARBALL:-/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz}
gm2_tarball=${GM2_TARBALL:-/usr/src/gcc-12/gm2-20220506.tar.xz}
debian_patches=${DEBIAN_GCC_PATCHDIR:-/usr/src/gcc-12/debian/patches}
DEBIAN_PATCHES="gcc-gfdl-build g++-multiarch-incdir"
cache=${GOMP_HS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libgomp-host-services}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

confargs="--prefix=/usr --libexecdir=/usr/lib --libdir=/usr/lib
 --with-gcc-major-version-only --program-suffix=-12
 --program-prefix=x86_64-linux-gnu- --enable-languages=c,c++
 --enable-default-pie --enable-multiarch --enable-gnu-unique-object
 --enable-cet --with-arch-32=i686 --with-abi=m64
 --with-multilib-list=m32,m64,mx32 --enable-multilib --with-tune=generic
 --enable-offload-targets=nvptx-none --enable-checking=release
 --with-system-zlib --disable-nls --disable-werror
 --disable-bootstrap --with-isl --disable-plugin
 --build=x86_64-linux-gnu --host=x86_64-linux-gnu --target=x86_64-linux-gnu"
export CFLAGS=-O2 CXXFLAGS=-O2

# Bump RECIPE when the way the compilers are built changes (2: cc1 and
# cc1plus optimized; recipe 1 built them at -O0, see below).
RECIPE=2
key=$( { sha256sum "$tarball" "$gm2_tarball" | cut -d' ' -f1;
         echo "$RECIPE $confargs $DEBIAN_PATCHES";
         cat "$top_srcdir"/patches/compiler-*.patch 2>/dev/null; } \
       | sha256sum | cut -c1-16)
out=$cache/host-cc1-$key

if test -f "$out/.complete"; then
  echo "[host-cc1] cached: $out" >&2
  echo "$out"
  exit 0
fi
test -r "$gm2_tarball" \
  || { echo "[host-cc1] $gm2_tarball not found (install gcc-12-source)" >&2; exit 1; }
test -f /usr/include/zstd.h \
  || { echo "[host-cc1] zstd.h not found (install libzstd-dev)" >&2; exit 1; }
# Debian's cc1 has Graphite (-fgraphite-identity, -floop-parallelize-all:
# libgomp.graphite/ in GCC's testsuite); without isl ours says "sorry".
test -f /usr/include/isl/ctx.h \
  || { echo "[host-cc1] isl/ctx.h not found (install libisl-dev)" >&2; exit 1; }

src=$work/gcc-host-src
if ! test -f "$src/.unpacked-$key"; then
  rm -rf "$src" "$src.tmp"
  mkdir -p "$src.tmp"
  echo "[host-cc1] unpacking gcc-12 and gcc/m2 -> $src" >&2
  tar -C "$src.tmp" -xJf "$tarball" --strip-components=1
  tar -C "$src.tmp" -xJf "$gm2_tarball" --strip-components=1 gm2/gcc/m2
  # Debian's patches that change what cc1 and cc1plus do: building the
  # DFSG tarball, and the multiarch directory of libstdc++'s
  # target-dependent headers (/usr/include/x86_64-linux-gnu/c++/12).
  for p in $DEBIAN_PATCHES; do
    echo "[host-cc1] [patch] debian/patches/$p.diff" >&2
    patch -s -p2 -d "$src.tmp" < "$debian_patches/$p.diff"
  done
  for p in "$top_srcdir"/patches/compiler-*.patch; do
    test -f "$p" || continue
    echo "[host-cc1] [patch] $(basename "$p")" >&2
    patch -s -p1 -d "$src.tmp" < "$p"
  done
  touch "$src.tmp/.unpacked-$key"
  mv "$src.tmp" "$src"
fi

obj=$work/host-cc1-build
rm -rf "$obj"; mkdir -p "$obj"
log=$work/host-cc1.log
echo "[host-cc1] configure (log: $log)" >&2
# shellcheck disable=SC2086
( cd "$obj" && "$src"/configure $confargs ) > "$log" 2>&1 \
  || { tail -30 "$log" >&2; exit 1; }
# gcc/configure strips -O2 from CFLAGS and CXXFLAGS outside a bootstrap:
# the top-level Makefile passes them on make's command line.  Making cc1
# in gcc/ directly must pass them the same way, or the compilers are
# built at -O0 (three to four times slower on every compile).
echo "[host-cc1] building host cc1 and cc1plus with $jobs jobs: a cold build takes about 35 min on 2 cores (2026-12-07); cached afterwards" >&2
start=$(date +%s)
( cd "$obj" \
  && make -j"$jobs" all-build-libiberty all-build-libcpp all-libiberty \
       all-libcpp all-libdecnumber all-libbacktrace all-libcody configure-gcc \
  && make -j"$jobs" -C gcc CFLAGS="$CFLAGS" CXXFLAGS="$CXXFLAGS" cc1 cc1plus ) \
  >> "$log" 2>&1 &
pid=$!
while kill -0 $pid 2>/dev/null; do
  sleep 60
  n=$(ls "$obj"/gcc/*.o "$obj"/gcc/*/*.o 2>/dev/null | wc -l)
  echo "[host-cc1] ... $(( ($(date +%s) - start) / 60 )) min, $n of ~640 objects" >&2
done
wait $pid || { tail -40 "$log" >&2; echo "[host-cc1] build failed, see $log" >&2; exit 1; }
rm -rf "$out.tmp"; mkdir -p "$out.tmp"
cp "$obj"/gcc/cc1 "$obj"/gcc/cc1plus "$out.tmp"/
strip "$out.tmp"/cc1 "$out.tmp"/cc1plus
rm -rf "$out"; mv "$out.tmp" "$out"
test "${GOMP_HS_KEEP_BUILD:-0}" = 1 || rm -rf "$obj"
touch "$out/.complete"
echo "[host-cc1] done in $(( ($(date +%s) - start) / 60 )) min: $out" >&2
echo "$out"
