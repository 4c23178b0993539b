/* model-check run: -m200000 */
/* Negative case: the epoch-only table of commit f140375 (entries freed
   only by the next epoch, no takeovers) in a kernel that runs in waves,
   as GCC's default OpenACC launch sizes give (issue 16, item 5, review
   H2): with one entry per hardware slot the second wave finds the table
   full and the kernel traps (tls_fail).  tls-table.pmlh without
   takeovers or migration; the check must find the assertion violation.
   tls-claim.pml shows that with takeovers the table never fills.  */

#define TAKEOVER 0
#define MIGRATE 0
#define CHECK_FULL assert (false)
#define CHECK_TAKEOVER(E) skip
#define CHECK_RETURN(E) \
  assert (live_owner[E] == me && (mine == 255 || E == mine))

#include "tls-table.pmlh"
