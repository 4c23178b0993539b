#!/bin/sh
# Complete an install tree (the stage) whose libraries are built: the
# device C library and its headers, the ABI and Fortran headers, the
# drivers, the launcher, the nvptx compiler, the header of host
# services, the GCC major the drivers drive, and the manual.  Used by
# both GCC flavours (Makefile.am for GCC 12, build-gcc14.sh for GCC 14);
# make install copies the stage as it is.
# Usage: stage-tree.sh TOP_SRCDIR WORKDIR STAGE GCC_MAJOR CC1_PREFIX
#          NEWLIB_PREFIX LAUNCHER [HOST_CC1_DIR]
# (WORKDIR: where build-libgfortran-nvptx.sh built; LAUNCHER: the built
# gomp-nvptx-run; HOST_CC1_DIR: the patched host cc1 and cc1plus, GCC 12
# only.)
set -e
top=$1 work=$2 stage=$3 major=$4 cc1=$5 newlib=$6 launcher=$7 host_cc1=$8
devlib=$stage/lib/nvptx-none
echo "[stage] install tree: $stage"
# libg.a too: the nvptx driver links -lg before -lc whenever -g is given
# (its LIB_SPEC), and newlib's libg.a is a copy of libc.a.  Without one
# here, -lg would find Debian's (unpatched newlib, with its stub write).
for d in "" /mgomp; do
  cp "$newlib$d"/libc.a "$newlib$d"/libm.a "$devlib$d/"
  cp "$newlib$d"/libc.a "$devlib$d/libg.a"
done
rm -rf "$devlib/sys-include"
cp -R "$newlib/include" "$devlib/sys-include"
cp "$top/libgomp/config/nvptx/gomp-nvptx-abi.h" \
  "$work"/libgfortran-nvptx-default/nvptx-none/libgfortran/include/ISO_Fortran_binding.h \
  "$devlib/sys-include/"
mkdir -p "$stage/bin" "$stage/libexec/gomp-hs" "$stage/include" "$stage/share/info"
for t in gomp-gcc gomp-g++ gomp-gfortran gomp-nvptx-gcc; do
  cp "$top/tools/$t" "$stage/bin/$t"
done
ln -sf gomp-nvptx-gcc "$stage/bin/gomp-nvptx-gfortran"
cp "$launcher" "$stage/bin/gomp-nvptx-run"
cp "$top/tools/ptx-isa" "$stage/libexec/gomp-hs/ptx-isa"
echo "$major" > "$stage/libexec/gomp-hs/gcc-version"
"$top"/build-aux/stage-nvptx-compiler.sh "$cc1" "$stage/libexec/gomp-hs/nvptx-none"
if test -n "$host_cc1"; then
  cp "$host_cc1/cc1" "$host_cc1/cc1plus" "$stage/libexec/gomp-hs/"
fi
cp "$top/libgomp/gomp-host-services.h" "$stage/include/"
makeinfo --no-split -I "$top/libgomp" \
  -o "$stage/share/info/libgomp-host-services.info" \
  "$top/doc/libgomp-host-services.texi"
