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

   An entry records its owner: the thread's gomp_nvptx_thread_key (the
   launch, the CTA and the thread in it), the EPOCH of __gomp_nvptx_tls
   it was claimed in, and the hardware slot (gomp_nvptx_hw_slot) the
   owner ran in when it claimed it, the last two in one 64-bit TAG.  The
   plugin advances the epoch, on the launch's stream, before a kernel of
   the image that cannot run at the same time as another of its kernels
   (plugin/host-service-nvptx.c, nvptx_tls_kernel_begin).  An entry of
   an older epoch belongs to a thread of a kernel that has ended, or to
   nobody: it is free.

   Finding an entry: start at the home of the calling thread's hardware
   slot (tls_home: distinct for every slot when the table has an entry
   per resident lane, as by default) and go forward.  At each entry the
   thread
     - returns it if it is of the current epoch and has its key;
     - takes it over if it is of the current epoch, was claimed in the
       caller's hardware slot, and has another key: a slot runs one
       thread at a time, so its owner is a thread that ran in this slot
       before the caller and has ended -- in a kernel that runs in waves
       (more threads than the device holds, as GCC's default OpenACC
       launch sizes give), the previous occupant of the slot.  A
       compare-and-swap of the key from the one it read to its own;
     - claims it if it is free: a compare-and-swap of the tag to the
       current epoch and its own slot, then it writes its key.
   Either way the state's previous owner has ended: its struct _reent is
   reclaimed -- newlib frees the Bigints it cached -- and reused.

   A thread that keeps its slot finds its entry on every later call as
   the first entry of its search that is neither taken by a thread of
   another slot nor free: the entries before it were neither when it got
   it, and within an epoch an entry is never freed and its recorded slot
   never changes (a takeover keeps it).  In the first wave every thread
   gets its home; in later waves the next occupant of a slot finds its
   predecessor's entry at home: one step, whatever the number of waves,
   and the table never fills as long as it has an entry per slot.

   The one hazard left: a thread that is preempted and resumed in
   another slot (PTX: %smid and %warpid may change then; compute
   preemption, time-slicing, a debugger) while a new thread starts in
   its old slot and calls the C library.  The new thread takes over the
   entry as if its owner had ended: the moved thread's errno or
   conversion state may be reset or shared with the new thread.  (The
   moved thread itself, searching from its new slot, may also get a
   fresh state.)  Nothing better is possible without a hook at the end
   of a thread: OpenACC kernels have no libgomp epilogue, so an entry
   cannot be freed when its owner ends, and keeping every entry until the
   next epoch, as an earlier version did, fills the table in a kernel
   that runs in waves.  Entries are never taken over from a thread that
   still runs in the slot it claimed them in.

   The claim and the takeover cannot both succeed on one entry: a
   claimer's compare-and-swap of the tag makes the entry its slot's
   before its key is written, and only a thread in that slot -- the
   claimer itself, short of the hazard above -- may take over an entry
   of the slot; two takeovers of one entry need two threads in one slot
   at once, and the compare-and-swap of the key lets one of them win
   anyway.

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

   Nothing is shared silently, short of the hazard above.  No table (the
   image was loaded by a plugin that does not set one up), a full table,
   or no room on the device heap for a thread's struct _reent ends the
   kernel with a message on the CUDA console (the vprintf system call,
   shown by the driver when the kernel ends), naming what to raise.
   Sharing newlib's global _impure_ptr instead, as an earlier version
   did, made errno and dtoa's unlocked Bigint freelist a data race.

   The states live on the device heap until the context is destroyed:
   the plugin frees the table when the image is unloaded, but not the
   struct _reent its entries point to (freeing them would need a kernel;
   the plugin reserves their heap, see gomp_nvptx_tls_heap).

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
  uint64_t tag;			/* TLS_TAG: the epoch it was claimed in (0:
				   never used) and its claimer's hardware
				   slot.  */
  uint64_t key;			/* Its owner's gomp_nvptx_thread_key.  */
  struct _reent *reent;		/* NULL until its first owner allocates it;
				   then reused by every later owner.  */
};

#define TLS_TAG(EPOCH, SLOT) (((uint64_t) (EPOCH) << 32) | (uint32_t) (SLOT))
#define TLS_TAG_EPOCH(TAG) ((uint32_t) ((TAG) >> 32))
#define TLS_TAG_SLOT(TAG) ((uint32_t) (TAG))

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

static inline uint64_t
tls_ld64 (const uint64_t *p)
{
  uint64_t v;
  __asm__ volatile ("ld.volatile.u64 %0, [%1];"
		    : "=r" (v) : "r" (p) : "memory");
  return v;
}

static inline struct _reent *
tls_ld_reent (struct _reent *const *p)
{
  return (struct _reent *) (uintptr_t) tls_ld64 ((const uint64_t *) p);
}

/* Where the search of the thread in hardware slot SLOT starts in a
   table of N entries (device-tls.h).  */

static inline uint32_t
tls_home (uint32_t slot, uint32_t n)
{
  unsigned nsm, nwarp;
  __asm__ ("mov.u32 %0, %%nsmid;" : "=r" (nsm));
  __asm__ ("mov.u32 %0, %%nwarpid;" : "=r" (nwarp));
  return gomp_nvptx_tls_home (slot, nsm, nwarp, n);
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

/* Make ENTRY, just claimed or taken over, the state of its new owner.  */

static struct _reent *
tls_init_entry (struct gomp_nvptx_tls_entry *entry)
{
  struct _reent *r = tls_ld_reent (&entry->reent);

  if (r != NULL)
    {
      /* The streams of the device all hang off the global struct _reent
	 (newlib's global standard streams and FILE table); a thread's own
	 has none, so do not let _reclaim_reent run stdio's cleanup on
	 it.  Its previous owner has ended (see above for the one
	 exception).  newlib 4.x marks a struct _reent whose stdio is set
	 up with _REENT_CLEANUP; newlib 3.3 with __sdidinit.  */
#ifdef _REENT_CLEANUP
      _REENT_CLEANUP (r) = NULL;
#else
      r->__sdidinit = 0;
#endif
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
  uint32_t n, i, epoch, self;
  uint64_t key, tag, k;

  slots = (struct gomp_nvptx_tls_entry *) (uintptr_t) __gomp_nvptx_tls.slots;
  n = __gomp_nvptx_tls.nslots;
  epoch = __gomp_nvptx_tls.epoch;
  if (slots == NULL || n == 0 || epoch == 0)
    tls_fail ("libgomp: nvptx: no table of per-thread C library state"
	      " (errno, stdio) for this image: its libgomp plugin sets up no"
	      " table of version %u\n", GOMP_NVPTX_TLS_VERSION);
  key = gomp_nvptx_thread_key ();
  self = gomp_nvptx_hw_slot ();
  i = tls_home (self, n);
  for (uint32_t step = 0; step < n; step++)
    {
      entry = &slots[i];
      tag = tls_ld64 (&entry->tag);
      if (TLS_TAG_EPOCH (tag) == epoch)
	{
	  k = tls_ld64 (&entry->key);
	  if (k == key)
	    return tls_ld_reent (&entry->reent);
	  /* Claimed in this slot by a thread that is no longer in it:
	     take it over.  */
	  if (TLS_TAG_SLOT (tag) == self
	      && __atomic_compare_exchange_n (&entry->key, &k, key, 0,
					      __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED))
	    return tls_init_entry (entry);
	}
      else if (__atomic_compare_exchange_n (&entry->tag, &tag,
					    TLS_TAG (epoch, self), 0,
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
	    " library (errno, stdio) at the same time: set"
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
