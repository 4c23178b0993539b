/* model-check cc: -O2 -DSAFETY -DCOLLAPSE */
/* model-check run: -m100000 */
/* Negative case (must fail): the server before the fix of the review's
   item L7 (issue 16 follow-up).  When no worker ran and none could be
   started, hs_hand_off's caller served the round on the poller itself;
   a named host callback that never returns then held the poller for
   good, and no port of the device was answered again (invalid end
   state: the other port's call waits forever).  hs_hand_off now refuses
   such a round with EAGAIN; this case puts the old choice back.  */
#define BUG_NO_WORKER_SERVES 1
#include "port-protocol.pmlh"
