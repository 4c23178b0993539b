/* model-check cc: -O2 -DSAFETY */
/* model-check run: -m1000000 */
/* The hand-over of a port between the server process and the program's
   own server (process-handover.pmlh): every round answered once, by the
   right server, and the device never waits for good.  */
#include "process-handover.pmlh"
