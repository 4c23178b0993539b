/* model-check cc: -O2 -DSAFETY -DCOLLAPSE */
/* model-check run: -m100000 */
/* Negative case (must fail): a race this model found in the server (at
   237bb5c, and still after the first fix of item 1).  The poller reads CLOSING once per scan; if
   shutdown sets it, and answers for the workers, while the poller is
   between that read and a hand-off, the round handed off after it is
   never answered when its callback never returns (invalid end state).
   hs_enqueue now refuses hand-offs once shutdown has answered for the
   workers (HANDOFFS_CLOSED); this case leaves that out.  */
#define BUG_LATE_HANDOFF 1
#include "port-protocol.pmlh"
