/* Per-thread state of the C library on nvptx.
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

/* newlib for nvptx defines __DYNAMIC_REENT__: every use of _REENT --
   errno, dtoa's Bigint caches, strtok's position, the multibyte states,
   the FILE a stdio call works on -- asks __getreent for the calling
   thread's struct _reent.  Here every device thread (device-thread.h:
   a warp under -muniform-simt outside SIMT regions, a lane otherwise)
   gets one of its own, through the table of device-tls.h, which the
   plugin allocates, zeroed, and announces in __gomp_nvptx_tls.

   An entry belongs to one thread, named by its gomp_nvptx_thread_key
   (the launch, the CTA and the thread in it), for one busy period: the
   EPOCH of __gomp_nvptx_tls, which the plugin advances, on the launch's
   stream, before a kernel of the image that cannot run at the same time
   as another of its kernels (none runs, or all that may were launched on
   the same stream before it: plugin/host-service-nvptx.c,
   nvptx_tls_kernel_begin).  An entry whose epoch
   is not the current one belongs to a thread of a kernel that has ended
   (or to nobody): it is free, and its struct _reent can be reclaimed --
   newlib frees the Bigints it cached -- and reused.  An entry of the
   current epoch is never taken from its owner, whatever hardware slot
   that thread runs in now, so a thread that is preempted and resumed
   elsewhere (compute preemption, time-slicing, a debugger) keeps its
   state for as long as it uses it; the price is that threads that have
   ended keep their entries until the next epoch.

   Finding an entry: start at the calling thread's hardware slot (modulo
   the table's size) and go forward.  A thread claims the first free
   entry it meets there: a compare-and-swap of its epoch from the value
   it read to the current one, then it writes its key.  Entries are
   never freed within an epoch, so on every later call the thread passes
   the same occupied entries and finds its own where it claimed it.  In
   the common case -- as many live threads as hardware slots, no
   preemption -- that is the first entry it looks at.  A thread resumed
   in another slot may not find its entry and claims another: its errno
   and conversion state start afresh then, but no other thread's ever
   becomes its.  Between the claimer's compare-and-swap and its store of
   the key, others see the current epoch with an old key (a thread of an
   ended kernel, or 0), which is nobody's that runs: they go on.

   Lanes.  No lane waits for another: each step is a load or one
   compare-and-swap, which either succeeds or shows that another thread
   got the entry, and then the lane moves to the next entry; the loop
   ends within NSLOTS steps in every lane.  With pre-Volta convergence
   lanes that leave the loop early wait at its end for the others to
   leave it too, holding nothing; with independent thread scheduling
   they simply go on.  Under -muniform-simt, when the warp is one thread,
   every lane computes the same slot and key, and GCC performs the
   compare-and-swap once for the warp, so all lanes take the same path
   (the same constraint as stdio-lock.c: no inline-asm atomics).

   Nothing is shared silently.  No table (the image was loaded by a
   plugin that does not set one up), a full table, or no room on the
   device heap for a thread's struct _reent ends the kernel with a
   message on the CUDA console (the vprintf system call, shown by the
   driver when the kernel ends), naming what to raise.  Sharing newlib's
   global _impure_ptr instead, as an earlier version did, made errno and
   dtoa's unlocked Bigint freelist a data race.

   This file must not use host services: images that only need errno
   (libm, strtod) link it, and such an image must not get a host-service
   region.  */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <reent.h>
#include "device-thread.h"
#include "device-tls.h"

struct gomp_nvptx_tls_entry
{
  uint32_t epoch;		/* The busy period it belongs to; 0: never
				   used.  */
  uint32_t pad;
  uint64_t key;			/* Its owner's gomp_nvptx_thread_key.  */
  struct _reent *reent;		/* NULL until its first owner allocates it;
				   then reused by every later owner.  */
};

struct gomp_nvptx_tls __gomp_nvptx_tls = {
  .version = GOMP_NVPTX_TLS_VERSION,
  .entry_size = sizeof (struct gomp_nvptx_tls_entry),
  .nslots = 0,
  .epoch = 0,
  .slots = 0
};

