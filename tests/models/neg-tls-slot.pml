/* model-check run: -m200000 */
/* Negative case: the one hazard that reent.c accepts (see its opening
   comment and the manual, "Device Threads").  A thread that is preempted
   and resumes in another hardware slot while a new thread starts in its
   old slot and calls the C library loses its entry to that thread, which
   takes it over as if its owner had ended, reclaiming its struct
   _reent.  tls-table.pmlh with takeovers and migration, and the strict
   property that no entry is ever taken over from a live thread: the
   check must find the assertion violation.  The design before issue 16,
   item 5 (reent.c at 237bb5c: the entry of the thread's current slot,
   taken over on any other key) had the same hazard on every call of a
   moved thread; the hybrid has it only for the entry of the moved
   thread's old slot, when a new thread there takes it over.  */

#define TAKEOVER 1
#define MIGRATE 1
#define CHECK_FULL skip
#define CHECK_TAKEOVER(E) assert (live_owner[E] == 0)
#define CHECK_RETURN(E) skip

#include "tls-table.pmlh"
