/* GOMP_HOST_SERVICES_SERVER=process (host-service-process.c) against a
   simulated device: what the server process may hold, and what happens
   when it dies.

     sandboxed  the helper has the system-call filter and no new
		privileges, and none of the program's descriptors (one is
		left open without FD_CLOEXEC on purpose);
     killed     a call blocked in the helper (the read of a FIFO nobody
		writes) fails with EPIPE when the helper is
		killed with SIGKILL; what was written before stays written;
		later calls fail with EPIPE too; the kernel ends and the
		server is torn down at once;
     stuck      shutdown answers a call the helper's worker cannot finish
		with ECANCELED, and teardown is prompt;
     orphan     the helper of a program that is killed ends too (this
		process is the subreaper that collects it);
     announce   (with GOMP_DEBUG=1, checked by the script) a server is
		started and stopped;
     bad        a misspelt GOMP_HOST_SERVICES_SERVER turns host services
		off;
     missing    (GOMP_HOST_SERVICES_HELPER names nothing) init fails.

   Usage: process-faults TMPDIR [announce|bad|missing].  Prints PASS/FAIL
   lines.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "libgomp.h"
#include "host-service-internal.h"
#include "sim-client.h"

static int failures;
static const char *dir;

static void
check (int ok, const char *what, ...)
{
  va_list ap;
  printf ("%s: process-faults: ", ok ? "PASS" : "FAIL");
  va_start (ap, what);
  vprintf (what, ap);
  va_end (ap);
  putchar ('\n');
  fflush (stdout);
  failures += !ok;
}

static int64_t
sim_path (struct sim *s, uint32_t op, const char *path, int64_t a0,
	  int64_t a1, int32_t *err)
{
  return sim_call (s, op, a0, a1, 0, path, strlen (path) + 1, NULL, 0, NULL,
		   err);
}

static char *
path_in (const char *name)
{
  static char buf[4][512];
  static int k;
  char *b = buf[k++ & 3];
  snprintf (b, sizeof buf[0], "%s/%s", dir, name);
  return b;
}

/* A line of /proc/PID/status, e.g. "Seccomp:".  */

static long
status_field (pid_t pid, const char *field)
{
  char path[64], line[256];
  long v = -1;
  FILE *f;
  snprintf (path, sizeof path, "/proc/%ld/status", (long) pid);
  if ((f = fopen (path, "r")) == NULL)
    return -1;
  while (fgets (line, sizeof line, f))
    if (strncmp (line, field, strlen (field)) == 0)
      v = strtol (line + strlen (field), NULL, 10);
  fclose (f);
  return v;
}

/* The call of a thread of the device.  */

struct blocked
{
  struct sim *s;
  const char *path;
  int64_t ret;
  int32_t err;
  int done;
};

/* Open B->PATH, a FIFO this process holds open for writing and never
   writes, and read it: the read blocks in the helper's worker.  */

static void *
read_fn (void *arg)
{
  struct blocked *b = arg;
  char buf[16];
  int64_t fd = sim_path (b->s, GOMP_HS_OP_OPEN, b->path, O_RDONLY, 0,
			 &b->err);
  b->ret = fd < 0 ? -2
	   : sim_call (b->s, GOMP_HS_OP_READ, fd, sizeof buf, 0, NULL, 0, buf,
		       sizeof buf, NULL, &b->err);
  __atomic_store_n (&b->done, 1, __ATOMIC_RELEASE);
  return NULL;
}

/* Start a thread of the device whose read of a FIFO blocks (read_fn);
   returns this process's descriptor of the FIFO.  */

static int
start_blocked (struct sim *s, struct blocked *b, pthread_t *t,
	       const char *fifo)
{
  int w;
  unlink (fifo);
  mkfifo (fifo, 0600);
  w = open (fifo, O_RDWR);
  memset (b, 0, sizeof *b);
  b->s = s;
  b->path = fifo;
  pthread_create (t, NULL, read_fn, b);
  usleep (200000);
  return w;
}

static double
now (void)
{
  return sim_now ();
}

static void
test_sandboxed (void)
{
  struct sim s;
  int leak = open ("/dev/null", O_RDONLY);	/* No FD_CLOEXEC.  */
  pid_t pid;
  char fdpath[64], target[256];
  int others = 0, n;
  sim_start (&s, 2, 64, "all");
  pid = gomp_hs_proc_pid (s.server);
  check (pid > 0 && pid != getpid (), "the server is process %ld",
	 (long) pid);
  check (status_field (pid, "Seccomp:") == 2
	 && status_field (pid, "NoNewPrivs:") == 1,
	 "the server process runs under a system-call filter, with no new"
	 " privileges");
  for (int fd = 3; fd < 64; fd++)
    {
      snprintf (fdpath, sizeof fdpath, "/proc/%ld/fd/%d", (long) pid, fd);
      n = readlink (fdpath, target, sizeof target - 1);
      if (n < 0)
	continue;
      target[n] = '\0';
      /* Its socket to this process is descriptor 4.  */
      if (!(fd == 4 && strncmp (target, "socket:", 7) == 0))
	others++;
    }
  check (others == 0, "the server process has descriptors 0-2 and its"
	 " socket only (%d others; this process had %d open)", others, leak);
  close (leak);
  sim_stop (&s);
}

