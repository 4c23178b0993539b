/* Host services: the client side of the protocol, shared by the device
   runtime and the simulated device used in testing.
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

/* The client algorithm of host-service.h, written once for every kind of
   client.  The file that includes this one supplies the primitives that
   depend on where the client runs:

     hs_publish (W, V)       store V to the sequence word W with release
			     semantics towards the host (nvptx: membar.sys,
			     then a volatile store);
     hs_poll (W)             load the sequence word W, no ordering (nvptx:
			     a volatile load);
     hs_acquire ()           an acquire fence after a poll saw the reply
			     (nvptx: membar.sys);
     hs_load_reply (R, I, V) load the reply block R in one access: *I
			     gets its INFO, *V its RET;
     hs_pause (UNSIGNED *)   back off, a little longer each call;
     hs_lane_mask ()         the hardware lanes that make this call
			     together, read once on entry: the MASK
			     passed to each primitive below, which
			     synchronizes exactly those lanes;
     hs_lanes (MASK)         the clients among them, as a bit set
			     identical in each lane (1 when the caller
			     is a single thread);
     hs_lane_index ()        the calling lane's bit in that set;
     hs_vote (MASK, P)       the set of those clients for which P holds:
			     waits until every lane of MASK is there;
     hs_lock_try (P)         try to take the port lock *P (0 to 1):
			     nonzero when taken, with acquire semantics
			     towards the device's other threads;
     hs_lock_free (P)        free it, with release semantics towards them
			     (nvptx: relaxed atomics and membar.gl; see
			     hs_port_sweep);
     hs_lock_peek (MASK, P)  load the port lock word *P past any cache
			     that could hold a stale copy (nvptx:
			     ld.volatile), the same value in all the
			     lanes of a client;
     hs_client_start ()      the port this client tries first (spreads
			     clients, lanes included, over the ports);
     hs_copy_share (MASK, L, N)  *N gets the number of lanes that share
			     the copies of a call (the lanes of a warp
			     that is one thread; 1 for any other
			     client), *L this lane's index among them;
     hs_copy_sync (MASK, HOST)  after the lanes sharing a copy have made
			     their stores: make them visible to one
			     another, and with HOST to the host before the
			     request is published.

   HS_COUNT_WAIT (), if defined, is called for every poll that did not yet
   see the reply: the simulated device counts the region loads a call
   costs besides waiting (host-service.h: two per round).  HS_DATA_USE (),
   if defined, is called before the values loaded by a copy out of the
   region are used: the simulated device counts the data path's rounds
   (DATA-PATH ROUNDS below).  HS_COPY_OUT, if defined, is the function
   that copies out of the region (the simulated device runs a warp's
   lanes through hs_copy_out with it).

   And the accessors of the region, which the host changes behind the
   compiler's and the device caches' back:

     HS_LD64 (P)             load an aligned 8-byte word;
     HS_LD128 (P, LO, HI)    load an aligned 16-byte chunk into *LO, *HI
			     (optional: two HS_LD64 if not defined);
     HS_ST8 (P, V), HS_ST64 (P, V)   store a byte, an aligned 8-byte word;
     HS_ST128 (P, LO, HI)    store LO, HI to the aligned 16 bytes at P
			     (optional: two HS_ST64 if not defined)
			     (nvptx: ld.volatile/st.volatile, vector forms
			     for 16 bytes, which no cache keeps: a plain
			     load could be served from a stale L1 line).  */

#ifndef GOMP_HOST_SERVICE_CLIENT_H
#define GOMP_HOST_SERVICE_CLIENT_H 1

#include <stddef.h>
#include "host-service.h"
#include "host-service-seg.h"

static inline volatile struct gomp_hs_port *
hs_port (const struct gomp_hs_device *d, uint32_t i)
{
  return (volatile struct gomp_hs_port *)
    (uintptr_t) (d->region + gomp_hs_ports_offset ()
		 + (uint64_t) i * sizeof (struct gomp_hs_port));
}

static inline volatile unsigned char *
hs_buf (const struct gomp_hs_device *d, uint32_t i)
{
  return (volatile unsigned char *)
    (uintptr_t) (d->region + gomp_hs_buf_offset (d->nports, d->buf_size, i));
}

/* Whether D describes host services this client can use.  Only the
   device's own copy of the geometry is read: the plugin checked the
   version and wrote it, and the region's header is never read.  */

