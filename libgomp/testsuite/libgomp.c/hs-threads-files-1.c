/* Every OpenMP thread of every team uses stdio at once: each writes a file
   of its own with fprintf, reads it back with fscanf, and appends one line
   to a file they all share.  On the device, stdio's FILE table, each
   FILE and stdio's initialization are shared by all of them: without
   locks two threads get the same FILE from fopen, and lines are lost or
   mixed.  The host checks every file, and that the shared one holds
   every thread's line exactly once, whole.  */

/* { dg-do run } */

#include <omp.h>
#include <stdio.h>
#include <string.h>

#define TEAMS 8
#define THREADS 8
#define N (TEAMS * THREADS)
#define LINES 6

static void
own_path (char *buf, size_t size, int id)
{
  snprintf (buf, size, "hs-threads-files-1.%02d.tmp", id);
}
#pragma omp declare target to(own_path)

int
main (void)
{
  const char shared_path[] = "hs-threads-files-1.shared.tmp";
  int bad[N], seen[N];
  int nbad = 0, lines = 0, torn = 0;
  char path[64], line[128];
  FILE *f;

  memset (bad, 0, sizeof bad);
  f = fopen (shared_path, "w");
  if (f == NULL)
    return 1;
  fclose (f);

#pragma omp target teams num_teams(TEAMS) thread_limit(THREADS) \
		   map(to: shared_path) map(tofrom: bad)
#pragma omp parallel num_threads(THREADS)
  {
    int id = omp_get_team_num () * THREADS + omp_get_thread_num ();
    char p[64];
    FILE *g;
    int i;

    own_path (p, sizeof p, id);
    g = fopen (p, "w");
    if (g == NULL)
      bad[id] |= 1;
    else
      {
	for (i = 0; i < LINES; i++)
	  if (fprintf (g, "thread %d line %d value %.3f\n", id, i,
		       id + i / 8.0) < 0)
	    bad[id] |= 2;
	if (fclose (g) != 0)
	  bad[id] |= 4;
      }
    g = fopen (p, "r");
    if (g == NULL)
      bad[id] |= 8;
    else
      {
	for (i = 0; i < LINES; i++)
	  {
	    int t = -1, l = -1;
	    double v = -1;
	    if (fscanf (g, "thread %d line %d value %lf ", &t, &l, &v) != 3
		|| t != id || l != i || v != id + i / 8.0)
	      bad[id] |= 16;
	  }
	if (fgetc (g) != EOF)
	  bad[id] |= 32;
	fclose (g);
      }
    g = fopen (shared_path, "a");
    if (g == NULL)
      bad[id] |= 64;
    else
      {
	fprintf (g, "shared %d %.3f end\n", id, id / 4.0);
	if (fclose (g) != 0)
	  bad[id] |= 128;
      }
  }

  for (int id = 0; id < N; id++)
    {
      int ok = 1, i = 0;
      if (bad[id] != 0)
	{
	  printf ("thread %d: device-side failures %#x\n", id, bad[id]);
	  nbad++;
	}
      own_path (path, sizeof path, id);
      f = fopen (path, "r");
      if (f == NULL)
	ok = 0;
      else
	{
	  char want[128];
	  for (; fgets (line, sizeof line, f) != NULL; i++)
	    {
	      snprintf (want, sizeof want, "thread %d line %d value %.3f\n",
			id, i, id + i / 8.0);
	      if (strcmp (line, want) != 0)
		ok = 0;
	    }
	  fclose (f);
	}
      if (!ok || i != LINES)
	{
	  printf ("thread %d: own file wrong (%d lines)\n", id, i);
	  nbad++;
	}
      remove (path);
    }

  memset (seen, 0, sizeof seen);
  f = fopen (shared_path, "r");
  while (f != NULL && fgets (line, sizeof line, f) != NULL)
    {
      int id;
      char want[128];
      lines++;
      if (sscanf (line, "shared %d", &id) == 1 && id >= 0 && id < N)
	{
	  snprintf (want, sizeof want, "shared %d %.3f end\n", id, id / 4.0);
	  if (strcmp (line, want) == 0)
	    {
	      seen[id]++;
	      continue;
	    }
	}
      torn++;
    }
  if (f != NULL)
    fclose (f);
  remove (shared_path);
  for (int id = 0; id < N; id++)
    if (seen[id] != 1)
      {
	printf ("shared line of thread %d seen %d times\n", id, seen[id]);
	nbad++;
      }
  printf ("threads=%d shared-lines=%d torn=%d bad=%d\n", N, lines, torn,
	  nbad);
  return nbad != 0 || torn != 0;
}

/* { dg-output "threads=64 shared-lines=64 torn=0 bad=0" } */
/* { dg-final { ptx-valid } } */
