/* Host services: the host side (server, op table, file descriptors).
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

/* The server side of host-service.h, independent of the offload target:
   a plugin (plugin-nvptx.c) creates the region where its device can reach
   it and hands it to GOMP_PLUGIN_host_service_init; from then on this
   file serves the device's requests, on a thread of its own, while
   kernels that may call the host run.

   Environment:
     GOMP_HOST_SERVICES=all|readonly|stdio|off   what device code may do
       (default all; readonly: no creating, writing, renaming or
       removing files, console output still allowed; stdio: only file
       descriptors 0, 1 and 2 and the clock; off: no region at all).
     GOMP_HOST_SERVICES_PORTS=N     requests in flight at once (default 64)
     GOMP_HOST_SERVICES_BUFFER=N    bytes per port buffer (default 4096)
     GOMP_HOST_SERVICES_STAGING=N   bytes a write is gathered into before
				    the host writes it (default 1 MiB): a
				    device write up to this size is one
				    host write.
   GOMP_DEBUG=1 traces every call.  */

#define _GNU_SOURCE 1
#include "libgomp.h"
#include "host-service.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define HS_PATH_MAX		4096
#define HS_DEFAULT_PORTS	64
#define HS_DEFAULT_BUF		4096
#define HS_DEFAULT_STAGING	(1u << 20)
/* Largest input of a call that is gathered whole (a host call: its name
   and its buffer).  */
#define HS_NAME_MAX		256
#define HS_CALL_MAX		(((uint64_t) 64 << 20) + HS_NAME_MAX)

/* Named host services (host-call.c).  */
extern int64_t gomp_host_call_invoke (const char *, void *, size_t, int *,
				      int);

enum hs_policy { HS_POLICY_OFF, HS_POLICY_STDIO, HS_POLICY_READONLY,
		 HS_POLICY_ALL };

/* What a call's input is.  */
enum hs_in_kind
{
  HS_IN_NONE,		/* No input.  */
  HS_IN_PATH,		/* One NUL-terminated path.  */
  HS_IN_PATH2,		/* Two NUL-terminated paths, back to back.  */
  HS_IN_STREAM		/* Data, any length, staged and streamed.  */
};

struct gomp_host_service;
struct hs_ctx;

/* One op table entry.  */
struct hs_op
{
  const char *name;
  enum hs_in_kind in;
  /* The weakest policy under which the op is allowed.  */
  enum hs_policy policy;
  /* Carry out the call whose input is complete (for HS_IN_STREAM: the
     staged data so far; see hs_do_write).  */
  void (*fn) (struct gomp_host_service *, struct hs_ctx *);
};

/* A port's call in progress.  Host-private: the device cannot touch it.  */
struct hs_ctx
{
  uint32_t op;			/* 0: no call in progress.  */
  int64_t arg[4];
  uint64_t in_total, in_recv;
  unsigned char *stage;		/* Input gathered, or output to send.  */
  size_t stage_cap, stage_len;
  size_t out_len, out_sent;	/* Output in STAGE.  */
  int64_t ret;
  int32_t err;
  int64_t done;			/* Stream bytes written or read so far.  */
  int ended;			/* Result final (a stream ended early).  */
  int more_out;			/* READ: another block may follow.  */
};

struct gomp_host_service
{
  unsigned char *region;
  uint32_t nports, buf_size;
  size_t staging;
  enum hs_policy policy;
  struct hs_ctx *ctx;

  /* Device file descriptors: DEV_FD[I] is the host descriptor behind
     device descriptor I, or -1.  0, 1 and 2 are the host's own.  */
  int *dev_fd;
  int n_dev_fd;

  /* Serving.  POLL_LOCK makes one poller at a time; LOCK guards ACTIVE
     and STOP, COND wakes the server thread.  */
  pthread_mutex_t poll_lock;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  pthread_t thread;
  int thread_started;
  int active;
  int stop;

  unsigned long long served;
};

