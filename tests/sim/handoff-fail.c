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
   takes REPLY_LOCK on that path, and serves the call.  Either way, the
   reply the device read must be the only one: the reply block is not
   written again, and the callback ran if and only if the device got its
   result.  Prints PASS:/FAIL: lines.  */

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

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
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
      double t0 = now ();
      __atomic_store_n (&inject, 3, __ATOMIC_SEQ_CST);
      while (__atomic_load_n (&inject, __ATOMIC_SEQ_CST) == 3
	     && now () - t0 < 10)
	usleep (1000);
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

  t0 = now ();
  while ((st = __atomic_load_n (&inject, __ATOMIC_SEQ_CST)) != 3
	 && !__atomic_load_n (&c.done, __ATOMIC_SEQ_CST) && now () - t0 < 10)
    usleep (1000);
  if (st == 3)
    {
      /* The poller is between its failed hand-off and taking the round
	 back: shut down now, and let the device read what it gets.  */
      forced = 1;
      GOMP_PLUGIN_host_service_shutdown (s.server);
      t0 = now ();
      while (!__atomic_load_n (&c.done, __ATOMIC_SEQ_CST) && now () - t0 < 10)
	usleep (1000);
    }
  __atomic_store_n (&inject, forced ? 4 : 0, __ATOMIC_SEQ_CST);
  pthread_join (t, NULL);
  /* Give a second reply, if one comes, the time to come.  */
  t0 = now ();
  while (!__atomic_load_n (&calls, __ATOMIC_SEQ_CST) && now () - t0 < 1)
    usleep (1000);
  usleep (100000);

  p = hs_port (s.dev, 0);
  rep_ret = p->rep.ret;
  rep_err = GOMP_HS_INFO_ERRNO (p->rep.info);
  printf ("note: %s; the device read %lld, errno %d; the port holds %lld,"
	  " errno %d; the callback ran %d times\n",
	  forced ? "shutdown ran while the hand-off failed"
	  : "the failed hand-off was served by the poller",
	  (long long) c.ret, (int) c.err, (long long) rep_ret, rep_err,
	  calls);
  check (rep_ret == c.ret && rep_err == c.err,
	 "a round whose hand-off to a worker fails is answered once: the"
	 " reply block still holds what the device read");
  check ((c.ret == 5 && c.err == 0 && calls == 1)
	 || (c.ret == -1 && c.err == ECANCELED && calls == 0),
	 "a round whose hand-off fails: the callback ran if and only if the"
	 " device got its result");
  GOMP_PLUGIN_host_service_shutdown (s.server);
  sim_stop (&s);
  libgomp_host_unregister ("count");
  return failures != 0;
}