/* What the program's job gets is not the server's: SIGINT, SIGTERM and
   SIGHUP leave it serving; a device write to a FIFO whose reader is
   gone fails with EPIPE instead of killing it; a rename from one
   directory to another works (its Landlock domain allows it).  */

static void
test_signals_rename (void)
{
  struct sim s;
  int32_t err = 0;
  int64_t fd, r;
  int pfd[1];
  pid_t pid;
  char two[1100];
  size_t a, b;
  sim_start (&s, 2, 64, "all");
  pid = gomp_hs_proc_pid (s.server);
  kill (pid, SIGINT);
  kill (pid, SIGTERM);
  kill (pid, SIGHUP);
  usleep (100000);
  fd = sim_path (&s, GOMP_HS_OP_OPEN, path_in ("sig.txt"),
		 O_CREAT | O_WRONLY | O_TRUNC, 0600, &err);
  check (fd >= 3 && kill (pid, 0) == 0,
	 "SIGINT, SIGTERM and SIGHUP leave the server process serving");
  /* A FIFO whose reader (this process) goes away once the device has
     opened it for writing.  */
  unlink (path_in ("fifo-pipe"));
  if (mkfifo (path_in ("fifo-pipe"), 0600) == 0
      && (pfd[0] = open (path_in ("fifo-pipe"), O_RDONLY | O_NONBLOCK)) >= 0)
    {
      int64_t pd = sim_path (&s, GOMP_HS_OP_OPEN, path_in ("fifo-pipe"),
			     O_WRONLY, 0, &err);
      close (pfd[0]);
      r = pd >= 0 ? sim_call (&s, GOMP_HS_OP_WRITE, pd, 0, 0, "x", 1, NULL,
			      0, NULL, &err) : -2;
      check (pd >= 0 && r == -1 && err == EPIPE && kill (pid, 0) == 0,
	     "a write to a FIFO without a reader fails with EPIPE, the"
	     " server lives on (%lld, errno %d)", (long long) r, err);
    }
  unlink (path_in ("fifo-pipe"));
  mkdir (path_in ("d1"), 0700);
  mkdir (path_in ("d2"), 0700);
  close (open (path_in ("d1/f"), O_CREAT | O_WRONLY, 0600));
  a = strlen (path_in ("d1/f")) + 1;
  memcpy (two, path_in ("d1/f"), a);
  b = strlen (path_in ("d2/g")) + 1;
  memcpy (two + a, path_in ("d2/g"), b);
  r = sim_call (&s, GOMP_HS_OP_RENAME, 0, 0, 0, two, a + b, NULL, 0, NULL,
		&err);
  check (r == 0 && access (path_in ("d2/g"), F_OK) == 0,
	 "a rename from one directory to another works (%lld, errno %d)",
	 (long long) r, err);
  unlink (path_in ("d2/g"));
  rmdir (path_in ("d1"));
  rmdir (path_in ("d2"));
  unlink (path_in ("sig.txt"));
  sim_stop (&s);
}

/* Publish one round on port I as a device would, with PAYLOAD (LEN
   bytes), and wait for its reply; its errno, or -1 if none came.  */

static int
raw_round (struct sim *s, unsigned i, uint32_t op, uint32_t flags,
	   int64_t a0, int64_t a1, const void *payload, uint64_t len,
	   uint64_t total, uint32_t *info)
{
  volatile struct gomp_hs_port *p = hs_port (s->dev, i);
  volatile unsigned char *b = hs_buf (s->dev, i);
  uint32_t seq = s->ports[i].seq + 1;
  double t0 = sim_now ();
  for (uint64_t k = 0; k < len; k++)
    b[k] = ((const unsigned char *) payload)[k];
  p->req.op = op;
  p->req.flags = flags;
  p->req.arg[0] = a0;
  p->req.arg[1] = a1;
  p->req.arg[2] = p->req.arg[3] = 0;
  p->req.len = len;
  p->req.total = total;
  __atomic_store_n (&p->dev_seq, seq, __ATOMIC_RELEASE);
  s->ports[i].seq = seq;
  while (__atomic_load_n (&p->rep.seq, __ATOMIC_ACQUIRE) != seq)
    if (sim_now () - t0 > 10)
      return -1;
  *info = p->rep.info;
  return GOMP_HS_INFO_ERRNO (*info);
}

