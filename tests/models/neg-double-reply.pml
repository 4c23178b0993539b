/* model-check cc: -O2 -DSAFETY -DCOLLAPSE */
/* model-check run: -m100000 */
/* Negative case (must fail): issue 16, item 12, the server before the
   fix.  hs_hand_off made the round the worker's (PENDING) before
   hs_enqueue knew a worker would take it; when none could be started it
   took the round back and served it on the poller.  Shutdown, in
   between, answered the PENDING round with ECANCELED: one round, two
   replies, the second possibly on the port's next call (assertion: one
   outstanding round per reply, and the reply's sequence number).  */
#define BUG_HANDOFF_REPLY 1
#include "port-protocol.pmlh"
