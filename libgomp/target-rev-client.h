/* OpenMP reverse offload: the device side of GOMP_HS_OP_TARGET_REV,
   shared by the device runtime and the simulated device used in testing.
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

/* The client of a reverse-offload region (a target region with
   device(ancestor: 1)), written once for the nvptx runtime
   (config/nvptx/target-rev.c) and the simulated device.  The file that
   includes it defines hs_rev_callv (D, OP, ARGS, IN, NIN, SINK, OUT_LEN,
   ERR): hs_callv of host-service-client.h for device D.

   One GOMP_HS_OP_TARGET_REV call carries the whole region: the identity
   the compiler gave it (a name, or its function's device address), the
   map entries as GOMP_target_rev received them, and the bytes of the
   entries that go to the host, each straight from where it lives (the
   call's input segments); the host decides
   which entries come back (present on the device or not, "always" or
   not: target-rev.c), says so in a bit set at the head of its output,
   and the entries' bytes are stored straight where they belong (the
   output sink grows its segments once the bit set is in).  Nothing is
   staged on the device, so arrays of any size (up to the host's
   per-call limit) need no device memory.  */

#ifndef GOMP_TARGET_REV_CLIENT_H
#define GOMP_TARGET_REV_CLIENT_H 1

#include <stddef.h>
#include "host-service.h"
#include "host-service-seg.h"

/* Up to this many map entries, the call's bookkeeping lives in the
   caller's frame; beyond it, in the device heap.  */
#define HS_REV_LOCAL 8

struct hs_rev_plan
{
  uint64_t mapnum;
  void **addrs;
  const size_t *sizes;
  const unsigned short *kinds;
  const uint64_t *bits;
  uint64_t expect;		/* Output bytes the bit set announces.  */
  int bad;			/* A bit for an entry that receives nothing.  */
};

/* The bit set is in: one segment for every entry it names.  */

static void
hs_rev_more (struct hs_sink *sink)
{
  struct hs_rev_plan *pl = (struct hs_rev_plan *) sink->cookie;
  uint64_t i;
  for (i = 0; i < pl->mapnum && sink->n < sink->cap; i++)
    if ((pl->bits[i / 64] >> (i % 64)) & 1)
      {
	if (!gomp_hs_rev_receives (pl->kinds[i]) || pl->addrs[i] == NULL)
	  {
	    pl->bad = 1;
	    return;
	  }
	sink->seg[sink->n].p = (unsigned char *) pl->addrs[i];
	sink->seg[sink->n].n = pl->sizes[i];
	sink->n++;
	pl->expect += pl->sizes[i];
      }
}

/* Run the region whose identity is the IDLEN bytes at ID (of the form
   BY, TARGET_REV's ARG2) on the host with the map entries ADDRS, SIZES,
   KINDS (MAPNUM of them).  Returns 0, or the errno why it did not run
   (the host's, or GOMP_HS_EPROTO for a reply that does not add up).  */

static int32_t
hs_target_rev_call (struct gomp_hs_device *d, const void *id, uint64_t idlen,
		    int64_t by, uint64_t mapnum, void **addrs,
		    const size_t *sizes, const unsigned short *kinds)
{
  static const unsigned char zeros[8];
  struct gomp_hs_rev_map map_l[HS_REV_LOCAL];
  struct hs_seg in_l[HS_REV_LOCAL + 3], out_l[HS_REV_LOCAL + 1];
  uint64_t bits_l[1];
  struct gomp_hs_rev_map *map = map_l;
  struct hs_seg *in = in_l, *out = out_l;
  uint64_t *bits = bits_l;
  uint64_t i, words, got = 0;
  unsigned nin = 0;
  void *heap = NULL;
  int64_t args[4];
  struct hs_rev_plan plan;
  struct hs_sink sink;
  int32_t err;

  words = gomp_hs_rev_bits_len (mapnum) / 8;
  if (mapnum > HS_REV_LOCAL)
    {
      size_t n = mapnum * sizeof *map + (mapnum + 3) * sizeof *in
		 + (mapnum + 1) * sizeof *out + words * sizeof *bits;
      if (mapnum > (1u << 20) || (heap = __builtin_malloc (n)) == NULL)
	return GOMP_HS_ENOMEM;
      map = (struct gomp_hs_rev_map *) heap;
      in = (struct hs_seg *) (map + mapnum);
      out = in + mapnum + 3;
      bits = (uint64_t *) (out + mapnum + 1);
    }
  for (i = 0; i < words; i++)
    bits[i] = 0;

  in[nin].p = (unsigned char *) id;
  in[nin++].n = idlen;
  in[nin].p = (unsigned char *) zeros;
  in[nin++].n = -idlen & 7;
  in[nin].p = (unsigned char *) map;
  in[nin++].n = mapnum * sizeof *map;
  for (i = 0; i < mapnum; i++)
    {
      map[i].addr = (uint64_t) (uintptr_t) addrs[i];
      map[i].size = sizes[i];
      map[i].kind = kinds[i];
      map[i].pad = 0;
      /* Nothing moves for an entry at address 0 (GCC's for an
	 unallocated Fortran array or scalar).  */
      if (gomp_hs_rev_sends (kinds[i]) && sizes[i] != 0 && addrs[i] != NULL)
	{
	  in[nin].p = (unsigned char *) addrs[i];
	  in[nin++].n = sizes[i];
	}
    }

  plan.mapnum = mapnum;
  plan.addrs = addrs;
  plan.sizes = sizes;
  plan.kinds = kinds;
  plan.bits = bits;
  plan.expect = words * 8;
  plan.bad = 0;
  out[0].p = (unsigned char *) bits;
  out[0].n = words * 8;
  sink.seg = out;
  sink.n = 1;
  sink.cap = mapnum + 1;
  sink.more = hs_rev_more;
  sink.cookie = &plan;

  args[0] = (int64_t) idlen;
  args[1] = (int64_t) mapnum;
  args[2] = by;
  args[3] = 0;
  hs_rev_callv (d, GOMP_HS_OP_TARGET_REV, args, in, nin, &sink, &got, &err);
  if (err == 0)
    {
      /* The bit set may have arrived without anything after it.  */
      if (sink.more != NULL)
	hs_rev_more (&sink);
      if (plan.bad || got != plan.expect)
	err = GOMP_HS_EPROTO;
    }
  __builtin_free (heap);
  return err;
}

/* The region named ID (GCC 12's GOMP_target_rev).  */

static inline int32_t
hs_target_rev (struct gomp_hs_device *d, const char *id, uint64_t mapnum,
	       void **addrs, const size_t *sizes, const unsigned short *kinds)
{
  return hs_target_rev_call (d, id, __builtin_strlen (id) + 1, 0, mapnum,
			     addrs, sizes, kinds);
}

/* The region whose function is at device address FN (GCC 14's
   GOMP_target_ext for device(ancestor: 1)).  */

static inline int32_t
hs_target_rev_fn (struct gomp_hs_device *d, uint64_t fn, uint64_t mapnum,
		  void **addrs, const size_t *sizes,
		  const unsigned short *kinds)
{
  return hs_target_rev_call (d, &fn, sizeof fn, GOMP_HS_REV_BY_FN, mapnum,
			     addrs, sizes, kinds);
}

#endif /* GOMP_TARGET_REV_CLIENT_H */
