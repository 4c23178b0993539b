#!/bin/sh
# Build libgfortran for nvptx (multilibs default and mgomp) with its I/O
# library, over the device C library (newlib) and libgomp host services,
# and install the archives into DEST (DEST/libgfortran.a,
# DEST/mgomp/libgfortran.a).
#
# libgfortran's configure builds only its "minimal" runtime for nvptx
# (no I/O: what Debian ships).  This script configures and builds that
# as usual, then compiles the I/O library (io/*.c) and the parts of the
# full runtime it needs (error reporting, STOP, the environment
# defaults, character conversion) with the same flags, swaps them for
# minimal.o, and adds libgfortran/config/nvptx/device-runtime.c (what a
# constructor does on other targets, program arguments, how the device
# ends the program).  Those objects are compiled with
# libgcc/config/nvptx/gthr-nvptx.h as their thread model (real locks);
# the rest keeps the "single" one.
#
# Usage: build-libgfortran-nvptx.sh GCC_SRC WORKDIR CC1_PREFIX NEWLIB_PREFIX DEST
# (DEST already holds the device libgomp.a.)
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

# The I/O library and the runtime it needs (relative to libgfortran/),
# and the intrinsics of the full library that reach the system: they link
# on the device, and work where host services carry the call (RENAME,
# UNLINK, ACCESS, STAT, TIME, DATE_AND_TIME, SYSTEM_CLOCK, ...); the
# others fail as each reports failure (the device C library answers
# ENOSYS for processes, signals, the working directory).
io_objs="io/close io/file_pos io/format io/inquire io/intrinsics
 io/list_read io/lock io/open io/read io/transfer io/unit io/unix
 io/write io/fbuf io/async runtime/error runtime/stop runtime/environ
 runtime/convert_char runtime/pause runtime/fpu
 intrinsics/access intrinsics/chdir intrinsics/chmod intrinsics/clock
 intrinsics/cpu_time intrinsics/ctime intrinsics/date_and_time
 intrinsics/dtime intrinsics/env intrinsics/etime
 intrinsics/execute_command_line intrinsics/exit intrinsics/gerror
 intrinsics/getcwd intrinsics/getlog intrinsics/getXid intrinsics/hostnm
 intrinsics/kill intrinsics/link intrinsics/perror intrinsics/signal
 intrinsics/sleep intrinsics/system intrinsics/rename intrinsics/stat
 intrinsics/symlnk intrinsics/system_clock intrinsics/time
 intrinsics/umask intrinsics/unlink config/nvptx/device-runtime"

# ccache and configure's cache (build-caches.sh).
. "$(dirname "$0")/build-caches.sh"
base=$(cd "$work/.." && pwd)
hs_ccache "$base"
accel_sum=$(cat "$accel"/libgcc.a "$accel"/crt0.o 2> /dev/null | sha256sum | cut -c1-16)

# The accelerator build installs no gfortran driver; gcc compiles Fortran
# with f951 all the same.
fc_driver=$cc1/bin/nvptx-none-gcc
test -x "$fc_driver" \
  && test -n "$(find "$cc1/libexec" -name f951)" \
  || { echo "[libgfortran-nvptx] no f951 in $cc1: the nvptx compiler has no Fortran" >&2; exit 1; }

# The global symbols of the device libgomp of multilib directory $1 ("" or
# /mgomp), a line each: what configure's link tests can find there.
gomp_syms ()
{
  nvptx-none-nm -g --defined-only "$dest$1/libgomp.a" 2> /dev/null \
    | awk 'NF == 3 { print $2, $3 }' | LC_ALL=C sort -u
}

