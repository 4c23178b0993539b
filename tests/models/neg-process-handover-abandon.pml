/* model-check cc: -O2 -DSAFETY */
/* model-check run: -m1000000 */
/* Negative case (must fail): a callback the device abandons after its
   first round keeps the port with the program's server, which then
   meets the first round of a file call (process-handover.pmlh).  */
#define BUG_NO_HAND_BACK 1
#include "process-handover.pmlh"
