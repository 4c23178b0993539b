#!/bin/sh
# Run the nvptx-none programs that tests/standalone/build-torture-sample.sh
# built, with gomp-nvptx-run, on a machine without a compiler: one line per
# test, "PASS: torture-sample: NAME" when it exits with status 0,
# "FAIL: torture-sample: NAME (status S)" when it exits otherwise (abort
# and traps included) or runs past the time limit, and, when the launcher
# says there is no CUDA driver or GPU (status 127), "UNSUPPORTED: ..." for
# every test.  Last a summary line
#   torture-sample: P pass, F fail, U unsupported (T s)
# Usage: run-torture-sample.sh DIR [LAUNCHER]
#   DIR       the directory with MANIFEST and the .exe files
#   LAUNCHER  gomp-nvptx-run (default: $GOMP_NVPTX_RUN, else on the PATH)
# Environment: GOMP_NVPTX_RUN_FLAGS (options for the launcher),
#   GOMP_NVPTX_RUN_TIMEOUT (seconds per test, default 60),
#   GOMP_NVPTX_RUN_NO_GPU_STATUS (default 127), TORTURE_BUDGET (seconds
#   for all; the tests left after it fail as skipped; default: no limit).
# Exit status: 0 when no test failed, 1 otherwise.  Needs only sh and
# coreutils' timeout (without it the tests run without a limit).
dir=$1
run=${2:-${GOMP_NVPTX_RUN:-gomp-nvptx-run}}
limit=${GOMP_NVPTX_RUN_TIMEOUT:-60}
no_gpu=${GOMP_NVPTX_RUN_NO_GPU_STATUS:-127}
if test -z "$dir" || ! test -f "$dir/MANIFEST"; then
  echo "usage: run-torture-sample.sh DIR [LAUNCHER] (DIR/MANIFEST missing)" >&2
  exit 2
fi
if ! command -v "$run" > /dev/null 2>&1; then
  echo "FAIL: torture-sample: launcher $run not found"
  echo "torture-sample: 0 pass, 1 fail, 0 unsupported (0 s)"
  exit 1
fi
# The tests run in DIR (the files they write go there): the launcher's
# path must not depend on the current directory.
case $run in
  */*) run=$(cd "$(dirname "$run")" && pwd)/$(basename "$run") ;;
esac
dir=$(cd "$dir" && pwd)
tmo=
command -v timeout > /dev/null 2>&1 && tmo="timeout -k 5 $limit"
pass=0 fail=0 unsup=0 skip=
start=$(date +%s)
while read -r exe source flags; do
  test -n "$exe" || continue
  name=${exe%.exe}
  if test "${TORTURE_BUDGET:-0}" -gt 0 \
     && test $(( $(date +%s) - start )) -gt "$TORTURE_BUDGET"; then
    echo "FAIL: torture-sample: $name (skipped: over the budget of $TORTURE_BUDGET s)"
    fail=$((fail + 1))
    continue
  fi
  if test -n "$skip"; then
    echo "UNSUPPORTED: torture-sample: $name ($skip)"
    unsup=$((unsup + 1))
    continue
  fi
  # shellcheck disable=SC2086
  (cd "$dir" && $tmo "$run" $GOMP_NVPTX_RUN_FLAGS "./$exe") \
    < /dev/null > "$dir/$name.out" 2>&1
  s=$?
  if test $s -eq 0; then
    echo "PASS: torture-sample: $name"
    pass=$((pass + 1))
  elif test $s -eq "$no_gpu"; then
    skip="no CUDA driver or GPU: $(head -n 1 "$dir/$name.out")"
    echo "UNSUPPORTED: torture-sample: $name ($skip)"
    unsup=$((unsup + 1))
  else
    why="status $s"
    test -n "$tmo" && test $s -eq 124 && why="timed out after $limit s"
    echo "FAIL: torture-sample: $name ($why, $source $flags): $(head -n 1 "$dir/$name.out")"
    fail=$((fail + 1))
  fi
done < "$dir/MANIFEST"
echo "torture-sample: $pass pass, $fail fail, $unsup unsupported ($(( $(date +%s) - start )) s)"
test $fail -eq 0
