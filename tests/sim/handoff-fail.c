/* A round the poller cannot hand to a worker (no worker runs and none
   can be started) while shutdown runs (issue 16, item 12).  Before the
   fix, the poller marked the round as the worker's before it knew that
   one would take it; shutdown, in between, answered it with ECANCELED,
   and the poller then served it itself and answered it a second time:
   the callback ran although the device had been told it was cancelled,
   and the second reply could land on the port's next call.

   The interleaving is forced: the program is linked with
   --wrap=pthread_create and --wrap=pthread_mutex_lock.  The first thread
   creation off the main thread (the poller starting a worker) fails;
   when the poller then takes REPLY_LOCK (before the fix: to take the
   round back), it waits there while the main thread runs shutdown and
   the device thread reads its reply.  After the fix the poller never
   takes REPLY_LOCK to take the round back (it was never the worker's),
   and refuses the call with EAGAIN: with no worker, the poller runs no
   callback of the program's itself (one that never returned would stop
   every port; hs_hand_off).  The next call, when a worker can be
   started again, is served.  Either way, the
   reply the device read must be the only one: the reply block is not
   written again, and the callback ran if and only if the device got its
   result.

   Second, a hand-off that comes after shutdown has answered for the
   workers (tests/models/neg-late-handoff.pml): the poller read CLOSING
   before shutdown set it, and hands a call whose callback never returns
   to a worker.  Nobody would ever answer it.  Here the test thread is the
   poller (gomp_hs_poll_once, no poller thread), and shutdown runs, on a
   thread of its own, when the pass takes LOCK in hs_enqueue.  The round
   must be refused with ECANCELED.  Prints PASS:/FAIL: lines.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "libgomp-plugin.h"
#include "host-service.h"
#include "sim-client.h"
#include "gomp-host-services.h"
#include "host-service-internal.h"

extern int __real_pthread_create (pthread_t *, const pthread_attr_t *,
				  void *(*) (void *), void *);
extern int __real_pthread_mutex_lock (pthread_mutex_t *);

/* 0: off; 1: fail the next thread creation off the main thread; 2: it
   failed; 3: the thread it failed on is at WATCH_LOCK, waiting; 4: go.  */
static int inject;
static pthread_t main_thread, failed_on;
static pthread_mutex_t *watch_lock;
/* The second test: shut LATE_SERVER down when the main thread takes
   LATE_LOCK.  */
static int late_armed;
static pthread_mutex_t *late_lock;
static struct gomp_host_service *late_server;

static void *
late_shutdown_fn (void *arg)
{
  (void) arg;
  GOMP_PLUGIN_host_service_shutdown (late_server);
  return NULL;
}

int
__wrap_pthread_create (pthread_t *t, const pthread_attr_t *a,
		       void *(*fn) (void *), void *arg)
{
  if (__atomic_load_n (&inject, __ATOMIC_SEQ_CST) == 1
      && !pthread_equal (pthread_self (), main_thread))
    {
      failed_on = pthread_self ();
      __atomic_store_n (&inject, 2, __ATOMIC_SEQ_CST);
      return EAGAIN;
    }
  return __real_pthread_create (t, a, fn, arg);
}

int
__wrap_pthread_mutex_lock (pthread_mutex_t *m)
{
  if (m == watch_lock && __atomic_load_n (&inject, __ATOMIC_SEQ_CST) == 2
      && pthread_equal (pthread_self (), failed_on))
    {
      double t0 = sim_now ();
      __atomic_store_n (&inject, 3, __ATOMIC_SEQ_CST);
      while (__atomic_load_n (&inject, __ATOMIC_SEQ_CST) == 3
	     && sim_now () - t0 < 10)
	usleep (1000);
    }
  if (m == late_lock && pthread_equal (pthread_self (), main_thread)
      && __atomic_exchange_n (&late_armed, 0, __ATOMIC_SEQ_CST))
    {
      pthread_t t;
      if (__real_pthread_create (&t, NULL, late_shutdown_fn, NULL) == 0)
	pthread_join (t, NULL);
    }
  return __real_pthread_mutex_lock (m);
}

