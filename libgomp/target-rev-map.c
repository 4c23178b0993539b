/* OpenMP reverse offload: the device addresses of the host's mappings.
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

/* A reverse-offload region (target-rev.c) names its data by device
   address; an item that is present on the device -- the device copy of
   host data that the host mapped -- must be found by that address, to
   use the host's original.  The mappings are libgomp's splay tree of
   the device (devicep->mem_map in target.c), keyed by host address and
   guarded by the device's lock, devicep->lock.  That lock cannot be
   taken here:

     Host thread B runs "target update" (or "enter data", "exit data",
     the end of a "target data" region) while thread A's kernel K runs
     on the same device.  B takes devicep->lock, then its copy waits for
     K: GCC's plugin copies with the synchronous cuMemcpy* calls, on the
     legacy default stream, which waits for K (launched there too), and
     freeing device memory (cuMemFree) may wait for the whole device in
     any case.  K waits for its reverse-offload region, which a
     host-service worker W serves.  If W waited for devicep->lock, W
     would wait for B, B for K and K for W.

   So the host keeps a second index of the same mappings, by device
   address, for each device, here: target.c tells it of every key it
   inserts into or removes from a device's mem_map (gomp_rev_map_note
   there, under devicep->lock), and W reads it under the index's own
   lock, REV_MAP_LOCK, never devicep->lock.

   WHO HOLDS WHAT.  REV_MAP_LOCK is a leaf: it is held only for the
   memory operations below -- a scan, a move of entries, one realloc --
   never across a CUDA call, never while waiting for a kernel, a worker,
   a device thread or another lock (malloc's own locks are leaves of the
   same kind).  The mapping code takes it while it holds devicep->lock
   (order: devicep->lock, then REV_MAP_LOCK); W takes it holding nothing
   else of libgomp (the region table's lock in target-rev.c is released
   before, and nothing is locked while the region runs).  A holder of
   REV_MAP_LOCK thus waits for nothing, so whoever waits for it waits a
   bounded time: no cycle can pass through it.  With W no longer
   waiting for devicep->lock, the cycle above is broken: K's region
   gets its answer, K ends, then B's copy.  (tests/models/rev-present.pml
   checks this with spin; neg-rev-present-devlock.pml finds the cycle
   when the lookup takes devicep->lock, as it once did.)

   WHY NOT A NON-BLOCKING STREAM.  GCC 12's plugin launches every
   OpenMP kernel on the legacy stream and waits with cuCtxSynchronize
   (GOMP_OFFLOAD_run; it has no GOMP_OFFLOAD_async_run, so "nowait"
   regions launch the same way from a task).  Launching on a stream
   created with CU_STREAM_NON_BLOCKING would let B's copies pass K, but
   would not be enough: cuMemFree, cuModuleLoad and, as CUDA documents,
   any call "may block or synchronize" -- B could still wait for K
   while it holds devicep->lock.  And K would no longer be ordered after
   the synchronous copies of its own mapping, which for pageable host
   memory may return before their DMA is done.  The index needs no such
   argument about the driver: W waits for no lock that a thread holds
   while it waits for a kernel, whatever the driver does.

   CONSISTENCY.  Target.c updates the index before it releases
   devicep->lock, so everything mapped before a kernel is launched is in
   the index before that kernel can name it: the launching thread
   releases devicep->lock after mapping, then launches; W's lock of
   REV_MAP_LOCK comes after the unlock by the mapping thread.  A
   mapping that another host thread adds or removes while the kernel
   runs may or may not be seen -- as with the device's lock, which would
   be taken at some moment too: using data that another thread unmaps
   meanwhile is the program's race, not this index's.

   COST.  An entry per mapped item (declare target variables included;
   functions and zero-length items never name data, and "declare target
   link" placeholders have no device copy, so they are left out), in an
   array, and a hash table from the item's host start address (unique
   among a device's mappings: nonempty host ranges there never overlap)
   to its place in the array.  Adding appends to the array; removing
   finds the entry through the table and moves the array's last entry
   into its place: both take constant time on average, whatever the
   order in which items are mapped and unmapped (a search through the
   array made unmapping 10^5 items in the order of mapping quadratic,
   with devicep->lock held).  The table is open addressing with linear
   probing, at most half full, and removal shifts the entries after a
   freed slot back, so no slot is ever left marked as deleted.  A lookup
   by device address scans every entry, as the lookup in the splay tree
   that this replaces walked every node; it runs only for
   reverse-offload regions, for each map entry that has data.  The
   device ranges of live mappings do not overlap either, so the order
   of the scan does not matter.

   If the index cannot grow (out of memory), it is dropped for that
   device and its lookups fail with ENOMEM from then on (the region
   fails, loudly; target-rev.c): never a wrong answer, and never
   gomp_fatal while the caller holds devicep->lock (exit would then wait
   for that lock).  */

