/* model-check cc: -O2 -DNP -DNFAIR=8 -DCOLLAPSE */
/* model-check run: -l -f -m1000000 */
/* Progress of the port-selection loop of hs_callv under independent
   thread scheduling (the model of lanes-port-loop.pml, with two lanes,
   so that the search for cycles stays small): under weak fairness there
   is no cycle in which no request is answered (progress labels of the
   host in lanes-port.pmlh) -- no lane, and not the other warp, goes round
   the loop for ever while others could be served.  */

#define NL 2
#include "lanes-port-its.pmlh"
