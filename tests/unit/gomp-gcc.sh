#!/bin/sh
# Unit tests of the gomp-gcc driver: clear errors, PTX ISA selection,
# host-only builds, and a relocated install tree that works without any
# environment variable.  Environment: STAGE, WORK, PTX_EXTRACT.
stage=$STAGE
work=$WORK/gomp-gcc
rm -rf "$work"; mkdir -p "$work"
cd "$work" || exit 1

pass () { echo "PASS: gomp-gcc $*"; }
fail () { echo "FAIL: gomp-gcc $*"; }

cat > t.c <<'SRC'
#include <stdio.h>
#include <omp.h>
int
main (void)
{
  int n = 0;
#pragma omp target map(from: n)
  n = 6 * 7;
  printf ("n=%d\n", n);
  return n != 42;
}
SRC

# 1. No runtime next to the driver: a clear error, non-zero status.
mkdir -p empty/bin
cp "$stage/bin/gomp-gcc" empty/bin/
if empty/bin/gomp-gcc -fopenmp t.c -o t-empty 2> err.txt; then
  fail "without a runtime: succeeded"
elif grep -q "libgomp.so.1 is missing: build it with 'make' first" err.txt; then
  pass "without a runtime: clear error"
else
  fail "without a runtime: unexpected message: $(cat err.txt)"
fi

