#!/bin/sh
# The copy out of a port buffer (tests/sim/copy-out.c): every
# misalignment, lengths 0..300, one lane and a warp's 32; exact bytes,
# loads inside the buffer, and the data-path rounds the batching
# promises.  Built plain and with AddressSanitizer and
# UndefinedBehaviorSanitizer.  Environment: TOP, GCC_SRC (the patched GCC
# tree, for libgomp-plugin.h), WORK, HOST_CC.
cc=${HOST_CC:-gcc-12}
work=$WORK/copy-out
rm -rf "$work"; mkdir -p "$work"
hs_srcs=$("$TOP/build-aux/hs-server-sources.sh" "$TOP")
incs="-I$TOP/tests/sim -I$TOP/libgomp/server-lib -I$TOP/libgomp -idirafter $GCC_SRC/libgomp"

run ()
{
  name=$1
  shift
  # shellcheck disable=SC2086
  if ! sh "$TOP/tests/sim/harness-cc.sh" "$cc" "$work/copy-out-$name" \
       -g -Wall -Wextra -Werror -pthread $incs "$@" \
       "$TOP/tests/sim/copy-out.c" $hs_srcs > "$work/build-$name.log" 2>&1; then
    echo "FAIL: copy-out[$name] does not build"
    cat "$work/build-$name.log"
    return
  fi
  "$work/copy-out-$name" > "$work/run-$name.log" 2> "$work/err-$name.log"
  st=$?
  sed "s/^\(PASS\|FAIL\): copy-out: /\1: copy-out[$name]: /" \
    "$work/run-$name.log"
  if test $st -ne 0 || ! grep -q '^PASS' "$work/run-$name.log"; then
    echo "FAIL: copy-out[$name] exited with status $st"
    tail -30 "$work/err-$name.log"
  fi
  if grep -q 'Sanitizer' "$work/err-$name.log"; then
    echo "FAIL: copy-out[$name] sanitizer report"
    grep -A20 'Sanitizer' "$work/err-$name.log" | head -60
  fi
}

run plain -O2
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  run asan -O1 -fsanitize=address,undefined -fno-omit-frame-pointer
