/* Host-service benchmark on the simulated device (host threads as device
   clients, the real server).  Each figure is reported as a ratio to a
   baseline measured in the same run on the same machine:

   latency     round trip of a call with no payload (lseek on an open
	       file), against a bare two-thread ping-pong on one cache line
	       (the least any request/reply between two threads can cost);
	       and the same call served by the server process
	       (GOMP_HOST_SERVICES_SERVER=process), against the in-process
	       one;
   throughput  writing N bytes to /dev/null through one port of BUF bytes,
	       against memcpy of the same bytes (the least the copies into
	       and out of the port can cost).

   Absolute numbers are printed too, but they describe this host, not a
   GPU; GPU numbers only come from bench/gpu-check.sh on a real device.

   It also counts what a GPU pays for in PCIe round trips: the loads of
   host memory that the client's control path makes per call, waiting
   aside (host-service.h: the poll that sees the reply, then the reply
   block; two per round), for each kind of call; and the data path's
   rounds of dependent region loads per call (host-service-client.h,
   DATA-PATH ROUNDS) for reads copied out by a full warp and by one lane,
   and for a host callback's 64-byte output.

   And what the server's threads cost where the device cannot be faster
   than the host lets it be:

   first call after idle   the extra latency of a call made after a
	       second without calls (the median of 5), against a warm call;
   idle poller the CPU the poller takes meanwhile (the process's CPU
	       time while the only client sleeps), in percent of a core;
   write to a pipe  64-byte writes, as printf makes them, to a FIFO
	       whose reader drains it every millisecond, against the same
	       writes to a regular file; the baseline, the same writes
	       made by the host itself (write (2)) in the same run; and
	       the writes to a FIFO whose reader waits in read, which
	       every write wakes;
   slow file system  whether calls on one port are served, promptly,
	       while a read of a file on a slow file system waits on
	       another (the stand-in of tests/sim/slow-fs.h).

   Usage: hs-bench [BYTES [BUF]]   (defaults: 64 MiB, 4096)  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
/* The simulated client yields its CPU after a few polls (sim-client.h),
   so that many clients do not starve the server; a GPU takes no host CPU
   at all.  While BENCH_SPIN is set (the first call after idle, with the
   client and the poller on CPUs of their own) the client only spins: a
   yield would measure the scheduler instead.  */
static volatile int bench_spin;

static inline void
bench_pause (unsigned *backoff)
{
  if (bench_spin)
    {
#if defined __x86_64__ || defined __i386__
      __builtin_ia32_pause ();
#endif
    }
  else if (++*backoff > 64)
    sched_yield ();
}
#define SIM_PAUSE(B) bench_pause (B)
#include "sim-client.h"
#include "slow-fs.h"
#include "gomp-host-services.h"

#define ROUNDS 200000

/* Baseline 1: ping-pong on one cache line between two threads.  */

static volatile uint32_t ping __attribute__ ((aligned (64)));
static volatile uint32_t pong __attribute__ ((aligned (64)));

static void *
ponger (void *arg)
{
  uint32_t i;
  (void) arg;
  for (i = 1; i <= ROUNDS; i++)
    {
      while (__atomic_load_n (&ping, __ATOMIC_ACQUIRE) != i)
	;
      __atomic_store_n (&pong, i, __ATOMIC_RELEASE);
    }
  return NULL;
}

static double
pingpong_ns (void)
{
  pthread_t t;
  uint32_t i;
  double t0;
  ping = pong = 0;
  pthread_create (&t, NULL, ponger, NULL);
  t0 = sim_now ();
  for (i = 1; i <= ROUNDS; i++)
    {
      __atomic_store_n (&ping, i, __ATOMIC_RELEASE);
      while (__atomic_load_n (&pong, __ATOMIC_ACQUIRE) != i)
	;
    }
  t0 = sim_now () - t0;
  pthread_join (t, NULL);
  return t0 / ROUNDS * 1e9;
}

/* Baseline 2: memcpy bandwidth, bytes per second.  */

