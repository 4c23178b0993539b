#!/bin/sh
# Unit test: threads in the nvptx C library, checked on the built archives
# of both multilibs (default: OpenACC; mgomp: OpenMP).
#   - libc.a has no locks of its own (newlib's misc/lock.c is removed) and
#     no __getreent; it references both, and libgomp.a defines each of
#     them, every __retarget_lock_* function and every __lock___* object
#     exactly once;
#   - libgomp's per-thread state (__getreent) uses no host service and
#     never falls back to newlib's global struct _reent;
#   - the standard streams are defined apart from stdio (impure.o), and
#     exit flushes stdio through the pointer stdio's set-up sets (__sinit
#     in newlib 3.3, global_stdio_init in 4.x);
#   - the critical sections of stdio (newlib's stdio/local.h) and those
#     under the environment and time zone locks (sys/lock.h's
#     __lock_lane_turns) are turn loops: in the PTX of each function below, the lanes are
#     counted (the ballot) once, before the loop head; the branch on the
#     turn skips to a point after the section and before the loop-back
#     branch, with no call in between.  The evidence is printed.
# newlib 3.3 names its members lib_a-NAME.o, 4.x libc_a-NAME.o; both are
# checked (the GCC 14 flavour runs this with its own STAGE).
# Environment: STAGE (install tree), WORK.
devlib=$STAGE/lib/nvptx-none
work=${WORK:-.}/newlib-threads
rm -rf "$work"
mkdir -p "$work"

pass () { echo "PASS: newlib-threads: $*"; }
fail () { echo "FAIL: newlib-threads: $*"; }

# Print the body of PTX function $2 from file $1.
ptx_function () {
  awk -v fn="$2" '
    $0 == "// BEGIN GLOBAL FUNCTION DEF: " fn || $0 == "// BEGIN FUNCTION DEF: " fn { p = 1; next }
    /^\/\/ BEGIN/ { p = 0 }
    p' "$1"
}

# Check every turn loop of PTX function $2 in file $1 (see above); print
# the evidence, and "ok N" with the number of loops, or "bad: why".
turn_loops () {
  ptx_function "$1" "$2" | awk '
    { text[NR] = $0 }
    /^\$L[0-9]+:$/ { l = $0; sub (/:$/, "", l); label[l] = NR; islabel[NR] = 1 }
    /call.*[ ,(]__gomp_nvptx_stdio_lanes[,;)]/ { lanes[++nl] = NR }
    /call.*[ ,(]__gomp_nvptx_stdio_lane_turn[,;)]/ { turn[++nt] = NR }
    /call/ { iscall[NR] = 1 }
    /^@ *!? *%r[0-9]+ bra \$L[0-9]+;$/ {
      t = $NF; sub (/;$/, "", t); cbr[NR] = t }
    /(^| )bra(\.uni)? \$L[0-9]+;$/ {
      t = $NF; sub (/;$/, "", t); target[NR] = t }
    END {
      if (nt == 0) { print "bad: no turn loop"; exit }
      if (nl != nt) { printf "bad: %d ballots for %d turn loops\n", nl, nt; exit }
      for (i = 1; i <= nt; i++) {
	T = turn[i]
	for (H = T - 1; H > 0 && !islabel[H]; H--) ;
	head = text[H]; sub (/:$/, "", head)
	B = 0
	for (j = 1; j <= nl; j++) if (lanes[j] < T) B = lanes[j]
	if (B == 0 || B > H) { print "bad: no ballot before the loop head " head; exit }
	for (S = T + 1; S <= NR && !(S in cbr); S++) ;
	if (S > NR) { print "bad: no branch on the turn"; exit }
	J = label[cbr[S]]
	K = 0
	for (k = T + 1; k <= NR; k++)
	  if ((k in cbr) && cbr[k] == head) { K = k; break }
	if (K == 0) { print "bad: no loop-back branch to " head; exit }
	for (k = 1; k <= NR; k++)
	  if ((k in target) && target[k] == head && k != K) {
	    print "bad: a second branch to the loop head at line " k; exit }
	if (!(J > S && J < K)) {
	  printf "bad: the branch on the turn goes to %s, not between the section and the loop-back\n", cbr[S]; exit }
	for (k = J; k < K; k++)
	  if (iscall[k]) { print "bad: a call between the join and the loop-back"; exit }
	for (k = H; k <= K; k++)
	  if (k != T && k in iscall && text[k] ~ /__gomp_nvptx_stdio_lanes/) {
	    print "bad: a ballot inside the loop"; exit }
	printf "  %5d %s\n", B, text[B]
	printf "  %5d %s    <- loop head\n", H, text[H]
	printf "  %5d %s\n", T, text[T]
	printf "  %5d %s    <- skip the section\n", S, text[S]
	printf "  %5d %s    <- join\n", J, text[J]
	for (k = J + 1; k <= K; k++) printf "  %5d %s\n", k, text[k]
      }
      print "ok " nt
    }'
}

