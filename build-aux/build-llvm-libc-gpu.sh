#!/bin/sh
# Build LLVM 19's GPU C library for nvptx64-nvidia-cuda: the one piece of
# the LLVM peer of bench/gpu-check.sh that Debian 12 does not package.
# Debian's clang-19 and libomp-19-dev have the nvptx OpenMP device
# runtime, and Debian's libomptarget.so.19.1 has the CUDA plugin and the
# libc RPC server built in; the device side of that RPC (libcgpu-nvptx.a)
# is built here from Debian's own llvm-toolchain-19 source package, the
# same release (19.1.7) as the server.
#
# Steps: fetch the source package with apt-get (a private deb-src list; the
# system's apt configuration is left alone) unless LLVM_SRC_TARBALL names
# the .orig.tar.xz already; unpack libc/ and the CMake support it needs;
# apply patches/llvm-libc-*.patch; build libc-hdrgen against Debian's
# libLLVMTableGen.a; configure the runtimes build for the GPU and install.
# About 1 minute on 2 cores after the 160 MB download.  Cached, keyed by
# the source, the patches, this recipe and the configuration.
#
# Usage: build-llvm-libc-gpu.sh TOP_SRCDIR WORKDIR
# Prints the install prefix on the last line:
#   PREFIX/offload-lib/lib{c,m}gpu-nvptx.a   the fat archives for -fopenmp
#   PREFIX/include/gpu-decls/llvm-libc-decls the declarations clang's
#					     llvm_libc_wrappers look for
set -e
top_srcdir=$1
work=$2
cache=${GOMP_HS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/libgomp-host-services}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
llvm=${LLVM_DIR:-/usr/lib/llvm-19}
version=19.1.7
srcpkg=llvm-toolchain-19
RECIPE=1
cmake_args="-G Ninja -DLLVM_ENABLE_RUNTIMES=libc -DLLVM_LIBC_FULL_BUILD=ON
 -DLLVM_RUNTIMES_TARGET=nvptx64-nvidia-cuda -DCMAKE_BUILD_TYPE=Release
 -DLLVM_INCLUDE_TESTS=OFF -DLLVM_INCLUDE_DOCS=OFF"

# What the build needs: Debian packages, installed when run as root
# (clang-tools-19 has clang's offload linker wrappers).
"$top_srcdir/build-aux/ensure-deps.sh" clang-19 clang-tools-19 llvm-19 \
  llvm-19-dev libomp-19-dev cmake ninja-build xz-utils >&2

mkdir -p "$work" "$cache/llvm-src"
tarball=${LLVM_SRC_TARBALL:-$cache/llvm-src/${srcpkg}_$version.orig.tar.xz}
if ! test -r "$tarball"; then
  # Debian's source package, through a sources list of our own.
  apt=$work/llvm-apt
  mkdir -p "$apt/lists/partial"
  echo "deb-src http://deb.debian.org/debian bookworm main" > "$apt/sources.list"
  opts="-o Dir::Etc::SourceList=$apt/sources.list -o Dir::Etc::SourceParts=/nonexistent -o Dir::State::Lists=$apt/lists"
  echo "[llvm-libc] fetching Debian's $srcpkg source package (160 MB)" >&2
  # shellcheck disable=SC2086
  { apt-get -q $opts update \
    && (cd "$cache/llvm-src" && apt-get -q $opts source --download-only "$srcpkg"); } \
    > "$work/llvm-src-fetch.log" 2>&1 \
    || { tail -20 "$work/llvm-src-fetch.log" >&2; echo "[llvm-libc] fetch failed" >&2; exit 1; }
fi

key=$( { sha256sum "$tarball" | cut -d' ' -f1; echo "$RECIPE $cmake_args $llvm";
	 "$llvm/bin/clang" --version | head -n 1;
	 cat "$top_srcdir"/patches/llvm-libc-*.patch 2>/dev/null; } \
       | sha256sum | cut -c1-16)
prefix=$cache/llvm-libc-gpu-$key
if test -f "$prefix/.complete"; then
  echo "[llvm-libc] cached: $prefix" >&2
  echo "$prefix"
  exit 0
fi

src=$work/llvm-src
rm -rf "$src"; mkdir -p "$src"
echo "[llvm-libc] unpacking libc/ and its CMake support -> $src" >&2
top=${srcpkg}_$version
tar -C "$src" --strip-components=1 -xJf "$tarball" "$top/libc" "$top/cmake" \
  "$top/runtimes" "$top/llvm/cmake" "$top/llvm/utils/lit" "$top/third-party"
for p in "$top_srcdir"/patches/llvm-libc-*.patch; do
  test -f "$p" || continue
  echo "[patch] $(basename "$p")" >&2
  patch -s -p1 -d "$src" < "$p"
done

# libc-hdrgen: a TableGen back end that writes the headers.
hdrgen=$work/llvm-libc-hdrgen
echo "[llvm-libc] building libc-hdrgen against $llvm/lib/libLLVMTableGen.a" >&2
"$llvm/bin/clang++" -O1 -std=c++17 -fno-exceptions -fno-rtti \
  -I"$llvm/include" -I"$src/libc" -D_GNU_SOURCE -D__STDC_CONSTANT_MACROS \
  -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS \
  "$src"/libc/utils/HdrGen/*.cpp "$src/libc/utils/LibcTableGenUtil/APIIndexer.cpp" \
  -L"$llvm/lib" -lLLVMTableGen -lLLVMSupport -lLLVMDemangle -lz -lzstd \
  -ltinfo -lpthread -o "$hdrgen"

obj=$work/llvm-libc-build
log=$work/llvm-libc-build.log
rm -rf "$obj" "$prefix.tmp"; mkdir -p "$obj"
echo "[llvm-libc] configure and build for nvptx64-nvidia-cuda with $jobs jobs (about 1 min on 2 cores; log: $log)" >&2
(
  cd "$obj"
  # nvptx code goes through CUDA's ptxas and nvlink.
  PATH=${CUDA_HOME:-/usr/local/cuda}/bin:$PATH
  # shellcheck disable=SC2086
  cmake "$src/runtimes" $cmake_args \
    -DCMAKE_C_COMPILER="$llvm/bin/clang" -DCMAKE_CXX_COMPILER="$llvm/bin/clang++" \
    -DLIBC_HDRGEN_EXE="$hdrgen" -DCMAKE_INSTALL_PREFIX="$prefix.tmp"
  ninja -j"$jobs" install
) > "$log" 2>&1 || { tail -30 "$log" >&2; echo "[llvm-libc] failed, see $log" >&2; exit 1; }
# The fat archives apart from the nvptx libc.a and libm.a, which must not
# be found by the host link; the declarations the clang wrappers include.
mkdir -p "$prefix.tmp/offload-lib" "$prefix.tmp/include/gpu-decls"
mv "$prefix.tmp"/lib/libcgpu-nvptx.a "$prefix.tmp"/lib/libmgpu-nvptx.a \
  "$prefix.tmp/offload-lib/"
cp -r "$obj/libc/include/llvm-libc-decls" "$prefix.tmp/include/gpu-decls/"
touch "$prefix.tmp/.complete"
rm -rf "$prefix"
mv "$prefix.tmp" "$prefix"
echo "[llvm-libc] done: $prefix" >&2
echo "$prefix"
