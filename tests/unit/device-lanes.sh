#!/bin/sh
# The lane-safe port loop of the device client (host-service-client.h,
# hs_callv) must keep its shape in the PTX that GCC emits for both
# multilibs: the lanes read the warp once, on entry, then, in the loop,
# the branch of the lanes that got a port (their whole call) rejoins the
# others at a single vote.sync before the loop goes round again.  A compiler
# that duplicated that vote into the branches would let a lane wait for a
# sibling (see config/nvptx/device-thread.h).  Environment: STAGE, WORK.
for ml in "" mgomp/; do
  lib=$STAGE/lib/nvptx-none/${ml}libgomp.a
  d=$WORK/lanes-${ml%/}
  rm -rf "$d"; mkdir -p "$d"
  ( cd "$d" && nvptx-none-ar x "$lib" host-service.o ) || {
    echo "FAIL: device-lanes: no host-service.o in $lib"; continue; }
  # The body of the function that sweeps the port locks.
  awk '/^\/\/ BEGIN (GLOBAL )?FUNCTION DEF: hs_callv/ { f = 1 }
       f && /^\/\/ BEGIN / && !/hs_callv/ { f = 0 }
       f' "$d/host-service.o" > "$d/hs_callv.ptx"
  votes=$(grep -c 'vote\.sync\..*ballot' "$d/hs_callv.ptx")
  cas=$(grep -c 'atom\..*cas' "$d/hs_callv.ptx")
  if test "$votes" -eq 1 && test "$cas" -ge 1; then
    echo "PASS: device-lanes: ${ml:-default/}hs_callv votes once in the loop (who was served), takes ports with CAS"
  else
    echo "FAIL: device-lanes: ${ml:-default/}hs_callv has $votes votes in the loop and $cas CAS (expected 1 and >= 1)"
  fi
  # The second vote follows the release of the port (atom.exch) on the
  # served lanes' path and the branch of the others: it is reached by a
  # label that both jump to.
  if awk '/atom\..*exch/ { rel = 1 } rel && /^\$L[0-9]+:$/ { lab = 1 }
	  lab && /vote\..*ballot/ { ok = 1; exit } END { exit !ok }' \
	 "$d/hs_callv.ptx"; then
    echo "PASS: device-lanes: ${ml:-default/}the port is released before the lanes meet at the vote"
  else
    echo "FAIL: device-lanes: ${ml:-default/}no vote at a join after the port's release"
  fi
  # Copies out of the region issue their loads in batches of 8 16-byte
  # loads that nothing uses before the last (tests/unit/ptx-rounds.awk),
  # and the reply is polled with loads no cache keeps.
  run=$(awk -f "$(dirname "$0")/ptx-rounds.awk" "$d/hs_callv.ptx" | sed -n 's/^run //p')
  if test "${run:-0}" -ge 8; then
    echo "PASS: device-lanes: ${ml:-default/}copies out of the region: $run 16-byte loads in flight"
  else
    echo "FAIL: device-lanes: ${ml:-default/}no batch of 8 region loads in hs_callv (longest run ${run:-0})"
  fi
  if grep -q 'ld\.volatile\.u32' "$d/host-service.o"; then
    echo "PASS: device-lanes: ${ml:-default/}the reply is polled with ld.volatile"
  else
    echo "FAIL: device-lanes: ${ml:-default/}the poll of the reply is not ld.volatile"
  fi
done

