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
   one set of helpers that speak the host's ABI, which is also the wire
   protocol's (host-service.h); newlib's flags and structures are
   translated on the way.  errno always holds the host's values, since
   that is what user code compares it with.

   Every call goes to the host through the host-service client
   (host-service.c).  When the plugin set up no region (host services off,
   or a libgomp without them), every call fails with ENOSYS.  */

/* Have newlib's headers declare the underscored system calls, so that
   the definitions below are checked against what newlib calls.  */
#define _COMPILING_NEWLIB 1

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/types.h>
/* newlib's clock_gettime takes its clockid_t (unsigned long); the one
   defined below is the host's, which takes an int.  */
#define clock_gettime newlib_clock_gettime
#include <time.h>
#undef clock_gettime
#include <unistd.h>
#include "glibc-abi.h"
#include "host-service-device.h"
#include <sys/lock.h>
#include "device-thread.h"

/* errno holds the host's values in target regions, whose code was
   compiled with the host's <errno.h>.  A standalone program was compiled
   with newlib's, whose numbers above 34 differ: gomp-nvptx-run sets
   __gomp_nvptx_newlib_errno, and errno then holds newlib's numbers.
   Values that newlib has no name for are kept.  */
int __gomp_nvptx_newlib_errno;

static const struct { unsigned char host, newlib; } newlib_errnos[] = {
  { 35, EDEADLK }, { 36, ENAMETOOLONG }, { 37, ENOLCK }, { 38, ENOSYS },
  { 39, ENOTEMPTY }, { 40, ELOOP }, { 42, ENOMSG }, { 43, EIDRM },
  { 61, ENODATA }, { 62, ETIME }, { 71, EPROTO }, { 74, EBADMSG },
  { 75, EOVERFLOW }, { 84, EILSEQ }, { 88, ENOTSOCK }, { 90, EMSGSIZE },
  { 97, EAFNOSUPPORT }, { 98, EADDRINUSE }, { 99, EADDRNOTAVAIL },
  { 100, ENETDOWN }, { 101, ENETUNREACH }, { 103, ECONNABORTED },
  { 104, ECONNRESET }, { 105, ENOBUFS }, { 106, EISCONN },
  { 107, ENOTCONN }, { 110, ETIMEDOUT }, { 111, ECONNREFUSED },
  { 113, EHOSTUNREACH }, { 114, EALREADY }, { 115, EINPROGRESS },
  { 116, ESTALE }, { 122, EDQUOT }, { 125, ECANCELED },
  { 130, EOWNERDEAD }, { 131, ENOTRECOVERABLE }
};

static void
set_errno (int host_errno)
{
  unsigned i;
  if (__gomp_nvptx_newlib_errno && host_errno > 34)
    for (i = 0; i < sizeof newlib_errnos / sizeof newlib_errnos[0]; i++)
      if (newlib_errnos[i].host == host_errno)
	{
	  host_errno = newlib_errnos[i].newlib;
	  break;
	}
  errno = host_errno;
}

static long
fail (int host_errno)
{
  set_errno (host_errno);
  return -1;
}

/* The errno of a failed call whose reply carries ERR: never 0, so that
   code that tests errno after a failure sees one (EIO when the host did
   not say why).  */
static inline int
failure_errno (int32_t err)
{
  return err != 0 ? err : HOST_EIO;
}

/* One host call; on failure (a negative result) errno is set from the
   reply.  */
static int64_t
hs (uint32_t op, int64_t a0, int64_t a1, int64_t a2, const void *in,
    uint64_t in_len, void *out, uint64_t out_cap)
{
  int32_t err;
  int64_t r = gomp_hs_call (op, a0, a1, a2, in, in_len, out, out_cap, NULL,
			    &err);
  if (r < 0)
    set_errno (failure_errno (err));
  else if (err != 0)
    set_errno (err);
  return r;
}

/* For calls that return 0 on success: R, a host call's result, as 0 or
   -1, with errno set when it is not 0.  */
