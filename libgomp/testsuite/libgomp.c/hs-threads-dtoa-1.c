/* Floating-point conversions in many OpenMP threads at once.  newlib's
   dtoa keeps big-integer caches (a free list, the powers of 5) in the
   struct _reent; shared by every thread of the device, they are corrupted
   when two threads convert at the same time.  Every value here is exact
   in binary, so each thread can build the expected text from integers
   alone and compare.  No host call is needed for any of it.  */

/* { dg-do run } */

#include <omp.h>
#include <stdio.h>
#include <string.h>

#define TEAMS 8
#define THREADS 8
#define N (TEAMS * THREADS)
#define K 40

/* 5**20: c / 2**20 == c * 5**20 / 10**20.  */
#define POW5_20 95367431640625ULL

static int
check (const char *got, const char *want)
{
  return strcmp (got, want) != 0;
}

/* The conversions of value number K of thread ID that differ from what
   integers say they must be.  */

static int
convert (int id, int k)
{
  char got[64], want[64], frac[8];
  int bad = 0, a, b, len, digits;
  unsigned c;
  double v;

  /* a + b/8, 1000 <= a < 10000: %f, %e and %g.  */
  a = 1000 + (id * 37 + k * 101) % 9000;
  b = k % 8;
  v = a + b / 8.0;
  snprintf (got, sizeof got, "%f", v);
  snprintf (want, sizeof want, "%d.%06d", a, b * 125000);
  bad += check (got, want);

  snprintf (got, sizeof got, "%.6e", v);
  digits = a * 1000 + b * 125;
  snprintf (want, sizeof want, "%d.%06de+03", digits / 1000000,
	    digits % 1000000);
  bad += check (got, want);

  snprintf (got, sizeof got, "%.7g", v);
  snprintf (frac, sizeof frac, "%03d", b * 125);
  for (len = 3; len > 0 && frac[len - 1] == '0'; len--)
    frac[len - 1] = '\0';
  if (len == 0)
    snprintf (want, sizeof want, "%d", a);
  else
    snprintf (want, sizeof want, "%d.%s", a, frac);
  bad += check (got, want);

  /* a * 2**40: big integers in dtoa.  */
  v = a * 1099511627776.0;
  snprintf (got, sizeof got, "%.0f", v);
  snprintf (want, sizeof want, "%llu", a * 1099511627776ULL);
  bad += check (got, want);

  /* c / 2**20 to 20 decimals: powers of 5 in dtoa.  */
  c = 1 + (id * 977 + k * 131) % 65535;
  v = c / 1048576.0;
  snprintf (got, sizeof got, "%.20f", v);
  snprintf (want, sizeof want, "0.%020llu", c * POW5_20);
  bad += check (got, want);

  return bad;
}
#pragma omp declare target to(check, convert)

int
main (void)
{
  int bad[N], total = 0;

#pragma omp target teams num_teams(TEAMS) thread_limit(THREADS) \
		   map(from: bad)
#pragma omp parallel num_threads(THREADS)
  {
    int id = omp_get_team_num () * THREADS + omp_get_thread_num ();
    int n = 0;
    for (int k = 0; k < K; k++)
      n += convert (id, k);
    bad[id] = n;
  }

  for (int id = 0; id < N; id++)
    total += bad[id];
  /* The same conversions on the host: the expected texts are right.  */
  for (int k = 0; k < K; k++)
    total += convert (0, k) != 0;
  printf ("conversions=%d mismatches=%d\n", N * K * 5, total);
  return total != 0;
}

/* { dg-output "conversions=12800 mismatches=0" } */
/* { dg-final { ptx-valid } } */
