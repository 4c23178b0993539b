#!/bin/sh
# gomp-nvptx-run (tools/gomp-nvptx-run.c) without a GPU: its error and
# status without a driver or a device, and against a stand-in driver
# (tests/launcher/fake-cuda.c, found as libcuda.so.1 through
# LD_LIBRARY_PATH) whose "device" runs the actions of hand-written PTX
# through the simulator's host-service client: argv arrives intact, the
# options reach the driver, exit statuses from *rval_ptr and from the
# EXIT call, a trap, output through host services on stdout, stderr and in
# files, the per-thread state table, programs without host services.
# Environment: TOP, WORK, GCC_SRC (for libgomp-plugin.h), HOST_CC; STAGE
# (optional: the launcher is also built with its libgomp-hs-server.a);
# PTXAS.
cc=${HOST_CC:-gcc-12}
work=$WORK/launcher
rm -rf "$work"; mkdir -p "$work/fake" "$work/nodriver" "$work/partial" "$work/run"
run=$work/gomp-nvptx-run
# cuda.h: GCC's own minimal one, as the build uses (CUDA_INC: another).
cuda_inc=${CUDA_INC:-$GCC_SRC/include/cuda}

pass () { echo "PASS: launcher: $*"; }
failt () { echo "FAIL: launcher: $*"; }
# check COND-STATUS NAME: PASS if the last command in the caller was true.
t () { if test "$1" -eq 0; then pass "$2"; else failt "$2"; fi; }

if ! test -f "$cuda_inc/cuda.h"; then
  echo "UNSUPPORTED: launcher: no cuda.h in $cuda_inc"
  exit 0
fi
hs_srcs=$("$TOP/build-aux/hs-server-sources.sh" "$TOP")
incs="-I$TOP/tests/sim -I$TOP/libgomp/server-lib -I$TOP/libgomp -idirafter $GCC_SRC/libgomp -I$cuda_inc"
# shellcheck disable=SC2086
if ! "$cc" -O2 -Wall -Wextra -Werror -pthread $incs -o "$run" \
     "$TOP/tools/gomp-nvptx-run.c" $hs_srcs -ldl > "$work/build.log" 2>&1; then
  failt "gomp-nvptx-run does not build"
  cat "$work/build.log"
  exit 0
fi
# shellcheck disable=SC2086
if ! "$cc" -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \
     -pthread $incs -Wl,-soname,libcuda.so.1 -Wl,--no-undefined \
     -o "$work/fake/libcuda.so.1" "$TOP/tests/launcher/fake-cuda.c" \
     > "$work/build-fake.log" 2>&1; then
  failt "the stand-in driver does not build"
  cat "$work/build-fake.log"
  exit 0
fi
pass "gomp-nvptx-run and the stand-in driver build"

# A program: PTX with the device runtime's globals as GCC emits them.
# ptx FILE [hs|hsv1] [tls] [errno] [nomain] [maxntid16] -- ACTIONS...
# (hs: __gomp_host_service of protocol 2 asking for a 4096-byte stack;
# hsv1: protocol 1; tls: __gomp_nvptx_tls with 16-byte entries; nomain:
# no __main; maxntid16: __main takes at most 16 threads; errno:
# __gomp_nvptx_newlib_errno)
ptx ()
{
  f=$1; shift
  {
    printf '// BEGIN PREAMBLE\n.version 7.0\n.target sm_70\n.address_size 64\n// END PREAMBLE\n'
    while test "$1" != "--"; do
      case $1 in
	# As GCC writes them (config/nvptx/host-service.c, reent.c):
	# version | stack << 32, and version | entry_size << 32.
	hs) printf '.visible .global .align 8 .u64 __gomp_host_service[4] =\n{17592186044418 };\n' ;;
	tls) printf '.visible .global .align 8 .u64 __gomp_nvptx_tls[3] =\n{68719476739,0,0 };\n' ;;
	# Another form a declaration may take.
	hsv1) echo '.visible .global .align 8 .u32 __gomp_host_service[8] = { 1, 4096, 0, 0, 0, 0, 0, 0 };' ;;
	# posix-io.c's flag, 0 until the launcher sets it.
	errno) printf '.visible .global .align 4 .u32 __gomp_nvptx_newlib_errno[1];\n' ;;
	nomain) nomain=1 ;;
	maxntid16) maxntid='.maxntid 16, 1, 1' ;;
      esac
      shift
    done
    shift
    for a in "$@"; do echo "// fake-device: $a"; done
    if test -z "$nomain"; then
      echo '.visible .entry __main (.param .u64 %in_ar0, .param .u32 %in_ar1, .param .u64 %in_ar2)'
      test -n "$maxntid" && echo "$maxntid"
      printf '{\n\tret;\n}\n'
    fi
  } > "$f"
  nomain='' maxntid=''
}

