/* Per-thread state of the nvptx device C library: what the plugin sets up.
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

/* newlib keeps errno and the state of its conversions (dtoa's big
   integers, strtok, the multibyte states) in a struct _reent.  On nvptx
   the device runtime (config/nvptx/reent.c) gives every device thread one
   of its own, found through a table of slots in device memory, one per
   hardware thread slot (multiprocessor, warp slot, lane; see
   device-thread.h).  An image whose code uses that runtime defines
   __gomp_nvptx_tls; the nvptx plugin allocates the table for it when it
   loads the image, zeroed, and writes its address and size there.  An
   image loaded by a plugin that does not (or a slot beyond the table)
   falls back to newlib's one global struct _reent.

   The plugin includes this header too: keep it free of device code.  */

#ifndef GOMP_NVPTX_DEVICE_TLS_H
#define GOMP_NVPTX_DEVICE_TLS_H 1

#include <stdint.h>

#define GOMP_NVPTX_TLS_SYMBOL	"__gomp_nvptx_tls"
#define GOMP_NVPTX_TLS_VERSION	1u

struct gomp_nvptx_tls
{
  /* Set by the device runtime (static initializer).  */
  uint32_t version;		/* GOMP_NVPTX_TLS_VERSION.  */
  uint32_t entry_size;		/* Bytes per slot.  */
  /* Set by the plugin at load time.  */
  uint32_t nslots;		/* Slots at SLOTS.  */
  uint32_t pad;
  uint64_t slots;		/* Device address of NSLOTS * ENTRY_SIZE
				   zeroed bytes, or 0.  */
};

/* How many slots the plugin allocates for a device with NSM
   multiprocessors of at most THREADS_PER_SM resident threads each:
   multiprocessor identifiers are not always contiguous (disabled units
   leave gaps), so twice their number.  */

static inline uint64_t
gomp_nvptx_tls_slots (unsigned nsm, unsigned threads_per_sm)
{
  uint64_t warps = (threads_per_sm + 31) / 32;
  return 2 * (uint64_t) nsm * warps * 32;
}

#endif /* GOMP_NVPTX_DEVICE_TLS_H */
