/* OpenMP reverse offload on the host: the regions' table, the host
   fallback, and serving regions that offloaded code sends.
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

/* A target region with device(ancestor: 1) runs on the host.  GCC (with
   this project's compiler patches, see patches/compiler-*.patch) outlines
   its body into a host function, as for any target region, but gives
   the device nothing but a string naming it: the call
   GOMP_target_rev (ID, DEVICE, MAPNUM, HOSTADDRS, SIZES, KINDS) takes the
   place of the region, and every translation unit registers a table of
   (ID, host function) pairs from a constructor.

   On the host (the outer region fell back to the host, or there is no
   outer region) GOMP_target_rev below runs the function at once, as
   host fallback runs a target region.  On the device, GOMP_target_rev
   (config/nvptx/target-rev.c) sends a GOMP_HS_OP_TARGET_REV call through
   host services; a host-service worker thread serves it here
   (gomp_target_rev_serve): it finds the function by its identity in the
   table (never by an address from the device), gives every map entry
   host storage by OpenMP's rules, runs the function, and replies with
   the bytes that go back.  Regions from different device threads are
   served by different workers, side by side.

   GCC 14 compiles such a region as upstream GCC does: the device calls
   GOMP_target_ext with the device address of the region's function in
   its image's function table.  That identity (GOMP_HS_REV_BY_FN) is
   looked up in the tables that target.c gives gomp_target_rev_fns_add
   for each image it loads on the device (the device addresses from the
   plugin, the host functions from the image's host table), so again
   only a function that a table lists is ever called.  */

#include "libgomp.h"
#include "host-service.h"
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest identity, with its NUL, and most map entries of a region the
   device may send (serving one looks at the entries before each entry:
   quadratic in their number).  */
#define REV_ID_MAX	4096
#define REV_MAPNUM_MAX	4096
/* Largest alignment of a map entry, as a log2.  */
#define REV_ALIGN_MAX	12
/* Most bytes a region may bring back to the device, and most host
   storage its entries may need (a device cannot make the host allocate
   and clear more than that).  The input has its own limit (host-service.c,
   HS_CALL_MAX).  */
#define REV_OUT_MAX	((uint64_t) 64 << 20)
#define REV_TEMP_MAX	((uint64_t) 256 << 20)
/* Largest bias of a pointer entry (how far past what the pointer holds
   its target's mapped part begins).  */
#define REV_BIAS_MAX	((uint64_t) 1 << 40)

/* host-call.c: whether a callback for a kernel is running.  */
extern void gomp_host_call_enter (void);
extern void gomp_host_call_leave (void);
/* target-rev-map.c: *HOST gets the host address of the device copy at
   [ADDR, ADDR + SIZE) on the device its plugin numbers TARGET_ID, or
   NULL; returns 0 or ENOMEM.  It takes no lock that a host thread may
   hold while it waits for a kernel (see there).  */
extern int gomp_target_rev_present (int, uintptr_t, size_t, void **);

void GOMP_target_rev_register (unsigned, const void *const *, size_t);
void GOMP_target_rev_unregister (const void *const *);
void GOMP_target_rev (const char *, int, size_t, void **, size_t *,
		      unsigned short *);
int gomp_target_rev_check (const unsigned char *, size_t, uint64_t, uint64_t,
			   int64_t, size_t *);
int gomp_target_rev_serve (int, unsigned char *, size_t, uint64_t, uint64_t,
			   int64_t, size_t *);
void gomp_target_rev_fns_add (int, const void *, size_t, const uint64_t *,
			      void *const *);
void gomp_target_rev_fns_remove (int, const void *);

typedef void (*rev_fn) (void *);

/* One translation unit's table: N pairs (identity, function).  */
struct rev_table
{
  const void *const *pairs;
  size_t n;
  struct rev_table *next;
};

static pthread_mutex_t rev_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rev_table *rev_tables;

