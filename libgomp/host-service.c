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

/* The host side of host-service.h, independent of the offload target: a
   plugin (plugin-nvptx.c) creates the region where its device can reach
   it and hands it to GOMP_PLUGIN_host_service_init; from then on libgomp
   serves the device's requests while kernels that may call the host run
   (host-service-server.c).  This file has the configuration and the
   rounds of a call: taking a request in, running its op (the op table is
   host-service-ops.c), and writing the reply.

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
     GOMP_HOST_SERVICES_STAGING_MAX=N  bytes staged by all calls at once
				    (default 256 MiB).
     GOMP_HOST_SERVICES_MAX_FDS=N   descriptors device code may have open
				    (default RLIMIT_NOFILE / 4, at most 1024).
     GOMP_HOST_SERVICES_ROOT=DIR    every path device code names resolves
				    beneath DIR (host-service-fd.c).
   GOMP_DEBUG=1 traces every call.  */

#define _GNU_SOURCE 1
#include "libgomp.h"
#include "host-service-internal.h"
#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#define HS_PATH_MAX		4096
#define HS_DEFAULT_PORTS	64
#define HS_DEFAULT_BUF		4096
#define HS_DEFAULT_STAGING	(1u << 20)
/* Microseconds between the poller's scans while a kernel runs but makes
   no calls (host-service-server.c).  */
#define HS_DEFAULT_POLL_SLEEP	10
#define HS_DEFAULT_STAGING_MAX	((size_t) 256 << 20)
/* Largest input of a call that is gathered whole (a host call: its name
   and its buffer).  */
#define HS_NAME_MAX		256
#define HS_CALL_MAX		(((uint64_t) 64 << 20) + HS_NAME_MAX)

/* Configuration.  */

unsigned long
gomp_hs_env_ulong (const char *name, unsigned long dflt, unsigned long lo,
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
  *nports = gomp_hs_env_ulong ("GOMP_HOST_SERVICES_PORTS", HS_DEFAULT_PORTS, 1,
			  GOMP_HS_MAX_PORTS);
  *buf_size = gomp_hs_env_ulong ("GOMP_HOST_SERVICES_BUFFER", HS_DEFAULT_BUF,
			    GOMP_HS_MIN_BUF_SIZE, GOMP_HS_MAX_BUF_SIZE);
  /* Keep every buffer 64-byte aligned.  */
  *buf_size = (*buf_size + 63) & ~63u;
  if (*buf_size > GOMP_HS_MAX_BUF_SIZE)
    *buf_size = GOMP_HS_MAX_BUF_SIZE;
}

/* The region a plugin should allocate: 0 if host services are off.  */

size_t
GOMP_PLUGIN_host_service_size (void)
{
  uint32_t nports, buf_size;
  if (hs_env_policy () == HS_POLICY_OFF
      || gomp_hs_server_mode () == HS_SERVER_BAD)
    return 0;
  hs_config (&nports, &buf_size);
  return gomp_hs_region_size (nports, buf_size);
}

/* The region.  */

volatile struct gomp_hs_port *
gomp_hs_port (struct gomp_host_service *s, uint32_t i)
{
  return (volatile struct gomp_hs_port *) (s->region + gomp_hs_ports_offset ())
	 + i;
}

volatile unsigned char *
gomp_hs_buf (struct gomp_host_service *s, uint32_t i)
{
  return s->region + gomp_hs_buf_offset (s->nports, s->buf_size, i);
}

/* A call's state.  */

static void
hs_trace (uint32_t port, struct hs_ctx *c)
{
  gomp_debug (0, "host-service: port %u: %s (fd %lld, %llu bytes)"
	      " = %lld, errno %d\n", port, gomp_hs_op_name (c->op),
	      (long long) c->arg[0],
	      (unsigned long long) (c->op == GOMP_HS_OP_READ
				    ? (uint64_t) c->arg[1] : c->in_total),
	      (long long) c->ret, (int) c->err);
}

void
gomp_hs_reset_ctx (struct gomp_host_service *s, struct hs_ctx *c)
{
  gomp_hs_fd_put (s, c->fd);
  gomp_hs_fd_put (s, c->peek_fd);
  c->fd = c->peek_fd = NULL;
  c->op = 0;
  c->in_total = c->in_recv = 0;
  c->stage_len = c->out_len = c->out_sent = 0;
  c->ret = 0;
  c->err = 0;
  c->done = 0;
  c->ended = 0;
  c->more_out = 0;
  c->deferred = 0;
  /* Do not hold on to a big buffer between calls.  */
  if (c->stage_cap > 65536)
    gomp_hs_release_stage (s, c);
}

