#!/bin/sh
# Device-side costs of a host-service call that only the PTX shows
# (issue 21), checked in both multilibs of the built device libgomp:
#  - publish: the request goes out in four stores, one st.volatile.u64
#    (OP, FLAGS) and three st.volatile.v2.u64, the last region stores
#    before each round (the call to hs_round); the only 4-byte region
#    store is the sequence word's, right behind its membar.sys;
#  - copy out: a batch of 8 or more ld.volatile.v2.u64 that nothing uses
#    before the last is issued (tests/unit/ptx-rounds.awk);
#  - back-off: the longest spin of the wait for a reply (hs_round) is at
#    most 4096 cycles, 2 to 3 us (the nanosleep form is for sm_70 and
#    later, which the library is not built for);
#  - device-only locks (the port locks in host-service.o, newlib's in
#    stdio-lock.o): the first fence or memory access after each atom.cas
#    is membar.gl, so is the last one before each release (atom.exch or
#    st), and stdio-lock.o has no membar.sys at all.
# UNSUPPORTED when the device libgomp is not built.  Environment: STAGE,
# WORK.
here=$(dirname "$0")
for ml in "" mgomp/; do
  tag=${ml:-default/}
  lib=$STAGE/lib/nvptx-none/${ml}libgomp.a
  if ! test -f "$lib"; then
    echo "UNSUPPORTED: hs-device-ptx: ${tag}no device libgomp ($lib)"
    continue
  fi
  d=$WORK/hs-device-ptx-${ml%/}
  d=${d%-}
  rm -rf "$d"; mkdir -p "$d"
  ( cd "$d" && nvptx-none-ar x "$lib" host-service.o stdio-lock.o ) || {
    echo "FAIL: hs-device-ptx: ${tag}no host-service.o or stdio-lock.o in $lib"
    continue; }
  hs=$d/host-service.o

  # Publish.
  if awk '
    /^[ \t]*\/\/ BEGIN/ { n = 0 }
    { line = $0; sub(/^[ \t]+/, "", line); sub(/^@[ \t]*!?[ \t]*%[^ \t]+[ \t]+/, "", line)
      op = line; sub(/[ \t;].*/, "", op) }
    op ~ /^(\/\/|\.|\$|$)/ { next }
    op ~ /^st\.volatile\./ { s[++n] = op }
    op ~ /^call/ && line ~ /hs_round/ {
      calls++
      if (n >= 4 && s[n - 3] == "st.volatile.u64" && s[n - 2] == "st.volatile.v2.u64" \
	  && s[n - 1] == "st.volatile.v2.u64" && s[n] == "st.volatile.v2.u64")
	good++
      n = 0
    }
    op ~ /^st\.volatile\.u32/ && prev != "membar.sys" { bad32++ }
    { prev = op }
    END {
      printf "%d rounds, %d with the 4 stores, %d 4-byte stores not behind membar.sys\n", calls, good, bad32 > "/dev/stderr"
      exit !(calls > 0 && good == calls && bad32 == 0)
    }' "$hs" 2> "$d/publish.txt"; then
    echo "PASS: hs-device-ptx: ${tag}request published in 4 stores (1 st.volatile.u64, 3 st.volatile.v2.u64): $(cat "$d/publish.txt")"
  else
    echo "FAIL: hs-device-ptx: ${tag}request not published in 4 stores: $(cat "$d/publish.txt")"
  fi

  # Copy out.
  run=$(awk -f "$here/ptx-rounds.awk" "$hs" | sed -n 's/^run //p')
  if test "${run:-0}" -ge 8; then
    echo "PASS: hs-device-ptx: ${tag}copy out of the region: $run 16-byte loads in one round"
  else
    echo "FAIL: hs-device-ptx: ${tag}copy out of the region: at most ${run:-0} 16-byte loads in one round (expected 8 or more)"
  fi

  # Back-off: in hs_round, the shift of the cycles the spin waits, and the
  # bound the code puts on it (a min, or the test that stops the count).
  awk '/^[ \t]*\/\/ BEGIN FUNCTION DEF: hs_round/ { f = 1; next }
       f && /^[ \t]*\/\/ BEGIN/ { f = 0 } f' "$hs" > "$d/hs_round.ptx"
  spin=$(awk '
    { line = $0; sub(/^[ \t]+/, "", line); sub(/^@[ \t]*!?[ \t]*%[^ \t]+[ \t]+/, "", line)
      n = split(line, f, /[ \t,;]+/) }
    f[1] ~ /^mov\.u64/ && f[3] ~ /^[0-9]+$/ { konst[f[2]] = f[3] }
    f[1] ~ /^min\.u32/ && f[4] ~ /^[0-9]+$/ { minof[f[2]] = f[4] }
    f[1] ~ /^setp\.(gt|le)\.u32/ && f[4] ~ /^[0-9]+$/ { bound[f[3]] = f[4] + 1 }
    f[1] ~ /^setp\.(lt|ge)\.u32/ && f[4] ~ /^[0-9]+$/ { bound[f[3]] = f[4] }
    f[1] ~ /^mov\.u64/ && line ~ /%clock64/ { clk = 1; next }
    clk && f[1] ~ /^shl\.b64/ { base = f[3]; sh = f[4]; clk = 0 }
    END {
      cap = (sh in minof) ? minof[sh] : (sh in bound) ? bound[sh] : -1
      if (cap < 0 || !(base in konst)) print "?"
      else print konst[base] * 2 ^ cap
    }' "$d/hs_round.ptx")
  case $spin in
    ''|'?') echo "FAIL: hs-device-ptx: ${tag}back-off: no bounded spin found in hs_round" ;;
    *) if test "$spin" -le 4096; then
	 echo "PASS: hs-device-ptx: ${tag}back-off while waiting for a reply: at most $spin cycles"
       else
	 echo "FAIL: hs-device-ptx: ${tag}back-off while waiting for a reply: up to $spin cycles (expected at most 4096)"
       fi ;;
  esac

  # Device-only locks.
  for o in host-service.o stdio-lock.o; do
    r=$(awk '
      { line = $0; sub(/^[ \t]+/, "", line); sub(/^@[ \t]*!?[ \t]*%[^ \t]+[ \t]+/, "", line)
	op = line; sub(/[ \t;].*/, "", op) }
      op ~ /^\/\// || op == "" { next }
      # An access or fence.
      op ~ /^(membar|ld|st|atom|call)/ {
	if (want_after) {
	  if (op != "membar.gl") bad = bad " " cas_line ":" op
	  want_after = 0
	}
	if (op ~ /^atom\..*cas/) { ncas++; want_after = 1; cas_line = NR }
	else if (op ~ /^atom\..*exch/) {
	  nrel++
	  if (last != "membar.gl") bad = bad " " NR ":after-" last
	}
	if (op ~ /^membar\.sys/) nsys++
	last = op
      }
      END { printf "%d %d %d%s\n", ncas, nrel, nsys, bad }' "$d/$o")
    set -- $r
    ncas=$1 nrel=$2 nsys=$3
    shift 3
    if test "$ncas" -gt 0 && test "$nrel" -gt 0 && test $# -eq 0 \
       && { test "$o" != stdio-lock.o || test "$nsys" -eq 0; }; then
      echo "PASS: hs-device-ptx: ${tag}$o: device-only locks fenced with membar.gl ($ncas take, $nrel give)"
    else
      echo "FAIL: hs-device-ptx: ${tag}$o: locks not fenced with membar.gl alone ($ncas take, $nrel give, $nsys membar.sys; wrong at lines:${*:+ $*})"
    fi
  done
done
