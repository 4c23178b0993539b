#!/bin/sh
# Build and run the examples with gomp-gcc (C) and gomp-gfortran (Fortran)
# from an install tree.  (reverse-offload.c needs gomp-gcc's compilers:
# it uses OpenMP reverse offload.)
# Usage: run-demo.sh STAGE WORKDIR
set -e
stage=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
cd "$work"
for src in "$here"/*.c; do
  name=$(basename "$src" .c)
  echo "== $name: $stage/bin/gomp-gcc -O2 -fopenmp -foffload=nvptx-none $name.c"
  "$stage"/bin/gomp-gcc -O2 -fopenmp -foffload=nvptx-none "$src" -o "$name"
  ./"$name"
done
for src in "$here"/*.f90; do
  name=$(basename "$src" .f90)
  echo "== $name: $stage/bin/gomp-gfortran -O2 -fopenmp -foffload=nvptx-none $name.f90"
  "$stage"/bin/gomp-gfortran -O2 -fopenmp -foffload=nvptx-none "$src" -o "$name"
  ./"$name"
done
