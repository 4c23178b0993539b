/* POSIX I/O for target regions on nvptx.
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

/* newlib's stdio reaches the operating system through the underscored
   system calls (_open, _write, ...), with newlib's constants and struct
   layouts.  Code in a target region calls the plain names (open, write,
   ...) with the host C library's constants, because it was preprocessed
   with the host's headers.  Both families are defined here and meet in
   one set of helpers that speak the host's ABI; newlib's flags and
   structures are translated on the way.  errno always holds the host's
   values, since that is what user code compares it with.

   The host-service transport is not connected yet: the console (file
   descriptors 1 and 2) goes to the CUDA printf FIFO, in chunks, and every
   other request fails with ENOSYS.  */

/* Have newlib's headers declare the underscored system calls, so that
   the definitions below are checked against what newlib calls.  */
#define _COMPILING_NEWLIB 1

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/types.h>
#include <unistd.h>
#include "glibc-abi.h"

extern int vprintf (const char *, va_list);

/* The printf of the CUDA runtime, as PTX exposes it.  */
static int
console_printf (const char *fmt, ...)
{
  va_list ap;
  int r;
  va_start (ap, fmt);
  r = vprintf (fmt, ap);
  va_end (ap);
  return r;
}

static long
fail (int host_errno)
{
  errno = host_errno;
  return -1;
}

static int
console_fd_p (int fd)
{
  return fd == 1 || fd == 2;
}

/* The helpers below speak the host's ABI.  */

static int
hs_open (const char *path, int host_flags, unsigned mode)
{
  (void) host_flags;
  (void) mode;
  if (path == NULL)
    return fail (HOST_EFAULT);
  return fail (HOST_ENOSYS);
}

static int
hs_close (int fd)
{
  if (fd < 0)
    return fail (HOST_EBADF);
  return fail (HOST_ENOSYS);
}

static ssize_t
hs_write (int fd, const void *buf, size_t count)
{
  const char *p = buf;
  size_t left = count;

  if (fd < 0)
    return fail (HOST_EBADF);
  if (!console_fd_p (fd))
    return fail (HOST_ENOSYS);
  if (count > 0 && buf == NULL)
    return fail (HOST_EFAULT);
  /* %.*s stops at a NUL byte; emit those one at a time.  */
  while (left > 0)
    {
      size_t n = strnlen (p, left < 4096 ? left : 4096);
      if (n == 0)
	{
	  console_printf ("%c", 0);
	  n = 1;
	}
      else if (console_printf ("%.*s", (int) n, p) < 0)
	return count - left > 0 ? (ssize_t) (count - left) : fail (HOST_EIO);
      p += n;
      left -= n;
    }
  return count;
}

static ssize_t
hs_read (int fd, void *buf, size_t count)
{
  (void) buf;
  (void) count;
  if (fd < 0)
    return fail (HOST_EBADF);
  return fail (HOST_ENOSYS);
}

static off_t
hs_lseek (int fd, off_t offset, int whence)
{
  (void) offset;
  if (fd < 0)
    return fail (HOST_EBADF);
  if (whence < 0 || whence > 2)
    return fail (HOST_EINVAL);
  return fail (console_fd_p (fd) || fd == 0 ? HOST_ESPIPE : HOST_ENOSYS);
}

static int
hs_fstat (int fd, struct host_stat *st)
{
  if (fd < 0)
    return fail (HOST_EBADF);
  if (fd <= 2)
    {
      /* The standard streams are character devices.  */
      memset (st, 0, sizeof *st);
      st->st_mode = HOST_S_IFCHR | 0620;
      st->st_blksize = 1024;
      return 0;
    }
  return fail (HOST_ENOSYS);
}

static int
hs_stat (const char *path, struct host_stat *st, int follow)
{
  (void) st;
  (void) follow;
  if (path == NULL)
    return fail (HOST_EFAULT);
  return fail (HOST_ENOSYS);
}

static int
hs_path_op (const char *path)
{
  if (path == NULL)
    return fail (HOST_EFAULT);
  return fail (HOST_ENOSYS);
}

static int
hs_isatty (int fd)
{
  if (fd < 0)
    return fail (HOST_EBADF);
  if (fd <= 2)
    return 1;
  fail (HOST_ENOSYS);
  return 0;
}

