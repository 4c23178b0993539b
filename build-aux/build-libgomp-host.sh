#!/bin/sh
# Build the host libgomp.so.1 and libgomp-plugin-nvptx.so.1 from the patched
# GCC tree and install them into PREFIX/lib (headers into PREFIX/include).
# libgomp.so.1 gets a RUNPATH of $ORIGIN so that it loads the plugin that
# sits beside it, not another installed one.
#
# Usage: build-libgomp-host.sh GCC_SRC WORKDIR PREFIX
set -e
# Not the calling make's command line (make install prefix=DIR).
unset MAKEFLAGS MFLAGS
src=$1
work=$2
prefix=$3
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
cc=${HOST_CC:-gcc-12}
# With a Fortran compiler, libgomp.so.1 also gets the Fortran OpenACC
# entry points (openacc.f90: acc_copyin_array_h_, acc_is_present_32_h_...,
# which Debian's libgomp1 exports and the openacc module calls).
# libgomp's configure wants the compiler's path (it tests -x).
fc=$(command -v "${HOST_FC:-$(echo "$cc" | sed "s/gcc/gfortran/")}") || fc=no
# ccache and configure's cache (build-caches.sh).
. "$(dirname "$0")/build-caches.sh"
base=$(cd "$work/.." && pwd)
hs_ccache "$base"
obj=$work/libgomp-host
log=$work/libgomp-host.log
conf="CC=$ccache$cc GFORTRAN=$fc"

if ! test -f "$obj/config.status" || test "$(cat "$obj/.configured-with" 2>/dev/null)" != "$conf"; then
  rm -rf "$obj"; mkdir -p "$obj"
  echo "[libgomp-host] configure (log: $log)"
  hs_configure libgomp-host "$obj" "$src/libgomp" "$base" \
      "$("$cc" --version | head -n 1) $("$fc" --version 2> /dev/null | head -n 1)" "$log" \
      "$src"/libgomp/configure \
      --build=x86_64-pc-linux-gnu --host=x86_64-pc-linux-gnu \
      --target=x86_64-pc-linux-gnu --enable-offload-targets=nvptx-none \
      --disable-multilib --disable-static --with-gcc-major-version-only \
      --prefix="$obj/inst" CC="$ccache$cc" GFORTRAN="$fc" CFLAGS="-g -O2" FCFLAGS="-g -O2" \
    || { tail -30 "$log" >&2; echo "[libgomp-host] configure failed, see $log" >&2; exit 1; }
  echo "$conf" > "$obj/.configured-with"
fi
echo "[libgomp-host] build libgomp.so.1 and the nvptx plugin (about 2 min)"
( cd "$obj" && make -j"$jobs" LDFLAGS='-Wl,-rpath,\$$ORIGIN' \
    && make install ) >> "$log" 2>&1 \
  || { grep -E ': error|Error [0-9]|undefined reference' "$log" | tail -20 >&2; echo "[libgomp-host] failed, see $log" >&2; exit 1; }
mkdir -p "$prefix/lib" "$prefix/include"
for f in "$obj"/inst/lib*/libgomp.so* "$obj"/inst/lib*/libgomp-plugin-nvptx.so*; do
  cp -P "$f" "$prefix/lib/"
done
cp "$obj"/inst/lib/gcc/*/*/include/omp.h "$obj"/inst/lib/gcc/*/*/include/openacc.h \
   "$obj"/inst/lib/gcc/*/*/include/acc_prof.h "$prefix/include/" 2>/dev/null \
  || cp "$obj"/omp.h "$src"/libgomp/openacc.h "$src"/libgomp/acc_prof.h "$prefix/include/"

# A PIC crtoffloadtable.o for lto-wrapper (see libgcc/crtoffloadtable.c).
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$prefix/lib/offload"
"$cc" -O2 -fPIC -c "$top_srcdir/libgcc/crtoffloadtable.c" \
  -o "$prefix/lib/offload/crtoffloadtable.o"
