/* model-check cc: -O2 -DSAFETY -DCOLLAPSE */
/* model-check run: -m100000 */
/* The port protocol (port-protocol.pmlh) with both device threads making
   host calls whose callbacks never return: after shutdown both ports are
   orphans (HS_OWNER_ORPHAN), and every later call of either thread, on
   either port, must still be answered exactly once.  */

#define BOTH_STUCK 1
#include "port-protocol.pmlh"
