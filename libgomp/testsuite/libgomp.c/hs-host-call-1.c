/* Named host callbacks from a target region: the buffer goes to the host
   and comes back changed, the callback's result is returned, a callback
   may print on the host, an unknown or withdrawn name is ENOENT.  The
   same program runs on the GPU or, without one, on the host.  */

/* { dg-do run } */

#include <errno.h>
#include <gomp-host-services.h>
#include <stdio.h>

#define N 1000

static int64_t
scale (void *buf, size_t size, void *user)
{
  double *d = buf, f = *(double *) user;
  size_t i;
  for (i = 0; i < size / sizeof (double); i++)
    d[i] *= f;
  printf ("host: scaled %zu values\n", size / sizeof (double));
  fflush (stdout);
  return (int64_t) (size / sizeof (double));
}

int
main (void)
{
  static double data[N];
  double factor = 2.5;
  int64_t r = 0, r2 = 0, r3 = 0;
  int err = -1, err2 = 0, err3 = 0, ok = 1, i;

  for (i = 0; i < N; i++)
    data[i] = i;
  if (libgomp_host_register ("scale", scale, &factor) != 0)
    return 1;

#pragma omp target map(tofrom: data, r, err, r2, err2)
  {
    r = libgomp_host_call ("scale", data, sizeof data, &err);
    r2 = libgomp_host_call ("no-such-service", NULL, 0, &err2);
  }
  for (i = 0; i < N; i++)
    if (data[i] != i * 2.5)
      ok = 0;

  libgomp_host_unregister ("scale");
#pragma omp target map(tofrom: r3, err3)
  r3 = libgomp_host_call ("scale", data, sizeof data, &err3);

  printf ("r=%lld err=%d ok=%d missing=%lld/%d withdrawn=%lld/%d\n",
	  (long long) r, err, ok, (long long) r2, err2 == ENOENT,
	  (long long) r3, err3 == ENOENT);
  return !(r == N && err == 0 && ok && r2 == -1 && err2 == ENOENT
	   && r3 == -1 && err3 == ENOENT);
}

/* { dg-output "host: scaled 1000 values\r?\n" } */
/* { dg-output "r=1000 err=0 ok=1 missing=-1/1 withdrawn=-1/1" } */
/* { dg-final { ptx-valid } } */
