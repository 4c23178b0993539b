#!/bin/sh
# GOMP_HOST_SERVICES_SERVER=process (libgomp/host-service-process.c): the
# staged server process, libexec/gomp-hs/gomp-hs-serve, serves the
# simulated device.  Its faults and confinement
# (tests/sim/process-faults.c), a hostile device
# (tests/sim/process-fuzz.c), then the whole simulator suite
# (tests/sim/hs-sim.c) and the short soak (tests/soak/hs-soak.c) with
# only the variable set.  Environment: TOP, STAGE, GCC_SRC, WORK, HOST_CC.
cc=${HOST_CC:-gcc-12}
work=$WORK/hs-process
rm -rf "$work"; mkdir -p "$work/tmp"
helper=$STAGE/libexec/gomp-hs/gomp-hs-serve
if ! test -x "$helper"; then
  echo "FAIL: hs-process: $helper is not installed"
  exit 0
fi
"$helper" > "$work/usage.log" 2>&1
st=$?
if test $st -eq 2 && grep -q 'libgomp starts it' "$work/usage.log"; then
  echo "PASS: hs-process: gomp-hs-serve run by hand says what it is (status 2)"
else
  echo "FAIL: hs-process: gomp-hs-serve run by hand: status $st"
fi
hs_srcs=$("$TOP/build-aux/hs-server-sources.sh" "$TOP")
incs="-I$TOP/tests/sim -I$TOP/libgomp/server-lib -I$TOP/libgomp -idirafter $GCC_SRC/libgomp"
build ()
{
  # shellcheck disable=SC2086
  if ! sh "$TOP/tests/sim/harness-cc.sh" "$cc" "$work/$1" -O2 -g -Wall \
       -Wextra -Werror -pthread $incs "$2" $hs_srcs -ldl \
       > "$work/build-$1.log" 2>&1; then
    echo "FAIL: hs-process: $1 does not build"
    cat "$work/build-$1.log"
    return 1
  fi
}
export GOMP_HOST_SERVICES_HELPER="$helper"

if build process-faults "$TOP/tests/sim/process-faults.c"; then
  timeout 300 "$work/process-faults" "$work/tmp" > "$work/faults.log" \
    2> "$work/faults.err"
  st=$?
  grep -E '^(PASS|FAIL):' "$work/faults.log"
  test $st -eq 0 || { echo "FAIL: hs-process: process-faults exited with status $st"; tail -5 "$work/faults.err"; }
  grep -q 'the server process [0-9]* was killed by signal 9; device calls fail with EPIPE' \
      "$work/faults.err" \
    && echo "PASS: hs-process: the death of the server process is said on stderr" \
    || echo "FAIL: hs-process: the death of the server process is not said"
  GOMP_DEBUG=1 timeout 60 "$work/process-faults" "$work/tmp" announce \
    > /dev/null 2> "$work/announce.err"
  grep -Eq '^host-service: serving from process [0-9]+$' "$work/announce.err" \
    && echo "PASS: hs-process: GOMP_DEBUG=1 says 'host-service: serving from process PID'" \
    || echo "FAIL: hs-process: GOMP_DEBUG=1 does not announce the server process"
  timeout 60 "$work/process-faults" "$work/tmp" bad 2> "$work/bad.err" \
    | grep -E '^(PASS|FAIL):'
  grep -q 'GOMP_HOST_SERVICES_SERVER=proces is not thread or process' "$work/bad.err" \
    && echo "PASS: hs-process: a misspelt GOMP_HOST_SERVICES_SERVER is said on stderr" \
    || echo "FAIL: hs-process: a misspelt GOMP_HOST_SERVICES_SERVER is not said"
  GOMP_HOST_SERVICES_HELPER=$work/no-such-helper timeout 60 \
    "$work/process-faults" "$work/tmp" missing 2> "$work/missing.err" \
    | grep -E '^(PASS|FAIL):'
  grep -q "cannot start the server process $work/no-such-helper" "$work/missing.err" \
    && echo "PASS: hs-process: a missing gomp-hs-serve is said on stderr" \
    || echo "FAIL: hs-process: a missing gomp-hs-serve is not said"
fi

# A hostile device (tests/sim/process-fuzz.c): random rounds, a fixed
# seed (PROCESS_FUZZ_SEED, PROCESS_FUZZ_ROUNDS for more); with
# GOMP_DEBUG=1, so that a call the sandbox refuses would be said.
if build process-fuzz "$TOP/tests/sim/process-fuzz.c"; then
  mkdir -p "$work/fuzz"
  GOMP_DEBUG=1 timeout 600 "$work/process-fuzz" "$work/fuzz" \
    "${PROCESS_FUZZ_ROUNDS:-30000}" "${PROCESS_FUZZ_SEED:-1}" < /dev/null \
    > "$work/fuzz.log" 2> "$work/fuzz.err"
  st=$?
  grep -E '^(PASS|FAIL):' "$work/fuzz.log"
  test $st -eq 0 || { echo "FAIL: hs-process: process-fuzz exited with status $st"; grep -v '^PASS' "$work/fuzz.log" | tail -5; }
  if grep -q 'refused by the sandbox' "$work/fuzz.err"; then
    echo "FAIL: hs-process: the sandbox refused calls of the server: $(grep 'refused by the sandbox' "$work/fuzz.err" | sort -u | head -3 | tr '\n' ' ')"
  else
    echo "PASS: hs-process: no call of the server process was refused by its sandbox"
  fi
fi

# Everything the simulator checks, against the server process.
if build hs-sim "$TOP/tests/sim/hs-sim.c"; then
  GOMP_HOST_SERVICES_SERVER=process TMPDIR=$work/tmp timeout 900 \
    "$work/hs-sim" $((4 << 20)) > "$work/sim.log" 2> "$work/sim.err"
  st=$?
  sed -n 's/^\(PASS\|FAIL\|UNSUPPORTED\): sim /\1: sim[process] /p' "$work/sim.log"
  if test $st -ne 0 && ! grep -q '^FAIL' "$work/sim.log"; then
    echo "FAIL: sim[process] exited with status $st"
    tail -20 "$work/sim.err"
  fi
fi
if build hs-soak "$TOP/tests/soak/hs-soak.c"; then
  GOMP_HOST_SERVICES_SERVER=process GLIBC_TUNABLES=glibc.malloc.tcache_count=0 \
    TMPDIR=$work/tmp timeout 600 "$work/hs-soak" 10000 512 > "$work/soak.log" 2>&1
  st=$?
  sed -n 's/^\(PASS\|FAIL\): soak /\1: soak[process] /p' "$work/soak.log"
  grep -v -E '^(PASS|FAIL):' "$work/soak.log" | sed 's/^/  /'
  if test $st -ne 0 && ! grep -q '^FAIL' "$work/soak.log"; then
    echo "FAIL: soak[process] exited with status $st"
  fi
fi
