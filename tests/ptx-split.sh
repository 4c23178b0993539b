#!/bin/sh
# The PTX modules of an nvptx-none executable (nvptx-ld separates them
# with NUL bytes) as DIR/module-NNN.ptx.  Usage: ptx-split.sh EXE DIR
rm -rf "$2"; mkdir "$2" || exit 1
tr '\000' '\036' < "$1" \
  | awk -v d="$2" 'BEGIN { RS = "\036" }
	/\.version/ { f = sprintf ("%s/module-%03d.ptx", d, n++); printf "%s", $0 > f; close (f) }'
