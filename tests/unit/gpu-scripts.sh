#!/bin/sh
# The GPU check's scripts, without a GPU: bench/gpu-run.sh unpacks a
# bundle and runs its check (with xz, and with Python's lzma where there
# is no xz); bench/llvm-peer-run.sh prints LLVM's figures and the ratios
# of ours to them, and fails when the peer fails; bench/gpu-bench.c
# builds with gomp-gcc and refuses to report figures off the GPU.
# Environment (from tests/run-all.sh): TOP, WORK, STAGE.
top=${TOP:?} work=${WORK:?}/gpu-scripts
rm -rf "$work"
mkdir -p "$work/gpu-bundle"

pass () { echo "PASS: gpu-scripts: $1"; }
fail () { echo "FAIL: gpu-scripts: $1"; }

# gpu-run.sh: a bundle whose check says where it runs from.
printf '#!/bin/sh\necho "check ran from $(basename "$(dirname "$0")")"\n' \
  > "$work/gpu-bundle/gpu-check.sh"
tar -C "$work" -cf - gpu-bundle | xz > "$work/b.tar.xz"
out=$(cd "$work" && TMPDIR=$work sh "$top/bench/gpu-run.sh" b.tar.xz 2>&1)
if test "$out" = "check ran from gpu-bundle"; then
  pass "gpu-run.sh unpacks the bundle with xz and runs its check"
else
  fail "gpu-run.sh with xz: $out"
fi
# No xz on the PATH: Python unpacks it.
py=/usr/bin/python3
test -x "$py" || py=$(command -v python3)
if test -n "$py"; then
  mkdir -p "$work/bin"
  for t in sh tar mkdir basename dirname; do
    ln -sf "$(command -v $t)" "$work/bin/$t"
  done
  ln -sf "$py" "$work/bin/python3"
  out=$(cd "$work" && TMPDIR=$work PATH=$work/bin sh "$top/bench/gpu-run.sh" b.tar.xz 2>&1)
  if test "$out" = "check ran from gpu-bundle"; then
    pass "gpu-run.sh unpacks the bundle with Python where there is no xz"
  else
    fail "gpu-run.sh without xz: $out"
  fi
else
  echo "UNSUPPORTED: gpu-scripts: gpu-run.sh without xz (no python3 here)"
fi

