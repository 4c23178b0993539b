/* model-check cc: -O2 -DSAFETY -DCOLLAPSE */
/* model-check run: -m100000 */
/* Negative case (must fail): issue 16, item 1, the server before the
   fix.  Shutdown answers the round of a worker whose callback never
   returns but leaves the port the worker's, and the poller skips ports
   that workers own (host-service-server.c, hs_poll_pass and
   hs_answer_for_worker at 237bb5c).  The device thread that was answered
   lets go of the port; its next call takes the same port and is never
   answered: invalid end state (the client waits for ever, and so does
   the plugin's wait for the device).  */
#define BUG_SHUTDOWN_SKIP 1
#include "port-protocol.pmlh"