for ml in default mgomp; do
  d=$devlib
  test $ml = default || d=$devlib/$ml
  libc=$d/libc.a
  libgomp=$d/libgomp.a
  x=$work/$ml
  mkdir -p "$x/libc" "$x/libgomp"
  if ! test -f "$libc" || ! test -f "$libgomp"; then
    fail "$ml: $libc or $libgomp missing"
    continue
  fi
  (cd "$x/libc" && nvptx-none-ar x "$libc") || fail "$ml: cannot unpack libc.a"
  (cd "$x/libgomp" && nvptx-none-ar x "$libgomp") || fail "$ml: cannot unpack libgomp.a"

  # The members' prefix: lib_a- (newlib 3.3) or libc_a- (4.x).
  p=$(nvptx-none-ar t "$libc" | sed -n 's/^\(libc\{0,1\}_a-\)impure\.o$/\1/p')
  test -n "$p" || { fail "$ml: libc.a has no impure.o"; continue; }
  if nvptx-none-ar t "$libc" | grep -qx "${p}lock\.o"; then
    fail "$ml: libc.a still has newlib's lock.o"
  else
    pass "$ml: libc.a has no lock.o"
  fi

  # What each archive defines and declares.
  for a in libc libgomp; do
    cat "$x/$a"/*.o | grep -a -o '^// BEGIN GLOBAL \(FUNCTION\|VAR\) DEF: [A-Za-z0-9_]*' \
      | sed 's/.*: //' | sort > "$x/$a.defs"
    cat "$x/$a"/*.o | grep -a -o '^// BEGIN GLOBAL \(FUNCTION\|VAR\) DECL: [A-Za-z0-9_]*' \
      | sed 's/.*: //' | sort -u > "$x/$a.decls"
  done
  for s in __retarget_lock_acquire_recursive __retarget_lock_release_recursive \
	   __retarget_lock_init_recursive __getreent \
	   __gomp_nvptx_stdio_lanes __gomp_nvptx_stdio_lane_turn; do
    if grep -qx "$s" "$x/libc.decls" && ! grep -qx "$s" "$x/libc.defs"; then
      pass "$ml: libc.a references $s"
    else
      fail "$ml: libc.a does not reference $s, or defines it"
    fi
  done
  for s in __getreent __errno_location __gomp_nvptx_tls \
	   __gomp_nvptx_stdio_lanes __gomp_nvptx_stdio_lane_turn \
	   __retarget_lock_init __retarget_lock_init_recursive \
	   __retarget_lock_close __retarget_lock_close_recursive \
	   __retarget_lock_acquire __retarget_lock_acquire_recursive \
	   __retarget_lock_try_acquire __retarget_lock_try_acquire_recursive \
	   __retarget_lock_release __retarget_lock_release_recursive \
	   __lock___sinit_recursive_mutex __lock___sfp_recursive_mutex \
	   __lock___atexit_recursive_mutex __lock___at_quick_exit_mutex \
	   __lock___malloc_recursive_mutex __lock___env_recursive_mutex \
	   __lock___tz_mutex __lock___dd_hash_mutex __lock___arc4random_mutex; do
    n=$(grep -cx "$s" "$x/libgomp.defs")
    m=$(grep -cx "$s" "$x/libc.defs")
    if test "$n" = 1 && test "$m" = 0; then
      pass "$ml: $s defined once, by libgomp.a"
    else
      fail "$ml: $s defined $n times by libgomp.a, $m times by libc.a"
    fi
  done

  # The per-thread state links no host service.
  reent=$(grep -l '^// BEGIN GLOBAL FUNCTION DEF: __getreent$' "$x/libgomp"/*.o)
  if test -n "$reent" \
     && ! grep -q 'gomp_hs_call\|__gomp_host_service\|gomp_hs_' $reent; then
    pass "$ml: __getreent uses no host service"
  else
    fail "$ml: __getreent's module uses the host-service client"
  fi
  # ... never falls back to newlib's one global struct _reent (a data
  # race on errno and dtoa's freelist), claims its entry with a
  # compare-and-swap, and says why on the CUDA console when it cannot.
  if test -n "$reent" && ! grep -q '_impure_ptr' $reent \
     && grep -q 'atom[.a-z]*\.cas' $reent && grep -q 'vprintf' $reent; then
    pass "$ml: __getreent claims entries by compare-and-swap and never shares _impure_ptr"
  else
    fail "$ml: __getreent's module references _impure_ptr, or has no atom.cas or no message"
  fi
  # ... and takes over the entry of its hardware slot's previous
  # occupant by a second compare-and-swap (of the key; the claim's is of
  # the tag), both 64-bit, reading the slot (%smid, %warpid) and the
  # device's shape (%nsmid) for its home.
  if test -n "$reent" \
     && test "$(grep -c 'atom[.a-z]*\.cas\.b64' $reent)" -ge 2 \
     && grep -q '%smid' $reent && grep -q '%nsmid' $reent; then
    pass "$ml: __getreent claims or takes over entries by two 64-bit compare-and-swaps from its hardware slot's home"
  else
    fail "$ml: __getreent's module lacks the takeover's compare-and-swap or the slot's home"
  fi

  # The standard streams come with the global struct _reent, not stdio.
  if grep -q '^// BEGIN GLOBAL VAR DEF: __sf$' "$x/libc/${p}impure.o" \
     && ! grep -q '^// BEGIN GLOBAL VAR DEF: __sf$' "$x/libc/${p}findfp.o"; then
    pass "$ml: __sf is defined by impure.o"
  else
    fail "$ml: __sf is not defined by impure.o alone"
  fi

  # exit flushes through __nvptx_exit_flush, which stdio's set-up sets
  # (__sinit in newlib 3.3; global_stdio_init, or the part of it GCC
  # splits out, in 4.x); _exit (in exit.o, or _exit.o in 4.x) does not.
  exitf=$(ptx_function "$x/libc/${p}exit.o" exit)
  exit_o=$(grep -l '^// BEGIN GLOBAL FUNCTION DEF: _exit$' "$x/libc"/*.o | head -n 1)
  setter=$(awk '/^\/\/ BEGIN (GLOBAL )?FUNCTION DEF: / { fn = $NF }
		/st\.global\.u64 \[__nvptx_exit_flush\]/ { print fn }' \
	     "$x/libc/${p}findfp.o" | sort -u)
  if echo "$exitf" | grep -q '\[__nvptx_exit_flush\]' \
     && echo "$exitf" | grep -q 'call %r' \
     && test -n "$exit_o" && ! ptx_function "$exit_o" _exit | grep -q 'call' \
     && echo "$setter" | grep -qx '__sinit\|global_stdio_init\(\$part\$[0-9]*\)\{0,1\}'; then
    pass "$ml: exit calls the flush hook that $(echo $setter) sets"
  else
    fail "$ml: exit does not flush stdio"
  fi

  # The turn loops.
  # Also around the environment and time zone locks (patches/newlib-0004).
  for fm in _fputs_r:fputs _fclose_r:fclose __sinit:findfp __sfp:findfp \
	    _freopen_r:freopen _vfprintf_r:vfprintf _fflush_r:fflush \
	    _findenv_r:getenv_r _getenv_r:getenv_r _setenv_r:setenv_r \
	    _unsetenv_r:setenv_r localtime_r:lcltime_r mktime:mktime \
	    tzset:tzset _tzset_r:tzset_r strftime:strftime; do
    fn=${fm%%:*}
    o=$x/libc/${p}${fm#*:}.o
    out=$(turn_loops "$o" "$fn")
    echo "$out" | sed '$d'
    case $(echo "$out" | tail -n 1) in
      ok*) pass "$ml: $fn: $(echo "$out" | tail -n 1 | cut -d' ' -f2) turn loop(s), ballot before the head, the turn rejoins before the loop-back" ;;
      *) fail "$ml: $fn: $(echo "$out" | tail -n 1)" ;;
    esac
  done
done
