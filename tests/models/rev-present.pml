/* Reverse offload's present lookup beside host threads that hold the
   device's lock while they wait for the kernel: the lookup reads the
   index (target-rev-map.c) under its leaf lock, and nothing waits for
   ever.  See rev-present.pmlh.  */

#include "rev-present.pmlh"