/* Host (glibc) ABI: what code in a target region calls.  */

int
open (const char *path, int flags, ...)
{
  unsigned mode = 0;
  if (flags & HOST_O_CREAT)
    {
      va_list ap;
      va_start (ap, flags);
      mode = va_arg (ap, unsigned);
      va_end (ap);
    }
  return hs_open (path, flags, mode);
}

/* No aliases on nvptx: the 64-bit-offset names are small wrappers.  */

int
open64 (const char *path, int flags, ...)
{
  unsigned mode = 0;
  if (flags & HOST_O_CREAT)
    {
      va_list ap;
      va_start (ap, flags);
      mode = va_arg (ap, unsigned);
      va_end (ap);
    }
  return hs_open (path, flags, mode);
}

/* _FORTIFY_SOURCE's open without a mode argument.  */
int
__open_2 (const char *path, int flags)
{
  return hs_open (path, flags, 0);
}

int
__open64_2 (const char *path, int flags)
{
  return hs_open (path, flags, 0);
}

int
creat (const char *path, mode_t mode)
{
  return hs_open (path, HOST_O_WRONLY | HOST_O_CREAT | HOST_O_TRUNC, mode);
}

int
creat64 (const char *path, mode_t mode)
{
  return creat (path, mode);
}

int
close (int fd)
{
  return hs_close (fd);
}

ssize_t
read (int fd, void *buf, size_t count)
{
  return hs_read (fd, buf, count);
}

ssize_t
write (int fd, const void *buf, size_t count)
{
  return hs_write (fd, buf, count);
}

off_t
lseek (int fd, off_t offset, int whence)
{
  return hs_lseek (fd, offset, whence);
}

off_t
lseek64 (int fd, off_t offset, int whence)
{
  return hs_lseek (fd, offset, whence);
}

/* The host's struct stat is not newlib's: these take a struct host_stat,
   whatever the prototype in newlib's header says.  */

int
fstat (int fd, struct stat *st)
{
  return hs_fstat (fd, (struct host_stat *) st);
}

int
fstat64 (int fd, struct stat *st)
{
  return hs_fstat (fd, (struct host_stat *) st);
}

int
stat (const char *__restrict path, struct stat *__restrict st)
{
  return hs_stat (path, (struct host_stat *) st, 1);
}

int
stat64 (const char *path, struct stat *st)
{
  return hs_stat (path, (struct host_stat *) st, 1);
}

int
lstat (const char *__restrict path, struct stat *__restrict st)
{
  return hs_stat (path, (struct host_stat *) st, 0);
}

int
lstat64 (const char *path, struct stat *st)
{
  return hs_stat (path, (struct host_stat *) st, 0);
}

int
unlink (const char *path)
{
  return hs_path_op (path);
}

int
rename (const char *from, const char *to)
{
  if (to == NULL)
    return fail (HOST_EFAULT);
  return hs_path_op (from);
}

int
isatty (int fd)
{
  return hs_isatty (fd);
}

int
fsync (int fd)
{
  if (fd < 0)
    return fail (HOST_EBADF);
  return console_fd_p (fd) ? 0 : (int) fail (HOST_ENOSYS);
}

int
access (const char *path, int amode)
{
  (void) amode;
  return hs_path_op (path);
}

/* newlib ABI: what newlib's reentrant wrappers (_open_r, ...) call.  */

static int
newlib_to_host_open_flags (int flags)
{
  int h = 0;
  switch (flags & O_ACCMODE)
    {
    case O_RDONLY: h = HOST_O_RDONLY; break;
    case O_WRONLY: h = HOST_O_WRONLY; break;
    default: h = HOST_O_RDWR; break;
    }
  if (flags & O_CREAT)
    h |= HOST_O_CREAT;
  if (flags & O_EXCL)
    h |= HOST_O_EXCL;
  if (flags & O_TRUNC)
    h |= HOST_O_TRUNC;
  if (flags & O_APPEND)
    h |= HOST_O_APPEND;
  if (flags & O_NONBLOCK)
    h |= HOST_O_NONBLOCK;
  if (flags & O_NOCTTY)
    h |= HOST_O_NOCTTY;
  if (flags & O_SYNC)
    h |= HOST_O_SYNC;
#ifdef O_CLOEXEC
  if (flags & O_CLOEXEC)
    h |= HOST_O_CLOEXEC;
#endif
  return h;
}

