#!/bin/sh
# Fuzz smoke test of the host-service server: build the libFuzzer harness
# (tests/fuzz/hs-fuzz.c) with ASan and UBSan, replay the corpus and the
# regression inputs (once, and many times over in one process, watching
# memory), check that the harness reports the faults it is meant to (a
# leaked descriptor, a hang, a path out of its scratch directory), then
# fuzz for FUZZ_CHECK_TIME seconds (default 60).  UNSUPPORTED without
# clang-14's libFuzzer.
# Environment: TOP, GCC_SRC, WORK.
cc=${FUZZ_CC:-clang-14}
work=$WORK/fuzz
secs=${FUZZ_CHECK_TIME:-60}
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"

if ! command -v "$cc" > /dev/null 2>&1; then
  echo "UNSUPPORTED: fuzz: $cc is not installed (Debian: clang-14 libclang-rt-14-dev)"
  exit 0
fi
printf 'int LLVMFuzzerTestOneInput (const unsigned char *d, unsigned long n)\n{ (void) d; (void) n; return 0; }\n' \
  > "$work/probe.c"
if ! "$cc" -fsanitize=fuzzer,address,undefined -o "$work/probe" "$work/probe.c" \
     > "$work/probe.log" 2>&1; then
  echo "UNSUPPORTED: fuzz: $cc cannot link libFuzzer (Debian: libclang-rt-14-dev)"
  exit 0
fi

if "$TOP/tests/fuzz/build-fuzz.sh" "$TOP" "$GCC_SRC" "$work/hs-fuzz" fuzz \
     > "$work/build.log" 2>&1; then
  echo "PASS: fuzz: the harness builds (clang -fsanitize=fuzzer,address,undefined)"
else
  echo "FAIL: fuzz: the harness does not build"
  tail -30 "$work/build.log"
  exit 0
fi
fz=$work/hs-fuzz

# Every input of the corpus and every regression input runs clean.
n=$(find "$TOP/tests/fuzz/corpus" "$TOP/tests/fuzz/regress" -type f | wc -l)
if "$fz" -close_fd_mask=3 -runs=0 -artifact_prefix="$work/artifacts/" \
     "$TOP/tests/fuzz/corpus" \
     "$TOP/tests/fuzz/regress" > "$work/replay.log" 2>&1; then
  echo "PASS: fuzz: the $n inputs of tests/fuzz/corpus and tests/fuzz/regress run clean"
else
  echo "FAIL: fuzz: an input of tests/fuzz/corpus or tests/fuzz/regress fails"
  grep -E 'FINDING|ERROR|SUMMARY|Running:' "$work/replay.log" | tail -20
fi

# Memory does not pile up across inputs (what LeakSanitizer cannot see:
# memory still reachable): the same inputs replayed in one process, the
# allocated bytes after each pass compared (tests/fuzz/replay.c).  Passes
# times inputs stay under 4096, where the harness re-creates its servers.
passes=$((4000 / (n > 0 ? n : 1)))
test $passes -gt 20 && passes=20
test $passes -lt 3 && passes=3
if "$TOP/tests/fuzz/build-fuzz.sh" "$TOP" "$GCC_SRC" "$work/replay" replay \
     > "$work/build-replay.log" 2>&1; then
  HS_FUZZ_SCRATCH_BASE=$work "$work/replay" $passes "$TOP/tests/fuzz/corpus" \
    "$TOP/tests/fuzz/regress" > "$work/replay-mem.log" 2> "$work/replay-mem.err"
  st=$?
  if grep -q '^PASS:' "$work/replay-mem.log" && test $st -eq 0; then
    grep '^PASS:' "$work/replay-mem.log"
  else
    echo "FAIL: fuzz: memory or threads grow across inputs (status $st)"
    tail -5 "$work/replay-mem.log" "$work/replay-mem.err"
  fi
else
  echo "FAIL: fuzz: the replayer does not build"
  tail -20 "$work/build-replay.log"
fi

# The harness's own checks work: a leaked descriptor and a hang are
# reported.  (Runs that end in a finding leave their scratch directory
# behind: keep it in WORK.)
: > "$work/empty"
for t in fdleak:'FINDING: host descriptor leak' hang:'FINDING: HANG'; do
  name=${t%%:*} pat=${t#*:}
  HS_FUZZ_SELFTEST=$name HS_FUZZ_SCRATCH_BASE=$work "$fz" -runs=1 \
    -artifact_prefix="$work/selftest-$name-" "$work/empty" \
    > "$work/selftest-$name.log" 2>&1
  st=$?
  if test $st -ne 0 && grep -q "$pat" "$work/selftest-$name.log"; then
    echo "PASS: fuzz: the harness reports an injected fault ($name)"
  else
    echo "FAIL: fuzz: the harness misses an injected fault ($name, status $st)"
    tail -5 "$work/selftest-$name.log"
  fi
done

# Confinement: built without the harness's path filter (the default), the harness
# must see the device's "/dev/null", ".." and "/" open only things in its
# scratch directory once the server confines paths to
# GOMP_HOST_SERVICES_ROOT; until then it must catch the escape.  Only this
# one input runs unfiltered (it opens those read-only).
if "$TOP/tests/fuzz/build-fuzz.sh" "$TOP" "$GCC_SRC" "$work/hs-fuzz-nofilter" \
     fuzz -DHS_FUZZ_FILTER_PATHS=0 > "$work/build-nofilter.log" 2>&1; then
  HS_FUZZ_SCRATCH_BASE=$work "$work/hs-fuzz-nofilter" -runs=1 \
    -artifact_prefix="$work/artifacts/" \
    "$TOP/tests/fuzz/regress/seed-confine" > "$work/confine.log" 2>&1
  st=$?
  if grep -q GOMP_HOST_SERVICES_ROOT "$TOP"/libgomp/host-service*.c; then
    if test $st -eq 0; then
      echo "PASS: fuzz: GOMP_HOST_SERVICES_ROOT keeps absolute paths and .. inside the root"
    else
      echo "FAIL: fuzz: GOMP_HOST_SERVICES_ROOT does not confine the device's paths"
      grep -E 'FINDING|ERROR' "$work/confine.log" | head -5
    fi
  elif grep -q 'FINDING: CONFINEMENT' "$work/confine.log"; then
    echo "UNSUPPORTED: fuzz: paths not confined by the server yet (GOMP_HOST_SERVICES_ROOT): the harness filters them"
  else
    echo "FAIL: fuzz: the harness misses a device path that leaves its scratch directory"
    tail -5 "$work/confine.log"
  fi
else
  echo "FAIL: fuzz: the harness does not build without its path filter"
  tail -20 "$work/build-nofilter.log"
fi

# Fuzz.
"$fz" -close_fd_mask=3 -max_total_time="$secs" -timeout=60 -max_len=4096 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus" \
  "$TOP/tests/fuzz/corpus" "$TOP/tests/fuzz/regress" > "$work/fuzz.log" 2>&1
st=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/fuzz.log")
found=$(ls "$work/artifacts" | grep -cE '^(crash|leak|timeout|oom)-')
if test $st -eq 0 && test "$found" -eq 0 && test "${execs:-0}" -ge 1000; then
  echo "PASS: fuzz: $secs s, ${execs} executions (${rate}/s), no findings"
else
  echo "FAIL: fuzz: $secs s, ${execs:-0} executions, status $st, $found finding(s) in $work/artifacts"
  grep -E 'hs-fuzz: FINDING|^SUMMARY|ERROR: ' "$work/fuzz.log" | head -10
fi