/* The call on port I is over (its last reply is written).  */

void
gomp_hs_end_call (struct gomp_host_service *s, uint32_t i, struct hs_ctx *c)
{
  hs_trace (i, c);
  gomp_hs_reset_ctx (s, c);
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

/* The reply for the current state of C: the next output round, or the
   final result.  Returns whether the call is over.  */

static int
hs_reply_out (struct gomp_host_service *s, struct hs_ctx *c)
{
  uint64_t n = c->out_len - c->out_sent;
  uint32_t flags = 0;
  if (n > s->buf_size)
    n = s->buf_size;
  c->r_off = c->out_sent;
  c->r_len = n;
  c->out_sent += n;
  if (c->out_sent < c->out_len || (c->more_out && !c->ended))
    flags = GOMP_HS_REP_MORE_OUT;
  c->r_flags = flags;
  c->r_ret = c->ret;
  c->r_err = c->err;
  return flags == 0;
}

static void
hs_more_in (struct hs_ctx *c)
{
  c->r_flags = GOMP_HS_REP_MORE_IN;
  c->r_len = 0;
  c->r_off = 0;
  c->r_ret = 0;
  c->r_err = 0;
}

/* Take in the LEN bytes of this round's payload, at IN.  Returns 0 when
   the call should end now (its result is in C).  */

static int
hs_input (struct gomp_host_service *s, struct hs_ctx *c,
	  const unsigned char *in, uint64_t len)
{
  const struct hs_op *o = &gomp_hs_ops[c->op];
  if (len > c->in_total - c->in_recv)
    {
      gomp_hs_fail (c, EINVAL);
      return 0;
    }
  if (o->in == HS_IN_STREAM && c->op == GOMP_HS_OP_WRITE
      && c->stage_len + len > s->staging)
    {
      /* Stream: write out what is staged to make room.  */
      gomp_hs_do_write (s, c);
      if (c->ended)
	return 0;
    }
  if (!gomp_hs_reserve (s, c, c->stage_len + len + 1)
      && (c->op != GOMP_HS_OP_WRITE || c->stage_len == 0
	  || (gomp_hs_do_write (s, c), c->ended)
	  || !gomp_hs_reserve (s, c, c->stage_len + len + 1)))
    {
      /* Over the limit on staged memory: a write makes room by writing
	 out what is staged; anything else fails.  */
      if (!c->ended)
	gomp_hs_fail (c, ENOMEM);
      return 0;
    }
  /* IN is the region's buffer (the device does not touch it until the
     reply) or a copy of it.  */
  memcpy (c->stage + c->stage_len, in, len);
  c->stage_len += len;
  c->in_recv += len;
  return 1;
}

/* hs_start, once the context is reset.  */

static int
hs_start_1 (struct gomp_host_service *s, struct hs_ctx *c,
	    const struct gomp_hs_request *r)
{
  const struct hs_op *o;
  c->op = r->op < GOMP_HS_OP_MAX ? r->op : GOMP_HS_OP_NONE;
  memcpy (c->arg, r->arg, sizeof c->arg);
  c->in_total = r->total;
  o = &gomp_hs_ops[c->op];
  if (o->fn == NULL)
    {
      gomp_hs_fail (c, ENOSYS);
      return 0;
    }
  if (s->fwd != NULL && s->helper_sock < 0 && !gomp_hs_callback_op (c->op))
    {
      /* The program's own server in process mode serves callbacks
	 only; once the server process is gone, every other call fails
	 (host-service-process.c).  */
      int err = __atomic_load_n (&s->refuse_err, __ATOMIC_ACQUIRE);
      gomp_hs_fail (c, err ? err : EPERM);
      return 0;
    }
  if (s->policy < o->policy)
    {
      gomp_hs_fail (c, o->policy == HS_POLICY_ALL ? EROFS : EPERM);
      return 0;
    }
  switch (o->in)
    {
    case HS_IN_NONE:
      if (r->total != 0)
	{
	  gomp_hs_fail (c, EINVAL);
	  return 0;
	}
      break;
    case HS_IN_PATH:
    case HS_IN_PATH2:
      if (r->total == 0)
	{
	  gomp_hs_fail (c, EFAULT);
	  return 0;
	}
      if (r->total > (o->in == HS_IN_PATH2 ? 2 : 1) * HS_PATH_MAX)
	{
	  gomp_hs_fail (c, ENAMETOOLONG);
	  return 0;
	}
      break;
    case HS_IN_STREAM:
      if (c->op != GOMP_HS_OP_WRITE && r->total > HS_CALL_MAX)
	{
	  gomp_hs_fail (c, EMSGSIZE);
	  return 0;
	}
      break;
    }
  /* The descriptor is looked up once, before any data moves.  */
  if (o->flags & HS_OP_FD)
    {
      if (c->peek_fd != NULL)
	{
	  c->fd = c->peek_fd;
	  c->peek_fd = NULL;
	}
      else
	c->fd = gomp_hs_fd_get (s, c->arg[0]);
      if (c->fd == NULL)
	{
	  gomp_hs_fail (c, EBADF);
	  return 0;
	}
    }
  return 1;
}

/* Start a call from request R.  Returns 0 if it was rejected (result in
   C).  */

static int
hs_start (struct gomp_host_service *s, struct hs_ctx *c,
	  const struct gomp_hs_request *r)
{
  /* The descriptor the round was judged by (gomp_hs_round_may_block):
     the one the call uses, even if another device thread has closed
     the number and opened another file since.  */
  struct hs_fd *peek = c->peek_fd;
  int ok;
  c->peek_fd = NULL;
  gomp_hs_reset_ctx (s, c);
  c->peek_fd = peek;
  ok = hs_start_1 (s, c, r);
  gomp_hs_fd_put (s, c->peek_fd);
  c->peek_fd = NULL;
  return ok;
}

/* Input complete: run the call.  */

static void
hs_run (struct gomp_host_service *s, struct hs_ctx *c)
{
  const struct hs_op *o = &gomp_hs_ops[c->op];
  if ((o->in == HS_IN_PATH || o->in == HS_IN_PATH2)
      && !hs_paths_ok (c->stage, c->stage_len, o->in == HS_IN_PATH2 ? 2 : 1))
    {
      gomp_hs_fail (c, EINVAL);
      return;
    }
  o->fn (s, c);
}

/* Take in an input round of LEN bytes; then ask for the next one, or
   run the call and reply with its (first) output.  Returns whether the
   call is over.  */

static int
hs_input_round (struct gomp_host_service *s, struct hs_ctx *c,
		const unsigned char *in, uint64_t len)
{
  if (!hs_input (s, c, in, len))
    return hs_reply_out (s, c);
  if (c->in_recv < c->in_total)
    {
      hs_more_in (c);
      return 0;
    }
  hs_run (s, c);
  /* A write the poller could not finish without blocking: a worker
     writes the rest and replies (gomp_hs_resume).  */
  if (c->deferred)
    return 0;
  return hs_reply_out (s, c);
}

/* Finish, on a worker, the round of the write in C that the poller
   began and left (C->DEFERRED): write the rest of its stage, blocking as
   a write does, and reply.  Returns whether the call is over.  */

int
gomp_hs_resume (struct gomp_host_service *s, struct hs_ctx *c)
{
  c->deferred = 0;
  gomp_hs_do_write (s, c);
  return hs_reply_out (s, c);
}

/* The rest of that round cannot go to a worker (none can be started:
   ERR is EAGAIN; or shutdown: ECANCELED).  The poller must not block
   on it: the call ends with what was written, a short write as POSIX
   allows, or fails with ERR if nothing was.  Returns whether the call
   is over (it is).  */

int
gomp_hs_give_up_deferred (struct gomp_host_service *s, struct hs_ctx *c,
			  int err)
{
  c->deferred = 0;
  c->stage_len = 0;
  gomp_hs_end_stream (c, 0, err);
  return hs_reply_out (s, c);
}

/* Whether OP runs the program's own code: a named host callback or a
   reverse-offload region.  */

int
gomp_hs_callback_op (uint32_t op)
{
  return op == GOMP_HS_OP_HOST_CALL || op == GOMP_HS_OP_TARGET_REV;
}

/* The final reply SEQ of port I is about to be published: if the
   program's own server (process mode) has the port, it is the server
   process's again, from the next round on (struct hs_fwd_port).  */

void
gomp_hs_fwd_return (struct gomp_host_service *s, uint32_t i, uint32_t seq)
{
  if (s->fwd == NULL || s->helper_sock >= 0
      || __atomic_load_n (&s->fwd_all, __ATOMIC_ACQUIRE))
    return;
  s->fwd[i].last = seq;
  __atomic_store_n (&s->fwd[i].fwd, 0, __ATOMIC_RELEASE);
  /* By whoever owns the context (the poller, or the worker that
     answers, whose store of OWNER publishes it): should the server
     process die before the poller looks again, the port's last answer
     is not this one (hs_fwd_mine).  */
  s->ctx[i].forwarded = 0;
}

/* Whether a request's length and flags can be believed at all.  */

static int
hs_request_ok (struct gomp_host_service *s, const struct gomp_hs_request *r)
{
  return r->len <= s->buf_size
	 && (r->flags == GOMP_HS_REQ_FIRST || r->flags == GOMP_HS_REQ_CONT);
}

/* Whether serving round R of the call in C (R's length and flags
   checked) runs the op's handler, which the input so far does not.  */

static int
hs_round_runs_handler (struct gomp_host_service *s, struct hs_ctx *c,
		       const struct gomp_hs_request *r)
{
  uint64_t in_recv = r->flags == GOMP_HS_REQ_FIRST ? 0 : c->in_recv;
  uint64_t in_total = r->flags == GOMP_HS_REQ_FIRST ? r->total : c->in_total;
  uint32_t op = r->flags == GOMP_HS_REQ_FIRST ? r->op : c->op;
  if (r->flags == GOMP_HS_REQ_CONT && in_recv >= in_total)
    /* An output round: READ reads its next block when the last is
       sent.  */
    return op == GOMP_HS_OP_READ && c->out_sent == c->out_len
	   && c->more_out && !c->ended;
  if (r->len > in_total - in_recv)
    return 0;
  if (in_recv + r->len >= in_total)
    return 1;
  /* A streamed write flushes when its stage is full.  */
  return op == GOMP_HS_OP_WRITE
	 && (r->flags == GOMP_HS_REQ_FIRST ? 0 : c->stage_len) + r->len
	    > s->staging;
}

/* Whether serving round R of port context C may block, and so must not
   run on the poller: HS_ROUND_POLLER, HS_ROUND_WORKER, or HS_ROUND_TRY
   for the last input round of a write to a pipe, FIFO, terminal or
   socket that the poller can try without blocking (all of its data in
   the stage, so that no flush to make room comes first).  */

int
gomp_hs_round_may_block (struct gomp_host_service *s, struct hs_ctx *c,
			 const struct gomp_hs_request *r)
{
  uint32_t op;
  const struct hs_op *o;
  struct hs_fd *e;
  int kind, first, ret = HS_ROUND_POLLER;
  if (!hs_request_ok (s, r))
    return HS_ROUND_POLLER;
  first = r->flags == GOMP_HS_REQ_FIRST;
  op = first ? r->op : c->op;
  if (op == 0 || op >= GOMP_HS_OP_MAX || (!first && r->op != c->op))
    return HS_ROUND_POLLER;
  o = &gomp_hs_ops[op];
  /* Refused at once by the program's server in process mode
     (hs_start_1).  */
  if (s->fwd != NULL && s->helper_sock < 0 && !gomp_hs_callback_op (op))
    return HS_ROUND_POLLER;
  /* A write's input round flushes the stage on the poller when the stage
     cannot grow (hs_input): not to a descriptor that may block.
     Growing it here is what hs_input would do first.  */
  if (op == GOMP_HS_OP_WRITE && !first && c->fd != NULL
      && gomp_hs_fd_kind (c->fd) != HS_FD_LOCAL
      && !gomp_hs_reserve (s, c, c->stage_len + r->len + 1))
    return HS_ROUND_WORKER;
  if (!(o->flags & (HS_OP_BLOCKS | HS_OP_FD_IO | HS_OP_FD_META))
      || !hs_round_runs_handler (s, c, r))
    return HS_ROUND_POLLER;
  if (o->flags & HS_OP_BLOCKS)
    return HS_ROUND_WORKER;
  /* A first round: the call gets the descriptor looked up here
     (PEEK_FD), not the one the number names when it starts, so that
     what it is judged by is what it uses.  */
  if (first)
    {
      gomp_hs_fd_put (s, c->peek_fd);
      c->peek_fd = gomp_hs_fd_get (s, r->arg[0]);
    }
  e = first ? c->peek_fd : c->fd;
  kind = e != NULL ? gomp_hs_fd_kind (e) : HS_FD_LOCAL;
  if (kind == HS_FD_REMOTE)
    ret = HS_ROUND_WORKER;
  else if (op == GOMP_HS_OP_WRITE && e != NULL && gomp_hs_fd_std (e)
	   && gomp_hs_fd_host (e) == 1 && __fpending (stdout) != 0)
    /* What the program left in stdout's buffer is written first, with
       fflush, which may block and takes stdout's lock (which a host
       thread may hold while it waits for the kernel): on a worker.
       __fpending takes no lock; a host thread that writes meanwhile
       writes at the same time as the device anyway.  */
    ret = HS_ROUND_WORKER;
  else if (kind == HS_FD_STREAM && (o->flags & HS_OP_FD_IO))
    {
      uint64_t staged = (first ? 0 : c->stage_len) + r->len;
      uint64_t recv = (first ? 0 : c->in_recv) + r->len;
      ret = (op == GOMP_HS_OP_WRITE
	     && recv == (first ? r->total : c->in_total)
	     && staged <= s->staging && gomp_hs_fd_prepare_nb (e)
	     ? HS_ROUND_TRY : HS_ROUND_WORKER);
    }
  return ret;
}

/* Serve round R of the call in C, whose payload (R->len bytes) is at IN;
   leave the reply in C.  Returns whether the call is over.  The region is
   not touched.  */

int
gomp_hs_round (struct gomp_host_service *s, struct hs_ctx *c,
	       const struct gomp_hs_request *r, const unsigned char *in)
{
  if (!hs_request_ok (s, r))
    {
      /* Nothing in it can be believed.  */
      gomp_hs_reset_ctx (s, c);
      c->op = r->op < GOMP_HS_OP_MAX ? r->op : 0;
      gomp_hs_fail (c, EINVAL);
      return hs_reply_out (s, c);
    }
  if (r->flags == GOMP_HS_REQ_FIRST)
    return hs_start (s, c, r) ? hs_input_round (s, c, in, r->len)
			      : hs_reply_out (s, c);
  if (c->op == 0 || r->op != c->op)
    {
      /* A continuation of no call, or of another one; in process mode,
	 once the server process is gone, of a call it had begun.  */
      int err = __atomic_load_n (&s->refuse_err, __ATOMIC_ACQUIRE);
      gomp_hs_reset_ctx (s, c);
      gomp_hs_fail (c, err ? err : GOMP_HS_EPROTO);
      return hs_reply_out (s, c);
    }
  if (c->in_recv < c->in_total)
    return hs_input_round (s, c, in, r->len);
  /* Next output round.  */
  if (r->len != 0)
    {
      gomp_hs_fail (c, EINVAL);
      c->out_len = c->out_sent = 0;
      c->ended = 1;
    }
  else if (c->out_sent == c->out_len && c->more_out && !c->ended)
    gomp_hs_do_read (s, c);
  return hs_reply_out (s, c);
}

/* Answer round R of the call in C with ERR instead of serving it (the
   call is over).  */

void
gomp_hs_fail_round (struct hs_ctx *c, const struct gomp_hs_request *r,
		    int err)
{
  if (r->flags == GOMP_HS_REQ_FIRST || c->op == 0)
    c->op = r->op < GOMP_HS_OP_MAX ? r->op : 0;
  c->more_out = 0;
  c->ended = 1;
  c->out_len = c->out_sent = 0;
  gomp_hs_fail (c, err);
  c->r_flags = 0;
  c->r_len = 0;
  c->r_off = 0;
  c->r_ret = c->ret;
  c->r_err = c->err;
}

/* Write the reply in C into port I and publish it as sequence SEQ.  The
   caller may write the region (host-service-internal.h).  */

void
gomp_hs_write_reply (struct gomp_host_service *s, uint32_t i,
		     struct hs_ctx *c, uint32_t seq)
{
  volatile struct gomp_hs_port *p = gomp_hs_port (s, i);
  int32_t err = c->r_err;
  /* The reply has 10 bits for errno: anything else (a validator's own
     code) is reported as EINVAL.  */
  if (err < 0 || err > GOMP_HS_ERRNO_MAX)
    err = EINVAL;
  if (c->r_len)
    memcpy ((unsigned char *) gomp_hs_buf (s, i), c->stage + c->r_off,
	    c->r_len);
  p->rep.ret = c->r_ret;
  p->rep.info = GOMP_HS_INFO (c->r_flags, err, c->r_len);
  if (c->r_flags == 0)
    gomp_hs_fwd_return (s, i, seq);
  __atomic_store_n (&p->rep.seq, seq, __ATOMIC_RELEASE);
  __atomic_fetch_add (&s->served, 1, __ATOMIC_RELAXED);
}

/* A server for REGION (SIZE bytes, from GOMP_PLUGIN_host_service_size),
   configured from the environment; LAY_OUT: zero the region and write
   its header (not for the program's own server in process mode, whose
   region the server process lays out).  NULL on failure.  */

struct gomp_host_service *
gomp_hs_server_new (void *region, size_t size, int lay_out)
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
  if (s->ctx == NULL || !gomp_hs_fd_init (s))
    {
      free (s->ctx);
      free (s->fds);
      free (s);
      return NULL;
    }
  s->helper_sock = -1;
  s->region = region;
  s->region_size = size;
  s->target_id = -1;
  s->nports = nports;
  s->buf_size = buf_size;
  s->policy = hs_env_policy ();
  s->staging = gomp_hs_env_ulong ("GOMP_HOST_SERVICES_STAGING",
				  HS_DEFAULT_STAGING, buf_size,
				  (size_t) 1 << 30);
  s->staged_max = gomp_hs_env_ulong ("GOMP_HOST_SERVICES_STAGING_MAX",
				     HS_DEFAULT_STAGING_MAX, s->staging,
				     (size_t) 1 << 40);
  s->poll_sleep_us = gomp_hs_env_ulong ("GOMP_HOST_SERVICES_POLL_SLEEP",
					HS_DEFAULT_POLL_SLEEP, 1, 100000);
  if (!gomp_hs_path_init (s))
    {
      gomp_hs_fd_close_all (s);
      gomp_hs_fd_fini (s);
      free (s->ctx);
      free (s);
      return NULL;
    }
  for (int k = 0; k < 2; k++)
    {
      pthread_cond_init (&s->pool[k].cond, NULL);
      s->pool[k].max = nports;
    }
  s->pool[HS_POOL_FILES].confined = s->landlock_fd >= 0;
  s->refs = 1;
  pthread_mutex_init (&s->lock, NULL);
  pthread_mutex_init (&s->reply_lock, NULL);
  pthread_cond_init (&s->poller_cond, NULL);
  pthread_cond_init (&s->idle_cond, NULL);
  if (!lay_out)
    return s;

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

/* Set up REGION (SIZE bytes, from GOMP_PLUGIN_host_service_size) and
   return the server for it: in this process, or with
   GOMP_HOST_SERVICES_SERVER=process a process of its own
   (host-service-process.c).  */

struct gomp_host_service *
GOMP_PLUGIN_host_service_init (void *region, size_t size)
{
  switch (gomp_hs_server_mode ())
    {
    case HS_SERVER_THREAD:
      return gomp_hs_server_new (region, size, 1);
    case HS_SERVER_PROCESS:
      return gomp_hs_proc_init (region, size);
    default:
      return NULL;
    }
}

/* The device S serves, as its plugin numbers it: reverse-offload regions
   (target-rev.c) look up what is mapped on it.  */

void
GOMP_PLUGIN_host_service_device (struct gomp_host_service *s, int target_id)
{
  s->target_id = target_id;
}

/* The region's geometry, for the plugin to pass on to the device.  */

void
GOMP_PLUGIN_host_service_geometry (struct gomp_host_service *s,
				   unsigned *nports, unsigned *buf_size)
{
  *nports = s->nports;
  *buf_size = s->buf_size;
}

/* The last reference to S is gone: no thread uses it any more.  */

void
gomp_hs_free (struct gomp_host_service *s)
{
  uint32_t i;
  if (s->proc)
    gomp_hs_proc_free (s);
  gomp_debug (0, "host-service: %llu requests served\n", s->served);
  for (i = 0; i < s->nports; i++)
    {
      gomp_hs_reset_ctx (s, &s->ctx[i]);
      gomp_hs_release_stage (s, &s->ctx[i]);
      free (s->ctx[i].inbuf);
    }
  gomp_hs_fd_close_all (s);
  gomp_hs_fd_fini (s);
  gomp_hs_path_fini (s);
  free (s->ctx);
  pthread_mutex_destroy (&s->lock);
  pthread_mutex_destroy (&s->reply_lock);
  pthread_cond_destroy (&s->poller_cond);
  pthread_cond_destroy (&s->pool[0].cond);
  pthread_cond_destroy (&s->pool[1].cond);
  pthread_cond_destroy (&s->idle_cond);
  free (s);
}