static double
memcpy_bps (size_t n, size_t chunk)
{
  char *a = malloc (n), *b = malloc (chunk);
  double t0;
  size_t off;
  memset (a, 1, n);
  memset (b, 0, chunk);
  t0 = sim_now ();
  for (off = 0; off < n; off += chunk)
    memcpy (b, a + off, n - off < chunk ? n - off : chunk);
  t0 = sim_now () - t0;
  __asm__ volatile ("" : : "r" (b) : "memory");
  free (a);
  free (b);
  return n / t0;
}

/* Control-path region loads per call of a kind: run CALLS of them.  */

static double
loads_per_call (struct sim *s, int calls, int64_t (*call) (struct sim *))
{
  unsigned long l0 = sim_region_loads, w0 = sim_region_waits;
  int i;
  for (i = 0; i < calls; i++)
    call (s);
  return (double) ((sim_region_loads - l0) - (sim_region_waits - w0)) / calls;
}

/* Data-path rounds per call (host-service-client.h, DATA-PATH ROUNDS):
   CALLS calls, their copies out made by one lane or, with WARP, by the
   32 lanes of a warp that is one thread (sim-client.h, sim_warp).  */

static double
rounds_per_call (struct sim *s, int calls, int warp,
		 int64_t (*call) (struct sim *))
{
  unsigned long r0 = sim_data_rounds;
  int i;
  sim_warp = warp;
  for (i = 0; i < calls; i++)
    call (s);
  sim_warp = 0;
  return (double) (sim_data_rounds - r0) / calls;
}

static int64_t lp_fd;
static unsigned char *lp_data;

static int64_t
lp_small (struct sim *s)
{
  struct gomp_hs_timespec ts;
  int32_t err;
  return sim_call (s, GOMP_HS_OP_CLOCK_GETTIME, CLOCK_MONOTONIC, 0, 0, NULL,
		   0, &ts, sizeof ts, NULL, &err);
}

static int64_t
lp_write (struct sim *s, size_t n)
{
  int32_t err;
  sim_call (s, GOMP_HS_OP_LSEEK, lp_fd, 0, SEEK_SET, NULL, 0, NULL, 0, NULL,
	    &err);
  return sim_call (s, GOMP_HS_OP_WRITE, lp_fd, 0, 0, lp_data, n, NULL, 0,
		   NULL, &err);
}

static int64_t
lp_read (struct sim *s, size_t n)
{
  int32_t err;
  sim_call (s, GOMP_HS_OP_LSEEK, lp_fd, 0, SEEK_SET, NULL, 0, NULL, 0, NULL,
	    &err);
  return sim_call (s, GOMP_HS_OP_READ, lp_fd, n, 0, NULL, 0, lp_data, n, NULL,
		   &err);
}

static int64_t lp_read_1k5 (struct sim *s) { return lp_read (s, 1536); }
static int64_t lp_write_4k (struct sim *s) { return lp_write (s, 4096); }
static int64_t lp_read_4k (struct sim *s) { return lp_read (s, 4096); }
static int64_t lp_write_1m (struct sim *s) { return lp_write (s, 1 << 20); }
static int64_t lp_read_1m (struct sim *s) { return lp_read (s, 1 << 20); }
static int64_t lp_lseek (struct sim *s)
{
  int32_t err;
  return sim_call (s, GOMP_HS_OP_LSEEK, lp_fd, 0, SEEK_SET, NULL, 0, NULL, 0,
		   NULL, &err);
}

static int64_t
lp_cb (void *buf, size_t size, void *user)
{
  (void) buf;
  (void) user;
  return (int64_t) size;
}

static int64_t
lp_host_call (struct sim *s)
{
  int64_t args[4] = { 3, 64, 0, 0 };
  int32_t err;
  return hs_call2 (s->dev, GOMP_HS_OP_HOST_CALL, args, "lp", 3, lp_data, 64,
		   lp_data, 64, NULL, &err);
}

