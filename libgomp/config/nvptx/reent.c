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
   gets one of its own, through the table of device-tls.h, one entry per
   hardware thread slot, which the plugin allocates, zeroed, and
   announces in __gomp_nvptx_tls.

   An entry is the key of the thread that last used the slot and that
   thread's struct _reent.  Only the thread running in a slot touches its
   entry, so no atomics are needed.  A thread that finds another key in
   its slot takes the slot over: the previous occupant has ended (two
   threads that run at the same time never share a slot), so its struct
   _reent is reclaimed -- newlib frees the Bigints it cached -- and
   reused; the first thread in a slot allocates one from the device heap.

   Fallbacks, to newlib's one global struct _reent (the behaviour before
   per-thread state): no table (a plugin that does not set one up), a
   slot beyond it, or no room on the device heap.  A thread whose
   allocation failed keeps the global one for as long as it runs, so
   that its errno does not move between two struct _reent.

   This file must not use host services: images that only need errno
   (libm, strtod) link it, and such an image must not get a host-service
   region.  */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <reent.h>
#include "device-thread.h"
#include "device-tls.h"

struct gomp_nvptx_tls_entry
{
  uint64_t key;			/* gomp_nvptx_thread_key; 0: never used.  */
  struct _reent *reent;		/* NULL: the thread uses _impure_ptr.  */
};

struct gomp_nvptx_tls __gomp_nvptx_tls = {
  .version = GOMP_NVPTX_TLS_VERSION,
  .entry_size = sizeof (struct gomp_nvptx_tls_entry),
  .nslots = 0,
  .slots = 0
};

/* Make ENTRY the slot of the thread with KEY; return its struct _reent.  */

static struct _reent *
take_slot (struct gomp_nvptx_tls_entry *entry, uint64_t key)
{
  struct _reent *r = entry->reent;

  if (r != NULL)
    {
      /* The streams of the device all hang off the global struct _reent
	 (newlib's global standard streams and FILE table); a thread's own
	 has none, so do not let _reclaim_reent run stdio's cleanup on
	 it.  */
      r->__sdidinit = 0;
      _reclaim_reent (r);
    }
  else
    r = malloc (sizeof (struct _reent));
  if (r != NULL)
    _REENT_INIT_PTR (r);
  entry->reent = r;
  entry->key = key;
  return r != NULL ? r : _impure_ptr;
}

struct _reent *
__getreent (void)
{
  struct gomp_nvptx_tls_entry *entry;
  uint32_t slot;
  uint64_t key;

  if (__gomp_nvptx_tls.slots == 0)
    return _impure_ptr;
  slot = gomp_nvptx_hw_slot ();
  if (slot >= __gomp_nvptx_tls.nslots)
    return _impure_ptr;
  entry = (struct gomp_nvptx_tls_entry *) (uintptr_t) __gomp_nvptx_tls.slots
	  + slot;
  key = gomp_nvptx_thread_key ();
  if (__builtin_expect (entry->key == key, 1))
    return entry->reent != NULL ? entry->reent : _impure_ptr;
  return take_slot (entry, key);
}

/* glibc's errno, which code compiled from the host's headers reads and
   writes, is the calling thread's: defined here rather than with the
   rest of the glibc ABI (glibc-abi.c), which would link stdio.  */

int *
__errno_location (void)
{
  return &__getreent ()->_errno;
}
