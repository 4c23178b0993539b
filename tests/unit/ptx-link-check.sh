#!/bin/sh
# tests/ptx-link-check.sh, the PTX checks' ptxas and nvlink with a memory
# of ptxas's output: a module seen before (same text, ISA and ptxas) is
# not assembled again, and gives the same cubin; what ptxas rejects is
# never kept, so it fails every time; another ISA or another ptxas
# assembles afresh; nvlink's failure is reported.  With fake tools that
# log their calls, then, where CUDA's are there, with them.
# Environment: TOP, WORK, PTXAS, NVLINK.
d=$WORK/ptx-link-check
rm -rf "$d"; mkdir -p "$d/mods" "$d/bin"; cd "$d" || exit 1
check=$TOP/tests/ptx-link-check.sh
pass () { echo "PASS: ptx-link-check: $*"; }
fail () { echo "FAIL: ptx-link-check: $*"; }

cat > bin/ptxas <<'SH'
#!/bin/sh
test "$1" = --version && { echo "fake ptxas ${FAKE_PTXAS_VERSION:-1}"; exit 0; }
arch= in= out=
while test $# -gt 0; do
  case $1 in
    -arch=*) arch=${1#-arch=} ;;
    -o) out=$2; shift ;;
    -c) ;;
    *) in=$1 ;;
  esac
  shift
done
echo "$(basename "$in") $arch" >> "$FAKE_CALLS"
grep -q BAD "$in" && { echo "ptxas $in, line 1; error   : bad module"; exit 255; }
{ printf '\177ELF\n'; echo "cubin $arch ${FAKE_PTXAS_VERSION:-1}"; cat "$in"; } > "$out"
SH
cat > bin/nvlink <<'SH'
#!/bin/sh
out=
while test $# -gt 0; do
  case $1 in -o) out=$2; shift ;; -arch=*) ;; *) echo "input $1"; cat "$1" ;; esac
  shift
done > "$FAKE_LINKED"
test -z "$FAKE_NVLINK_FAIL" || { echo "nvlink warning : a warning"; echo "nvlink error   : Undefined reference to 'x'"; exit 1; }
cp "$FAKE_LINKED" "$out"
SH
chmod +x bin/ptxas bin/nvlink
for i in 1 2 3; do echo ".version 7.0 module $i" > mods/m$i.ptx; done
echo ".version 7.0 module 1" > mods/same-as-1.ptx
export FAKE_CALLS=$d/calls FAKE_LINKED=$d/linked
run ()  # ARCH MODULE...
{
  arch=$1; shift
  : > calls
  PTXAS=$d/bin/ptxas NVLINK=$d/bin/nvlink GOMP_PTXAS_MEMO=$d/memo \
    sh "$check" "$arch" "$d/out.cubin" "$@" > msg 2>&1
}
calls () { grep -c . calls; }

run sm_90 mods/m1.ptx mods/m2.ptx mods/m3.ptx
st=$? n=$(calls)
cp mods/m2.ptx.cubin first.cubin
if test $st = 0 && test "$n" = 3 && test -s out.cubin \
   && test "$(grep '^input ' linked | tr '\n' ' ')" = "input mods/m1.ptx.cubin input mods/m2.ptx.cubin input mods/m3.ptx.cubin "; then
  pass "a first run assembles each module and links all their cubins, in order"
else
  fail "first run: status $st, $n ptxas calls: $(cat msg)"
fi
rm -f mods/*.cubin
run sm_90 mods/m1.ptx mods/m2.ptx mods/m3.ptx mods/same-as-1.ptx
st=$? n=$(calls)
if test $st = 0 && test "$n" = 0 && cmp -s first.cubin mods/m2.ptx.cubin \
   && test -s mods/same-as-1.ptx.cubin; then
  pass "modules seen before (one under another name) are not assembled again, and give the same cubins"
else
  fail "second run: status $st, $n ptxas calls: $(cat calls msg)"
fi
# A kept entry that is not a cubin (empty: a crash, or a prune racing a
# use) is no hit: the module is assembled again and the entry replaced.
e=$(ls memo/*.cubin | head -n 1)
: > "$e"
run sm_90 mods/m1.ptx mods/m2.ptx mods/m3.ptx
st=$? n=$(calls)
if test $st = 0 && test "$n" = 1 && test -s "$e"; then
  pass "an empty kept entry is no hit: that module is assembled again, the entry replaced"
else
  fail "empty entry: status $st, $n ptxas calls, entry $(wc -c < "$e") bytes"
fi
run sm_80 mods/m1.ptx
n=$(calls)
test "$n" = 1 && pass "another ISA assembles afresh" \
  || fail "another ISA: $n ptxas calls"
FAKE_PTXAS_VERSION=2 run sm_90 mods/m1.ptx
n=$(calls)
test "$n" = 1 && grep -q 'cubin sm_90 2' mods/m1.ptx.cubin \
  && pass "another ptxas --version assembles afresh" \
  || fail "another ptxas: $n ptxas calls"

echo ".version 7.0 BAD" > mods/bad.ptx
for i in 1 2; do
  run sm_90 mods/m1.ptx mods/bad.ptx
  st=$? n=$(calls)
  if test $st = 1 && test "$n" = 1 \
     && test "$(cat msg)" = "ptxas bad.ptx: ptxas mods/bad.ptx, line 1; error   : bad module"; then
    pass "run $i: a module ptxas rejects fails, with ptxas's error, and is not kept"
  else
    fail "rejected module, run $i: status $st, $n ptxas calls: $(cat msg)"
  fi
done
FAKE_NVLINK_FAIL=1 run sm_90 mods/m1.ptx mods/m2.ptx
st=$?
test $st = 1 && test "$(cat msg)" = "nvlink: nvlink error   : Undefined reference to 'x'" \
  && pass "nvlink's failure: its error, not its warning, and status 1" \
  || fail "nvlink's failure: status $st: $(cat msg)"
# Without a memory every module is assembled.
: > calls
PTXAS=$d/bin/ptxas NVLINK=$d/bin/nvlink GOMP_PTXAS_MEMO= \
  sh "$check" sm_90 "$d/out.cubin" mods/m1.ptx mods/m2.ptx > msg 2>&1
test $? = 0 && test "$(calls)" = 2 && pass "GOMP_PTXAS_MEMO empty: every module assembled" \
  || fail "no memory: $(calls) calls: $(cat msg)"

# CUDA's own tools: a module they reject fails on every run.
if test -n "$PTXAS" && test -n "$NVLINK"; then
  printf '.version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k ()\n{\n\tret;\n}\n' > ok.ptx
  printf '.version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k ()\n{\n\tbogus.op;\n}\n' > bad.ptx
  ok=yes
  for i in 1 2; do
    GOMP_PTXAS_MEMO=$d/memo-cuda sh "$check" sm_90 "$d/cuda.cubin" ok.ptx > msg 2>&1 || ok=no
    GOMP_PTXAS_MEMO=$d/memo-cuda sh "$check" sm_90 "$d/cuda.cubin" bad.ptx > msg 2>&1 && ok=no
    grep -q '^ptxas bad.ptx: ' msg || ok=no
  done
  test $ok = yes && test "$(ls "$d/memo-cuda" | wc -l)" = 1 \
    && pass "CUDA's ptxas: a valid module passes twice, an invalid one fails twice and is not kept" \
    || fail "CUDA's ptxas: $(cat msg); kept: $(ls "$d/memo-cuda")"
else
  echo "UNSUPPORTED: ptx-link-check: CUDA's ptxas and nvlink (not there)"
fi