# 2. Default ISA and GOMP_GCC_PTX_ISA override, read off the user's module.
user_isa ()
{
  rm -rf "ptx-$1"; mkdir "ptx-$1"
  "$PTX_EXTRACT" "$1" "ptx-$1" > /dev/null || return 1
  grep -l 'main\$_omp_fn' "ptx-$1"/*.ptx | head -n 1 | xargs grep -h -o '^\.target sm_[0-9]*'
}
"$stage/bin/gomp-gcc" -O2 -fopenmp t.c -o t-default 2> err.txt \
  && ./t-default | grep -q 'n=42' \
  && pass "default build runs" || fail "default build: $(cat err.txt)"
isa=$(user_isa t-default)
test "$isa" = ".target sm_80" && pass "default ISA sm_80" || fail "default ISA: '$isa'"
GOMP_GCC_PTX_ISA=sm_75 "$stage/bin/gomp-gcc" -O2 -fopenmp t.c -o t-75 2> err.txt
isa=$(user_isa t-75)
test "$isa" = ".target sm_75" && pass "GOMP_GCC_PTX_ISA=sm_75" || fail "GOMP_GCC_PTX_ISA=sm_75: '$isa'"

"$stage/bin/gomp-gcc" -O2 -fopenmp -foffload-options=nvptx-none=-misa=sm_75 \
  t.c -o t-opt75 2> err.txt
isa=$(user_isa t-opt75)
test "$isa" = ".target sm_75" && pass "user's -misa=sm_75 wins" || fail "user's -misa=sm_75: '$isa'"

# 3. -foffload=disable: a host-only executable, no PTX in it.
"$stage/bin/gomp-gcc" -O2 -fopenmp -foffload=disable t.c -o t-host 2> err.txt \
  && ./t-host | grep -q 'n=42' || fail "-foffload=disable build: $(cat err.txt)"
mkdir -p ptx-host
if "$PTX_EXTRACT" t-host ptx-host > /dev/null 2>&1; then
  fail "-foffload=disable: PTX embedded"
else
  pass "-foffload=disable: host only"
fi

# 4. A relocated install tree: the executable finds that tree's libgomp,
#    and libgomp the plugin beside it, with no environment variable.
cp -RP "$stage" moved
env -u LD_LIBRARY_PATH moved/bin/gomp-gcc -O2 -fopenmp t.c -o t-moved 2> err.txt \
  || fail "relocated tree: $(cat err.txt)"
lib=$(env -u LD_LIBRARY_PATH ldd ./t-moved | awk '/libgomp.so.1/ { print $3 }')
case $lib in
  "$work/moved/lib/libgomp.so.1") pass "relocated tree: libgomp from the tree" ;;
  *) fail "relocated tree: libgomp resolved to '$lib'" ;;
esac
env -u LD_LIBRARY_PATH ./t-moved | grep -q 'n=42' \
  && pass "relocated tree: runs" || fail "relocated tree: does not run"
if readelf -d moved/lib/libgomp.so.1 | grep -q 'RUNPATH.*\[\$ORIGIN\]'; then
  pass "libgomp.so.1 loads its plugin from its own directory"
else
  fail "libgomp.so.1 has no \$ORIGIN runpath"
fi

# 5. No text relocation in a PIE with offload code.
if readelf -d t-default | grep -q TEXTREL; then
  fail "offloading executable has DT_TEXTREL"
else
  pass "offloading executable has no DT_TEXTREL"
fi

# 5a. A host part built with -fcf-protection (Ubuntu's default, hardened
#     builds' flag) offloads: Debian's driver alone refuses the link,
#     since the option reaches the nvptx compiler.
ver=$(cat "$stage/libexec/gomp-hs/gcc-version" 2>/dev/null) || ver=12
if "$stage/bin/gomp-gcc" -fopenmp -fcf-protection=full t.c -o t-cf > cf.txt 2>&1 \
   && objdump -d --disassemble=main t-cf | grep -A 1 '<main>:' | grep -q endbr64 \
   && ./t-cf | grep -q '^n=42$'; then
  pass "-fcf-protection=full: builds and runs, the host part protected (main starts with endbr64)"
else
  fail "-fcf-protection=full: $(grep -m 1 error cf.txt)"
fi
if "gcc-$ver" -fopenmp -foffload-options=-misa=sm_80 -fcf-protection=full t.c \
     -o t-cf-plain > cf-plain.txt 2>&1; then
  fail "negative case: gcc-$ver -fcf-protection=full offloads without gomp-gcc"
elif grep -q "fcf-protection=full.*not supported for this target" cf-plain.txt; then
  pass "negative case: gcc-$ver alone refuses -fcf-protection=full for nvptx"
else
  fail "negative case: gcc-$ver failed otherwise: $(grep -m 1 error cf-plain.txt)"
fi

# 5b. A compiler that protects the stack by default (as Ubuntu's gcc-N
#     does: here gcc-N -fstack-protector-strong) builds a target region
#     whose buffer the protector would guard; alone it fails, on the
#     guard that GCC's nvptx code reads without declaring it.
cat > ssp.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>
int
main (void)
{
  int n = 0;
#pragma omp target map(from: n)
  {
    char buf[64];
    snprintf (buf, sizeof buf, "%d", 42);
    n = atoi (buf);
  }
  printf ("n=%d\n", n);
  return n != 42;
}
SRC
printf '#!/bin/sh\nexec gcc-%s -fstack-protector-strong "$@"\n' "$ver" > ssp-cc
chmod +x ssp-cc
if GOMP_GCC_CC=$work/ssp-cc "$stage/bin/gomp-gcc" -O2 -fopenmp ssp.c -o t-ssp > ssp.txt 2>&1 \
   && ./t-ssp | grep -q '^n=42$'; then
  pass "a compiler that protects the stack by default: builds and runs"
else
  fail "a compiler that protects the stack by default: $(grep -m 1 -E 'error|unresolved' ssp.txt)"
fi
if ./ssp-cc -O2 -fopenmp -foffload-options=-misa=sm_80 ssp.c -o t-ssp-plain > ssp-plain.txt 2>&1; then
  fail "negative case: gcc-$ver -fstack-protector-strong offloads the buffer without gomp-gcc"
elif grep -q '__stack_chk_' ssp-plain.txt; then
  pass "negative case: gcc-$ver -fstack-protector-strong alone fails on __stack_chk_"
else
  fail "negative case: gcc-$ver -fstack-protector-strong failed otherwise: $(grep -m 1 error ssp-plain.txt)"
fi

# 6. The ISA probe, against fake ptxas programs that accept some ISAs,
#    each only with the PTX version it needs (as ptxas does for a module
#    with code), in a fake install tree whose "host compiler" records its
#    command line.  CUDA 12: sm_70, sm_75, sm_80, sm_90; CUDA 13: no sm_70.
#    Neither knows sm_35.
mkdir -p fake/bin fake/lib/nvptx-none/mgomp fake/libexec/gomp-hs cuda12 cuda13
cp "$stage/bin/gomp-gcc" fake/bin/
cp "$stage/libexec/gomp-hs/ptx-isa" fake/libexec/gomp-hs/
: > fake/lib/libgomp.so.1
: > fake/lib/nvptx-none/libgomp.a
: > fake/lib/nvptx-none/mgomp/libgomp.a
cat > fake-cc <<'SH'
#!/bin/sh
echo "$@" > "$FAKE_CC_OUT"
test -z "$FAKE_CC_STATUS" && exit 0
echo "fake-cc: error: compile failed" >&2
exit "$FAKE_CC_STATUS"
SH
for cuda in 12 13; do
  case $cuda in
    12) isas="sm_70 sm_75 sm_80 sm_90" ;;
    13) isas="sm_75 sm_80 sm_90" ;;
  esac
  cat > "cuda$cuda/ptxas" <<SH
#!/bin/sh
test "\$1" = --version && { echo "Cuda compilation tools, release $cuda.0, V$cuda.0.0"; exit 0; }
arch= file=
for a in "\$@"; do
  case \$a in -arch=*) arch=\${a#-arch=} ;; -o|/dev/null) ;; *) file=\$a ;; esac
done
case " $isas " in
  *" \$arch "*) ;;
  *) echo "ptxas fatal   : Value '\$arch' is not defined for option 'gpu-name'" >&2; exit 255 ;;
esac
case \$arch in sm_70) need=60 ;; sm_75) need=63 ;; sm_80) need=70 ;; *) need=78 ;; esac
v=\$(sed -n 's/^\.version \([0-9]*\)\.\([0-9]\).*/\1\2/p' "\$file")
test "\${v:-0}" -ge \$need || { echo "ptxas \$file, line 2; error   : PTX .version does not support .target \$arch" >&2; exit 255; }
exit 0
SH
  chmod +x "cuda$cuda/ptxas"
done
chmod +x fake-cc
probe ()
{
  cuda=$1; shift
  rm -f cc-out
  env PATH="$work/cuda$cuda:$PATH" GOMP_GCC_CC="$work/fake-cc" \
    FAKE_CC_OUT="$work/cc-out" fake/bin/gomp-gcc -fopenmp "$@" t.c 2> probe-err.txt
}
picked () { test -f cc-out && grep -o -- '-misa=sm_[0-9]*' cc-out | tail -n 1; }
for cuda in 12 13; do
  probe $cuda
  test "$(picked)" = "-misa=sm_80" && pass "probe on CUDA $cuda picks sm_80" \
    || fail "probe on CUDA $cuda picks '$(picked)': $(cat probe-err.txt)"
done
probe 12 -foffload-options=nvptx-none=-misa=sm_70
test "$(picked)" = "-misa=sm_70" && pass "CUDA 12: user's -misa=sm_70 accepted" \
  || fail "CUDA 12: user's -misa=sm_70: '$(picked)' $(cat probe-err.txt)"
# The user's own ISA is not refused beforehand (a program that offloads
# nothing builds with any: GCC's requires-6.c names sm_35); when the
# compile fails, a note after the compiler's errors says why, and the
# status is the compiler's.
if probe 13 -foffload-options=nvptx-none=-misa=sm_70 \
   && test "$(picked)" = "-misa=sm_70" && ! test -s probe-err.txt; then
  pass "CUDA 13: user's -misa=sm_70 passed to a compile that succeeds, no note"
else
  fail "CUDA 13: user's -misa=sm_70, compile succeeds: '$(picked)' $(cat probe-err.txt)"
fi
FAKE_CC_STATUS=3 probe 13 -foffload-options=nvptx-none=-misa=sm_70
st=$?
if test $st = 3 \
   && sed -n 1p probe-err.txt | grep -q '^fake-cc: error' \
   && sed -n 2p probe-err.txt | grep -q -- "^gomp-gcc: note: -misa=sm_70: the ptxas on PATH (CUDA 13.0) cannot assemble code for sm_70.*use one it accepts: sm_80 sm_75$"; then
  pass "CUDA 13: user's -misa=sm_70, compile fails: the compiler's status, then a note naming the ISAs ptxas accepts"
else
  fail "CUDA 13: user's -misa=sm_70, compile fails: status $st, $(cat probe-err.txt)"
fi
FAKE_CC_STATUS=1 probe 12 "-foffload-options=nvptx-none=-O2 -misa=sm_35"
st=$?
if test $st = 1 && grep -q -- "-misa=sm_35: the ptxas on PATH (CUDA 12.0) cannot assemble" probe-err.txt \
     && ! grep -q gpu-name probe-err.txt; then
  pass "user's -misa=sm_35, compile fails: a clear note"
else
  fail "user's -misa=sm_35, compile fails: status $st, $(cat probe-err.txt)"
fi
FAKE_CC_STATUS=1 probe 12 -foffload-options=nvptx-none=-misa=sm_70
st=$?
if test $st = 1 && ! grep -q note probe-err.txt; then
  pass "CUDA 12: user's -misa=sm_70, compile fails: no note (ptxas takes sm_70)"
else
  fail "CUDA 12: user's -misa=sm_70, compile fails: status $st, $(cat probe-err.txt)"
fi
if GOMP_GCC_PTX_ISA=sm_70 probe 13; then
  fail "CUDA 13: GOMP_GCC_PTX_ISA=sm_70 not refused"
elif grep -q -- "-misa=sm_70: the ptxas" probe-err.txt; then
  pass "CUDA 13: GOMP_GCC_PTX_ISA=sm_70 refused clearly"
else
  fail "CUDA 13: GOMP_GCC_PTX_ISA=sm_70: $(cat probe-err.txt)"
fi
