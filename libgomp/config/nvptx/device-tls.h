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
   of its own, found through a table of entries in device memory, each
   owned by one thread (its launch and position) for one busy period of
   the image, or until the next thread in the owner's hardware slot
   takes it over.  An image whose code uses that runtime defines
   __gomp_nvptx_tls; the nvptx plugin allocates the table for it when it
   loads the image, zeroed, writes its address and size there, and
   advances EPOCH before it launches a kernel of the image that cannot
   run at the same time as another of its kernels: entries of an earlier
   epoch belong to threads that have ended.
   A device thread that finds no table, or no entry it may take, ends the
   kernel with a message.

   The plugin includes this header too: keep it free of device code.  */

#ifndef GOMP_NVPTX_DEVICE_TLS_H
#define GOMP_NVPTX_DEVICE_TLS_H 1

#include <stdint.h>

#define GOMP_NVPTX_TLS_SYMBOL	"__gomp_nvptx_tls"
#define GOMP_NVPTX_TLS_VERSION	3u

struct gomp_nvptx_tls
{
  /* Set by the device runtime (static initializer).  */
  uint32_t version;		/* GOMP_NVPTX_TLS_VERSION.  */
  uint32_t entry_size;		/* Bytes per entry.  */
  /* Set by the plugin.  */
  uint32_t nslots;		/* Entries at SLOTS.  */
  uint32_t epoch;		/* The current busy period, never 0 once
				   SLOTS is set.  */
  uint64_t slots;		/* Device address of NSLOTS * ENTRY_SIZE
				   zeroed bytes, or 0.  */
};

/* Device heap a thread's state takes: its struct _reent (1336 bytes in
   newlib 3.3 and 4.5 for nvptx), the heap's own header, and the first
   caches of the conversions (dtoa's Bigint freelist, a few Bigints).  */
#define GOMP_NVPTX_TLS_STATE_BYTES 2048u

/* CUDA's default device heap, which the program's own malloc keeps.  */
#define GOMP_NVPTX_TLS_HEAP_BASE ((uint64_t) 8 << 20)

/* Most entries a table may have (GOMP_NVPTX_THREAD_STATES): 2^24, some
   32 GiB of heap.  */
#define GOMP_NVPTX_TLS_MAX_SLOTS (1u << 24)

/* How many entries the plugin allocates for a device with NSM
   multiprocessors of at most THREADS_PER_SM resident threads each, or
   REQUESTED if nonzero (GOMP_NVPTX_THREAD_STATES): by default one per
   resident thread (lane), since in OpenACC vector code and OpenMP simd
   regions every lane is a thread of its own.  Then every hardware slot
   has a home entry of its own (reent.c, tls_home), so the table never
   fills however many waves a kernel runs in.  Identifiers of
   multiprocessors need not be below NSM (disabled units, partitioned
   GPUs): the device only starts its search at its slot's home, modulo
   the table's size; homes may then coincide, and a search goes on to
   the next entries.  */

static inline uint64_t
gomp_nvptx_tls_slots (unsigned nsm, unsigned threads_per_sm,
		      uint64_t requested)
{
  uint64_t n = requested ? requested : (uint64_t) nsm * threads_per_sm;
  if (n == 0)
    n = 1;
  if (n > GOMP_NVPTX_TLS_MAX_SLOTS)
    n = GOMP_NVPTX_TLS_MAX_SLOTS;
  return n;
}

/* The device heap that a table of NSLOTS entries needs: room for every
   entry's state beyond CUDA's default.  */

static inline uint64_t
gomp_nvptx_tls_heap (uint64_t nslots)
{
  return GOMP_NVPTX_TLS_HEAP_BASE + nslots * GOMP_NVPTX_TLS_STATE_BYTES;
}

/* The entry where the search of the thread in hardware slot SLOT
   ((multiprocessor * NWARP + warp) * 32 + lane, device-thread.h,
   gomp_nvptx_hw_slot) starts in a table of N entries, on a device of
   NSM multiprocessor identifiers (%nsmid) of NWARP warp slots (%nwarpid)
   each: warp + lane * (NSM * NWARP), modulo N.  Distinct for every slot
   while N is at least the number of slots (the default table: one per
   resident lane); for a smaller table (GOMP_NVPTX_THREAD_STATES),
   consecutive for warps that are one thread (OpenMP outside SIMT
   regions: lane 0), which share their home with their lane 0 in a SIMT
   region, the same thread.  */

static inline uint32_t
gomp_nvptx_tls_home (uint32_t slot, uint32_t nsm, uint32_t nwarp,
		     uint32_t n)
{
  return (uint32_t) (((uint64_t) (slot / 32)
		      + (uint64_t) (slot % 32) * nsm * nwarp) % n);
}

/* The epoch after EPOCH: never 0, which means "no table yet".  */

static inline uint32_t
gomp_nvptx_tls_next_epoch (uint32_t epoch)
{
  return epoch + 1 != 0 ? epoch + 1 : 1;
}

#endif /* GOMP_NVPTX_DEVICE_TLS_H */
