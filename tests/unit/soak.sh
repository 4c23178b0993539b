#!/bin/sh
# A short soak (tests/soak/hs-soak.c; the full one is 'make soak'): 512
# simulated clients make 10000 calls of random kinds and sizes through
# 64-byte and 64-KiB ports; every byte, result and descriptor is checked.
# Environment: TOP, GCC_SRC, WORK, HOST_CC.
cc=${HOST_CC:-gcc-12}
work=$WORK/soak
rm -rf "$work"
mkdir -p "$work/tmp"
# shellcheck disable=SC2046
if ! sh "$TOP/tests/sim/harness-cc.sh" "$cc" "$work/hs-soak" -O2 -g -Wall \
     -Wextra -Werror -pthread -I"$TOP/tests/sim" -I"$TOP/libgomp/server-lib" \
     -I"$TOP/libgomp" -idirafter "$GCC_SRC/libgomp" "$TOP/tests/soak/hs-soak.c" \
     $("$TOP/build-aux/hs-server-sources.sh" "$TOP") > "$work/build.log" 2>&1; then
  echo "FAIL: soak does not build"
  cat "$work/build.log"
  exit 0
fi
GLIBC_TUNABLES=glibc.malloc.tcache_count=0 TMPDIR=$work/tmp timeout 600 \
  "$work/hs-soak" 10000 512 > "$work/soak.log" 2>&1
st=$?
grep -E '^(PASS|FAIL):' "$work/soak.log"
grep -v -E '^(PASS|FAIL):' "$work/soak.log" | sed 's/^/  /'
if test $st -ne 0 && ! grep -q '^FAIL' "$work/soak.log"; then
  echo "FAIL: soak exited with status $st"
fi