log=$work/driver.log
# fake [ENV=V...] -- LAUNCHER-ARGS: run with the stand-in; stdout, stderr
# and status in $work/out, $work/err, $st.
fake ()
{
  : > "$log"
  envs=
  while test "$1" != "--"; do envs="$envs $1"; shift; done
  shift
  # shellcheck disable=SC2086
  (cd "$work/run" && env LD_LIBRARY_PATH="$work/fake" FAKE_CUDA_LOG="$log" \
     $envs "$run" "$@" > "$work/out" 2> "$work/err")
  st=$?
}

# 1. No driver.
: > "$work/nodriver/libcuda.so.1"
ptx "$work/p-argv.ptx" hs tls -- argv "exit 0"
LD_LIBRARY_PATH=$work/nodriver "$run" "$work/p-argv.ptx" > "$work/out" 2> "$work/err"
st=$?
test $st -eq 127 && test "$(wc -l < "$work/err")" -eq 1 \
  && grep -q '^gomp-nvptx-run: cannot load the CUDA driver (libcuda.so.1)' "$work/err"
t $? "an unloadable libcuda.so.1: one line on stderr, status 127 (got $st)"
if ! /sbin/ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
  env -u LD_LIBRARY_PATH "$run" "$work/p-argv.ptx" > "$work/out" 2> "$work/err"
  st=$?
  test $st -eq 127 && grep -q '^gomp-nvptx-run: cannot load the CUDA driver' "$work/err"
  t $? "no libcuda.so.1 on the system: status 127 (got $st)"
else
  echo "UNSUPPORTED: launcher: no driver on the system (this one has libcuda.so.1)"
fi
# A driver without one of the functions.
echo 'int cuInit (unsigned f) { return (int) f; }' > "$work/partial/p.c"
"$cc" -shared -fPIC -o "$work/partial/libcuda.so.1" "$work/partial/p.c"
LD_LIBRARY_PATH=$work/partial "$run" "$work/p-argv.ptx" > "$work/out" 2> "$work/err"
st=$?
test $st -eq 127 && grep -q '^gomp-nvptx-run: the CUDA driver (libcuda.so.1) lacks cu' "$work/err"
t $? "an incomplete driver: status 127 (got $st)"
fake FAKE_CUDA_DEVICES=0 -- "$work/p-argv.ptx"
test $st -eq 127 && grep -q '^gomp-nvptx-run: no CUDA device: cuInit: CUDA_ERROR_NO_DEVICE' "$work/err"
t $? "no device: status 127 (got $st)"

# 2. argv, through host services to stdout, and exit's status.
long=$(printf '%06000d' 7)
fake -- "$work/p-argv.ptx" "" "two words" "$long" "-L" "--help" "tab	x" "é"
{
  echo "argc=8"
  echo "argv[0]=$work/p-argv.ptx"
  echo "argv[1]="
  echo "argv[2]=two words"
  echo "argv[3]=$long"
  echo "argv[4]=-L"
  echo "argv[5]=--help"
  echo "argv[6]=tab	x"
  echo "argv[7]=é"
  echo "argv[8] is a null pointer"
} > "$work/expect"
test $st -eq 0 && cmp -s "$work/out" "$work/expect"
t $? "argv arrives intact (empty, spaces, 6000 bytes, options after PROGRAM) on stdout through host services; exit 0 (got $st)"
grep -q '^cuLaunchKernel grid 1 1 1 block 1 1 1 ' "$log"
t $? "options after PROGRAM are the program's: one lane"
grep -q '^cuMemHostAlloc [0-9]* flags 0x3$' "$log"
t $? "the region is page-locked, portable and mapped (cuMemHostAlloc flags)"
grep -q 'entry __main' "$log" && grep -q '^cuLinkAddData ' "$log"
t $? "the driver got PTX text with .entry __main"

