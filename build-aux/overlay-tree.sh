#!/bin/sh
# Copy this project's own files (libgomp, libgfortran and libgcc, less
# libgomp's DejaGnu tests) over a patched GCC tree, each one only when it
# differs from the tree's copy, so that the libraries' builds from that
# tree stay incremental.  Used by both GCC flavours.
# Usage: overlay-tree.sh TOP_SRCDIR TREE
set -e
top=$1 tree=$2
echo "[overlay] project files -> $tree"
( cd "$top" && find libgomp libgfortran libgcc -type f ! -path 'libgomp/testsuite/*' ) |
while read -r f; do
  cmp -s "$top/$f" "$tree/$f" && continue
  mkdir -p "$tree/$(dirname "$f")"
  cp "$top/$f" "$tree/$f"
done
