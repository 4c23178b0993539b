/* printf from OpenACC vector lanes with GOMP_HOST_SERVICES=off (issue 16,
   item 9): every call runs newlib's vfprintf down to the write, which
   fails with ENOSYS, so printf returns a negative value and errno is
   ENOSYS in every lane.  That path needs about 3.1 KiB of hardware stack
   per lane, which the plugin must provide with host services off too:
   with CUDA's default 1 KiB the kernel overflows its stack and fails.
   Prints "device, 64 of 64 printf calls failed with ENOSYS" and exits 0
   when all is well.  GPU only (bench/gpu-check.sh).  */

#include <errno.h>
#include <stdio.h>
#include <openacc.h>

#define N 64

int
main (void)
{
  int r[N], e[N], on_device = 0, n = 0;

#pragma acc parallel loop gang vector num_gangs(2) vector_length(32) \
		copyout(r, e) copy(on_device)
  for (int i = 0; i < N; i++)
    {
      errno = 0;
      r[i] = printf ("lane %d: printf with host services off\n", i);
      e[i] = errno;
      if (i == 0)
	on_device = !acc_on_device (acc_device_host);
    }
  for (int i = 0; i < N; i++)
    n += r[i] < 0 && e[i] == ENOSYS;
  printf ("%s, %d of %d printf calls failed with ENOSYS\n",
	  on_device ? "device" : "host", n, N);
  return on_device && n == N ? 0 : 1;
}
