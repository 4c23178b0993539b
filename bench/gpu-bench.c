/* Host services on a real GPU: round-trip latency and streaming
   throughput of calls from a target region, each as a ratio to a
   baseline measured in the same run:

   latency     one lseek from the device, against launching an empty
	       target region (the least a device->host->device trip through
	       the CUDA runtime costs);
   throughput  writing 64 MiB from the device to /dev/null, against
	       omp_target_memcpy of the same bytes from the device.

   Run by bench/gpu-check.sh with OMP_TARGET_OFFLOAD=mandatory.  */

#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CALLS 2000
#define BYTES ((size_t) 64 << 20)

int
main (void)
{
  int dev = omp_get_default_device (), host = omp_get_initial_device ();
  int on_host = 1, fd = -1, bad = 0;
  double t0, empty, call, wr, cp;
  char *hbuf = malloc (BYTES);
  void *dbuf = omp_target_alloc (BYTES, dev);
  long wrote = -1;

  /* Warm up: first launch, first call.  */
#pragma omp target map(from: on_host, fd)
  {
    on_host = omp_is_initial_device ();
    fd = open ("/dev/null", O_WRONLY);
  }
  if (on_host || fd < 0 || dbuf == NULL)
    {
      printf ("gpu-bench: not on a GPU (on_host=%d fd=%d)\n", on_host, fd);
      return 1;
    }

  t0 = omp_get_wtime ();
  for (int i = 0; i < 100; i++)
    {
#pragma omp target
      ;
    }
  empty = (omp_get_wtime () - t0) / 100;

  t0 = omp_get_wtime ();
#pragma omp target map(tofrom: bad)
  for (int i = 0; i < CALLS; i++)
    if (lseek (fd, 0, SEEK_SET) != 0)
      bad++;
  call = (omp_get_wtime () - t0 - empty) / CALLS;

  t0 = omp_get_wtime ();
#pragma omp target is_device_ptr(dbuf) map(from: wrote)
  wrote = write (fd, dbuf, BYTES);
  wr = omp_get_wtime () - t0 - empty;

  t0 = omp_get_wtime ();
  omp_target_memcpy (hbuf, dbuf, BYTES, 0, 0, host, dev);
  cp = omp_get_wtime () - t0;

#pragma omp target
  close (fd);

  printf ("gpu-bench: empty target region %.1f us\n", empty * 1e6);
  printf ("gpu-bench: latency: lseek from the device %.2f us; ratio to an"
	  " empty region %.3f\n", call * 1e6, call / empty);
  printf ("gpu-bench: throughput: write of %zu bytes %.1f MB/s;"
	  " omp_target_memcpy %.1f MB/s; ratio %.3f\n", BYTES,
	  BYTES / wr / 1e6, BYTES / cp / 1e6, cp / wr);
  free (hbuf);
  omp_target_free (dbuf, dev);
  return bad != 0 || wrote != (long) BYTES;
}
