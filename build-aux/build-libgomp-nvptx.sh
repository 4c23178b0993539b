#!/bin/sh
# Build libgomp for nvptx (multilibs default and mgomp) from the patched
# GCC tree, with the nvptx cc1 and newlib built before, and install the
# archives into DEST (DEST/libgomp.a, DEST/mgomp/libgomp.a).
#
# Usage: build-libgomp-nvptx.sh GCC_SRC WORKDIR CC1_PREFIX NEWLIB_PREFIX DEST
set -e
# Not the calling make's command line (make install prefix=DIR).
unset MAKEFLAGS MFLAGS
src=$1
work=$2
cc1=$3
newlib=$4
dest=$5
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# Debian's own nvptx libgcc.a and crt0.o, for configure's link tests.
accel=${DEBIAN_ACCEL_DIR:-/usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none}
# ccache and configure's cache (build-caches.sh).
. "$(dirname "$0")/build-caches.sh"
base=$(cd "$work/.." && pwd)
hs_ccache "$base"
accel_sum=$(cat "$accel"/libgcc.a "$accel"/crt0.o 2> /dev/null | sha256sum | cut -c1-16)

for ml in default mgomp; do
  case $ml in
    default) flag= ; sub= ;;
    mgomp) flag=-mgomp ; sub=/mgomp ;;
  esac
  obj=$work/libgomp-nvptx-$ml
  log=$work/libgomp-nvptx-$ml.log
  cc="$ccache$cc1/bin/nvptx-none-gcc $flag -Wa,--no-verify -isystem $newlib/include -L$newlib$sub -B$accel/"
  # Configure again when the compiler line changes: it names the newlib
  # build, whose headers decide the device runtime's ABI (struct _reent,
  # the lock types).
  if ! test -f "$obj/config.status" || test "$(cat "$obj/.cc" 2>/dev/null)" != "$cc"; then
    rm -rf "$obj"; mkdir -p "$obj"
    echo "[libgomp-nvptx] $ml: configure (log: $log)"
    hs_configure "libgomp-nvptx-$ml" "$obj" "$src/libgomp" "$base" "accel $accel_sum" "$log" \
	"$src"/libgomp/configure \
        --build=x86_64-pc-linux-gnu --host=nvptx-none --target=nvptx-none \
        --with-target-subdir=nvptx-none --with-cross-host=x86_64-pc-linux-gnu \
        --disable-multilib --with-gcc-major-version-only \
        --prefix=/unused CC="$cc" GFORTRAN=no \
        AR=nvptx-none-ar RANLIB=nvptx-none-ranlib CFLAGS="-O2" \
      || { tail -30 "$log" >&2; echo "[libgomp-nvptx] configure failed, see $log" >&2; exit 1; }
    echo "$cc" > "$obj/.cc"
  fi
  echo "[libgomp-nvptx] $ml: build (about 1 min)"
  ( cd "$obj" && make -j"$jobs" libgomp.la ) >> "$log" 2>&1 \
    || { grep -E ': error|Error [0-9]|undefined reference' "$log" | tail -20 >&2; echo "[libgomp-nvptx] failed, see $log" >&2; exit 1; }
  mkdir -p "$dest$sub"
  cp "$obj"/.libs/libgomp.a "$dest$sub"/libgomp.a
done
