/* Host services: the threads that serve requests.
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

/* Every region has one poller thread, started with the first kernel that
   may call the host.  While such kernels run it scans the ports: it
   spins for a while after each request, then sleeps between scans,
   GOMP_HOST_SERVICES_POLL_SLEEP microseconds (default 10) each time, with
   its timer slack cut to a microsecond (Linux's default slack, 50
   microseconds, would add that much to every sleep), so a call that comes
   after a quiet spell of a few seconds waits about as long as one sleep
   (bench: "first call after idle"); after HS_QUIET_LONG_S seconds without
   a request, ten times as long.  The cost is the poller's wake-ups while
   a kernel runs without calling (bench: "idle poller": measured in
   bench/results/); the device has no way of waking a host thread.
   While no kernel runs it sleeps on a condition variable.  It makes no
   CUDA call and never blocks: a round whose op may block (an open, a read
   from a pipe or a terminal, an fsync, a user callback, any call on a
   file of a network file system; host-service-ops.c and
   host-service-fd.c say which) goes to a worker thread, and the poller
   goes on serving the other ports.  A write to a pipe, a terminal or a
   socket is tried on the poller without blocking first, and only what
   does not fit goes to a worker.  Workers are started on demand, up to
   one per port, so a port blocked for good never holds up another.

   KERNELS.  The plugin brackets every launch of a kernel whose image uses
   host services with GOMP_PLUGIN_host_service_kernel_begin and
   GOMP_PLUGIN_host_service_kernel_end; the latter only decrements a
   counter and drops a reference, so it may be called from any thread
   (no blocking, no CUDA call), and late: the nvptx plugin tells the end
   of a kernel launched on a stream at its next launch or wait, not when
   the kernel ends, so the poller scans for a while after the last
   kernel ended.  When the poller finds no kernel running, any call left
   half done was abandoned by its kernel (which ended or trapped
   mid-call): the poller forgets it itself, between two scans, so it can
   never mistake the first round of a kernel that started since for an
   abandoned one.  Until then a FIRST request on its port starts a new
   call anyway (host-service.h).

   LIFETIME.  The server is reference counted: the plugin's reference, one
   per running kernel (so an end told after teardown finds it alive),
   one per worker.  Teardown is two steps, with the plugin's
   wait for the device between them:

     GOMP_PLUGIN_host_service_shutdown: from now on every new call is
       refused (ECANCELED) at once, so a kernel that still calls the host
       runs to its end instead of waiting for a server that is going
       away; waits that can last (pipes, FIFOs) give way; busy workers get
       a moment to finish, and rounds still held by workers after it
       (a callback that does not return, a write to a full pipe) are
       answered with ECANCELED on their behalf.  Such a port is then the
       poller's again (HS_OWNER_ORPHAN, below), though its worker may
       never return: the device thread that was answered lets go of the
       port, and the next call on it, its own or another thread's, must
       be answered too, or the kernel never ends and the plugin's wait
       for the device never returns.  When called on a worker
       thread -- device work refused from a callback ends in exit, whose
       atexit handlers tear the device down on that very thread -- the
       round that thread is serving is answered first, or the kernel
       would wait for it forever.
     (the plugin waits for the device to be idle)
     GOMP_PLUGIN_host_service_fini: stops the poller (joined: it never
       blocks), detaches the region (a worker that returns later finds it
       gone and writes nothing), closes the device's descriptors (those
       that calls still use, when they end) and drops the plugin's
       reference.  Nothing waits for a worker stuck in a callback.  After
       it, the plugin may free the region.  */

#define _GNU_SOURCE 1
#include "libgomp.h"
#include "host-service-internal.h"
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* How long shutdown lets busy workers finish their rounds.  */
#define HS_SHUTDOWN_GRACE_MS	2000
/* How often waits that give way to shutdown look at it.  */
#define HS_WAIT_SLICE_MS	100
/* The poller spins this many empty scans after a request, then sleeps
   between scans.  */
#define HS_IDLE_SLEEP		2000
/* Its timer slack, nanoseconds.  */
#define HS_POLL_SLACK_NS	1000
/* After this many seconds without a request it sleeps ten times as long
   between scans.  */