#include "libgomp.h"
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* target.c calls these, holding devicep->lock; target-rev.c calls the
   lookup, holding nothing.  */
void gomp_target_rev_map_add (int, uintptr_t, uintptr_t, uintptr_t);
void gomp_target_rev_map_remove (int, uintptr_t, uintptr_t);
int gomp_target_rev_present (int, uintptr_t, size_t, void **);

/* One mapped item: host [HOST, HOST_END) has its copy at DEV.  */
struct rev_map_entry
{
  uintptr_t host, host_end, dev;
};

/* The index of one device, as its plugin numbers it.  Created when the
   device's first item is mapped, never freed (one per device).  */
struct rev_map
{
  int target_id;
  int broken;			/* Could not grow: lookups fail.  */
  struct rev_map_entry *v;
  size_t n, cap;
  /* HASH_SIZE (a power of two, at least twice N) slots: 0 is free,
     else 1 + the index in V of the entry with that host start.  */
  size_t *hash, hash_size;
  struct rev_map *next;
};

static pthread_mutex_t rev_map_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rev_map *rev_maps;
/* A device's index could not even be created: a device without one may
   have mappings.  */
static int rev_maps_lost;

/* The index of TARGET_ID, or NULL; with CREATE, a new one (NULL if out
   of memory).  Called with REV_MAP_LOCK held.  */

static struct rev_map *
rev_map_of (int target_id, int create)
{
  struct rev_map *m;
  for (m = rev_maps; m; m = m->next)
    if (m->target_id == target_id)
      return m;
  if (!create || (m = calloc (1, sizeof *m)) == NULL)
    return NULL;
  m->target_id = target_id;
  m->next = rev_maps;
  rev_maps = m;
  return m;
}

static void
rev_map_break (struct rev_map *m)
{
  free (m->v);
  free (m->hash);
  m->v = NULL;
  m->hash = NULL;
  m->n = m->cap = m->hash_size = 0;
  m->broken = 1;
}

/* The first slot to probe for host start HOST in a table of SIZE
   slots (a power of two).  */

static inline size_t
rev_map_home (uintptr_t host, size_t size)
{
  uint64_t h = (uint64_t) host;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return (size_t) h & (size - 1);
}

/* The slot of M's table that holds the entry with host start HOST, or
   the free slot where the probe for it ends.  */

static size_t
rev_map_slot (const struct rev_map *m, uintptr_t host)
{
  size_t mask = m->hash_size - 1, j = rev_map_home (host, m->hash_size);
  while (m->hash[j] != 0 && m->v[m->hash[j] - 1].host != host)
    j = (j + 1) & mask;
  return j;
}

/* Make M's table at least twice as big as N + 1 entries: 0 if out of
   memory.  */

static int
rev_map_reserve (struct rev_map *m)
{
  size_t size, i, *old = m->hash;
  if (m->hash_size >= 2 * (m->n + 1))
    return 1;
  size = m->hash_size ? 2 * m->hash_size : 128;
  m->hash = calloc (size, sizeof *m->hash);
  if (m->hash == NULL)
    {
      m->hash = old;
      return 0;
    }
  m->hash_size = size;
  for (i = 0; i < m->n; i++)
    m->hash[rev_map_slot (m, m->v[i].host)] = i + 1;
  free (old);
  return 1;
}

/* Free slot J of M's table, shifting back the entries of the probe
   sequence after it that would no longer be found.  */

static void
rev_map_unslot (struct rev_map *m, size_t j)
{
  size_t mask = m->hash_size - 1, k = j;
  for (;;)
    {
      size_t home;
      m->hash[j] = 0;
      for (;;)
	{
	  k = (k + 1) & mask;
	  if (m->hash[k] == 0)
	    return;
	  home = rev_map_home (m->v[m->hash[k] - 1].host, m->hash_size);
	  /* Move it to J unless its home lies cyclically in (J, K].  */
	  if (j <= k ? (home <= j || home > k) : (home <= j && home > k))
	    break;
	}
      m->hash[j] = m->hash[k];
      j = k;
    }
}

