/* The physical baselines of the GPU benchmark (bench/gpu-baseline.c
   launches these through the CUDA driver API; the GPU bundle carries the
   PTX that nvcc makes of this file).

   pingpong   one device thread and one host thread take turns on two
	      words of mapped, page-locked host memory: the device writes
	      I to PING and waits for PONG == I, the host echoes: the least
	      a device->host->device round trip costs;
   writebw    every thread of the grid stores 8-byte words into mapped
	      host memory: the kernel's write bandwidth over the bus;
   readbw     the same, loading (the sum is written to OUT so that the
	      loads are not optimized away).  */

extern "C" __global__ void
pingpong (volatile unsigned *ping, volatile unsigned *pong, unsigned n)
{
  for (unsigned i = 1; i <= n; i++)
    {
      *ping = i;
      __threadfence_system ();
      while (*pong != i)
	;
    }
}

extern "C" __global__ void
writebw (volatile unsigned long long *buf, unsigned long long words)
{
  unsigned long long stride = (unsigned long long) gridDim.x * blockDim.x;
  for (unsigned long long k = blockIdx.x * blockDim.x + threadIdx.x;
       k < words; k += stride)
    buf[k] = k;
}

extern "C" __global__ void
readbw (const volatile unsigned long long *buf, unsigned long long words,
	unsigned long long *out)
{
  unsigned long long stride = (unsigned long long) gridDim.x * blockDim.x;
  unsigned long long sum = 0;
  for (unsigned long long k = blockIdx.x * blockDim.x + threadIdx.x;
       k < words; k += stride)
    sum += buf[k];
  if (sum == 42)
    *out = sum;
}
