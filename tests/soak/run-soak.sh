#!/bin/sh
# make soak: build tests/soak/hs-soak.c against the host-service server
# and run it.  Usage: run-soak.sh TOP GCC_SRC WORK [CALLS [CLIENTS]]
# (defaults 1000000 and 512).  Files go to WORK/tmp.
top=$1 gcc_src=$2 work=$3
shift 3
cc=${HOST_CC:-gcc-12}
mkdir -p "$work/tmp"
# shellcheck disable=SC2046
"$cc" -O2 -g -Wall -Wextra -pthread -I"$top/tests/sim" \
  -I"$top/libgomp/server-lib" -I"$top/libgomp" -idirafter "$gcc_src/libgomp" \
  -o "$work/hs-soak" "$top/tests/soak/hs-soak.c" \
  $("$top/build-aux/hs-server-sources.sh" "$top") || exit 1
echo "[soak] $(getconf _NPROCESSORS_ONLN) CPUs, $(uname -sr)"
# No per-thread malloc caches: 512 client threads filling theirs would
# look like growth of the heap in use (see hs-soak.c).
GLIBC_TUNABLES=glibc.malloc.tcache_count=0 TMPDIR=$work/tmp "$work/hs-soak" "$@"