/* Calls abandoned midway (a device thread that traps, a kernel that
   ends): a named host call handed over to this process and abandoned
   for a clock call on the same port, which the server process must
   serve; and a write the server process had begun when it was killed,
   whose next round fails with EPIPE.  */

static void
test_abandoned (void)
{
  struct sim s;
  uint32_t info = 0;
  int e1, e2, e3;
  static const char name[] = "nobody";
  struct gomp_hs_timespec ts;
  uint64_t got = 0;
  int32_t err = 0;
  int64_t r, fd;
  sim_start (&s, 1, 64, "all");
  /* HOST_CALL: the name, and 100 bytes still to come.  */
  e1 = raw_round (&s, 0, GOMP_HS_OP_HOST_CALL, GOMP_HS_REQ_FIRST,
		  sizeof name, 100, name, sizeof name, sizeof name + 100,
		  &info);
  r = sim_call (&s, GOMP_HS_OP_CLOCK_GETTIME, CLOCK_REALTIME, 0, 0, NULL, 0,
		&ts, sizeof ts, &got, &err);
  check (e1 == 0 && GOMP_HS_INFO_FLAGS (info) == GOMP_HS_REP_MORE_IN
	 && r == 0 && err == 0 && got == sizeof ts,
	 "a host call abandoned midway, then a clock call on its port: the"
	 " call is served (%lld, errno %d)", (long long) r, err);
  GOMP_PLUGIN_host_service_kernel_end (s.server);
  GOMP_PLUGIN_host_service_kernel_begin (s.server);
  e1 = raw_round (&s, 0, GOMP_HS_OP_HOST_CALL, GOMP_HS_REQ_FIRST,
		  sizeof name, 100, name, sizeof name, sizeof name + 100,
		  &info);
  GOMP_PLUGIN_host_service_kernel_end (s.server);
  usleep (50000);
  GOMP_PLUGIN_host_service_kernel_begin (s.server);
  r = sim_call (&s, GOMP_HS_OP_CLOCK_GETTIME, CLOCK_REALTIME, 0, 0, NULL, 0,
		&ts, sizeof ts, &got, &err);
  check (e1 == 0 && r == 0 && err == 0,
	 "... also when its kernel ended and the next one makes the call");
  /* A write of 3 rounds, one served, then the server is killed.  */
  fd = sim_path (&s, GOMP_HS_OP_OPEN, path_in ("half.txt"),
		 O_CREAT | O_WRONLY | O_TRUNC, 0600, &err);
  e2 = raw_round (&s, 0, GOMP_HS_OP_WRITE, GOMP_HS_REQ_FIRST, fd, 0,
		  "0123456789", 10, 30, &info);
  kill (gomp_hs_proc_pid (s.server), SIGKILL);
  usleep (200000);
  e3 = raw_round (&s, 0, GOMP_HS_OP_WRITE, GOMP_HS_REQ_CONT, fd, 0,
		  "0123456789", 10, 30, &info);
  check (fd >= 3 && e2 == 0 && e3 == EPIPE && GOMP_HS_INFO_FLAGS (info) == 0,
	 "a write half done when the server process is killed: its next"
	 " round fails with EPIPE (errno %d)", e3);
  sim_stop (&s);
  unlink (path_in ("half.txt"));
}

static void
test_killed (void)
{
  struct sim s;
  struct blocked b;
  pthread_t t;
  int32_t err = 0;
  int64_t fd, r;
  char buf[64];
  int hfd, ok, w;
  double t0;
  pid_t pid;
  const char *fifo = path_in ("fifo-killed");

  sim_start (&s, 4, 64, "all");
  pid = gomp_hs_proc_pid (s.server);
  fd = sim_path (&s, GOMP_HS_OP_OPEN, path_in ("kept.txt"),
		 O_CREAT | O_WRONLY | O_TRUNC, 0600, &err);
  r = sim_call (&s, GOMP_HS_OP_WRITE, fd, 0, 0, "accepted\n", 9, NULL, 0,
		NULL, &err);
  check (fd >= 3 && r == 9, "a write served by the server process");

  w = start_blocked (&s, &b, &t, fifo);
  ok = !__atomic_load_n (&b.done, __ATOMIC_ACQUIRE);
  kill (pid, SIGKILL);
  t0 = now ();
  while (!__atomic_load_n (&b.done, __ATOMIC_ACQUIRE) && now () - t0 < 5)
    usleep (1000);
  check (ok && b.done && b.ret == -1 && b.err == EPIPE,
	 "SIGKILL of the server mid-call: the blocked call fails with EPIPE"
	 " (ret %lld, errno %d, after %.3f s)", (long long) b.ret, b.err,
	 now () - t0);
  pthread_join (t, NULL);
  r = sim_call (&s, GOMP_HS_OP_WRITE, fd, 0, 0, "lost\n", 5, NULL, 0, NULL,
		&err);
  check (r == -1 && err == EPIPE, "later calls fail with EPIPE");
  hfd = open (path_in ("kept.txt"), O_RDONLY);
  r = hfd >= 0 ? read (hfd, buf, sizeof buf) : -1;
  check (r == 9 && memcmp (buf, "accepted\n", 9) == 0,
	 "what the server wrote before it was killed stays written");
  if (hfd >= 0)
    close (hfd);
  t0 = now ();
  sim_stop (&s);
  check (now () - t0 < 1.0, "then the server is torn down at once (%.3f s)",
	 now () - t0);
  close (w);
  unlink (fifo);
}

