/* Who is calling: lanes, warps and thread identities on nvptx.
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

/* A "thread" of the device runtime is what the language calls one:

   - under -muniform-simt (OpenMP, the mgomp multilib) outside of SIMT
     regions, a whole warp: its 32 lanes run the same code and GCC makes
     their side effects those of one thread;
   - otherwise (OpenACC, and OpenMP inside "omp simd" regions) every
     lane of a warp is a thread of its own.

   Code that waits for something another thread owns (a port lock, a
   FILE lock) must never wait for another lane of its own warp.  PTX below
   sm_70 -- and libgomp's and newlib's device code is built at GCC 12's
   default -misa=sm_30 -- runs a warp's lanes in lock step: when lanes
   diverge, one side runs until the point where the sides meet again
   (the immediate post-dominator of the branch) before the other side
   runs at all.  If lane A takes a lock and lane B of the same warp spins
   on it, either B spins first and A never gets to release it, or A waits
   where the sides meet, still holding it.  Since sm_70 lanes may be
   scheduled independently, but only for PTX that targets sm_70 or later.

   The answer used throughout the device runtime is to let the lanes that
   arrive together take turns, under loop control that is the same in
   every lane:

     lanes = gomp_nvptx_lanes ();          -- identical in every lane
     do
       {
	 if (gomp_nvptx_lane_turn (lanes))  -- exactly one lane
	   { take the lock; work; release the lock; }
	 lanes &= lanes - 1;                -- identical in every lane
       }
     while (lanes != 0);

   Only the branch on the turn diverges, and the sides meet again inside
   the same iteration, at the update of LANES: the lane whose turn it is
   runs its whole critical section while its siblings wait there holding
   nothing, so the only waits inside are for other warps, which the
   hardware schedules independently under both convergence models.  With
   independent scheduling the turns are not enforced (a lane may run ahead
   into its own turn), but then the lock alone excludes, and spinning on
   it is allowed.  A lane that leaves the section early (return, goto)
   leaves its siblings' loop control untouched.

   When the warp is one thread, gomp_nvptx_lanes is 1 and every lane has
   the turn: the section runs once, in lock step, as GCC expects.  */

#ifndef GOMP_NVPTX_DEVICE_THREAD_H
#define GOMP_NVPTX_DEVICE_THREAD_H 1

#include <stdint.h>

#ifdef __nvptx_unisimt__
/* 0 outside SIMT regions, -1 inside (GCC's nvptx back end and libgcc).  */
extern unsigned __nvptx_uni[32] __attribute__ ((shared));
#endif

static inline unsigned
gomp_nvptx_laneid (void)
{
  unsigned l;
  __asm__ volatile ("mov.u32 %0, %%laneid;" : "=r" (l));
  return l;
}

/* Whether the calling warp is one thread (see above).  */

static inline int
gomp_nvptx_warp_is_thread (void)
{
#ifdef __nvptx_unisimt__
  unsigned tid_y;
  __asm__ ("mov.u32 %0, %%tid.y;" : "=r" (tid_y));
  return ((volatile unsigned *) __nvptx_uni)[tid_y] == 0;
#else
  return 0;
#endif
}

/* The active lanes of the warp for which PRED is nonzero.  */

static inline unsigned
gomp_nvptx_ballot (int pred)
{
  unsigned r;
#if defined __PTX_SM__ && __PTX_SM__ >= 700
  __asm__ volatile ("{\n\t.reg .pred %%p;\n\t.reg .u32 %%m;\n\t"
		    "activemask.b32 %%m;\n\t"
		    "setp.ne.u32 %%p, %1, 0;\n\t"
		    "vote.sync.ballot.b32 %0, %%p, %%m;\n\t}"
		    : "=r" (r) : "r" (pred));
#else
  __asm__ volatile ("{\n\t.reg .pred %%p;\n\t"
		    "setp.ne.u32 %%p, %1, 0;\n\t"
		    "vote.ballot.b32 %0, %%p;\n\t}"
		    : "=r" (r) : "r" (pred));
#endif
  return r;
}