static int
hs_status (int64_t r)
{
  if (r == 0)
    return 0;
  if (r > 0)
    set_errno (HOST_EIO);
  return -1;
}

static int64_t
hs_path (uint32_t op, const char *path, int64_t a0, int64_t a1, void *out,
	 uint64_t out_cap)
{
  if (path == NULL)
    return fail (HOST_EFAULT);
  return hs (op, a0, a1, 0, path, strlen (path) + 1, out, out_cap);
}

/* The helpers below speak the host's ABI.  */

static int
hs_open (const char *path, int host_flags, unsigned mode)
{
  return hs_path (GOMP_HS_OP_OPEN, path, host_flags, mode, NULL, 0);
}

static int
hs_close (int fd)
{
  return hs (GOMP_HS_OP_CLOSE, fd, 0, 0, NULL, 0, NULL, 0);
}

static ssize_t
hs_write (int fd, const void *buf, size_t count)
{
  if (count > 0 && buf == NULL)
    return fail (HOST_EFAULT);
  return hs (GOMP_HS_OP_WRITE, fd, 0, 0, buf, count, NULL, 0);
}

static ssize_t
hs_read (int fd, void *buf, size_t count)
{
  if (count > 0 && buf == NULL)
    return fail (HOST_EFAULT);
  return hs (GOMP_HS_OP_READ, fd, count, 0, NULL, 0, buf, count);
}

static off_t
hs_lseek (int fd, off_t offset, int whence)
{
  return hs (GOMP_HS_OP_LSEEK, fd, offset, whence, NULL, 0, NULL, 0);
}

static void
wire_to_host_stat (const struct gomp_hs_stat *w, struct host_stat *h)
{
  memset (h, 0, sizeof *h);
  h->st_dev = w->dev;
  h->st_ino = w->ino;
  h->st_nlink = w->nlink;
  h->st_mode = w->mode;
  h->st_uid = w->uid;
  h->st_gid = w->gid;
  h->st_rdev = w->rdev;
  h->st_size = w->size;
  h->st_blksize = w->blksize;
  h->st_blocks = w->blocks;
  h->st_atim.tv_sec = w->atime_sec;
  h->st_atim.tv_nsec = w->atime_nsec;
  h->st_mtim.tv_sec = w->mtime_sec;
  h->st_mtim.tv_nsec = w->mtime_nsec;
  h->st_ctim.tv_sec = w->ctime_sec;
  h->st_ctim.tv_nsec = w->ctime_nsec;
}

static int
hs_fstat (int fd, struct host_stat *st)
{
  struct gomp_hs_stat w;
  if (st == NULL)
    return fail (HOST_EFAULT);
  if (hs_status (hs (GOMP_HS_OP_FSTAT, fd, 0, 0, NULL, 0, &w, sizeof w)))
    return -1;
  wire_to_host_stat (&w, st);
  return 0;
}

static int
hs_stat (const char *path, struct host_stat *st, int follow)
{
  struct gomp_hs_stat w;
  if (st == NULL)
    return fail (HOST_EFAULT);
  if (hs_status (hs_path (follow ? GOMP_HS_OP_STAT : GOMP_HS_OP_LSTAT, path,
			  0, 0, &w, sizeof w)))
    return -1;
  wire_to_host_stat (&w, st);
  return 0;
}

static int
hs_isatty (int fd)
{
  return hs (GOMP_HS_OP_ISATTY, fd, 0, 0, NULL, 0, NULL, 0) == 1;
}

static int
hs_rename (const char *from, const char *to)
{
  int32_t err;
  int64_t r;
  if (from == NULL || to == NULL)
    return fail (HOST_EFAULT);
  r = gomp_hs_call2 (GOMP_HS_OP_RENAME, 0, 0, 0, from, strlen (from) + 1,
		     to, strlen (to) + 1, NULL, 0, NULL, &err);
  if (r != 0)
    {
      set_errno (failure_errno (err));
      return -1;
    }
  return 0;
}