# Several PTX texts, each ended by a NUL, as nvptx-none-ld writes them.
ptx "$work/a.ptx" hs nomain -- "write 1 from the first object"
ptx "$work/b.ptx" -- "exit 5"
{ cat "$work/a.ptx"; printf '\0'; cat "$work/b.ptx"; printf '\0'; } > "$work/p-two.ptx"
fake -- "$work/p-two.ptx"
test $st -eq 5 && test "$(grep -c '^cuLinkAddData ' "$log")" -eq 2 \
  && grep -qx 'from the first object' "$work/out"
t $? "a program of two NUL-separated PTX texts links both; exit 5 (got $st)"

# 3. Options reach the driver.
fake -- "$work/p-argv.ptx"
grep -q '^launch limits STACK_SIZE 4096 MALLOC_HEAP_SIZE 268437504$' "$log" \
  && ! grep -q '^cuLinkCreate ' "$log"
t $? "defaults: stack raised to the runtime's 4096, heap 256 MiB + one state, no JIT options"
fake -- -S 2048 -H 64M -L 32 -O 0 -g -G "$work/p-argv.ptx" x
grep -q '^cuCtxSetLimit STACK_SIZE 2048$' "$log" \
  && grep -q '^launch limits STACK_SIZE 2048 MALLOC_HEAP_SIZE 67174400$' "$log"
t $? "-S 2048 is kept (not raised), -H 64M plus 32 states' heap"
grep -q '^cuLaunchKernel grid 1 1 1 block 32 1 1 ' "$log"
t $? "-L 32: a block of 32 lanes"
grep -q '^cuLinkCreate OPTIMIZATION_LEVEL 0$' "$log" \
  && grep -q '^cuLinkCreate GENERATE_LINE_INFO 1$' "$log" \
  && grep -q '^cuLinkCreate GENERATE_DEBUG_INFO 1$' "$log"
t $? "-O 0 -g -G: JIT options"
grep -qx 'argv\[1\]=x' "$work/out" && test $st -eq 0
t $? "with options, argv starts at PROGRAM"
fake -- -L 2 -- "$work/p-argv.ptx" -- -S
printf 'argc=3\nargv[0]=%s\nargv[1]=--\nargv[2]=-S\nargv[3] is a null pointer\n' "$work/p-argv.ptx" > "$work/expect2"
test $st -eq 0 && cmp -s "$work/out" "$work/expect2" \
  && grep -q '^cuLaunchKernel grid 1 1 1 block 2 1 1 ' "$log"
t $? "'--' ends the options; a '--' after PROGRAM is the program's"
fake -- --stack-size=3000 --heap-size 1k --lanes=4 --optlevel 0 --lineinfo "$work/p-argv.ptx"
grep -q '^launch limits STACK_SIZE 3000 MALLOC_HEAP_SIZE 9216$' "$log" \
  && grep -q '^cuLaunchKernel grid 1 1 1 block 4 1 1 ' "$log" \
  && grep -q '^cuLinkCreate OPTIMIZATION_LEVEL 0$' "$log" \
  && grep -q '^cuLinkCreate GENERATE_LINE_INFO 1$' "$log" \
  && ! grep -q 'GENERATE_DEBUG_INFO' "$log"
t $? "long options"

