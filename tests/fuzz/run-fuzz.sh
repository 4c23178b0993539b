#!/bin/sh
# make fuzz: build the harness (tests/fuzz/hs-fuzz.c), fuzz the
# host-service server for a while, and report executions and findings.
# Usage: run-fuzz.sh TOP GCC_SRC WORK
# Environment:
#   FUZZ_TIME=S      seconds to fuzz (default 600)
#   FUZZ_JOBS=N      fuzzing processes side by side (default: CPUs online)
#   FUZZ_MERGE=1     afterwards, minimize tests/fuzz/corpus with what was
#                    found (libFuzzer -merge=1, by edge coverage) and
#                    write it back
#   FUZZ_COVERAGE=0  skip the line coverage report (llvm-cov-14)
#   FUZZ_ARGS        more libFuzzer flags
# The corpus in the tree is only read; new inputs go to WORK/corpus.
# Findings (crash-*, leak-*, timeout-*, oom-*) go to WORK/artifacts; the
# exit status is 1 if there is any.
top=$1 gcc_src=$2 work=$3
time_s=${FUZZ_TIME:-600}
jobs=${FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
tree_corpus=$top/tests/fuzz/corpus
regress=$top/tests/fuzz/regress
mkdir -p "$work/corpus" "$work/artifacts"
work=$(cd "$work" && pwd)

if ! command -v "${FUZZ_CC:-clang-14}" > /dev/null; then
  echo "fuzz: ${FUZZ_CC:-clang-14} not found (Debian: clang-14 libclang-rt-14-dev)"
  exit 2
fi
echo "[fuzz] building $work/hs-fuzz"
"$top/tests/fuzz/build-fuzz.sh" "$top" "$gcc_src" "$work/hs-fuzz" fuzz || exit 2

# The regression inputs first: each must run clean.
echo "[fuzz] replaying the $(find "$tree_corpus" "$regress" -type f | wc -l) inputs of tests/fuzz/corpus and tests/fuzz/regress"
if ! "$work/hs-fuzz" -close_fd_mask=3 -runs=0 "$tree_corpus" "$regress" \
     > "$work/replay.log" 2>&1; then
  echo "[fuzz] FINDING while replaying the corpus:"
  grep -E 'FINDING|ERROR|SUMMARY|Running' "$work/replay.log" | head -20
  exit 1
fi

echo "[fuzz] $jobs job(s) for $time_s s (logs: $work/fuzz-N.log)"
rm -f "$work"/fuzz-*.log
start=$(date +%s)
i=0
while test $i -lt "$jobs"; do
  # shellcheck disable=SC2086
  "$work/hs-fuzz" -close_fd_mask=3 -max_total_time="$time_s" -timeout=60 \
    -max_len=4096 -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
    $FUZZ_ARGS "$work/corpus" "$tree_corpus" "$regress" \
    > "$work/fuzz-$i.log" 2>&1 &
  i=$((i + 1))
done
wait
end=$(date +%s)

execs=0 rate=0 new=0 rss=0
for l in "$work"/fuzz-*.log; do
  e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$l")
  r=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$l")
  n=$(sed -n 's/^stat::new_units_added: *//p' "$l")
  m=$(sed -n 's/^stat::peak_rss_mb: *//p' "$l")
  execs=$((execs + ${e:-0}))
  rate=$((rate + ${r:-0}))
  new=$((new + ${n:-0}))
  test "${m:-0}" -gt "$rss" && rss=$m
done
findings=$(ls "$work/artifacts" | grep -cE '^(crash|leak|timeout|oom)-')
slow=$(ls "$work/artifacts" | grep -c '^slow-unit-')
cov=$(grep -h 'DONE' "$work"/fuzz-*.log | sed -n 's/.*cov: \([0-9]*\) ft: \([0-9]*\).*/\1 edges, \2 features/p' | tail -1)
echo "[fuzz] $((end - start)) s, $jobs job(s): $execs executions ($rate exec/s), $new new inputs, ${cov:-?}, peak RSS $rss MB"
echo "[fuzz] corpus: $(ls "$tree_corpus" | wc -l) in the tree, $(ls "$work/corpus" | wc -l) new in $work/corpus"
if test "$findings" -gt 0; then
  echo "[fuzz] $findings FINDING(S) in $work/artifacts:"
  ls "$work/artifacts"
  grep -h -E 'hs-fuzz: FINDING|^SUMMARY|ERROR: (Address|Leak|libFuzzer|Undefined)' \
    "$work"/fuzz-*.log | sort | uniq -c
else
  echo "[fuzz] no findings (crashes, leaks, timeouts, out-of-memory)"
fi
test "$slow" -gt 0 && echo "[fuzz] $slow slow input(s) (over 10 s): $work/artifacts/slow-unit-*"

if test "${FUZZ_MERGE:-0}" = 1; then
  rm -rf "$work/merged"
  mkdir "$work/merged"
  # Edges only (-use_counters=0): the fewest inputs that reach every
  # edge the corpora reach; the variety of hit counts stays in
  # WORK/corpus, where make fuzz goes on from.
  "$work/hs-fuzz" -close_fd_mask=3 -merge=1 -use_counters=0 "$work/merged" \
    "$tree_corpus" "$work/corpus" > "$work/merge.log" 2>&1 \
    && rm -f "$tree_corpus"/* && cp "$work/merged"/* "$tree_corpus"/ \
    && echo "[fuzz] tests/fuzz/corpus minimized: $(ls "$tree_corpus" | wc -l) inputs, $(cat "$tree_corpus"/* | wc -c) bytes"
fi

if test "${FUZZ_COVERAGE:-1}" != 0 && command -v llvm-cov-14 > /dev/null \
   && command -v llvm-profdata-14 > /dev/null; then
  echo "[fuzz] line coverage of the server by the corpus (tree + new):"
  if "$top/tests/fuzz/build-fuzz.sh" "$top" "$gcc_src" "$work/hs-fuzz-cov" cov; then
    rm -f "$work"/cov-*.profraw
    LLVM_PROFILE_FILE="$work/cov-%p.profraw" "$work/hs-fuzz-cov" \
      -close_fd_mask=3 -runs=0 "$tree_corpus" "$regress" "$work/corpus" \
      > "$work/cov-run.log" 2>&1
    llvm-profdata-14 merge -o "$work/cov.profdata" "$work"/cov-*.profraw \
      && llvm-cov-14 report "$work/hs-fuzz-cov" \
	   -instr-profile="$work/cov.profdata" \
	   "$top"/libgomp/host-service*.c "$top/libgomp/host-call.c" "$top/libgomp/target-rev.c" "$top/libgomp/target-rev-map.c" \
	 | awk '$1 ~ /\.c$|^TOTAL$/ { printf "  %-22s %5d lines, %4d missed (%s covered); %3d functions, %2d missed\n", $1, $8, $9, $10, $5, $6 }'
  fi
fi
test "$findings" -eq 0
