#!/bin/sh
# Run the LLVM peer of the GPU benchmark (built by make-llvm-peer.sh) and
# compare it with ours.  Called by gpu-check.sh as gpu-bundle/llvm/run.sh;
# prints "llvm: ..." lines (the benchmark's own lines, renamed), then
# "ratio: ..." lines, and exits non-zero if the peer did not run on the GPU.
#
# Usage: run.sh SMS OURS_BENCH_OUTPUT [PING_PONG_NS]
# Environment: GPU_CHECK_LLVM_TIMEOUT, the benchmark's limit in seconds
# (default 300); GPU_CHECK_LLVM_MIB (below).
#   OURS_BENCH_OUTPUT: what gpu-bench.exe of this project printed;
#   PING_PONG_NS: the raw round trip from gpu-baseline.exe.
# LLVM's libc moves 64 bytes per round trip in a stream write or read, so
# its fwrite and fread move GPU_CHECK_LLVM_MIB MiB (default 64), not 256:
# a rate, reported in MB/s like ours.
here=$(cd "$(dirname "$0")" && pwd)
sms=${1:-132} ours=$2 pp=$3
mib=${GPU_CHECK_LLVM_MIB:-64}
limit=${GPU_CHECK_LLVM_TIMEOUT:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

test -f "$here/lib/libomptarget.so.19.1" \
  || { echo "llvm: no $here/lib/libomptarget.so.19.1"; exit 1; }
# libomptarget's CUDA plugin opens "libcuda.so", which a driver-only
# machine may have only as libcuda.so.1.
cudalib=$(ldconfig -p 2>/dev/null | sed -n 's/.*libcuda\.so\.1 .*=> \(.*\)$/\1/p' | head -n 1)
for d in /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64; do
  test -n "$cudalib" && break
  test -e "$d/libcuda.so.1" && cudalib=$d/libcuda.so.1
done
test -n "$cudalib" && ln -sf "$cudalib" "$tmp/libcuda.so"
export LD_LIBRARY_PATH="$here/lib:$tmp${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_TARGET_OFFLOAD=mandatory

t0=$(date +%s)
( cd "$tmp" && timeout "$limit" "$here/gpu-bench.exe" "$sms" /dev/shm "$mib" ) \
  > "$tmp/bench.out" 2>&1
st=$?
sed 's/^bench: /llvm: /' "$tmp/bench.out"
echo "llvm: the benchmark took $(( $(date +%s) - t0 )) s (limit $limit s)"
test $st -eq 0 && timeout 60 "$here/gpu-launch.exe" 2>&1 | sed 's/^launch: /llvm: launch: /'
test $st -eq 124 && echo "llvm: gpu-bench.exe timed out"
test $st -eq 0 || { echo "llvm: gpu-bench.exe failed (status $st)"; exit 1; }

fig ()
{
  sed -n "s/^bench: $1 \([0-9.]*\) .*/\1/p" "$2" | head -n 1
}
awk -v oc="$(fig 'null-call 1 thread' "$ours")" -v lc="$(fig 'null-call 1 thread' "$tmp/bench.out")" \
    -v ow="$(fig 'null-call 1 warp\/SM' "$ours")" -v lw="$(fig 'null-call 1 warp\/SM' "$tmp/bench.out")" \
    -v oa="$(fig 'null-call all SMs rate' "$ours")" -v la="$(fig 'null-call all SMs rate' "$tmp/bench.out")" \
    -v ol="$(fig 'fprintf lines\/s' "$ours")" -v ll="$(fig 'fprintf lines\/s' "$tmp/bench.out")" \
    -v ofw="$(fig 'fwrite MB\/s' "$ours")" -v lfw="$(fig 'fwrite MB\/s' "$tmp/bench.out")" \
    -v ofr="$(fig 'fread MB\/s' "$ours")" -v lfr="$(fig 'fread MB\/s' "$tmp/bench.out")" \
    -v pp="$pp" 'BEGIN {
  if (lc != "" && pp != "")
    printf "ratio: LLVM null call / raw ping-pong %.2f\n", lc * 1000 / pp
  if (oc != "" && lc > 0)
    printf "ratio: null call 1 thread, ours / LLVM %.2f (goal <= 0.8)\n", oc / lc
  if (ow != "" && lw > 0)
    printf "ratio: null call 1 warp/SM, ours / LLVM %.2f\n", ow / lw
  if (oa != "" && la > 0)
    printf "ratio: null calls/s from all SMs, ours / LLVM %.2f\n", oa / la
  if (ol != "" && ll > 0)
    printf "ratio: fprintf lines/s from all SMs, ours / LLVM %.2f (goal >= 1.5)\n", ol / ll
  if (ofw != "" && lfw > 0)
    printf "ratio: fwrite MB/s, ours / LLVM %.1f\n", ofw / lfw
  if (ofr != "" && lfr > 0)
    printf "ratio: fread MB/s, ours / LLVM %.1f\n", ofr / lfr
}'
exit 0
