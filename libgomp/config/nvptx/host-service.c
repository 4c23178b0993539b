/* Host services: the nvptx device side.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This file is part of the GNU Offloading and Multi Processing Library
   (libgomp).

   Libgomp is free software; you can redistribute it and/or modify it
   under the terms of the GNU General Public License as published by
   the Free Software Foundation; either version 3, or (at your option)
   any later version.

   Libgomp is distributed in the hope that it will be useful, but WITHOUT ANY
   WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
   FOR A PARTICULAR PURPOSE.  See the GNU General Public License for
   more details.

   Under Section 7 of GPL version 3, you are granted additional
   permissions described in the GCC Runtime Library Exception, version
   3.1, as published by the Free Software Foundation.

   You should have received a copy of the GNU General Public License and
   a copy of the GCC Runtime Library Exception along with this program;
   see the files COPYING3 and COPYING.RUNTIME respectively.  If not, see
   <http://www.gnu.org/licenses/>.  */

/* The client of host-service.h on nvptx.  __gomp_host_service is what
   the plugin looks for when it loads an image: an image that links this
   file gets a region and a server; one that does not costs nothing.  The
   client algorithm itself is host-service-client.h; this file supplies
   its primitives for PTX:

   - the region is host memory mapped into the device: stores to it are
     made visible to the host, in order, with membar.sys before the
     sequence word is published; the reply is polled with volatile loads
     (never cached), and one membar.sys after the poll orders the reads
     of the reply behind it;
   - port locks and sequence numbers are in device memory (the plugin's
     per-device array), taken with atomics;
   - back-off spins on %clock64 for exponentially longer, so a waiting
     warp does not hammer the PCIe bus or starve its SM's other warps;
   - the lanes primitives come from device-thread.h: under -muniform-simt
     (OpenMP) a client is a warp, whose lanes run the same code in lock
     step; otherwise (OpenACC, and OpenMP in "omp simd") every lane is one.  */

#include "libgomp.h"
#include "host-service-device.h"
#include "device-thread.h"

/* The per-thread hardware stack that the calls of the device C library
   need: CUDA's default (1 KiB) is too small, and with indirect calls in
   newlib's stdio the linker cannot size it.  Measured with ptxas -v
   (CUDA 13, sm_90) on the deepest path, fprintf to an unbuffered stream
   down to the host call (vfprintf, __sbprintf's second vfprintf, the
   flush, _write, hs_call2): about 1.4 KiB in the OpenMP multilib, whose
   frames are on soft stacks and only spills use the hardware stack, and
   about 3.1 KiB for OpenACC (__sbprintf's buffer alone is 1.2 KiB).  The
   plugin raises the context's stack limit to this, with a margin, for
   images that use host services.  */
#ifdef __nvptx_softstack__
#define HS_DEVICE_STACK 4096
#else
#define HS_DEVICE_STACK 8192
#endif

struct gomp_hs_device __gomp_host_service = {
  .version = GOMP_HS_VERSION,
  .stack = HS_DEVICE_STACK
};

/* Accesses to the region: ld.volatile and st.volatile, which no cache
   keeps (GCC emits plain ld and st for C's volatile, and a plain load
   may be served from a stale L1 line).  */

static inline uint32_t
hs_ld32 (const volatile void *p)
{
  uint32_t v;
  __asm__ volatile ("ld.volatile.u32 %0, [%1];" : "=r" (v) : "r" (p)
		    : "memory");
  return v;
}

static inline uint64_t
hs_ld64 (const volatile void *p)
{
  uint64_t v;
  __asm__ volatile ("ld.volatile.u64 %0, [%1];" : "=r" (v) : "r" (p)
		    : "memory");
  return v;
}

/* The 16-byte forms, for aligned chunks: one access where two would be
   two PCIe transactions (and, for loads, two registers' worth of the
   thread's loads in flight for one instruction).  */

static inline void
hs_ld128 (const volatile void *p, uint64_t *lo, uint64_t *hi)
{
  uint64_t a, b;
  __asm__ volatile ("ld.volatile.v2.u64 {%0, %1}, [%2];"
		    : "=r" (a), "=r" (b) : "r" (p) : "memory");
  *lo = a;
  *hi = b;
}

static inline void
hs_st128 (volatile void *p, uint64_t lo, uint64_t hi)
{
  __asm__ volatile ("st.volatile.v2.u64 [%0], {%1, %2};"
		    : : "r" (p), "r" (lo), "r" (hi) : "memory");
}

static inline void
hs_st8 (volatile void *p, uint32_t v)
{
  __asm__ volatile ("st.volatile.u8 [%0], %1;" : : "r" (p), "r" (v)
		    : "memory");
}

