/* Negative case: the present lookup under the device's lock, as before
   issue 16 (item 4): "target update" in another host thread holds the
   lock while its copy waits for the kernel, the kernel waits for its
   region, the region's lookup waits for the lock.  Spin must find the
   invalid end state.  See rev-present.pmlh.  */

#define LOOKUP_UNDER_DEVLOCK 1
#include "rev-present.pmlh"
