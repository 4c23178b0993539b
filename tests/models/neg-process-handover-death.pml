/* model-check cc: -O2 -DSAFETY */
/* model-check run: -m1000000 */
/* Negative case (must fail): the program's server does not forget a
   port it hands back (FORWARDED stays set until its poller looks
   again).  If the server process answers the next round and dies
   before that look, the program's server takes its own last answer for
   the port's and answers that round a second time
   (process-handover.pmlh).  */
#define BUG_STALE_FORWARDED 1
#include "process-handover.pmlh"
