/* model-check run: -m100000 */
/* The per-thread C library state of the nvptx device runtime
   (libgomp/config/nvptx/reent.c, __getreent; the plugin's epochs in
   libgomp/plugin/host-service-nvptx.c, nvptx_tls_kernel_begin): entries
   owned by a thread's key for one epoch, claimed by a compare-and-swap
   of the entry's epoch, searched from the thread's hardware slot, which
   may change between two calls (preemption).  Two waves of threads: the
   second starts after every thread of the first has ended and the host
   has started a new epoch, as nvptx_tls_kernel_begin does when REFS is
   1.  Properties:
     - no entry is ever claimed or returned while another live thread
       owns it (the reclamation under a live thread of issue 16, item 5);
     - a thread that did not move gets its own entry back;
     - a thread never gets another thread's entry.
   The table may be full (a thread then ends the kernel with a message:
   tls_fail): that is an allowed end, not an error.  Lanes: the threads
   interleave freely here, which covers independent thread scheduling;
   lock-step execution of the lanes of a warp is one of these
   interleavings (the hardware serializes their compare-and-swaps), and
   no step waits for another thread, so every search ends within NSLOT
   steps under both models.  Changing the claim to a plain store, or
   starting the new epoch before the first wave has ended, makes the
   check fail.  */

#define NSLOT 3
#define NTHR 2			/* Threads per wave.  */
#define CALLS 2			/* __getreent calls per thread.  */

byte epoch_of[NSLOT];		/* gomp_nvptx_tls_entry.epoch */
byte key_of[NSLOT];		/* gomp_nvptx_tls_entry.key (0: none yet) */
byte live_owner[NSLOT];		/* Ghost: the live thread owning it, or 0.  */
byte cur_epoch = 1;		/* __gomp_nvptx_tls.epoch */
byte ended = 0;			/* Threads of the first wave that ended.  */

/* One thread with KEY; HINT0 its first hardware slot.  */
proctype thread (byte key; byte hint0; byte wave)
{
  byte hint = hint0, i, step, seen, call = 0, mine = 255, got;
  bool claimed;

  if
  :: wave == 2 -> (cur_epoch == 2)	/* Launched after the new epoch.  */
  :: else -> skip
  fi;
  do
  :: call == CALLS -> break
  :: else ->
     /* Preemption: the thread may resume in any slot.  */
     if
     :: skip
     :: hint = (hint + 1) % NSLOT
     fi;
     /* __getreent: the search from the hardware slot.  */
     i = hint;
     step = 0;
     got = 255;
     claimed = false;
     do
     :: step == NSLOT -> break		/* tls_fail: table full.  */
     :: else ->
	seen = epoch_of[i];		/* tls_ld32 */
	if
	:: seen == cur_epoch ->
	   if
	   :: key_of[i] == key ->	/* tls_ld64: its own.  */
	      got = i;
	      break
	   :: else -> skip
	   fi
	:: else ->
	   /* __atomic_compare_exchange_n (&entry->epoch, &seen, epoch) */
	   atomic {
	     if
	     :: epoch_of[i] == seen ->
		epoch_of[i] = cur_epoch;
		/* Claimed: nobody alive may own it.  */
		assert (live_owner[i] == 0);
		live_owner[i] = key;
		claimed = true
	     :: else -> skip
	     fi
	   }
	   if
	   :: claimed ->
	      key_of[i] = key;		/* __atomic_store_n (&entry->key) */
	      got = i;
	      break
	   :: else -> skip
	   fi
	fi;
	i = (i + 1) % NSLOT;
	step++
     od;
     if
     :: got == 255 -> goto done		/* Ended with a message.  */
     :: else -> skip
     fi;
     /* Never another live thread's entry.  */
     assert (live_owner[got] == key);
     /* A thread that did not move finds its own entry again.  */
     assert (mine == 255 || hint != hint0 || got == mine);
     mine = got;
     call++
  od;
done:
  /* The thread ends: its entries stay claimed for the epoch, but it is
     no longer alive.  */
  atomic {
    i = 0;
    do
    :: i == NSLOT -> break
    :: else ->
       if
       :: live_owner[i] == key -> live_owner[i] = 0
       :: else -> skip
       fi;
       i++
    od;
    if
    :: wave == 1 -> ended++
    :: else -> skip
    fi
  }
}

/* The plugin: a kernel of the second wave is launched when none of the
   first runs, so it starts a new epoch first.  */
proctype host ()
{
  (ended == NTHR);
  cur_epoch = 2
}

init
{
  byte s;
  /* Entries left by an older epoch, with keys of threads long gone.  */
  s = 0;
  do
  :: s == NSLOT -> break
  :: else -> epoch_of[s] = 0; key_of[s] = 9; s++
  od;
  atomic {
    run thread (1, 0, 1);
    run thread (2, 1, 1);
    run host ();
    run thread (3, 0, 2);
    run thread (4, 1, 2)
  }
}