/* Entries are read by threads of every multiprocessor: loads that no L1
   keeps a stale copy for (GCC 12 emits a plain ld for C's volatile).  A
   stale value would be harmless anyway -- the compare-and-swap decides --
   except that a thread might miss its own entry.  */

static inline uint32_t
tls_ld32 (const uint32_t *p)
{
  uint32_t v;
  __asm__ volatile ("ld.volatile.u32 %0, [%1];"
		    : "=r" (v) : "r" (p) : "memory");
  return v;
}

static inline uint64_t
tls_ld64 (const uint64_t *p)
{
  uint64_t v;
  __asm__ volatile ("ld.volatile.u64 %0, [%1];"
		    : "=r" (v) : "r" (p) : "memory");
  return v;
}

/* The CUDA runtime's printf system call (as config/nvptx/error.c uses):
   not newlib's stdio, which would need host services.  */

static void
tls_console (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
}

/* End the kernel, after saying why on the console (FMT has one %u).  */

static void __attribute__ ((noreturn, cold))
tls_fail (const char *fmt, unsigned n)
{
  tls_console (fmt, n);
  __builtin_trap ();
}

/* Make ENTRY, just claimed, the state of its new owner.  */

static struct _reent *
tls_init_entry (struct gomp_nvptx_tls_entry *entry)
{
  struct _reent *r = entry->reent;

  if (r != NULL)
    {
      /* The streams of the device all hang off the global struct _reent
	 (newlib's global standard streams and FILE table); a thread's own
	 has none, so do not let _reclaim_reent run stdio's cleanup on
	 it.  Its previous owner has ended.  */
      r->__sdidinit = 0;
      _reclaim_reent (r);
    }
  else
    {
      r = malloc (sizeof (struct _reent));
      if (r == NULL)
	tls_fail ("libgomp: nvptx: no room on the device heap for a thread's"
		  " C library state (%u bytes): set GOMP_NVPTX_THREAD_STATES"
		  " higher, or use less device malloc\n",
		  (unsigned) sizeof (struct _reent));
      entry->reent = r;
    }
  _REENT_INIT_PTR (r);
  return r;
}

struct _reent *
__getreent (void)
{
  struct gomp_nvptx_tls_entry *slots, *entry;
  uint32_t n, i, epoch, seen;
  uint64_t key;

  slots = (struct gomp_nvptx_tls_entry *) (uintptr_t) __gomp_nvptx_tls.slots;
  n = __gomp_nvptx_tls.nslots;
  epoch = __gomp_nvptx_tls.epoch;
  if (slots == NULL || n == 0 || epoch == 0)
    tls_fail ("libgomp: nvptx: no table of per-thread C library state"
	      " (errno, stdio) for this image: its libgomp plugin sets up no"
	      " table of version %u\n", GOMP_NVPTX_TLS_VERSION);
  key = gomp_nvptx_thread_key ();
  i = gomp_nvptx_hw_slot () % n;
  for (uint32_t step = 0; step < n; step++)
    {
      entry = &slots[i];
      seen = tls_ld32 (&entry->epoch);
      if (seen == epoch)
	{
	  if (tls_ld64 (&entry->key) == key)
	    return entry->reent;
	}
      else if (__atomic_compare_exchange_n (&entry->epoch, &seen, epoch, 0,
					    __ATOMIC_ACQ_REL,
					    __ATOMIC_RELAXED))
	{
	  __atomic_store_n (&entry->key, key, __ATOMIC_RELAXED);
	  return tls_init_entry (entry);
	}
      if (++i == n)
	i = 0;
    }
  tls_fail ("libgomp: nvptx: more than %u device threads have used the C"
	    " library (errno, stdio) in kernels that may run together: set"
	    " GOMP_NVPTX_THREAD_STATES higher\n", n);
}

/* glibc's errno, which code compiled from the host's headers reads and
   writes, is the calling thread's: defined here rather than with the
   rest of the glibc ABI (glibc-abi.c), which would link stdio.  */

int *
__errno_location (void)
{
  return &__getreent ()->_errno;
}