static int failures;

static void
check (int ok, const char *what)
{
  printf ("%s: sim %s\n", ok ? "PASS" : "FAIL", what);
  failures += !ok;
}

static int calls;
static int stuck_release;

static int64_t
cb_stuck (void *buf, size_t size, void *user)
{
  (void) buf;
  (void) size;
  (void) user;
  while (!__atomic_load_n (&stuck_release, __ATOMIC_SEQ_CST))
    usleep (1000);
  return 9;
}

static void
test_late_handoff (void)
{
  size_t size;
  void *region;
  struct gomp_host_service *s;
  volatile struct gomp_hs_port *p;
  volatile unsigned char *b;
  static const char name[] = "late-stuck";
  uint32_t seq = 0, info;
  double t0;
  size_t k;

  setenv ("GOMP_HOST_SERVICES_PORTS", "1", 1);
  setenv ("GOMP_HOST_SERVICES_BUFFER", "64", 1);
  setenv ("GOMP_HOST_SERVICES", "all", 1);
  size = GOMP_PLUGIN_host_service_size ();
  if (posix_memalign (&region, 64, size) != 0)
    abort ();
  s = GOMP_PLUGIN_host_service_init (region, size);
  if (s == NULL)
    abort ();
  libgomp_host_register (name, cb_stuck, NULL);
  /* A host call, published in port 0 as a client would.  */
  p = (volatile struct gomp_hs_port *) ((unsigned char *) region
					 + gomp_hs_ports_offset ());
  b = (volatile unsigned char *) region + gomp_hs_buf_offset (1, 64, 0);
  for (k = 0; k < sizeof name; k++)
    b[k] = name[k];
  p->req.op = GOMP_HS_OP_HOST_CALL;
  p->req.flags = GOMP_HS_REQ_FIRST;
  p->req.arg[0] = sizeof name;
  p->req.arg[1] = p->req.arg[2] = p->req.arg[3] = 0;
  p->req.len = p->req.total = sizeof name;
  __atomic_store_n (&p->dev_seq, 1, __ATOMIC_RELEASE);
  /* Scan: shutdown runs in between the scan's read of CLOSING and the
     hand-off.  */
  late_server = s;
  late_lock = &s->lock;
  __atomic_store_n (&late_armed, 1, __ATOMIC_SEQ_CST);
  gomp_hs_poll_once (s);
  t0 = sim_now ();
  while ((seq = __atomic_load_n (&p->rep.seq, __ATOMIC_ACQUIRE)) != 1
	 && sim_now () - t0 < 2)
    usleep (1000);
  info = p->rep.info;
  printf ("note: late hand-off: %s\n", __atomic_load_n (&late_armed,
							 __ATOMIC_SEQ_CST)
	  ? "shutdown did not run during the scan" : "shutdown ran during the"
	  " scan");
  check (seq == 1 && GOMP_HS_INFO_ERRNO (info) == ECANCELED
	 && GOMP_HS_INFO_FLAGS (info) == 0,
	 "a round handed off after shutdown answered for the workers is"
	 " refused (ECANCELED), not left to a callback that never returns");
  __atomic_store_n (&stuck_release, 1, __ATOMIC_SEQ_CST);
  GOMP_PLUGIN_host_service_fini (s);
  /* As the plugin does: once detached, the region is no longer
     written.  */
  free (region);
  libgomp_host_unregister (name);
}

static int64_t
cb_count (void *buf, size_t size, void *user)
{
  (void) buf;
  (void) size;
  (void) user;
  __atomic_add_fetch (&calls, 1, __ATOMIC_SEQ_CST);
  return 5;
}

struct client
{
  struct sim *s;
  int64_t ret;
  int32_t err;
  volatile int done;
};

