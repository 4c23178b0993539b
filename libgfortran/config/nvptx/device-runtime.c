/* What libgfortran's full runtime needs on nvptx, beside its I/O library.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This file is part of the GNU Fortran runtime library (libgfortran).

   Libgfortran is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public
   License as published by the Free Software Foundation; either
   version 3 of the License, or (at your option) any later version.

   Libgfortran is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   GNU General Public License for more details.

   Under Section 7 of GPL version 3, you are granted additional
   permissions described in the GCC Runtime Library Exception, version
   3.1, as published by the Free Software Foundation.

   You should have received a copy of the GNU General Public License and
   a copy of the GCC Runtime Library Exception along with this program;
   see the files COPYING3 and COPYING.RUNTIME respectively.  If not, see
   <http://www.gnu.org/licenses/>.  */

/* The device libgfortran of libgomp host services is GCC's minimal nvptx
   runtime plus the I/O library, error reporting and STOP of the full one
   (build-aux/build-libgfortran-nvptx.sh).  On other targets, runtime/main.c
   sets the library up in a constructor and closes every unit in a
   destructor; nvptx runs neither, and its exit ends only the calling
   thread.  This file stands in for runtime/main.c there:

   - device_init sets the library up the first time any unit is looked
     up (io/unit.c calls it), once per loaded image, whichever thread
     comes first; the others wait for it.
   - exit is what the full runtime calls (STOP, ERROR STOP, runtime
     errors, the EXIT intrinsic).  The build compiles the I/O library
     and this file with -Dexit=_gfortrani_device_exit
     (build-aux/build-libgfortran-nvptx.sh), so the function defined
     below as exit is _gfortrani_device_exit, and newlib's exit, which
     would end only the calling thread, is never called by libgfortran.
     It flushes what the device's units and the device's C streams
     hold, closes and frees nothing (other threads may be writing to
     them), and then ends the whole program through the host with the
     status (libgomp's __gomp_host_exit).
   - There is no backtrace on the device, and no program arguments.  */

#include "libgfortran.h"
#include "io.h"
#include "unix.h"
#include <stdio.h>
#include <sys/lock.h>
#include <sys/reent.h>

extern void device_init (void);
internal_proto (device_init);

/* The two places where this file differs between the GCC and newlib
   versions it is built with.  The lock of the unit tree is unit_lock up
   to GCC 13 and unit_rwlock since GCC 14, where it is a mutex when gthr
   has no rwlock (nvptx).  This file is compiled by the nvptx compiler of
   the same GCC tree, so __GNUC__ tells the tree's version.  */
#if __GNUC__ >= 14
# ifdef __GTHREAD_RWLOCK_INIT
#  error "the unit tree's lock is an rwlock: device exit expects a mutex"
# endif
# define DEVICE_UNIT_TREE_LOCK unit_rwlock
#else
# define DEVICE_UNIT_TREE_LOCK unit_lock
#endif
/* newlib's table of FILEs: in the global struct _reent up to newlib 3.3,
   the global __sglue since newlib 4 (which also introduced
   _REENT_CLEANUP).  */
#ifdef _REENT_CLEANUP
# define DEVICE_STDIO_GLUE (&__sglue)
#else
# define DEVICE_STDIO_GLUE (&_GLOBAL_REENT->__sglue)
#endif

/* Ends the program through the host with STATUS: in libgomp.a for nvptx
   (config/nvptx/posix-io.c).  */
extern void __gomp_host_exit (int) __attribute__ ((noreturn));

/* The identity of the calling device thread (libgomp's
   config/nvptx/stdio-lock.c).  */
extern unsigned long long __gomp_nvptx_thread_self (void);

/* 0: not set up; 1: set up.  */
static int device_ready;
static __gthread_mutex_t device_init_lock = __GTHREAD_MUTEX_INIT;

void
device_init (void)
{
  if (__atomic_load_n (&device_ready, __ATOMIC_ACQUIRE))
    return;
  __gthread_mutex_lock (&device_init_lock);
  if (!device_ready)
    {
      /* Defaults, and whatever GFORTRAN_* variables the device
	 environment has (none, unless the program set them).  */
      init_variables ();
      /* No backtrace here: do not announce one.  */
      if (options.backtrace == -1)
	options.backtrace = 0;
      init_units ();
      init_compile_options ();
      __atomic_store_n (&device_ready, 1, __ATOMIC_RELEASE);
    }
  __gthread_mutex_unlock (&device_init_lock);
}