#define HS_QUIET_LONG_S		5
/* Process mode: how long the program's own server, with no port handed
   over, sleeps between scans.  */
#define HS_FWD_IDLE_US		1000

/* The server whose worker this thread is, and the port it serves.  */
static __thread struct gomp_host_service *hs_self;
static __thread struct hs_ctx *hs_self_ctx;
/* Whether this thread is a poller (or scans for one: gomp_hs_poll_once).  */
static __thread int hs_poller_thread;

int
gomp_hs_on_poller (void)
{
  return hs_poller_thread;
}

int
gomp_hs_closing (struct gomp_host_service *s)
{
  return __atomic_load_n (&s->closing, __ATOMIC_ACQUIRE);
}

/* Wait until HFD is ready for EVENTS: 0, or -1 with errno ECANCELED when
   shutdown starts first.  */

int
gomp_hs_wait_fd (struct gomp_host_service *s, int hfd, short events)
{
  struct pollfd p;
  for (;;)
    {
      int r;
      if (gomp_hs_closing (s))
	{
	  errno = ECANCELED;
	  return -1;
	}
      p.fd = hfd;
      p.events = events;
      p.revents = 0;
      r = poll (&p, 1, HS_WAIT_SLICE_MS);
      if (r > 0)
	return 0;	/* Ready, or an error the I/O call will report.  */
      if (r < 0 && errno != EINTR)
	return 0;
    }
}

static void
hs_ref (struct gomp_host_service *s)
{
  __atomic_fetch_add (&s->refs, 1, __ATOMIC_RELAXED);
}

void
gomp_hs_unref (struct gomp_host_service *s)
{
  if (__atomic_sub_fetch (&s->refs, 1, __ATOMIC_ACQ_REL) == 0)
    gomp_hs_free (s);
}

static double
hs_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
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

/* Answer round SEQ of port I with ECANCELED: the final reply of its
   call, without payload.  */

static void
hs_write_cancel (struct gomp_host_service *s, uint32_t i, uint32_t seq)
{
  volatile struct gomp_hs_port *p = gomp_hs_port (s, i);
  p->rep.ret = -1;
  p->rep.info = GOMP_HS_INFO (0, ECANCELED, 0);
  gomp_hs_fwd_return (s, i, seq);
  __atomic_store_n (&p->rep.seq, seq, __ATOMIC_RELEASE);
  __atomic_fetch_add (&s->served, 1, __ATOMIC_RELAXED);
}

/* Answer the round of port I that a worker holds with ECANCELED, on its
   behalf, and give the port back to the poller.  Caller holds
   REPLY_LOCK; the region is attached.

   ORPHANS.  The worker keeps the call's state (it may still be running
   the op, and may never return), but the port is the poller's from now
   on: PENDING is clear, so the worker never writes the region again,
   whenever it returns; and OWNER is HS_OWNER_ORPHAN, so the poller answers
   every later round on the port itself, with ECANCELED, touching nothing
   of the context but ANSWERED, which only the poller ever touches.  The
   store comes under REPLY_LOCK after the hand-off's store of
   HS_OWNER_WORKER (hs_enqueue stores it under REPLY_LOCK with PENDING
   set, which this needs) and before the worker's store of
   HS_OWNER_POLLER (hs_serve_handed stores it after its own section under
   REPLY_LOCK, which finds PENDING clear): whichever the worker does
   last, the poller sees each port as exactly one of its three states, so
   the reply to any round is written once and by one thread.  */

static void
hs_answer_for_worker (struct gomp_host_service *s, uint32_t i)
{
  struct hs_ctx *c = &s->ctx[i];
  gomp_debug (0, "host-service: port %u: %s cancelled by shutdown\n", i,
	      gomp_hs_op_name (c->op ? c->op : c->req.op));
  hs_write_cancel (s, i, c->pending_seq);
  c->pending = 0;
  __atomic_store_n (&c->owner, HS_OWNER_ORPHAN, __ATOMIC_RELEASE);
}

/* Workers.  */

/* Serve the round handed to the worker in C.  */