static void
host_to_newlib_stat (const struct host_stat *h, struct stat *st)
{
  memset (st, 0, sizeof *st);
  st->st_dev = h->st_dev;
  st->st_ino = h->st_ino;
  st->st_mode = h->st_mode;
  st->st_nlink = h->st_nlink;
  st->st_uid = h->st_uid;
  st->st_gid = h->st_gid;
  st->st_rdev = h->st_rdev;
  st->st_size = h->st_size;
  st->st_blksize = h->st_blksize;
  st->st_blocks = h->st_blocks;
  st->st_atim.tv_sec = h->st_atim.tv_sec;
  st->st_atim.tv_nsec = h->st_atim.tv_nsec;
  st->st_mtim.tv_sec = h->st_mtim.tv_sec;
  st->st_mtim.tv_nsec = h->st_mtim.tv_nsec;
  st->st_ctim.tv_sec = h->st_ctim.tv_sec;
  st->st_ctim.tv_nsec = h->st_ctim.tv_nsec;
}

int
_open (const char *path, int flags, ...)
{
  unsigned mode = 0;
  if (flags & O_CREAT)
    {
      va_list ap;
      va_start (ap, flags);
      mode = va_arg (ap, unsigned);
      va_end (ap);
    }
  return hs_open (path, newlib_to_host_open_flags (flags), mode);
}

int
_close (int fd)
{
  return hs_close (fd);
}

ssize_t
_read (int fd, void *buf, size_t count)
{
  return hs_read (fd, buf, count);
}

ssize_t
_write (int fd, const void *buf, size_t count)
{
  return hs_write (fd, buf, count);
}

_off_t
_lseek (int fd, _off_t offset, int whence)
{
  return hs_lseek (fd, offset, whence);
}

int
_fstat (int fd, struct stat *st)
{
  struct host_stat h;
  if (hs_fstat (fd, &h) != 0)
    return -1;
  host_to_newlib_stat (&h, st);
  return 0;
}

int
_stat (const char *path, struct stat *st)
{
  struct host_stat h;
  if (hs_stat (path, &h, 1) != 0)
    return -1;
  host_to_newlib_stat (&h, st);
  return 0;
}

int
_unlink (const char *path)
{
  return hs_path_op (path);
}

int
_link (const char *from, const char *to)
{
  (void) to;
  (void) from;
  return fail (HOST_ENOSYS);
}

int
_rename (const char *from, const char *to)
{
  return rename (from, to);
}

int
_isatty (int fd)
{
  return hs_isatty (fd);
}

/* The rest of newlib's system calls have no meaning for a target region
   (processes, signals, the program break) or no host service yet.  They
   exist so that any newlib function links, and fail as POSIX allows.  */

int
_fcntl (int fd, int cmd, ...)
{
  (void) fd;
  (void) cmd;
  return fail (HOST_ENOSYS);
}

int
_mkdir (const char *path, mode_t mode)
{
  (void) mode;
  return hs_path_op (path);
}

int
_gettimeofday (struct timeval *tv, void *tz)
{
  (void) tv;
  (void) tz;
  return fail (HOST_ENOSYS);
}

clock_t
_times (struct tms *buf)
{
  (void) buf;
  return (clock_t) fail (HOST_ENOSYS);
}

int
_getpid (void)
{
  return fail (HOST_ENOSYS);
}

int
_kill (int pid, int sig)
{
  (void) pid;
  (void) sig;
  return fail (HOST_ENOSYS);
}

int
_fork (void)
{
  return fail (HOST_ENOSYS);
}

int
_wait (int *status)
{
  (void) status;
  return fail (HOST_ENOSYS);
}

int
_execve (const char *path, char *const argv[], char *const envp[])
{
  (void) path;
  (void) argv;
  (void) envp;
  return fail (HOST_ENOSYS);
}

void *
_sbrk (ptrdiff_t incr)
{
  /* malloc is the CUDA runtime's; nothing else may grow the heap.  */
  (void) incr;
  errno = HOST_ENOMEM;
  return (void *) -1;
}

/* _exit and _Exit end the kernel like exit, without flushing stdio.  */
void
_exit (int status)
{
  exit (status);
}
