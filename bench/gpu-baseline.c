/* The physical baselines of the GPU benchmark, through the CUDA driver
   API alone (no libgomp): a raw ping-pong between one device thread and
   one host thread over mapped page-locked memory, and a kernel's raw
   write and read bandwidth over the bus into and out of such memory.
   The kernels are in gpu-baseline.cu; this program loads their PTX from
   the file named on its command line.  Prints lines the GPU check
   parses:

     baseline: sms N
     baseline: ping-pong round trip NS ns
     baseline: mapped write bandwidth MB/s
     baseline: mapped read bandwidth MB/s

   Usage: gpu-baseline PTX-FILE  */

#include <cuda.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(X)							\
  do									\
    {									\
      CUresult r_ = (X);						\
      if (r_ != CUDA_SUCCESS)						\
	{								\
	  const char *s_ = "?";						\
	  cuGetErrorString (r_, &s_);					\
	  fprintf (stderr, "gpu-baseline: %s: %s\n", #X, s_);		\
	  exit (1);							\
	}								\
    }									\
  while (0)

#define ROUNDS 20000
#define BYTES ((size_t) 256 << 20)

static volatile unsigned *ping, *pong;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *
echo (void *arg)
{
  (void) arg;
  for (unsigned i = 1; i <= ROUNDS; i++)
    {
      while (__atomic_load_n (ping, __ATOMIC_ACQUIRE) != i)
	;
      __atomic_store_n (pong, i, __ATOMIC_RELEASE);
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fping, fwrite_, fread_;
  CUdeviceptr dping, dpong, dbuf, dout;
  void *words, *buf;
  unsigned rounds = ROUNDS;
  unsigned long long nwords = BYTES / 8;
  int sms;
  pthread_t t;
  double t0, pp, wr, rd;
  void *args_pp[3], *args_bw[2], *args_rd[3];

  if (argc != 2)
    {
      fprintf (stderr, "usage: gpu-baseline PTX-FILE\n");
      return 2;
    }
  CHECK (cuInit (0));
  CHECK (cuDeviceGet (&dev, 0));
  CHECK (cuDeviceGetAttribute (&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
			       dev));
  CHECK (cuDevicePrimaryCtxRetain (&ctx, dev));
  CHECK (cuCtxSetCurrent (ctx));
  CHECK (cuModuleLoad (&mod, argv[1]));
  CHECK (cuModuleGetFunction (&fping, mod, "pingpong"));
  CHECK (cuModuleGetFunction (&fwrite_, mod, "writebw"));
  CHECK (cuModuleGetFunction (&fread_, mod, "readbw"));
  printf ("baseline: sms %d\n", sms);

  /* Ping-pong: the two words in separate cache lines.  */
  CHECK (cuMemHostAlloc (&words, 4096, CU_MEMHOSTALLOC_DEVICEMAP));
  ping = (volatile unsigned *) words;
  pong = (volatile unsigned *) ((char *) words + 128);
  *ping = *pong = 0;
  CHECK (cuMemHostGetDevicePointer (&dping, words, 0));
  dpong = dping + 128;
  args_pp[0] = &dping;
  args_pp[1] = &dpong;
  args_pp[2] = &rounds;
  pthread_create (&t, NULL, echo, NULL);
  t0 = now ();
  CHECK (cuLaunchKernel (fping, 1, 1, 1, 1, 1, 1, 0, NULL, args_pp, NULL));
  CHECK (cuCtxSynchronize ());
  pp = (now () - t0) / ROUNDS;
  pthread_join (t, NULL);
  printf ("baseline: ping-pong round trip %.0f ns\n", pp * 1e9);

  /* Bandwidth into and out of mapped host memory.  */
  CHECK (cuMemHostAlloc (&buf, BYTES, CU_MEMHOSTALLOC_DEVICEMAP));
  CHECK (cuMemHostGetDevicePointer (&dbuf, buf, 0));
  CHECK (cuMemAlloc (&dout, 8));
  args_bw[0] = &dbuf;
  args_bw[1] = &nwords;
  CHECK (cuLaunchKernel (fwrite_, sms * 4, 1, 1, 256, 1, 1, 0, NULL, args_bw,
			 NULL));
  CHECK (cuCtxSynchronize ());
  t0 = now ();
  CHECK (cuLaunchKernel (fwrite_, sms * 4, 1, 1, 256, 1, 1, 0, NULL, args_bw,
			 NULL));
  CHECK (cuCtxSynchronize ());
  wr = BYTES / (now () - t0);
  args_rd[0] = &dbuf;
  args_rd[1] = &nwords;
  args_rd[2] = &dout;
  t0 = now ();
  CHECK (cuLaunchKernel (fread_, sms * 4, 1, 1, 256, 1, 1, 0, NULL, args_rd,
			 NULL));
  CHECK (cuCtxSynchronize ());
  rd = BYTES / (now () - t0);
  for (size_t k = 0; k < nwords; k += nwords / 7)
    if (((unsigned long long *) buf)[k] != k)
      {
	fprintf (stderr, "gpu-baseline: word %zu not written\n", k);
	return 1;
      }
  printf ("baseline: mapped write bandwidth %.0f MB/s\n", wr / 1e6);
  printf ("baseline: mapped read bandwidth %.0f MB/s\n", rd / 1e6);
  cuMemFreeHost (buf);
  cuMemFreeHost (words);
  cuMemFree (dout);
  cuDevicePrimaryCtxRelease (dev);
  return 0;
}