static void
hs_serve_handed (struct gomp_host_service *s, struct hs_ctx *c)
{
  uint32_t i = c - s->ctx;
  int over = 0, mine;
  /* A round that shutdown answered while it waited in the queue is not
     run: the device has its result already.  */
  pthread_mutex_lock (&s->reply_lock);
  mine = c->pending;
  pthread_mutex_unlock (&s->reply_lock);
  if (mine)
    {
      hs_self_ctx = c;
      if (c->resume)
	/* The rest of a write the poller began (hs_hand_off_rest).  */
	over = gomp_hs_resume (s, c);
      else
	over = gomp_hs_round (s, c, &c->req, c->inbuf);
      hs_self_ctx = NULL;
    }
  c->resume = 0;
  pthread_mutex_lock (&s->reply_lock);
  mine = c->pending;
  if (mine && !s->detached)
    gomp_hs_write_reply (s, i, c, c->pending_seq);
  c->pending = 0;
  pthread_mutex_unlock (&s->reply_lock);
  /* If shutdown answered for us, the device has its result already.  */
  if (over || !mine)
    gomp_hs_end_call (s, i, c);
  __atomic_store_n (&c->owner, HS_OWNER_POLLER, __ATOMIC_RELEASE);
}

/* A worker thread of pool POOL of S.  */

struct hs_worker_arg
{
  struct gomp_host_service *s;
  struct hs_pool *pool;
};

static void *
hs_worker (void *arg)
{
  struct hs_worker_arg *w = arg;
  struct gomp_host_service *s = w->s;
  struct hs_pool *pool = w->pool;
  free (w);
  hs_self = s;
#ifdef PR_SET_TIMERSLACK
  /* The poller that started it cut its own; back to the default.  */
  prctl (PR_SET_TIMERSLACK, 0, 0, 0, 0);
#endif
  /* Workers for file operations confine themselves to the root, if there
     is one; this thread alone (host-service-fd.c).  */
  if (pool->confined && !gomp_hs_confine_thread (s))
    gomp_debug (0, "host-service: worker not confined by Landlock\n");
  pthread_mutex_lock (&s->lock);
  for (;;)
    {
      struct hs_ctx *c;
      while (pool->head == NULL && !s->stop)
	{
	  pool->idle++;
	  pthread_cond_wait (&pool->cond, &s->lock);
	  pool->idle--;
	}
      if (pool->head == NULL)
	break;
      c = pool->head;
      pool->head = c->next;
      if (pool->head == NULL)
	pool->tail = NULL;
      pool->queued--;
      s->busy_workers++;
      pthread_mutex_unlock (&s->lock);
      hs_serve_handed (s, c);
      pthread_mutex_lock (&s->lock);
      s->busy_workers--;
      pthread_cond_broadcast (&s->idle_cond);
    }
  pool->workers--;
  pthread_cond_broadcast (&s->idle_cond);
  pthread_mutex_unlock (&s->lock);
  hs_self = NULL;
  gomp_hs_unref (s);
  return NULL;
}

/* Queue C, whose round is SEQ, for a worker of POOL, starting one if none
   is idle.  Returns 1 if it is queued; 0 if no worker can serve it (none
   runs and none could be started): see hs_hand_off; -1 if it comes too
   late (below): the poller refuses it.

   The round becomes the worker's (PENDING and HS_OWNER_WORKER) only once
   it is sure to be queued, under LOCK and REPLY_LOCK: shutdown, which
   answers every PENDING round, can never answer one that the poller
   then serves after all (that was a second reply to one round, which
   could land on the port's next call).  And a round handed off after
   shutdown has answered for the workers would never be answered if its
   op never returned (the poller may have read CLOSING before shutdown
   set it, and been held up past the grace period): HANDOFFS_CLOSED,
   which shutdown sets in the same section of REPLY_LOCK in which it
   answers, refuses it.  port-protocol.pml models all three outcomes.  */