static inline int
hs_usable (const struct gomp_hs_device *d)
{
  return d->region != 0 && d->ports != 0 && d->nports != 0
	 && d->nports <= GOMP_HS_MAX_PORTS
	 && d->buf_size >= GOMP_HS_MIN_BUF_SIZE
	 && d->buf_size <= GOMP_HS_MAX_BUF_SIZE;
}

/* Copy between the caller's memory and a payload buffer.  The region
   side is accessed in aligned words wherever it can be (buffers are
   64-byte aligned; a second input piece may start anywhere): over PCIe,
   one transaction per byte would be ruinous, and a misaligned word
   access faults on a GPU.  When the NLANES lanes of a warp make the call
   together as one thread, they share the work: lane LANE takes words (or,
   out of the region, 16-byte chunks) LANE, LANE + NLANES, ...  The caller
   makes the lanes' stores visible to each other (hs_copy_sync) or to the
   host (the fence before the request is published).

   Into the region (hs_copy_in) the accesses are stores, which are posted:
   they cost no round trip each, and the unaligned bytes at either end are
   stored one by one, by every lane alike (the same values to the same
   places).

   DATA-PATH ROUNDS.  Out of the region (hs_copy_out) the accesses are
   loads, and a load over PCIe is a round trip.  A GPU thread issues its
   instructions in order and stalls only when an instruction needs the
   result of a load that has not arrived, so what a copy costs is counted
   in rounds: a round is a maximal run of region loads, in program order,
   that no use of any of their results interrupts (a use: a store of a
   loaded value, a branch on one, any instruction that reads one).  The
   loads of a round are in flight together and cost one round trip; the
   first use after them waits for all of them.  The client calls
   HS_DATA_USE () before it uses the values it loaded, which makes the
   rounds visible where the client runs (empty on nvptx; the simulated
   device counts them: hs-bench prints the rounds per call).  The control
   path's loads (the poll that sees the reply, then the reply block:
   host-service.h) are counted apart; the reply's length is used before
   any copy starts, so no round of the data path ever joins them.

   So hs_copy_out issues all the loads of a batch, unrolled, before any of
   their values is used: HS_BATCH 16-byte chunks per lane, with the
   batch's last, partial turn predicated on the chunk's index (a branch on
   the length, not on a loaded value), never a load and its store per
   iteration.  It reads only whole aligned 16-byte chunks (HS_LD128: one
   ld.volatile.v2.u64 on nvptx, two 8-byte loads elsewhere), also for the
   bytes at either end that are not a whole chunk: the chunk that holds
   them is read and only the copy's bytes of it are stored.  That never
   reads outside the port's buffer: the buffer starts 64-byte aligned and
   its size is a multiple of 64 (host-service.c rounds it up; the layout
   of host-service.h keeps every buffer on a 64-byte boundary), so an
   aligned chunk that holds one of the buffer's bytes is entirely inside
   the buffer.  The extra bytes are the buffer's own, which the host wrote
   before the reply (or never), and which nobody writes while the client
   owns the port: reading them is harmless, and they are dropped.

   With 32 lanes a batch moves 4 KiB, so a copy of a whole 4 KiB port
   buffer is one round (two if it does not start on a chunk).  A single
   lane has HS_BATCH * 16 bytes in flight per round; the registers bound
   that (a PTX thread has at most 255 32-bit registers, each chunk takes
   four), see HS_BATCH.

   The stores go to the caller's memory, whose alignment is anything: a
   chunk that lands 8-byte aligned is two 8-byte stores, any other piece
   is stored in the largest aligned pieces that fit (hs_put_bytes).  Every
   byte of [DST, DST + N) is stored once, by the lane whose chunk holds
   it, and no other byte of the caller's memory is touched.  */

#ifndef HS_DATA_USE
#define HS_DATA_USE() ((void) 0)
#endif

/* Load the aligned 16-byte chunk at P (const volatile uint64_t *): *LO
   gets its first 8 bytes, *HI the others.  */
#ifndef HS_LD128
#define HS_LD128(P, LO, HI) \
  (*(LO) = HS_LD64 (P), *(HI) = HS_LD64 ((P) + 1))
#endif

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the copies below take the region's bytes in little-endian order"
#endif

