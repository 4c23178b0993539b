#!/bin/sh
# One job of tests/run-all.sh's pool: a unit test, or one of the DejaGnu
# runs.  run-all.sh starts CHECK_JOBS of these at a time (xargs -P) and
# reads what each leaves in its log once all have ended, in a fixed order,
# so the results do not depend on which job ends first.
#
# Usage: check-job.sh KIND NAME
#   unit NAME.c    build and run tests/unit/NAME.c
#   unit NAME.sh   run tests/unit/NAME.sh
#   dejagnu -      the DejaGnu testsuite in libgomp/testsuite (GCC 12)
#   gcc14-dejagnu -  the same suite for the GCC 14 flavour, in the trixie
#                  root (tests/gcc14-suites.sh --dejagnu)
#   serial A.sh,B.sh,...  the unit tests A.sh, B.sh, ... one after another,
#                  each as "unit NAME" (run-all.sh: those that spin)
# Environment (set by run-all.sh): CHECK_TOP, CHECK_STAGE, CHECK_WORK,
# CHECK_NEWLIB, CHECK_CC, CHECK_RUNTEST, and PTXAS, NVLINK, GCC_SRC,
# GOMP_PTXAS_MEMO (tests/ptx-link-check.sh).
# Output: the job's log, $CHECK_WORK/jobs/KIND-NAME.log, and
# $CHECK_WORK/jobs/KIND-NAME.seconds (its wall time); nothing on stdout.
kind=$1
name=$2
top=$CHECK_TOP
work=$CHECK_WORK
cc=$CHECK_CC
if test "$kind" = serial; then
  for n in $(echo "$name" | tr ',' ' '); do
    sh "$top/tests/check-job.sh" unit "$n"
  done
  exit 0
fi
log=$work/jobs/$kind-$name.log
start=$(date +%s)
: > "$log"
case $kind-$name in
  unit-*.c)
    exe=$(basename "$name" .c)
    if "$cc" -O2 -Wall -Werror -I"$top/libgomp/config/nvptx" -I"$top/libgomp" \
	 -o "$work/unit/$exe" "$top/tests/unit/$name" -lpthread >> "$log" 2>&1; then
      ( cd "$work/unit" && "./$exe" ) >> "$log" 2>&1 \
	|| echo "FAIL: $exe exited with status $?" >> "$log"
    else
      echo "FAIL: $exe does not compile" >> "$log"
    fi
    ;;
  unit-*.sh)
    STAGE=$CHECK_STAGE NEWLIB=$CHECK_NEWLIB TOP=$top WORK=$work/unit HOST_CC=$cc \
      GCC_SRC=$GCC_SRC PTXAS=$PTXAS NVLINK=$NVLINK PTX_EXTRACT=$work/ptx-extract \
      sh "$top/tests/unit/$name" >> "$log" 2>&1 \
      || echo "FAIL: $name exited with status $?" >> "$log"
    ;;
  dejagnu-*)
    ( cd "$work/dejagnu" && "$CHECK_RUNTEST" --tool libgomp \
	--srcdir "$top/libgomp/testsuite" \
	GOMP_HS_PREFIX="$CHECK_STAGE" GOMP_PTX_EXTRACT="$work/ptx-extract" \
	PTXAS="$PTXAS" NVLINK="$NVLINK" GOMP_PTXAS_MEMO="$GOMP_PTXAS_MEMO" ) \
	> "$work/dejagnu/runtest.out" 2>&1
    ;;
  gcc14-dejagnu-*)
    PTXAS=$PTXAS NVLINK=$NVLINK PTX_EXTRACT=$work/ptx-extract \
      sh "$top/tests/gcc14-suites.sh" --dejagnu "$top" \
      "$(dirname "$CHECK_STAGE")/gcc-14/stage" "$work/gcc14" >> "$log" 2>&1
    ;;
  *)
    echo "FAIL: check-job.sh: unknown job '$kind $name'" >> "$log"
    ;;
esac
echo $(( $(date +%s) - start )) > "$work/jobs/$kind-$name.seconds"
exit 0
