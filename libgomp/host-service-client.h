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
     hs_observe (W)          load the sequence word W with acquire
			     semantics (nvptx: a volatile load, then
			     membar.sys);
     hs_pause (UNSIGNED *)   back off, a little longer each call;
     hs_client_start ()      the port this client tries first (spreads
			     clients over the ports).

   All accesses to the region go through volatile pointers: the host
   changes it behind the compiler's back, and the device must not cache
   it.  */

#ifndef GOMP_HOST_SERVICE_CLIENT_H
#define GOMP_HOST_SERVICE_CLIENT_H 1

#include <stddef.h>
#include "host-service.h"

static inline volatile struct gomp_hs_header *
hs_header (const struct gomp_hs_device *d)
{
  return (volatile struct gomp_hs_header *) (uintptr_t) d->region;
}

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

/* Whether D describes a region this client can talk to.  */

static inline int
hs_usable (const struct gomp_hs_device *d)
{
  volatile struct gomp_hs_header *h;
  if (d->region == 0 || d->nports == 0 || d->nports > GOMP_HS_MAX_PORTS
      || d->buf_size < GOMP_HS_MIN_BUF_SIZE)
    return 0;
  h = hs_header (d);
  return h->magic == GOMP_HS_MAGIC && h->version == GOMP_HS_VERSION
	 && h->nports == d->nports && h->buf_size == d->buf_size;
}

/* Copy between the caller's memory and a payload buffer.  The region
   side is accessed in aligned 8-byte words wherever it can be (buffers
   are 64-byte aligned; a second input piece may start anywhere): over
   PCIe, one transaction per byte would be ruinous, and a misaligned word
   access faults on a GPU.  */

static void
hs_copy_in (volatile unsigned char *dst, const unsigned char *src, size_t n)
{
  size_t i, w;
  for (; n && ((uintptr_t) dst & 7); n--)
    *dst++ = *src++;
  w = n / 8;
  for (i = 0; i < w; i++)
    {
      uint64_t v;
      __builtin_memcpy (&v, src + 8 * i, 8);
      ((volatile uint64_t *) dst)[i] = v;
    }
  for (i = 8 * w; i < n; i++)
    dst[i] = src[i];
}

static void
hs_copy_out (unsigned char *dst, const volatile unsigned char *src, size_t n)
{
  size_t i, w;
  for (; n && ((uintptr_t) src & 7); n--)
    *dst++ = *src++;
  w = n / 8;
  for (i = 0; i < w; i++)
    {
      uint64_t v = ((const volatile uint64_t *) src)[i];
      __builtin_memcpy (dst + 8 * i, &v, 8);
    }
  for (i = 8 * w; i < n; i++)
    dst[i] = src[i];
}

/* Port locks: atomics on D->locks, which lives in device memory.  */

static inline int
hs_lock_try (struct gomp_hs_device *d, uint32_t i)
{
  uint32_t z = 0;
  return __atomic_compare_exchange_n (&d->locks[i], &z, 1, 0,
				      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void
hs_lock_release (struct gomp_hs_device *d, uint32_t i)
{
  __atomic_store_n (&d->locks[i], 0, __ATOMIC_RELEASE);
}

/* Take a free port: try each once from this client's start, then back
   off and try again.  A port holder only waits for the host, so some
   port always comes free.  */

static uint32_t
hs_acquire (struct gomp_hs_device *d)
{
  unsigned backoff = 0;
  uint32_t n = d->nports;
  uint32_t start = hs_client_start () % n;
  for (;;)
    {
      uint32_t k;
      for (k = 0; k < n; k++)
	{
	  uint32_t i = start + k < n ? start + k : start + k - n;
	  if (hs_lock_try (d, i))
	    return i;
	}
      hs_pause (&backoff);
    }
}

/* Publish the request in port P and wait for the host's reply.  */

static void
hs_round (volatile struct gomp_hs_port *p)
{
  unsigned backoff = 0;
  uint32_t seq = p->dev_seq + 1;
  hs_publish (&p->dev_seq, seq);
  while (hs_observe (&p->host_seq) != seq)
    hs_pause (&backoff);
}

/* Copy N bytes at offset OFF of the input IN ++ IN2 into BUF.  */

static void
hs_gather (volatile unsigned char *buf, uint64_t off, uint64_t n,
	   const unsigned char *in, uint64_t in_len,
	   const unsigned char *in2)
{
  if (off < in_len)
    {
      uint64_t a = in_len - off < n ? in_len - off : n;
      hs_copy_in (buf, in + off, a);
      buf += a;
      off += a;
      n -= a;
    }
  if (n)
    hs_copy_in (buf, in2 + (off - in_len), n);
}

/* Make one call OP with ARGS.  Its input payload is IN/IN_LEN followed by
   IN2/IN2_LEN, OUT/OUT_CAP where its output goes; *OUT_LEN gets the
   number of output bytes stored (output beyond OUT_CAP is fetched and
   dropped).  Returns the call's result and sets *ERR to the host's errno
   (0 on success).  */

static int64_t
hs_call2 (struct gomp_hs_device *d, uint32_t op, const int64_t args[4],
	  const void *in, uint64_t in_len, const void *in2, uint64_t in2_len,
	  void *out, uint64_t out_cap, uint64_t *out_len, int32_t *err)
{
  volatile struct gomp_hs_port *p;
  volatile unsigned char *buf;
  uint64_t sent = 0, got = 0;
  uint32_t i, flags = GOMP_HS_REQ_FIRST, rflags;
  uint32_t bufsz = d->buf_size;
  uint64_t total = in_len + in2_len;
  int64_t ret;
  int k;

  if (out_len)
    *out_len = 0;
  if (!hs_usable (d))
    {
      *err = GOMP_HS_ENOSYS;
      return -1;
    }

  i = hs_acquire (d);
  p = hs_port (d, i);
  buf = hs_buf (d, i);

  /* Input rounds.  */
  for (;;)
    {
      uint64_t n = total - sent < bufsz ? total - sent : bufsz;
      if (n)
	hs_gather (buf, sent, n, in, in_len, in2);
      p->req.op = op;
      p->req.flags = flags;
      for (k = 0; k < 4; k++)
	p->req.arg[k] = args ? args[k] : 0;
      p->req.len = n;
      p->req.total = total;
      hs_round (p);
      sent += n;
      flags = GOMP_HS_REQ_CONT;
      rflags = p->rep.flags;
      if (!(rflags & GOMP_HS_REP_MORE_IN))
	break;
      if (sent >= total)
	{
	  /* The host wants more than there is: it is confused; give up
	     on this call (the next FIRST on this port starts afresh).  */
	  *err = GOMP_HS_EPROTO;
	  hs_lock_release (d, i);
	  return -1;
	}
    }

  /* Output rounds.  */
  for (;;)
    {
      uint64_t m = p->rep.len;
      if (m > bufsz)
	m = bufsz;
      if (got < out_cap)
	{
	  uint64_t c = out_cap - got < m ? out_cap - got : m;
	  hs_copy_out ((unsigned char *) out + got, buf, c);
	  got += c;
	}
      if (!(p->rep.flags & GOMP_HS_REP_MORE_OUT))
	break;
      p->req.op = op;
      p->req.flags = GOMP_HS_REQ_CONT;
      p->req.len = 0;
      hs_round (p);
    }

  ret = p->rep.ret;
  *err = p->rep.err;
  hs_lock_release (d, i);
  if (out_len)
    *out_len = got;
  return ret;
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