/* Chunks of the copy out of the region each lane loads before it uses
   any: 128 bytes in flight per lane, 32 of the 255 32-bit registers a
   PTX thread may have.  The registers are the bound: every kernel that
   may call the host is allocated what the deepest call needs, for all of
   its threads, so they cost occupancy whether or not the kernel calls.
   nvlink -v (CUDA 13, sm_90) for a kernel that makes one
   libgomp_host_call, linked as the driver links the device libraries,
   default / -mgomp multilib: 144 / 160 registers with the 8-byte
   batches of 8 this replaced (a printf kernel needs as many); 151 / 161
   with 8 chunks; 172 / 174 with 12; 203 / 206 with 16.  A single lane
   would need 64 chunks (1 KiB, all 256 registers) to read 4 KiB in 4
   rounds: out of reach.  8 chunks let a warp of 32 lanes read 4 KiB in
   one round, and give one lane twice what it had (4 KiB in 32 rounds,
   not 64).  */
#ifndef HS_BATCH
#define HS_BATCH 8
#endif

/* Hide X's value from the compiler, at no cost: the addresses of a
   batch's chunks are then computed one from the other, in one register,
   not each from a constant multiple of the stride that the compiler
   would otherwise keep in registers of its own for every chunk of the
   unrolled batch (16 more 64-bit registers for each loop).  */
#define HS_OPAQUE(X) __asm__ ("" : "+r" (X))

typedef uint64_t hs_u64a __attribute__ ((may_alias));
typedef uint32_t hs_u32a __attribute__ ((may_alias));
typedef uint16_t hs_u16a __attribute__ ((may_alias));

/* Store the bytes of the 16-byte chunk LO, HI (little-endian) that
   would go to PA .. PA + 15 and that are inside [DST, DST + N), in the
   largest aligned pieces that fit.  Only the chunks at either end of a
   copy, and every chunk of a copy whose two sides are misaligned
   differently, come here.  Inline: a call in the middle of a batch would
   keep the batch's other chunks live across it, which costs the caller
   registers of the calling convention (ptxas -v: 11 more in the default
   multilib, 30 more with -mgomp).  */

static inline void
hs_put_bytes (unsigned char *dst, size_t n, uintptr_t pa, uint64_t lo,
	      uint64_t hi)
{
  uintptr_t d = (uintptr_t) dst;
  unsigned i = pa < d ? (unsigned) (d - pa) : 0;
  unsigned e = pa + 16 > d + n ? (unsigned) (d + n - pa) : 16;
  unsigned char *p = dst + (pa + i - d);
  while (i < e)
    {
      uint64_t x = (i == 0 ? lo
		    : i < 8 ? lo >> (8 * i) | hi << (64 - 8 * i)
		    : hi >> (8 * (i - 8)));
      uintptr_t a = (uintptr_t) p;
      unsigned s;
      if ((a & 7) == 0 && e - i >= 8)
	{
	  *(hs_u64a *) p = x;
	  s = 8;
	}
      else if ((a & 3) == 0 && e - i >= 4)
	{
	  *(hs_u32a *) p = (uint32_t) x;
	  s = 4;
	}
      else if ((a & 1) == 0 && e - i >= 2)
	{
	  *(hs_u16a *) p = (uint16_t) x;
	  s = 2;
	}
      else
	{
	  *p = (unsigned char) x;
	  s = 1;
	}
      p += s;
      i += s;
    }
}

static void
hs_copy_in (volatile unsigned char *dst, const unsigned char *src, size_t n,
	    unsigned lane, unsigned nlanes)
{
  size_t i, k, w;
  for (; n && ((uintptr_t) dst & 7); n--)
    HS_ST8 (dst++, *src++);
  w = n / 8;
  if (((uintptr_t) src & 7) == 0)
    for (k = lane; k < w; k += nlanes)
      HS_ST64 ((volatile uint64_t *) dst + k, ((const uint64_t *) src)[k]);
  else
    for (k = lane; k < w; k += nlanes)
      {
	uint64_t v;
	__builtin_memcpy (&v, src + 8 * k, 8);
	HS_ST64 ((volatile uint64_t *) dst + k, v);
      }
  for (i = 8 * w; i < n; i++)
    HS_ST8 (dst + i, src[i]);
}