static int
hs_time (uint32_t op, int64_t clock, struct gomp_hs_timespec *ts)
{
  return hs_status (hs (op, clock, 0, 0, NULL, 0, ts, sizeof *ts));
}

/* Host (glibc) ABI: what code in a target region calls.  */

/* open's mode argument, present when FLAGS (host values) ask to create.  */
#define OPEN_MODE(FLAGS, MODE)			\
  do						\
    {						\
      (MODE) = 0;				\
      if ((FLAGS) & HOST_O_CREAT)		\
	{					\
	  va_list ap;				\
	  va_start (ap, FLAGS);			\
	  (MODE) = va_arg (ap, unsigned);	\
	  va_end (ap);				\
	}					\
    }						\
  while (0)

int
open (const char *path, int flags, ...)
{
  unsigned mode;
  OPEN_MODE (flags, mode);
  return hs_open (path, flags, mode);
}

/* No aliases on nvptx: the 64-bit-offset names are small wrappers.  */

int
open64 (const char *path, int flags, ...)
{
  unsigned mode;
  OPEN_MODE (flags, mode);
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
  return hs_path (GOMP_HS_OP_UNLINK, path, 0, 0, NULL, 0);
}

int
rename (const char *from, const char *to)
{
  return hs_rename (from, to);
}

int
isatty (int fd)
{
  return hs_isatty (fd);
}

/* What the device wrote is the host's once write returns: the device
   has nothing of its own to flush.  */
void
sync (void)
{
}

int
fsync (int fd)
{
  return hs (GOMP_HS_OP_FSYNC, fd, 0, 0, NULL, 0, NULL, 0);
}

int
ftruncate (int fd, off_t length)
{
  return hs_status (hs (GOMP_HS_OP_FTRUNCATE, fd, length, 0, NULL, 0, NULL,
			0));
}

/* What host code compiled with _FILE_OFFSET_BITS=64 calls.  */

int
ftruncate64 (int fd, off_t length)
{
  return ftruncate (fd, length);
}

/* End the whole program with STATUS: the host flushes its streams and
   exits at once (host-service-ops.c, hs_do_exit), so the call never
   returns.  Where the host cannot (host services off, shutting down),
   end the kernel with an error instead: the host then reports it.
   libgfortran's STOP and error termination come here.  */

