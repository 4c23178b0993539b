/* Host services: the op table and its handlers.
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

/* One entry per opcode of host-service.h: its name (for tracing), the
   kind of input it takes, the weakest policy that allows it, whether it
   may block, and its handler.  A handler runs once the call's input is
   complete (streamed writes: each time the staging buffer is full, and at
   the end), with the input in C->STAGE, already checked by
   host-service.c against the entry (paths NUL-terminated, descriptors
   looked up: C->FD), and leaves the result in C: RET and ERR, and the
   output, if any, in C->STAGE.  Handlers that may block do so on a
   worker thread, never on the poller (host-service-server.c), and waits
   that can last (data on a pipe, a FIFO's other end) give way to
   shutdown.  */

#define _GNU_SOURCE 1
#include "libgomp.h"
#include "host-service-internal.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* Named host services (host-call.c).  */
extern int64_t gomp_host_call_invoke (const char *, void *, size_t, int *,
				      int);
/* Reverse offload (target-rev.c).  */
extern int gomp_target_rev_check (const unsigned char *, size_t, uint64_t,
				  uint64_t, int64_t, size_t *);
extern int gomp_target_rev_serve (int, unsigned char *, size_t, uint64_t,
				  uint64_t, int64_t, size_t *);

#define HS_NAME_MAX	256

