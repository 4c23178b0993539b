#!/bin/sh
# Build and run the simulated-device benchmark; print its report.
# Usage: run-bench.sh TOP GCC_SRC WORKDIR [BYTES [BUF]]
top=$1 gcc_src=$2 work=$3
shift 3
cc=${HOST_CC:-gcc-12}
mkdir -p "$work"
# slow-fs.h: reads and closes of files named slowfs-* are slow.
"$cc" -O2 -pthread -Wl,--wrap=fstatfs,--wrap=read,--wrap=close \
  -I"$top/tests/sim" -I"$top/libgomp/server-lib" -I"$top/libgomp" \
  -idirafter "$gcc_src/libgomp" -o "$work/hs-bench" "$top/bench/hs-bench.c" \
  $("$top/build-aux/hs-server-sources.sh" "$top") || exit 1
"$work/hs-bench" "$@"