/* The lanes that arrive here together, as the bit set that the turns
   below go through: identical in every one of them.  1 when the warp is
   one thread.  */

static inline unsigned
gomp_nvptx_lanes (void)
{
  if (gomp_nvptx_warp_is_thread ())
    return 1;
  return gomp_nvptx_ballot (1);
}

/* This lane's identity among LANES: the bit it owns, 0 when the warp is
   one thread (all its lanes are lane 0 then).  */

static inline unsigned
gomp_nvptx_lane_index (void)
{
  return gomp_nvptx_warp_is_thread () ? 0 : gomp_nvptx_laneid ();
}

/* Whether it is this lane's turn among LANES (nonzero): the lowest one
   goes first.  */

static inline int
gomp_nvptx_lane_turn (unsigned lanes)
{
  return (unsigned) __builtin_ctz (lanes) == gomp_nvptx_lane_index ();
}

/* A 64-bit key for the calling thread, never 0, different for all
   threads that run at the same time on the device (up to a hash
   collision of two 64-bit values): the launch (%gridid, unique per
   launch in a context), the CTA and the thread (lane, or warp when the
   warp is one thread).  Unlike the hardware slot below it does not
   change when a thread is preempted and resumed elsewhere.  */

static inline uint64_t
gomp_nvptx_thread_key (void)
{
  uint64_t grid, x;
  unsigned cx, cy, cz, ncx, ncy, tx, ty, tz, ntx, nty;
  __asm__ ("mov.u64 %0, %%gridid;" : "=r" (grid));
  __asm__ ("mov.u32 %0, %%ctaid.x;" : "=r" (cx));
  __asm__ ("mov.u32 %0, %%ctaid.y;" : "=r" (cy));
  __asm__ ("mov.u32 %0, %%ctaid.z;" : "=r" (cz));
  __asm__ ("mov.u32 %0, %%nctaid.x;" : "=r" (ncx));
  __asm__ ("mov.u32 %0, %%nctaid.y;" : "=r" (ncy));
  __asm__ ("mov.u32 %0, %%tid.y;" : "=r" (ty));
  __asm__ ("mov.u32 %0, %%tid.z;" : "=r" (tz));
  __asm__ ("mov.u32 %0, %%ntid.x;" : "=r" (ntx));
  __asm__ ("mov.u32 %0, %%ntid.y;" : "=r" (nty));
  tx = 0;
  if (!gomp_nvptx_warp_is_thread ())
    __asm__ ("mov.u32 %0, %%tid.x;" : "=r" (tx));
  x = (uint64_t) cx + (uint64_t) ncx * (cy + (uint64_t) ncy * cz);
  x = x * 1024 + (tx + (uint64_t) ntx * (ty + (uint64_t) nty * tz));
  /* Mix (splitmix64's finalizer) so that the launch and the position
     both reach every bit, then keep 0 free for "no thread".  */
  x ^= grid * 0x9e3779b97f4a7c15ull;
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x ? x : 1;
}

/* The hardware slot the calling thread occupies: its warp's slot on its
   multiprocessor, times 32, plus its lane (0 when the warp is one
   thread).  No two threads that run at the same time share one, but a
   thread that is preempted may resume in another (see the manual).  */

static inline uint32_t
gomp_nvptx_hw_slot (void)
{
  unsigned sm, warp, nwarp;
  __asm__ volatile ("mov.u32 %0, %%smid;" : "=r" (sm));
  __asm__ volatile ("mov.u32 %0, %%warpid;" : "=r" (warp));
  __asm__ ("mov.u32 %0, %%nwarpid;" : "=r" (nwarp));
  return (sm * nwarp + warp) * 32 + gomp_nvptx_lane_index ();
}

#endif /* GOMP_NVPTX_DEVICE_THREAD_H */
