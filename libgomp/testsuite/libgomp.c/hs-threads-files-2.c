/* Threads share one FILE: every OpenMP thread of a team writes lines to a
   FILE that the team's first thread opened, through its buffer.  Each
   fprintf is one unit under the FILE's lock: the host must find every
   line exactly once, whole.  Without the lock, the threads race on the
   FILE's buffer pointers and lines are lost or torn.  */

/* { dg-do run } */

#include <omp.h>
#include <stdio.h>
#include <string.h>

#define THREADS 16
#define LINES 10

int
main (void)
{
  const char path[] = "hs-threads-files-2.tmp";
  int seen[THREADS][LINES], opened = 0, closed = -1, torn = 0, bad = 0;
  char line[128];
  FILE *f;

#pragma omp target teams num_teams(1) thread_limit(THREADS) map(to: path) \
		   map(from: opened, closed)
  {
    FILE *g = fopen (path, "w");
    opened = g != NULL;
    if (g != NULL)
      {
#pragma omp parallel num_threads(THREADS)
	{
	  int id = omp_get_thread_num ();
	  for (int i = 0; i < LINES; i++)
	    fprintf (g, "thread %02d line %02d value %.2f end\n", id, i,
		     id + i / 4.0);
	}
	closed = fclose (g);
      }
  }

  memset (seen, 0, sizeof seen);
  f = fopen (path, "r");
  while (f != NULL && fgets (line, sizeof line, f) != NULL)
    {
      int id, i;
      char want[128];
      if (sscanf (line, "thread %d line %d", &id, &i) == 2
	  && id >= 0 && id < THREADS && i >= 0 && i < LINES)
	{
	  snprintf (want, sizeof want, "thread %02d line %02d value %.2f end\n",
		    id, i, id + i / 4.0);
	  if (strcmp (line, want) == 0)
	    {
	      seen[id][i]++;
	      continue;
	    }
	}
      torn++;
    }
  if (f != NULL)
    fclose (f);
  remove (path);
  for (int id = 0; id < THREADS; id++)
    for (int i = 0; i < LINES; i++)
      bad += seen[id][i] != 1;
  printf ("opened=%d closed=%d torn=%d missing-or-repeated=%d\n", opened,
	  closed, torn, bad);
  return !opened || closed != 0 || torn != 0 || bad != 0;
}

/* { dg-output "opened=1 closed=0 torn=0 missing-or-repeated=0" } */
/* { dg-final { ptx-valid } } */