static int
hs_enqueue (struct gomp_host_service *s, struct hs_pool *pool,
	    struct hs_ctx *c, uint32_t seq)
{
  int ok = 1;
  pthread_mutex_lock (&s->lock);
  /* Every queued round needs an idle worker of its own: one that blocks
     must not hold up the next.  (At most one round per port is ever
     queued or served, so MAX, the number of ports, is enough.)  */
  if (pool->idle <= pool->queued && pool->workers < pool->max)
    {
      pthread_t t;
      pthread_attr_t attr;
      struct hs_worker_arg *w = malloc (sizeof *w);
      if (w != NULL)
	{
	  w->s = s;
	  w->pool = pool;
	  pthread_attr_init (&attr);
	  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
	  hs_ref (s);
	  pool->workers++;
	  if (pthread_create (&t, &attr, hs_worker, w) != 0)
	    {
	      pool->workers--;
	      __atomic_fetch_sub (&s->refs, 1, __ATOMIC_RELAXED);
	      free (w);
	    }
	  pthread_attr_destroy (&attr);
	}
    }
  if (pool->workers == 0)
    ok = 0;
  else
    {
      pthread_mutex_lock (&s->reply_lock);
      if (s->handoffs_closed)
	ok = -1;
      else
	{
	  c->pending = 1;
	  c->pending_seq = seq;
	  __atomic_store_n (&c->owner, HS_OWNER_WORKER, __ATOMIC_RELEASE);
	}
      pthread_mutex_unlock (&s->reply_lock);
    }
  if (ok > 0)
    {
      c->next = NULL;
      if (pool->tail)
	pool->tail->next = c;
      else
	pool->head = c;
      pool->tail = c;
      pool->queued++;
      pthread_cond_signal (&pool->cond);
    }
  pthread_mutex_unlock (&s->lock);
  return ok;
}

/* The poller.  */

/* Hand round R (sequence SEQ) of port I to a worker.  Returns 1 if it
   is queued; 0 if the poller must serve it itself after all; else minus
   the errno with which the poller must refuse it: ECANCELED when it
   comes too late (hs_enqueue), EAGAIN (or ENOMEM) when no worker can
   take it.

   NO WORKER.  When no worker runs and none can be started (or the
   worker's copy of the request cannot be allocated), the poller does
   not serve a round that may block itself, since while it does it
   serves no other port: a host callback or a reverse-offload region
   that never returns, or a read of a pipe nobody writes, would stop
   every port of the device for good.  The call fails with EAGAIN
   (ENOMEM) instead, before any of it has been done, and the device may
   try again.  Two kinds of round are still served by the poller, as
   before: EXIT, which ends the process within its own deadline
   (hs_do_exit), and a later round of a file call whose earlier rounds
   a worker already served (written data would otherwise be lost).  */

static int
hs_hand_off (struct gomp_host_service *s, uint32_t i,
	     const struct gomp_hs_request *r, uint32_t seq)
{
  struct hs_ctx *c = &s->ctx[i];
  uint32_t op = r->flags == GOMP_HS_REQ_FIRST ? r->op : c->op;
  /* Named host callbacks and reverse-offload regions are the program's
     own code: they never run on a thread confined to the root.  */
  int calls = op == GOMP_HS_OP_HOST_CALL || op == GOMP_HS_OP_TARGET_REV;
  int refuse = op != GOMP_HS_OP_EXIT
	       && (calls || r->flags == GOMP_HS_REQ_FIRST);
  int ok;
  if (c->inbuf == NULL && (c->inbuf = malloc (s->buf_size)) == NULL)
    return refuse ? -ENOMEM : 0;
  /* The worker must not read the region: give it its own copy.  */
  memcpy (c->inbuf, (const unsigned char *) gomp_hs_buf (s, i), r->len);
  c->req = *r;
  ok = hs_enqueue (s, &s->pool[calls ? HS_POOL_CALLS : HS_POOL_FILES], c,
		   seq);
  if (ok < 0)
    return -ECANCELED;
  if (ok == 0 && refuse)
    {
      gomp_debug (0, "host-service: port %u: no worker for %s; refused"
		  " with EAGAIN\n", i, gomp_hs_op_name (op));
      return -EAGAIN;
    }
  return ok;
}