# 4. The per-thread state table.
ptx "$work/p-tls.ptx" hs tls -- tls "exit 0"
fake -- "$work/p-tls.ptx"
grep -qx 'tls: version 3 entry 16 nslots 1 epoch 1 table set zeroed' "$work/out"
t $? "__gomp_nvptx_tls: one zeroed entry per lane, epoch 1 before the launch"
fake -- -L 32 "$work/p-tls.ptx"
grep -qx 'tls: version 3 entry 16 nslots 32 epoch 1 table set zeroed' "$work/out"
t $? "__gomp_nvptx_tls with -L 32: 32 entries"
fake GOMP_NVPTX_THREAD_STATES=5 -- "$work/p-tls.ptx"
grep -qx 'tls: version 3 entry 16 nslots 5 epoch 1 table set zeroed' "$work/out"
t $? "GOMP_NVPTX_THREAD_STATES=5: 5 entries"
fake GOMP_NVPTX_THREAD_STATES=0 -- -L 8 "$work/p-tls.ptx"
grep -qx 'tls: version 3 entry 16 nslots 8 epoch 1 table set zeroed' "$work/out" \
  && grep -q 'GOMP_NVPTX_THREAD_STATES=0 is not a number' "$work/err" && test $st -eq 0
t $? "GOMP_NVPTX_THREAD_STATES=0: a warning, the default"

# GOMP_DEBUG=1: what the launcher sets up, and the server's trace.
fake GOMP_DEBUG=1 -- -L 4 "$work/p-tls.ptx"
grep -q '^gomp-nvptx-run: host services: [0-9]* bytes at .* 64 ports of 4096 bytes$' "$work/err" \
  && grep -q '^gomp-nvptx-run: __gomp_nvptx_tls: 4 entries of 16 bytes$' "$work/err" \
  && grep -q '^gomp-nvptx-run: launching __main: 1 arguments, 4 lanes, stack 4096, heap 268443648$' "$work/err" \
  && grep -q '^host-service: port [0-9]*: write (fd 1, ' "$work/err"
t $? "GOMP_DEBUG=1 traces the setup and the calls"

# GOMP_HOST_SERVICES_SERVER=process: the installed launcher finds the
# installed server process beside it (../libexec/gomp-hs) and registers
# the shared region instead of allocating one.  (The program ends with
# exit, which ends the launcher too: no teardown to see.)
if test -n "$STAGE" && test -x "$STAGE/bin/gomp-nvptx-run"; then
  fake GOMP_DEBUG=1 -- -L 4 "$work/p-tls.ptx"
  cp "$work/out" "$work/out-thread"
  : > "$log"
  (cd "$work/run" && env LD_LIBRARY_PATH="$work/fake" FAKE_CUDA_LOG="$log" \
     GOMP_HOST_SERVICES_SERVER=process GOMP_DEBUG=1 \
     "$STAGE/bin/gomp-nvptx-run" -L 4 "$work/p-tls.ptx" > "$work/out" 2> "$work/err")
  st=$?
  test $st -eq 0 && cmp -s "$work/out" "$work/out-thread" \
    && grep -q '^host-service: serving from process [0-9]*$' "$work/err" \
    && grep -q '^cuMemHostRegister [0-9]* flags 0x3$' "$log" \
    && ! grep -q cuMemHostAlloc "$log"
  t $? "GOMP_HOST_SERVICES_SERVER=process: the installed launcher is served by ../libexec/gomp-hs/gomp-hs-serve, the region registered (status $st)"
else
  echo "UNSUPPORTED: launcher: process mode (no staged launcher)"
fi

# 5. Exit statuses.
ptx "$work/p-ret.ptx" -- "printf no host services" "return 42"
fake -- "$work/p-ret.ptx"
test $st -eq 42 && grep -qx 'no host services' "$work/out" \
  && ! grep -q cuMemHostAlloc "$log" && grep -q '^kernel ended' "$log"