# The archives and the header that the stage takes from this build
# (ISO_Fortran_binding.h) are kept in the build cache, keyed by what goes
# in: this script and build-caches.sh, the nvptx compiler and newlib
# (their prefixes are content-keyed), where the tree is (the objects
# name their sources: the Fortran ones, which ccache does not see, by
# their absolute paths), every file of the libgfortran tree
# and the headers from elsewhere that its compiles read (libgcc's
# threads, gcc/fortran/libgfortran.h, gomp-nvptx-abi.h, Debian's nvptx
# include directory), Debian's nvptx libgcc.a and crt0.o and the symbols
# of the device libgomp that configure's link tests see, and the
# versions of the Debian packages whose tools the build runs.  Without
# GOMP_HS_BUILD_CACHES=no, or a compiler outside the cache, nothing is
# kept.  Both multilibs take 78 s on 2 cores with every compile from
# ccache, 3.4 min where ccache missed (2026-12-07); the copy, a second.
out=
if test "${GOMP_HS_BUILD_CACHES:-yes}" != no \
   && test "$(dirname "$cc1")" = "$hs_cache_dir" \
   && test "$(dirname "$newlib")" = "$hs_cache_dir"; then
  out_key=$( { echo "libgfortran-nvptx recipe 1"
	       cat "$0" "$(dirname "$0")/build-caches.sh"
	       echo "$(basename "$cc1") $(basename "$newlib") accel $accel_sum"
	       echo "src $src"
	       hs_configure_env
	       ( cd "$src" && find libgfortran -type f | LC_ALL=C sort \
		   | xargs sha256sum
		 sha256sum libgcc/gthr.h libgcc/gthr-single.h \
		   libgcc/config/nvptx/gthr-nvptx.h gcc/fortran/libgfortran.h \
		   libgomp/config/nvptx/gomp-nvptx-abi.h )
	       ( cd "$accel" && find include -type f | LC_ALL=C sort | xargs sha256sum )
	       gomp_syms ""
	       gomp_syms /mgomp
	       dpkg-query -W -f='${Package} ${Version}\n' nvptx-tools binutils \
		 gcc-12-offload-nvptx gcc-14-offload-nvptx 2> /dev/null
	     } | sha256sum | cut -c1-16)
  out=$hs_cache_dir/libgfortran-nvptx-$out_key
fi
binding=$work/libgfortran-nvptx-default/nvptx-none/libgfortran/include/ISO_Fortran_binding.h
if test -n "$out" && test -f "$out/ISO_Fortran_binding.h"; then
  echo "[libgfortran-nvptx] cached: $out"
  for d in "" /mgomp; do
    mkdir -p "$dest$d"
    cp "$out$d/libgfortran.a" "$dest$d/libgfortran.a"
  done
  # What the stage takes from the build directory.
  rm -rf "$work"/libgfortran-nvptx-default "$work"/libgfortran-nvptx-mgomp
  mkdir -p "$(dirname "$binding")"
  cp "$out/ISO_Fortran_binding.h" "$binding"
  exit 0
fi

