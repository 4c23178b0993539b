/* model-check run: -m100000 */
/* Negative case: the per-thread state as it was before issue 16, item 5
   (libgomp/config/nvptx/reent.c at 237bb5c, __getreent and take_slot):
   the entry is the one of the thread's hardware slot, and a thread that
   finds another key there takes the slot over, reclaiming the previous
   occupant's struct _reent, on the assumption that the occupant has
   ended.  With preemption a thread resumes in another slot while alive,
   and another thread then takes over its entry, possibly in the middle
   of a conversion.  The check must find the assertion violation.  */

#define NSLOT 2

byte key_of[NSLOT];
byte live_owner[NSLOT];		/* Ghost: the live thread using it.  */

proctype thread (byte key; byte hint0)
{
  byte hint = hint0, call = 0;
  do
  :: call == 2 -> break
  :: else ->
     if
     :: skip
     :: hint = (hint + 1) % NSLOT	/* Preempted, resumed elsewhere.  */
     fi;
     atomic {
       if
       :: key_of[hint] == key -> skip
       :: else ->
	  /* take_slot: reclaim the previous occupant's state.  */
	  assert (live_owner[hint] == 0);
	  key_of[hint] = key
       fi;
       live_owner[hint] = key
     }
     call++
  od
}

init
{
  atomic {
    run thread (1, 0);
    run thread (2, 1)
  }
}
