/* exit flushes stdio on the device only once stdio is in use: a target
   region that may call exit but uses no stdio links neither stdio nor
   the host-service client.  */

/* { dg-do run } */

#include <stdlib.h>

int
main (void)
{
  int x = 0;

#pragma omp target map(tofrom: x)
  {
    if (x == 12345)
      exit (3);
    x += 42;
  }
  return x != 42;
}

/* { dg-final { ptx-valid } } */
/* { dg-final { ptx-not-defined __gomp_host_service gomp_hs_call __sinit __sfp } } */