static void hs_do_open (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_close (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_read (struct gomp_host_service *, struct hs_ctx *);
static void hs_do_write (struct gomp_host_service *, struct hs_ctx *);
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

/* The op table: every opcode of host-service.h, in order.  */
static const struct hs_op hs_ops[GOMP_HS_OP_MAX] =
{
  [GOMP_HS_OP_NONE]	= { NULL, HS_IN_NONE, HS_POLICY_OFF, NULL },
  [GOMP_HS_OP_OPEN]	= { "open", HS_IN_PATH, HS_POLICY_READONLY, hs_do_open },
  [GOMP_HS_OP_CLOSE]	= { "close", HS_IN_NONE, HS_POLICY_STDIO, hs_do_close },
  [GOMP_HS_OP_READ]	= { "read", HS_IN_NONE, HS_POLICY_STDIO, hs_do_read },
  [GOMP_HS_OP_WRITE]	= { "write", HS_IN_STREAM, HS_POLICY_STDIO, hs_do_write },
  [GOMP_HS_OP_LSEEK]	= { "lseek", HS_IN_NONE, HS_POLICY_STDIO, hs_do_lseek },
  [GOMP_HS_OP_FSTAT]	= { "fstat", HS_IN_NONE, HS_POLICY_STDIO, hs_do_fstat },
  [GOMP_HS_OP_STAT]	= { "stat", HS_IN_PATH, HS_POLICY_READONLY, hs_do_stat },
  [GOMP_HS_OP_LSTAT]	= { "lstat", HS_IN_PATH, HS_POLICY_READONLY, hs_do_stat },
  [GOMP_HS_OP_UNLINK]	= { "unlink", HS_IN_PATH, HS_POLICY_ALL, hs_do_unlink },
  [GOMP_HS_OP_RENAME]	= { "rename", HS_IN_PATH2, HS_POLICY_ALL, hs_do_rename },
  [GOMP_HS_OP_ISATTY]	= { "isatty", HS_IN_NONE, HS_POLICY_STDIO, hs_do_isatty },
  [GOMP_HS_OP_FSYNC]	= { "fsync", HS_IN_NONE, HS_POLICY_STDIO, hs_do_fsync },
  [GOMP_HS_OP_ACCESS]	= { "access", HS_IN_PATH, HS_POLICY_READONLY, hs_do_access },
  [GOMP_HS_OP_CLOCK_GETTIME] = { "clock_gettime", HS_IN_NONE, HS_POLICY_STDIO,
				 hs_do_clock },
  [GOMP_HS_OP_GETTIMEOFDAY] = { "gettimeofday", HS_IN_NONE, HS_POLICY_STDIO,
				hs_do_gettimeofday },
  [GOMP_HS_OP_MKDIR]	= { "mkdir", HS_IN_PATH, HS_POLICY_ALL, hs_do_mkdir },
  [GOMP_HS_OP_HOST_CALL] = { "host_call", HS_IN_STREAM, HS_POLICY_STDIO,
			     hs_do_host_call },
};

static const char *
hs_op_name (uint32_t op)
{
  return op < GOMP_HS_OP_MAX && hs_ops[op].name ? hs_ops[op].name : "?";
}

/* Configuration.  */

static unsigned long
hs_env_ulong (const char *name, unsigned long dflt, unsigned long lo,
	      unsigned long hi)
{
  const char *s = getenv (name);
  char *end;
  unsigned long v;
  if (s == NULL || *s == '\0')
    return dflt;
  errno = 0;
  v = strtoul (s, &end, 0);
  if (errno || *end != '\0' || v < lo || v > hi)
    {
      gomp_error ("%s=%s is not a number in [%lu, %lu]; using %lu",
		  name, s, lo, hi, dflt);
      return dflt;
    }
  return v;
}

static enum hs_policy
hs_env_policy (void)
{
  const char *s = getenv ("GOMP_HOST_SERVICES");
  if (s == NULL || *s == '\0' || strcmp (s, "all") == 0)
    return HS_POLICY_ALL;
  if (strcmp (s, "readonly") == 0)
    return HS_POLICY_READONLY;
  if (strcmp (s, "stdio") == 0)
    return HS_POLICY_STDIO;
  if (strcmp (s, "off") == 0)
    return HS_POLICY_OFF;
  /* Read at every image load and every host call: say it once.  */
  static int warned;
  if (!__atomic_exchange_n (&warned, 1, __ATOMIC_RELAXED))
    gomp_error ("GOMP_HOST_SERVICES=%s is not one of all, readonly, stdio,"
		" off; using off", s);
  return HS_POLICY_OFF;
}

/* Whether GOMP_HOST_SERVICES=off (host-call.c: host calls obey it too).  */

int
gomp_host_service_off (void)
{
  return hs_env_policy () == HS_POLICY_OFF;
}

static void
hs_config (uint32_t *nports, uint32_t *buf_size)
{
  *nports = hs_env_ulong ("GOMP_HOST_SERVICES_PORTS", HS_DEFAULT_PORTS, 1,
			  GOMP_HS_MAX_PORTS);
  *buf_size = hs_env_ulong ("GOMP_HOST_SERVICES_BUFFER", HS_DEFAULT_BUF,
			    GOMP_HS_MIN_BUF_SIZE, GOMP_HS_MAX_BUF_SIZE);
  /* Keep every buffer 64-byte aligned.  */
  *buf_size = (*buf_size + 63) & ~63u;
}

/* The region a plugin should allocate: 0 if host services are off.  */

size_t
GOMP_PLUGIN_host_service_size (void)
{
  uint32_t nports, buf_size;
  if (hs_env_policy () == HS_POLICY_OFF)
    return 0;
  hs_config (&nports, &buf_size);
  return gomp_hs_region_size (nports, buf_size);
}

/* File descriptors.  */

/* The host descriptor behind device descriptor FD, or -1.  */

static int
hs_fd (struct gomp_host_service *s, int64_t fd)
{
  if (fd >= 0 && fd <= 2)
    return (int) fd;
  if (s->policy < HS_POLICY_READONLY)
    return -1;
  if (fd < 3 || fd >= s->n_dev_fd)
    return -1;
  return s->dev_fd[fd];
}

/* Record host descriptor HFD as the lowest free device descriptor.  */

static int
hs_fd_add (struct gomp_host_service *s, int hfd)
{
  int i;
  for (i = 3; i < s->n_dev_fd; i++)
    if (s->dev_fd[i] < 0)
      break;
  if (i >= s->n_dev_fd)
    {
      int n = s->n_dev_fd ? 2 * s->n_dev_fd : 16, j;
      int *t = realloc (s->dev_fd, n * sizeof (int));
      if (t == NULL)
	return -1;
      for (j = s->n_dev_fd; j < n; j++)
	t[j] = -1;
      s->dev_fd = t;
      s->n_dev_fd = n;
    }
  s->dev_fd[i] = hfd;
  return i;
}

/* Results.  */

static void
hs_result (struct hs_ctx *c, int64_t ret)
{
  c->ret = ret;
  c->err = ret < 0 ? errno : 0;
}

static void
hs_fail (struct hs_ctx *c, int err)
{
  c->ret = -1;
  c->err = err;
}

/* Make STAGE hold at least N bytes.  */

static int
hs_reserve (struct hs_ctx *c, size_t n)
{
  if (c->stage_cap < n)
    {
      /* Grow geometrically: input arrives a port buffer at a time.  */
      size_t cap = c->stage_cap * 2 > n ? c->stage_cap * 2 : n;
      unsigned char *p = realloc (c->stage, cap);
      if (p == NULL)
	return 0;
      c->stage = p;
      c->stage_cap = cap;
    }
  return 1;
}

/* Put output BYTES of N into STAGE, to be sent in rounds.  */

static void
hs_output (struct hs_ctx *c, const void *bytes, size_t n)
{
  if (!hs_reserve (c, n))
    {
      hs_fail (c, ENOMEM);
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
      hs_fail (c, EINVAL);
      return;
    }
  if (s->policy < HS_POLICY_ALL
      && ((flags & O_ACCMODE) != O_RDONLY
	  || (flags & (O_CREAT | O_TRUNC | O_APPEND))))
    {
      hs_fail (c, EROFS);
      return;
    }
  /* The device's descriptors never leak into host children.  */
  hfd = open ((const char *) c->stage, flags | O_CLOEXEC,
	      (mode_t) (c->arg[1] & 07777));
  if (hfd < 0)
    {
      hs_fail (c, errno);
      return;
    }
  dfd = hs_fd_add (s, hfd);
  if (dfd < 0)
    {
      close (hfd);
      hs_fail (c, EMFILE);
      return;
    }
  c->ret = dfd;
  c->err = 0;
}

static void
hs_do_close (struct gomp_host_service *s, struct hs_ctx *c)
{
  int64_t fd = c->arg[0];
  int hfd = hs_fd (s, fd);
  if (hfd < 0)
    {
      hs_fail (c, EBADF);
      return;
    }
  if (fd <= 2)
    {
      /* The host's own standard streams stay open.  */
      c->ret = 0;
      c->err = 0;
      return;
    }
  s->dev_fd[fd] = -1;
  hs_result (c, close (hfd));
}

/* READ: read up to the staging size at a time; the rounds send it.  */

static void
hs_do_read (struct gomp_host_service *s, struct hs_ctx *c)
{
  int hfd = hs_fd (s, c->arg[0]);
  uint64_t want, count = (uint64_t) c->arg[1];
  ssize_t r;
  if (hfd < 0)
    {
      hs_fail (c, EBADF);
      c->ended = 1;
      return;
    }
  want = count - (uint64_t) c->done;
  if (want > s->staging)
    want = s->staging;
  if (!hs_reserve (c, want ? want : 1))
    {
      hs_fail (c, ENOMEM);
      c->ended = 1;
      return;
    }
  do
    r = read (hfd, c->stage, want);
  while (r < 0 && errno == EINTR);
  c->out_sent = 0;
  if (r < 0)
    {
      c->out_len = 0;
      c->ended = 1;
      if (c->done > 0)
	{
	  /* What was read so far is the result.  */
	  c->ret = c->done;
	  c->err = 0;
	}
      else
	hs_fail (c, errno);
      return;
    }
  c->out_len = r;
  c->done += r;
  c->ret = c->done;
  c->err = 0;
  /* A short block ends the call, as a short read(2) does.  */
  c->more_out = (uint64_t) r == want && (uint64_t) c->done < count;
}

static int
hs_write_all (int fd, const unsigned char *p, size_t n, size_t *written)
{
  *written = 0;
  while (*written < n)
    {
      ssize_t w = write (fd, p + *written, n - *written);
      if (w < 0 && errno == EINTR)
	continue;
      if (w <= 0)
	return -1;
      *written += w;
    }
  return 0;
}

/* WRITE: called with the staged data when the stage is full and when the
   input is complete; one host write per call.  */

static void
hs_do_write (struct gomp_host_service *s, struct hs_ctx *c)
{
  int hfd = hs_fd (s, c->arg[0]);
  size_t written;
  if (hfd < 0)
    {
      hs_fail (c, EBADF);
      c->ended = 1;
      return;
    }
  if (c->stage_len == 0 && c->in_total != 0)
    return;
  if (hs_write_all (hfd, c->stage, c->stage_len, &written) != 0)
    {
      int e = errno;
      c->done += written;
      c->ended = 1;
      if (c->done > 0)
	{
	  c->ret = c->done;
	  c->err = 0;
	}
      else
	hs_fail (c, e);
      return;
    }
  c->done += written;
  c->stage_len = 0;
  c->ret = c->done;
  c->err = 0;
}

static void
hs_do_lseek (struct gomp_host_service *s, struct hs_ctx *c)
{
  int hfd = hs_fd (s, c->arg[0]);
  if (hfd < 0)
    hs_fail (c, EBADF);
  else if (c->arg[2] < 0 || c->arg[2] > 4)
    hs_fail (c, EINVAL);
  else
    hs_result (c, lseek (hfd, (off_t) c->arg[1], (int) c->arg[2]));
}

static void
hs_stat_out (struct hs_ctx *c, const struct stat *st)
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
  hs_output (c, &o, sizeof o);
}

static void
hs_do_fstat (struct gomp_host_service *s, struct hs_ctx *c)
{
  struct stat st;
  int hfd = hs_fd (s, c->arg[0]);
  if (hfd < 0)
    hs_fail (c, EBADF);
  else if (fstat (hfd, &st) != 0)
    hs_fail (c, errno);
  else
    hs_stat_out (c, &st);
}

static void
hs_do_stat (struct gomp_host_service *s, struct hs_ctx *c)
{
  struct stat st;
  int r;
  (void) s;
  if (c->op == GOMP_HS_OP_LSTAT)
    r = lstat ((const char *) c->stage, &st);
  else
    r = stat ((const char *) c->stage, &st);
  if (r != 0)
    hs_fail (c, errno);
  else
    hs_stat_out (c, &st);
}

static void
hs_do_unlink (struct gomp_host_service *s, struct hs_ctx *c)
{
  (void) s;
  hs_result (c, unlink ((const char *) c->stage));
}

static void
hs_do_rename (struct gomp_host_service *s, struct hs_ctx *c)
{
  const char *from = (const char *) c->stage;
  (void) s;
  hs_result (c, rename (from, from + strlen (from) + 1));
}

static void
hs_do_isatty (struct gomp_host_service *s, struct hs_ctx *c)
{
  int hfd = hs_fd (s, c->arg[0]);
  if (hfd < 0)
    hs_fail (c, EBADF);
  else if (isatty (hfd))
    {
      c->ret = 1;
      c->err = 0;
    }
  else
    {
      c->ret = 0;
      c->err = errno;
    }
}

static void
hs_do_fsync (struct gomp_host_service *s, struct hs_ctx *c)
{
  int hfd = hs_fd (s, c->arg[0]);
  if (hfd < 0)
    hs_fail (c, EBADF);
  else
    hs_result (c, fsync (hfd));
}

static void
hs_do_access (struct gomp_host_service *s, struct hs_ctx *c)
{
  (void) s;
  if (c->arg[0] & ~(int64_t) (R_OK | W_OK | X_OK | F_OK))
    hs_fail (c, EINVAL);
  else
    hs_result (c, access ((const char *) c->stage, (int) c->arg[0]));
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
      hs_fail (c, EINVAL);
      return;
    }
  if (clock_gettime ((clockid_t) c->arg[0], &ts) != 0)
    {
      hs_fail (c, errno);
      return;
    }
  o.sec = ts.tv_sec;
  o.nsec = ts.tv_nsec;
  c->ret = 0;
  c->err = 0;
  hs_output (c, &o, sizeof o);
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
  hs_output (c, &o, sizeof o);
}

