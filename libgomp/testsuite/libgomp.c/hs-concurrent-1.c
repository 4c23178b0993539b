/* Many OpenMP threads in many teams call the host at once: each writes
   its own record with one write(2) to a shared O_APPEND file and reads
   the clock.  Every record must arrive whole, exactly once.  */

/* { dg-do run } */

#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TEAMS 8
#define THREADS 16

int
main (void)
{
  const char path[] = "hs-concurrent-1.tmp";
  int seen[TEAMS * THREADS];
  int fd, clock_ok = 1, n = 0, bad = 0;
  char line[64];
  FILE *f;

  fd = open (path, O_CREAT | O_TRUNC | O_WRONLY | O_APPEND, 0644);
  close (fd);

#pragma omp target teams num_teams(TEAMS) thread_limit(THREADS) \
		   map(to: path) map(tofrom: clock_ok)
  {
    int dfd = open (path, O_WRONLY | O_APPEND);
#pragma omp parallel num_threads(THREADS)
    {
      char rec[32];
      struct timespec ts;
      int id = omp_get_team_num () * THREADS + omp_get_thread_num ();
      int len = snprintf (rec, sizeof rec, "record %04d end\n", id);
      if (write (dfd, rec, len) != len)
	clock_ok = 0;
      if (clock_gettime (CLOCK_REALTIME, &ts) != 0 || ts.tv_sec < 1000000000)
	clock_ok = 0;
    }
    close (dfd);
  }

  memset (seen, 0, sizeof seen);
  f = fopen (path, "r");
  while (f && fgets (line, sizeof line, f))
    {
      int id;
      char end[8];
      if (sscanf (line, "record %d %7s", &id, end) == 2 && strcmp (end, "end") == 0
	  && id >= 0 && id < TEAMS * THREADS)
	seen[id]++;
      else
	bad++;
      n++;
    }
  if (f)
    fclose (f);
  remove (path);
  for (int i = 0; i < TEAMS * THREADS; i++)
    if (seen[i] != 1)
      bad++;
  printf ("records=%d bad=%d clock=%d\n", n, bad, clock_ok);
  return bad != 0 || !clock_ok;
}

/* { dg-output "records=128 bad=0 clock=1" } */
/* { dg-final { ptx-valid } } */