void
GOMP_target_rev_register (unsigned version, const void *const *pairs,
			  size_t n)
{
  struct rev_table *t;
  if (version != 1)
    gomp_fatal ("reverse offload: the compiler's region table has version"
		" %u, this libgomp knows version 1", version);
  t = malloc (sizeof *t);
  if (t == NULL)
    gomp_fatal ("reverse offload: out of memory registering regions");
  t->pairs = pairs;
  t->n = n;
  pthread_mutex_lock (&rev_lock);
  t->next = rev_tables;
  rev_tables = t;
  pthread_mutex_unlock (&rev_lock);
}

void
GOMP_target_rev_unregister (const void *const *pairs)
{
  struct rev_table **l, *t = NULL;
  pthread_mutex_lock (&rev_lock);
  for (l = &rev_tables; *l; l = &(*l)->next)
    if ((*l)->pairs == pairs)
      {
	t = *l;
	*l = t->next;
	break;
      }
  pthread_mutex_unlock (&rev_lock);
  free (t);
}

/* The function registered as ID, or NULL.  */

static rev_fn
rev_find (const char *id)
{
  struct rev_table *t;
  rev_fn fn = NULL;
  size_t i;
  pthread_mutex_lock (&rev_lock);
  for (t = rev_tables; t && fn == NULL; t = t->next)
    for (i = 0; i < t->n; i++)
      if (strcmp ((const char *) t->pairs[2 * i], id) == 0)
	{
	  fn = (rev_fn) t->pairs[2 * i + 1];
	  break;
	}
  pthread_mutex_unlock (&rev_lock);
  return fn;
}

/* The regions of GCC 14's images (GOMP_HS_REV_BY_FN): for an image
   loaded on the device its plugin numbers TARGET_ID, N pairs of the
   device address of a function of the image's table and the host
   function it stands for, told by target.c when it loads the image
   (gomp_target_rev_fns_add) and forgotten when it unloads it.  The
   device names a region by its function's device address; the host only
   ever calls a function that these tables list.  rev_lock is held only
   to look up or change the tables, never while the device is waited
   for, so a region never waits for a lock that a host thread holds
   while it waits for the kernel (as devicep->lock may be).  */

struct rev_fns
{
  int target_id;
  const void *image;
  size_t n;
  uint64_t *dev;
  rev_fn *host;
  struct rev_fns *next;
};

static struct rev_fns *rev_fn_tables;

void
gomp_target_rev_fns_add (int target_id, const void *image, size_t n,
			 const uint64_t *dev, void *const *host)
{
  struct rev_fns *t;
  size_t i;
  if (n == 0)
    return;
  t = malloc (sizeof *t + n * (sizeof *t->dev + sizeof *t->host));
  if (t == NULL)
    gomp_fatal ("reverse offload: out of memory registering an image's"
		" regions");
  t->target_id = target_id;
  t->image = image;
  t->n = n;
  t->dev = (uint64_t *) (t + 1);
  t->host = (rev_fn *) (t->dev + n);
  for (i = 0; i < n; i++)
    {
      t->dev[i] = dev[i];
      t->host[i] = (rev_fn) host[i];
    }
  pthread_mutex_lock (&rev_lock);
  t->next = rev_fn_tables;
  rev_fn_tables = t;
  pthread_mutex_unlock (&rev_lock);
}

void
gomp_target_rev_fns_remove (int target_id, const void *image)
{
  struct rev_fns **l, *t = NULL;
  pthread_mutex_lock (&rev_lock);
  for (l = &rev_fn_tables; *l; l = &(*l)->next)
    if ((*l)->target_id == target_id && (*l)->image == image)
      {
	t = *l;
	*l = t->next;
	break;
      }
  pthread_mutex_unlock (&rev_lock);
  free (t);
}

/* The host function of the region whose function is at device address
   ADDR on device TARGET_ID, or NULL.  Address 0 is never a region's.  */

static rev_fn
rev_find_fn (int target_id, uint64_t addr)
{
  struct rev_fns *t;
  rev_fn fn = NULL;
  size_t i;
  if (addr == 0 || target_id < 0)
    return NULL;
  pthread_mutex_lock (&rev_lock);
  for (t = rev_fn_tables; t && fn == NULL; t = t->next)
    if (t->target_id == target_id)
      for (i = 0; i < t->n; i++)
	if (t->dev[i] == addr)
	  {
	    fn = t->host[i];
	    break;
	  }
  pthread_mutex_unlock (&rev_lock);
  return fn;
}

