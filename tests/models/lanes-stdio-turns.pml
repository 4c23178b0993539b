/* model-check cc: -O2 -DSAFETY */
/* The lane turns of newlib's stdio on nvptx (patches/newlib-0002:
   _newlib_lane_turns_start/_end in stdio/local.h; the primitives
   __gomp_nvptx_stdio_lanes and __gomp_nvptx_stdio_lane_turn in
   libgomp/config/nvptx/stdio-lock.c, device-thread.h) around a critical
   section that takes one FILE's lock (__retarget_lock_acquire_recursive:
   a CAS on the owner, retried after a back-off).

   Two warps use the same FILE at once:
   - warp A under independent thread scheduling: NL lanes, one process
     each, that arrive in one group or two; each group reads LANES once
     (gomp_nvptx_lanes: activemask), then every lane goes through the
     turns, and a lane may run ahead into its turn and spin on the lock;
   - warp B under lock-step convergence: one process; the lane whose turn
     it is runs its whole section while the others wait at the join.
   Checked: no deadlock, mutual exclusion in the section, every lane of
   both warps runs its section exactly once.  */

#ifndef NL
#define NL 3
#endif

byte owner;		/* struct __lock.__owner: thread + 1, 0 when free */
byte in_cs;		/* threads inside the section */
byte done_cs[2 * NL];	/* sections run, per thread (A: 0 .. NL-1, B: NL ..) */
byte finished;
byte group[NL], gmask[2];

/* lock_take / the section / lock_give for thread T.  */
inline section (t)
{
  atomic { owner == 0 -> owner = t + 1 };	/* lock_take: CAS, back-off */
  in_cs++;
  assert (in_cs == 1);
  done_cs[t]++;
  in_cs--;
  owner = 0					/* lock_give */
}

/* gomp_nvptx_lane_turn: the lowest lane left in LANES.  */
inline lowest (lanes, l)
{
  l = 0;
  do
  :: (lanes >> l) & 1 -> break
  :: else -> l++
  od
}

proctype LaneA (byte me)
{
  byte lanes = gmask[group[me]], l;
  do
  :: lanes == 0 -> break
  :: else ->
     lowest (lanes, l);
     if
     :: l == me -> section (me)
     :: else
     fi;
     l = 0;
     lanes = lanes & (lanes - 1)
  od;
  finished++
}

proctype WarpB ()
{
  byte lanes = (1 << NL) - 1, l;
  do
  :: lanes == 0 -> break
  :: else ->
     lowest (lanes, l);
     section (NL + l);		/* the turn's side runs to the join */
     l = 0;
     lanes = lanes & (lanes - 1)
  od;
  finished++
}

init
{
  byte i;
  atomic {
    i = 0;
    do
    :: i == NL -> break
    :: else ->
       if
       :: group[i] = 0
       :: i > 0 -> group[i] = 1
       fi;
       gmask[group[i]] = gmask[group[i]] | (1 << i);
       i++
    od;
    run WarpB ();
    i = 0;
    do
    :: i == NL -> break
    :: else -> run LaneA (i); i++
    od
  }
  finished == NL + 1;
  i = 0;
  do
  :: i == 2 * NL -> break
  :: else -> assert (done_cs[i] == 1); i++
  od
}
