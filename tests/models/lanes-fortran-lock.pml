/* model-check cc: -O2 -DSAFETY */
/* The lock of a Fortran unit in the device libgfortran: gthr-nvptx.h's
   __gthread_mutex_lock -> __gomp_nvptx_gthread_lock
   (libgomp/config/nvptx/posix-io.c) -> __retarget_lock_acquire_recursive
   (stdio-lock.c), held for a whole I/O statement (st_write ..
   st_write_done), with control back in user code in between, so no turn
   loop can surround it.  When several lanes that are threads of their
   own arrive together (LANES, read once, has more than one bit) the
   lowest writes a message and all of them trap: the kernel ends.  A lane
   alone takes the lock.

   Two warps write to the same unit:
   - warp A under independent thread scheduling: NL lanes, one process
     each, arriving in groups (all together, or apart); a lane alone
     spins on the lock while another lane holds it across its statement;
   - warp B under lock-step convergence: its lanes either arrive together
     (then they trap) or one at a time in a divergent branch of the user's
     code, whose side runs the whole statement before the next.
   Checked: no deadlock (the trap ends every thread, also those waiting),
   mutual exclusion over the statement, and every lane makes its
   statement exactly once unless the kernel trapped.  */

#ifndef NL
#define NL 3
#endif

byte owner;		/* the unit's struct __lock.__owner: thread + 1 */
byte in_stmt;
byte stmts[2 * NL];
bit trapped;		/* __builtin_trap: the kernel ends */
byte finished;
byte group[NL], gmask[2];

/* The statement of thread T, whose group is LANES.  */
inline statement (t, lanes)
{
  if
  :: (lanes & (lanes - 1)) != 0 -> trapped = 1	/* message, then trap */
  :: else ->
     atomic { owner == 0 || trapped };		/* spin, with back-off */
     if
     :: atomic { !trapped && owner == 0 -> owner = t + 1 };
	in_stmt++;
	assert (in_stmt == 1);
	stmts[t]++;				/* the statement's transfers */
	in_stmt--;
	owner = 0				/* st_write_done: unlock */
     :: trapped
     fi
  fi
}

proctype LaneA (byte me)
{
  statement (me, gmask[group[me]]);
  finished++
}

proctype WarpB ()
{
  byte l;
  if
  :: statement (NL, (1 << NL) - 1)		/* converged: all at once */
  :: l = 0;					/* diverged: one side each */
     do
     :: l == NL -> break
     :: else -> statement (NL + l, 1 << l); l++
     od;
     l = 0
  fi;
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
  :: else -> assert (trapped || stmts[i] == 1); assert (stmts[i] <= 1); i++
  od
}