/* Host [HOST, HOST_END) was mapped on device TARGET_ID, its copy at DEV.
   Called with that device's lock held (target.c).  */

void
gomp_target_rev_map_add (int target_id, uintptr_t host, uintptr_t host_end,
			 uintptr_t dev)
{
  struct rev_map *m;
  pthread_mutex_lock (&rev_map_lock);
  m = rev_map_of (target_id, 1);
  if (m == NULL)
    rev_maps_lost = 1;
  else if (!m->broken)
    {
      size_t j;
      if (m->n == m->cap)
	{
	  size_t cap = m->cap ? 2 * m->cap : 64;
	  struct rev_map_entry *v = realloc (m->v, cap * sizeof *v);
	  if (v == NULL)
	    {
	      rev_map_break (m);
	      goto out;
	    }
	  m->v = v;
	  m->cap = cap;
	}
      if (!rev_map_reserve (m))
	{
	  rev_map_break (m);
	  goto out;
	}
      j = rev_map_slot (m, host);
      if (m->hash[j] != 0)
	{
	  /* Never while the old item is mapped (the splay tree refuses
	     a duplicate); if its removal was not seen, the newer
	     mapping is the one that holds.  */
	  struct rev_map_entry *e = &m->v[m->hash[j] - 1];
	  e->host_end = host_end;
	  e->dev = dev;
	  goto out;
	}
      m->v[m->n].host = host;
      m->v[m->n].host_end = host_end;
      m->v[m->n].dev = dev;
      m->hash[j] = ++m->n;
    }
 out:
  pthread_mutex_unlock (&rev_map_lock);
}

/* Host [HOST, HOST_END) is no longer mapped on device TARGET_ID (no
   entry: it was never indexed).  Called with that device's lock held.
   Host ranges of a device's mappings do not overlap (the splay tree
   refuses a duplicate), so at most one entry has this range.  */

void
gomp_target_rev_map_remove (int target_id, uintptr_t host,
			    uintptr_t host_end)
{
  struct rev_map *m;
  pthread_mutex_lock (&rev_map_lock);
  m = rev_map_of (target_id, 0);
  if (m && m->n != 0)
    {
      size_t j = rev_map_slot (m, host), i, last;
      if (m->hash[j] != 0 && m->v[m->hash[j] - 1].host_end == host_end)
	{
	  i = m->hash[j] - 1;
	  rev_map_unslot (m, j);
	  last = --m->n;
	  if (i != last)
	    {
	      /* The last entry fills the gap; its slot follows it.  */
	      m->v[i] = m->v[last];
	      m->hash[rev_map_slot (m, m->v[i].host)] = i + 1;
	    }
	}
    }
  pthread_mutex_unlock (&rev_map_lock);
}

/* Reverse offload: *HOST gets the host address of the data whose copy
   on device TARGET_ID holds the SIZE bytes at device address DEVADDR,
   or NULL when no mapped item's copy holds them all.  Returns 0, or
   ENOMEM when the device's index was dropped (see above).  Takes no
   lock but the leaf REV_MAP_LOCK: a host-service worker calls it while
   a kernel waits for it, and other host threads may hold the device's
   lock meanwhile, waiting for that kernel.  */

int
gomp_target_rev_present (int target_id, uintptr_t devaddr, size_t size,
			 void **host)
{
  struct rev_map *m;
  size_t i;
  int err = 0;
  *host = NULL;
  pthread_mutex_lock (&rev_map_lock);
  m = rev_map_of (target_id, 0);
  if (m ? m->broken : rev_maps_lost)
    err = ENOMEM;
  else if (m)
    for (i = 0; i < m->n; i++)
      {
	const struct rev_map_entry *e = &m->v[i];
	uintptr_t len = e->host_end - e->host;
	if (devaddr - e->dev < len && size <= len - (devaddr - e->dev))
	  {
	    *host = (void *) (e->host + (devaddr - e->dev));
	    break;
	  }
      }
  pthread_mutex_unlock (&rev_map_lock);
  return err;
}