static void
control_path_loads (unsigned buf)
{
  struct sim s;
  int32_t err;
  double lseek_loads;
  char name[64];
  sim_start (&s, 1, buf, "all");
  snprintf (name, sizeof name, "/tmp/hs-bench-%d.bin", (int) getpid ());
  lp_fd = sim_call (&s, GOMP_HS_OP_OPEN, O_CREAT | O_RDWR | O_TRUNC, 0600, 0,
		    name, strlen (name) + 1, NULL, 0, NULL, &err);
  lp_data = calloc (1, 1 << 20);
  libgomp_host_register ("lp", lp_cb, NULL);
  lp_write (&s, 1 << 20);
  /* Writes and reads here seek first: count that call and subtract it.  */
  lseek_loads = loads_per_call (&s, 100, lp_lseek);
  printf ("control-path region loads per call (%u-byte port, waiting"
	  " aside):\n", buf);
  printf ("control-path region loads per call: small %g\n",
	  loads_per_call (&s, 1000, lp_small));
  printf ("control-path region loads per call: write-4k %g\n",
	  loads_per_call (&s, 200, lp_write_4k) - lseek_loads);
  printf ("control-path region loads per call: read-4k %g\n",
	  loads_per_call (&s, 200, lp_read_4k) - lseek_loads);
  printf ("control-path region loads per call: write-1m %g\n",
	  loads_per_call (&s, 5, lp_write_1m) - lseek_loads);
  printf ("control-path region loads per call: read-1m %g\n",
	  loads_per_call (&s, 5, lp_read_1m) - lseek_loads);
  printf ("control-path region loads per call: host-call %g\n",
	  loads_per_call (&s, 1000, lp_host_call));
  printf ("dependent region-read rounds per call: read-1k5 %g / read-4k %g"
	  " / read-4k-1lane %g / host-call-out %g\n",
	  rounds_per_call (&s, 200, 1, lp_read_1k5),
	  rounds_per_call (&s, 200, 1, lp_read_4k),
	  rounds_per_call (&s, 200, 0, lp_read_4k),
	  rounds_per_call (&s, 1000, 0, lp_host_call));
  libgomp_host_unregister ("lp");
  sim_call (&s, GOMP_HS_OP_CLOSE, lp_fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  unlink (name);
  free (lp_data);
  sim_stop (&s);
}

/* The median of 5.  */

static double
median5 (double *v)
{
  int i, j;
  for (i = 0; i < 5; i++)
    for (j = i + 1; j < 5; j++)
      if (v[j] < v[i])
	{
	  double x = v[i];
	  v[i] = v[j];
	  v[j] = x;
	}
  return v[2];
}

/* The extra latency of the first call after a quiet second, against a
   warm call, the median of a few; and what the idle poller costs
   meanwhile (the process's CPU time while the client sleeps: the poller
   is the only thread that runs).  */

static void
idle_wakeup (void)
{
  struct sim s;
  int32_t err;
  double warm, cold[5], cpu = 0, t0, t1;
  struct timespec c0, c1;
  int i, pinned = 0;
  cpu_set_t all, one;
  /* The device is not a host thread: here the client must not compete
     with the poller for a CPU (a client that woke from its sleep on the
     poller's CPU would keep it for a time slice).  The poller (started
     by sim_start, it inherits this thread's CPUs) gets CPU 0, the client
     CPU 1, when there are two.  */
  if (sched_getaffinity (0, sizeof all, &all) == 0 && CPU_ISSET (0, &all)
      && CPU_ISSET (1, &all))
    {
      CPU_ZERO (&one);
      CPU_SET (0, &one);
      pinned = sched_setaffinity (0, sizeof one, &one) == 0;
    }
  sim_start (&s, 64, 4096, "all");
  if (pinned)
    {
      CPU_ZERO (&one);
      CPU_SET (1, &one);
      sched_setaffinity (0, sizeof one, &one);
    }
  for (i = 0; i < 1000; i++)
    lp_small (&s);
  t0 = sim_now ();
  for (i = 0; i < 20000; i++)
    lp_small (&s);
  warm = (sim_now () - t0) / 20000;
  bench_spin = 1;
  for (i = 0; i < 5; i++)
    {
      clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &c0);
      t0 = sim_now ();
      usleep (1000000);
      clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &c1);
      t1 = sim_now ();
      cpu += ((c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) * 1e-9)
	     / (t1 - t0);
      sim_call (&s, GOMP_HS_OP_CLOCK_GETTIME, CLOCK_MONOTONIC, 0, 0, NULL, 0,
		NULL, 0, NULL, &err);
      cold[i] = sim_now () - t1;
    }
  bench_spin = 0;
  sim_stop (&s);
  if (pinned)
    sched_setaffinity (0, sizeof all, &all);
  printf ("first call after idle: %.1f us (warm %.0f ns)\n",
	  (median5 (cold) - warm) * 1e6, warm * 1e9);
  printf ("idle poller: %.1f %% of a core while a kernel runs without"
	  " calling\n", cpu / 5 * 100);
}