static void
hs_copy_out (unsigned char *dst, const volatile unsigned char *src, size_t n,
	     unsigned lane, unsigned nlanes)
{
  unsigned off = (uintptr_t) src & 15;
  const volatile uint64_t *s
    = (const volatile uint64_t *) (uintptr_t) ((uintptr_t) src - off);
  /* The chunks that hold the copy's bytes.  */
  size_t nc = n ? (off + n + 15) / 16 : 0;
  uintptr_t d = (uintptr_t) dst;
  /* Whether the chunks land 8-byte aligned in DST.  */
  int co = ((d - off) & 7) == 0;
  size_t c0;
  for (c0 = lane; c0 < nc; c0 += (size_t) HS_BATCH * nlanes)
    {
      uint64_t lo[HS_BATCH], hi[HS_BATCH];
      /* This lane's chunks in this batch: C0, C0 + NLANES, ...  */
      size_t left = (nc - c0 + nlanes - 1) / nlanes;
      unsigned r = left < HS_BATCH ? (unsigned) left : HS_BATCH;
      const volatile uint64_t *q = s + 2 * c0;
      /* Where chunk C0 would go.  */
      uintptr_t pa = d + 16 * c0 - off;
      unsigned j;
      /* The round: every load of the batch first.  */
#pragma GCC unroll 32
      for (j = 0; j < HS_BATCH; j++)
	{
	  lo[j] = hi[j] = 0;
	  if (j < r)
	    HS_LD128 (q, &lo[j], &hi[j]);
	  q += 2 * nlanes;
	  HS_OPAQUE (q);
	}
      HS_DATA_USE ();
#pragma GCC unroll 32
      for (j = 0; j < HS_BATCH; j++)
	{
	  if (j < r)
	    {
	      /* A whole chunk of the copy, 8-byte aligned in DST.  */
	      if (co && pa >= d && pa - d + 16 <= n)
		{
		  ((hs_u64a *) pa)[0] = lo[j];
		  ((hs_u64a *) pa)[1] = hi[j];
		}
	      else
		hs_put_bytes (dst, n, pa, lo[j], hi[j]);
	    }
	  pa += 16 * (size_t) nlanes;
	  HS_OPAQUE (pa);
	}
    }
}

#ifndef HS_COPY_OUT
#define HS_COPY_OUT hs_copy_out
#endif

/* Port locks: atomics on the device's array of struct gomp_hs_port_state,
   in device memory.  One sweep looks at every port once, starting at
   *PORT, reading each lock before trying to take it (so a sweep over
   busy ports costs no atomic per port); it returns 1 with the lock of
   *PORT taken, or 0.  It never waits.

   The look is hs_lock_peek, not a relaxed __atomic_load_n: GCC 12 makes
   that a plain ld, which the multiprocessor's L1 may keep answering with
   the value it first saw, and nothing between two sweeps would make it
   look again: the warps of one multiprocessor could then see every port
   busy for ever after other multiprocessors freed them.  The volatile
   load reads the word where the atomics act on it.  A stale "free" costs
   only a failed compare-and-swap.

   The lock is taken with acquire and freed with release semantics at
   the scope of the device (hs_lock_try, hs_lock_free; nvptx: membar.gl,
   not membar.sys), which is all it orders: the port's sequence number in
   struct gomp_hs_port_state, in device memory, and the copies of one
   owner against the next one's.  It orders nothing towards the host:
   everything an owner does in the region is finished before it frees the
   lock.  Its stores reached the host before the host's last reply (they
   come before DEV_SEQ, behind hs_publish's fence, and the host answered
   only after seeing DEV_SEQ); its loads have returned their values,
   which the copies have stored to the caller's memory, in device memory,
   and the release orders those stores before the lock's.  The next
   owner's first access to the region is a store, which the host reads
   only after the next DEV_SEQ, behind hs_publish's fence again.  */

static inline int
hs_port_sweep (uint32_t mask, struct gomp_hs_port_state *ps, uint32_t n,
	       uint32_t *port)
{
  uint32_t k, i = *port;
  for (k = 0; k < n; k++)
    {
      if (hs_lock_peek (mask, &ps[i].lock) == 0
	  && hs_lock_try (&ps[i].lock))
	{
	  *port = i;
	  return 1;
	}
      i = i + 1 < n ? i + 1 : 0;
    }
  return 0;
}