static void hs_do_open (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_close (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_lseek (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_fstat (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_stat (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_unlink (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_rename (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_isatty (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_fsync (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_access (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_clock (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_gettimeofday (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_mkdir (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_host_call (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_ftruncate (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_exit (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_target_rev (struct gomp_host_service *, struct hs_ctx *);

/* B: always on a worker; F: I/O on a descriptor, on a worker when the
   descriptor is a stream or on a remote file system; D: ARG0 is a
   descriptor; M: on a worker when the descriptor is on a remote file
   system (host-service-fd.c).  */
#define B HS_OP_BLOCKS
#define F (HS_OP_FD_IO | HS_OP_FD)
#define D HS_OP_FD
#define M HS_OP_FD_META

/* The op table: every opcode of host-service.h, in order.  */
const struct hs_op gomp_hs_ops[GOMP_HS_OP_MAX] =
{
  [GOMP_HS_OP_NONE]	= { NULL, HS_IN_NONE, HS_POLICY_OFF, 0, NULL },
  [GOMP_HS_OP_OPEN]	= { "open", HS_IN_PATH, HS_POLICY_READONLY, B,
			    hs_do_open },
  /* A close may wait too: a socket's lingering, a terminal's output
     draining, a network file system's write-back.  */
  [GOMP_HS_OP_CLOSE]	= { "close", HS_IN_NONE, HS_POLICY_STDIO,
			    HS_OP_FD_IO | M,
			    hs_do_close },
  [GOMP_HS_OP_READ]	= { "read", HS_IN_NONE, HS_POLICY_STDIO, F,
			    gomp_hs_do_read },
  [GOMP_HS_OP_WRITE]	= { "write", HS_IN_STREAM, HS_POLICY_STDIO, F,
			    gomp_hs_do_write },
  [GOMP_HS_OP_LSEEK]	= { "lseek", HS_IN_NONE, HS_POLICY_STDIO, D | M,
			    hs_do_lseek },
  [GOMP_HS_OP_FSTAT]	= { "fstat", HS_IN_NONE, HS_POLICY_STDIO, D | M,
			    hs_do_fstat },
  [GOMP_HS_OP_STAT]	= { "stat", HS_IN_PATH, HS_POLICY_READONLY, B,
			    hs_do_stat },
  [GOMP_HS_OP_LSTAT]	= { "lstat", HS_IN_PATH, HS_POLICY_READONLY, B,
			    hs_do_stat },
  [GOMP_HS_OP_UNLINK]	= { "unlink", HS_IN_PATH, HS_POLICY_ALL, B,
			    hs_do_unlink },
  [GOMP_HS_OP_RENAME]	= { "rename", HS_IN_PATH2, HS_POLICY_ALL, B,
			    hs_do_rename },
  [GOMP_HS_OP_ISATTY]	= { "isatty", HS_IN_NONE, HS_POLICY_STDIO, D | M,
			    hs_do_isatty },
  [GOMP_HS_OP_FSYNC]	= { "fsync", HS_IN_NONE, HS_POLICY_STDIO, B | D,
			    hs_do_fsync },
  [GOMP_HS_OP_ACCESS]	= { "access", HS_IN_PATH, HS_POLICY_READONLY, B,
			    hs_do_access },
  [GOMP_HS_OP_CLOCK_GETTIME] = { "clock_gettime", HS_IN_NONE, HS_POLICY_STDIO,
				 0, hs_do_clock },
  [GOMP_HS_OP_GETTIMEOFDAY] = { "gettimeofday", HS_IN_NONE, HS_POLICY_STDIO,
				0, hs_do_gettimeofday },
  [GOMP_HS_OP_MKDIR]	= { "mkdir", HS_IN_PATH, HS_POLICY_ALL, B,
			    hs_do_mkdir },
  [GOMP_HS_OP_HOST_CALL] = { "host_call", HS_IN_STREAM, HS_POLICY_STDIO, B,
			     hs_do_host_call },
  [GOMP_HS_OP_FTRUNCATE] = { "ftruncate", HS_IN_NONE, HS_POLICY_STDIO, B | D,
			     hs_do_ftruncate },
  [GOMP_HS_OP_EXIT]	= { "exit", HS_IN_NONE, HS_POLICY_STDIO, B,
			    hs_do_exit },
  [GOMP_HS_OP_TARGET_REV] = { "target_rev", HS_IN_STREAM, HS_POLICY_STDIO, B,
			      hs_do_target_rev },
};

#undef B
#undef F
#undef D
#undef M

const char *
gomp_hs_op_name (uint32_t op)
{
  return op < GOMP_HS_OP_MAX && gomp_hs_ops[op].name ? gomp_hs_ops[op].name
						       : "?";
}

/* Results.  */

void
gomp_hs_result (struct hs_ctx *c, int64_t ret)
{
  c->ret = ret;
  /* A failed system call always reports why.  */
  c->err = ret < 0 ? (errno ? errno : EIO) : 0;
}

void
gomp_hs_fail (struct hs_ctx *c, int err)
{
  c->ret = -1;
  c->err = err ? err : EIO;
}

/* Make STAGE hold at least N bytes, within the limit on the bytes that
   all calls have staged at once.  Returns 0 if it cannot.  */

int
gomp_hs_reserve (struct gomp_host_service *s, struct hs_ctx *c, size_t n)
{
  if (c->stage_cap < n)
    {
      /* Grow geometrically: input arrives a port buffer at a time.  */
      size_t cap = c->stage_cap * 2 > n ? c->stage_cap * 2 : n;
      size_t more = cap - c->stage_cap, was;
      unsigned char *p;
      was = __atomic_fetch_add (&s->staged, more, __ATOMIC_RELAXED);
      if (was + more > s->staged_max && cap > n)
	{
	  /* Not the doubling, then; maybe just what is needed.  */
	  __atomic_fetch_sub (&s->staged, more, __ATOMIC_RELAXED);
	  cap = n;
	  more = cap - c->stage_cap;
	  was = __atomic_fetch_add (&s->staged, more, __ATOMIC_RELAXED);
	}
      if (was + more > s->staged_max
	  || (p = realloc (c->stage, cap)) == NULL)
	{
	  __atomic_fetch_sub (&s->staged, more, __ATOMIC_RELAXED);
	  return 0;
	}
      c->stage = p;
      c->stage_cap = cap;
    }
  return 1;
}

/* Free C's stage.  */

void
gomp_hs_release_stage (struct gomp_host_service *s, struct hs_ctx *c)
{
  __atomic_fetch_sub (&s->staged, c->stage_cap, __ATOMIC_RELAXED);
  free (c->stage);
  c->stage = NULL;
  c->stage_cap = 0;
}

/* Put output BYTES of N into STAGE, to be sent in rounds.  */

static void
hs_output (struct gomp_host_service *s, struct hs_ctx *c, const void *bytes,
	   size_t n)
{
  if (!gomp_hs_reserve (s, c, n))
    {
      gomp_hs_fail (c, ENOMEM);
      return;
    }
  memcpy (c->stage, bytes, n);
  c->out_len = n;
  c->out_sent = 0;
}

/* Handlers.  Input paths have been checked for termination.  */

static void
hs_do_open (struct gomp_host_service *s, struct hs_ctx *c)
{
  int flags = (int) c->arg[0];
  int allowed = O_ACCMODE | O_CREAT | O_EXCL | O_TRUNC | O_APPEND
		| O_NONBLOCK | O_SYNC | O_DSYNC | O_DIRECTORY | O_NOFOLLOW
		| O_CLOEXEC | O_NOCTTY | O_LARGEFILE;
  int hfd, dfd;
  if (c->arg[0] != (int64_t) flags || (flags & ~allowed)
      || (flags & O_ACCMODE) == O_ACCMODE)
    {
      gomp_hs_fail (c, EINVAL);
      return;
    }
  if (s->policy < HS_POLICY_ALL
      && ((flags & O_ACCMODE) != O_RDONLY
	  || (flags & (O_CREAT | O_TRUNC | O_APPEND))))
    {
      gomp_hs_fail (c, EROFS);
      return;
    }
  /* The device's descriptors never leak into host children (O_CLOEXEC);
     no set-user-ID or set-group-ID files (the mode is masked to 0777).  */
  hfd = gomp_hs_open_path (s, (const char *) c->stage, flags,
			   (unsigned) c->arg[1]);
  if (hfd < 0)
    {
      gomp_hs_fail (c, errno);
      return;
    }
  dfd = gomp_hs_fd_add (s, hfd);
  if (dfd < 0)
    {
      /* As many open as GOMP_HOST_SERVICES_MAX_FDS allows.  */
      close (hfd);
      gomp_hs_fail (c, EMFILE);
      return;
    }
  c->ret = dfd;
  c->err = 0;
}

static void
hs_do_close (struct gomp_host_service *s, struct hs_ctx *c)
{
  gomp_hs_result (c, gomp_hs_fd_close (s, c->arg[0]));
}

/* A stream call (READ, WRITE) in C ends early, after N more bytes, with
   error ERR: what was moved so far is its result, as a short read(2) or
   write(2) is; if nothing was, it fails with ERR.  */

void
gomp_hs_end_stream (struct hs_ctx *c, size_t n, int err)
{
  c->done += n;
  c->ended = 1;
  if (c->done > 0)
    {
      c->ret = c->done;
      c->err = 0;
    }
  else
    gomp_hs_fail (c, err);
}

/* The N bytes at the start of C's stage are written: drop them.  */

static void
hs_written (struct hs_ctx *c, size_t n)
{
  c->done += n;
  if (n > 0 && n < c->stage_len)
    memmove (c->stage, c->stage + n, c->stage_len - n);
  c->stage_len -= n;
  c->ret = c->done;
  c->err = 0;
}

/* READ: read up to the staging size at a time; the rounds send it.  */

void
gomp_hs_do_read (struct gomp_host_service *s, struct hs_ctx *c)
{
  int hfd = gomp_hs_fd_host (c->fd);
  uint64_t want, count = (uint64_t) c->arg[1];
  ssize_t r;
  want = count - (uint64_t) c->done;
  if (want > s->staging)
    want = s->staging;
  if (!gomp_hs_reserve (s, c, want ? want : 1)
      && (want <= s->buf_size
	  || !gomp_hs_reserve (s, c, want = s->buf_size)))
    {
      /* Over the limit on staged memory even for one port buffer.  */
      gomp_hs_fail (c, ENOMEM);
      c->ended = 1;
      return;
    }
  if (want && gomp_hs_fd_kind (c->fd) == HS_FD_STREAM
      && gomp_hs_wait_fd (s, hfd, POLLIN) != 0)
    r = -1;
  else
    do
      r = read (hfd, c->stage, want);
    while (r < 0 && errno == EINTR);
  c->out_sent = 0;
  if (r < 0)
    {
      c->out_len = 0;
      gomp_hs_end_stream (c, 0, errno);
      return;
    }
  c->out_len = r;
  c->done += r;
  c->ret = c->done;
  c->err = 0;
  /* A short block ends the call, as a short read(2) does.  */
  c->more_out = (uint64_t) r == want && (uint64_t) c->done < count;
}

/* Write N bytes at P to the device's descriptor E in full: 0, or -1 with
   errno (EIO for a write that made no progress).  *WRITTEN gets what was
   written either way.  */

static int
hs_write_all (struct gomp_host_service *s, struct hs_fd *e,
	      const unsigned char *p, size_t n, size_t *written)
{
  int hfd = gomp_hs_fd_host (e);
  *written = 0;
  while (*written < n)
    {
      ssize_t w;
      if (gomp_hs_fd_kind (e) == HS_FD_STREAM
	  && gomp_hs_wait_fd (s, hfd, POLLOUT) != 0)
	return -1;
      w = write (hfd, p + *written, n - *written);
      if (w < 0 && errno == EINTR)
	continue;
      if (w == 0)
	errno = EIO;
      if (w <= 0)
	return -1;
      *written += w;
    }
  return 0;
}

/* The poller's attempt at writing the stage of C without blocking
   (C->TRY_NB: gomp_hs_round_may_block said so).  If not all of it could
   be, what was written is counted in C->DONE and dropped from the stage,
   and C->DEFERRED is set: a worker writes the rest (gomp_hs_resume).
   An error fails the call as it fails a blocking write.  */

static void
hs_write_nb (struct hs_ctx *c)
{
  size_t n = 0;
  ssize_t w = 0;
  /* (Output the program left in stdout's buffer: such a write is not
     tried, gomp_hs_round_may_block.)  */
  while (n < c->stage_len)
    {
      w = gomp_hs_fd_write_nb (c->fd, c->stage + n, c->stage_len - n);
      if (w < 0 && errno == EINTR)
	continue;
      if (w <= 0)
	break;
      n += w;
    }
  if (n < c->stage_len && w < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    {
      /* A real error (EPIPE...): as from the blocking write.  */
      gomp_hs_end_stream (c, n, errno);
      return;
    }
  c->deferred = n < c->stage_len;
  hs_written (c, n);
}

/* WRITE: called with the staged data when the stage is full and when the
   input is complete: one host write of the stage (more where it is
   short), or the poller's attempt.  */

void
gomp_hs_do_write (struct gomp_host_service *s, struct hs_ctx *c)
{
  size_t written;
  if (gomp_hs_fd_std (c->fd) && gomp_hs_fd_host (c->fd) == 0
      && s->policy < HS_POLICY_ALL)
    {
      /* Below "all", only plain writes to 1 and 2 reach the host's own
	 streams.  */
      gomp_hs_fail (c, EPERM);
      c->ended = 1;
      return;
    }
  if (c->stage_len == 0 && c->in_total != 0)
    return;
  /* Tried on the poller: only from hs_run, with all of the input staged
     (gomp_hs_round_may_block), never for a flush that makes room.  */
  if (c->try_nb && c->in_recv == c->in_total)
    {
      hs_write_nb (c);
      return;
    }
  /* Output the host program wrote before the kernel started (or since)
     comes first.  Not on the poller, which gets such a write only when
     stdout's buffer is empty (gomp_hs_round_may_block): fflush takes
     stdout's lock, which a host thread may hold.  */
  if (gomp_hs_fd_std (c->fd) && gomp_hs_fd_host (c->fd) == 1
      && !gomp_hs_on_poller ())
    fflush (stdout);
  if (hs_write_all (s, c->fd, c->stage, c->stage_len, &written) != 0)
    gomp_hs_end_stream (c, written, errno);
  else
    hs_written (c, written);
}

static void
hs_do_lseek (struct gomp_host_service *s, struct hs_ctx *c)
{
  if (gomp_hs_fd_std (c->fd) && s->policy < HS_POLICY_ALL)
    /* Below "all", the host's own streams keep their offsets.  */
    gomp_hs_fail (c, EPERM);
  else if (c->arg[2] < 0 || c->arg[2] > 4)
    gomp_hs_fail (c, EINVAL);
  else
    gomp_hs_result (c, lseek (gomp_hs_fd_host (c->fd), (off_t) c->arg[1],
			      (int) c->arg[2]));
}

static void
hs_stat_out (struct gomp_host_service *s, struct hs_ctx *c,
	     const struct stat *st)
{
  struct gomp_hs_stat o;
  memset (&o, 0, sizeof o);
  o.dev = st->st_dev;
  o.ino = st->st_ino;
  o.nlink = st->st_nlink;
  o.mode = st->st_mode;
  o.uid = st->st_uid;
  o.gid = st->st_gid;
  o.rdev = st->st_rdev;
  o.size = st->st_size;
  o.blksize = st->st_blksize;
  o.blocks = st->st_blocks;
  o.atime_sec = st->st_atim.tv_sec;
  o.atime_nsec = st->st_atim.tv_nsec;
  o.mtime_sec = st->st_mtim.tv_sec;
  o.mtime_nsec = st->st_mtim.tv_nsec;
  o.ctime_sec = st->st_ctim.tv_sec;
  o.ctime_nsec = st->st_ctim.tv_nsec;
  c->ret = 0;
  c->err = 0;
  hs_output (s, c, &o, sizeof o);
}

static void
hs_do_fstat (struct gomp_host_service *s, struct hs_ctx *c)
{
  struct stat st;
  (void) s;
  if (fstat (gomp_hs_fd_host (c->fd), &st) != 0)
    gomp_hs_fail (c, errno);
  else
    hs_stat_out (s, c, &st);
}

static void
hs_do_stat (struct gomp_host_service *s, struct hs_ctx *c)
{
  struct stat st;
  if (gomp_hs_stat_path (s, (const char *) c->stage, &st,
			 c->op != GOMP_HS_OP_LSTAT) != 0)
    gomp_hs_fail (c, errno);
  else
    hs_stat_out (s, c, &st);
}

static void
hs_do_unlink (struct gomp_host_service *s, struct hs_ctx *c)
{
  gomp_hs_result (c, gomp_hs_unlink_path (s, (const char *) c->stage));
}

static void
hs_do_rename (struct gomp_host_service *s, struct hs_ctx *c)
{
  const char *from = (const char *) c->stage;
  gomp_hs_result (c, gomp_hs_rename_path (s, from, from + strlen (from) + 1));
}

static void
hs_do_isatty (struct gomp_host_service *s, struct hs_ctx *c)
{
  (void) s;
  errno = 0;
  if (isatty (gomp_hs_fd_host (c->fd)))
    {
      c->ret = 1;
      c->err = 0;
    }
  else
    {
      /* Not a terminal is not a failure of the call: 0, with why.  */
      c->ret = 0;
      c->err = errno ? errno : ENOTTY;
    }
}

static void
hs_do_fsync (struct gomp_host_service *s, struct hs_ctx *c)
{
  (void) s;
  gomp_hs_result (c, fsync (gomp_hs_fd_host (c->fd)));
}

static void
hs_do_ftruncate (struct gomp_host_service *s, struct hs_ctx *c)
{
  if (gomp_hs_fd_std (c->fd) && s->policy < HS_POLICY_ALL)
    /* Below "all", what the host's own streams hold stays.  */
    gomp_hs_fail (c, EPERM);
  else if (c->arg[1] < 0)
    gomp_hs_fail (c, EINVAL);
  else
    gomp_hs_result (c, ftruncate (gomp_hs_fd_host (c->fd),
				  (off_t) c->arg[1]));
}

/* The device ends the program (Fortran's STOP and ERROR STOP, and its
   runtime errors, in target regions): the host's C streams and, in a
   Fortran program, the host's Fortran units are flushed, and the process
   ends with the status at once.  Not exit: its handlers would tear the
   device down while the kernel that asked still runs (and waits), and
   another thread's fatal error on that kernel could race for the status.
   Runs on a worker, never on the poller; there is no reply.

   FLUSHING CANNOT HOLD THE EXIT UP.  fflush (NULL) locks every FILE in
   turn, input streams too, and libgfortran's FLUSH of every unit locks
   every unit: a host thread blocked in fgets on stdin, or in a READ of a
   unit, holds that lock for as long as no input comes, perhaps forever,
   and so would the exit.  Neither C nor libgfortran can list their
   streams without those locks, so the flushing runs on two threads of
   its own (one for C, one for Fortran), and this one waits for them
   until one CLOCK_MONOTONIC deadline, HS_EXIT_FLUSH_MS after the EXIT
   came, then ends the process whatever they are doing.  Everything is
   measured against that deadline (never by counting sleeps), so the
   bound is the deadline, whatever else fails.  Each begins with what
   matters most: the C thread flushes stdout and stderr with try-locks (a
   stream another thread holds is tried again until the deadline, and
   never waited for), then every stream with fflush (NULL) (which gets as
   far as the first stream held for good: glibc keeps the streams newest
   first, so stdin, opened first, comes last); the Fortran thread flushes
   units 6 and 0, then every unit.

   Where a flushing thread cannot be created, this one does what it can
   without ever waiting for a lock, within the same deadline: it tries
   stdout and stderr itself with the same try-locks (never fflush (NULL),
   which may block), and tries again to create the thread every
   millisecond.  libgfortran has no try-lock of its own units, so the
   Fortran units are flushed only by a thread that was created.

   ONLY THE FIRST EXIT FLUSHES.  Two devices, or two ports of one, may
   ask at once, each on a worker of its own.  The first one (under
   hs_exit_lock) takes the deadline; later ones flush nothing (the
   first's threads are doing it) and wait until the first's deadline and
   HS_EXIT_GRACE_MS more, so that the first one's _exit, which follows
   its deadline at once, ends the process with the first status; only if
   that has not happened by then do they end it with their own.  The
   state of the flushing (struct hs_exit) lives on the first worker's
   stack and is handed to its threads as their argument: that worker
   never returns, so it outlives them.  */

#define HS_EXIT_FLUSH_MS	2000
#define HS_EXIT_GRACE_MS	100

struct hs_exit
{
  struct timespec deadline;	/* CLOCK_MONOTONIC.  */
  void (*flush_units) (int *);	/* libgfortran's FLUSH, or NULL.  */
  FILE *std[2];			/* stdout, stderr; NULL once flushed.  */
  int done;			/* Flushing threads finished; atomic.  */
};

static pthread_mutex_t hs_exit_lock = PTHREAD_MUTEX_INITIALIZER;
static int hs_exit_begun;	/* Under hs_exit_lock.  */
static struct timespec hs_exit_deadline;	/* The first one's.  */

/* TS plus MS milliseconds.  */

static struct timespec
hs_exit_add_ms (struct timespec ts, long ms)
{
  ts.tv_sec += ms / 1000;
  ts.tv_nsec += (ms % 1000) * 1000000L;
  if (ts.tv_nsec >= 1000000000L)
    {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000L;
    }
  return ts;
}

/* Whether DEADLINE has passed.  */

static int
hs_exit_past (const struct timespec *deadline)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  return (now.tv_sec > deadline->tv_sec
	  || (now.tv_sec == deadline->tv_sec
	      && now.tv_nsec >= deadline->tv_nsec));
}

/* Sleep for a millisecond, but never past DEADLINE.  */

static void
hs_exit_nap (const struct timespec *deadline)
{
  struct timespec now, until;
  clock_gettime (CLOCK_MONOTONIC, &now);
  until = hs_exit_add_ms (now, 1);
  if (until.tv_sec > deadline->tv_sec
      || (until.tv_sec == deadline->tv_sec
	  && until.tv_nsec > deadline->tv_nsec))
    until = *deadline;
  while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL)
	 == EINTR)
    ;
}

/* One round of try-locks over E's stdout and stderr: flush those whose
   lock is free, never wait for one.  Returns how many are left.  */

static int
hs_exit_try_std (struct hs_exit *e)
{
  int left = 0;
  for (int k = 0; k < 2; k++)
    if (e->std[k] != NULL && ftrylockfile (e->std[k]) == 0)
      {
	fflush_unlocked (e->std[k]);
	funlockfile (e->std[k]);
	e->std[k] = NULL;
      }
    else if (e->std[k] != NULL)
      left++;
  return left;
}

static void *
hs_exit_flush_c (void *arg)
{
  struct hs_exit *e = arg;
  while (hs_exit_try_std (e) && !hs_exit_past (&e->deadline))
    hs_exit_nap (&e->deadline);
  fflush (NULL);
  __atomic_add_fetch (&e->done, 1, __ATOMIC_RELEASE);
  return NULL;
}

static void *
hs_exit_flush_fortran (void *arg)
{
  struct hs_exit *e = arg;
  int unit;
  unit = 6;
  e->flush_units (&unit);
  unit = 0;
  e->flush_units (&unit);
  /* FLUSH without a unit: every unit of the host program.  */
  e->flush_units (NULL);
  __atomic_add_fetch (&e->done, 1, __ATOMIC_RELEASE);
  return NULL;
}

/* Run FN (ARG) on a thread of its own; returns whether it started.  */

static int
hs_exit_thread (void *(*fn) (void *), void *arg)
{
  pthread_t t;
  pthread_attr_t attr;
  int ok;
  if (pthread_attr_init (&attr) != 0)
    return 0;
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  ok = pthread_create (&t, &attr, fn, arg) == 0;
  pthread_attr_destroy (&attr);
  return ok;
}

static void
hs_do_exit (struct gomp_host_service *s, struct hs_ctx *c)
{
  gomp_debug (0, "host-service: device ends the program, status %d\n",
	      (int) c->arg[0]);
  /* In the server process: the application ends itself.  */
  if (s->helper_sock >= 0)
    gomp_hs_helper_exit (s, (int) c->arg[0] & 0xff);
  gomp_hs_exit_process ((int) c->arg[0] & 0xff);
}

/* Flush the program's streams, within the deadline, and end it with
   STATUS (above).  */

void
gomp_hs_exit_process (int status)
{
  struct hs_exit e;
  struct timespec now;
  int first, c_thread, f_thread, started = 0;
  clock_gettime (CLOCK_MONOTONIC, &now);
  pthread_mutex_lock (&hs_exit_lock);
  first = !hs_exit_begun;
  if (first)
    {
      hs_exit_begun = 1;
      hs_exit_deadline = hs_exit_add_ms (now, HS_EXIT_FLUSH_MS);
    }
  e.deadline = hs_exit_deadline;
  pthread_mutex_unlock (&hs_exit_lock);
  if (!first)
    {
      /* The first one flushes and ends the process.  */
      struct timespec until = hs_exit_add_ms (e.deadline, HS_EXIT_GRACE_MS);
      gomp_debug (0, "host-service: another exit is flushing\n");
      while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL)
	     == EINTR)
	;
      _exit (status);
    }

  e.flush_units
    = (void (*) (int *)) dlsym (RTLD_DEFAULT, "_gfortran_flush_i4");
  e.std[0] = stdout;
  e.std[1] = stderr;
  e.done = 0;
  c_thread = hs_exit_thread (hs_exit_flush_c, &e);
  started += c_thread;
  f_thread = e.flush_units == NULL || hs_exit_thread (hs_exit_flush_fortran,
						       &e);
  started += f_thread && e.flush_units != NULL;
  while (!hs_exit_past (&e.deadline))
    {
      /* Without its thread, C's stdout and stderr are tried here; the
	 thread, if a later try creates it, goes on from what is left
	 (pthread_create orders this thread's last try before it).  */
      int c_left = c_thread ? 0 : hs_exit_try_std (&e);
      if (!c_thread && hs_exit_thread (hs_exit_flush_c, &e))
	c_thread = 1, started++;
      if (!f_thread && hs_exit_thread (hs_exit_flush_fortran, &e))
	f_thread = 1, started++;
      if (f_thread && (c_thread || c_left == 0)
	  && __atomic_load_n (&e.done, __ATOMIC_ACQUIRE) == started)
	break;
      hs_exit_nap (&e.deadline);
    }
  if (!c_thread)
    gomp_debug (0, "host-service: no thread for fflush (NULL); tried"
		" stdout and stderr only\n");
  if (!f_thread)
    gomp_debug (0, "host-service: no thread to flush the Fortran units\n");
  if (c_thread && f_thread
      && __atomic_load_n (&e.done, __ATOMIC_ACQUIRE) < started)
    gomp_debug (0, "host-service: a host stream stays locked; exiting"
		" without it\n");
  _exit (status);
}

static void
hs_do_access (struct gomp_host_service *s, struct hs_ctx *c)
{
  if (c->arg[0] & ~(int64_t) (R_OK | W_OK | X_OK | F_OK))
    gomp_hs_fail (c, EINVAL);
  else
    gomp_hs_result (c, gomp_hs_access_path (s, (const char *) c->stage,
					    (int) c->arg[0]));
}

static void
hs_do_clock (struct gomp_host_service *s, struct hs_ctx *c)
{
  struct timespec ts;
  struct gomp_hs_timespec o;
  (void) s;
  switch (c->arg[0])
    {
    case CLOCK_REALTIME:
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_BOOTTIME:
      break;
    default:
      gomp_hs_fail (c, EINVAL);
      return;
    }
  if (clock_gettime ((clockid_t) c->arg[0], &ts) != 0)
    {
      gomp_hs_fail (c, errno);
      return;
    }
  o.sec = ts.tv_sec;
  o.nsec = ts.tv_nsec;
  c->ret = 0;
  c->err = 0;
  hs_output (s, c, &o, sizeof o);
}

static void
hs_do_gettimeofday (struct gomp_host_service *s, struct hs_ctx *c)
{
  struct timeval tv;
  struct gomp_hs_timespec o;
  (void) s;
  gettimeofday (&tv, NULL);
  o.sec = tv.tv_sec;
  o.nsec = tv.tv_usec;
  c->ret = 0;
  c->err = 0;
  hs_output (s, c, &o, sizeof o);
}

static void
hs_do_mkdir (struct gomp_host_service *s, struct hs_ctx *c)
{
  gomp_hs_result (c, gomp_hs_mkdir_path (s, (const char *) c->stage,
					 (unsigned) c->arg[0]));
}

/* HOST_CALL: input is the name (ARG0 bytes with its NUL), then the
   buffer (ARG1 bytes); output is the buffer as the callback left it.  */

static void
hs_do_host_call (struct gomp_host_service *s, struct hs_ctx *c)
{
  uint64_t nlen = (uint64_t) c->arg[0], size = (uint64_t) c->arg[1];
  char name[HS_NAME_MAX];
  int err;
  (void) s;
  if (nlen < 2 || nlen > HS_NAME_MAX || c->stage_len < nlen
      || size != c->stage_len - nlen || c->stage[nlen - 1] != '\0'
      || strlen ((const char *) c->stage) != nlen - 1)
    {
      gomp_hs_fail (c, EINVAL);
      return;
    }
  /* The callback gets the buffer at the start of the stage, aligned as
     malloc aligns, whatever the length of the name before it.  */
  memcpy (name, c->stage, nlen);
  memmove (c->stage, c->stage + nlen, size);
  c->ret = gomp_host_call_invoke (name, c->stage, size, &err, 1);
  c->err = err;
  if (err == 0)
    {
      c->out_len = size;
      c->out_sent = 0;
    }
}

/* TARGET_REV: a reverse-offload region (host-service.h), served by
   target-rev.c.  The stage is made large enough for the output before
   the region runs, so that a region that ran always gets its reply.  */

static void
hs_do_target_rev (struct gomp_host_service *s, struct hs_ctx *c)
{
  uint64_t idlen = (uint64_t) c->arg[0], mapnum = (uint64_t) c->arg[1];
  int64_t by = c->arg[2];
  size_t out_max, out_len = 0;
  int err = gomp_target_rev_check (c->stage, c->stage_len, idlen, mapnum, by,
				   &out_max);
  if (err == 0
      && !gomp_hs_reserve (s, c, out_max > c->stage_len ? out_max
				: c->stage_len))
    err = ENOMEM;
  if (err == 0)
    err = gomp_target_rev_serve (s->target_id, c->stage, c->stage_len, idlen,
				 mapnum, by, &out_len);
  if (err)
    {
      gomp_hs_fail (c, err);
      return;
    }
  c->ret = 0;
  c->err = 0;
  c->out_len = out_len;
  c->out_sent = 0;
}
