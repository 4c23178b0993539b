#!/bin/sh
# Build tests/sim/callback-refuse.c against the staged libgomp.so and run
# it.  Environment: TOP, STAGE, GCC_SRC, WORK, HOST_CC.
cc=${HOST_CC:-gcc-12}
if "$cc" -O1 -fopenmp -foffload=disable -I"$TOP/tests/sim" -I"$TOP/libgomp/server-lib" \
     -I"$TOP/libgomp" \
     -idirafter "$GCC_SRC/libgomp" -o "$WORK/callback-refuse" \
     "$TOP/tests/sim/callback-refuse.c" -L"$STAGE/lib" \
     -Wl,-rpath,"$STAGE/lib" -pthread > "$WORK/callback-refuse.log" 2>&1; then
  "$WORK/callback-refuse"
else
  echo "FAIL: callback-refuse does not build"
  cat "$WORK/callback-refuse.log"
fi
