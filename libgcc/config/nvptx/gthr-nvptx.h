/* Threads of the nvptx device runtime, for libgfortran's I/O library.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This file is part of GCC.

   GCC is free software; you can redistribute it and/or modify it under
   the terms of the GNU General Public License as published by the Free
   Software Foundation; either version 3, or (at your option) any later
   version.

   GCC is distributed in the hope that it will be useful, but WITHOUT ANY
   WARRANTY; without even the implied warranty of MERCHANTABILITY or
   FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
   for more details.

   Under Section 7 of GPL version 3, you are granted additional
   permissions described in the GCC Runtime Library Exception, version
   3.1, as published by the Free Software Foundation.

   You should have received a copy of the GNU General Public License and
   a copy of the GCC Runtime Library Exception along with this program;
   see the files COPYING3 and COPYING.RUNTIME respectively.  If not, see
   <http://www.gnu.org/licenses/>.  */

/* GCC's nvptx libgcc is built with the "single" thread model: no locks.
   The device libgfortran of libgomp host services (its I/O library, built
   by build-aux/build-libgfortran-nvptx.sh) is used by every OpenMP thread
   of every team at once, so it is compiled with this header as its
   gthr-default.h instead.  Only what libgfortran uses is here.

   Mutexes are the locks of the device C library (libgomp's
   config/nvptx/stdio-lock.c, through newlib's retargetable locking
   interface): a struct __lock, zero when free, owned by a device thread
   (gomp_nvptx_thread_key).  They are taken recursively, which costs
   nothing when nobody recurses.  A device thread is a warp under
   -muniform-simt (OpenMP outside SIMT regions): its lanes take and give
   the lock together.  Lanes of one warp that are separate threads (omp
   simd, OpenACC vector loops) cannot share these locks, which are held
   for whole statements: when several arrive together, the kernel ends
   with a message instead of hanging (__gomp_nvptx_gthread_lock).

   There is no thread-specific data: __gthread_key_create fails with
   EAGAIN, __gthread_getspecific returns NULL.  libgfortran creates its
   keys in constructors, which do not run on nvptx, and copes without
   them (error.c's check for errors while reporting an error allocates
   its flag again; random.c is built with the single thread model).

   No condition variables, no thread creation: asynchronous I/O is not
   available (libgfortran's async.h sees no __GTHREAD_HAS_COND and runs
   every transfer synchronously).  */

#ifndef GCC_GTHR_NVPTX_H
#define GCC_GTHR_NVPTX_H

#include <errno.h>
#include <sys/lock.h>

#define __GTHREADS 1

typedef struct __lock __gthread_mutex_t;
typedef struct __lock __gthread_recursive_mutex_t;
typedef unsigned int __gthread_key_t;
typedef int __gthread_once_t;
typedef unsigned long long __gthread_t;

#define __GTHREAD_MUTEX_INIT { 0, 0 }
#define __GTHREAD_MUTEX_INIT_FUNCTION(m) __gthread_mutex_init_function (m)
#define __GTHREAD_RECURSIVE_MUTEX_INIT { 0, 0 }
#define __GTHREAD_RECURSIVE_MUTEX_INIT_FUNCTION(m) \
  __gthread_mutex_init_function (m)
#define __GTHREAD_ONCE_INIT 0

#ifdef __cplusplus
extern "C" {
#endif

/* In libgomp.a for nvptx (config/nvptx/stdio-lock.c).  */
extern void __gomp_nvptx_gthread_lock (struct __lock *);
extern int __retarget_lock_try_acquire_recursive (struct __lock *);
extern void __retarget_lock_release_recursive (struct __lock *);
extern unsigned long long __gomp_nvptx_thread_self (void);

#ifdef __cplusplus
}
#endif

static inline int
__gthread_active_p (void)
{
  return 1;
}

static inline void
__gthread_mutex_init_function (__gthread_mutex_t *__m)
{
  __m->__owner = 0;
  __m->__count = 0;
}

static inline int
__gthread_mutex_destroy (__gthread_mutex_t *__m __attribute__ ((unused)))
{
  return 0;
}

static inline int
__gthread_mutex_lock (__gthread_mutex_t *__m)
{
  __gomp_nvptx_gthread_lock (__m);
  return 0;
}

static inline int
__gthread_mutex_trylock (__gthread_mutex_t *__m)
{
  /* Zero when taken, as pthread_mutex_trylock.  */
  return __retarget_lock_try_acquire_recursive (__m) ? 0 : 1;
}

static inline int
__gthread_mutex_unlock (__gthread_mutex_t *__m)
{
  __retarget_lock_release_recursive (__m);
  return 0;
}

static inline int
__gthread_recursive_mutex_lock (__gthread_recursive_mutex_t *__m)
{
  return __gthread_mutex_lock (__m);
}

static inline int
__gthread_recursive_mutex_trylock (__gthread_recursive_mutex_t *__m)
{
  return __gthread_mutex_trylock (__m);
}

static inline int
__gthread_recursive_mutex_unlock (__gthread_recursive_mutex_t *__m)
{
  return __gthread_mutex_unlock (__m);
}

static inline int
__gthread_recursive_mutex_destroy (__gthread_recursive_mutex_t *__m)
{
  return __gthread_mutex_destroy (__m);
}

static inline int
__gthread_key_create (__gthread_key_t *__key __attribute__ ((unused)),
		      void (*__dtor) (void *) __attribute__ ((unused)))
{
  return EAGAIN;
}

static inline int
__gthread_key_delete (__gthread_key_t __key __attribute__ ((unused)))
{
  return EINVAL;
}

static inline void *
__gthread_getspecific (__gthread_key_t __key __attribute__ ((unused)))
{
  return 0;
}

static inline int
__gthread_setspecific (__gthread_key_t __key __attribute__ ((unused)),
		       const void *__ptr __attribute__ ((unused)))
{
  return EINVAL;
}

static inline __gthread_t
__gthread_self (void)
{
  return __gomp_nvptx_thread_self ();
}

static inline int
__gthread_equal (__gthread_t __t1, __gthread_t __t2)
{
  return __t1 == __t2;
}

#endif /* GCC_GTHR_NVPTX_H */
