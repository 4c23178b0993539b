#!/bin/sh
# The spin models of tests/models (tests/models/run-models.sh): one PASS
# or FAIL line per model, and a FAIL if the runner's summary is missing
# or counts a failure.  UNSUPPORTED without spin.  Environment: TOP, WORK.
if ! command -v spin > /dev/null 2>&1; then
  echo "UNSUPPORTED: models: spin not installed (apt-get install spin)"
  exit 0
fi
work=$WORK/models
rm -rf "$work"; mkdir -p "$work"
"$TOP/tests/models/run-models.sh" -w "$work" > "$work/run.log" 2>&1
st=$?
grep -E '^(PASS|FAIL): model ' "$work/run.log"
summary=$(grep '^models: ' "$work/run.log")
case $summary in
  "models: "*" checked, 0 failed")
    test $st -eq 0 && echo "PASS: models: ${summary#models: }" \
      || echo "FAIL: models: runner exited $st after '$summary'" ;;
  "") echo "FAIL: models: no summary line: $(tail -n 3 "$work/run.log")" ;;
  *) echo "FAIL: models: $summary" ;;
esac
