#!/bin/sh
# The host side of the GCC 14 flavour, without a GPU: the simulator
# suite, the nvptx plugin's host-service code, the server library and
# the server process, as tested for GCC 12 (hs-sim.sh, callback-refuse.sh,
# hs-server-lib.sh, hs-process.sh), compiled against GCC 14's patched
# libgomp headers (build/gcc-14/gcc-src) and run with the GCC 14 stage:
# its libgomp.so.1, libgomp-hs-server.a and gomp-hs-serve.  The tests'
# lines say "gcc14:".  Environment: TOP, STAGE (the GCC 12 stage; the
# GCC 14 one is beside it in gcc-14/stage), WORK, HOST_CC.
b=$(dirname "$STAGE")/gcc-14
# make check records there that make gcc14 failed: what is staged, if
# anything, is not what this tree builds.
if test -f "$(dirname "$STAGE")/gcc-14/build-failed"; then
  echo "FAIL: gcc14: $(cat "$(dirname "$STAGE")/gcc-14/build-failed") ($(basename "$0"))"
  exit 0
fi
if ! test -x "$b/stage/bin/gomp-gcc" || ! test -f "$b/gcc-src/libgomp/libgomp-plugin.h"; then
  echo "UNSUPPORTED: gcc14: host side: no GCC 14 flavour built ($b; make gcc14)"
  exit 0
fi
w=$WORK/gcc14-host
rm -rf "$w"; mkdir -p "$w"
# The sources are those of the GCC 12 runs, whose sanitizer builds
# (ASan, UBSan, TSan) and largest payloads (64 MiB, 2500 kernels, 10000
# calls past a blocked port) are not repeated here: what GCC 14's headers
# can change is what the code compiles to, which the plain builds run,
# up to 4 MiB.
for t in hs-sim callback-refuse hs-server-lib hs-process; do
  HS_SIM_SANITIZERS=no HS_SIM_MAX=$((4 << 20)) \
    STAGE=$b/stage GCC_SRC=$b/gcc-src WORK=$w \
    sh "$TOP/tests/unit/$t.sh" > "$w/$t.out" 2>&1
  st=$?
  sed 's/^\(PASS\|FAIL\|UNSUPPORTED\): /\1: gcc14: /' "$w/$t.out"
  test $st = 0 || echo "FAIL: gcc14: $t.sh exited with status $st"
done
