#!/bin/sh
# Build the libFuzzer harness tests/fuzz/hs-fuzz.c with the host-service
# server compiled in (as tests/unit/hs-sim.sh builds the simulated device).
# Usage: build-fuzz.sh TOP GCC_SRC OUT [fuzz|cov|replay] [compiler flags]
#   fuzz (default): -fsanitize=fuzzer,address,undefined, UB fatal;
#   cov: -fsanitize=fuzzer with clang's source coverage, for llvm-cov;
#   replay: ASan and UBSan, with tests/fuzz/replay.c for a main instead
#     of libFuzzer's (inputs replayed several times, memory watched).
# Environment: FUZZ_CC (default clang-14).
top=$1 gcc_src=$2 out=$3 kind=${4:-fuzz}
shift 3
test $# -gt 0 && shift
cc=${FUZZ_CC:-clang-14}
main=
case $kind in
  cov) flags="-O1 -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping" ;;
  replay) flags="-O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
	  main=$top/tests/fuzz/replay.c ;;
  *) flags="-O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined" ;;
esac
common="-g $flags -fno-omit-frame-pointer -Wall -Wextra -pthread
  -I$top/tests/sim -I$top/libgomp/server-lib -I$top/libgomp
  -idirafter $gcc_src/libgomp"
# The harness's own comparisons are not worth tracing (its loops over
# payloads would cost more than the server): edge coverage only.
# shellcheck disable=SC2086
"$cc" $common "$@" -fno-sanitize-coverage=trace-cmp -c -o "$out.harness.o" \
  "$top/tests/fuzz/hs-fuzz.c" || exit 1
# shellcheck disable=SC2046,SC2086
exec "$cc" $common "$@" -o "$out" "$out.harness.o" $main \
  $("$top/build-aux/hs-server-sources.sh" "$top")
