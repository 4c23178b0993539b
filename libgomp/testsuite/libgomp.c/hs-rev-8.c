/* Implicit maps in reverse-offload regions: an array and a structure
   that the region names without a map clause are mapped tofrom, and GCC
   marks such a map as implicit in its kind (GOMP_MAP_IMPLICIT, 0x60 on
   top of tofrom).  The host serves them as the explicit kind (before,
   it refused the request as malformed and the kernel stopped).  On the
   host (host fallback) the region shares the device code's storage, so
   the results are the same either way.  */
/* { dg-do run } */

#include <omp.h>
#include <stdio.h>

#pragma omp requires reverse_offload

struct pair
{
  int a, b;
};

int
main (void)
{
  int res = 0, on_dev = 0;

#pragma omp target map(tofrom: res, on_dev)
  {
    int arr[6] = { 1, 2, 3, 4, 5, 6 }, j, ok = 1;
    struct pair p = { 7, 8 };
    on_dev = !omp_is_initial_device ();
#pragma omp target device(ancestor: 1)
    {
      for (j = 0; j < 6; j++)
	arr[j] += 10;
      p.b = p.a * 10;
    }
    for (j = 0; j < 6; j++)
      ok &= arr[j] == j + 11;
    res = ok && p.a == 7 && p.b == 70;
  }
  printf ("on device: %d; implicit array and structure %s\n", on_dev,
	  res ? "right" : "wrong");
  return !res;
}

/* { dg-final { ptx-valid } } */
/* { dg-final { ptx-defined GOMP_target_rev } } */
