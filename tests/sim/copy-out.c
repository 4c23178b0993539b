/* The copy out of a port buffer (host-service-client.h, hs_copy_out), on
   the simulated device: for every misalignment of the region side (from
   the buffer's start and against its end), of the caller's side, every
   length up to 300 bytes, and one lane or the 32 lanes of a warp that is
   one thread (each lane's share run in turn on the same buffers, as the
   lanes would run side by side), check that

   - exactly the N bytes are copied, and no byte of the caller's memory
     outside [DST, DST + N) is touched;
   - every region load is aligned to its size and inside the port's
     buffer (sim-client.h, SIM_LD_LO/SIM_LD_HI), and every chunk is
     loaded once by one lane;
   - the data-path rounds (DATA-PATH ROUNDS) are what the batching
     promises: with L lanes, ceil (ceil (chunks / L) / HS_BATCH) for the
     slowest lane, chunks being the aligned 16-byte chunks that hold the
     copy: one round for any of these lengths with 32 lanes; a load and
     its store per iteration, or a byte per round at either end, would
     show as more.

   Built and run by tests/unit/hs-copy-out.sh.  */

#define _GNU_SOURCE 1
#include <stdio.h>
#include <string.h>
#include "sim-client.h"

enum { BUFSZ = 320, MAXN = 300, GUARD = 64 };

static unsigned char
pattern (size_t i)
{
  return (unsigned char) (i * 131 + 7 + (i >> 8));
}

int
main (void)
{
  /* A port buffer in the middle of a larger region, so that a load
     outside it would read memory that exists, and be caught only by the
     bounds.  */
  static unsigned char region[3 * BUFSZ] __attribute__ ((aligned (64)));
  static unsigned char mem[GUARD + MAXN + 16 + GUARD]
    __attribute__ ((aligned (64)));
  unsigned char *buf = region + BUFSZ;
  unsigned lanes[2] = { 1, 32 };
  unsigned long cases = 0, bad_bytes = 0, bad_loads = 0, bad_rounds = 0;
  unsigned long bad_count = 0, most_rounds[2] = { 0, 0 };
  char why[4][160] = { "", "", "", "" };
  size_t n, i;
  unsigned k, side, doff, pos, l;

  for (i = 0; i < sizeof region; i++)
    region[i] = pattern (i);
  sim_ld_lo = (uintptr_t) buf;
  sim_ld_hi = (uintptr_t) buf + BUFSZ;

  for (k = 0; k < 2; k++)
    for (n = 0; n <= MAXN; n++)
      /* SIDE 0: the copy starts POS bytes into the buffer; 1: it ends POS
	 bytes before the buffer's end.  */
      for (side = 0; side < 2; side++)
	for (pos = 0; pos < 16; pos++)
	  for (doff = 0; doff < 16; doff++)
	    {
	      size_t soff = side == 0 ? pos : BUFSZ - n - pos;
	      size_t nc = n ? ((soff & 15) + n + 15) / 16 : 0;
	      size_t per_lane = (nc + lanes[k] - 1) / lanes[k];
	      unsigned long want = (per_lane + HS_BATCH - 1) / HS_BATCH;
	      unsigned long most = 0, loads = 0;
	      unsigned char *dst = mem + GUARD + doff;
	      if (soff + n > BUFSZ)
		continue;
	      memset (mem, 0xa5, sizeof mem);
	      sim_ld_bad = 0;
	      for (l = 0; l < lanes[k]; l++)
		{
		  unsigned long r0 = sim_data_rounds, d0 = sim_data_loads;
		  sim_data_open = 0;
		  hs_copy_out (dst, buf + soff, n, l, lanes[k]);
		  if (sim_data_rounds - r0 > most)
		    most = sim_data_rounds - r0;
		  loads += sim_data_loads - d0;
		}
	      cases++;
	      for (i = 0; i < sizeof mem; i++)
		{
		  unsigned char want_byte
		    = (mem + i >= dst && mem + i < dst + n
		       ? pattern (BUFSZ + soff + (mem + i - dst)) : 0xa5);
		  if (mem[i] != want_byte)
		    {
		      if (bad_bytes++ == 0)
			snprintf (why[0], sizeof why[0],
				  " (first: %u lanes, n %zu, src +%zu, dst"
				  " +%u: byte %zd wrong)", lanes[k], n, soff,
				  doff, (ssize_t) (mem + i - dst));
		      break;
		    }
		}
	      if (sim_ld_bad)
		{
		  if (bad_loads++ == 0)
		    snprintf (why[1], sizeof why[1],
			      " (first: %u lanes, n %zu, src +%zu: %lu loads"
			      " misaligned or outside the buffer)", lanes[k],
			      n, soff, sim_ld_bad);
		}
	      if (loads != nc)
		{
		  if (bad_count++ == 0)
		    snprintf (why[2], sizeof why[2],
			      " (first: %u lanes, n %zu, src +%zu: %lu loads"
			      " for %zu chunks)", lanes[k], n, soff, loads,
			      nc);
		}
	      if (most != want)
		{
		  if (bad_rounds++ == 0)
		    snprintf (why[3], sizeof why[3],
			      " (first: %u lanes, n %zu, src +%zu, dst +%u:"
			      " %lu rounds, %lu expected)", lanes[k], n, soff,
			      doff, most, want);
		}
	      if (most > most_rounds[k])
		most_rounds[k] = most;
	    }

  printf ("%s: copy-out: exact bytes, nothing outside the destination,"
	  " for lengths 0..%d, all misalignments, 1 and 32 lanes: %lu of %lu"
	  " cases wrong%s\n", bad_bytes ? "FAIL" : "PASS", MAXN, bad_bytes,
	  cases, why[0]);
  printf ("%s: copy-out: region loads aligned and inside the port's"
	  " buffer: %lu cases wrong%s\n", bad_loads ? "FAIL" : "PASS",
	  bad_loads, why[1]);
  printf ("%s: copy-out: every 16-byte chunk loaded once, by one lane:"
	  " %lu cases wrong%s\n", bad_count ? "FAIL" : "PASS", bad_count,
	  why[2]);
  printf ("%s: copy-out: data-path rounds as batched (%d chunks per lane"
	  " per round; at most %lu rounds with 1 lane, %lu with 32): %lu"
	  " cases wrong%s\n", bad_rounds || most_rounds[1] != 1 ? "FAIL"
	  : "PASS", HS_BATCH, most_rounds[0], most_rounds[1], bad_rounds,
	  why[3]);
  return 0;
}
