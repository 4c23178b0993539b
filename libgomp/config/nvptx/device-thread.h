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
   FILE lock) must never wait for another lane of its own warp.  Two
   models of how a warp's lanes run meet in one kernel: libgomp's and
   newlib's device code is PTX for GCC 12's default -misa=sm_30, while
   gomp-gcc compiles the user's code for sm_80 (or sm_75, sm_70).

   - Lock-step convergence (PTX for targets below sm_70): when lanes
     diverge, one side runs until the point where the sides meet again
     (the immediate post-dominator of the branch) before the other side
     runs at all.  If lane A takes a lock and lane B of the same warp
     spins on it, either B spins first and A never gets to release it,
     or A waits where the sides meet, still holding it.

   - Independent thread scheduling (sm_70 and later GPUs running PTX
     for sm_70 and later, which is what calls us): diverged lanes
     interleave in any order, every one of them makes progress, and
     lanes that were apart need not come together again on their own
     at a join; a vote or a shuffle without .sync sees whichever lanes
     happen to be there.

   The answer used throughout the device runtime is to let the lanes that
   arrive together take turns, under loop control that is the same in
   every lane:

     lanes = gomp_nvptx_lanes ();          -- read once, on entry
     do
       {
	 if (gomp_nvptx_lane_turn (lanes))  -- exactly one lane
	   { take the lock; work; release the lock; }
	 lanes &= lanes - 1;                -- identical in every lane
       }
     while (lanes != 0);

   LANES is read by one instruction that the arriving lanes execute
   together, so it is the same value in each of them, and nothing inside
   the loop reads the warp again: every lane of LANES runs the same number
   of iterations and has its turn in exactly one.  Only the branch on the
   turn diverges.  Under lock-step convergence the sides meet again
   inside the same iteration, at the update of LANES: the lane whose turn
   it is runs its whole critical section while its siblings wait there
   holding nothing.  Under independent scheduling a sibling may run ahead
   into its own turn and spin on the lock the earlier lane holds; that
   lane keeps running and releases it, so the lock alone excludes.  In
   both, the only waits inside a section are for other warps, or for
   lanes of this warp that are not waiting for us.  A lane that leaves the
   section early (return, goto) leaves its siblings' loop control
   untouched.

   Where lanes must act together (the host-service port loop,
   host-service-client.h), the mask of the lanes that arrived is read
   once, on entry (gomp_nvptx_active_lanes), and every vote and warp
   barrier of the call names that same mask (gomp_nvptx_vote,
   gomp_nvptx_warp_sync): vote.sync and bar.warp.sync with a mask wait
   until every lane of the mask is at that instruction, under both
   models, so lanes that wandered apart meet again there.  The warp is
   never read again inside such a loop: under independent scheduling
   lanes that vote apart would each see a different warp.

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

/* The PTX ISA version this code is emitted for, major * 10 + minor.
   GCC 12 and later define the two macros (gcc/config/nvptx/nvptx-c.cc),
   from -mptx or its default, which is 6.0 even for -misa=sm_30.  */
#if defined __PTX_ISA_VERSION_MAJOR__ && defined __PTX_ISA_VERSION_MINOR__
# define GOMP_NVPTX_PTX \
  (__PTX_ISA_VERSION_MAJOR__ * 10 + __PTX_ISA_VERSION_MINOR__)
#else
# define GOMP_NVPTX_PTX 31
#endif

/* vote.sync and bar.warp.sync (PTX 6.0, any target from sm_30) are what
   makes the lane loops correct under independent scheduling: there is no
   sound lane loop without them once user code for sm_70 or later joins
   this code in one kernel.  So the device runtime is not built for the
   -mptx=3.1 multilib (build-aux/build-libgomp-nvptx.sh builds the default
   and mgomp ones, both PTX 6.0).  */
#if GOMP_NVPTX_PTX < 60
# error "the nvptx device runtime needs PTX 6.0 or later (vote.sync, bar.warp.sync)"
#endif

/* The lanes of the warp that execute this together, as a mask.  Read
   once where a call or a turn loop starts: every lane that executes the
   instruction gets the same value.  activemask needs PTX 6.2; before,
   vote.ballot without .sync (deprecated, but valid for every target up to
   PTX 6.3) gives the same set.  */

static inline unsigned
gomp_nvptx_active_lanes (void)
{
  unsigned m;
#if GOMP_NVPTX_PTX >= 62
  __asm__ volatile ("activemask.b32 %0;" : "=r" (m));
#else
  __asm__ volatile ("{\n\t.reg .pred %%p;\n\t"
		    "setp.eq.u32 %%p, 1, 1;\n\t"
		    "vote.ballot.b32 %0, %%p;\n\t}"
		    : "=r" (m));
#endif
  return m;
}

/* The lanes of MASK for which PRED is nonzero.  Every lane of MASK must
   execute this same vote, and MASK must be the same value in each (read
   once by gomp_nvptx_active_lanes); the vote waits until all of them are
   here.  Under lock-step convergence they are here together anyway: the
   callers place it where every side of a branch has met again, so the
   lanes are converged, as PTX requires for targets below sm_70.  */

static inline unsigned
gomp_nvptx_vote (unsigned mask, int pred)
{
  unsigned r;
  __asm__ volatile ("{\n\t.reg .pred %%p;\n\t"
		    "setp.ne.u32 %%p, %1, 0;\n\t"
		    "vote.sync.ballot.b32 %0, %%p, %2;\n\t}"
		    : "=r" (r) : "r" (pred), "r" (mask) : "memory");
  return r;
}

/* Wait until every lane of MASK is here (same rules as above).  The
   barrier also orders each lane's memory accesses before it before those
   of every lane of MASK after it.  */

static inline void
gomp_nvptx_warp_sync (unsigned mask)
{
  __asm__ volatile ("bar.warp.sync %0;" : : "r" (mask) : "memory");
}

/* The lanes that arrive here together, as the bit set that the turns
   below go through: identical in every one of them.  1 when the warp is
   one thread.  */

static inline unsigned
gomp_nvptx_lanes (void)
{
  if (gomp_nvptx_warp_is_thread ())
    return 1;
  return gomp_nvptx_active_lanes ();
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
   thread: the warp and its lane 0 in a SIMT region are the same thread,
   in the same slot).  No two threads that run at the same time share
   one, but a thread that is preempted may resume in another (see the
   manual).  reent.c maps it to a table entry (tls_home) lane-major, so
   that warps that are one thread get consecutive entries.  */

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
