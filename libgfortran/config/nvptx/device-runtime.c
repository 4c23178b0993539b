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
     errors): it flushes what the device's units hold, closes and frees
     nothing (other threads may be writing to them), and then ends the
     whole program through the host with the status (libgomp's
     __gomp_host_exit).
   - There is no backtrace on the device, and no program arguments.  */

#include "libgfortran.h"
#include "io.h"
#include "unix.h"

extern void device_init (void);
internal_proto (device_init);

/* Ends the program through the host with STATUS: in libgomp.a for nvptx
   (config/nvptx/posix-io.c).  */
extern void __gomp_host_exit (int) __attribute__ ((noreturn));

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

   - the unit tree, under unit_lock, so that no OPEN or CLOSE of another
     thread changes it during the walk;
   - each unit, under its own lock: what a unit holds that no statement
     is writing (records left open by ADVANCE='NO') goes to the host; a
     unit whose lock another thread keeps past the deadline is skipped,
     and what that thread's unfinished statement wrote may be lost.
     Every finished WRITE statement has already flushed its unit on the
     device (io/transfer.c, patches/libgfortran-0001-nvptx-io.patch).

   The locks are newlib's recursive locks keyed by thread
   (config/nvptx/stdio-lock.c in libgomp), so a thread that ends in the
   middle of its own statement (a runtime error in a WRITE) still gets
   its unit.  No lane waits for another lane of its warp without bound:
   a try never waits, and the retries end at a deadline measured on
   %globaltimer.  With pre-Volta convergence a sibling lane that holds a
   unit lock cannot run while this lane retries, so the unit is skipped
   once the deadline passes; with independent thread scheduling the
   sibling may finish its statement and let go, and the unit is flushed.
   Either way the call ends.  Only the first thread to get here flushes:
   a second (or a recursive call from an I/O error during the flush) goes
   to the host at once.  */

#define DEVICE_EXIT_LOCK_NS 200000000ull	/* 0.2 s in all.  */

static int device_exiting;

static uint64_t
device_clock_ns (void)
{
  uint64_t t;
  __asm__ volatile ("mov.u64 %0, %%globaltimer;" : "=r" (t));
  return t;
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

void
exit (int status)
{
  if (__atomic_load_n (&device_ready, __ATOMIC_ACQUIRE)
      && __atomic_exchange_n (&device_exiting, 1, __ATOMIC_ACQ_REL) == 0)
    {
      uint64_t deadline = device_clock_ns () + DEVICE_EXIT_LOCK_NS;
      if (device_trylock_until (&unit_lock, deadline))
	{
	  device_flush_units (unit_root, deadline);
	  __gthread_mutex_unlock (&unit_lock);
	}
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
