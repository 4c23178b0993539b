#!/bin/sh
# Build and run the examples with gomp-gcc (C) and gomp-gfortran (Fortran),
# and the standalone ones (standalone/) with gomp-nvptx-gcc and gomp-nvptx-run,
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
# Standalone GPU programs: built with gomp-nvptx-gcc, run with
# gomp-nvptx-run where there is a GPU (status 127: no driver or device).
for src in "$here"/standalone/*.c; do
  name=$(basename "$src" .c)
  echo "== standalone $name: $stage/bin/gomp-nvptx-gcc -O2 $name.c"
  "$stage"/bin/gomp-nvptx-gcc -O2 "$src" -o "$name.nvptx"
  echo "== $stage/bin/gomp-nvptx-run ./$name.nvptx $name.c"
  st=0
  "$stage"/bin/gomp-nvptx-run ./"$name.nvptx" "$src" || st=$?
  case $st in
    0) ;;
    127) echo "(no GPU here: built, not run)" ;;
    *) exit "$st" ;;
  esac
done
