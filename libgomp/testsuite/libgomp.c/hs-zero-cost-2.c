/* A target region that uses errno and newlib's conversions but no I/O
   links the per-thread state of the C library (errno belongs to the
   thread) and still no host-service client: the image has no
   __gomp_host_service, so the plugin allocates nothing for it.  */

/* { dg-do run } */

#include <errno.h>
#include <stdlib.h>

int
main (void)
{
  int e = -1;
  double d = 0;

#pragma omp target map(from: e, d)
  {
    errno = 0;
    d = strtod ("1e999", NULL);
    e = errno;
  }
  return !(e == ERANGE && d > 1e308);
}

/* { dg-final { ptx-valid } } */
/* { dg-final { ptx-not-defined __gomp_host_service gomp_hs_call write _write } } */
