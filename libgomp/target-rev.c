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
   device may send.  */
#define REV_ID_MAX	4096
#define REV_MAPNUM_MAX	65536
/* Largest alignment of a map entry, as a log2.  */
#define REV_ALIGN_MAX	12
/* Most bytes a region may bring back to the device, and most host
   storage its entries may need (a device cannot make the host allocate
   and clear more than that).  The input has its own limit (host-service.c,
   HS_CALL_MAX).  */
#define REV_OUT_MAX	((uint64_t) 64 << 20)
#define REV_TEMP_MAX	((uint64_t) 256 << 20)

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

static int
rev_layout (const unsigned char *in, size_t in_len, uint64_t idlen,
	    uint64_t mapnum, int64_t by, struct rev_layout *l)
{
  uint64_t i, sent = 0, back = 0, temp = 0;
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
      struct gomp_hs_rev_map m;
      memcpy (&m, in + l->maps + i * sizeof m, sizeof m);
      if (m.pad != 0 || m.kind > 0xffff || (m.kind >> 8) > REV_ALIGN_MAX
	  || m.size > REV_TEMP_MAX)
	return EINVAL;
      switch (m.kind & 0xff)
	{
	case GOMP_HS_REV_FIRSTPRIVATE_INT:
	case GOMP_HS_REV_ZERO_LEN_ARRAY:
	  if (m.size != 0)
	    return EINVAL;
	  break;
	case GOMP_HS_REV_ALLOC: case GOMP_HS_REV_TO: case GOMP_HS_REV_FROM:
	case GOMP_HS_REV_TOFROM: case GOMP_HS_REV_FIRSTPRIVATE:
	case GOMP_HS_REV_ALWAYS_TO: case GOMP_HS_REV_ALWAYS_FROM:
	case GOMP_HS_REV_ALWAYS_TOFROM:
	  break;
	default:
	  return EINVAL;
	}
      if (gomp_hs_rev_sends (m.kind))
	sent += m.size;
      if (gomp_hs_rev_receives (m.kind))
	back += m.size;
      temp += m.size + ((uint64_t) 1 << (m.kind >> 8));
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
    gomp_error ("reverse offload: malformed request from the device");
  return err;
}

/* Where an entry lives on the host while the region runs.  */
struct rev_item
{
  struct gomp_hs_rev_map m;
  void *host;
  int temp;			/* HOST is ours (not present on the device).  */
  int back;			/* Its bytes go back to the device.  */
};

/* The host address for the device address ADDR of an entry that names no
   data of its own (a pointer whose section was not mapped): inside an
   entry of this region, or present on the device, or NULL.  */

static int
rev_translate (int target_id, struct rev_item *it, uint64_t n, uint64_t addr,
	       void **host)
{
  uint64_t j;
  *host = NULL;
  for (j = 0; j < n; j++)
    if (it[j].host && it[j].m.size
	&& addr - it[j].m.addr < it[j].m.size)
      {
	*host = (char *) it[j].host + (addr - it[j].m.addr);
	return 0;
      }
  return target_id >= 0 ? gomp_target_rev_present (target_id, addr, 1, host)
			: 0;
}

/* Serve a call whose input is IN/IN_LEN (checked by gomp_target_rev_check;
   IN has room for the output), for the device its plugin numbers
   TARGET_ID (-1: none known, nothing is present).  On success the output
   replaces the input in IN, *OUT_LEN bytes.  Returns 0 or an errno; an
   error is also reported on stderr (the device cannot say more than
   that its region did not run).  */

int
gomp_target_rev_serve (int target_id, unsigned char *in, size_t in_len,
		       uint64_t idlen, uint64_t mapnum, int64_t by,
		       size_t *out_len)
{
  struct rev_layout l;
  struct rev_item *it;
  void **addrs;
  uint64_t i, *bits, fn_addr = 0;
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
  it = calloc (mapnum ? mapnum : 1, sizeof *it + sizeof *addrs);
  if (it == NULL)
    goto nomem;
  addrs = (void **) (it + mapnum);

  /* Storage for every entry; the bytes sent go where they belong.  */
  off = l.data;
  for (i = 0; i < mapnum; i++)
    {
      struct rev_item *e = &it[i];
      unsigned k;
      memcpy (&e->m, in + l.maps + i * sizeof e->m, sizeof e->m);
      k = e->m.kind & 0xff;
      if (k == GOMP_HS_REV_FIRSTPRIVATE_INT)
	{
	  addrs[i] = (void *) (uintptr_t) e->m.addr;
	  continue;
	}
      if (k == GOMP_HS_REV_ZERO_LEN_ARRAY)
	continue;		/* Below, once every section has a home.  */
      if (k != GOMP_HS_REV_FIRSTPRIVATE && target_id >= 0 && e->m.size
	  && gomp_target_rev_present (target_id, e->m.addr, e->m.size,
				      &e->host) != 0)
	goto nomap;
      if (e->host == NULL)
	{
	  size_t a = rev_align (e->m.kind);
	  if (posix_memalign (&e->host, a < sizeof (void *) ? sizeof (void *)
				      : a, e->m.size ? e->m.size : 1) != 0)
	    {
	      e->host = NULL;
	      goto nomem;
	    }
	  e->temp = 1;
	  if (!gomp_hs_rev_sends (e->m.kind))
	    memset (e->host, 0, e->m.size);
	}
      /* A present entry takes the device's bytes only with "always".  */
      if (gomp_hs_rev_sends (e->m.kind))
	{
	  if (e->temp || k == GOMP_HS_REV_ALWAYS_TO
	      || k == GOMP_HS_REV_ALWAYS_TOFROM)
	    memcpy (e->host, in + off, e->m.size);
	  off += e->m.size;
	}
      e->back = gomp_hs_rev_receives (e->m.kind)
		&& (e->temp || k == GOMP_HS_REV_ALWAYS_FROM
		    || k == GOMP_HS_REV_ALWAYS_TOFROM);
      addrs[i] = e->host;
    }
  for (i = 0; i < mapnum; i++)
    if ((it[i].m.kind & 0xff) == GOMP_HS_REV_ZERO_LEN_ARRAY
	&& rev_translate (target_id, it, mapnum, it[i].m.addr, &addrs[i]) != 0)
      goto nomap;

  gomp_debug (0, "reverse offload: running %s with %llu map entries\n",
	      name, (unsigned long long) mapnum);
  /* The kernel waits for this: no device work may start from here.  */
  gomp_host_call_enter ();
  fn (addrs);
  gomp_host_call_leave ();

  /* The reply: which entries go back, then their bytes.  */
  bits = (uint64_t *) in;
  off = gomp_hs_rev_bits_len (mapnum);
  memset (bits, 0, off);
  for (i = 0; i < mapnum; i++)
    if (it[i].back)
      {
	bits[i / 64] |= (uint64_t) 1 << (i % 64);
	memcpy (in + off, it[i].host, it[i].m.size);
	off += it[i].m.size;
      }
  *out_len = off;

 out:
  if (it)
    {
      for (i = 0; i < mapnum; i++)
	if (it[i].temp)
	  free (it[i].host);
      free (it);
    }
  return err;

 nomem:
  gomp_error ("reverse offload: out of host memory for region %s", name);
  err = ENOMEM;
  goto out;

 nomap:
  gomp_error ("reverse offload: region %s: the host ran out of memory"
	      " for its index of the device's mappings, so what is present"
	      " there is unknown", name);
  err = ENOMEM;
  goto out;
}