static inline void
hs_port_release (struct gomp_hs_port_state *ps, uint32_t i)
{
  hs_lock_free (&ps[i].lock);
}

/* Publish the request in port P as sequence number SEQ and wait for the
   host's reply: *INFO and *RET get the reply block's fields.  */

static void
hs_round (volatile struct gomp_hs_port *p, uint32_t seq, uint32_t *info,
	  int64_t *ret)
{
  unsigned backoff = 0;
  hs_publish (&p->dev_seq, seq);
  while (hs_poll (&p->rep.seq) != seq)
    {
#ifdef HS_COUNT_WAIT
      HS_COUNT_WAIT ();
#endif
      hs_pause (&backoff);
    }
  hs_acquire ();
  hs_load_reply (&p->rep, info, ret);
}

/* A position in a list of segments.  */
struct hs_cursor
{
  unsigned i;
  uint64_t off;
};

/* Take up to N bytes of the segment SEG[*AT]: *P gets where they are;
   *AT moves past them (to the next segment at the end of this one).
   Returns how many were taken.  */
static inline uint64_t
hs_cursor_take (const struct hs_seg *seg, struct hs_cursor *at, uint64_t n,
		unsigned char **p)
{
  uint64_t left = seg[at->i].n - at->off;
  uint64_t a = left < n ? left : n;
  *p = seg[at->i].p + at->off;
  at->off += a;
  if (at->off == seg[at->i].n)
    {
      at->i++;
      at->off = 0;
    }
  return a;
}

/* Copy the next N bytes of the input SEG[0 .. NSEG-1], from *AT on, into
   BUF; advance *AT.  */
static void
hs_gather (volatile unsigned char *buf, uint64_t n, const struct hs_seg *seg,
	   unsigned nseg, struct hs_cursor *at, unsigned lane,
	   unsigned nlanes)
{
  while (n && at->i < nseg)
    {
      unsigned char *p;
      uint64_t a = hs_cursor_take (seg, at, n, &p);
      if (a)
	hs_copy_in (buf, p, a, lane, nlanes);
      buf += a;
      n -= a;
    }
}

/* Store the M bytes at BUF into the output SINK from *AT on; advance *AT.
   Returns the number of bytes stored.  */
static uint64_t
hs_scatter (uint32_t mask, struct hs_sink *sink, struct hs_cursor *at,
	    const volatile unsigned char *buf, uint64_t m, unsigned lane,
	    unsigned nlanes)
{
  uint64_t stored = 0;
  while (m)
    {
      unsigned char *p;
      uint64_t a;
      if (at->i == sink->n)
	{
	  if (sink->more == NULL)
	    break;
	  /* Every lane sees what the others copied before looking.  */
	  if (nlanes > 1)
	    hs_copy_sync (mask, 0);
	  sink->more (sink);
	  sink->more = NULL;
	  continue;
	}
      a = hs_cursor_take (sink->seg, at, m, &p);
      if (a)
	HS_COPY_OUT (p, buf, a, lane, nlanes);
      buf += a;
      m -= a;
      stored += a;
    }
  return stored;
}

#ifndef HS_ST128
#define HS_ST128(P, LO, HI) (HS_ST64 ((P), (LO)), HS_ST64 ((P) + 1, (HI)))
#endif

/* The request is written in four stores, each a posted write over PCIe:
   OP and FLAGS as one 8-byte word at port offset 8, then the 16-byte
   aligned pairs at 16 (ARG 0, 1), 32 (ARG 2, 3) and 48 (LEN, TOTAL); a
   port is 64-byte aligned (hs_port).  Their order does not matter: the
   host reads none of them before DEV_SEQ is published behind a release
   fence.  */

_Static_assert (__builtin_offsetof (struct gomp_hs_port, req) == 8
		&& __builtin_offsetof (struct gomp_hs_request, flags) == 4
		&& __builtin_offsetof (struct gomp_hs_request, arg) == 8
		&& __builtin_offsetof (struct gomp_hs_request, len) == 40
		&& __builtin_offsetof (struct gomp_hs_request, total) == 48,
		"the request's stores in hs_put_request");

