/* model-check cc: -O2 -DSAFETY -DCOLLAPSE */
/* NEGATIVE CASE: the port loop of hs_callv before the fix
   (host-service-client.h at 237bb5c, device-thread.h's
   gomp_nvptx_ballot: activemask, then vote.sync with it, at every vote)
   under independent thread scheduling.  Lanes that reach the vote apart
   each see only themselves; each keeps the other's bit in PENDING and,
   once served, goes round for ever: the check must find a lane whose
   PENDING names a sibling that has left (an assertion violation).  */

#define VOTE_ACTIVEMASK 1
#include "lanes-port-its.pmlh"
