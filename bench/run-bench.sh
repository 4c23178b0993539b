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
# The server process, for "round trip, out of process" (not wrapped).
"$cc" -O2 -pthread -I"$top/libgomp/server-lib" -I"$top/libgomp" \
  -idirafter "$gcc_src/libgomp" -o "$work/gomp-hs-serve" \
  "$top/tools/gomp-hs-serve.c" \
  $("$top/build-aux/hs-server-sources.sh" "$top") -ldl || exit 1
GOMP_HOST_SERVICES_HELPER=$work/gomp-hs-serve "$work/hs-bench" "$@"
