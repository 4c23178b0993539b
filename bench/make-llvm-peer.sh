#!/bin/sh
# The LLVM peer of the GPU benchmark: bench/gpu-bench.c and
# bench/gpu-launch.c built with Debian's clang-19 for sm_90, linked with
# LLVM's GPU libc (build-aux/build-llvm-libc-gpu.sh), and the host
# libraries they run with on a machine that has no LLVM: Debian's
# libomptarget.so.19.1 (the CUDA plugin and libc's RPC server are in it),
# libomp.so.5, libLLVM.so.19.1 and what they need beyond glibc (183 MB,
# about 43 MB of gpu-bundle.tar.xz).  make-gpu-bundle.sh copies the result
# into gpu-bundle/llvm/ and packs it with the rest.
#
# Usage: make-llvm-peer.sh TOP_SRCDIR LIBC_PREFIX OUTDIR
set -e
top=$1 libc=$2 out=$3
llvm=${LLVM_DIR:-/usr/lib/llvm-19}
cuda=${CUDA_HOME:-/usr/local/cuda}
arch=${LLVM_PEER_ARCH:-sm_90}
rm -rf "$out"
mkdir -p "$out/lib"
# clang's nvptx toolchain runs CUDA's ptxas and nvlink.
PATH=$cuda/bin:$PATH
export PATH
for b in gpu-bench gpu-launch; do
  echo "[llvm-peer] clang-19 -fopenmp --offload-arch=$arch bench/$b.c" >&2
  "$llvm/bin/clang" -O2 -fopenmp --offload-arch="$arch" -DHS_BENCH_LLVM \
    --libomptarget-nvptx-bc-path="$llvm/lib/libomptarget-nvptx-$arch.bc" \
    -I"$libc/include/gpu-decls" "$top/bench/$b.c" -o "$out/$b.exe" \
    -L"$libc/offload-lib" -lcgpu-nvptx -lmgpu-nvptx
  # The device image must hold LLVM's RPC client: without it, the calls
  # would not reach the host at all.
  if ! "$llvm/bin/llvm-objdump" --offloading "$out/$b.exe" | grep -q "arch *$arch"; then
    echo "[llvm-peer] $b.exe has no $arch image" >&2
    exit 1
  fi
done
grep -q __llvm_libc_rpc_client "$out/gpu-bench.exe" \
  || { echo "[llvm-peer] gpu-bench.exe: no libc RPC client in the device image" >&2; exit 1; }

# The host side: libomptarget, libomp and everything they load but glibc
# and the GCC runtime (the machine has those).
libs=$out/lib
cp -L "$llvm/lib/libomptarget.so.19.1" "$libs/"
ldd "$llvm/lib/libomptarget.so.19.1" | awk '$3 ~ /^\// { print $3 }' \
  | while read -r l; do
      case $(basename "$l") in
	libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|libgcc_s.so.*|libstdc++.so.*) ;;
	*) cp -L "$l" "$libs/" ;;
      esac
    done
cp "$top/bench/llvm-peer-run.sh" "$out/run.sh"
chmod +x "$out/run.sh"
echo "[llvm-peer] $out: $(du -sh "$out" | cut -f1)" >&2