/* Hand the rest of the write round SEQ of port I, which the poller began
   without blocking and could not finish (C->DEFERRED: gomp_hs_do_write),
   to a worker, which writes it and replies (gomp_hs_resume): the data is
   in the context's stage already, not in the region.  Returns 1 if it
   is queued, else minus the errno with which the poller ends the call
   (gomp_hs_give_up_deferred: a short write, if anything was written).  */

static int
hs_hand_off_rest (struct gomp_host_service *s, uint32_t i, uint32_t seq)
{
  struct hs_ctx *c = &s->ctx[i];
  int ok;
  c->resume = 1;
  ok = hs_enqueue (s, &s->pool[HS_POOL_FILES], c, seq);
  if (ok > 0)
    return 1;
  c->resume = 0;
  return ok < 0 ? -ECANCELED : -EAGAIN;
}

/* Process mode (host-service-process.c): whether the poller of S may
   look at port I (context C, control block P) now.

   In the server process: every port but those handed over to the
   program; when the program hands one back (FWD clear, after LAST), the
   last round it answered is the last one answered.

   In the program's own server: only ports handed over, whose first
   round, FIRST, is the next it has not answered; and once the server
   process is gone (FWD_ALL), every port, each from the last reply
   written on it, by whichever server.  Between the hand-over and the
   final reply exactly one server looks at a port: FWD is set after the
   server process took the first round and looks no more, and cleared by
   the program's server before the final reply, which the device must
   see before it publishes the next round.  The server process may write
   these words as it likes (it is not trusted once subverted): the
   program's server then serves, as requests of the device, rounds that
   are callbacks and refuses all others (hs_start_1); it is made to do
   nothing else.  tests/models/process-handover.pml models the hand-over,
   abandoned callbacks and the server process's death, with a negative
   case for each rule (neg-process-handover*.pml).  */

static int
hs_fwd_mine (struct gomp_host_service *s, uint32_t i, struct hs_ctx *c,
	     volatile struct gomp_hs_port *p)
{
  uint32_t f = __atomic_load_n (&s->fwd[i].fwd, __ATOMIC_ACQUIRE);
  if (s->helper_sock >= 0)
    {
      if (!c->forwarded)
	return 1;
      if (f)
	return 0;
      c->answered = s->fwd[i].last;
      c->forwarded = 0;
      return 1;
    }
  if (!f && !__atomic_load_n (&s->fwd_all, __ATOMIC_ACQUIRE))
    {
      c->forwarded = 0;
      return 0;
    }
  if (!c->forwarded)
    {
      c->forwarded = 1;
      c->answered = f ? s->fwd[i].first - 1
		      : __atomic_load_n (&p->rep.seq, __ATOMIC_ACQUIRE);
    }
  return 1;
}

/* Serve every port the poller owns that has a request waiting.  Returns
   how many.  */

