#!/bin/sh
# Build gomp-nvptx-run, the launcher of standalone nvptx programs, on the
# server library installed in STAGE; the CUDA driver is loaded at run
# time, its types come from GCC's cuda.h.  Used by both GCC flavours.
# Usage: build-launcher.sh TOP_SRCDIR GCC_SRC STAGE OUTPUT
set -e
top=$1 gcc_src=$2 stage=$3 out=$4
echo "[launcher] gomp-nvptx-run"
"${HOST_CC:-gcc-12}" -O2 -g -Wall -Wextra -Werror -pthread -I"$stage/include" \
  -I"$top/libgomp" -I"$gcc_src/include/cuda" -o "$out" \
  "$top/tools/gomp-nvptx-run.c" "$stage/lib/libgomp-hs-server.a" -ldl