static inline void
hs_put_request (volatile struct gomp_hs_port *p, uint32_t op, uint32_t flags,
		const int64_t args[4], uint64_t len, uint64_t total)
{
  static const int64_t none[4];
  volatile uint64_t *w = (volatile uint64_t *) &p->req;
  const int64_t *a = args ? args : none;
  /* OP, then FLAGS: little-endian (see hs_copy_out).  */
  HS_ST64 (w, (uint64_t) op | (uint64_t) flags << 32);
  HS_ST128 (w + 1, (uint64_t) a[0], (uint64_t) a[1]);
  HS_ST128 (w + 3, (uint64_t) a[2], (uint64_t) a[3]);
  HS_ST128 (w + 5, len, total);
}

/* The whole call OP on port I of D, whose lock the caller holds: see
   hs_callv.  */

static int64_t
hs_call_port (uint32_t mask, struct gomp_hs_device *d,
	      struct gomp_hs_port_state *ps, uint32_t i, uint32_t op, const int64_t args[4],
	      const struct hs_seg *in, unsigned nin, struct hs_sink *out,
	      uint64_t *out_len, int32_t *err)
{
  volatile struct gomp_hs_port *p = hs_port (d, i);
  volatile unsigned char *buf = hs_buf (d, i);
  uint64_t sent = 0, got = 0, total = 0;
  uint32_t flags = GOMP_HS_REQ_FIRST, info;
  uint32_t bufsz = d->buf_size;
  uint32_t seq = ps[i].seq;
  struct hs_cursor at_in = { 0, 0 }, at_out = { 0, 0 };
  int64_t ret;
  unsigned lane, nlanes, k;

  hs_copy_share (mask, &lane, &nlanes);
  for (k = 0; k < nin; k++)
    total += in[k].n;

  /* Input rounds.  */
  for (;;)
    {
      uint64_t n = total - sent < bufsz ? total - sent : bufsz;
      if (n)
	{
	  hs_gather (buf, n, in, nin, &at_in, lane, nlanes);
	  /* Every lane's share is in the region before the request is
	     published.  */
	  if (nlanes > 1)
	    hs_copy_sync (mask, 1);
	}
      hs_put_request (p, op, flags, args, n, total);
      hs_round (p, ++seq, &info, &ret);
      sent += n;
      flags = GOMP_HS_REQ_CONT;
      if (!(GOMP_HS_INFO_FLAGS (info) & GOMP_HS_REP_MORE_IN))
	break;
      if (sent >= total)
	{
	  /* The host wants more than there is: it is confused; give up
	     on this call (the next FIRST on this port starts afresh).  */
	  ps[i].seq = seq;
	  *err = GOMP_HS_EPROTO;
	  return -1;
	}
    }

  /* Output rounds.  */
  for (;;)
    {
      uint64_t m = GOMP_HS_INFO_LEN (info);
      if (m > bufsz)
	m = bufsz;
      if (m)
	{
	  got += hs_scatter (mask, out, &at_out, buf, m, lane, nlanes);
	  /* Every lane sees what the others copied.  */
	  if (nlanes > 1)
	    hs_copy_sync (mask, 0);
	}
      if (!(GOMP_HS_INFO_FLAGS (info) & GOMP_HS_REP_MORE_OUT))
	break;
      hs_put_request (p, op, GOMP_HS_REQ_CONT, args, 0, total);
      hs_round (p, ++seq, &info, &ret);
    }
  ps[i].seq = seq;
  *err = GOMP_HS_INFO_ERRNO (info);
  if (out_len)
    *out_len = got;
  return ret;
}

