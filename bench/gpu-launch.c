/* Launch latency of an image that uses no host services: built once with
   gomp-gcc (this project's libgomp) and once with plain gcc-12 against
   Debian's own libgomp1 and libgomp-plugin-nvptx1, and run by
   bench/gpu-check.sh, which compares the two.  */

#include <omp.h>
#include <stdio.h>

#define LAUNCHES 2000

int
main (void)
{
  int on_host = 1;
  double t0, best = 1e9;
#pragma omp target map(from: on_host)
  on_host = omp_is_initial_device ();
  if (on_host)
    {
      puts ("launch: not on a GPU");
      return 1;
    }
  /* The best of five runs of LAUNCHES launches.  */
  for (int r = 0; r < 5; r++)
    {
      t0 = omp_get_wtime ();
      for (int i = 0; i < LAUNCHES; i++)
	{
#pragma omp target
	  ;
	}
      t0 = (omp_get_wtime () - t0) / LAUNCHES;
      if (t0 < best)
	best = t0;
    }
  printf ("launch: empty target region %.3f us\n", best * 1e6);
  return 0;
}
