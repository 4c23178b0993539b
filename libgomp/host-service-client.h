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
   costs besides waiting (host-service.h: two per round).

   and the accessors of the region, which the host changes behind the
   compiler's and the device caches' back:

     HS_LD8 (P), HS_LD64 (P)         load a byte, an 8-byte word;
     HS_ST8 (P, V), HS_ST32 (P, V), HS_ST64 (P, V)   store one
			     (nvptx: ld.volatile/st.volatile, which no
			     cache keeps: a plain load could be served
			     from a stale L1 line).  */

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
   side is accessed in aligned 8-byte words wherever it can be (buffers
   are 64-byte aligned; a second input piece may start anywhere): over
   PCIe, one transaction per byte would be ruinous, and a misaligned word
   access faults on a GPU.  Reads from the region are issued HS_BATCH at a
   time before any of them is used, so that many are in flight at once
   (each is a PCIe round trip).  When the NLANES lanes of a warp make the
   call together as one thread, they share the words: lane LANE copies
   words LANE, LANE + NLANES, ...; the unaligned bytes at either end are
   copied by every lane alike (the same values to the same places).  The
   caller makes the lanes' stores visible to each other (hs_copy_sync)
   or to the host (the fence before the request is published).  */

#define HS_BATCH 8

#ifndef HS_DATA_USE
#define HS_DATA_USE() ((void) 0)
#endif

/* Store V at P, which may be misaligned, without taking V's address (the
   batch of loads below stays in registers).  */

static inline void
hs_put64 (unsigned char *p, uint64_t v)
{
  if (((uintptr_t) p & 7) == 0)
    *(uint64_t *) p = v;
  else
    {
      int b;
      for (b = 0; b < 8; b++)
	p[b] = (unsigned char) (v >> (8 * b));
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
  size_t i, k, w;
  const volatile uint64_t *s;
  for (; n && ((uintptr_t) src & 7); n--)
    {
      unsigned char b = HS_LD8 (src++);
      HS_DATA_USE ();
      *dst++ = b;
    }
  w = n / 8;
  s = (const volatile uint64_t *) src;
  for (k = lane; k + (HS_BATCH - 1) * (size_t) nlanes < w;
       k += HS_BATCH * (size_t) nlanes)
    {
      uint64_t v[HS_BATCH];
      int j;
      /* All the loads first, unrolled: each is issued before any result
	 is needed.  */
#pragma GCC unroll 8
      for (j = 0; j < HS_BATCH; j++)
	v[j] = HS_LD64 (s + k + j * (size_t) nlanes);
      HS_DATA_USE ();
#pragma GCC unroll 8
      for (j = 0; j < HS_BATCH; j++)
	hs_put64 (dst + 8 * (k + j * (size_t) nlanes), v[j]);
    }
  for (; k < w; k += nlanes)
    {
      uint64_t v = HS_LD64 (s + k);
      HS_DATA_USE ();
      hs_put64 (dst + 8 * k, v);
    }
  for (i = 8 * w; i < n; i++)
    {
      unsigned char b = HS_LD8 (src + i);
      HS_DATA_USE ();
      dst[i] = b;
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
   only a failed compare-and-swap.  */

static inline int
hs_port_sweep (uint32_t mask, struct gomp_hs_port_state *ps, uint32_t n,
	       uint32_t *port)
{
  uint32_t k, i = *port;
  for (k = 0; k < n; k++)
    {
      uint32_t z = 0;
      if (hs_lock_peek (mask, &ps[i].lock) == 0
	  && __atomic_compare_exchange_n (&ps[i].lock, &z, 1, 0,
					  __ATOMIC_ACQUIRE,
					  __ATOMIC_RELAXED))
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
  __atomic_store_n (&ps[i].lock, 0, __ATOMIC_RELEASE);
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

static inline void
hs_put_request (volatile struct gomp_hs_port *p, uint32_t op, uint32_t flags,
		const int64_t args[4], uint64_t len, uint64_t total)
{
  int k;
  HS_ST32 (&p->req.op, op);
  HS_ST32 (&p->req.flags, flags);
  for (k = 0; k < 4; k++)
    HS_ST64 ((volatile uint64_t *) &p->req.arg[k],
	     (uint64_t) (args ? args[k] : 0));
  HS_ST64 (&p->req.len, len);
  HS_ST64 (&p->req.total, total);
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