/* exit (STOP n, ERROR STOP, runtime errors) from one device thread while
   others may be in the middle of I/O statements on the same units.  The
   host runtime's close_units frees every unit (close_unit_1 with the
   unit list locked takes no unit's lock): here another thread would
   write through a freed unit, and the kernel would fault instead of the
   program ending with STATUS.  So exit only flushes, under locks it
   tries to take for a bounded time, frees nothing, and leaves the rest
   to the host, which ends the process (__gomp_host_exit does not return):

   - the unit tree, under its lock, so that no OPEN or CLOSE of another
     thread changes it during the walk;
   - each unit, under its own lock: what a unit holds that no statement
     is writing (records left open by ADVANCE='NO') goes to the host; a
     unit whose lock another thread keeps past the deadline is skipped,
     and what that thread's unfinished statement wrote may be lost.
     Every finished WRITE statement has already flushed its unit on the
     device (io/transfer.c, patches/libgfortran-0001-nvptx-io.patch);
   - then the device's C streams (a program that also uses printf in
     its target regions): see device_flush_c_streams.

   The locks are newlib's recursive locks keyed by thread
   (config/nvptx/stdio-lock.c in libgomp), so a thread that ends in the
   middle of its own statement (a runtime error in a WRITE) still gets
   its unit.  No lane waits for another lane of its warp without bound:
   a try never waits, and the retries end at a deadline measured on
   %globaltimer.  With pre-Volta convergence a sibling lane that holds a
   unit lock cannot run while this lane retries, so the unit is skipped
   once the deadline passes; with independent thread scheduling the
   sibling may finish its statement and let go, and the unit is flushed.
   Either way the call ends.

   Only the first thread to get here flushes.  A recursive call (an I/O
   error during the flush) goes to the host at once.  Any other thread
   waits until the first one has flushed, or its deadline has passed, and
   then goes to the host too (whose first EXIT flushes the host's
   streams and ends the process: host-service-ops.c, hs_do_exit); going
   at once could end the process while the first one still flushes.
   That wait is also bounded by the waiting thread's own clock, since
   the first one may never run while it waits: with pre-Volta
   convergence, when both are lanes of one warp and the warp runs the
   waiting side of the branch first.  Then the first one's flush is lost
   (the host ends the process before the warp comes back to it), but the
   program still ends, with the waiting thread's status.  */

#define DEVICE_EXIT_LOCK_NS 200000000ull	/* 0.2 s in all.  */
/* How long a second exiting thread waits at most, from its own start:
   the first one's flushing time and some more for reaching it.  */
#define DEVICE_EXIT_WAIT_NS (DEVICE_EXIT_LOCK_NS + 100000000ull)

/* The thread that flushes (__gomp_nvptx_thread_self), 0 before any;
   its deadline, 0 until it is set; whether it has finished.  */
static unsigned long long device_exiter;
static uint64_t device_exit_deadline;
static int device_exit_flushed;

static uint64_t
device_clock_ns (void)
{
  uint64_t t;
  __asm__ volatile ("mov.u64 %0, %%globaltimer;" : "=r" (t));
  return t;
}

/* Loads that reach memory on every call: GCC 12 emits a plain ld for
   atomic loads, which may keep returning a line cached in L1 while
   another multiprocessor changes the word.  (The wait below ends by its
   own clock anyway; these let it end as soon as the first thread is
   done.)  */

static inline int
device_ld_s32 (const int *p)
{
  int v;
  __asm__ volatile ("ld.volatile.u32 %0, [%1];" : "=r" (v) : "r" (p)
		    : "memory");
  return v;
}

static inline uint64_t
device_ld_u64 (const uint64_t *p)
{
  uint64_t v;
  __asm__ volatile ("ld.volatile.u64 %0, [%1];" : "=r" (v) : "r" (p)
		    : "memory");
  return v;
}

/* Take M, trying until DEADLINE: nonzero if taken.  */

static int
device_trylock_until (__gthread_mutex_t *m, uint64_t deadline)
{
  while (__gthread_mutex_trylock (m) != 0)
    if (device_clock_ns () >= deadline)
      return 0;
  return 1;
}

static void
device_flush_units (gfc_unit *u, uint64_t deadline)
{
  for (; u != NULL; u = u->right)
    {
      device_flush_units (u->left, deadline);
      if (u->unit_number == GFC_INTERNAL_UNIT
	  || u->unit_number == GFC_INTERNAL_UNIT4
	  || !device_trylock_until (&u->lock, deadline))
	continue;
      if (!u->closed && u->s != NULL)
	{
	  if (u->previous_nonadvancing_write)
	    finish_last_advance_record (u);
	  sflush (u->s);
	}
      __gthread_mutex_unlock (&u->lock);
    }
}

/* The device's C streams (newlib).  newlib's own exit flushes them
   through __nvptx_exit_flush (patches/newlib-0002-nvptx-threads.patch:
   set by __sinit once stdio is in use), which is fflush of every stream:
   it waits for each stream's lock, input streams too, without bound (a
   device thread blocked in fgets on stdin holds stdin's lock for as long
   as the host has no input).  It is not called here.  Instead, with
   the same bounded try-locks as the units:

   - __sinit's lock, so that stdio's setup is complete (__sinit sets
     __nvptx_exit_flush before it sets the list of streams up), else
     nothing is flushed.  newlib 4 sets stdio up under __sfp's lock
     (patches/14/newlib-0002: the hook is set in global_stdio_init) and
     no longer takes this one, which libgomp still defines: taking it
     is then harmless, and the next lock covers the set-up;
   - the table of streams (__sfp's lock), so that the list of blocks of
     FILEs is seen whole; without it, only the first block (stdin, stdout,
     stderr, which never moves) is walked;
   - each stream open for writing, under its own lock: what its buffer
     holds is written through the stream's own write function, as fflush
     would, and the buffer emptied.  A stream another thread keeps locked
     past the deadline is skipped; input streams are never locked.

   Only __nvptx_exit_flush and the locks are referred to, never a stdio
   function, so a program whose device code has no stdio links none.  */