static unsigned
hs_poll_pass (struct gomp_host_service *s)
{
  unsigned n = 0;
  uint32_t i;
  int closing = gomp_hs_closing (s);
  for (i = 0; i < s->nports; i++)
    {
      volatile struct gomp_hs_port *p = gomp_hs_port (s, i);
      struct hs_ctx *c = &s->ctx[i];
      struct gomp_hs_request r;
      uint32_t seq;
      int over, handed = 0, where = HS_ROUND_POLLER;
      int owner = __atomic_load_n (&c->owner, __ATOMIC_ACQUIRE);
      if (owner == HS_OWNER_WORKER)
	continue;
      if (s->fwd != NULL && !hs_fwd_mine (s, i, c, p))
	continue;
      seq = __atomic_load_n (&p->dev_seq, __ATOMIC_ACQUIRE);
      if (seq == c->answered)
	continue;
      c->answered = seq;
      n++;
      if (owner == HS_OWNER_ORPHAN)
	{
	  /* Shutdown answered this port's worker, which has not returned:
	     the context is still the worker's, the port is ours
	     (hs_answer_for_worker).  Every round is refused; the request
	     is not even read.  */
	  gomp_debug (0, "host-service: port %u: call refused, its worker"
		      " is still busy after shutdown\n", i);
	  hs_write_cancel (s, i, seq);
	  continue;
	}
      /* Copy the request out of the region; it is untrusted from here
	 on.  */
      r.op = p->req.op;
      r.flags = p->req.flags;
      for (int k = 0; k < 4; k++)
	r.arg[k] = p->req.arg[k];
      r.len = p->req.len;
      r.total = p->req.total;
      if (s->fwd != NULL && s->helper_sock < 0
	  && !__atomic_load_n (&s->fwd_all, __ATOMIC_ACQUIRE)
	  && r.flags == GOMP_HS_REQ_FIRST && !gomp_hs_callback_op (r.op))
	{
	  /* The program's server: the device abandoned the callback it
	     was handed (a new call, or a new kernel): the port goes back
	     to the server process unanswered, which serves this round
	     (hs_fwd_mine).  */
	  gomp_hs_reset_ctx (s, c);
	  s->fwd[i].last = seq - 1;
	  __atomic_store_n (&s->fwd[i].fwd, 0, __ATOMIC_RELEASE);
	  c->forwarded = 0;
	  continue;
	}
      if (s->fwd != NULL && s->helper_sock >= 0 && !closing
	  && r.flags == GOMP_HS_REQ_FIRST && gomp_hs_callback_op (r.op))
	{
	  /* The server process: the program's own code runs in the
	     program (hs_fwd_mine).  */
	  gomp_hs_reset_ctx (s, c);
	  s->fwd[i].first = seq;
	  __atomic_store_n (&s->fwd[i].fwd, 1, __ATOMIC_RELEASE);
	  c->forwarded = 1;
	  continue;
	}
      if ((closing && (r.flags != GOMP_HS_REQ_CONT || c->op == 0))
	  || ((where = gomp_hs_round_may_block (s, c, &r)) == HS_ROUND_WORKER
	      && (handed = hs_hand_off (s, i, &r, seq)) < 0))
	{
	  /* Shutting down: no new calls, and nothing more for workers
	     once shutdown has answered for them.  Or no worker to take a
	     round that may block (hs_hand_off).  */
	  gomp_hs_fail_round (c, &r, handed < 0 ? -handed : ECANCELED);
	  gomp_hs_write_reply (s, i, c, seq);
	  gomp_hs_end_call (s, i, c);
	  continue;
	}
      if (handed > 0)
	continue;
      c->try_nb = where == HS_ROUND_TRY;
      over = gomp_hs_round (s, c, &r,
			    (const unsigned char *) gomp_hs_buf (s, i));
      c->try_nb = 0;
      if (c->deferred)
	{
	  /* The write did not fit: a worker writes the rest.  */
	  handed = hs_hand_off_rest (s, i, seq);
	  if (handed > 0)
	    continue;
	  over = gomp_hs_give_up_deferred (s, c, -handed);
	}
      gomp_hs_write_reply (s, i, c, seq);
      if (over)
	gomp_hs_end_call (s, i, c);
    }
  return n;
}

/* One scan of S's ports, on the calling thread, for tests and tools that
   drive the server without its poller (no kernel has begun on S).  */

unsigned
gomp_hs_poll_once (struct gomp_host_service *s)
{
  unsigned n;
  hs_poller_thread = 1;
  n = hs_poll_pass (s);
  hs_poller_thread = 0;
  return n;
}

/* Forget calls left half done: their kernels are gone.  */

static void
hs_discard_partial (struct gomp_host_service *s)
{
  uint32_t i;
  for (i = 0; i < s->nports; i++)
    {
      struct hs_ctx *c = &s->ctx[i];
      if (__atomic_load_n (&c->owner, __ATOMIC_ACQUIRE) == HS_OWNER_POLLER
	  && c->op != 0)
	{
	  gomp_debug (0, "host-service: port %u: %s abandoned by the device\n",
		      i, gomp_hs_op_name (c->op));
	  gomp_hs_reset_ctx (s, c);
	}
    }
}

/* Whether S is the program's own server in process mode and has no port
   to look at (hs_fwd_mine).  */

static int
hs_fwd_none (struct gomp_host_service *s)
{
  if (s->fwd == NULL || s->helper_sock >= 0
      || __atomic_load_n (&s->fwd_all, __ATOMIC_ACQUIRE))
    return 0;
  for (uint32_t i = 0; i < s->nports; i++)
    if (__atomic_load_n (&s->fwd[i].fwd, __ATOMIC_ACQUIRE))
      return 0;
  return 1;
}

