#!/bin/sh
# The GPU check: run every GPU-capable test and the GPU benchmark, built
# beforehand by 'make gpu-bundle', on a machine with an NVIDIA GPU and its
# driver but no compiler.  Target regions must run on the GPU
# (OMP_TARGET_OFFLOAD=mandatory).  Prints PASS:/FAIL: lines and a summary;
# writes the log to $OUT (or ./gpu-check-out) for bench/results/.
# Usage: gpu-bundle/gpu-check.sh (or sh bench/gpu-run.sh, from the packed
# bundle)
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/gpu-check-out}
mkdir -p "$out"
log=$out/gpu-check.log
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMP_TARGET_OFFLOAD=mandatory
pass=0 fail=0
passed () { echo "PASS: $1"; pass=$((pass + 1)); }
failed () { echo "FAIL: $1"; fail=$((fail + 1)); }
# Count the PASS:/FAIL: lines of a part's output FILE; echo the rest.
relay ()
{
  while IFS= read -r line; do
    case $line in
      "PASS: "*) passed "${line#PASS: }" ;;
      "FAIL: "*) failed "${line#FAIL: }" ;;
      *) echo "$line" ;;
    esac
  done < "$1"
}
{
  echo "# gpu-check $(date -u)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
  work=$(mktemp -d)
  # A device session has 15 minutes in all: past this many seconds, what
  # is left is skipped (and counted as failed), so the log still comes
  # back.
  budget=${GPU_CHECK_BUDGET:-480}
  start=$(date +%s)
  for t in "$here"/tests/*.exe; do
    name=$(basename "$t" .exe)
    if test $(( $(date +%s) - start )) -gt "$budget"; then
      failed "$name (skipped: over the time budget of $budget s)"
      continue
    fi
    exp="$here/tests/$name.expect"
    t0=$(date +%s.%N)
    ( cd "$work" && timeout 60 "$t" ) > "$work/$name.out" 2>&1
    st=$?
    secs=$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }")
    ok=1
    if test -f "$here/tests/$name.status"; then
      # A test that must fail: with this status, or any but a timeout.
      want=$(cat "$here/tests/$name.status")
      case $want in
	nonzero) test $st -ne 0 && test $st -ne 124 || ok=0 ;;
	*) test $st -eq "$want" || { ok=0; echo "  exit status $st, expected $want"; } ;;
      esac
    else
      test $st -eq 0 || ok=0
    fi
    # STOP in a target region flushes the device's units first.
    if test "$name" = fortran-hs-stop-1 \
       && ! grep -qx 'written before STOP' "$work/hs-stop-1.txt" 2>/dev/null; then
      ok=0
      echo "  hs-stop-1.txt does not hold what the device wrote before STOP"
    fi
    # The expected output: one Perl regex (the test's dg-output patterns,
    # in order), matched against the whole output.
    if test -s "$exp" && ! grep -Pzq -- "$(cat "$exp")" "$work/$name.out"; then
      ok=0
      echo "  output does not match: $(cat "$exp")"
    fi
    test $st -eq 124 && echo "  timed out (60 s): a hang"
    if test $ok = 1; then
      passed "$name ($secs s)"
    else
      failed "$name (status $st)"
      sed 's/^/  | /' "$work/$name.out" | head -40
    fi
  done
  # Standalone programs through gomp-nvptx-run (gpu-standalone.sh).
  if test -f "$here/gpu-standalone.sh"; then
    sh "$here/gpu-standalone.sh" "$here" "$work" > "$work/standalone.out" 2>&1
    relay "$work/standalone.out"
  fi
  GOMP_DEBUG=1 timeout 120 "$here/tests/hs-stdio-1.exe" > "$work/trace.out" 2>&1
  if grep -q 'host-service: port [0-9]*: open (fd' "$work/trace.out"; then
    passed "GOMP_DEBUG=1 traces requests on the GPU"
  else
    failed "GOMP_DEBUG=1 traces requests on the GPU"
  fi
  # The server in a process of its own (GOMP_HOST_SERVICES_SERVER=process):
  # the region a memfd registered with cuMemHostRegister, served by
  # libexec/gomp-hs/gomp-hs-serve; the host-service tests again, within
  # GPU_CHECK_PROCESS_BUDGET seconds.
  GOMP_HOST_SERVICES_SERVER=process GOMP_DEBUG=1 timeout 120 \
    "$here/tests/hs-stdio-1.exe" > "$work/proc-trace.out" 2>&1
  if grep -q '^host-service: serving from process [0-9]*$' "$work/proc-trace.out" \
     && grep -q 'host-service: port [0-9]*: open (fd' "$work/proc-trace.out"; then
    passed "GOMP_HOST_SERVICES_SERVER=process: the GPU is served by the server process"
  else
    failed "GOMP_HOST_SERVICES_SERVER=process: the GPU is served by the server process"
    grep -i 'host-service\|libgomp' "$work/proc-trace.out" | head -10 | sed 's/^/  | /'
  fi
  pstart=$(date +%s)
  for t in "$here"/tests/hs-*.exe; do
    name=$(basename "$t" .exe)
    test -f "$here/tests/$name.status" && continue
    if test $(( $(date +%s) - pstart )) -gt "${GPU_CHECK_PROCESS_BUDGET:-60}"; then
      failed "process: $name (skipped: over the time budget)"
      continue
    fi
    ( cd "$work" && GOMP_HOST_SERVICES_SERVER=process timeout 60 "$t" ) \
      > "$work/proc-$name.out" 2>&1
    st=$?
    exp="$here/tests/$name.expect"
    if test $st -eq 0 && { ! test -s "$exp" \
	 || grep -Pzq -- "$(cat "$exp")" "$work/proc-$name.out"; }; then
      passed "process: $name"
    else
      failed "process: $name (status $st)"
      sed 's/^/  | /' "$work/proc-$name.out" | head -20
    fi
  done
  # Host calls that stdio makes: one write per puts, no lseek for an
  # append-mode stream.
  ( cd "$work" && GOMP_DEBUG=1 timeout 60 "$here/hs-stdio-calls.exe" ) \
    > "$work/calls.out" 2>&1
  writes=$(grep -c 'host-service: port [0-9]*: write (fd 1, ' "$work/calls.out")
  seeks=$(grep -c 'host-service: port [0-9]*: lseek ' "$work/calls.out")
  if grep -q 'device, 3 lines appended' "$work/calls.out" \
     && test "$writes" -eq 3 && test "$seeks" -eq 0; then
    passed "stdio: 3 puts are 3 writes; appending seeks 0 times"
  else
    failed "stdio: $writes writes to fd 1 for 3 puts, $seeks lseeks"
    sed 's/^/  | /' "$work/calls.out" | head -40
  fi
  # Fortran on the device: each WRITE statement reaches the host as one
  # write (hs-print-1: four statements end a line on stdout, one on
  # stderr; the non-advancing one waits for the next).
  if test -x "$here/tests/fortran-hs-print-1.exe"; then
    ( cd "$work" && GOMP_DEBUG=1 timeout 60 "$here/tests/fortran-hs-print-1.exe" ) \
      > "$work/fprint.out" 2>&1
    w1=$(grep -c 'host-service: port [0-9]*: write (fd 1, ' "$work/fprint.out")
    w2=$(grep -c 'host-service: port [0-9]*: write (fd 2, ' "$work/fprint.out")
    if test "$w1" -eq 4 && test "$w2" -eq 1; then
      passed "Fortran: one write per WRITE statement (4 to stdout, 1 to stderr)"
    else
      failed "Fortran: $w1 writes to stdout (want 4), $w2 to stderr (want 1)"
      sed 's/^/  | /' "$work/fprint.out" | head -40
    fi
  fi
  # Reverse offload needs host services: with them off, an image that
  # has reverse-offload regions is refused when it loads, with a message,
  # instead of failing (or hanging) at its first region.
  if test -x "$here/tests/hs-rev-1.exe"; then
    GOMP_HOST_SERVICES=off timeout 60 "$here/tests/hs-rev-1.exe" \
      > "$work/rev-off.out" 2>&1
    st=$?
    if test $st -ne 0 && test $st -ne 124 \
       && grep -q 'reverse-offload regions' "$work/rev-off.out"; then
      passed "reverse offload with host services off: refused at load (status $st)"
    else
      failed "reverse offload with host services off: status $st"
      sed 's/^/  | /' "$work/rev-off.out" | head -20
    fi
  fi
  # Reverse offload beside another host thread's "target update", whose
  # copy waits for the running kernel while it holds the device's lock
  # (issue 16, item 4): the regions' present lookups must not wait for
  # that lock (before: a fatal error after 5 s).  hs-rev-7 is built with
  # the DejaGnu tests; it ends by itself within about 3 s.
  if test -x "$here/tests/hs-rev-7.exe"; then
    timeout 30 "$here/tests/hs-rev-7.exe" > "$work/rev-update.out" 2>&1
    st=$?
    what=$(sed -n 's/^device: //p' "$work/rev-update.out")
    if test $st -eq 0 && test -n "$what"; then
      passed "reverse offload while another host thread does target update ($what)"
    else
      failed "reverse offload while another host thread does target update (status $st)"
      test $st -eq 124 && echo "  timed out (30 s): a hang"
      sed 's/^/  | /' "$work/rev-update.out" | head -20
    fi
  fi
  # Fortran STOP 7 in one device thread while 255 others write to the
  # same unit: the program ends with status 7, not with a fault of a
  # thread writing through a unit that STOP freed.
  if test -x "$here/hs-stop-threads.exe"; then
    ( cd "$work" && timeout 60 "$here/hs-stop-threads.exe" ) \
      > "$work/stop-threads.out" 2>&1
    st=$?
    if test $st -eq 7 && grep -q 'STOP 7' "$work/stop-threads.out" \
       && grep -q 'stop-threads: on the device' "$work/stop-threads.out" \
       && ! grep -qi 'illegal\|error\|not reached' "$work/stop-threads.out"; then
      passed "Fortran STOP while other threads write: status 7, no fault"
    else
      test $st -eq 124 && echo "  timed out (60 s): a hang"
      failed "Fortran STOP while other threads write: status $st (want 7, on the device, no fault)"
      sed 's/^/  | /' "$work/stop-threads.out" | head -20
    fi
  fi
  # GOMP_HOST_SERVICES=off with printf from OpenACC vector lanes: printf
  # fails with ENOSYS in every lane, and the kernel ends cleanly (the
  # stack is raised for vfprintf even with host services off).
  if test -x "$here/hs-oacc-off.exe"; then
    GOMP_HOST_SERVICES=off timeout 60 "$here/hs-oacc-off.exe" \
      > "$work/oacc-off.out" 2>&1
    st=$?
    if test $st -eq 0 \
       && grep -q 'device, 64 of 64 printf calls failed with ENOSYS' \
	    "$work/oacc-off.out"; then
      passed "GOMP_HOST_SERVICES=off with an OpenACC printf: ENOSYS, no stack overflow"
    else
      test $st -eq 124 && echo "  timed out (60 s): a hang"
      failed "GOMP_HOST_SERVICES=off with an OpenACC printf: status $st"
      sed 's/^/  | /' "$work/oacc-off.out" | head -20
    fi
  fi
  # sm_80 user code calling printf from divergent OpenACC vector lanes:
  # every lane's line exactly once, and the kernel ends.
  if test -x "$here/hs-oacc-lanes-printf.exe"; then
    ( cd "$work" && timeout 60 "$here/hs-oacc-lanes-printf.exe" ) \
      > "$work/lanes-printf.out" 2>&1
    st=$?
    lines=$(grep -c '^lane-line [0-9]* [abc]$' "$work/lanes-printf.out")
    uniq=$(sed -n 's/^lane-line \([0-9]*\) [abc]$/\1/p' "$work/lanes-printf.out" | sort -un | wc -l)
    if test $st -eq 0 && test "$lines" -eq 256 && test "$uniq" -eq 256 \
       && grep -q '^ended 1$' "$work/lanes-printf.out"; then
      passed "sm_80 printf from divergent OpenACC vector lanes: 256 lines, each once"
    else
      failed "sm_80 printf from divergent OpenACC vector lanes: status $st, $lines lines, $uniq distinct (want 256, 256)"
      tail -5 "$work/lanes-printf.out" | sed 's/^/  | /'
    fi
  fi
  # What the plugin measured and set for an OpenACC image that uses host
  # services (CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, stack and heap limits).
  GOMP_DEBUG=1 timeout 60 "$here/tests/hs-oacc-stdio-1.exe" > "$work/oacc.out" 2>&1
  echo "# OpenACC image with host services:"
  grep -E 'bytes of local memory per thread|host services: (stack|device heap)|__gomp_nvptx_tls' \
    "$work/oacc.out" | sed 's/^/#   /'
  # The benchmark, with its baselines from the same run.
  sms=132 pp= wbw= rbw=
  if test -x "$here/gpu-baseline.exe"; then
    timeout 120 "$here/gpu-baseline.exe" "$here/gpu-baseline.ptx" \
      > "$work/baseline.out" 2>&1
    cat "$work/baseline.out"
    sms=$(sed -n 's/^baseline: sms \([0-9]*\)$/\1/p' "$work/baseline.out")
    pp=$(sed -n 's/^baseline: ping-pong round trip \([0-9.]*\) ns$/\1/p' "$work/baseline.out")
    wbw=$(sed -n 's/^baseline: mapped write bandwidth \([0-9.]*\) MB\/s$/\1/p' "$work/baseline.out")
    rbw=$(sed -n 's/^baseline: mapped read bandwidth \([0-9.]*\) MB\/s$/\1/p' "$work/baseline.out")
  fi
  ( cd "$work" && timeout 300 "$here/gpu-bench.exe" "${sms:-132}" ) \
    > "$work/bench.out" 2>&1
  st=$?
  cat "$work/bench.out"
  if test $st -eq 0; then
    passed "gpu-bench ran"
  else
    failed "gpu-bench (status $st)"
  fi
  ours=$(timeout 120 "$here/gpu-launch.exe" | sed -n 's/^launch: empty target region \([0-9.]*\) us$/\1/p')
  stock=$(LD_LIBRARY_PATH="$here/stock-lib" timeout 120 "$here/gpu-launch-stock.exe" \
	  | sed -n 's/^launch: empty target region \([0-9.]*\) us$/\1/p')
  echo "bench: launch without host services: ours ${ours:-?} us, Debian's libgomp ${stock:-?} us"
  # Asynchronous OpenACC kernels that never call the host, in an image
  # with host services (each launch bracketed, its end told from an
  # event at the next launch) and in one without.
  acc_hs=$(timeout 120 "$here/gpu-acc-async-hs.exe" | sed -n 's/^bench: acc async kernel \([0-9.]*\) us.*/\1/p')
  acc_no=$(timeout 120 "$here/gpu-acc-async.exe" | sed -n 's/^bench: acc async kernel \([0-9.]*\) us.*/\1/p')
  echo "bench: acc async kernel: ${acc_hs:-?} us with host services, ${acc_no:-?} us without"
  if test -n "$acc_hs" && test -n "$acc_no"; then
    passed "OpenACC async kernels ran, with and without host services"
    awk -v a="$acc_hs" -v b="$acc_no" 'BEGIN { if (b > 0) printf "ratio: acc async kernel, host services / none %.2f\n", a / b }'
  else
    failed "OpenACC async kernels (with: ${acc_hs:-failed}, without: ${acc_no:-failed})"
  fi
  # Ratios and the goals of issue 8.
  call=$(sed -n 's/^bench: null-call 1 thread \([0-9.]*\) us$/\1/p' "$work/bench.out")
  fw=$(sed -n 's/^bench: fwrite MB\/s \([0-9.]*\) MB\/s.*/\1/p' "$work/bench.out")
  fr=$(sed -n 's/^bench: fread MB\/s \([0-9.]*\) MB\/s.*/\1/p' "$work/bench.out")
  awk -v call="$call" -v pp="$pp" -v fw="$fw" -v wbw="$wbw" -v fr="$fr" \
      -v rbw="$rbw" -v ours="$ours" -v stock="$stock" 'BEGIN {
    if (call != "" && pp != "")
      printf "ratio: null call / raw ping-pong %.2f (goal <= 1.3)\n", call * 1000 / pp
    if (fw != "" && wbw != "")
      printf "ratio: 256 MiB fwrite / raw mapped write bandwidth %.3f (goal >= 0.5)\n", fw / wbw
    if (fr != "" && rbw != "")
      printf "ratio: 256 MiB fread / raw mapped read bandwidth %.3f\n", fr / rbw
    if (ours != "" && stock != "")
      printf "ratio: launch, ours / Debian stock %.3f (goal <= 1.02)\n", ours / stock
  }'
  # GCC's own offloading tests, Debian's runtime against ours on the
  # device (tests/upstream/gpu-upstream.sh), within UPSTREAM_GPU_BUDGET s (60).
  if test -f "$here/upstream/run.sh"; then
    sh "$here/upstream/run.sh" "$here/stock-lib" "${UPSTREAM_GPU_BUDGET:-60}" \
      > "$work/upstream.out" 2>&1
    relay "$work/upstream.out"
  fi
  # The GCC 14 flavour, built with Debian 13's compilers and run with
  # trixie's runtimes (tests/gcc14-gpu.sh), within GCC14_GPU_BUDGET s (60).
  if test -f "$here/gcc14/run.sh"; then
    sh "$here/gcc14/run.sh" "${GCC14_GPU_BUDGET:-60}" > "$work/gcc14.out" 2>&1
    relay "$work/gcc14.out"
  else
    echo "# GCC 14 flavour: not in this bundle (make gcc14, then make gpu-bundle as root)"
  fi
  # The LLVM peer: the same workload under clang-19, LLVM's GPU libc and
  # Debian's libomptarget, with the ratios to ours.
  # It gets what is left of GPU_CHECK_TOTAL seconds (default 560; a
  # device run may last 600), at least 60.
  left=$(( ${GPU_CHECK_TOTAL:-560} - ($(date +%s) - start) ))
  if test -x "$here/llvm/run.sh" && test "$left" -lt 60; then
    failed "LLVM peer (skipped: $left s left of GPU_CHECK_TOTAL)"
  elif test -x "$here/llvm/run.sh"; then
    if GPU_CHECK_LLVM_TIMEOUT=$((left - 20)) \
       "$here/llvm/run.sh" "${sms:-132}" "$work/bench.out" "$pp"; then
      passed "LLVM peer ran"
    else
      failed "LLVM peer"
    fi
  else
    echo "# LLVM peer: not in this bundle (make llvm-peer, then make gpu-bundle)"
  fi
  echo "$pass passed, $fail failed"
} 2>&1 | tee "$log"
