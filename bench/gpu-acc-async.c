/* Asynchronous OpenACC kernels, one after another on one queue: what
   each costs (us), in an image that uses host services and in one that
   does not (built twice by bench/make-gpu-bundle.sh, with and without
   -DHS_ACC_HOST_SERVICES).  The plugin brackets each launch of an image
   that uses host services for the server, and learns that it ended from
   an event recorded after it (an earlier version ended the bracket from
   a stream callback, which held the queue until the host had run it);
   the ratio of the two figures (bench/gpu-check.sh) is what the bracket
   costs a queue of kernels that never call the host: goal 1.  Both
   images pay for the stream callback that libgomp itself queues after
   each asynchronous compute construct (goacc_unmap_vars).  With
   HS_ACC_HOST_SERVICES the image calls the host once, outside the
   measurement, so it has a region and a server.  Prints "bench: acc async kernel N us (host
   services: yes|no)".  */

#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define KERNELS 2000
#define N 1024

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* K kernels on queue 1, each adding 1 to every element of A (present).  */

static void
kernels (float *a, int k)
{
  for (int j = 0; j < k; j++)
    {
#pragma acc parallel loop async(1) present(a[0:N])
      for (int i = 0; i < N; i++)
	a[i] += 1.0f;
    }
#pragma acc wait(1)
}

int
main (void)
{
  static float a[N];
  double t;
  int bad = 0;
  if (acc_get_device_type () == acc_device_host)
    {
      printf ("bench: acc async: not on a GPU\n");
      return 1;
    }
#pragma acc data copy(a)
  {
#ifdef HS_ACC_HOST_SERVICES
    /* One gang, vector-single: one line.  */
#pragma acc parallel num_gangs(1) vector_length(32)
    printf ("acc async: host services on\n");
#endif
    /* Warm up, then measure.  */
    kernels (a, 10);
    t = now ();
    kernels (a, KERNELS);
    t = now () - t;
  }
  for (int i = 0; i < N; i++)
    bad += a[i] != (float) (KERNELS + 10);
  printf ("bench: acc async kernel %.2f us (host services: %s)\n",
	  t / KERNELS * 1e6,
#ifdef HS_ACC_HOST_SERVICES
	  "yes"
#else
	  "no"
#endif
	  );
  return bad != 0;
}