/* Whether a kernel that may call the host runs.  In the server process
   (host-service-process.c) the application's count, not the mirror of
   it that brackets this server (which may lag behind: a kernel that
   began while the mirror still says the last one ended must not have
   its first call discarded as abandoned); its main thread wakes the
   poller whenever the count changes.  */

static int
hs_kernels_run (struct gomp_host_service *s)
{
  if (s->shared_active != NULL)
    return __atomic_load_n (s->shared_active, __ATOMIC_ACQUIRE) != 0;
  return __atomic_load_n (&s->active, __ATOMIC_ACQUIRE) != 0;
}

/* The server process: the count may have changed.  */

void
gomp_hs_wake_poller (struct gomp_host_service *s)
{
  pthread_mutex_lock (&s->lock);
  pthread_cond_broadcast (&s->poller_cond);
  pthread_mutex_unlock (&s->lock);
}

static void *
hs_poller (void *arg)
{
  struct gomp_host_service *s = arg;
  unsigned idle = 0;
  struct timespec ts = { 0, 0 };
  double quiet_since = 0;
  hs_poller_thread = 1;
#ifdef PR_SET_TIMERSLACK
  /* This thread's (the workers it starts reset theirs).  */
  prctl (PR_SET_TIMERSLACK, HS_POLL_SLACK_NS, 0, 0, 0);
#endif
  pthread_mutex_lock (&s->lock);
  for (;;)
    {
      while (!s->stop && !hs_kernels_run (s))
	{
	  /* No kernel runs: what is half done was abandoned (calls are
	     synchronous: a kernel that ends normally has none).  Nothing
	     is served between the check above and this: the first round
	     of a kernel that begins meanwhile waits for the next scan.  */
	  pthread_mutex_unlock (&s->lock);
	  hs_discard_partial (s);
	  gomp_hs_fd_idle (s);
	  pthread_mutex_lock (&s->lock);
	  if (s->stop || hs_kernels_run (s))
	    break;
	  pthread_cond_wait (&s->poller_cond, &s->lock);
	  /* A kernel began: sleep between scans until it makes a request,
	     spin only after one.  */
	  idle = HS_IDLE_SLEEP;
	}
      if (s->stop)
	break;
      pthread_mutex_unlock (&s->lock);
      if (hs_poll_pass (s))
	idle = 0;
      else if (idle > HS_IDLE_SLEEP)
	{
	  /* After HS_QUIET_LONG_S seconds without a request, ten times
	     longer: a kernel that computes for long without calling the
	     host costs less, and pays the longer wait once.  */
	  double t = hs_seconds ();
	  unsigned long us = s->poll_sleep_us;
	  if (quiet_since == 0)
	    quiet_since = t;
	  else if (t - quiet_since > HS_QUIET_LONG_S)
	    us *= 10;
	  ts.tv_sec = us / 1000000;
	  ts.tv_nsec = (long) (us % 1000000) * 1000;
	  if (hs_fwd_none (s))
	    {
	      /* The program's own server in process mode, with no port
		 handed over: a callback's first round waits a little
		 longer, the poller costs little.  */
	      ts.tv_sec = 0;
	      ts.tv_nsec = HS_FWD_IDLE_US * 1000L;
	    }
	  nanosleep (&ts, NULL);
	}
      else
	{
	  idle++;
	  quiet_since = 0;
	  hs_relax ();
	}
      pthread_mutex_lock (&s->lock);
    }
  pthread_mutex_unlock (&s->lock);
  return NULL;
}

/* A kernel that may call the host is about to run.  */

void
GOMP_PLUGIN_host_service_kernel_begin (struct gomp_host_service *s)
{
  if (s->proc)
    gomp_hs_proc_kernel_begin (s);
  hs_ref (s);
  pthread_mutex_lock (&s->lock);
  if (!s->poller_started)
    {
      if (pthread_create (&s->poller, NULL, hs_poller, s) != 0)
	{
	  pthread_mutex_unlock (&s->lock);
	  gomp_fatal ("host services: cannot start the server thread");
	}
      s->poller_started = 1;
    }
  if (__atomic_fetch_add (&s->active, 1, __ATOMIC_ACQ_REL) == 0)
    pthread_cond_signal (&s->poller_cond);
  pthread_mutex_unlock (&s->lock);
}

