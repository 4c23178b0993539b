/* stdio from every vector lane of an OpenACC compute region: each lane
   of a warp is a thread of its own, and they all print a line and write
   a file of their own at the same time.  On the device the lanes of a
   warp must take turns in every critical section of stdio: a lane that
   spins on a lock held by another lane of its warp (PTX below sm_70 runs
   them in lock step) waits forever.  Every line must arrive whole and
   every file must be right.  */

/* { dg-do run } */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 256

/* Included by hs-oacc-lanes-2.c with another TAG and PORTS.  */
#ifndef TAG
#define TAG "1"
#endif

#pragma acc routine seq
static void
lane_path (char *buf, size_t size, int i)
{
  snprintf (buf, size, "hs-oacc-lanes-" TAG ".%03d.tmp", i);
}

int
main (void)
{
  int bad = 0;

#ifdef PORTS
  /* Before the first compute construct: the device gets PORTS ports.  */
  setenv ("GOMP_HOST_SERVICES_PORTS", PORTS, 1);
#endif

#pragma acc parallel loop gang vector num_gangs(8) vector_length(32) \
		     reduction(+: bad)
  for (int i = 0; i < N; i++)
    {
      char p[64];
      FILE *f;
      if (printf ("lane line %03d of %d\n", i, N) < 0)
	bad++;
      lane_path (p, sizeof p, i);
      f = fopen (p, "w");
      if (f == NULL)
	bad++;
      else
	{
	  if (fprintf (f, "iteration %d squared %d\n", i, i * i) < 0)
	    bad++;
	  if (fclose (f) != 0)
	    bad++;
	}
    }

  for (int i = 0; i < N; i++)
    {
      char p[64], line[64], want[64];
      FILE *f;
      lane_path (p, sizeof p, i);
      f = fopen (p, "r");
      snprintf (want, sizeof want, "iteration %d squared %d\n", i, i * i);
      if (f == NULL || fgets (line, sizeof line, f) == NULL
	  || strcmp (line, want) != 0 || fgetc (f) != EOF)
	bad++;
      if (f != NULL)
	fclose (f);
      remove (p);
    }
  printf ("lanes=%d bad=%d\n", N, bad);
  return bad != 0;
}

/* Each line whole, in whatever order the lanes ran.  */
/* { dg-output "((lane line \[0-9\]\[0-9\]\[0-9\] of 256\r?\n){128}){2}" } */
/* { dg-output "lanes=256 bad=0" } */
/* { dg-final { ptx-valid } } */
