/* Reverse-offload regions from every team and every thread at once,
   nested in "teams distribute" and "parallel": each runs exactly once on
   the host, with its own data, side by side with the others.  */

/* { dg-do run } */

#include <stdio.h>

#pragma omp requires reverse_offload

#define N 512

static int calls;

static long
host_square (int v)
{
  __atomic_add_fetch (&calls, 1, __ATOMIC_RELAXED);
  return (long) v * v;
}

int
main (void)
{
  static long res[N], res2[N];
  int i, bad = 0;

#pragma omp target teams distribute parallel for num_teams(16) \
	thread_limit(32) map(from: res)
  for (i = 0; i < N; i++)
    {
      long v = i;
#pragma omp target device(ancestor: 1) map(tofrom: v)
      v = host_square ((int) v);
      res[i] = v;
    }

#pragma omp target teams distribute num_teams(4) map(from: res2)
  for (int c = 0; c < N / 64; c++)
    {
#pragma omp parallel for num_threads(8)
      for (int k = c * 64; k < (c + 1) * 64; k++)
	{
	  int a = k;
	  long b = 0;
#pragma omp target device(ancestor: 1) map(to: a) map(from: b)
	  b = host_square (a) + 1;
	  res2[k] = b;
	}
    }

  for (i = 0; i < N; i++)
    bad += res[i] != (long) i * i || res2[i] != (long) i * i + 1;
  printf ("%d regions ran, %d wrong results\n", calls, bad);
  return !(calls == 2 * N && bad == 0);
}

/* { dg-output "1024 regions ran, 0 wrong results" } */
/* { dg-final { ptx-valid } } */
