/* Locks of the C library on nvptx.
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

/* newlib for nvptx is configured with retargetable locking: its stdio
   (every FILE, the table of FILEs, stdio's initialization), atexit,
   getenv/setenv and the time zone take locks through the functions
   below, and its static locks are the __lock___* objects defined here.
   newlib's own do-nothing versions (misc/lock.c) are compiled out for
   nvptx, and the build removes their member from libc.a.

   A lock belongs to a thread of the device runtime (device-thread.h):
   its owner is the holder's gomp_nvptx_thread_key, 0 when free.  Taking
   it is a compare-and-swap on the owner in device memory, retried after
   a back-off that grows, measured in %clock64 ticks, so that waiters do
   not flood the memory system.  The recursive variants let the owner
   take it again and count.

   Lanes.  A lane that spins here on a lock held by another lane of its
   own warp never lets that lane release it (see device-thread.h), so
   newlib's stdio enters its critical sections through the turn loop of
   stdio/local.h, and getenv/setenv/unsetenv, localtime_r, mktime, tzset
   and strftime (the environment and time zone locks) through
   __lock_lane_turns of sys/lock.h (patches/newlib-0004), whose two
   primitives are defined at the end of this file: the lanes of a warp
   that arrive together run the section one at a time.  atexit's locks
   have no such loop (on_exit/atexit from vector lanes is not
   supported; exit flushes without them).

   Under -muniform-simt (the mgomp multilib, outside SIMT regions) the
   whole warp is one thread: its lanes run this code together, GCC
   executes the atomic operations in one lane and gives every lane the
   result, so every branch below goes the same way in all of them.  Keep
   it so: no inline-asm atomics, and no decision that depends on the
   lane.  */

#include <stdint.h>
#include <stdlib.h>
#include <sys/lock.h>
#include "device-thread.h"

/* struct __lock is in newlib's sys/lock.h on nvptx, since newlib's
   modules declare the static locks and PTX wants the declarations to have
   the definition's size: __owner is the gomp_nvptx_thread_key of the
   holder, 0 when free; __count is how many times the holder took it.  */
_Static_assert (sizeof (((struct __lock *) 0)->__owner) == sizeof (uint64_t),
		"struct __lock holds a 64-bit thread key");

/* newlib's static locks.  Zero is "free".  */
struct __lock __lock___sinit_recursive_mutex;
struct __lock __lock___sfp_recursive_mutex;
struct __lock __lock___atexit_recursive_mutex;
struct __lock __lock___at_quick_exit_mutex;
struct __lock __lock___malloc_recursive_mutex;
struct __lock __lock___env_recursive_mutex;
struct __lock __lock___tz_mutex;
struct __lock __lock___dd_hash_mutex;
struct __lock __lock___arc4random_mutex;

/* What a dynamic lock (one per FILE) is when the device heap has no room
   for it: all such locks are then this one.  Correct, since it is
   always taken recursively (a thread may hold two FILEs that share it),
   only slower.  */
static struct __lock shared_fallback;

static inline uint64_t
clock64 (void)
{
  uint64_t t;
  __asm__ volatile ("mov.u64 %0, %%clock64;" : "=r" (t));
  return t;
}

/* Back-off between two attempts: spin for *DELAY clock ticks, then
   double it, up to a bound that keeps the wait for a freed lock short.
   The ticks read by the lanes of a warp in lock step are the same.  */

#define BACKOFF_MIN 64
#define BACKOFF_MAX 16384

static void
backoff (uint32_t *delay)
{
  uint64_t start = clock64 ();
  while (clock64 () - start < *delay)
    ;
  if (*delay < BACKOFF_MAX)
    *delay *= 2;
}

/* Whether L's holder may take it again.  */

static inline int
lock_recursive_p (struct __lock *l, int recursive)
{
  return recursive || l == &shared_fallback;
}

/* The fence after a lock is taken and before it is freed: membar.gl,
   which orders the thread's accesses to device memory as every thread of
   the device sees them.  That is all these locks guard: FILEs, their
   buffers, the table of FILEs, the heap, the environment and the time
   zone, all in device memory.  Whatever goes to the host (a flush, a
   read) is a host-service call, whose own fences (membar.sys before the
   request is published, after the reply is seen) order it; the lock
   adds nothing there.  GCC 12 makes an acquire or release atomic, and
   __atomic_thread_fence, membar.sys, which also waits until every access
   of the thread to host memory is done: two of them per take and two per
   give, where one membar.gl each does.  The atomics stay relaxed GCC
   atomics (see above: no inline-asm atomics); the fence is no atomic,
   and every lane of a warp that is one thread running it is harmless.  */

static inline void
lock_fence (void)
{
  __asm__ volatile ("membar.gl;" : : : "memory");
}

/* One attempt to take L for SELF: nonzero on success.  */