/* Small writes, as printf makes them: to a pipe (a FIFO whose reader
   drains it) against a regular file, through one port.  The reader
   empties the FIFO every millisecond (DRAIN_WAKE 0) or waits in read
   (DRAIN_WAKE 1): then every write wakes it, and on a machine with no
   core to spare beside the two threads that spin on the port (the
   simulated device's client and the poller) that wake-up takes one of
   theirs, which is the scheduler's cost, not the server's; both are
   printed.  */

static volatile int drain_wake;

static void *
drain_fn (void *arg)
{
  char buf[65536];
  int fd = *(int *) arg, wake = -1;
  ssize_t n;
  for (;;)
    {
      if (wake != drain_wake)
	{
	  wake = drain_wake;
	  fcntl (fd, F_SETFL, wake ? 0 : O_NONBLOCK);
	}
      n = read (fd, buf, sizeof buf);
      if (n == 0 || (n < 0 && errno != EAGAIN))
	break;
      if (n < 0)
	usleep (1000);
    }
  return NULL;
}

static double
small_writes_ns (struct sim *s, int64_t fd, int n)
{
  unsigned char b[64];
  int32_t err;
  int i;
  double t0;
  memset (b, 'x', sizeof b);
  for (i = 0; i < n / 10; i++)
    sim_call (s, GOMP_HS_OP_WRITE, fd, 0, 0, b, sizeof b, NULL, 0, NULL,
	      &err);
  t0 = sim_now ();
  for (i = 0; i < n; i++)
    sim_call (s, GOMP_HS_OP_WRITE, fd, 0, 0, b, sizeof b, NULL, 0, NULL,
	      &err);
  return (sim_now () - t0) / n * 1e9;
}

/* The same, written by the host itself on FD.  */

static double
host_writes_ns (int fd, int n)
{
  unsigned char b[64];
  int i;
  double t0;
  memset (b, 'x', sizeof b);
  for (i = 0; i < n / 10; i++)
    if (write (fd, b, sizeof b) != (ssize_t) sizeof b)
      return 0;
  t0 = sim_now ();
  for (i = 0; i < n; i++)
    if (write (fd, b, sizeof b) != (ssize_t) sizeof b)
      return 0;
  return (sim_now () - t0) / n * 1e9;
}