static inline void
hs_st32 (volatile void *p, uint32_t v)
{
  __asm__ volatile ("st.volatile.u32 [%0], %1;" : : "r" (p), "r" (v)
		    : "memory");
}

static inline void
hs_st64 (volatile void *p, uint64_t v)
{
  __asm__ volatile ("st.volatile.u64 [%0], %1;" : : "r" (p), "r" (v)
		    : "memory");
}

#define HS_LD64(P) hs_ld64 (P)
#define HS_LD128(P, LO, HI) hs_ld128 ((P), (LO), (HI))
#define HS_ST128(P, LO, HI) hs_st128 ((P), (LO), (HI))
#define HS_ST8(P, V) hs_st8 ((P), (V))
#define HS_ST64(P, V) hs_st64 ((P), (V))

static inline void
hs_publish (volatile uint32_t *w, uint32_t v)
{
  __asm__ volatile ("membar.sys;" : : : "memory");
  hs_st32 (w, v);
}

static inline uint32_t
hs_poll (volatile uint32_t *w)
{
  return hs_ld32 (w);
}

static inline void
hs_acquire (void)
{
  __asm__ volatile ("membar.sys;" : : : "memory");
}

static inline void
hs_load_reply (volatile struct gomp_hs_reply *r, uint32_t *info, int64_t *ret)
{
  uint64_t lo, hi;
  hs_ld128 (r, &lo, &hi);
  *info = (uint32_t) (lo >> 32);
  *ret = (int64_t) hi;
}

static inline uint64_t
hs_clock (void)
{
  uint64_t t;
  __asm__ volatile ("mov.u64 %0, %%clock64;" : "=r" (t));
  return t;
}

/* Back off for exponentially longer, from 32 ns up to a cap of about
   2 us: with nanosleep where the ISA has it (sm_70, PTX 6.3), which frees
   the issue slots for the SM's other warps, else spinning on the cycle
   counter (64 up to 4 K cycles, 2 to 3 us at the clocks GPUs run).

   The cap is what a reply waits for at most before a poll sees it, plus
   the poll's own round trip (about 1 us over PCIe): a call the host
   answers in 10 us is seen by 13 us, 1.3 times, where the 33 us cap this
   had before let it wait up to twice as long.  The waits before the cap,
   32 ns to 2 us, add up to 4 us, so short replies are seen as soon.

   What the polling costs: only a port's owner polls host memory, so at
   most one poller per port, 64 by default.  A poll is one 4-byte read: a
   read request and its completion, each about 30 bytes on the link.  At
   one poll every 3 us per port with every port waiting, that is about
   21 M reads a second, some 0.6 GB/s each way, a few per cent of a PCIe
   4.0 x16 link (25 GB/s and more), and it happens only while the host is
   the bottleneck.  A client that has no port backs off here too, between
   sweeps of the port locks in device memory; a sweep of busy ports waits
   for one L2 round trip per port, longer than any of these pauses, so
   the lower cap changes little of how often the locks are read.  */

#define HS_PAUSE_MAX_SHIFT 6

static inline void
hs_pause (unsigned *backoff)
{
  unsigned shift = *backoff;
  if (*backoff < HS_PAUSE_MAX_SHIFT)
    ++*backoff;
#if defined __PTX_SM__ && __PTX_SM__ >= 700 && GOMP_NVPTX_PTX >= 63
  __asm__ volatile ("nanosleep.u32 %0;" : : "r" (32u << shift));
#else
  {
    uint64_t t0 = hs_clock ();
    uint64_t wait = (uint64_t) 64 << shift;
    while (hs_clock () - t0 < wait)
      ;
  }
#endif
}

/* The lanes making calls together (host-service-client.h): MASK is read
   once per call.  When the warp is one thread, all 32 lanes run the call
   together and are one client (GCC's own code for -muniform-simt
   synchronizes the full warp the same way); otherwise the lanes that
   arrived together, each a client.  */

static inline uint32_t
hs_lane_mask (void)
{
  if (gomp_nvptx_warp_is_thread ())
    return 0xffffffffu;
  return gomp_nvptx_active_lanes ();
}

static inline uint32_t
hs_lanes (uint32_t mask)
{
  return gomp_nvptx_warp_is_thread () ? 1 : mask;
}

#define hs_lane_index gomp_nvptx_lane_index

static inline uint32_t
hs_vote (uint32_t mask, int p)
{
  /* One thread: its lanes hold the same P (GCC broadcasts the results
     of atomics to all of them).  */
  if (gomp_nvptx_warp_is_thread ())
    return p != 0;
  return gomp_nvptx_vote (mask, p);
}

