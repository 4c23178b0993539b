#!/bin/sh
# A device run: unpack gpu-bundle.tar.xz (made by make gpu-bundle) where
# there is room, run its gpu-check.sh, and leave the log in $OUT.  The
# device machine has no compiler and may have no xz: Python's lzma
# unpacks it then.
# Usage (from the repository root, carrying gpu-bundle.tar.xz):
#   sh bench/gpu-run.sh
archive=${1:-gpu-bundle.tar.xz}
dest=${TMPDIR:-/tmp}/gpu-run.$$
mkdir -p "$dest"
if command -v xz > /dev/null 2>&1; then
  xz -dc "$archive" | tar -C "$dest" -xf - || exit 1
else
  python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1], "r:xz").extractall(sys.argv[2])' \
    "$archive" "$dest" || exit 1
fi
exec sh "$dest/gpu-bundle/gpu-check.sh"