t $? "no __gomp_host_service: no region, no server; status 42 from rval_ptr (got $st)"
ptx "$work/p-none.ptx" --
fake -- "$work/p-none.ptx"
test $st -eq 255
t $? "a kernel that ends without storing a status: crt0's 255 (got $st)"
ptx "$work/p-exit.ptx" hs -- "write 1 before exit" "exit 7" "write 1 after exit"
fake -- "$work/p-exit.ptx"
test $st -eq 7 && grep -qx 'before exit' "$work/out" && ! grep -q 'after exit' "$work/out" \
  && ! grep -q '^kernel ended' "$log"
t $? "exit 7 through host services ends the launcher with 7 (got $st)"
ptx "$work/p-hsret.ptx" hs -- "write 1 served" "return 3"
fake -- "$work/p-hsret.ptx"
test $st -eq 3 && grep -qx served "$work/out"
t $? "with host services, a kernel that returns: status from rval_ptr (got $st)"
ptx "$work/p-off.ptx" hs -- "write 1 dropped" "return 4"
fake GOMP_HOST_SERVICES=off -- "$work/p-off.ptx"
test $st -eq 4 && ! grep -q dropped "$work/out" \
  && grep -q 'fake-device: write: errno 38' "$work/err" && ! grep -q cuMemHostAlloc "$log"
t $? "GOMP_HOST_SERVICES=off: no region, calls fail with ENOSYS (got $st)"

# 6. A trap.
ptx "$work/p-trap.ptx" hs -- "write 1 before the trap" trap
fake -- "$work/p-trap.ptx"
test $st -eq 134 && grep -qx 'before the trap' "$work/out" \
  && grep -qx "gomp-nvptx-run: $work/p-trap.ptx: kernel failed: CUDA_ERROR_ILLEGAL_INSTRUCTION: an illegal instruction was encountered" "$work/err"
t $? "a trap: output so far, 'kernel failed' with the CUDA error, status 134 (got $st)"

ptx "$work/p-ntid.ptx" hs maxntid16 -- "exit 0"
fake -- -L 32 "$work/p-ntid.ptx"
test $st -eq 123 && grep -q 'cannot launch __main with 32 lanes: CUDA_ERROR_INVALID_VALUE' "$work/err"
t $? "a launch the driver refuses (-L 32 over .maxntid 16): status 123 (got $st)"
fake -- -L 16 "$work/p-ntid.ptx"
test $st -eq 0
t $? "the same program with -L 16 runs (got $st)"

# 7. Files and stderr through host services.
ptx "$work/p-file.ptx" hs -- "file out.txt written by the device" "write 2 to stderr" "exit 0"
rm -f "$work/run/out.txt"
fake -- "$work/p-file.ptx"
test $st -eq 0 && test "$(cat "$work/run/out.txt" 2>/dev/null)" = "written by the device" \
  && grep -qx 'to stderr' "$work/err"
t $? "a file written through host services, and stderr (got $st)"
fake GOMP_HOST_SERVICES=readonly -- "$work/p-file.ptx"
test $st -eq 0 && grep -q 'fake-device: open: errno' "$work/err"
t $? "GOMP_HOST_SERVICES=readonly reaches the server: the device cannot create a file"

# 8. Bad programs and usage.
fake -- "$work/missing.ptx"
test $st -eq 126 && grep -q "^gomp-nvptx-run: $work/missing.ptx: No such file" "$work/err"
t $? "a missing PROGRAM: status 126 (got $st)"
printf 'not ptx\n' > "$work/p-junk.ptx"
fake -- "$work/p-junk.ptx"
test $st -eq 126 && grep -q '^gomp-nvptx-run: .*does not compile: CUDA_ERROR_INVALID_PTX' "$work/err" \
  && grep -q 'ptxas fatal' "$work/err"