static void
pipe_writes (void)
{
  struct sim s;
  char dir[] = "/tmp/hs-bench-XXXXXX", fifo[64], file[64];
  int32_t err;
  int64_t ffd, pfd;
  int rfd, hfd, hpfd;
  pthread_t t;
  double file_ns, pipe_ns, host_file_ns, host_pipe_ns, woken_ns;
  if (mkdtemp (dir) == NULL)
    return;
  snprintf (fifo, sizeof fifo, "%s/fifo", dir);
  snprintf (file, sizeof file, "%s/file", dir);
  mkfifo (fifo, 0600);
  rfd = open (fifo, O_RDONLY | O_NONBLOCK);
  fcntl (rfd, F_SETFL, 0);
  sim_start (&s, 1, 4096, "all");
  pfd = sim_call (&s, GOMP_HS_OP_OPEN, O_WRONLY, 0, 0, fifo,
		  strlen (fifo) + 1, NULL, 0, NULL, &err);
  ffd = sim_call (&s, GOMP_HS_OP_OPEN, O_WRONLY | O_CREAT | O_TRUNC, 0600, 0,
		  file, strlen (file) + 1, NULL, 0, NULL, &err);
  hfd = open (file, O_WRONLY | O_APPEND);
  hpfd = open (fifo, O_WRONLY);
  drain_wake = 0;
  pthread_create (&t, NULL, drain_fn, &rfd);
  /* Five of each, alternately: the medians.  */
  {
    double f[5], p[5], hf[5], hp[5];
    int i;
    for (i = 0; i < 5; i++)
      {
	f[i] = small_writes_ns (&s, ffd, 10000);
	p[i] = small_writes_ns (&s, pfd, 10000);
	hf[i] = host_writes_ns (hfd, 10000);
	hp[i] = host_writes_ns (hpfd, 10000);
      }
    file_ns = median5 (f);
    pipe_ns = median5 (p);
    host_file_ns = median5 (hf);
    host_pipe_ns = median5 (hp);
    /* The same through the port, with a reader that every write wakes
       (it takes the change at its next read).  */
    drain_wake = 1;
    for (i = 0; i < 5; i++)
      p[i] = small_writes_ns (&s, pfd, 10000);
    woken_ns = median5 (p);
  }
  close (hfd);
  close (hpfd);
  sim_call (&s, GOMP_HS_OP_CLOSE, pfd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  sim_call (&s, GOMP_HS_OP_CLOSE, ffd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  pthread_join (t, NULL);
  close (rfd);
  sim_stop (&s);
  unlink (fifo);
  unlink (file);
  rmdir (dir);
  printf ("write to a pipe: %.0f ns (%.2f x regular file, %.0f ns)\n",
	  pipe_ns, pipe_ns / file_ns, file_ns);
  if (host_file_ns > 0 && host_pipe_ns > 0)
    printf ("write to a pipe, by the host itself: %.0f ns (%.2f x regular"
	    " file, %.0f ns; through the port: +%.0f ns to a pipe, +%.0f ns"
	    " to a file)\n", host_pipe_ns, host_pipe_ns / host_file_ns,
	    host_file_ns, pipe_ns - host_pipe_ns, file_ns - host_file_ns);
  printf ("write to a pipe whose reader each write wakes: %.0f ns (%.2f x"
	  " regular file)\n", woken_ns, woken_ns / file_ns);
}

/* A read of a file on a slow file system (slow-fs.h) waits SLOW_MS on
   one port: are calls on another port served meanwhile?  */

#define SLOW_MS 100

struct slow_read
{
  struct sim *s;
  int64_t fd;
  volatile int done;
};

static void *
slow_read_fn (void *arg)
{
  struct slow_read *r = arg;
  char b[64];
  int32_t err;
  sim_client_id = 0;
  sim_call (r->s, GOMP_HS_OP_READ, r->fd, sizeof b, 0, NULL, 0, b, sizeof b,
	    NULL, &err);
  __atomic_store_n (&r->done, 1, __ATOMIC_RELEASE);
  return NULL;
}

static void
slow_fs (void)
{
  struct sim s;
  char dir[] = "/tmp/hs-bench-XXXXXX", path[64];
  struct slow_read r;
  pthread_t t;
  int32_t err;
  int fd;
  unsigned served = 0;
  double t0;
  if (mkdtemp (dir) == NULL)
    return;
  snprintf (path, sizeof path, "%s/slowfs-file", dir);
  fd = open (path, O_CREAT | O_WRONLY, 0600);
  if (fd < 0 || write (fd, "0123456789", 10) != 10)
    return;
  close (fd);
  sim_start (&s, 2, 4096, "all");
  slow_fs_ms = SLOW_MS;
  r.s = &s;
  r.done = 0;
  r.fd = sim_call (&s, GOMP_HS_OP_OPEN, O_RDONLY, 0, 0, path,
		   strlen (path) + 1, NULL, 0, NULL, &err);
  pthread_create (&t, NULL, slow_read_fn, &r);
  usleep (SLOW_MS * 1000 / 5);
  sim_client_id = 1;
  t0 = sim_now ();
  while (!__atomic_load_n (&r.done, __ATOMIC_ACQUIRE) && sim_now () - t0 < 5)
    {
      struct gomp_hs_timespec ts;
      double c0 = sim_now ();
      sim_call (&s, GOMP_HS_OP_CLOCK_GETTIME, CLOCK_MONOTONIC, 0, 0, NULL, 0,
		&ts, sizeof ts, NULL, &err);
      /* Served, and promptly, while the read waits.  */
      if (!__atomic_load_n (&r.done, __ATOMIC_ACQUIRE)
	  && sim_now () - c0 < SLOW_MS * 1e-3 / 4)
	served++;
    }
  pthread_join (t, NULL);
  sim_call (&s, GOMP_HS_OP_CLOSE, r.fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  slow_fs_ms = 0;
  sim_stop (&s);
  unlink (path);
  rmdir (dir);
  printf ("slow file system: other ports served while one call waits %d ms:"
	  " %s (%u calls)\n", SLOW_MS, served >= 10 ? "yes" : "no", served);
}

/* The round trip of a call with no payload (lseek of FD), in ns: warm
   up, then measure.  */

static double
lseek_ns (struct sim *s, int64_t fd)
{
  int32_t err;
  double t0;
  int i;
  for (i = 0; i < 1000; i++)
    sim_call (s, GOMP_HS_OP_LSEEK, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  t0 = sim_now ();
  for (i = 0; i < ROUNDS / 4; i++)
    sim_call (s, GOMP_HS_OP_LSEEK, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  return (sim_now () - t0) / (ROUNDS / 4) * 1e9;
}

/* The same round trip served from a process of its own
   (GOMP_HOST_SERVICES_SERVER=process; run-bench.sh builds the helper and
   names it in GOMP_HOST_SERVICES_HELPER); -1 if it cannot start.  */

static double
out_of_process_ns (void)
{
  struct sim s;
  int32_t err;
  int64_t fd;
  double ns;
  const char *helper = getenv ("GOMP_HOST_SERVICES_HELPER");
  if (helper == NULL || access (helper, X_OK) != 0)
    return -1;
  setenv ("GOMP_HOST_SERVICES_SERVER", "process", 1);
  sim_start (&s, 1, 4096, "all");
  unsetenv ("GOMP_HOST_SERVICES_SERVER");
  fd = sim_call (&s, GOMP_HS_OP_OPEN, O_WRONLY, 0, 0, "/dev/null", 10, NULL,
		 0, NULL, &err);
  if (fd < 0)
    {
      sim_stop (&s);
      return -1;
    }
  ns = lseek_ns (&s, fd);
  sim_stop (&s);
  return ns;
}

int
main (int argc, char **argv)
{
  size_t bytes = argc > 1 ? strtoull (argv[1], NULL, 0) : (size_t) 64 << 20;
  unsigned buf = argc > 2 ? (unsigned) strtoul (argv[2], NULL, 0) : 4096;
  struct sim s;
  int32_t err;
  int64_t fd, r;
  double t0, call_ns, pp_ns, hs_bps, mc_bps;
  char *data = calloc (1, bytes ? bytes : 1);

  sim_start (&s, 1, buf, "all");
  fd = sim_call (&s, GOMP_HS_OP_OPEN, O_WRONLY, 0, 0, "/dev/null", 10, NULL,
		 0, NULL, &err);
  if (fd < 0)
    {
      fprintf (stderr, "open /dev/null: errno %d\n", err);
      return 1;
    }

  call_ns = lseek_ns (&s, fd);
  pp_ns = pingpong_ns ();

  t0 = sim_now ();
  r = sim_call (&s, GOMP_HS_OP_WRITE, fd, 0, 0, data, bytes, NULL, 0, NULL,
		&err);
  hs_bps = bytes / (sim_now () - t0);
  mc_bps = memcpy_bps (bytes, buf);
  sim_stop (&s);

  if (r != (int64_t) bytes)
    {
      fprintf (stderr, "write returned %lld, errno %d\n", (long long) r, err);
      return 1;
    }
  printf ("host-service simulated-device benchmark (%d cores online)\n",
	  (int) sysconf (_SC_NPROCESSORS_ONLN));
  printf ("latency: call round trip %.0f ns; baseline cache-line ping-pong"
	  " %.0f ns; ratio %.1f\n", call_ns, pp_ns, call_ns / pp_ns);
  {
    double proc_ns = out_of_process_ns ();
    if (proc_ns > 0)
      printf ("round trip, out of process: %.0f ns (%.2f x in-process)\n",
	      proc_ns, proc_ns / call_ns);
    else
      printf ("round trip, out of process: the server process did not"
	      " start\n");
  }
  printf ("throughput: %zu bytes through one %u-byte port %.1f MB/s;"
	  " baseline memcpy %.1f MB/s; ratio %.3f\n", bytes, buf,
	  hs_bps / 1e6, mc_bps / 1e6, hs_bps / mc_bps);
  control_path_loads (buf);
  idle_wakeup ();
  pipe_writes ();
  slow_fs ();
  free (data);
  return 0;
}