static void *
client_fn (void *arg)
{
  struct client *c = arg;
  int64_t args[4] = { 6, 0, 0, 0 };
  c->ret = hs_call (c->s->dev, GOMP_HS_OP_HOST_CALL, args, "count", 6,
		    NULL, 0, NULL, &c->err);
  __atomic_store_n (&c->done, 1, __ATOMIC_SEQ_CST);
  return NULL;
}

int
main (void)
{
  struct sim s;
  struct client c = { &s, 0, 0, 0 };
  pthread_t t;
  volatile struct gomp_hs_port *p;
  int forced = 0, st, rep_err;
  int64_t rep_ret;
  double t0;

  setvbuf (stdout, NULL, _IOLBF, 0);
  main_thread = pthread_self ();
  sim_start (&s, 1, 64, "all");
  libgomp_host_register ("count", cb_count, NULL);
  watch_lock = &s.server->reply_lock;
  __atomic_store_n (&inject, 1, __ATOMIC_SEQ_CST);
  pthread_create (&t, NULL, client_fn, &c);

  t0 = sim_now ();
  while ((st = __atomic_load_n (&inject, __ATOMIC_SEQ_CST)) != 3
	 && !__atomic_load_n (&c.done, __ATOMIC_SEQ_CST) && sim_now () - t0 < 10)
    usleep (1000);
  if (st == 3)
    {
      /* The poller is between its failed hand-off and taking the round
	 back: shut down now, and let the device read what it gets.  */
      forced = 1;
      GOMP_PLUGIN_host_service_shutdown (s.server);
      t0 = sim_now ();
      while (!__atomic_load_n (&c.done, __ATOMIC_SEQ_CST)
	     && sim_now () - t0 < 10)
	usleep (1000);
    }
  __atomic_store_n (&inject, forced ? 4 : 0, __ATOMIC_SEQ_CST);
  pthread_join (t, NULL);
  /* Give a second reply, if one comes, the time to come.  */
  t0 = sim_now ();
  while (!__atomic_load_n (&calls, __ATOMIC_SEQ_CST) && sim_now () - t0 < 1)
    usleep (1000);
  usleep (100000);

  p = hs_port (s.dev, 0);
  rep_ret = p->rep.ret;
  rep_err = GOMP_HS_INFO_ERRNO (p->rep.info);
  printf ("note: %s; the device read %lld, errno %d; the port holds %lld,"
	  " errno %d; the callback ran %d times\n",
	  forced ? "shutdown ran while the hand-off failed"
	  : "the failed hand-off was answered by the poller",
	  (long long) c.ret, (int) c.err, (long long) rep_ret, rep_err,
	  calls);
  check (rep_ret == c.ret && rep_err == c.err,
	 "a round whose hand-off to a worker fails is answered once: the"
	 " reply block still holds what the device read");
  check ((c.ret == 5 && c.err == 0 && calls == 1)
	 || (c.ret == -1 && (c.err == ECANCELED || c.err == EAGAIN)
	     && calls == 0),
	 "a round whose hand-off fails: the callback ran if and only if the"
	 " device got its result");
  /* No worker, and none could be started: the poller does not run the
     program's callback itself, where one that never returns would stop
     every port; the call fails with EAGAIN (host-service-server.c,
     hs_hand_off).  */
  if (!forced)
    check (c.ret == -1 && c.err == EAGAIN && calls == 0,
	   "a callback with no worker to run it fails with EAGAIN, and the"
	   " poller does not run it");
  if (!forced)
    {
      /* Once a worker can be started again, the same call works.  */
      struct client c2 = { &s, 0, 0, 0 };
      client_fn (&c2);
      check (c2.ret == 5 && c2.err == 0 && calls == 1,
	     "after an EAGAIN for want of a worker, the next call is served");
    }
  GOMP_PLUGIN_host_service_shutdown (s.server);
  sim_stop (&s);
  libgomp_host_unregister ("count");
  test_late_handoff ();
  return failures != 0;
}