t $? "a file that is not PTX: the JIT's log, status 126 (got $st)"
ptx "$work/p-nomain.ptx" nomain -- "return 0"
fake -- "$work/p-nomain.ptx"
test $st -eq 126 && grep -q 'no kernel __main' "$work/err"
t $? "PTX without __main: status 126 (got $st)"
ptx "$work/p-v1.ptx" hsv1 -- "return 0"
fake -- "$work/p-v1.ptx"
test $st -eq 126 && grep -q 'protocol 1, this launcher 2' "$work/err"
t $? "a device runtime of another protocol: status 126 (got $st)"
fake -- -X "$work/p-argv.ptx"
test $st -eq 125 && grep -q "unknown option '-X'" "$work/err"
t $? "an unknown option: status 125 (got $st)"
fake -- -L 33 "$work/p-argv.ptx"
test $st -eq 125
t $? "-L 33 (more than a warp): status 125 (got $st)"
fake -- -O 3 -G "$work/p-argv.ptx"
test $st -eq 125 && grep -q -- '-G (debug information) needs -O 0' "$work/err"
t $? "-O 3 -G: the JIT cannot do both: status 125 (got $st)"
fake -- -G "$work/p-argv.ptx"
test $st -eq 0 && grep -q '^cuLinkCreate OPTIMIZATION_LEVEL 0$' "$log" \
  && grep -q '^cuLinkCreate GENERATE_DEBUG_INFO 1$' "$log"
t $? "-G alone: optimization level 0 (got $st)"
ptx "$work/p-errno.ptx" hs errno -- newlib-errno "return 0"
fake -- "$work/p-errno.ptx"
test $st -eq 0 && grep -qx 'newlib-errno: 1' "$work/out"
t $? "a runtime with __gomp_nvptx_newlib_errno gets newlib's errno numbers (flag set)"
fake --
test $st -eq 125 && grep -q 'no PROGRAM' "$work/err"
t $? "no PROGRAM: status 125 (got $st)"
fake -- --help
test $st -eq 0 && grep -q -- '--lanes N' "$work/out" && grep -q '134 the kernel failed' "$work/out"
t $? "--help lists the options and the statuses"
fake -- --version
test $st -eq 0 && grep -q '^gomp-nvptx-run ' "$work/out"
t $? "--version"

# 9. With AddressSanitizer and UndefinedBehaviorSanitizer: the launcher's
# paths through the stand-in (the EXIT path ends the process from a
# server thread, so leaks are not checked).
# shellcheck disable=SC2086
if "$cc" -g -O1 -Wall -Wextra -Werror -pthread -fsanitize=address,undefined \
     -fno-omit-frame-pointer $incs -o "$work/gomp-nvptx-run-asan" \
     "$TOP/tools/gomp-nvptx-run.c" $hs_srcs -ldl > "$work/build-asan.log" 2>&1; then
  plain=$run
  run=$work/gomp-nvptx-run-asan
  bad=
  asan ()
  {
    fake ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1 -- "$@"
    if grep -q 'Sanitizer\|runtime error' "$work/err"; then
      bad="$bad [$*]"
      sed 's/^/  /' "$work/err" | head -20
    fi
  }
  asan "$work/p-argv.ptx" "" a "$long"
  asan "$work/p-two.ptx"
  asan -L 32 -O 1 -g -G "$work/p-tls.ptx"
  asan "$work/p-ret.ptx"
  asan "$work/p-hsret.ptx"
  asan "$work/p-trap.ptx"
  asan "$work/p-file.ptx"
  asan -L 64 "$work/p-ntid.ptx"
  asan "$work/p-nomain.ptx"
  asan "$work/p-junk.ptx"
  t "$(test -z "$bad"; echo $?)" "no sanitizer report over the launcher's paths${bad:+ (reports for:$bad)}"
  run=$plain
else
  failt "gomp-nvptx-run does not build with the sanitizers"
  cat "$work/build-asan.log"
fi

