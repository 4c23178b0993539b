#!/bin/sh
# The sandbox of a process that serves the device (host-service-sandbox.c,
# gomp_hs_sandbox; tests/sim/sandbox.c): what serving needs works, what
# it must not do fails, and the same calls succeed without it.  Linked
# with the server's sources (build-aux/hs-server-sources.sh); built plain
# and with AddressSanitizer and UndefinedBehaviorSanitizer.  Environment:
# TOP, GCC_SRC (the patched GCC tree, for libgomp-plugin.h), WORK,
# HOST_CC.
cc=${HOST_CC:-gcc-12}
work=$WORK/sandbox
rm -rf "$work"; mkdir -p "$work"
hs_srcs=$("$TOP/build-aux/hs-server-sources.sh" "$TOP")
incs="-I$TOP/tests/sim -I$TOP/libgomp/server-lib -I$TOP/libgomp -idirafter $GCC_SRC/libgomp"

run ()
{
  name=$1
  shift
  # shellcheck disable=SC2086
  if ! sh "$TOP/tests/sim/harness-cc.sh" "$cc" "$work/sandbox-$name" \
       -g -Wall -Wextra -Werror -pthread $incs "$@" \
       "$TOP/tests/sim/sandbox.c" $hs_srcs -ldl > "$work/build-$name.log" 2>&1; then
    echo "FAIL: sandbox[$name] does not build"
    cat "$work/build-$name.log"
    return
  fi
  "$work/sandbox-$name" > "$work/run-$name.log" 2> "$work/err-$name.log"
  st=$?
  sed "s/^\(PASS\|FAIL\|UNSUPPORTED\): sandbox: /\1: sandbox[$name]: /" \
    "$work/run-$name.log"
  if test $st -ne 0 || ! grep -q '^\(PASS\|UNSUPPORTED\)' "$work/run-$name.log"
  then
    echo "FAIL: sandbox[$name] exited with status $st"
    tail -30 "$work/err-$name.log"
  fi
  if grep -q 'Sanitizer' "$work/err-$name.log"; then
    echo "FAIL: sandbox[$name] sanitizer report"
    grep -A20 'Sanitizer' "$work/err-$name.log" | head -60
  fi
}

run plain -O2
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  run asan -O1 -fsanitize=address,undefined -fno-omit-frame-pointer
