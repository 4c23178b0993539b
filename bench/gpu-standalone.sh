#!/bin/sh
# The standalone programs on a GPU (part of gpu-check.sh): the programs of
# tests/standalone, built by make-gpu-bundle.sh, run with gomp-nvptx-run;
# each check says what it expects.  Then the sample of GCC's
# gcc.c-torture/execute in the bundle.  Prints PASS:/FAIL: lines.
# Usage: gpu-standalone.sh BUNDLE WORKDIR
here=$1
d=$2/standalone
run=$here/bin/gomp-nvptx-run
sa=$here/standalone
rm -rf "$d"; mkdir -p "$d"

# NAME STATUS: run the rest of the command line with the launcher; its
# exit status must be STATUS.
sa_run ()
{
  name=$1 want=$2
  shift 2
  ( cd "$d" && timeout 60 "$run" "$@" ) > "$d/$name.out" 2> "$d/$name.err"
  st=$?
  test $st -eq "$want" || { echo "FAIL: standalone: $name: exit status $st, expected $want"
	    sed 's/^/  | /' "$d/$name.out" "$d/$name.err" | head -20; return 1; }
}

sa_pass () { echo "PASS: standalone: $*"; }
sa_fail () { echo "FAIL: standalone: $*"; }

if sa_run stdio 3 "$sa/sa-stdio.exe" "$d" alpha "" "with space"; then
  if grep -qx 'sa-stdio: ok' "$d/stdio.out" \
     && grep -qx 'sa-stdio: to stderr' "$d/stdio.err" \
     && test "$(wc -l < "$d/stdio-numbers.txt")" -eq 1000 \
     && grep -qx appended "$d/stdio-append.txt"; then
    sa_pass "stdio, argv, stderr and main's status"
  else
    sa_fail "stdio: $(cat "$d/stdio.out" "$d/stdio.err")"
  fi
fi
sa_run posix 0 "$sa/sa-posix.exe" "$d" \
  && { grep -qx 'sa-posix: ok' "$d/posix.out" && sa_pass "POSIX I/O and errno" \
       || sa_fail "posix: $(cat "$d/posix.out")"; }
sa_run exit 7 "$sa/sa-exit.exe" 7 \
  && { grep -qx 'sa-exit: leaving with 7' "$d/exit.out" \
	 && sa_pass "exit (7) from a function: its status, its output kept" \
	 || sa_fail "exit: output lost: $(cat "$d/exit.out")"; }
sa_run abort 134 "$sa/sa-exit.exe" abort \
  && { grep -q 'gomp-nvptx-run: .*kernel failed' "$d/abort.err" \
	 && grep -qx 'sa-exit: aborting' "$d/abort.out" \
	 && sa_pass "abort: output kept, reported as a failed kernel, status 134" \
	 || sa_fail "abort: no message: $(cat "$d/abort.err")"; }
sa_run lanes 0 -L 32 "$sa/sa-lanes.exe" "$d" \
  && { test "$(grep -c 'sa-lanes: 10 lines' "$d/lanes.out")" -eq 1 \
	 && sa_pass "-mgomp program on 32 lanes: each side effect once" \
	 || sa_fail "lanes: $(cat "$d/lanes.out")"; }
sa_run fortran 4 "$sa/sa-fortran.exe" "$d" \
  && { grep -qx 'sa-fortran: ok' "$d/fortran.out" \
	 && test "$(wc -l < "$d/fortran.txt")" -eq 100 \
	 && sa_pass "Fortran OPEN, WRITE, READ, INQUIRE, PRINT, STOP 4" \
	 || sa_fail "fortran: $(cat "$d/fortran.out")"; }

# The example: wc on the GPU agrees with the host's.
sa_run wc 0 "$sa/wc.exe" "$sa/wc.c" \
  && { want=$(wc < "$sa/wc.c" | awk '{ print $1, $2, $3 }')
       got=$(awk '{ print $1, $2, $3 }' "$d/wc.out")
       test "$got" = "$want" && sa_pass "examples/standalone/wc.c counts as wc does ($got)" \
	 || sa_fail "wc: '$got', the host's wc: '$want'"; }

# The launcher's hand-written programs (tests/launcher): argc * 10 plus
# argv[1]'s digit, with every option; a trap.
sa_run argv 37 "$sa/argv-status.ptx" 7 x && sa_pass "launcher: argv and *rval_ptr"
sa_run options 25 -L 32 -O 0 -g -G -H 1M -S 4096 "$sa/argv-status.ptx" 5 \
  && sa_pass "launcher: -L -O -g -G -H -S accepted by the driver"
sa_run trap 134 "$sa/trap.ptx" \
  && { grep -q 'kernel failed' "$d/trap.err" && sa_pass "launcher: a trap, reported" \
	 || sa_fail "trap: $(cat "$d/trap.err")"; }

# A sample of GCC's gcc.c-torture/execute, prebuilt by
# tests/standalone/build-torture-sample.sh.
if test -f "$here/torture/MANIFEST"; then
  GOMP_NVPTX_RUN_TIMEOUT=${TORTURE_GPU_TIMEOUT:-30} \
  TORTURE_BUDGET=${TORTURE_GPU_BUDGET:-90} \
    sh "$here/torture/run-torture-sample.sh" "$here/torture" "$run"
fi