extern void (*__nvptx_exit_flush) (void);
extern struct __lock __lock___sinit_recursive_mutex;
extern struct __lock __lock___sfp_recursive_mutex;

static int
device_c_trylock_until (_LOCK_T l, uint64_t deadline)
{
  while (!__retarget_lock_try_acquire_recursive (l))
    if (device_clock_ns () >= deadline)
      return 0;
  return 1;
}

static void
device_flush_c_stream (FILE *fp, uint64_t deadline)
{
  int locked = !(fp->_flags2 & __SNLK);
  unsigned char *p;
  int n;

  /* Free (0), being allocated (1), closed (-1), or input only.  */
  if (fp->_flags == 0 || fp->_flags == 1 || fp->_file == -1
      || !(fp->_flags & __SWR))
    return;
  if (locked
      && (fp->_lock == NULL || !device_c_trylock_until (fp->_lock, deadline)))
    return;
  /* Again under the lock: another thread may have closed it.  */
  p = fp->_bf._base;
  if (fp->_flags != 0 && fp->_flags != 1 && (fp->_flags & __SWR)
      && p != NULL && fp->_write != NULL)
    {
      n = fp->_p - p;
      fp->_p = p;
      fp->_w = fp->_flags & (__SLBF | __SNBF) ? 0 : fp->_bf._size;
      while (n > 0)
	{
	  int t = fp->_write (_REENT, fp->_cookie, (const char *) p, n);
	  if (t <= 0)
	    {
	      fp->_flags |= __SERR;
	      break;
	    }
	  p += t;
	  n -= t;
	}
    }
  if (locked)
    __retarget_lock_release_recursive (fp->_lock);
}

static void
device_flush_c_streams (uint64_t deadline)
{
  struct _glue *g;
  int whole;

  if (__atomic_load_n (&__nvptx_exit_flush, __ATOMIC_ACQUIRE) == NULL
      || !device_c_trylock_until (&__lock___sinit_recursive_mutex,
				  deadline))
    return;
  whole = device_c_trylock_until (&__lock___sfp_recursive_mutex, deadline);
  for (g = DEVICE_STDIO_GLUE; g != NULL; g = whole ? g->_next : NULL)
    for (int i = 0; i < g->_niobs && g->_iobs != NULL; i++)
      device_flush_c_stream (&g->_iobs[i], deadline);
  if (whole)
    __retarget_lock_release_recursive (&__lock___sfp_recursive_mutex);
  __retarget_lock_release_recursive (&__lock___sinit_recursive_mutex);
}

void
exit (int status)
{
  unsigned long long self = __gomp_nvptx_thread_self (), first = 0;
  uint64_t start = device_clock_ns ();

  if (__atomic_compare_exchange_n (&device_exiter, &first, self, 0,
				   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
      uint64_t deadline = start + DEVICE_EXIT_LOCK_NS;
      __atomic_store_n (&device_exit_deadline, deadline, __ATOMIC_RELEASE);
      if (__atomic_load_n (&device_ready, __ATOMIC_ACQUIRE)
	  && device_trylock_until (&DEVICE_UNIT_TREE_LOCK, deadline))
	{
	  device_flush_units (unit_root, deadline);
	  __gthread_mutex_unlock (&DEVICE_UNIT_TREE_LOCK);
	}
      device_flush_c_streams (deadline);
      __atomic_store_n (&device_exit_flushed, 1, __ATOMIC_RELEASE);
    }
  else if (first != self)
    /* Another thread flushes: wait for it, never past its deadline nor
       past this thread's own bound.  */
    for (;;)
      {
	uint64_t now = device_clock_ns ();
	uint64_t d = device_ld_u64 (&device_exit_deadline);
	if (device_ld_s32 (&device_exit_flushed)
	    || (d != 0 && now >= d) || now - start >= DEVICE_EXIT_WAIT_NS)
	  break;
      }
  __gomp_host_exit (status);
}

/* What runtime/backtrace.c does on other targets.  */

void
show_backtrace (bool in_signal_handler __attribute__ ((unused)))
{
}

/* Program arguments: the host program's are not on the device.  */

static int device_argc;
static char **device_argv;

void
set_args (int argc, char **argv)
{
  device_argc = argc;
  device_argv = argv;
}
iexport (set_args);

void
get_args (int *argc, char ***argv)
{
  *argc = device_argc;
  *argv = device_argv;
}

/* The rest of the runtime calls this so that a static link pulls in the
   file that sets the library up: on other targets runtime/main.c, here
   this one.  */

void
stupid_function_name_for_static_linking (void)
{
}