# Independent thread scheduling and the PTX ISA (issue 16, items 2, 3,
# 10): in the port loop's function the warp is read once, every
# vote.sync/shfl.sync/bar.warp.sync names that entry mask, and the port
# lock is probed with ld.volatile (tests/unit/ptx-lanes-check.awk); in
# every object of the library, no instruction newer than the module's
# .version (activemask: PTX 6.2, nanosleep: 6.3, the .sync forms: 6.0).
# The loop before the fix (activemask or a vote without .sync at each
# vote, a plain ld of the lock word) fails the first three; its
# activemask/nanosleep at -misa=sm_70 (PTX 6.0) the last.
here=$(dirname "$0")
for ml in "" mgomp/; do
  d=$WORK/lanes-${ml%/}
  test -f "$d/hs_callv.ptx" || continue
  awk -f "$here/ptx-lanes-check.awk" "$d/hs_callv.ptx" > "$d/check.txt"
  while read -r st name rest; do
    case $st in
      ok) echo "PASS: device-lanes: ${ml:-default/}$name${rest:+ $rest}" ;;
      *) echo "FAIL: device-lanes: ${ml:-default/}$name${rest:+ $rest}" ;;
    esac
  done < "$d/check.txt"
  all=$d/all
  rm -rf "$all"; mkdir -p "$all"
  ( cd "$all" && nvptx-none-ar x "$STAGE/lib/nvptx-none/${ml}libgomp.a" )
  bad=$(for o in "$all"/*.o; do
	  awk -v o="$(basename "$o")" '
	    /^[ \t]*\.version/ { split($2, v, "."); ver = v[1] * 10 + v[2] }
	    /activemask/ && !/^\/\// && ver < 62 { print o ": activemask at PTX " ver / 10; exit }
	    /nanosleep/ && !/^\/\// && ver < 63 { print o ": nanosleep at PTX " ver / 10; exit }
	    /(vote|shfl|bar\.warp)\.sync/ && !/^\/\// && ver < 60 { print o ": .sync at PTX " ver / 10; exit }' "$o"
	done)
  if test -z "$bad"; then
    echo "PASS: device-lanes: ${ml:-default/}libgomp.a: no instruction newer than its module's PTX version"
  else
    echo "FAIL: device-lanes: ${ml:-default/}libgomp.a: $(echo $bad)"
  fi
done

# The libraries with user code for each ISA gomp-gcc may pick: an
# OpenACC program calling printf from divergent vector lanes (the GPU
# check's), every PTX module assembled by ptxas for that ISA and linked
# by nvlink.  Environment: PTXAS, NVLINK, PTX_EXTRACT, TOP.
prog=$WORK/lanes-printf
rm -rf "$prog"; mkdir -p "$prog"
if test -z "$PTXAS" || test -z "$NVLINK"; then
  echo "UNSUPPORTED: device-lanes: libraries with sm_80/sm_75/sm_70 user code (no ptxas/nvlink)"
else
  for isa in sm_80 sm_75 sm_70; do
    # An ISA this ptxas does not have (CUDA 13: sm_70) fails in nvptx-as,
    # with gomp-gcc's note (tests/unit/gomp-gcc.sh): not this test's.
    printf '.version 7.0\n.target %s\n.address_size 64\n.visible .entry k ()\n{\n\tret;\n}\n' "$isa" \
      > "$prog/probe.ptx"
    if ! "$PTXAS" -arch="$isa" -o /dev/null "$prog/probe.ptx" > /dev/null 2>&1; then
      echo "UNSUPPORTED: device-lanes: $isa (not in this ptxas)"
      continue
    fi
    exe=$prog/lanes-$isa.exe
    if ! PATH="$(dirname "$PTXAS"):$PATH" "$STAGE/bin/gomp-gcc" -O2 -fopenacc \
	   -foffload=nvptx-none -foffload-options=nvptx-none=-misa=$isa \
	   "$TOP/tests/offload/hs-oacc-lanes-printf.c" -o "$exe" > "$prog/build-$isa.log" 2>&1; then
      echo "FAIL: device-lanes: $isa user code does not build: $(tail -n 3 "$prog/build-$isa.log")"
      continue
    fi
    mkdir -p "$exe.ptx"
    "$PTX_EXTRACT" "$exe" "$exe.ptx" > /dev/null 2>&1
    set -- "$exe.ptx"/module-*.ptx
    if ! test -f "$1"; then
      echo "FAIL: device-lanes: $isa: no PTX embedded"
    elif why=$(sh "$TOP/tests/ptx-link-check.sh" $isa "$exe.cubin" "$@"); then
      echo "PASS: device-lanes: libraries with $isa user code: $# modules assemble and link for $isa"
    else
      echo "FAIL: device-lanes: $isa: $why"
    fi
  done
fi
