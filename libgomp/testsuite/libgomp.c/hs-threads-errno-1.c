/* errno belongs to the thread: many OpenMP threads make failing calls at
   once, each kind failing with its own errno, and each thread must read
   back the errno of its own call.  On the device, newlib keeps errno in
   a struct _reent; with one for the whole device, a failure in one
   thread overwrites the errno another is about to read.  Also: errno is
   never 0 after a failed call.  */

/* { dg-do run } */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define TEAMS 4
#define THREADS 8
#define N (TEAMS * THREADS)
#define ITERS 25
#define KINDS 5

/* Make a call that fails in way KIND; return its expected errno, and in
   *FAILED whether it failed.  */

static int
fail_kind (int kind, const char *dir, int *failed)
{
  char path[64];
  switch (kind)
    {
    case 0:
      snprintf (path, sizeof path, "%s/missing/file", dir);
      *failed = open (path, O_RDONLY) == -1;
      return ENOENT;
    case 1:
      *failed = close (-1) == -1;
      return EBADF;
    case 2:
      *failed = mkdir (dir, 0755) == -1;
      return EEXIST;
    case 3:
      {
	/* Not a valid mode: no host call at all on the device.  */
	FILE *f = fopen (dir, "q");
	*failed = f == NULL;
	if (f != NULL)
	  fclose (f);
	return EINVAL;
      }
    default:
      /* Out of range: newlib's strtol, no host call either.  */
      *failed = strtol ("123456789012345678901234567890", NULL, 10)
		== LONG_MAX;
      return ERANGE;
    }
}
#pragma omp declare target to(fail_kind)

int
main (void)
{
  const char dir[] = "hs-threads-errno-1.dir";
  int mismatch[N], zero[N], notfailed[N];
  int nmismatch = 0, nzero = 0, nnotfailed = 0;

  rmdir (dir);
  if (mkdir (dir, 0755) != 0)
    return 1;

#pragma omp target teams num_teams(TEAMS) thread_limit(THREADS) \
		   map(to: dir) map(from: mismatch, zero, notfailed)
#pragma omp parallel num_threads(THREADS)
  {
    int id = omp_get_team_num () * THREADS + omp_get_thread_num ();
    int m = 0, z = 0, nf = 0;

    for (int i = 0; i < ITERS; i++)
      {
	/* Neighbours fail in different ways at the same time.  */
	int kind = (id + i) % KINDS, failed, want, got;
	errno = 0;
	want = fail_kind (kind, dir, &failed);
	got = errno;
	if (!failed)
	  nf++;
	else if (got == 0)
	  z++;
	else if (got != want)
	  m++;
      }
    mismatch[id] = m;
    zero[id] = z;
    notfailed[id] = nf;
  }

  for (int id = 0; id < N; id++)
    {
      nmismatch += mismatch[id];
      nzero += zero[id];
      nnotfailed += notfailed[id];
    }
  rmdir (dir);
  printf ("calls=%d mismatch=%d zero=%d notfailed=%d\n", N * ITERS,
	  nmismatch, nzero, nnotfailed);
  return nmismatch != 0 || nzero != 0 || nnotfailed != 0;
}

/* { dg-output "calls=800 mismatch=0 zero=0 notfailed=0" } */
/* { dg-final { ptx-valid } } */
