/* The environment and the time zone from every vector lane of an
   OpenACC compute region: getenv, unsetenv, localtime_r, mktime and
   strftime take newlib's environment and time zone locks, which the
   lanes of a warp must take in turns (patches/newlib-0004) -- a lane
   spinning on the lock a sibling holds would hang the kernel.  Every
   lane gets its own answers, and the kernel ends.  */

/* { dg-do run } */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 256

int
main (void)
{
  int bad = 0;

#pragma acc parallel loop gang vector num_gangs(8) vector_length(32) \
		     reduction(+: bad)
  for (int i = 0; i < N; i++)
    {
      time_t t = (time_t) 1000000000 + (time_t) i * 86400 + i;
      struct tm tm;
      char buf[32];
      if (getenv ("HS_OACC_LANES_3_UNSET") != NULL)
	bad++;
      if (unsetenv ("HS_OACC_LANES_3_UNSET") != 0)
	bad++;
      if (localtime_r (&t, &tm) == NULL)
	bad++;
      else
	{
	  if (mktime (&tm) != t)
	    bad++;
	  if (strftime (buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm) != 19)
	    bad++;
	}
    }
  printf ("lanes=%d bad=%d\n", N, bad);
  return bad != 0;
}

/* { dg-output "lanes=256 bad=0" } */
/* { dg-final { ptx-valid } } */
