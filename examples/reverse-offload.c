/* Reverse offload: a simulation steps on the GPU and, every few steps,
   hands a snapshot to a host function (here: a checkpoint written with
   the host's C library and a running total kept in a host-only
   variable) through "target device(ancestor: 1)".  The GPU does not
   return from its target region in between: the host function runs
   while the kernel waits for it.  Build:

     gomp-gcc -O2 -fopenmp -foffload=nvptx-none reverse-offload.c  */

#include <stdio.h>

#pragma omp requires reverse_offload

#define N 1024
#define STEPS 40
#define EVERY 10

static double host_total;	/* Lives on the host only.  */

/* A host function: never compiled for the device.  */
static int
checkpoint (int step, const double *u, int n)
{
  char name[64];
  FILE *f;
  double sum = 0;
  int i;
  snprintf (name, sizeof name, "checkpoint-%02d.txt", step);
  if ((f = fopen (name, "w")) == NULL)
    return -1;
  for (i = 0; i < n; i++)
    {
      fprintf (f, "%g\n", u[i]);
      sum += u[i];
    }
  fclose (f);
  host_total += sum;
  printf ("host: step %2d saved to %s (sum %.6f)\n", step, name, sum);
  return 0;
}

int
main (void)
{
  static double u[N];
  int failed = 0;

  for (int i = 0; i < N; i++)
    u[i] = i == N / 2 ? 1.0 : 0.0;

#pragma omp target map(tofrom: u, failed)
  {
    double v[N];
    for (int step = 1; step <= STEPS; step++)
      {
	/* Diffusion: one explicit step.  */
	for (int i = 0; i < N; i++)
	  v[i] = u[i] + 0.25 * ((i > 0 ? u[i - 1] : 0) - 2 * u[i]
				+ (i < N - 1 ? u[i + 1] : 0));
	for (int i = 0; i < N; i++)
	  u[i] = v[i];
	if (step % EVERY == 0)
	  {
	    int r = 0;
	    /* The snapshot travels to the host (V is the device's own
	       array: only its bytes go); R comes back.  */
#pragma omp target device(ancestor: 1) map(to: v) map(from: r)
	    r = checkpoint (step, v, N);
	    failed |= r != 0;
	  }
      }
  }
  printf ("host total of the checkpoints: %.6f; %s\n", host_total,
	  failed ? "a checkpoint failed" : "all checkpoints written");
  return failed;
}