/* The port locks, in device memory, ordered at the device's scope
   (host-service-client.h, hs_port_sweep, says why that is enough): a
   relaxed compare-and-swap, then membar.gl; membar.gl, then a relaxed
   store.  GCC 12 brackets an acquire or release atomic with membar.sys,
   which also waits for the thread's outstanding accesses to host memory,
   for nothing here.  The atomics stay GCC's own, not inline asm: when the
   warp is one thread GCC makes them in one lane and gives every lane the
   result, so that all take the same branch (hs_callv, LANES); the fence
   in every lane is harmless.  */

static inline int
hs_lock_try (uint32_t *p)
{
  uint32_t z = 0;
  if (!__atomic_compare_exchange_n (p, &z, 1, 0, __ATOMIC_RELAXED,
				    __ATOMIC_RELAXED))
    return 0;
  __asm__ volatile ("membar.gl;" : : : "memory");
  return 1;
}

static inline void
hs_lock_free (uint32_t *p)
{
  __asm__ volatile ("membar.gl;" : : : "memory");
  __atomic_store_n (p, 0, __ATOMIC_RELAXED);
}

/* The port lock word, in device memory: ld.volatile, which reads it at
   the level where the atomics act on it (a plain ld, which GCC 12 emits
   for a relaxed __atomic_load_n, may be answered from a stale L1 line).
   When the warp is one thread every lane loads it, and lane 0's value is
   given to all of MASK, so that they all take the same branch.  */

static inline uint32_t
hs_lock_peek (uint32_t mask, uint32_t *p)
{
  uint32_t v = hs_ld32 (p);
  if (gomp_nvptx_warp_is_thread ())
    __asm__ volatile ("shfl.sync.idx.b32 %0, %0, 0, 31, %1;"
		      : "+r" (v) : "r" (mask));
  return v;
}

/* Spread clients over the ports: warps of a CTA, CTAs, and lanes when
   they are clients, all start elsewhere.  */

static inline uint32_t
hs_client_start (void)
{
  uint32_t ctaid, ntid_y, tid_y;
  __asm__ ("mov.u32 %0, %%ctaid.x;" : "=r" (ctaid));
  __asm__ ("mov.u32 %0, %%ntid.y;" : "=r" (ntid_y));
  __asm__ ("mov.u32 %0, %%tid.y;" : "=r" (tid_y));
  return (ctaid * ntid_y + tid_y) * 33 + hs_lane_index ();
}

/* Under -muniform-simt, outside SIMT regions, the 32 lanes of the warp
   make the call as one thread: they share its copies.  */

static inline void
hs_copy_share (uint32_t mask, unsigned *lane, unsigned *nlanes)
{
  (void) mask;
  if (gomp_nvptx_warp_is_thread ())
    {
      *lane = gomp_nvptx_laneid ();
      *nlanes = 32;
    }
  else
    {
      *lane = 0;
      *nlanes = 1;
    }
}

/* Each lane fences its own stores (towards the host if HOST), then the
   lanes of MASK (the call's, read on entry: the whole warp, which is one
   thread) meet, which orders every lane's stores before what any lane
   does next (the publication of the request, the use of the data copied
   out).  */

static inline void
hs_copy_sync (uint32_t mask, int host)
{
  if (host)
    __asm__ volatile ("membar.sys;" : : : "memory");
  else
    __asm__ volatile ("membar.cta;" : : : "memory");
  gomp_nvptx_warp_sync (mask);
}

#include "host-service-client.h"

int64_t
gomp_hs_call2 (uint32_t op, int64_t a0, int64_t a1, int64_t a2,
	       const void *in, uint64_t in_len, const void *in2,
	       uint64_t in2_len, void *out, uint64_t out_cap,
	       uint64_t *out_len, int32_t *err)
{
  int64_t args[4] = { a0, a1, a2, 0 };
  return hs_call2 (&__gomp_host_service, op, args, in, in_len, in2, in2_len,
		   out, out_cap, out_len, err);
}

int64_t
gomp_hs_call (uint32_t op, int64_t a0, int64_t a1, int64_t a2,
	      const void *in, uint64_t in_len, void *out, uint64_t out_cap,
	      uint64_t *out_len, int32_t *err)
{
  return gomp_hs_call2 (op, a0, a1, a2, in, in_len, NULL, 0, out, out_cap,
			out_len, err);
}

int64_t
gomp_hs_callv (uint32_t op, const int64_t args[4], const struct hs_seg *in,
	       unsigned nin, struct hs_sink *out, uint64_t *out_len,
	       int32_t *err)
{
  return hs_callv (&__gomp_host_service, op, args, in, nin, out, out_len,
		   err);
}