for ml in default mgomp; do
  case $ml in
    default) flag= ; sub= ;;
    mgomp) flag=-mgomp ; sub=/mgomp ;;
  esac
  # The layout of an in-tree build, whose include paths the Makefile
  # names: TOP/gcc, TOP/nvptx-none/{libgfortran,libgcc,libbacktrace}.
  top=$work/libgfortran-nvptx-$ml
  tdir=$top/nvptx-none
  obj=$tdir/libgfortran
  log=$work/libgfortran-nvptx-$ml.log
  # newlib's libc gets its system calls and per-thread state from the
  # device libgomp (installed in DEST before): configure's link tests
  # need both.
  libs="-isystem $newlib/include -L$newlib$sub -L$dest$sub -B$accel/"
  # libgfortran is compiled with newlib's headers, so its open, stat,
  # fstat and clock_gettime must be the newlib-ABI ones, as in a
  # standalone program: the device runtime's plain names take the host's
  # flags and struct stat.
  cc="$ccache$cc1/bin/nvptx-none-gcc $flag -Wa,--no-verify $libs -include $src/libgomp/config/nvptx/gomp-nvptx-abi.h"
  fc="$fc_driver $flag -Wa,--no-verify $libs"
  if ! test -f "$obj/config.status" || test "$(cat "$obj/.cc" 2>/dev/null)" != "$cc"; then
    rm -rf "$top"; mkdir -p "$obj" "$tdir/libgcc" "$tdir/libbacktrace" "$top/gcc"
    echo "[libgfortran-nvptx] $ml: configure (log: $log)"
    # configure's link tests link the device libgomp: what they can
    # find there is its global symbols.
    syms=$(gomp_syms "$sub" | sha256sum | cut -c1-16)
    hs_configure "libgfortran-nvptx-$ml" "$obj" "$src/libgfortran" "$base" \
	"accel $accel_sum libgomp $syms abi $(sha256sum < "$src/libgomp/config/nvptx/gomp-nvptx-abi.h")" \
	"$log" "$src"/libgfortran/configure \
	--build=x86_64-pc-linux-gnu --host=nvptx-none --target=nvptx-none \
	--with-target-subdir=nvptx-none --with-cross-host=x86_64-pc-linux-gnu \
	--disable-multilib --with-newlib --with-gcc-major-version-only \
	--disable-shared --prefix=/unused CC="$cc" FC="$fc" GFORTRAN="$fc" LIBS="-lc -lgomp" \
	AR=nvptx-none-ar RANLIB=nvptx-none-ranlib CFLAGS="-O2" \
	FCFLAGS="-O2" \
      || { tail -30 "$log" >&2; echo "[libgfortran-nvptx] configure failed, see $log" >&2; exit 1; }
    echo "$cc" > "$obj/.cc"
  fi
  echo "[libgfortran-nvptx] $ml: build the minimal runtime (about 3 min)"
  # What an in-tree build finds in ../libgcc: the thread model.
  cp "$src/libgcc/gthr-single.h" "$tdir/libgcc/gthr-default.h"
  # No libbacktrace on nvptx (the I/O library's runtime has no
  # backtrace): link the archive without it.
  version=$(grep -v '^#' "$src/libgfortran/libtool-version")
  ( cd "$obj" && make -j"$jobs" all \
      libgfortran_la_LDFLAGS="-version-info $version" ) >> "$log" 2>&1 \
    || { grep -E ': error|Error [0-9]' "$log" | tail -20 >&2; echo "[libgfortran-nvptx] failed, see $log" >&2; exit 1; }
  echo "[libgfortran-nvptx] $ml: build the I/O library"
  cp "$src/libgcc/config/nvptx/gthr-nvptx.h" "$tdir/libgcc/gthr-default.h"
  # The Makefile has a rule for each source of the full library (named by
  # its base name); the suffix rule compiles device-runtime.c.
  mkdir -p "$obj/config/nvptx" "$obj/.deps/config/nvptx"
  targets= objs=
  for o in $io_objs; do
    case $o in
      config/*) t=$o ;;
      *) t=$(basename "$o") ;;
    esac
    targets="$targets $t.lo" objs="$objs $t.o"
  done
  # On nvptx, exit ends only the calling thread; where the full runtime
  # ends the program (errors, STOP, the EXIT intrinsic), it calls the
  # device runtime's _gfortrani_device_exit instead, which ends it through
  # the host.  configure looks for no library function on nvptx (it
  # cannot link there); these the device C library has (libgomp's
  # posix-io.c: host calls, or failures with ENOSYS where the device has
  # no such thing).
  have="-DHAVE_ACCESS -DHAVE_STAT -DHAVE_FSTAT -DHAVE_CHDIR
   -DHAVE_GETCWD -DHAVE_LINK -DHAVE_SYMLINK -DHAVE_UMASK -DHAVE_GETPID
   -DHAVE_GETUID -DHAVE_GETGID -DHAVE_GETEUID -DHAVE_GETHOSTNAME
   -DHAVE_GETLOGIN -DHAVE_KILL -DHAVE_SLEEP -DHAVE_ALARM
   -DHAVE_GETTIMEOFDAY"
  have=$(echo $have)
  # Always compiled again: make does not see a change of these flags.
  # shellcheck disable=SC2086
  ( cd "$obj" && rm -f $targets $objs )
  # shellcheck disable=SC2086
  ( cd "$obj" && make -j"$jobs" $targets \
      CPPFLAGS="-Dexit=_gfortrani_device_exit $have" ) >> "$log" 2>&1 \
    || { grep -E ': error|Error [0-9]' "$log" | tail -20 >&2; echo "[libgfortran-nvptx] I/O library failed, see $log" >&2; exit 1; }
  cp "$obj/.libs/libgfortran.a" "$top/libgfortran.a"
  nvptx-none-ar d "$top/libgfortran.a" minimal.o
  # shellcheck disable=SC2086
  ( cd "$obj" && nvptx-none-ar q "$top/libgfortran.a" $objs )
  nvptx-none-ranlib "$top/libgfortran.a"
  mkdir -p "$dest$sub"
  cp "$top/libgfortran.a" "$dest$sub"/libgfortran.a
done
# Stored whole, by one rename (which fails, leaving the entry another
# build stored, when there is one by then).
if test -n "$out" && ! test -d "$out"; then
  tmp=$out.tmp.$$
  rm -rf "$tmp"
  if mkdir -p "$tmp/mgomp" \
     && cp "$dest/libgfortran.a" "$tmp/libgfortran.a" \
     && cp "$dest/mgomp/libgfortran.a" "$tmp/mgomp/libgfortran.a" \
     && cp "$binding" "$tmp/ISO_Fortran_binding.h" \
     && mv -T "$tmp" "$out" 2> /dev/null; then
    echo "[libgfortran-nvptx] stored: $out"
  else
    rm -rf "$tmp"
  fi
fi
