/* model-check cc: -O2 -DSAFETY */
/* model-check run: -m1000000 */
/* Negative case (must fail): the program's server clears FWD before it
   writes LAST.  The helper, seeing FWD clear, may take a stale LAST for
   the last round answered and serve the program's final round a second
   time (process-handover.pmlh).  */
#define BUG_LAST_AFTER_FWD 1
#include "process-handover.pmlh"