/* That kernel has ended (maybe some time ago).  Never blocks, makes no
   CUDA call: the plugin may call this from any thread.  */

void
GOMP_PLUGIN_host_service_kernel_end (struct gomp_host_service *s)
{
  if (s->proc)
    gomp_hs_proc_kernel_end (s);
  __atomic_fetch_sub (&s->active, 1, __ATOMIC_ACQ_REL);
  gomp_hs_unref (s);
}

/* Teardown, step one (see above).  */

void
GOMP_PLUGIN_host_service_shutdown (struct gomp_host_service *s)
{
  struct timespec deadline;
  uint32_t i;
  unsigned self;
  /* The server process first: it holds every port but those of
     callbacks.  */
  if (s != NULL && s->proc)
    gomp_hs_proc_shutdown (s);
  if (s == NULL || __atomic_exchange_n (&s->closing, 1, __ATOMIC_ACQ_REL))
    return;
  gomp_debug (0, "host-service: shutting down\n");

  /* The round this very thread serves, if it is a worker of S: nobody
     else will answer it.  */
  self = hs_self == s && hs_self_ctx != NULL;
  if (self)
    {
      pthread_mutex_lock (&s->reply_lock);
      if (hs_self_ctx->pending && !s->detached)
	hs_answer_for_worker (s, hs_self_ctx - s->ctx);
      pthread_mutex_unlock (&s->reply_lock);
    }

  /* Let busy workers finish (their waits give way to CLOSING now).  */
  clock_gettime (CLOCK_REALTIME, &deadline);
  deadline.tv_sec += HS_SHUTDOWN_GRACE_MS / 1000;
  deadline.tv_nsec += (HS_SHUTDOWN_GRACE_MS % 1000) * 1000000L;
  if (deadline.tv_nsec >= 1000000000L)
    {
      deadline.tv_sec++;
      deadline.tv_nsec -= 1000000000L;
    }
  pthread_mutex_lock (&s->lock);
  pthread_cond_broadcast (&s->pool[0].cond);
  pthread_cond_broadcast (&s->pool[1].cond);
  while (s->busy_workers > self
	 && pthread_cond_timedwait (&s->idle_cond, &s->lock, &deadline) == 0)
    ;
  pthread_mutex_unlock (&s->lock);

  /* Whatever workers still hold is answered for them.  */
  pthread_mutex_lock (&s->reply_lock);
  for (i = 0; !s->detached && i < s->nports; i++)
    if (s->ctx[i].pending)
      hs_answer_for_worker (s, i);
  s->handoffs_closed = 1;
  pthread_mutex_unlock (&s->reply_lock);
}

/* Teardown, step two (see above): the device is idle.  */

void
GOMP_PLUGIN_host_service_fini (struct gomp_host_service *s)
{
  uint32_t i;
  if (s == NULL)
    return;
  GOMP_PLUGIN_host_service_shutdown (s);
  pthread_mutex_lock (&s->lock);
  s->stop = 1;
  pthread_cond_broadcast (&s->poller_cond);
  pthread_cond_broadcast (&s->pool[0].cond);
  pthread_cond_broadcast (&s->pool[1].cond);
  pthread_mutex_unlock (&s->lock);
  if (s->poller_started)
    pthread_join (s->poller, NULL);
  pthread_mutex_lock (&s->reply_lock);
  s->detached = 1;
  pthread_mutex_unlock (&s->reply_lock);
  for (i = 0; i < s->nports; i++)
    if (__atomic_load_n (&s->ctx[i].owner, __ATOMIC_ACQUIRE)
	== HS_OWNER_POLLER)
      gomp_hs_reset_ctx (s, &s->ctx[i]);
  gomp_hs_fd_close_all (s);
  if (s->proc)
    gomp_hs_proc_fini (s);
  gomp_hs_unref (s);
}
