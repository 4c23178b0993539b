/* model-check run: -m200000 */
/* The per-thread C library state of the nvptx device runtime
   (libgomp/config/nvptx/reent.c, __getreent), as it is: entries owned by
   a thread's key for one epoch, taken over by the next thread of the
   owner's hardware slot, in a kernel that runs in waves, with threads
   that may be preempted and resume in another slot (tls-table.pmlh
   models the steps; the plugin's epochs, which free every entry between
   two kernels that cannot overlap, are plugin/host-service-nvptx.c,
   nvptx_tls_kernel_begin, tested in tests/sim/plugin-hs.c).
   Properties:
     - the table never fills, however many waves: one entry per slot is
       enough (CHECK_FULL);
     - no entry is claimed from a live thread, and none is taken over
       from a thread that still runs in the slot it claimed it in
       (CHECK_TAKEOVER);
     - a thread that never moved always gets its own entry back, and
       nobody else's (CHECK_RETURN).
   What a thread that moved may suffer is neg-tls-slot.pml.  Dropping the
   slot check of the takeover, or the claim's compare-and-swap of the tag
   (a plain store instead), makes this check fail (checked);
   neg-tls-waves.pml is the design without takeovers.  */

#define TAKEOVER 1
#define MIGRATE 1
#define CHECK_FULL assert (false)
#define CHECK_TAKEOVER(E) \
  assert (live_owner[E] == 0 || at[live_owner[E]] != sl_of[E])
#define CHECK_RETURN(E) \
  assert (moved[me] || (live_owner[E] == me && (mine == 255 || E == mine)))

#include "tls-table.pmlh"