static size_t
rev_align (unsigned short kind)
{
  return (size_t) 1 << (kind >> 8);
}

/* The region on the host, as host fallback runs a target region: every
   address is a host address; firstprivate entries get private copies.  */

void
GOMP_target_rev (const char *id, int device, size_t mapnum, void **hostaddrs,
		 size_t *sizes, unsigned short *kinds)
{
  rev_fn fn;
  void **addrs = hostaddrs;
  char *priv = NULL;
  size_t i, total = 0;

  if (device != 1)
    gomp_fatal ("device(ancestor: %d): the device number must be 1", device);
  fn = rev_find (id);
  if (fn == NULL)
    gomp_fatal ("reverse offload: no host function for region %s (was its"
		" translation unit compiled by gomp-gcc?)", id);

  for (i = 0; i < mapnum; i++)
    if ((kinds[i] & 0xff) == GOMP_HS_REV_FIRSTPRIVATE)
      total += sizes[i] + rev_align (kinds[i]) - 1;
  if (total)
    {
      char *p;
      addrs = malloc (mapnum * sizeof *addrs + total);
      if (addrs == NULL)
	gomp_fatal ("reverse offload: out of memory for region %s", id);
      memcpy (addrs, hostaddrs, mapnum * sizeof *addrs);
      priv = p = (char *) (addrs + mapnum);
      for (i = 0; i < mapnum; i++)
	if ((kinds[i] & 0xff) == GOMP_HS_REV_FIRSTPRIVATE)
	  {
	    size_t a = rev_align (kinds[i]);
	    p = (char *) (((uintptr_t) p + a - 1) & ~(uintptr_t) (a - 1));
	    memcpy (p, hostaddrs[i], sizes[i]);
	    addrs[i] = p;
	    p += sizes[i];
	  }
    }
  fn (addrs);
  if (priv)
    free (addrs);
}

/* Serving the device.  The input of a GOMP_HS_OP_TARGET_REV call (see
   host-service.h) is IN/IN_LEN, with ARG0 IDLEN, ARG1 MAPNUM and ARG2
   BY.  */

struct rev_layout
{
  size_t maps;			/* Offset of the map entries.  */
  size_t data;			/* Offset of the bytes sent.  */
  size_t out_max;		/* Largest output.  */
};

/* Entry I of the map entries at MAPS.  */

static struct gomp_hs_rev_map
rev_entry (const unsigned char *maps, uint64_t i)
{
  struct gomp_hs_rev_map m;
  memcpy (&m, maps + i * sizeof m, sizeof m);
  return m;
}

/* Whether entry M names SIZE bytes at ADDR (a data entry with an
   address: GCC gives an unallocated Fortran array or scalar address 0,
   and such an entry moves nothing).  */

static int
rev_has_bytes (const struct gomp_hs_rev_map *m)
{
  return gomp_hs_rev_class (gomp_hs_rev_kind (m->kind)) == GOMP_HS_REV_DATA
	 && m->addr != 0;
}

/* The device bytes [*LO, *HI) that the N members after the structure
   entry G need (those with bytes, in any order); *LO == *HI when none
   has any.  */

static void
rev_group_span (const unsigned char *maps, uint64_t g, uint64_t n,
		uint64_t *lo, uint64_t *hi)
{
  uint64_t i;
  *lo = *hi = 0;
  for (i = g + 1; i <= g + n; i++)
    {
      struct gomp_hs_rev_map m = rev_entry (maps, i);
      if (!rev_has_bytes (&m) || m.size == 0)
	continue;
      if (*lo == *hi || m.addr < *lo)
	*lo = m.addr;
      if (*lo == *hi || m.addr + m.size > *hi)
	*hi = m.addr + m.size;
    }
}

