#!/bin/sh
# Build an nvptx-none C and Fortran compiler (driver, cc1 and f951) from
# Debian's GCC source (GCC_TARBALL: GCC 12 unless given; GCC 14 for the
# Debian 13 flavour), as a build tool for the device libraries (newlib,
# libgomp, libgfortran).  The result is cached outside
# the build tree, keyed by the source tarball and this script, so a second
# build on the same machine skips this step.
#
# Usage: build-nvptx-cc1.sh TOP_SRCDIR WORKDIR
# Prints the installed prefix of the cached compiler on the last line.
set -e
# Not the calling make's command line (make install prefix=DIR).
unset MAKEFLAGS MFLAGS
top_srcdir=$1
work=$2
tarball=${GCC_TARBALL:-/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz}
cache=${GOMP_HS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libgomp-host-services}
patchset=${GOMP_HS_PATCHES:-$top_srcdir/patches}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# Same configuration Debian uses for its nvptx offload compiler, C and
# Fortran only.
confargs="--target=nvptx-none --enable-as-accelerator-for=x86_64-linux-gnu
 --with-gcc-major-version-only --disable-bootstrap --disable-sjlj-exceptions
 --enable-languages=c,fortran --enable-checking=release --without-isl
 --disable-nls --with-system-zlib --disable-lto"
# Only a build tool: no debug info, which roughly halves the build time.
export CFLAGS=-O2 CXXFLAGS=-O2

# Bump RECIPE when the way cc1 is built changes.
RECIPE=2
key=$( { sha256sum "$tarball" | cut -d' ' -f1; echo "$RECIPE $confargs";
         cat "$patchset"/gcc-*.patch 2>/dev/null; } \
       | sha256sum | cut -c1-16)
prefix=$cache/nvptx-cc1-$key

# Make the installed accelerator driver usable for plain cross compiles:
# a short name, and nvptx-tools' assembler and linker where it looks for
# them (Debian's offload package does the same in its accel directory).
link_tools ()
{
  ln -sf x86_64-linux-gnu-accel-nvptx-none-gcc "$1/bin/nvptx-none-gcc"
  for d in "$1"/libexec/gcc/x86_64-linux-gnu/*/accel/nvptx-none; do
    for t in as ld; do
      tool=$(command -v nvptx-none-$t) \
	|| { echo "[cc1] nvptx-none-$t not found (install nvptx-tools)" >&2; exit 1; }
      ln -sf "$tool" "$d/$t"
    done
  done
}

if test -f "$prefix/.complete"; then
  link_tools "$prefix"
  echo "[cc1] cached: $prefix" >&2
  echo "$prefix"
  exit 0
fi

src=$work/gcc-src
"$top_srcdir"/build-aux/unpack-gcc.sh "$top_srcdir" "$src" >&2
obj=$work/nvptx-cc1-build
rm -rf "$obj"; mkdir -p "$obj"
log=$work/nvptx-cc1.log
echo "[cc1] configure (log: $log)" >&2
( cd "$obj" && "$src"/configure --prefix="$prefix" $confargs ) > "$log" 2>&1 \
  || { tail -30 "$log" >&2; exit 1; }
echo "[cc1] building nvptx cc1 and f951 with $jobs jobs: a cold build takes 9 to 17 min on 2 cores (debug-free); cached afterwards" >&2
start=$(date +%s)
( cd "$obj" && make -j"$jobs" all-gcc ) >> "$log" 2>&1 &
pid=$!
# Progress: one line a minute with the number of objects compiled so far.
while kill -0 $pid 2>/dev/null; do
  sleep 60
  n=$(ls "$obj"/gcc/*.o 2>/dev/null | wc -l)
  echo "[cc1] ... $(( ($(date +%s) - start) / 60 )) min, $n of ~560 objects" >&2
done
wait $pid || { tail -40 "$log" >&2; echo "[cc1] build failed, see $log" >&2; exit 1; }
( cd "$obj" && make install-gcc ) >> "$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
link_tools "$prefix"
rm -rf "$obj"
touch "$prefix/.complete"
echo "[cc1] done in $(( ($(date +%s) - start) / 60 )) min: $prefix" >&2
echo "$prefix"
