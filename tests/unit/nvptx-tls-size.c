/* Unit test: the sizing of the nvptx device runtime's per-thread C
   library state (libgomp/config/nvptx/device-tls.h), which the nvptx
   plugin applies when it loads an image: one entry per resident thread
   of the device, every lane counted (in OpenACC vector code and OpenMP
   simd regions each lane is a thread of its own), and room on the device
   heap for a struct _reent per entry.  Prints PASS:/FAIL: lines.  */

#include <stdio.h>
#include "device-tls.h"

/* newlib 3.3's and 4.5's struct _reent for nvptx (issue 16; the
   newlib-threads unit test reads it from the built PTX).  */
#define REENT_BYTES 1336u

static int failures;

static void
check (int ok, const char *what, unsigned long long got)
{
  printf ("%s: nvptx-tls-size: %s (%llu)\n", ok ? "PASS" : "FAIL", what, got);
  failures += !ok;
}

int
main (void)
{
  /* An H200: 132 multiprocessors of 2048 resident threads.  */
  unsigned long long n = gomp_nvptx_tls_slots (132, 2048, 0);
  check (n == 132ull * 2048,
	 "an H200 gets one entry per resident lane, not per warp", n);
  check (gomp_nvptx_tls_heap (n) >= (8ull << 20) + n * (REENT_BYTES + 16),
	 "the device heap holds CUDA's default 8 MiB and a struct _reent"
	 " (1336 bytes) with its heap header for every entry",
	 gomp_nvptx_tls_heap (n));
  check (GOMP_NVPTX_TLS_STATE_BYTES >= REENT_BYTES + 256,
	 "each state has room beyond its struct _reent for the first"
	 " conversion caches", GOMP_NVPTX_TLS_STATE_BYTES);
  n = gomp_nvptx_tls_slots (1, 64, 0);
  check (n == 64, "one multiprocessor of two warps: 64 threads", n);
  n = gomp_nvptx_tls_slots (132, 2048, 1000);
  check (n == 1000, "GOMP_NVPTX_THREAD_STATES=1000 is taken as is", n);
  n = gomp_nvptx_tls_slots (132, 2048, 1ull << 40);
  check (n == GOMP_NVPTX_TLS_MAX_SLOTS, "a huge request is bounded", n);
  n = gomp_nvptx_tls_slots (0, 0, 0);
  check (n == 1, "a device that reports nothing still gets an entry", n);
  check (gomp_nvptx_tls_slots (1u << 20, 1u << 20, 0)
	 == GOMP_NVPTX_TLS_MAX_SLOTS,
	 "the product of two large counts does not wrap",
	 gomp_nvptx_tls_slots (1u << 20, 1u << 20, 0));
  check (gomp_nvptx_tls_heap (GOMP_NVPTX_TLS_MAX_SLOTS)
	 > (uint64_t) GOMP_NVPTX_TLS_MAX_SLOTS * REENT_BYTES,
	 "the heap of the largest table does not wrap",
	 gomp_nvptx_tls_heap (GOMP_NVPTX_TLS_MAX_SLOTS));
  check (gomp_nvptx_tls_next_epoch (0xffffffffu) == 1
	 && gomp_nvptx_tls_next_epoch (1) == 2,
	 "epochs skip 0 (no table yet) when they wrap",
	 gomp_nvptx_tls_next_epoch (0xffffffffu));
  {
    /* Homes (the slot is (sm * nwarp + warp) * 32 + lane).  */
    static unsigned char seen[132 * 2048];
    unsigned long long dup = 0, warps_dup = 0;
    uint32_t sm, w, l, h, nt = 132 * 2048, nw = 132 * 64;
    for (sm = 0; sm < 132; sm++)
      for (w = 0; w < 64; w++)
	for (l = 0; l < 32; l++)
	  {
	    h = gomp_nvptx_tls_home ((sm * 64 + w) * 32 + l, 132, 64, nt);
	    dup += seen[h]++ != 0;
	  }
    check (dup == 0, "every hardware slot of an H200 has a home of its own"
	   " in the default table (slots sharing one)", dup);
    for (h = 0; h < nw; h++)
      seen[h] = 0;
    for (sm = 0; sm < 132; sm++)
      for (w = 0; w < 64; w++)
	{
	  h = gomp_nvptx_tls_home ((sm * 64 + w) * 32, 132, 64, nw);
	  warps_dup += seen[h]++ != 0;
	}
    check (warps_dup == 0, "warps that are one thread have distinct homes"
	   " in a table of a 32nd of the default (warps sharing one)",
	   warps_dup);
  }
  return failures != 0;
}
