/* printf from divergent OpenACC vector lanes, in user code built for
   sm_80 (independent thread scheduling) calling the device libraries
   (PTX for sm_30): every lane's line must arrive exactly once, and the
   kernel must end (bench/gpu-check.sh counts the lines).  The lanes of a
   warp take the three sides of a branch, so they reach newlib's stdio
   turns and the host-service port loop apart and together.  */

#include <stdio.h>

#define N 256

int
main (void)
{
  int ok = 1;
#pragma acc parallel num_gangs (4) vector_length (32) copy (ok)
  {
#pragma acc loop gang vector
    for (int i = 0; i < N; i++)
      {
	if (i % 3 == 0)
	  printf ("lane-line %d a\n", i);
	else if (i % 3 == 1)
	  {
	    if (printf ("lane-line %d b\n", i) < 0)
	      ok = 0;
	  }
	else
	  fprintf (stdout, "lane-line %d c\n", i);
      }
  }
  printf ("ended %d\n", ok);
  return ok ? 0 : 1;
}