static void
test_stuck (void)
{
  struct sim s;
  struct blocked b;
  pthread_t t;
  double t0;
  int w;
  const char *fifo = path_in ("fifo-stuck");

  sim_start (&s, 2, 64, "all");
  w = start_blocked (&s, &b, &t, fifo);
  t0 = now ();
  GOMP_PLUGIN_host_service_shutdown (s.server);
  while (!__atomic_load_n (&b.done, __ATOMIC_ACQUIRE) && now () - t0 < 10)
    usleep (1000);
  check (b.done && b.ret == -1 && b.err == ECANCELED,
	 "shutdown while the server process blocks in a read: ECANCELED"
	 " (ret %lld, errno %d, after %.2f s)", (long long) b.ret, b.err,
	 now () - t0);
  pthread_join (t, NULL);
  t0 = now ();
  sim_stop (&s);
  check (now () - t0 < 4.0, "teardown after it takes %.2f s", now () - t0);
  close (w);
  unlink (fifo);
}

static void
test_orphan (void)
{
  int p[2];
  pid_t app, helper = 0, w;
  int status = 0;
  double t0;

  prctl (PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  if (pipe (p) != 0)
    abort ();
  app = fork ();
  if (app == 0)
    {
      struct sim s;
      pid_t pid;
      close (p[0]);
      sim_start (&s, 2, 64, "all");
      pid = gomp_hs_proc_pid (s.server);
      if (write (p[1], &pid, sizeof pid) != sizeof pid)
	_exit (1);
      for (;;)
	pause ();
    }
  close (p[1]);
  if (read (p[0], &helper, sizeof helper) != sizeof helper)
    helper = 0;
  close (p[0]);
  kill (app, SIGKILL);
  waitpid (app, NULL, 0);
  t0 = now ();
  w = 0;
  while (helper > 0 && now () - t0 < 5
	 && (w = waitpid (helper, &status, WNOHANG)) == 0)
    usleep (1000);
  check (helper > 0 && w == helper,
	 "the server process of a program killed with SIGKILL ends too"
	 " (%s %d, after %.3f s)",
	 WIFSIGNALED (status) ? "signal" : "status",
	 WIFSIGNALED (status) ? WTERMSIG (status) : WEXITSTATUS (status),
	 now () - t0);
  if (w == 0 && helper > 0)
    kill (helper, SIGKILL);
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    return 2;
  dir = argv[1];
  if (argc > 2 && strcmp (argv[2], "bad") == 0)
    {
      /* A misspelt mode: host services are off, not served in-process.  */
      setenv ("GOMP_HOST_SERVICES_SERVER", "proces", 1);
      check (GOMP_PLUGIN_host_service_size () == 0
	     && GOMP_PLUGIN_host_service_alloc (4096) == NULL,
	     "GOMP_HOST_SERVICES_SERVER=proces: host services are off");
      return failures != 0;
    }
  setenv ("GOMP_HOST_SERVICES_SERVER", "process", 1);
  if (argc > 2 && strcmp (argv[2], "missing") == 0)
    {
      /* No helper: init fails, with the reason on stderr.  */
      size_t size = GOMP_PLUGIN_host_service_size ();
      void *region = GOMP_PLUGIN_host_service_alloc (size);
      struct gomp_host_service *srv
	= GOMP_PLUGIN_host_service_init (region, size);
      check (region != NULL && srv == NULL,
	     "without its helper program the server does not start");
      GOMP_PLUGIN_host_service_free (region);
      return failures != 0;
    }
  if (argc > 2 && strcmp (argv[2], "announce") == 0)
    {
      struct sim s;
      sim_start (&s, 2, 64, "all");
      sim_stop (&s);
      return 0;
    }
  test_sandboxed ();
  test_signals_rename ();
  test_abandoned ();
  test_killed ();
  test_stuck ();
  test_orphan ();
  return failures != 0;
}
