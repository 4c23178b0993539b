/* model-check cc: -O2 -DSAFETY -DCOLLAPSE */
/* The port-selection loop of hs_callv (libgomp/host-service-client.h)
   under independent thread scheduling: the NL lanes of a warp interleave
   freely.  The lanes arrive at hs_callv in one group or two (lanes that
   diverged in the caller, sm_80 user code): each group reads its MASK
   once, on entry (hs_lane_mask: activemask), and vote.sync with MASK
   (hs_vote, gomp_nvptx_vote) blocks until every lane of MASK has arrived
   at that vote.  Ports are shared with another warp (lanes-port.pmlh).
   Checked: no deadlock (invalid end state), mutual exclusion per port,
   every lane served exactly once, and that a lane's PENDING names only
   lanes still in the call (so no lane goes round for a sibling that has
   left: the hang of the loop before the fix).  The lanes and the vote
   are in lanes-port-its.pmlh.
   lanes-port-loop-lockstep.pml is the same loop under lock-step
   convergence; neg-vote-activemask.pml the loop before the fix.  */

#include "lanes-port-its.pmlh"