/* Make one call OP with ARGS.  Its input payload is the NIN segments IN,
   back to back; its output goes to OUT (struct hs_sink); *OUT_LEN gets
   the number of output bytes stored.  Returns the call's result and sets
   *ERR to the host's errno (0 on success).

   LANES.  Where every lane of a warp is a client of its own, the lanes
   that call together must never wait for one another while one of them
   needs the other to move.  The loop below is argued for the two ways a
   warp's lanes run (config/nvptx/device-thread.h), which meet in one
   kernel: this code is PTX for sm_30, its callers may be PTX for sm_80.

   MASK, the hardware lanes that entered together, is read once, here;
   PENDING, the clients among them still to be served, starts as that set
   and changes only by the result of hs_vote (MASK, ...), which every lane
   of MASK executes once per iteration and which returns the same value
   in all of them.  So PENDING is the same in every lane of MASK after
   every vote, every lane runs the same number of iterations, and the
   N-th vote of one lane is the N-th vote of each of its siblings.  The
   warp is never read again inside the loop: a fresh activemask (or a
   vote without .sync) at each vote, as this loop once did, lets lanes
   that reach the vote apart under independent scheduling each see only
   themselves; each then keeps the other's bit in PENDING and, once
   served, spins for ever waiting to see it cleared.

   In one iteration each pending lane sweeps the ports once, without
   waiting (hs_port_sweep); a lane that got one makes its whole call and
   releases the port inside the branch; then every lane of MASK meets at
   the vote, which removes the served lanes from PENDING.

   - Lock-step convergence: the vote is where the two sides of both
     branches meet again, so the lanes of MASK are converged there, as
     vote.sync requires below sm_70.  Whichever side runs first, the
     lanes that got no port reach the vote holding nothing; the winners
     wait there only after releasing their ports.

   - Independent scheduling: lanes may interleave anywhere in the
     iteration, and vote.sync waits until every lane of MASK arrives.  A
     lane waiting there holds no port; the lanes it waits for are either
     holding a port, and then wait only for the host, which answers, or
     sweeping, which never waits.  So every lane of MASK arrives.

   In both, a lane holding a port waits only for the host, a lane without
   one waits (backs off, or at the vote) holding nothing, and lanes that
   got ports in the same iteration make their calls side by side.  Each
   client's call is made exactly once: its bit leaves PENDING in the
   iteration in which it won, and only pending lanes sweep.  A single-
   thread caller (hs_lanes is 1) goes round until it gets a port; its
   lanes, all of MASK, hold the same WON (they share the atomics' results)
   and make the call together.  */

static int64_t
hs_callv (struct gomp_hs_device *d, uint32_t op, const int64_t args[4],
	  const struct hs_seg *in, unsigned nin, struct hs_sink *out,
	  uint64_t *out_len, int32_t *err)
{
  struct gomp_hs_port_state *ps
    = (struct gomp_hs_port_state *) (uintptr_t) d->ports;
  unsigned backoff = 0;
  uint32_t mask, pending, me, port;
  int64_t ret = -1;

  if (out_len)
    *out_len = 0;
  *err = GOMP_HS_ENOSYS;
  if (!hs_usable (d))
    return -1;

  mask = hs_lane_mask ();
  me = hs_lane_index ();
  port = hs_client_start () % d->nports;
  pending = hs_lanes (mask);
  while (pending != 0)
    {
      uint32_t done;
      int won = 0;
      if ((pending >> me) & 1)
	won = hs_port_sweep (mask, ps, d->nports, &port);
      if (won)
	{
	  ret = hs_call_port (mask, d, ps, port, op, args, in, nin, out,
			      out_len, err);
	  hs_port_release (ps, port);
	}
      /* Every lane of MASK meets here, holding no port.  */
      done = hs_vote (mask, won);
      pending &= ~done;
      if (pending != 0 && done == 0)
	hs_pause (&backoff);
    }
  return ret;
}

/* A call whose input is IN/IN_LEN followed by IN2/IN2_LEN, and whose
   output goes to OUT/OUT_CAP (output beyond OUT_CAP is fetched and
   dropped).  */

static inline int64_t
hs_call2 (struct gomp_hs_device *d, uint32_t op, const int64_t args[4],
	  const void *in, uint64_t in_len, const void *in2, uint64_t in2_len,
	  void *out, uint64_t out_cap, uint64_t *out_len, int32_t *err)
{
  struct hs_seg iv[2] = { { (unsigned char *) in, in_len },
			  { (unsigned char *) in2, in2_len } };
  struct hs_seg ov = { (unsigned char *) out, out_cap };
  struct hs_sink sink = { &ov, 1, 1, NULL, NULL };
  return hs_callv (d, op, args, iv, 2, &sink, out_len, err);
}

/* A call with one input segment.  */

static inline int64_t
hs_call (struct gomp_hs_device *d, uint32_t op, const int64_t args[4],
	 const void *in, uint64_t in_len, void *out, uint64_t out_cap,
	 uint64_t *out_len, int32_t *err)
{
  return hs_call2 (d, op, args, in, in_len, NULL, 0, out, out_cap, out_len,
		   err);
}

#endif /* GOMP_HOST_SERVICE_CLIENT_H */