void
__gomp_host_exit (int status)
{
  int32_t err;
  gomp_hs_call (GOMP_HS_OP_EXIT, status, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  __builtin_trap ();
}

/* libgfortran's mutexes (gthr-nvptx.h): a unit's lock is held for a
   whole I/O statement, which has no turn loop around it as newlib's
   stdio sections have.  A lane that spun here on a unit held by another
   lane of its own warp would wait forever (see the turn loop above), so
   when several lanes that are threads of their own arrive together (an
   OpenACC vector loop, an omp simd region), the lowest one says why and
   the kernel ends with an error, which the host reports, instead of
   hanging.  No lane waits for another lane of its warp here: with
   pre-Volta convergence (libgomp is PTX for sm_30) the siblings skip the
   write and the warp joins after the branch, so the message is out
   before the trap; with independent thread scheduling a sibling may
   trap first and the message may be lost, but the kernel still ends,
   and no lane ever spins on the lock.  A warp that is one
   thread, or a single lane, takes the lock as stdio does
   (config/nvptx/stdio-lock.c).  Here rather than there, since it writes
   to the host: stdio-lock.c is linked by every image that uses newlib's
   locks, host services or not.  */

void
__gomp_nvptx_gthread_lock (struct __lock *l)
{
  static const char msg[] = "libgfortran: Fortran I/O from several lanes "
    "of one warp at once (OpenACC vector loops, omp simd) is not supported "
    "on the device\n";
  unsigned lanes = gomp_nvptx_lanes ();

  if ((lanes & (lanes - 1)) != 0)
    {
      if (gomp_nvptx_lane_turn (lanes))
	write (2, msg, sizeof msg - 1);
      __builtin_trap ();
    }
  __retarget_lock_acquire_recursive (l);
}

int
access (const char *path, int amode)
{
  return hs_path (GOMP_HS_OP_ACCESS, path, amode, 0, NULL, 0);
}

int
mkdir (const char *path, mode_t mode)
{
  return hs_path (GOMP_HS_OP_MKDIR, path, mode, 0, NULL, 0);
}

int
gettimeofday (struct timeval *tv, void *tz)
{
  struct gomp_hs_timespec ts;
  (void) tz;
  if (hs_time (GOMP_HS_OP_GETTIMEOFDAY, 0, &ts) != 0)
    return -1;
  if (tv != NULL)
    {
      tv->tv_sec = ts.sec;
      tv->tv_usec = ts.nsec;
    }
  return 0;
}

/* glibc's clockid_t is int and the clock numbers are the kernel's.  */
int
clock_gettime (int clock, struct timespec *tp)
{
  struct gomp_hs_timespec ts;
  if (hs_time (GOMP_HS_OP_CLOCK_GETTIME, (int64_t) clock, &ts) != 0)
    return -1;
  if (tp != NULL)
    {
      tp->tv_sec = ts.sec;
      tp->tv_nsec = ts.nsec;
    }
  return 0;
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
  if (flags & O_DIRECTORY)
    h |= HOST_O_DIRECTORY;
  if (flags & O_NOFOLLOW)
    h |= HOST_O_NOFOLLOW;
  return h;
}

/* The flags newlib_to_host_open_flags knows; open fails with EINVAL on
   any other rather than dropping it (O_DIRECT, O_EXEC, ...).  */
static const int newlib_open_flags
  = (O_ACCMODE | O_CREAT | O_EXCL | O_TRUNC | O_APPEND | O_NONBLOCK
     | O_NOCTTY | O_SYNC | O_DIRECTORY | O_NOFOLLOW
#ifdef O_CLOEXEC
     | O_CLOEXEC
#endif
     );

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
  if ((flags & ~newlib_open_flags) != 0 || (flags & O_ACCMODE) == O_ACCMODE)
    return fail (HOST_EINVAL);
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

/* newlib's stdio sizes a stream's buffer by the block size fstat
   reports: make that at least one port buffer (a write of a full buffer
   is then one round trip) and at most 64 KiB (device heap).  */
#define STDIO_BUF_MAX 65536

int
_fstat (int fd, struct stat *st)
{
  struct host_stat h;
  uint32_t port = __gomp_host_service.buf_size;
  if (hs_fstat (fd, &h) != 0)
    return -1;
  host_to_newlib_stat (&h, st);
  if (st->st_blksize < (blksize_t) port)
    st->st_blksize = port;
  if (st->st_blksize > STDIO_BUF_MAX)
    st->st_blksize = STDIO_BUF_MAX;
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

/* Standalone programs (gomp-nvptx-gcc) are compiled with newlib's
   headers, so their plain open, stat, fstat, lstat and clock_gettime --
   the calls whose constants or structures differ from the host's -- must
   take newlib's ABI.  gomp-nvptx-abi.h, which the driver includes first,
   gives those declarations the assembler names of _open, _stat and the
   three below.  */

int
__gomp_nvptx_fstat (int fd, struct stat *st)
{
  struct host_stat h;
  if (hs_fstat (fd, &h) != 0)
    return -1;
  host_to_newlib_stat (&h, st);
  return 0;
}

int
__gomp_nvptx_lstat (const char *path, struct stat *st)
{
  struct host_stat h;
  if (hs_stat (path, &h, 0) != 0)
    return -1;
  host_to_newlib_stat (&h, st);
  return 0;
}

/* newlib's clock numbers (its <time.h>), in order, as the host's.  */
static const signed char newlib_clocks[] = {
  5 /* CLOCK_REALTIME_COARSE */, 0 /* CLOCK_REALTIME */,
  2 /* CLOCK_PROCESS_CPUTIME_ID */, 3 /* CLOCK_THREAD_CPUTIME_ID */,
  1 /* CLOCK_MONOTONIC */, 4 /* CLOCK_MONOTONIC_RAW */,
  6 /* CLOCK_MONOTONIC_COARSE */, 7 /* CLOCK_BOOTTIME */,
  8 /* CLOCK_REALTIME_ALARM */, 9 /* CLOCK_BOOTTIME_ALARM */
};

int
__gomp_nvptx_clock_gettime (unsigned long clock, struct timespec *tp)
{
  if (clock >= sizeof newlib_clocks)
    return fail (HOST_EINVAL);
  return clock_gettime (newlib_clocks[clock], tp);
}

int
_unlink (const char *path)
{
  return hs_path (GOMP_HS_OP_UNLINK, path, 0, 0, NULL, 0);
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
  return hs_rename (from, to);
}

int
_isatty (int fd)
{
  return hs_isatty (fd);
}

/* POSIX calls that have no meaning on the device, under their plain
   names (newlib for nvptx has none of them): code that calls them links,
   and they fail as POSIX allows.  libgfortran's intrinsics that reach the
   system (KILL, LINK, GETPID, HOSTNM, ...) come here.  */

int _getpid (void);
int _kill (int, int);

int
link (const char *from, const char *to)
{
  return _link (from, to);
}

/* The device has no working directory of its own: relative paths are
   the host process's (or beneath GOMP_HOST_SERVICES_ROOT).  */

int
chdir (const char *path)
{
  (void) path;
  return fail (HOST_ENOSYS);
}

char *
getcwd (char *buf, size_t size)
{
  (void) buf;
  (void) size;
  fail (HOST_ENOSYS);
  return NULL;
}

int
symlink (const char *from, const char *to)
{
  (void) from;
  (void) to;
  return fail (HOST_ENOSYS);
}

int
chmod (const char *path, mode_t mode)
{
  (void) path;
  (void) mode;
  return fail (HOST_ENOSYS);
}

/* There is no file mode creation mask on the device: the host applies
   its own to what the device creates.  Report the usual one.  */

mode_t
umask (mode_t mask)
{
  (void) mask;
  return 022;
}

pid_t
getpid (void)
{
  return _getpid ();
}

uid_t
getuid (void)
{
  return (uid_t) fail (HOST_ENOSYS);
}

uid_t
geteuid (void)
{
  return (uid_t) fail (HOST_ENOSYS);
}

gid_t
getgid (void)
{
  return (gid_t) fail (HOST_ENOSYS);
}

int
gethostname (char *name, size_t len)
{
  (void) name;
  (void) len;
  return fail (HOST_ENOSYS);
}

char *
getlogin (void)
{
  fail (HOST_ENOSYS);
  return NULL;
}

int
kill (pid_t pid, int sig)
{
  return _kill (pid, sig);
}

unsigned
alarm (unsigned seconds)
{
  (void) seconds;
  return 0;
}

/* The device's own clock, in nanoseconds: a wait needs no host.  */

unsigned
sleep (unsigned seconds)
{
  unsigned long long start, now;
  __asm__ volatile ("mov.u64 %0, %%globaltimer;" : "=r" (start));
  do
    __asm__ volatile ("mov.u64 %0, %%globaltimer;" : "=r" (now));
  while (now - start < seconds * 1000000000ull);
  return 0;
}

/* The rest of newlib's system calls have no meaning for a target region
   (processes, signals, the program break).  They exist so that any newlib
   function links, and fail as POSIX allows.  */

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
  return hs_path (GOMP_HS_OP_MKDIR, path, mode, 0, NULL, 0);
}

int
_gettimeofday (struct timeval *tv, void *tz)
{
  return gettimeofday (tv, tz);
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
  set_errno (HOST_ENOMEM);
  return (void *) -1;
}

/* _exit (and _Exit, which calls it) ends the calling thread without
   flushing stdio, exit after flushing it: both are newlib's
   (libc/machine/nvptx/exit.c).  */
