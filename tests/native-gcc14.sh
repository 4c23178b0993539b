#!/bin/sh
# The two commands on Debian 13 or Ubuntu 24.04 itself: in a root of that
# system (build-aux/trixie-root.sh's: GOMP_HS_GCC14_ROOT=trixie or noble,
# by default the host's kind; with the build tools besides the system's
# own GCC 14 compilers), a copy of this tree is configured and built by
# plain "make" (configure finds only gcc-14's offload compiler there, so
# the build is the GCC 14 flavour alone), installed with "make install
# prefix=DIR", and the installed gomp-gcc builds a program whose target
# region does stdio and POSIX I/O, with this flavour's runtime in its PTX
# and libgomp.so.1; make demo and make check work there.
# The caches (GOMP_HS_CACHE) are the host's, bound into the root: what the
# host built from the same sources and recipes is used, as a second build
# on that system would.  Not in make check (make check-debian13, make
# check-ubuntu2404-native): a build of its own.  Needs root.  Ends with
# "N passed, N failed".
#
# Usage: native-gcc14.sh TOP_SRCDIR WORKDIR
top=$1
work=$2
cache=${GOMP_HS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libgomp-host-services}
# The system: the root build-aux/trixie-root.sh makes (GOMP_HS_GCC14_ROOT,
# or by default the host's).
kind=$("$top"/build-aux/trixie-root.sh --kind) || exit 2
case $kind in
  noble) tag=ubuntu2404 sys="Ubuntu 24.04" ;;
  *) tag=debian13 sys="Debian 13" ;;
esac
pass=0 fail=0
passed () { echo "PASS: $tag: $*"; pass=$((pass + 1)); }
failed () { echo "FAIL: $tag: $*"; fail=$((fail + 1)); }
finish () { echo "$pass passed, $fail failed"; test "$fail" -eq 0; exit; }

rm -rf "$work"; mkdir -p "$work" "$cache"
# The packages build-aux/ensure-deps.sh asks for on such a system.
tools="dejagnu autoconf automake make patch xz-utils flex bison libgmp-dev
 libmpfr-dev libmpc-dev libisl-dev zlib1g-dev libzstd-dev texinfo debootstrap
 debian-archive-keyring"
root=$(GOMP_HS_TRIXIE_EXTRA=$(echo $tools) "$top"/build-aux/trixie-root.sh \
	 "$work" 2> "$work/root.log" | tail -n 1)
if test -z "$root" || ! test -x "$root/usr/bin/gcc-14"; then
  failed "no $sys root with the build tools"; cat "$work/root.log"; finish
fi
passed "$sys root with gcc-14, gcc-14-offload-nvptx and the build tools"

# The working tree as a fresh clone would have it (tracked and new files).
src=$work/src
mkdir -p "$src"
( cd "$top" && git ls-files -co --exclude-standard -z \
    | xargs -0 tar -cf - ) | tar -C "$src" -xf -
test -f "$src/GNUmakefile" || { failed "copying the tree"; finish; }
cp "$top/tests/offload/gcc14-io.c" "$work/io.c"

# Inside the root, as its root user (whose PATH has the sbin
# directories: debootstrap, chroot): the host's cache at the same path,
# HOME where the cache's default path points.
in_root ()
{
  "$top"/build-aux/in-trixie-root.sh "$root" "$work" "$cache" -- \
    env HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      GOMP_HS_CACHE="$cache" sh -c "$*"
}

start=$(date +%s)
if in_root "cd $src && make" > "$work/make.log" 2>&1; then
  passed "make on $sys: the GCC 14 flavour ($(( $(date +%s) - start )) s)"
else
  failed "make on $sys: $(grep -m 1 -i -E 'error|not found' "$work/make.log" | cut -c1-200)"
  tail -30 "$work/make.log"
  finish
fi
if grep -q '^GCC_FLAVOUR = 14$' "$src/Makefile" \
   && test -x "$src/build/gcc-14/stage/bin/gomp-gcc" \
   && ! test -d "$src/build/stage"; then
  passed "configure chose the GCC 14 flavour alone (no GCC 12 stage)"
else
  failed "configure's flavour: $(grep '^GCC_FLAVOUR' "$src/Makefile")"
fi
inst=$work/inst
if in_root "cd $src && make install prefix=$inst" > "$work/install.log" 2>&1 \
   && test "$(cat "$inst/libexec/gomp-hs/gcc-version" 2>/dev/null)" = 14; then
  passed "make install prefix=DIR installs the GCC 14 flavour"
else
  failed "make install: $(tail -n 1 "$work/install.log")"
  finish
fi
if in_root "cd $work && $inst/bin/gomp-gcc -O2 -fopenmp io.c -o io && ./io $work/io.txt --host-ok" \
     > "$work/io.log" 2>&1 \
   && grep -qx 'gcc14-io: on the host, fprintf 10, read back "device 14"' "$work/io.log" \
   && in_root "ldd $work/io" | grep -q "$inst/lib/libgomp.so.1"; then
  passed "the installed gomp-gcc builds and runs a target region's I/O with its libgomp.so.1 (host fallback)"
else
  failed "the installed gomp-gcc: $(tail -n 2 "$work/io.log" | tr '\n' ' ')"
fi
# The two commands: make demo (the examples with this flavour's drivers,
# host fallback here) and make check (the GCC 14 flavour's tests, in a
# root of that system of their own: the cached one, when the host has it).
start=$(date +%s)
if in_root "cd $src && make demo" > "$work/demo.log" 2>&1; then
  passed "make demo on $sys ($(grep -c '^== ' "$work/demo.log") examples, $(( $(date +%s) - start )) s)"
else
  failed "make demo on $sys: $(tail -n 1 "$work/demo.log")"
fi
start=$(date +%s)
in_root "cd $src && make check" > "$work/check.log" 2>&1
st=$?
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$work/check.log" | tail -n 1)
if test $st -eq 0 && test -n "$summary" && ! grep -q '^FAIL' "$work/check.log"; then
  passed "make check on $sys: $summary ($(( $(date +%s) - start )) s)"
else
  failed "make check on $sys (status $st): ${summary:-no summary}; $(grep -m 3 '^FAIL' "$work/check.log" | tr '\n' ' ' | cut -c1-300)"
fi
# The device code is this flavour's: its open and write are the
# host-service ones.
rm -rf "$work/io.ptx"; mkdir "$work/io.ptx"
gcc -O2 -D_GNU_SOURCE -o "$work/ptx-extract" "$top/tests/ptx-extract.c" \
  && "$work/ptx-extract" "$work/io" "$work/io.ptx" > /dev/null 2>&1
if grep -l '^// BEGIN GLOBAL FUNCTION DEF: write$' "$work"/io.ptx/module-*.ptx 2>/dev/null \
     | xargs grep -l '__gomp_host_service' > /dev/null 2>&1; then
  passed "its device write is the host-service one"
else
  failed "its device write is not the host-service one"
fi
finish