static int
rev_layout (const unsigned char *in, size_t in_len, uint64_t idlen,
	    uint64_t mapnum, int64_t by, struct rev_layout *l)
{
  uint64_t i, sent = 0, back = 0, temp = 0, group_end = 0;
  if (by == GOMP_HS_REV_BY_FN ? idlen != sizeof (uint64_t)
      : by != 0 || idlen < 2 || idlen > REV_ID_MAX)
    return EINVAL;
  if (mapnum > REV_MAPNUM_MAX)
    return EINVAL;
  l->maps = (idlen + 7) & ~(uint64_t) 7;
  l->data = l->maps + mapnum * sizeof (struct gomp_hs_rev_map);
  if (in_len < l->data)
    return EINVAL;
  if (by == 0 && (in[idlen - 1] != '\0'
		  || strlen ((const char *) in) != idlen - 1))
    return EINVAL;
  for (i = 0; i < mapnum; i++)
    {
      struct gomp_hs_rev_map m = rev_entry (in + l->maps, i);
      uint64_t lo, hi;
      if (m.pad != 0 || m.kind > 0xffff || (m.kind >> 8) > REV_ALIGN_MAX)
	return EINVAL;
      switch (gomp_hs_rev_class (gomp_hs_rev_kind (m.kind)))
	{
	case GOMP_HS_REV_DATA:
	  if (m.size > REV_TEMP_MAX || m.addr + m.size < m.addr)
	    return EINVAL;
	  temp += m.size + ((uint64_t) 1 << (m.kind >> 8));
	  break;
	case GOMP_HS_REV_PTR:
	  /* SIZE is the bias.  */
	  if (m.size > REV_BIAS_MAX)
	    return EINVAL;
	  temp += 2 * sizeof (uint64_t);
	  break;
	case GOMP_HS_REV_GROUP:
	  /* SIZE is how many members follow; groups do not nest.  */
	  if (i < group_end || m.size == 0 || m.size > mapnum - 1 - i)
	    return EINVAL;
	  group_end = i + 1 + m.size;
	  rev_group_span (in + l->maps, i, m.size, &lo, &hi);
	  if (hi - lo > REV_TEMP_MAX)
	    return EMSGSIZE;
	  temp += hi - lo + ((uint64_t) 2 << (m.kind >> 8));
	  break;
	case GOMP_HS_REV_NONE:
	  if (m.size != 0)
	    return EINVAL;
	  break;
	default:
	  return EINVAL;
	}
      if (!rev_has_bytes (&m))
	continue;
      if (gomp_hs_rev_sends (m.kind))
	sent += m.size;
      if (gomp_hs_rev_receives (m.kind))
	back += m.size;
    }
  if (sent != in_len - l->data)
    return EINVAL;
  if (back > REV_OUT_MAX || temp > REV_TEMP_MAX)
    return EMSGSIZE;
  l->out_max = gomp_hs_rev_bits_len (mapnum) + back;
  return 0;
}

/* Check the input of a call; *OUT_MAX gets the most bytes its output
   can have.  Returns 0 or an errno, which it also reports.  */

int
gomp_target_rev_check (const unsigned char *in, size_t in_len, uint64_t idlen,
		       uint64_t mapnum, int64_t by, size_t *out_max)
{
  struct rev_layout l;
  int err = rev_layout (in, in_len, idlen, mapnum, by, &l);
  if (err == 0)
    *out_max = l.out_max;
  else if (err == EMSGSIZE)
    gomp_error ("reverse offload: a region's data is over the limits"
		" (64 MiB back to the device, 256 MiB of host storage)");
  else
    gomp_error ("reverse offload: malformed request from the device (or a"
		" map kind this libgomp does not serve)");
  return err;
}

/* Where an entry lives on the host while the region runs: the device
   bytes [DLO, DLO + DLEN) are at HLO.  */
struct rev_item
{
  struct gomp_hs_rev_map m;
  uint32_t k;			/* gomp_hs_rev_kind (m.kind).  */
  uint64_t dlo, dlen;
  unsigned char *hlo;
  int own;			/* HLO is this call's copy, not host data.  */
  int sent;			/* ... and holds the device's bytes.  */
  void *block;			/* Ours to free (HLO's, or a private copy).  */
  int back;			/* Its bytes go back to the device.  */
};

