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
   - device_exit is what the full runtime calls where it would call exit
     (STOP, ERROR STOP, runtime errors; the build maps exit to it): it
     closes every unit the device has open, so that nothing written is
     lost, and then ends the whole program through the host with the
     status (libgomp's __gomp_host_exit).
   - There is no backtrace on the device, and no program arguments.  */

#include "libgfortran.h"
#include "io.h"

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

/* The build compiles this file, like the rest of the runtime, with exit
   mapped to _gfortrani_device_exit.  */

void
exit (int status)
{
  if (__atomic_load_n (&device_ready, __ATOMIC_ACQUIRE))
    close_units ();
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
