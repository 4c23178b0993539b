/* The C library ABI of standalone nvptx programs.
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

/* gomp-nvptx-gcc includes this header before anything else in a
   standalone program.  Such a program is compiled with newlib's headers,
   but the plain names of the system calls in the device runtime
   (config/nvptx/posix-io.c) take the host C library's constants and
   structures, for target regions, which are compiled with the host's
   headers.  Where the two ABIs differ -- open's flags, struct stat, the
   clock numbers -- these declarations, seen before newlib's, give the
   plain names the assembler names of the newlib-ABI functions.  Calls
   whose arguments mean the same in both (read, write, lseek, close,
   unlink, mkdir, ...) keep their names.  */

#ifndef GOMP_NVPTX_ABI_H
#define GOMP_NVPTX_ABI_H 1

/* The host's monotonic clock is there: let newlib's <time.h> define
   CLOCK_MONOTONIC (its <sys/features.h> says nothing for nvptx).  */
#ifndef _POSIX_MONOTONIC_CLOCK
#define _POSIX_MONOTONIC_CLOCK 200112L
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct stat;
struct timespec;

extern int open (const char *, int, ...) __asm__ ("_open");
extern int stat (const char *__restrict, struct stat *__restrict)
  __asm__ ("_stat");
extern int fstat (int, struct stat *) __asm__ ("__gomp_nvptx_fstat");
extern int lstat (const char *__restrict, struct stat *__restrict)
  __asm__ ("__gomp_nvptx_lstat");
/* newlib's clockid_t is unsigned long.  */
extern int clock_gettime (unsigned long, struct timespec *)
  __asm__ ("__gomp_nvptx_clock_gettime");

#ifdef __cplusplus
}
#endif

#endif /* GOMP_NVPTX_ABI_H */