/* A pointer in a copy that the host function saw translated: before
   the copy goes back, it gets the device's value again.  */
struct rev_fix
{
  unsigned char *at;
  uint64_t dev;
};

/* The latest of the first N entries whose host storage holds the device
   bytes [ADDR, ADDR + LEN), or -1.  */

static int64_t
rev_holder (const struct rev_item *it, uint64_t n, uint64_t addr,
	    uint64_t len)
{
  uint64_t j;
  for (j = n; j-- > 0;)
    if (it[j].hlo && it[j].dlen && addr - it[j].dlo < it[j].dlen
	&& len <= it[j].dlen - (addr - it[j].dlo))
      return (int64_t) j;
  return -1;
}

/* *HOST gets the host address of the device address ADDR (LEN bytes
   there): inside one of the first N entries of this region, or present
   on the device, or NULL.  Returns 0, or ENOMEM (the index of what is
   present could not be read).  */

static int
rev_translate (int target_id, const struct rev_item *it, uint64_t n,
	       uint64_t addr, uint64_t len, void **host)
{
  int64_t j = rev_holder (it, n, addr, len ? len : 1);
  int err;
  *host = NULL;
  if (j >= 0)
    {
      *host = it[j].hlo + (addr - it[j].dlo);
      return 0;
    }
  err = target_id >= 0 ? gomp_target_rev_present (target_id, addr,
						   len ? len : 1, host) : 0;
  if (err || *host || len)
    return err;
  /* Last, a zero-length section of the region at ADDR (what a pointer
     to an empty array section points to).  */
  for (j = n; j-- > 0;)
    if (it[j].hlo && it[j].dlen == 0 && it[j].dlo == addr)
      {
	*host = it[j].hlo;
	break;
      }
  return 0;
}

/* Host storage of ALIGN (a power of 2) for device bytes at DLO, DLEN of
   them, zeroed: *BLOCK to free, *HLO congruent to DLO modulo ALIGN, so
   that what is aligned on the device is aligned alike on the host.  */

static int
rev_alloc (uint64_t dlo, uint64_t dlen, size_t align, void **block,
	   unsigned char **hlo)
{
  size_t skew;
  if (align < sizeof (void *))
    align = sizeof (void *);
  skew = dlo & (align - 1);
  if (posix_memalign (block, align, skew + dlen + 1) != 0)
    {
      *block = NULL;
      return ENOMEM;
    }
  memset (*block, 0, skew + dlen + 1);
  *hlo = (unsigned char *) *block + skew;
  return 0;
}

/* Whether a data entry of kind K copies to the host, and back, when it
   is present (or inside another entry of the region): only "always" and
   "force" do.  */

static int
rev_always_to (uint32_t k)
{
  return gomp_hs_rev_sends (k) && k != GOMP_HS_REV_TO
	 && k != GOMP_HS_REV_TOFROM && k != GOMP_HS_REV_TO_PSET;
}

static int
rev_always_from (uint32_t k)
{
  return gomp_hs_rev_receives (k) && k != GOMP_HS_REV_FROM
	 && k != GOMP_HS_REV_TOFROM;
}

static int
rev_must_be_present (uint32_t k)
{
  return k == GOMP_HS_REV_FORCE_PRESENT || k == GOMP_HS_REV_ALWAYS_PRESENT_TO
	 || k == GOMP_HS_REV_ALWAYS_PRESENT_FROM
	 || k == GOMP_HS_REV_ALWAYS_PRESENT_TOFROM;
}

/* Serve a call whose input is IN/IN_LEN (checked by gomp_target_rev_check;
   IN has room for the output), for the device its plugin numbers
   TARGET_ID (-1: none known, nothing is present).  On success the output
   replaces the input in IN, *OUT_LEN bytes.  Returns 0 or an errno; an
   error is also reported on stderr (the device cannot say more than
   that its region did not run).

   OpenMP's rules, seen from the host: an entry whose device bytes are a
   copy of host data (present: mapped by the enclosing device data
   environment, gomp_target_rev_present) is that host data, and moves
   only with "always"; any other entry gets host storage of its own for
   the region, filled from the device (to, tofrom) or zeroed, and sent
   back (from, tofrom).  An entry inside an earlier one of the region
   shares its storage.  A structure's members that are not present share
   one block laid out as on the device.  A pointer (Fortran's
   descriptors and pointers, C++ references, attachments) in storage of
   the region's own is translated to the host address of what it points
   to, and gets its device value back before it returns; a pointer in
   host data is the host's already.  A pointer that names nothing of its
   own points to the entry before it.  */

