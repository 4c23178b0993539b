/* model-check cc: -O2 -DSAFETY -DCOLLAPSE */
/* model-check run: -m100000 */
/* The port protocol as libgomp implements it (port-protocol.pmlh says
   what is modelled and checked): two ports, two device threads, one
   making a host call whose callback never returns, shutdown answering
   it, and every later call answered although that worker never comes
   back.  port-protocol-orphans.pml: both callbacks stuck.  */

#include "port-protocol.pmlh"