static inline int
lock_try (struct __lock *l, uint64_t self, int recursive)
{
  unsigned long long expected = 0;

  if (lock_recursive_p (l, recursive)
      && __atomic_load_n (&l->__owner, __ATOMIC_RELAXED) == self)
    {
      l->__count++;
      return 1;
    }
  if (!__atomic_compare_exchange_n (&l->__owner, &expected, self, 0,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    return 0;
  /* What the previous holder wrote under the lock is visible from here
     on (see lock_fence).  */
  lock_fence ();
  l->__count = 1;
  return 1;
}

static void
lock_take (struct __lock *l, int recursive)
{
  uint64_t self = gomp_nvptx_thread_key ();
  uint32_t delay = BACKOFF_MIN;

  while (!lock_try (l, self, recursive))
    backoff (&delay);
}

static void
lock_give (struct __lock *l, int recursive)
{
  if (lock_recursive_p (l, recursive) && --l->__count != 0)
    return;
  l->__count = 0;
  /* Publish what was written under the lock before freeing it.  */
  lock_fence ();
  __atomic_store_n (&l->__owner, 0, __ATOMIC_RELAXED);
}

static void
lock_init (_LOCK_T *lock)
{
  struct __lock *l = malloc (sizeof *l);

  if (l == NULL)
    l = &shared_fallback;
  else
    {
      l->__owner = 0;
      l->__count = 0;
    }
  *lock = l;
}

static void
lock_close (_LOCK_T lock)
{
  if (lock != NULL && lock != &shared_fallback)
    free (lock);
}

void
__retarget_lock_init (_LOCK_T *lock)
{
  lock_init (lock);
}

void
__retarget_lock_init_recursive (_LOCK_T *lock)
{
  lock_init (lock);
}

void
__retarget_lock_close (_LOCK_T lock)
{
  lock_close (lock);
}

void
__retarget_lock_close_recursive (_LOCK_T lock)
{
  lock_close (lock);
}

void
__retarget_lock_acquire (_LOCK_T lock)
{
  lock_take (lock, 0);
}

void
__retarget_lock_acquire_recursive (_LOCK_T lock)
{
  lock_take (lock, 1);
}

/* Nonzero when the lock was taken, as newlib's default versions (which
   always succeed) return.  */

int
__retarget_lock_try_acquire (_LOCK_T lock)
{
  return lock_try (lock, gomp_nvptx_thread_key (), 0);
}

int
__retarget_lock_try_acquire_recursive (_LOCK_T lock)
{
  return lock_try (lock, gomp_nvptx_thread_key (), 1);
}

void
__retarget_lock_release (_LOCK_T lock)
{
  lock_give (lock, 0);
}

void
__retarget_lock_release_recursive (_LOCK_T lock)
{
  lock_give (lock, 1);
}

/* The two primitives of the turn loop in newlib's stdio/local.h, which
   brackets every critical section of stdio (and of sys/lock.h's
   __lock_lane_turns, around the environment and time zone sections):

     lanes = __gomp_nvptx_stdio_lanes ();
   turn:
     if (__gomp_nvptx_stdio_lane_turn (lanes))
       { lock; section; unlock; }
     lanes &= lanes - 1;
     if (lanes != 0)
       goto turn;

   Why no lane of a warp ever waits there for another lane of its warp:

   - LANES is read once, before the loop (gomp_nvptx_lanes: activemask,
     or a vote without .sync where the PTX version has no activemask), by
     one instruction that exactly the lanes that arrived together
     execute, so it is the same value in all of them; the update "lanes
     &= lanes - 1" is the same in all of them too, and nothing in the
     loop reads the warp again: the loop control never diverges, every
     arriving lane runs the same number of iterations, and each lane's
     bit comes up in exactly one.  No vote or barrier is inside, so lanes
     that drift apart under independent scheduling have nothing to meet
     at: each just counts its own iterations.

   - Only the branch on the turn diverges.  In each iteration exactly one
     lane takes it (the lowest bit left in LANES).  Its siblings skip the
     section and wait where the two sides meet, at the update of LANES,
     holding no lock of this section.  With pre-Volta convergence (PTX
     for sm_30, as newlib and libgomp are built, even on newer GPUs) the
     warp runs one side of a divergent branch up to that meeting point
     before the other: either the lane with the turn runs its whole
     section first (it takes the lock, waits only for other warps, which
     the hardware schedules independently, and releases it), or the
     siblings run first, up to the meeting point, which needs nothing
     from that lane.  Inside a section only one lane of the warp is
     active, so a lock taken there is never contended by a sibling, and
     nested sections (fclose's FILE lock, then the FILE table's) find a
     single arriving lane.

   - A lane that leaves its section early (an _exit macro releases the
     lock, then the function returns) moves the point where the sides
     meet to the end of the function, but holds nothing when it gets
     there; the siblings' LANES still holds its bit, which they clear in
     the same iteration, so their loop is unchanged.

   - With independent thread scheduling (user code for sm_70 or later
     calling this code) the turns are not enforced: a lane may reach its
     own turn while an earlier lane is still in its section.  Then it
     spins on the lock, which is allowed there: the holder is scheduled
     too and releases it, and the lock alone keeps them apart.  Lanes
     that arrived apart are separate loops, each with its own LANES;
     the same argument holds between them.  (tests/models/
     lanes-stdio-turns.pml checks both models.)

   - When the warp is one thread (-muniform-simt outside SIMT regions),
     LANES is 1 and every lane is lane 0: all have the turn, run the
     section once together, and leave after one iteration.  */

unsigned
__gomp_nvptx_stdio_lanes (void)
{
  return gomp_nvptx_lanes ();
}

int
__gomp_nvptx_stdio_lane_turn (unsigned lanes)
{
  return gomp_nvptx_lane_turn (lanes);
}

/* For the thread interface of libgfortran's I/O library on nvptx
   (gthr-nvptx.h): the identity of the calling device thread, the owner
   recorded in the locks above.  */

unsigned long long
__gomp_nvptx_thread_self (void)
{
  return gomp_nvptx_thread_key ();
}