# The launcher against the installed server library, where there is one
# (the lead's build: $STAGE/lib/libgomp-hs-server.a).
if test -n "$STAGE" && test -f "$STAGE/lib/libgomp-hs-server.a"; then
  if "$cc" -O2 -Wall -Wextra -Werror -pthread -I"$STAGE/include" \
       -I"$TOP/libgomp" -I"$cuda_inc" -o "$work/gomp-nvptx-run-lib" \
       "$TOP/tools/gomp-nvptx-run.c" "$STAGE/lib/libgomp-hs-server.a" -ldl \
       > "$work/build-lib.log" 2>&1; then
    plain=$run
    run=$work/gomp-nvptx-run-lib
    fake -- "$work/p-argv.ptx" "" "two words" "$long" "-L" "--help" "tab	x" "é"
    test $st -eq 0 && cmp -s "$work/out" "$work/expect"
    t $? "linked with libgomp-hs-server.a: argv through host services (got $st)"
    run=$plain
  else
    failt "gomp-nvptx-run does not build with $STAGE/lib/libgomp-hs-server.a"
    cat "$work/build-lib.log"
  fi
fi

# The real device runtime's globals, as GCC compiled them into the
# staged libgomp.a (host-service.o, reent.o), linked with a __main of
# ours: the launcher accepts their protocol and table versions and
# serves them.
devlib=$STAGE/lib/nvptx-none/libgomp.a
if test -n "$STAGE" && test -f "$devlib"; then
  mkdir -p "$work/devlib"
  if (cd "$work/devlib" && nvptx-none-ar x "$devlib" host-service.o reent.o) 2> /dev/null; then
    ptx "$work/main-only.ptx" -- tls argv "exit 0"
    { cat "$work/main-only.ptx"; printf '\0'; cat "$work/devlib/host-service.o"; printf '\0'
      cat "$work/devlib/reent.o"; printf '\0'; } > "$work/p-real.ptx"
    v=$(sed -n '/__gomp_host_service\[4\] =/{n;s/^{\([0-9]*\).*/\1/p;}' "$work/devlib/host-service.o")
    fake -- "$work/p-real.ptx" arg
    test $st -eq 0 && grep -qx 'argv\[1\]=arg' "$work/out" \
      && grep -q '^tls: version 3 entry [0-9]* nslots 1 epoch 1 table set zeroed$' "$work/out" \
      && test -n "$v" && grep -q "^launch limits STACK_SIZE $((v >> 32)) " "$log"
    t $? "the staged device runtime's __gomp_host_service and __gomp_nvptx_tls are accepted and served (stack $((${v:-0} >> 32)))"
  else
    failt "no host-service.o and reent.o in $devlib"
  fi
else
  echo "UNSUPPORTED: launcher: no staged nvptx libgomp.a (STAGE) for the real device runtime's globals"
fi

# 10. The real driver, where there is one: hand-written PTX without a C
# library (tests/launcher/*.ptx).  ptxas checks them everywhere.
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
if test -x "$ptxas" || command -v "$ptxas" > /dev/null 2>&1; then
  ok=0
  for p in argv-status trap; do
    "$ptxas" -arch=sm_90 "$TOP/tests/launcher/$p.ptx" -o "$work/$p.cubin" \
      > "$work/ptxas-$p.log" 2>&1 || { ok=1; cat "$work/ptxas-$p.log"; }
  done
  t $ok "the real-driver test programs pass ptxas for sm_90"
else
  echo "UNSUPPORTED: launcher: no ptxas to check the real-driver test programs"
fi
"$run" "$TOP/tests/launcher/argv-status.ptx" 7 x > "$work/out" 2> "$work/err"
st=$?
if test $st -eq 127; then
  echo "UNSUPPORTED: launcher: real driver ($(head -1 "$work/err"))"
else
  test $st -eq 37
  t $? "real driver: argc and argv reach __main; status from rval_ptr (37, got $st)"
  "$run" -L 32 -O 3 -g -G -H 1M -S 4096 "$TOP/tests/launcher/argv-status.ptx" 5 \
    > "$work/out" 2> "$work/err"
  st=$?
  test $st -eq 25
  t $? "real driver: -L 32 -O 3 -g -G -H 1M -S 4096 (25, got $st)"
  "$run" "$TOP/tests/launcher/trap.ptx" > "$work/out" 2> "$work/err"
  st=$?
  test $st -eq 134 && grep -q ': kernel failed: CUDA_ERROR_' "$work/err"
  t $? "real driver: a trap: 'kernel failed', status 134 (got $st)"
fi