# llvm-peer-run.sh, with stand-ins for the peer's programs and libraries.
peer=$work/peer
mkdir -p "$peer/lib"
: > "$peer/lib/libomptarget.so.19.1"
cp "$top/bench/llvm-peer-run.sh" "$peer/run.sh"
cat > "$peer/gpu-bench.exe" <<'EOF'
#!/bin/sh
test "$OMP_TARGET_OFFLOAD" = mandatory || { echo "not mandatory"; exit 1; }
test "$3" = 64 || { echo "size $3"; exit 1; }
cat <<X
bench: null-call 1 thread 8.000 us
bench: null-call 1 warp/SM 9.000 us
bench: null-call 1 warp/SM rate 100000 calls/s
bench: null-call all SMs rate 400000 calls/s
bench: fprintf lines/s 50000 lines/s (211200 of 211200 lines)
bench: fwrite MB/s 30.0 MB/s (67108864 bytes)
bench: fread MB/s 20.0 MB/s (67108864 bytes)
X
EOF
printf '#!/bin/sh\necho "launch: empty target region 7.000 us"\n' > "$peer/gpu-launch.exe"
chmod +x "$peer"/*.exe "$peer/run.sh"
cat > "$work/ours.out" <<'EOF'
bench: null-call 1 thread 4.000 us
bench: null-call 1 warp/SM 4.500 us
bench: null-call 1 warp/SM rate 300000 calls/s
bench: null-call all SMs rate 900000 calls/s
bench: fprintf lines/s 150000 lines/s (211200 of 211200 lines)
bench: fwrite MB/s 3000.0 MB/s (268435456 bytes)
bench: fread MB/s 2000.0 MB/s (268435456 bytes)
EOF
"$peer/run.sh" 132 "$work/ours.out" 2500 > "$work/peer.out" 2>&1
st=$?
ok=1
for want in 'llvm: null-call 1 thread 8.000 us' \
	    'llvm: launch: empty target region 7.000 us' \
	    'ratio: LLVM null call / raw ping-pong 3.20' \
	    'ratio: null call 1 thread, ours / LLVM 0.50 (goal <= 0.8)' \
	    'ratio: null calls/s from all SMs, ours / LLVM 2.25' \
	    'ratio: fprintf lines/s from all SMs, ours / LLVM 3.00 (goal >= 1.5)' \
	    'ratio: fwrite MB/s, ours / LLVM 100.0' \
	    'ratio: fread MB/s, ours / LLVM 100.0'; do
  grep -qxF "$want" "$work/peer.out" || { ok=0; echo "  missing: $want"; }
done
if test $st -eq 0 && test $ok = 1; then
  pass "llvm-peer-run.sh prints LLVM's figures and ours over LLVM's"
else
  fail "llvm-peer-run.sh (status $st)"
  sed 's/^/  | /' "$work/peer.out"
fi
# A peer that does not run on the GPU is a failure, not a figure.
printf '#!/bin/sh\necho "bench: not on a GPU (on_host=1 fd=1)"\nexit 1\n' \
  > "$peer/gpu-bench.exe"
"$peer/run.sh" 132 "$work/ours.out" 2500 > "$work/peer2.out" 2>&1
st=$?
if test $st -ne 0 && grep -q 'llvm: gpu-bench.exe failed' "$work/peer2.out" \
   && ! grep -q '^ratio:' "$work/peer2.out"; then
  pass "llvm-peer-run.sh fails when the peer does not run on the GPU"
else
  fail "llvm-peer-run.sh with a failing peer: status $st"
fi
# A peer that hangs is stopped at its limit and fails.
printf '#!/bin/sh\nsleep 30\n' > "$peer/gpu-bench.exe"
GPU_CHECK_LLVM_TIMEOUT=1 "$peer/run.sh" 132 "$work/ours.out" 2500 \
  > "$work/peer3.out" 2>&1
st=$?
if test $st -ne 0 && grep -q 'llvm: gpu-bench.exe timed out' "$work/peer3.out"; then
  pass "llvm-peer-run.sh stops a hanging peer at GPU_CHECK_LLVM_TIMEOUT"
else
  fail "llvm-peer-run.sh with a hanging peer: status $st"
  sed 's/^/  | /' "$work/peer3.out"
fi

# The benchmark itself, with gomp-gcc: no figures from the host.
if test -x "$STAGE/bin/gomp-gcc"; then
  if "$STAGE/bin/gomp-gcc" -O2 -fopenmp -foffload=nvptx-none \
       "$top/bench/gpu-bench.c" -o "$work/gpu-bench" > "$work/cc.out" 2>&1; then
    "$work/gpu-bench" 1 "$work" 1 > "$work/bench.out" 2>&1
    st=$?
    if test $st -ne 0 && grep -q '^bench: not on a GPU' "$work/bench.out" \
       && test "$(grep -c '^bench:' "$work/bench.out")" = 1; then
      pass "gpu-bench.c builds with gomp-gcc and reports nothing off the GPU"
    else
      fail "gpu-bench on the host: status $st"
      sed 's/^/  | /' "$work/bench.out" | head
    fi
  else
    fail "gpu-bench.c does not build with gomp-gcc"
    sed 's/^/  | /' "$work/cc.out" | head
  fi
fi

# The asynchronous OpenACC benchmark, with and without host services:
# builds with gomp-gcc (the first image has a host-service region, the
# second none) and reports nothing off the GPU.
if test -x "$STAGE/bin/gomp-gcc"; then
  for v in hs plain; do
    def=
    test $v = hs && def=-DHS_ACC_HOST_SERVICES
    # shellcheck disable=SC2086
    if "$STAGE/bin/gomp-gcc" -O2 -fopenacc -foffload=nvptx-none $def \
	 "$top/bench/gpu-acc-async.c" -o "$work/acc-$v" > "$work/cc-$v.out" 2>&1; then
      "$work/acc-$v" > "$work/acc-$v.out" 2>&1
      st=$?
      if test $st -ne 0 && grep -q '^bench: acc async: not on a GPU' "$work/acc-$v.out"; then
	pass "gpu-acc-async.c ($v) builds with gomp-gcc and reports nothing off the GPU"
      else
	fail "gpu-acc-async ($v) on the host: status $st"
	sed 's/^/  | /' "$work/acc-$v.out" | head
      fi
    else
      fail "gpu-acc-async.c ($v) does not build with gomp-gcc"
      sed 's/^/  | /' "$work/cc-$v.out" | head
    fi
  done
fi

# gpu-standalone.sh with a launcher that finds no GPU (status 127, as
# gomp-nvptx-run's): every check fails, none passes.
mkdir -p "$work/sa-bundle/bin" "$work/sa-bundle/standalone"
printf '#!/bin/sh\necho "gomp-nvptx-run: no device" >&2\nexit 127\n' \
  > "$work/sa-bundle/bin/gomp-nvptx-run"
chmod +x "$work/sa-bundle/bin/gomp-nvptx-run"
sh "$top/bench/gpu-standalone.sh" "$work/sa-bundle" "$work/sa-work" \
  > "$work/sa.out" 2>&1
np=$(grep -c '^PASS' "$work/sa.out")
nf=$(grep -c '^FAIL' "$work/sa.out")
if test "$np" -eq 0 && test "$nf" -eq 10; then
  pass "gpu-standalone.sh fails all 10 checks when the launcher has no GPU"
else
  fail "gpu-standalone.sh without a GPU: $np passed, $nf failed (want 0 and 10)"
  sed 's/^/  | /' "$work/sa.out" | head
fi
