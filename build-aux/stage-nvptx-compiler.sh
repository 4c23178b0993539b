#!/bin/sh
# Stage the part of the cached nvptx compiler (build-nvptx-cc1.sh) that
# gomp-nvptx-gcc and gomp-nvptx-gfortran drive: the driver, cc1, f951,
# collect2 and the links to nvptx-tools' as and ld, and GCC's own headers
# and Fortran modules; not lto1, mkoffload or lto-dump, which only the
# offload build uses.  Usage: stage-nvptx-compiler.sh CC1_PREFIX DEST
set -e
src=$1 dest=$2
rm -rf "$dest"
mkdir -p "$dest/bin"
cp -P "$src"/bin/x86_64-linux-gnu-accel-nvptx-none-gcc "$src"/bin/nvptx-none-gcc \
  "$dest/bin/"
for d in "$src"/libexec/gcc/x86_64-linux-gnu/*/accel/nvptx-none; do
  rel=${d#"$src"/}
  mkdir -p "$dest/$rel"
  for t in cc1 f951 collect2 as ld; do
    cp -P "$d/$t" "$dest/$rel/"
  done
done
cp -RP "$src/lib" "$dest/"
