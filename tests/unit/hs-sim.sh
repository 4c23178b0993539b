#!/bin/sh
# The simulated device (tests/sim/hs-sim.c), built three ways and run:
# plain (payloads up to 64 MiB), with AddressSanitizer and
# UndefinedBehaviorSanitizer, and with ThreadSanitizer (smaller payloads:
# the sanitizers are slow).  Also checks that GOMP_DEBUG=1 traces every
# call.  Environment: TOP, GCC_SRC (the patched GCC tree, for
# libgomp-plugin.h), WORK, HOST_CC, HS_SIM_SANITIZERS: "no" builds
# each harness once, without sanitizers, and HS_SIM_MAX: the plain run's
# largest payload (default 64 MiB; tests/unit/gcc14-host.sh sets both:
# the same sources against GCC 14's headers, where the sanitizer runs and
# the largest payloads would repeat these).
cc=${HOST_CC:-gcc-12}
work=$WORK/sim
rm -rf "$work"; mkdir -p "$work"
hs_srcs=$("$TOP/build-aux/hs-server-sources.sh" "$TOP")
srcs="$TOP/tests/sim/hs-sim.c $hs_srcs"
incs="-I$TOP/tests/sim -I$TOP/libgomp/server-lib -I$TOP/libgomp -idirafter $GCC_SRC/libgomp"
# plugin-hs.c includes plugin/host-service-nvptx.c.

run ()
{
  name=$1 max=$2
  shift 2
  if test "${HS_SIM_SANITIZERS:-yes}" = no; then
    case $name in asan|tsan|poller-tsan) return ;; esac
    for a do
      shift
      case $a in -fsanitize=*|-fno-omit-frame-pointer) ;; *) set -- "$@" "$a" ;; esac
    done
  fi
  # shellcheck disable=SC2086
  if ! sh "$TOP/tests/sim/harness-cc.sh" "$cc" "$work/hs-sim-$name" \
       -g -O1 -Wall -Wextra -Werror -pthread $incs "$@" $srcs \
       > "$work/build-$name.log" 2>&1; then
    echo "FAIL: sim[$name] does not build"
    cat "$work/build-$name.log"
    return
  fi
  TMPDIR=$work timeout 900 "$work/hs-sim-$name" "$max" > "$work/run-$name.log" \
    2> "$work/err-$name.log"
  st=$?
  sed "s/^\(PASS\|FAIL\): \(sim\|plugin\) /\1: \2[$name] /" \
    "$work/run-$name.log"
  if test $st -ne 0 && ! grep -q '^FAIL' "$work/run-$name.log"; then
    echo "FAIL: sim[$name] exited with status $st"
    tail -30 "$work/err-$name.log"
  fi
  if grep -q 'Sanitizer' "$work/err-$name.log"; then
    echo "FAIL: sim[$name] sanitizer report"
    grep -A20 'Sanitizer' "$work/err-$name.log" | head -60
  fi
}

run plain "${HS_SIM_MAX:-$((64 << 20))}" -O2
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  run asan $((4 << 20)) -fsanitize=address,undefined -fno-omit-frame-pointer
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  run tsan $((1 << 20)) -fsanitize=thread

# The nvptx plugin's host-service code against stand-ins for CUDA
# (tests/sim/plugin-hs.c), with ASan and UBSan.
srcs="$TOP/tests/sim/plugin-hs.c $hs_srcs"
# With the staged server process, the plugin's GOMP_HOST_SERVICES_SERVER=process
# path too.
test -n "$STAGE" && test -x "$STAGE/libexec/gomp-hs/gomp-hs-serve" \
  && export GOMP_HOST_SERVICES_HELPER="$STAGE/libexec/gomp-hs/gomp-hs-serve"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  run plugin 0 -fsanitize=address,undefined -fno-omit-frame-pointer
unset GOMP_HOST_SERVICES_HELPER

# A worker that cannot be started while shutdown runs
# (tests/sim/handoff-fail.c): thread creation and locking are wrapped to
# force the interleaving.
srcs="$TOP/tests/sim/handoff-fail.c $hs_srcs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  run handoff 0 -fsanitize=address,undefined -fno-omit-frame-pointer \
  -Wl,--wrap=pthread_create,--wrap=pthread_mutex_lock

# What may block never stalls the poller (tests/sim/poller-blocking.c):
# reads and closes of files on a slow file system (slow-fs.h wraps
# fstatfs, read and close), a write to a pipe whose reader waits; the
# pipe's data arrives whole and in order.  With ASan and UBSan, and with
# ThreadSanitizer (the write's hand-off from the poller to a worker).
srcs="$TOP/tests/sim/poller-blocking.c $hs_srcs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  run poller-asan 0 -fsanitize=address,undefined -fno-omit-frame-pointer \
  -Wl,--wrap=fstatfs,--wrap=read,--wrap=close
TSAN_OPTIONS=halt_on_error=1 \
  run poller-tsan 0 -fsanitize=thread -Wl,--wrap=fstatfs,--wrap=read,--wrap=close

# The device's exit while a host thread is blocked in a Fortran READ
# (tests/sim/exit-fortran.c): the host's Fortran units are flushed
# without waiting for the one the READ holds; then with flushing threads
# that cannot be created (thread creation is wrapped), and two devices
# exiting at once, each within the one deadline.
fc=${HOST_FC:-gfortran-12}
if command -v "$fc" > /dev/null 2>&1 \
   && "$fc" -O2 -c "$TOP/tests/sim/exit-fortran.f90" -o "$work/exit-fortran.o" \
	> "$work/build-exit-fortran.log" 2>&1; then
  srcs="$TOP/tests/sim/exit-fortran.c $hs_srcs $work/exit-fortran.o -lgfortran"
  run exit-fortran 0 -O2 -Wl,--wrap=pthread_create
else
  echo "UNSUPPORTED: sim exit with a Fortran READ blocked ($fc cannot compile it)"
fi

# GOMP_DEBUG=1: one trace line per call, with op name, fd, size, result
# and errno (the opcode and bad-request checks alone: they make each kind
# of line below).
if test -x "$work/hs-sim-plain"; then
  GOMP_DEBUG=1 TMPDIR=$work "$work/hs-sim-plain" 4096 trace > /dev/null \
    2> "$work/trace.log"
  for pat in \
    'host-service: port [0-9]*: open (fd [0-9-]*, [0-9]* bytes) = [0-9]*, errno 0' \
    'host-service: port [0-9]*: write (fd 3, 11 bytes) = 11, errno 0' \
    'host-service: port [0-9]*: stat (fd 0, [0-9]* bytes) = -1, errno 2' \
    'host-service: port [0-9]*: close (fd 3, 0 bytes) = -1, errno 9' \
    'host-service: port [0-9]*: ? (fd 0, 0 bytes) = -1, errno 38'; do
    if grep -q "$pat" "$work/trace.log"; then
      echo "PASS: sim GOMP_DEBUG trace: $pat"
    else
      echo "FAIL: sim GOMP_DEBUG trace: no line like '$pat'"
    fi
  done
fi