static void
hs_do_mkdir (struct gomp_host_service *s, struct hs_ctx *c)
{
  (void) s;
  hs_result (c, mkdir ((const char *) c->stage, (mode_t) (c->arg[0] & 07777)));
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
      hs_fail (c, EINVAL);
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

/* Serving one port.  */

static void
hs_trace (struct gomp_host_service *s, uint32_t port, struct hs_ctx *c)
{
  (void) s;
  gomp_debug (0, "host-service: port %u: %s (fd %lld, %llu bytes)"
	      " = %lld, errno %d\n", port, hs_op_name (c->op),
	      (long long) c->arg[0],
	      (unsigned long long) (c->op == GOMP_HS_OP_READ
				    ? (uint64_t) c->arg[1] : c->in_total),
	      (long long) c->ret, (int) c->err);
}

static void
hs_reset_ctx (struct hs_ctx *c)
{
  c->op = 0;
  c->in_total = c->in_recv = 0;
  c->stage_len = c->out_len = c->out_sent = 0;
  c->ret = 0;
  c->err = 0;
  c->done = 0;
  c->ended = 0;
  c->more_out = 0;
  /* Do not hold on to a big buffer between calls.  */
  if (c->stage_cap > 65536)
    {
      free (c->stage);
      c->stage = NULL;
      c->stage_cap = 0;
    }
}

/* Check that the N bytes of a complete path input hold K NUL-terminated
   strings and nothing after them.  */

static int
hs_paths_ok (const unsigned char *p, size_t n, int k)
{
  size_t i = 0;
  while (k-- > 0)
    {
      const unsigned char *z = memchr (p + i, '\0', n - i);
      if (z == NULL)
	return 0;
      i = z - p + 1;
    }
  return i == n;
}

/* Take in the LEN bytes of this round's payload.  Returns 0 when the call
   should end now (its result is in C).  */

static int
hs_input (struct gomp_host_service *s, struct hs_ctx *c,
	  const volatile unsigned char *buf, uint64_t len)
{
  const struct hs_op *o = &hs_ops[c->op];
  if (len > c->in_total - c->in_recv)
    {
      hs_fail (c, EINVAL);
      return 0;
    }
  if (o->in == HS_IN_STREAM && c->op == GOMP_HS_OP_WRITE
      && c->stage_len + len > s->staging)
    {
      /* Stream: write out what is staged to make room.  */
      hs_do_write (s, c);
      if (c->ended)
	return 0;
    }
  if (!hs_reserve (c, c->stage_len + len + 1))
    {
      hs_fail (c, ENOMEM);
      return 0;
    }
  /* Copy out of the region before looking at it.  (The device does not
     touch the buffer until the reply; memcpy is fine.)  */
  memcpy (c->stage + c->stage_len, (const unsigned char *) buf, len);
  c->stage_len += len;
  c->in_recv += len;
  return 1;
}

/* Start a call from request R.  Returns 0 if it was rejected (result in
   C).  */

static int
hs_start (struct gomp_host_service *s, struct hs_ctx *c,
	  const struct gomp_hs_request *r)
{
  const struct hs_op *o;
  hs_reset_ctx (c);
  c->op = r->op < GOMP_HS_OP_MAX ? r->op : GOMP_HS_OP_NONE;
  memcpy (c->arg, r->arg, sizeof c->arg);
  c->in_total = r->total;
  o = &hs_ops[c->op];
  if (o->fn == NULL)
    {
      hs_fail (c, ENOSYS);
      return 0;
    }
  if (s->policy < o->policy)
    {
      hs_fail (c, o->policy == HS_POLICY_ALL ? EROFS : EPERM);
      return 0;
    }
  switch (o->in)
    {
    case HS_IN_NONE:
      if (r->total != 0)
	{
	  hs_fail (c, EINVAL);
	  return 0;
	}
      break;
    case HS_IN_PATH:
    case HS_IN_PATH2:
      if (r->total == 0)
	{
	  hs_fail (c, EFAULT);
	  return 0;
	}
      if (r->total > (o->in == HS_IN_PATH2 ? 2 : 1) * HS_PATH_MAX)
	{
	  hs_fail (c, ENAMETOOLONG);
	  return 0;
	}
      break;
    case HS_IN_STREAM:
      if (c->op != GOMP_HS_OP_WRITE && r->total > HS_CALL_MAX)
	{
	  hs_fail (c, EMSGSIZE);
	  return 0;
	}
      break;
    }
  return 1;
}

/* Input complete: run the call.  */

static void
hs_run (struct gomp_host_service *s, struct hs_ctx *c)
{
  const struct hs_op *o = &hs_ops[c->op];
  if ((o->in == HS_IN_PATH || o->in == HS_IN_PATH2)
      && !hs_paths_ok (c->stage, c->stage_len, o->in == HS_IN_PATH2 ? 2 : 1))
    {
      hs_fail (c, EINVAL);
      return;
    }
  o->fn (s, c);
}

/* Fill in the reply for the current state of C: the next output round,
   or the final result.  Returns whether the call is over.  */

static int
hs_reply_out (struct gomp_host_service *s, struct hs_ctx *c,
	      volatile struct gomp_hs_reply *rep,
	      volatile unsigned char *buf)
{
  uint64_t n = c->out_len - c->out_sent;
  uint32_t flags = 0;
  if (n > s->buf_size)
    n = s->buf_size;
  if (n)
    memcpy ((unsigned char *) buf, c->stage + c->out_sent, n);
  c->out_sent += n;
  if (c->out_sent < c->out_len || (c->more_out && !c->ended))
    flags = GOMP_HS_REP_MORE_OUT;
  rep->ret = c->ret;
  rep->err = c->err;
  rep->len = n;
  rep->flags = flags;
  return flags == 0;
}

/* Take in an input round of LEN bytes; then ask for the next one, or
   run the call and reply with its (first) output.  Returns whether the
   call is over.  */

static int
hs_input_round (struct gomp_host_service *s, struct hs_ctx *c,
		volatile struct gomp_hs_port *p, volatile unsigned char *buf,
		uint64_t len)
{
  if (!hs_input (s, c, buf, len))
    return hs_reply_out (s, c, &p->rep, buf);
  if (c->in_recv < c->in_total)
    {
      p->rep.ret = 0;
      p->rep.err = 0;
      p->rep.len = 0;
      p->rep.flags = GOMP_HS_REP_MORE_IN;
      return 0;
    }
  hs_run (s, c);
  return hs_reply_out (s, c, &p->rep, buf);
}

/* Serve the request waiting in port I, published as sequence SEQ.  */

static void
hs_serve (struct gomp_host_service *s, uint32_t i, uint32_t seq)
{
  volatile struct gomp_hs_port *p
    = (volatile struct gomp_hs_port *) (s->region + gomp_hs_ports_offset ())
      + i;
  volatile unsigned char *buf
    = s->region + gomp_hs_buf_offset (s->nports, s->buf_size, i);
  struct hs_ctx *c = &s->ctx[i];
  struct gomp_hs_request r;
  int over = 0;

  /* Copy the request out of the region; it is untrusted from here on.  */
  r.op = p->req.op;
  r.flags = p->req.flags;
  for (int k = 0; k < 4; k++)
    r.arg[k] = p->req.arg[k];
  r.len = p->req.len;
  r.total = p->req.total;

  if (r.len > s->buf_size
      || (r.flags != GOMP_HS_REQ_FIRST && r.flags != GOMP_HS_REQ_CONT))
    {
      /* Nothing in it can be believed.  */
      hs_reset_ctx (c);
      c->op = r.op < GOMP_HS_OP_MAX ? r.op : 0;
      hs_fail (c, EINVAL);
      over = hs_reply_out (s, c, &p->rep, buf);
    }
  else if (r.flags == GOMP_HS_REQ_FIRST)
    over = hs_start (s, c, &r) ? hs_input_round (s, c, p, buf, r.len)
	   : hs_reply_out (s, c, &p->rep, buf);
  else if (c->op == 0 || r.op != c->op)
    {
      /* A continuation of no call, or of another one.  */
      hs_reset_ctx (c);
      hs_fail (c, GOMP_HS_EPROTO);
      over = hs_reply_out (s, c, &p->rep, buf);
    }
  else if (c->in_recv < c->in_total)
    over = hs_input_round (s, c, p, buf, r.len);
  else
    {
      /* Next output round.  */
      if (r.len != 0)
	{
	  hs_fail (c, EINVAL);
	  c->out_len = c->out_sent = 0;
	  c->ended = 1;
	}
      else if (c->out_sent == c->out_len && c->more_out && !c->ended)
	hs_do_read (s, c);
      over = hs_reply_out (s, c, &p->rep, buf);
    }

  if (over)
    {
      hs_trace (s, i, c);
      hs_reset_ctx (c);
    }
  s->served++;
  __atomic_store_n (&p->host_seq, seq, __ATOMIC_RELEASE);
}

/* Serve every port that has a request waiting.  Returns how many.  */

unsigned
GOMP_PLUGIN_host_service_poll (struct gomp_host_service *s)
{
  unsigned n = 0;
  uint32_t i;
  volatile struct gomp_hs_port *ports
    = (volatile struct gomp_hs_port *) (s->region + gomp_hs_ports_offset ());
  pthread_mutex_lock (&s->poll_lock);
  for (i = 0; i < s->nports; i++)
    {
      uint32_t seq = __atomic_load_n (&ports[i].dev_seq, __ATOMIC_ACQUIRE);
      if (seq != ports[i].host_seq)
	{
	  hs_serve (s, i, seq);
	  n++;
	}
    }
  pthread_mutex_unlock (&s->poll_lock);
  return n;
}

/* Forget calls left half done: a kernel ended or trapped in the middle.  */

static void
hs_discard_partial (struct gomp_host_service *s)
{
  uint32_t i;
  for (i = 0; i < s->nports; i++)
    if (s->ctx[i].op != 0)
      {
	gomp_debug (0, "host-service: port %u: %s abandoned by the device\n",
		    i, hs_op_name (s->ctx[i].op));
	hs_reset_ctx (&s->ctx[i]);
      }
}

static inline void
hs_relax (void)
{
#if defined __x86_64__ || defined __i386__
  __builtin_ia32_pause ();
#else
  __asm__ volatile ("" : : : "memory");
#endif
}

/* The server thread: polls while a kernel that may call the host runs,
   spinning briefly after each request, then backing off to sleeps of up
   to 100 microseconds; sleeps on COND while no such kernel runs.  */

static void *
hs_thread (void *arg)
{
  struct gomp_host_service *s = arg;
  unsigned idle = 0;
  for (;;)
    {
      pthread_mutex_lock (&s->lock);
      while (s->active == 0 && !s->stop)
	{
	  idle = 0;
	  pthread_cond_wait (&s->cond, &s->lock);
	}
      if (s->stop)
	{
	  pthread_mutex_unlock (&s->lock);
	  return NULL;
	}
      pthread_mutex_unlock (&s->lock);

      if (GOMP_PLUGIN_host_service_poll (s))
	idle = 0;
      else if (++idle > 2000)
	{
	  struct timespec ts = { 0, idle > 20000 ? 100000 : 10000 };
	  nanosleep (&ts, NULL);
	}
      else
	hs_relax ();
    }
}

/* A kernel that may call the host is about to run / has ended.  */

void
GOMP_PLUGIN_host_service_kernel_begin (struct gomp_host_service *s)
{
  pthread_mutex_lock (&s->lock);
  if (!s->thread_started)
    {
      if (pthread_create (&s->thread, NULL, hs_thread, s) != 0)
	{
	  pthread_mutex_unlock (&s->lock);
	  gomp_fatal ("host services: cannot start the server thread");
	}
      s->thread_started = 1;
    }
  if (s->active++ == 0)
    pthread_cond_signal (&s->cond);
  pthread_mutex_unlock (&s->lock);
}

void
GOMP_PLUGIN_host_service_kernel_end (struct gomp_host_service *s)
{
  int last;
  pthread_mutex_lock (&s->lock);
  last = --s->active == 0;
  pthread_mutex_unlock (&s->lock);
  /* Drain: requests posted just before the kernel ended.  */
  GOMP_PLUGIN_host_service_poll (s);
  if (last)
    {
      pthread_mutex_lock (&s->poll_lock);
      hs_discard_partial (s);
      pthread_mutex_unlock (&s->poll_lock);
    }
}

/* Set up REGION (SIZE bytes, from GOMP_PLUGIN_host_service_size) and
   return the server for it.  */

struct gomp_host_service *
GOMP_PLUGIN_host_service_init (void *region, size_t size)
{
  struct gomp_host_service *s;
  struct gomp_hs_header *h = region;
  uint32_t nports, buf_size;

  hs_config (&nports, &buf_size);
  if (region == NULL || size < gomp_hs_region_size (nports, buf_size))
    return NULL;
  s = calloc (1, sizeof *s);
  if (s == NULL)
    return NULL;
  s->ctx = calloc (nports, sizeof *s->ctx);
  if (s->ctx == NULL)
    {
      free (s);
      return NULL;
    }
  s->region = region;
  s->nports = nports;
  s->buf_size = buf_size;
  s->policy = hs_env_policy ();
  s->staging = hs_env_ulong ("GOMP_HOST_SERVICES_STAGING", HS_DEFAULT_STAGING,
			     buf_size, (size_t) 1 << 30);
  pthread_mutex_init (&s->poll_lock, NULL);
  pthread_mutex_init (&s->lock, NULL);
  pthread_cond_init (&s->cond, NULL);

  memset (region, 0, gomp_hs_region_size (nports, buf_size));
  h->nports = nports;
  h->buf_size = buf_size;
  h->size = gomp_hs_region_size (nports, buf_size);
  h->version = GOMP_HS_VERSION;
  __atomic_store_n (&h->magic, GOMP_HS_MAGIC, __ATOMIC_RELEASE);
  gomp_debug (0, "host-service: region %p: %u ports of %u bytes, staging %zu,"
	      " policy %d\n", region, nports, buf_size, s->staging,
	      (int) s->policy);
  return s;
}

/* The region's geometry, for the plugin to pass on to the device.  */

void
GOMP_PLUGIN_host_service_geometry (struct gomp_host_service *s,
				   unsigned *nports, unsigned *buf_size)
{
  *nports = s->nports;
  *buf_size = s->buf_size;
}

/* Stop serving, close every descriptor the device opened, free S (not
   the region, which the plugin owns).  */

void
GOMP_PLUGIN_host_service_fini (struct gomp_host_service *s)
{
  uint32_t i;
  int fd;
  if (s == NULL)
    return;
  pthread_mutex_lock (&s->lock);
  s->stop = 1;
  pthread_cond_signal (&s->cond);
  pthread_mutex_unlock (&s->lock);
  if (s->thread_started)
    pthread_join (s->thread, NULL);
  hs_discard_partial (s);
  for (fd = 3; fd < s->n_dev_fd; fd++)
    if (s->dev_fd[fd] >= 0)
      {
	gomp_debug (0, "host-service: closing device fd %d (host fd %d)\n",
		    fd, s->dev_fd[fd]);
	close (s->dev_fd[fd]);
      }
  gomp_debug (0, "host-service: %llu requests served\n", s->served);
  for (i = 0; i < s->nports; i++)
    free (s->ctx[i].stage);
  free (s->ctx);
  free (s->dev_fd);
  pthread_mutex_destroy (&s->poll_lock);
  pthread_mutex_destroy (&s->lock);
  pthread_cond_destroy (&s->cond);
  free (s);
}