int
gomp_target_rev_serve (int target_id, unsigned char *in, size_t in_len,
		       uint64_t idlen, uint64_t mapnum, int64_t by,
		       size_t *out_len)
{
  struct rev_layout l;
  struct rev_item *it;
  struct rev_fix *fix;
  void **addrs;
  uint64_t i, *bits, fn_addr = 0, nfix = 0, group_end = 0;
  int64_t group = -1;
  size_t off;
  rev_fn fn;
  char name[40];
  int err = rev_layout (in, in_len, idlen, mapnum, by, &l);

  if (err)
    return err;
  if (by == GOMP_HS_REV_BY_FN)
    {
      memcpy (&fn_addr, in, sizeof fn_addr);
      snprintf (name, sizeof name, "at device address %#llx",
		(unsigned long long) fn_addr);
      fn = rev_find_fn (target_id, fn_addr);
    }
  else
    fn = rev_find ((const char *) in);
  if (fn == NULL)
    {
      if (by == GOMP_HS_REV_BY_FN)
	gomp_error ("reverse offload: no host function for the region %s"
		    " in the images loaded on device %d", name, target_id);
      else
	gomp_error ("reverse offload: no host function for region %s (was"
		    " its translation unit compiled by gomp-gcc?)",
		    (const char *) in);
      return ENOENT;
    }
  if (by != GOMP_HS_REV_BY_FN)
    snprintf (name, sizeof name, "%.39s", (const char *) in);
  it = calloc (mapnum ? mapnum : 1,
	       sizeof *it + sizeof *addrs + sizeof *fix);
  if (it == NULL)
    goto nomem;
  addrs = (void **) (it + mapnum);
  fix = (struct rev_fix *) (addrs + mapnum);

  /* Storage for every entry, in order (a pointer's target, and what
     holds it, come before it); the bytes sent go where they belong.  */
  off = l.data;
  for (i = 0; i < mapnum; i++)
    {
      struct rev_item *e = &it[i];
      void *h, *block;
      int64_t j;
      uint64_t lo, hi, v, k;
      int fresh = 0;

      e->m = rev_entry (in + l.maps, i);
      e->k = gomp_hs_rev_kind (e->m.kind);
      if (i >= group_end)
	group = -1;
      switch (gomp_hs_rev_class (e->k))
	{
	case GOMP_HS_REV_NONE:
	  if (e->k == GOMP_HS_REV_FIRSTPRIVATE_INT)
	    addrs[i] = (void *) (uintptr_t) e->m.addr;
	  /* A zero-length section: below, once every entry has a home.  */
	  continue;

	case GOMP_HS_REV_GROUP:
	  group_end = i + 1 + e->m.size;
	  rev_group_span (in + l.maps, i, e->m.size, &lo, &hi);
	  if (lo == hi)
	    continue;
	  if (rev_translate (target_id, it, i, lo, hi - lo, &h) != 0)
	    goto nomap;
	  if (h == NULL)
	    {
	      /* Not present: one block for its members, as on the
		 device.  */
	      if (rev_alloc (lo, hi - lo, rev_align (e->m.kind), &block,
			     &e->hlo) != 0)
		goto nomem;
	      e->dlo = lo;
	      e->dlen = hi - lo;
	      e->own = 1;
	      h = e->hlo;
	      group = (int64_t) i;
	      e->block = block;
	    }
	  addrs[i] = (void *) ((uintptr_t) h - (uintptr_t) (lo - e->m.addr));
	  continue;

	case GOMP_HS_REV_PTR:
	  if (e->m.addr == 0)
	    continue;
	  j = rev_holder (it, i, e->m.addr, sizeof (uint64_t));
	  if (j < 0)
	    {
	      if (rev_translate (target_id, it, 0, e->m.addr,
				 sizeof (uint64_t), &h) != 0)
		goto nomap;
	      if (h != NULL)
		{
		  /* The pointer itself is host data: the host's value.  */
		  addrs[i] = h;
		  continue;
		}
	      /* A pointer of the region's own (a Fortran allocatable
		 scalar, a reference): it points to the entry before.  */
	      if (rev_alloc (e->m.addr, sizeof (uint64_t), sizeof (void *),
			     &block, &e->hlo) != 0)
		goto nomem;
	      e->dlo = e->m.addr;
	      e->dlen = sizeof (uint64_t);
	      e->own = 1;
	      e->block = block;
	      v = i > 0 && addrs[i - 1] != NULL
		  ? (uint64_t) (uintptr_t) addrs[i - 1] - e->m.size : 0;
	      memcpy (e->hlo, &v, sizeof v);
	      /* Should a later entry send the slot back, the device gets
		 its own address for it.  */
	      fix[nfix].at = e->hlo;
	      fix[nfix++].dev = v ? it[i - 1].m.addr - e->m.size : 0;
	      addrs[i] = e->hlo;
	      continue;
	    }
	  h = it[j].hlo + (e->m.addr - it[j].dlo);
	  addrs[i] = h;
	  if (!it[j].own)
	    continue;		/* In host data: the host's value.  */
	  /* In the region's copy of the device's bytes: the device's
	     value (as it was before an earlier entry for the same pointer
	     translated it), or, where the device sent none, the entry
	     before.  */
	  for (k = 0; k < nfix && fix[k].at != (unsigned char *) h; k++)
	    ;
	  if (k < nfix)
	    v = fix[k].dev;
	  else if (it[j].sent)
	    memcpy (&v, h, sizeof v);
	  else
	    v = i > 0 && it[i - 1].hlo ? it[i - 1].m.addr - e->m.size : 0;
	  if (v != 0)
	    {
	      void *t;
	      uint64_t hv;
	      if (rev_translate (target_id, it, i, v + e->m.size, 0, &t) != 0)
		goto nomap;
	      if (t == NULL && e->k != GOMP_HS_REV_POINTER_ZERO_LEN
		  && e->k != GOMP_HS_REV_ATTACH_ZERO_LEN)
		{
		  gomp_error ("reverse offload: region %s: entry %llu points"
			      " to device address %#llx, which the region"
			      " does not map and the device does not hold"
			      " for the host", name, (unsigned long long) i,
			      (unsigned long long) (v + e->m.size));
		  err = EFAULT;
		  goto out;
		}
	      hv = t ? (uint64_t) (uintptr_t) t - e->m.size : 0;
	      if (k == nfix)
		{
		  fix[nfix].at = h;
		  fix[nfix++].dev = v;
		}
	      memcpy (h, &hv, sizeof hv);
	    }
	  continue;

	default:
	  break;
	}

      /* Data.  */
      if (e->m.addr == 0)
	continue;
      if (e->k == GOMP_HS_REV_FIRSTPRIVATE)
	{
	  /* A private copy, never anything else's home.  */
	  if (rev_alloc (e->m.addr, e->m.size, rev_align (e->m.kind),
			 &block, &e->hlo) != 0)
	    goto nomem;
	  memcpy (e->hlo, in + off, e->m.size);
	  off += e->m.size;
	  e->block = block;
	  addrs[i] = e->hlo;
	  e->hlo = NULL;
	  continue;
	}
      e->dlo = e->m.addr;
      e->dlen = e->m.size;
      if (group >= 0 && rev_must_be_present (e->k))
	{
	  /* A member of a structure that is not present, itself present
	     on its own (the host's), or an error.  */
	  if (rev_translate (target_id, it, 0, e->m.addr, e->m.size, &h) != 0)
	    goto nomap;
	  if (h == NULL)
	    goto notpresent;
	  e->hlo = h;
	}
      else if (group >= 0)
	{
	  /* A member of a structure that is not present, in its block
	     (nothing, for an empty member outside the others).  */
	  if (e->m.addr - it[group].dlo <= it[group].dlen)
	    {
	      e->hlo = it[group].hlo + (e->m.addr - it[group].dlo);
	      e->own = 1;
	      fresh = 1;
	    }
	  else
	    {
	      e->dlen = 0;
	      continue;
	    }
	}
      else
	{
	  if (rev_translate (target_id, it, i, e->m.addr, e->m.size, &h) != 0)
	    goto nomap;
	  e->hlo = h;
	  j = e->m.size ? rev_holder (it, i, e->m.addr, e->m.size) : -1;
	  /* Inside another entry's copy: its bytes, as they came.  */
	  e->own = j >= 0 && it[j].own;
	  e->sent = e->own && it[j].sent;
	  if (h == NULL && rev_must_be_present (e->k))
	    goto notpresent;
	  if (h == NULL && (e->k == GOMP_HS_REV_DELETE
			    || e->k == GOMP_HS_REV_RELEASE))
	    {
	      /* Nothing to release on the host: no storage either.  */
	      if (gomp_hs_rev_sends (e->k))
		off += e->m.size;
	      continue;
	    }
	  if (h == NULL)
	    {
	      if (rev_alloc (e->m.addr, e->m.size, rev_align (e->m.kind),
			     &block, &e->hlo) != 0)
		goto nomem;
	      e->own = 1;
	      e->block = block;
	      fresh = 1;
	    }
	}
      if (gomp_hs_rev_sends (e->k))
	{
	  if (fresh || rev_always_to (e->k))
	    {
	      memcpy (e->hlo, in + off, e->m.size);
	      e->sent = 1;
	    }
	  off += e->m.size;
	}
      e->back = gomp_hs_rev_receives (e->k)
		&& (fresh || rev_always_from (e->k));
      addrs[i] = e->hlo;
    }
  for (i = 0; i < mapnum; i++)
    if (it[i].k == GOMP_HS_REV_ZERO_LEN_ARRAY
	|| it[i].k == GOMP_HS_REV_DELETE_ZERO_LEN)
      {
	/* The section's home: the entry that holds its address (the
	   latest), or what is present there, or nothing.  */
	if (it[i].m.addr != 0
	    && rev_translate (target_id, it, mapnum, it[i].m.addr, 0,
			      &addrs[i]) != 0)
	  goto nomap;
      }

  gomp_debug (0, "reverse offload: running %s with %llu map entries\n",
	      name, (unsigned long long) mapnum);
  /* The kernel waits for this: no device work may start from here.  */
  gomp_host_call_enter ();
  fn (addrs);
  gomp_host_call_leave ();

  /* The device's pointers back where the region translated them.  */
  for (i = 0; i < nfix; i++)
    memcpy (fix[i].at, &fix[i].dev, sizeof fix[i].dev);
  /* The reply: which entries go back, then their bytes.  */
  bits = (uint64_t *) in;
  off = gomp_hs_rev_bits_len (mapnum);
  memset (bits, 0, off);
  for (i = 0; i < mapnum; i++)
    if (it[i].back)
      {
	bits[i / 64] |= (uint64_t) 1 << (i % 64);
	memcpy (in + off, it[i].hlo, it[i].m.size);
	off += it[i].m.size;
      }
  *out_len = off;

 out:
  if (it)
    {
      for (i = 0; i < mapnum; i++)
	free (it[i].block);
      free (it);
    }
  return err;

 nomem:
  gomp_error ("reverse offload: out of host memory for region %s", name);
  err = ENOMEM;
  goto out;

 notpresent:
  gomp_error ("reverse offload: region %s: present clause, but device"
	      " address %#llx (%llu bytes) is not a copy of host data", name,
	      (unsigned long long) it[i].m.addr,
	      (unsigned long long) it[i].m.size);
  err = ENXIO;
  goto out;

 nomap:
  gomp_error ("reverse offload: region %s: the host ran out of memory"
	      " for its index of the device's mappings, so what is present"
	      " there is unknown", name);
  err = ENOMEM;
  goto out;
}
