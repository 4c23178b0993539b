/* The simulated device: host threads acting as device clients, running
   the real client code (libgomp/host-service-client.h) against the real
   server (libgomp/host-service.c) over the same region layout.  Covers
   every opcode, 1 to 512 concurrent clients, payloads from 0 bytes to
   64 MiB (through 4 KiB port buffers; 8 MiB through buffers as small as
   64 bytes) with per-client checksums, bad requests, abandoned calls, descriptor ownership and
   policies, shutdown under callbacks that never return, the device's
   exit while a host thread holds stdin.  Prints one PASS:/FAIL: line per
   check.

   Usage: hs-sim [MAX_BYTES [trace]]   (largest payload; default 64 MiB)
   "trace" runs only the opcode and bad-request checks, for a GOMP_DEBUG
   trace that shows every kind of line once (tests/unit/hs-sim.sh).  */

#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "libgomp-plugin.h"
#include "host-service.h"

#include "sim-client.h"
#include "gomp-host-services.h"
#include "host-service-internal.h"

#define hs_rev_callv hs_callv
#include "target-rev-client.h"

extern void GOMP_target_rev_register (unsigned, const void *const *, size_t);
extern void GOMP_target_rev_unregister (const void *const *);
extern void GOMP_target_rev (const char *, int, size_t, void **, size_t *,
			     unsigned short *);
extern void gomp_target_rev_map_add (int, uintptr_t, uintptr_t, uintptr_t);
extern void gomp_target_rev_map_remove (int, uintptr_t, uintptr_t);
extern int gomp_target_rev_present (int, uintptr_t, size_t, void **);
extern void gomp_target_rev_fns_add (int, const void *, size_t,
				     const uint64_t *, void *const *);
extern void gomp_target_rev_fns_remove (int, const void *);

static int failures, checks;

static void
check (int ok, const char *fmt, ...)
{
  va_list ap;
  checks++;
  printf (ok ? "PASS: sim " : "FAIL: sim ");
  if (!ok)
    failures++;
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  putchar ('\n');
  fflush (stdout);
}

/* A step that prepares a check: no line of its own, a failure when it
   fails.  */
static void
setup (int ok, const char *what)
{
  if (ok)
    return;
  printf ("FAIL: sim setup: %s: %s\n", what, strerror (errno));
  failures++;
  fflush (stdout);
}

static int64_t
sim_path (struct sim *s, uint32_t op, const char *path, int64_t a0,
	  int64_t a1, void *out, uint64_t cap, int32_t *err)
{
  return sim_call (s, op, a0, a1, 0, path, strlen (path) + 1, out, cap, NULL,
		   err);
}

static char tmpdir[256];

/* GOMP_HOST_SERVICES_SERVER=process: the server is another process (see
   test_process_split).  */
static int proc_mode;

static const char *
tmp (const char *name)
{
  static __thread char buf[512];
  snprintf (buf, sizeof buf, "%s/%s", tmpdir, name);
  return buf;
}

static long long
fstat_size (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0 ? (long long) st.st_size : -1;
}

/* Every opcode, with a small port buffer so that stat results and paths
   take several rounds.  */

static void
test_opcodes (void)
{
  struct sim s;
  int32_t err;
  int64_t fd, r;
  char buf[64];
  uint64_t got;
  struct gomp_hs_stat st;
  struct gomp_hs_timespec ts;
  const char msg[] = "hello, host";

  sim_start (&s, 4, 64, "all");
  fd = sim_path (&s, GOMP_HS_OP_OPEN, tmp ("a.txt"),
		 O_CREAT | O_RDWR | O_TRUNC, 0644, NULL, 0, &err);
  check (fd >= 3 && err == 0, "open creates a file: fd %lld", (long long) fd);
  r = sim_call (&s, GOMP_HS_OP_WRITE, fd, 0, 0, msg, sizeof msg - 1, NULL, 0,
		NULL, &err);
  check (r == (int64_t) sizeof msg - 1, "write returns the count");
  r = sim_call (&s, GOMP_HS_OP_LSEEK, fd, 0, SEEK_SET, NULL, 0, NULL, 0, NULL,
		&err);
  check (r == 0 && err == 0, "lseek to 0");
  memset (buf, 0, sizeof buf);
  r = sim_call (&s, GOMP_HS_OP_READ, fd, sizeof buf, 0, NULL, 0, buf,
		sizeof buf, &got, &err);
  check (r == (int64_t) sizeof msg - 1 && got == sizeof msg - 1
	 && memcmp (buf, msg, got) == 0, "read returns the data");
  r = sim_call (&s, GOMP_HS_OP_FSTAT, fd, 0, 0, NULL, 0, &st, sizeof st, &got,
		&err);
  check (r == 0 && got == sizeof st && st.size == (int64_t) sizeof msg - 1
	 && S_ISREG (st.mode), "fstat (two output rounds)");
  r = sim_call (&s, GOMP_HS_OP_ISATTY, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  check (r == 0 && err == ENOTTY, "isatty on a file: 0, ENOTTY");
  r = sim_call (&s, GOMP_HS_OP_FSYNC, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  check (r == 0, "fsync");
  r = sim_call (&s, GOMP_HS_OP_FTRUNCATE, fd, 5, 0, NULL, 0, NULL, 0, NULL,
		&err);
  check (r == 0 && fstat_size (tmp ("a.txt")) == 5, "ftruncate to 5 bytes");
  r = sim_call (&s, GOMP_HS_OP_FTRUNCATE, fd, -1, 0, NULL, 0, NULL, 0, NULL,
		&err);
  check (r == -1 && err == EINVAL, "ftruncate to -1: EINVAL");
  r = sim_call (&s, GOMP_HS_OP_FTRUNCATE, fd, sizeof msg - 1, 0, NULL, 0,
		NULL, 0, NULL, &err);
  check (r == 0 && fstat_size (tmp ("a.txt")) == sizeof msg - 1,
	 "ftruncate back to the full size");
  r = sim_call (&s, GOMP_HS_OP_CLOSE, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  check (r == 0, "close");
  r = sim_call (&s, GOMP_HS_OP_CLOSE, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  check (r == -1 && err == EBADF, "close again: EBADF");
  r = sim_path (&s, GOMP_HS_OP_STAT, tmp ("a.txt"), 0, 0, &st, sizeof st, &err);
  check (r == 0 && st.size == (int64_t) sizeof msg - 1, "stat");
  r = sim_path (&s, GOMP_HS_OP_LSTAT, tmp ("a.txt"), 0, 0, &st, sizeof st,
		&err);
  check (r == 0 && S_ISREG (st.mode), "lstat");
  r = sim_path (&s, GOMP_HS_OP_ACCESS, tmp ("a.txt"), R_OK, 0, NULL, 0, &err);
  check (r == 0, "access");
  {
    char two[600];
    size_t a = strlen (tmp ("a.txt")) + 1;
    memcpy (two, tmp ("a.txt"), a);
    strcpy (two + a, tmp ("b.txt"));
    r = sim_call (&s, GOMP_HS_OP_RENAME, 0, 0, 0, two,
		  a + strlen (two + a) + 1, NULL, 0, NULL, &err);
    check (r == 0 && access (tmp ("b.txt"), F_OK) == 0, "rename");
  }
  r = sim_path (&s, GOMP_HS_OP_STAT, tmp ("a.txt"), 0, 0, &st, sizeof st, &err);
  check (r == -1 && err == ENOENT, "stat of a missing file: ENOENT");
  r = sim_path (&s, GOMP_HS_OP_UNLINK, tmp ("b.txt"), 0, 0, NULL, 0, &err);
  check (r == 0 && access (tmp ("b.txt"), F_OK) != 0, "unlink");
  r = sim_path (&s, GOMP_HS_OP_MKDIR, tmp ("d"), 0755, 0, NULL, 0, &err);
  check (r == 0, "mkdir");
  rmdir (tmp ("d"));
  r = sim_call (&s, GOMP_HS_OP_CLOCK_GETTIME, CLOCK_REALTIME, 0, 0, NULL, 0,
		&ts, sizeof ts, &got, &err);
  check (r == 0 && got == sizeof ts && ts.sec > 1600000000,
	 "clock_gettime (REALTIME)");
  r = sim_call (&s, GOMP_HS_OP_CLOCK_GETTIME, 12345, 0, 0, NULL, 0, &ts,
		sizeof ts, &got, &err);
  check (r == -1 && err == EINVAL, "clock_gettime of a bad clock: EINVAL");
  r = sim_call (&s, GOMP_HS_OP_GETTIMEOFDAY, 0, 0, 0, NULL, 0, &ts, sizeof ts,
		&got, &err);
  check (r == 0 && ts.sec > 1600000000 && ts.nsec < 1000000, "gettimeofday");
  r = sim_call (&s, GOMP_HS_OP_HOST_CALL, 2, 0, 0, "x", 2, NULL, 0, NULL, &err);
  check (r == -1 && err == ENOENT, "host_call of a name not registered: ENOENT");
  r = sim_call (&s, GOMP_HS_OP_WRITE, 1, 0, 0, "", 0, NULL, 0, NULL, &err);
  check (r == 0 && err == 0, "write of 0 bytes to stdout");
  r = sim_call (&s, GOMP_HS_OP_CLOSE, 1, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  check (r == 0 && fcntl (1, F_GETFD) != -1,
	 "close(1) from the device leaves the host's stdout open");
  sim_stop (&s);
}

/* Concurrency and data integrity: NCLIENTS threads, each with its own
   file, write a pseudo-random pattern in calls of varying size, read it
   back in calls of other sizes, and compare checksums.  */

struct worker
{
  struct sim *s;
  unsigned id;
  size_t bytes;
  int ok;
  char why[128];
};

static uint64_t
pattern_byte (unsigned id, size_t i)
{
  uint64_t x = (uint64_t) id * 0x9e3779b97f4a7c15ull + i * 0xbf58476d1ce4e5b9ull;
  x ^= x >> 29;
  return (x * 0x94d049bb133111ebull) >> 56;
}

static void *
worker_fn (void *arg)
{
  struct worker *w = arg;
  struct sim *s = w->s;
  char name[64];
  int32_t err;
  int64_t fd, r;
  unsigned char *data = malloc (w->bytes + 1), *back = malloc (w->bytes + 1);
  size_t off, chunk;
  uint64_t sum_out = 0, sum_in = 0, got;

  sim_client_id = w->id;
  w->ok = 0;
  for (off = 0; off < w->bytes; off++)
    {
      data[off] = pattern_byte (w->id, off);
      sum_out = sum_out * 31 + data[off];
    }
  snprintf (name, sizeof name, "w%u.bin", w->id);
  fd = sim_path (s, GOMP_HS_OP_OPEN, tmp (name), O_CREAT | O_RDWR | O_TRUNC,
		 0600, NULL, 0, &err);
  if (fd < 0)
    {
      snprintf (w->why, sizeof w->why, "open: errno %d", err);
      goto out;
    }
  for (off = 0, chunk = 1 + w->id % 97; off < w->bytes; )
    {
      size_t n = w->bytes - off < chunk ? w->bytes - off : chunk;
      r = sim_call (s, GOMP_HS_OP_WRITE, fd, 0, 0, data + off, n, NULL, 0,
		    NULL, &err);
      if (r != (int64_t) n)
	{
	  snprintf (w->why, sizeof w->why, "write at %zu: %lld, errno %d",
		    off, (long long) r, err);
	  goto out;
	}
      off += n;
      chunk = chunk * 3 + 1;
      if (chunk > (1u << 22))
	chunk = 1 + w->id % 97;
    }
  r = sim_call (s, GOMP_HS_OP_LSEEK, fd, 0, SEEK_SET, NULL, 0, NULL, 0, NULL,
		&err);
  for (off = 0, chunk = 7 + w->id % 13; off < w->bytes; off += got)
    {
      r = sim_call (s, GOMP_HS_OP_READ, fd, chunk, 0, NULL, 0, back + off,
		    w->bytes - off, &got, &err);
      if (r <= 0 || (uint64_t) r != got)
	{
	  snprintf (w->why, sizeof w->why, "read at %zu: %lld, errno %d",
		    off, (long long) r, err);
	  goto out;
	}
      chunk = chunk * 5 + 3;
      if (chunk > (1u << 23))
	chunk = 7 + w->id % 13;
    }
  r = sim_call (s, GOMP_HS_OP_READ, fd, 16, 0, NULL, 0, back, 16, &got, &err);
  if (r != 0)
    {
      snprintf (w->why, sizeof w->why, "read at end of file: %lld",
		(long long) r);
      goto out;
    }
  for (off = 0; off < w->bytes; off++)
    sum_in = sum_in * 31 + back[off];
  if (sum_in != sum_out || memcmp (data, back, w->bytes) != 0)
    {
      snprintf (w->why, sizeof w->why, "checksum mismatch");
      goto out;
    }
  w->ok = 1;
 out:
  if (fd >= 0)
    sim_call (s, GOMP_HS_OP_CLOSE, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  unlink (tmp (name));
  free (data);
  free (back);
  return NULL;
}

static void
test_clients (unsigned nclients, unsigned ports, unsigned buf, size_t bytes)
{
  struct sim s;
  pthread_t *t = calloc (nclients, sizeof *t);
  struct worker *w = calloc (nclients, sizeof *w);
  unsigned i, bad = 0;
  const char *why = "";

  sim_start (&s, ports, buf, "all");
  for (i = 0; i < nclients; i++)
    {
      w[i].s = &s;
      w[i].id = i + 1;
      w[i].bytes = bytes == 0 ? 0 : bytes - (i % 7);
      if (pthread_create (&t[i], NULL, worker_fn, &w[i]) != 0)
	abort ();
    }
  for (i = 0; i < nclients; i++)
    {
      pthread_join (t[i], NULL);
      if (!w[i].ok)
	{
	  bad++;
	  why = w[i].why;
	}
    }
  sim_stop (&s);
  check (bad == 0, "%u clients, %u ports of %u bytes, %zu bytes each: "
	 "checksums match%s%s", nclients, ports, buf, bytes,
	 bad ? ": " : "", why);
  free (t);
  free (w);
}

/* The copies between a caller's memory and a port buffer, shared by the
   lanes of a warp: run every lane's share in turn, as a warp's lanes
   would together, and check that the lanes between them copy every byte
   exactly and touch nothing else, for all alignments and many lengths.  */

static void
test_copy_lanes (void)
{
  static unsigned char region[2048] __attribute__ ((aligned (64)));
  static unsigned char mem[2048];
  unsigned nl[] = { 1, 2, 3, 32 };
  unsigned bad = 0, cases = 0;
  size_t n, off, moff, i;
  unsigned k, lane;
  for (k = 0; k < sizeof nl / sizeof nl[0]; k++)
    for (n = 0; n < 1100; n += n < 80 ? 1 : 37)
      for (off = 0; off < 16; off++)
	for (moff = 0; moff < 9; moff += 4)
	  {
	    /* Out of the region.  */
	    for (i = 0; i < sizeof region; i++)
	      region[i] = pattern_byte (1, i);
	    memset (mem, 0xa5, sizeof mem);
	    for (lane = 0; lane < nl[k]; lane++)
	      hs_copy_out (mem + moff, region + off, n, lane, nl[k]);
	    for (i = 0; i < sizeof mem; i++)
	      if (mem[i] != (i >= moff && i < moff + n
			     ? pattern_byte (1, off + i - moff) : 0xa5))
		{
		  bad++;
		  break;
		}
	    /* Into the region.  */
	    for (i = 0; i < sizeof mem; i++)
	      mem[i] = pattern_byte (2, i);
	    memset (region, 0x5a, sizeof region);
	    for (lane = 0; lane < nl[k]; lane++)
	      hs_copy_in (region + off, mem + moff, n, lane, nl[k]);
	    for (i = 0; i < sizeof region; i++)
	      if (region[i] != (i >= off && i < off + n
				? pattern_byte (2, moff + i - off) : 0x5a))
		{
		  bad++;
		  break;
		}
	    cases += 2;
	  }
  check (bad == 0, "copies shared by 1, 2, 3 and 32 lanes: %u of %u cases"
	 " wrong", bad, cases);
}

/* Two images loaded on one device: each has its own __gomp_host_service,
   but both describe the device's one region and its one set of port
   locks, as the plugin fills them in.  Clients of both at once must never
   share a port (a shared port shows as mixed payloads or a client waiting
   for a sequence number that never comes).  */

static void
test_two_images (void)
{
  struct sim s, s2;
  enum { N = 32 };
  pthread_t t[N];
  struct worker w[N];
  unsigned i, bad = 0;
  const char *why = "";

  sim_start (&s, 4, 64, "all");
  s2 = s;
  s2.dev = malloc (sizeof *s2.dev);
  *s2.dev = *s.dev;
  for (i = 0; i < N; i++)
    {
      w[i].s = i % 2 ? &s2 : &s;
      w[i].id = 1000 + i;
      w[i].bytes = 4096 + i;
      pthread_create (&t[i], NULL, worker_fn, &w[i]);
    }
  for (i = 0; i < N; i++)
    {
      pthread_join (t[i], NULL);
      if (!w[i].ok)
	{
	  bad++;
	  why = w[i].why;
	}
    }
  free (s2.dev);
  sim_stop (&s);
  check (bad == 0, "two images on one device, %d clients over 4 shared ports:"
	 " checksums match%s%s", N, bad ? ": " : "", why);
}

/* Kernels come and go while others run: every client thread is a kernel
   of its own that begins, makes one multi-round write, and ends, so the
   count of running kernels keeps touching zero.  The server must never
   take a call of a kernel that has just begun for one abandoned by a
   kernel that has just ended (the call would fail with EPROTO midway).  */

struct churn
{
  struct sim *s;
  unsigned id, calls, bad;
  int64_t fd;
};

static void *
churn_fn (void *arg)
{
  struct churn *c = arg;
  unsigned char data[300];
  unsigned i;
  int32_t err;
  sim_client_id = c->id;
  memset (data, 'a' + c->id % 26, sizeof data);
  for (i = 0; i < c->calls; i++)
    {
      int64_t r;
      GOMP_PLUGIN_host_service_kernel_begin (c->s->server);
      r = sim_call (c->s, GOMP_HS_OP_WRITE, c->fd, 0, 0, data, sizeof data,
		    NULL, 0, NULL, &err);
      GOMP_PLUGIN_host_service_kernel_end (c->s->server);
      if (r != (int64_t) sizeof data || err != 0)
	c->bad++;
    }
  return NULL;
}

static void
test_kernel_churn (unsigned nthreads, unsigned calls)
{
  struct sim s;
  pthread_t t[16];
  struct churn c[16];
  unsigned i, bad = 0;
  int32_t err;
  int64_t fd;
  struct stat st;

  sim_start (&s, 8, 64, "all");
  fd = sim_path (&s, GOMP_HS_OP_OPEN, tmp ("churn.bin"),
		 O_CREAT | O_WRONLY | O_TRUNC | O_APPEND, 0600, NULL, 0, &err);
  /* No kernel runs but the clients' own.  */
  GOMP_PLUGIN_host_service_kernel_end (s.server);
  for (i = 0; i < nthreads; i++)
    {
      c[i].s = &s;
      c[i].id = i + 1;
      c[i].calls = calls;
      c[i].bad = 0;
      c[i].fd = fd;
      pthread_create (&t[i], NULL, churn_fn, &c[i]);
    }
  for (i = 0; i < nthreads; i++)
    {
      pthread_join (t[i], NULL);
      bad += c[i].bad;
    }
  GOMP_PLUGIN_host_service_kernel_begin (s.server);
  sim_call (&s, GOMP_HS_OP_CLOSE, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  sim_stop (&s);
  stat (tmp ("churn.bin"), &st);
  unlink (tmp ("churn.bin"));
  check (bad == 0 && st.st_size == (off_t) nthreads * calls * 300,
	 "%u kernels beginning and ending around %u multi-round writes: %u"
	 " failed, %lld of %llu bytes written", nthreads * calls,
	 nthreads * calls, bad, (long long) st.st_size,
	 (unsigned long long) nthreads * calls * 300);
}

/* A failed call always reports why: ret -1 with a nonzero errno.  */

static void
test_errno_on_failure (void)
{
  struct sim s;
  int32_t err;
  int64_t r, fd;
  int bad = 0;

  sim_start (&s, 2, 64, "all");
  fd = sim_path (&s, GOMP_HS_OP_OPEN, "/dev/full", O_WRONLY, 0, NULL, 0, &err);
  r = sim_call (&s, GOMP_HS_OP_WRITE, fd, 0, 0, "xyz", 3, NULL, 0, NULL, &err);
  check (fd >= 3 && r == -1 && err == ENOSPC,
	 "write to /dev/full: -1, ENOSPC (%lld, %d)", (long long) r, err);
  sim_call (&s, GOMP_HS_OP_CLOSE, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  r = sim_path (&s, GOMP_HS_OP_OPEN, tmp ("no/such/dir"), O_RDONLY, 0, NULL,
		0, &err);
  bad += r != -1 || err != ENOENT;
  r = sim_path (&s, GOMP_HS_OP_MKDIR, tmpdir, 0700, 0, NULL, 0, &err);
  bad += r != -1 || err != EEXIST;
  r = sim_call (&s, GOMP_HS_OP_LSEEK, 1000, 0, 0, NULL, 0, NULL, 0, NULL,
		&err);
  bad += r != -1 || err != EBADF;
  r = sim_call (&s, GOMP_HS_OP_READ, 1000, 4, 0, NULL, 0, NULL, 0, NULL, &err);
  bad += r != -1 || err != EBADF;
  check (bad == 0, "failed calls report ENOENT, EEXIST, EBADF");
  sim_stop (&s);
}

/* One port blocked for good (a read from a FIFO nobody writes) must not
   hold up the others, and the server must still stop promptly.  */

struct busy
{
  struct sim *s;
  unsigned id, calls, bad;
  int64_t ret;
  int32_t err;
  const char *fifo;
};

static void *
busy_fn (void *arg)
{
  struct busy *b = arg;
  unsigned i;
  int32_t err;
  sim_client_id = b->id;
  for (i = 0; i < b->calls; i++)
    {
      struct gomp_hs_timespec ts;
      if (sim_call (b->s, GOMP_HS_OP_CLOCK_GETTIME, CLOCK_MONOTONIC, 0, 0,
		    NULL, 0, &ts, sizeof ts, NULL, &err) != 0)
	b->bad++;
      /* Now and then a call that is served by a worker too.  */
      if (i % 100 == 0)
	{
	  int64_t fd = sim_path (b->s, GOMP_HS_OP_OPEN, "/dev/null", O_RDONLY,
				 0, NULL, 0, &err);
	  if (fd < 0)
	    b->bad++;
	  sim_call (b->s, GOMP_HS_OP_CLOSE, fd, 0, 0, NULL, 0, NULL, 0, NULL,
		    &err);
	}
    }
  return NULL;
}

static void *
blocked_fn (void *arg)
{
  struct busy *b = arg;
  char buf[16];
  int32_t err;
  int64_t fd;
  sim_client_id = b->id;
  fd = sim_path (b->s, GOMP_HS_OP_OPEN, b->fifo, O_RDWR, 0, NULL, 0, &err);
  b->ret = sim_call (b->s, GOMP_HS_OP_READ, fd, sizeof buf, 0, NULL, 0, buf,
		     sizeof buf, NULL, &b->err);
  return NULL;
}

static void *
watchdog_fn (void *arg)
{
  sleep (*(unsigned *) arg);
  printf ("FAIL: sim watchdog: a test hung\n");
  fflush (stdout);
  _exit (1);
}

static void
test_blocked_port (unsigned calls)
{
  struct sim s;
  enum { N = 64, BLOCKED = 3 };
  pthread_t dog;
  unsigned limit = 300;
  pthread_t t[N];
  struct busy b[N];
  unsigned i, bad = 0;
  double t0, t1;
  const char *fifo = tmp ("blocked.fifo");
  char path[512];

  snprintf (path, sizeof path, "%s", fifo);
  mkfifo (path, 0600);
  sim_start (&s, N, 64, "all");
  memset (b, 0, sizeof b);
  pthread_create (&dog, NULL, watchdog_fn, &limit);
  /* Several ports block at once: each needs a worker of its own.  */
  for (i = 0; i < BLOCKED; i++)
    {
      b[i].s = &s;
      b[i].id = i;
      b[i].fifo = path;
      pthread_create (&t[i], NULL, blocked_fn, &b[i]);
    }
  usleep (100000);
  t0 = sim_now ();
  for (i = BLOCKED; i < N; i++)
    {
      b[i].s = &s;
      b[i].id = i;
      b[i].calls = calls;
      pthread_create (&t[i], NULL, busy_fn, &b[i]);
    }
  for (i = BLOCKED; i < N; i++)
    {
      pthread_join (t[i], NULL);
      bad += b[i].bad;
    }
  t1 = sim_now ();
  check (bad == 0, "%u clients complete %u calls each (some served by"
	 " workers) while %u ports are blocked in reads (%.2f s)",
	 N - BLOCKED, calls, BLOCKED, t1 - t0);
  /* As the plugin tears down: shutdown, wait for the "kernel", fini.  */
  GOMP_PLUGIN_host_service_shutdown (s.server);
  for (i = 0; i < BLOCKED; i++)
    {
      pthread_join (t[i], NULL);
      bad += b[i].ret != -1 || b[i].err != ECANCELED;
    }
  sim_stop (&s);
  pthread_cancel (dog);
  pthread_join (dog, NULL);
  check (sim_now () - t1 < 3 && bad == 0,
	 "then the server stops in %.2f s; the blocked reads fail with"
	 " ECANCELED", sim_now () - t1);
  unlink (path);
}

/* Security: what device code must not reach, under each policy.  */

static int64_t sim_host_call (struct sim *, const char *, void *, size_t,
			      int32_t *);
static int64_t cb_const (void *, size_t, void *);

static void
unsupported (const char *what)
{
  printf ("UNSUPPORTED: sim %s\n", what);
  fflush (stdout);
}

static int64_t
cb_open_outside (void *buf, size_t size, void *user)
{
  int fd = open ((const char *) user, O_RDONLY);
  (void) buf;
  (void) size;
  if (fd < 0)
    return -errno;
  close (fd);
  return 0;
}

struct confine_arg
{
  struct gomp_host_service *s;
  const char *outside;
  int confined, open_errno;
};

static void *
confine_fn (void *arg)
{
  struct confine_arg *a = arg;
  int fd;
  a->confined = gomp_hs_confine_thread (a->s);
  fd = open (a->outside, O_RDONLY);
  a->open_errno = fd < 0 ? errno : 0;
  if (fd >= 0)
    close (fd);
  return NULL;
}

static void
test_security (void)
{
  struct sim s;
  int32_t err;
  int64_t r, fd;
  int host_fd;
  char path[600], root[512], outside[600], inside[600];
  struct stat st;
  uint64_t got;
  char buf[64];

  /* Magic links and procfs, at every policy that opens files.  */
  host_fd = open (tmp ("host-secret.txt"), O_CREAT | O_RDWR | O_TRUNC, 0600);
  setup (write (host_fd, "secret", 6) == 6, "host-secret.txt");
  unlink (tmp ("host-secret.txt"));
  sim_start (&s, 2, 64, "all");
  snprintf (path, sizeof path, "/proc/self/fd/%d", host_fd);
  fd = sim_path (&s, GOMP_HS_OP_OPEN, path, O_RDWR, 0, NULL, 0, &err);
  check (fd == -1 && err != 0,
	 "all: %s (a host fd, its file unlinked) is refused (errno %d)",
	 path, err);
  snprintf (path, sizeof path, "/dev/fd/%d", host_fd);
  fd = sim_path (&s, GOMP_HS_OP_OPEN, path, O_WRONLY | O_APPEND, 0, NULL, 0,
		 &err);
  check (fd == -1 && err != 0, "all: %s is refused (errno %d)", path, err);
  fd = sim_path (&s, GOMP_HS_OP_OPEN, "/proc/self/mem", O_RDWR, 0, NULL, 0,
		 &err);
  check (fd == -1 && err == EACCES, "all: /proc/self/mem is refused: EACCES");
  fd = sim_path (&s, GOMP_HS_OP_OPEN, "/proc/self/cwd/x", O_RDONLY, 0, NULL,
		 0, &err);
  check (fd == -1 && err != 0 && err != ENOENT,
	 "all: a path through /proc/self/cwd is refused (errno %d)", err);
  /* Modes are masked to 0777.  */
  fd = sim_path (&s, GOMP_HS_OP_OPEN, tmp ("suid.bin"),
		 O_CREAT | O_WRONLY | O_TRUNC, 06777, NULL, 0, &err);
  stat (tmp ("suid.bin"), &st);
  check (fd >= 3 && !(st.st_mode & (S_ISUID | S_ISGID | S_ISVTX)),
	 "all: open with mode 06777 creates no set-user/group-ID file (%o)",
	 (unsigned) st.st_mode & 07777);
  sim_call (&s, GOMP_HS_OP_CLOSE, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  unlink (tmp ("suid.bin"));
  r = sim_path (&s, GOMP_HS_OP_MKDIR, tmp ("sticky"), 01777, 0, NULL, 0, &err);
  stat (tmp ("sticky"), &st);
  check (r == 0 && !(st.st_mode & S_ISVTX),
	 "all: mkdir with mode 01777 makes no sticky directory");
  rmdir (tmp ("sticky"));
  sim_stop (&s);

  sim_start (&s, 2, 64, "readonly");
  snprintf (path, sizeof path, "/proc/self/fd/%d", host_fd);
  fd = sim_path (&s, GOMP_HS_OP_OPEN, path, O_RDONLY, 0, NULL, 0, &err);
  check (fd == -1 && err != 0, "readonly: %s is refused (errno %d)", path,
	 err);
  r = sim_call (&s, GOMP_HS_OP_LSEEK, 1, 0, SEEK_SET, NULL, 0, NULL, 0, NULL,
		&err);
  check (r == -1 && err == EPERM, "readonly: lseek on the host's fd 1: EPERM");
  r = sim_call (&s, GOMP_HS_OP_LSEEK, 0, 0, SEEK_CUR, NULL, 0, NULL, 0, NULL,
		&err);
  check (r == -1 && err == EPERM, "readonly: lseek on the host's fd 0: EPERM");
  r = sim_call (&s, GOMP_HS_OP_WRITE, 0, 0, 0, "x", 1, NULL, 0, NULL, &err);
  check (r == -1 && err == EPERM, "readonly: write to the host's fd 0: EPERM");
  r = sim_call (&s, GOMP_HS_OP_WRITE, 2, 0, 0, "", 0, NULL, 0, NULL, &err);
  check (r == 0, "readonly: plain writes to fd 2 still work");
  sim_stop (&s);
  close (host_fd);

  /* Limits.  */
  setenv ("GOMP_HOST_SERVICES_MAX_FDS", "5", 1);
  sim_start (&s, 2, 64, "all");
  {
    int64_t fds[6];
    int i, opened = 0;
    for (i = 0; i < 6; i++)
      if ((fds[i] = sim_path (&s, GOMP_HS_OP_OPEN, "/dev/null", O_RDONLY, 0,
			      NULL, 0, &err)) >= 0)
	opened++;
    check (opened == 5 && fds[5] == -1 && err == EMFILE,
	   "GOMP_HOST_SERVICES_MAX_FDS=5: the sixth open fails with EMFILE");
    sim_call (&s, GOMP_HS_OP_CLOSE, fds[0], 0, 0, NULL, 0, NULL, 0, NULL,
	      &err);
    fds[0] = sim_path (&s, GOMP_HS_OP_OPEN, "/dev/null", O_RDONLY, 0, NULL,
		       0, &err);
    check (fds[0] >= 3, "after a close, an open succeeds again");
  }
  sim_stop (&s);
  unsetenv ("GOMP_HOST_SERVICES_MAX_FDS");
  setenv ("GOMP_HOST_SERVICES_STAGING", "4096", 1);
  setenv ("GOMP_HOST_SERVICES_STAGING_MAX", "65536", 1);
  sim_start (&s, 4, 256, "all");
  {
    size_t n = 1 << 20;
    unsigned char *big = calloc (1, n);
    libgomp_host_register ("sink", cb_const, (void *) 5);
    r = sim_host_call (&s, "sink", big, n, &err);
    check (r == -1 && err == ENOMEM,
	   "GOMP_HOST_SERVICES_STAGING_MAX=64K: a 1 MiB host call fails with"
	   " ENOMEM");
    fd = sim_path (&s, GOMP_HS_OP_OPEN, "/dev/null", O_WRONLY, 0, NULL, 0,
		   &err);
    r = sim_call (&s, GOMP_HS_OP_WRITE, fd, 0, 0, big, n, NULL, 0, NULL, &err);
    check (r == (int64_t) n,
	   "... while a 1 MiB write still goes through, a stage at a time");
    r = sim_host_call (&s, "sink", big, 1000, &err);
    check (r == 5 && err == 0, "... and a small host call works");
    libgomp_host_unregister ("sink");
    free (big);
  }
  sim_stop (&s);
  unsetenv ("GOMP_HOST_SERVICES_STAGING");
  unsetenv ("GOMP_HOST_SERVICES_STAGING_MAX");

  /* Confinement.  */
  snprintf (root, sizeof root, "%s", tmp ("root"));
  mkdir (root, 0700);
  snprintf (inside, sizeof inside, "%s/inside.txt", root);
  snprintf (outside, sizeof outside, "%s", tmp ("outside.txt"));
  host_fd = open (inside, O_CREAT | O_WRONLY | O_TRUNC, 0600);
  setup (write (host_fd, "in", 2) == 2, "inside.txt");
  close (host_fd);
  host_fd = open (outside, O_CREAT | O_WRONLY | O_TRUNC, 0600);
  setup (write (host_fd, "out", 3) == 3, "outside.txt");
  close (host_fd);
  snprintf (path, sizeof path, "%s/escape", root);
  setup (symlink ("../outside.txt", path) == 0, "the link escape");
  snprintf (path, sizeof path, "%s/abs", root);
  setup (symlink (outside, path) == 0, "the link abs");
  setenv ("GOMP_HOST_SERVICES_ROOT", root, 1);
  sim_start (&s, 2, 64, "all");
  if (s.server == NULL || !s.server->have_openat2)
    unsupported ("GOMP_HOST_SERVICES_ROOT (no openat2)");
  else
    {
      struct { const char *path; const char *what; } esc[] = {
	{ "../outside.txt", "'..'" },
	{ outside, "an absolute path outside" },
	{ "escape", "a symbolic link to '..'" },
	{ "abs", "a symbolic link to an absolute path" },
	{ "/proc/self/mem", "/proc/self/mem" },
      };
      unsigned i;
      fd = sim_path (&s, GOMP_HS_OP_OPEN, "inside.txt", O_RDONLY, 0, NULL, 0,
		     &err);
      r = sim_call (&s, GOMP_HS_OP_READ, fd, sizeof buf, 0, NULL, 0, buf,
		    sizeof buf, &got, &err);
      check (fd >= 3 && r == 2 && memcmp (buf, "in", 2) == 0,
	     "root: a relative path resolves in the root");
      sim_call (&s, GOMP_HS_OP_CLOSE, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
      fd = sim_path (&s, GOMP_HS_OP_OPEN, inside, O_RDONLY, 0, NULL, 0, &err);
      check (fd >= 3, "root: an absolute path into the root works");
      sim_call (&s, GOMP_HS_OP_CLOSE, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
      for (i = 0; i < sizeof esc / sizeof esc[0]; i++)
	{
	  fd = sim_path (&s, GOMP_HS_OP_OPEN, esc[i].path, O_RDWR, 0, NULL, 0,
			 &err);
	  check (fd == -1 && err == EACCES, "root: open through %s: EACCES",
		 esc[i].what);
	}
      r = sim_path (&s, GOMP_HS_OP_STAT, "../outside.txt", 0, 0, &st,
		    sizeof st, &err);
      check (r == -1 && err == EACCES, "root: stat of '../x': EACCES");
      r = sim_path (&s, GOMP_HS_OP_STAT, "escape", 0, 0, &st, sizeof st,
		    &err);
      check (r == -1 && err == EACCES,
	     "root: stat through an escaping symbolic link: EACCES");
      r = sim_path (&s, GOMP_HS_OP_LSTAT, "escape", 0, 0, &st, sizeof st,
		    &err);
      check (r == 0, "root: lstat of the link itself works");
      r = sim_path (&s, GOMP_HS_OP_ACCESS, "../outside.txt", F_OK, 0, NULL, 0,
		    &err);
      check (r == -1 && err == EACCES, "root: access of '../x': EACCES");
      r = sim_path (&s, GOMP_HS_OP_UNLINK, "../outside.txt", 0, 0, NULL, 0,
		    &err);
      check (r == -1 && err == EACCES && access (outside, F_OK) == 0,
	     "root: unlink of '../x': EACCES, the file stays");
      r = sim_path (&s, GOMP_HS_OP_UNLINK, "escape/../../outside.txt", 0, 0,
		    NULL, 0, &err);
      check (r == -1 && access (outside, F_OK) == 0,
	     "root: unlink through a link and '..': refused, the file stays");
      r = sim_path (&s, GOMP_HS_OP_MKDIR, "../made", 0700, 0, NULL, 0, &err);
      check (r == -1 && err == EACCES && access (tmp ("made"), F_OK) != 0,
	     "root: mkdir of '../x': EACCES");
      {
	char two[64];
	memcpy (two, "inside.txt", 11);
	memcpy (two + 11, "../moved.txt", 13);
	r = sim_call (&s, GOMP_HS_OP_RENAME, 0, 0, 0, two, 24, NULL, 0, NULL,
		      &err);
	check (r == -1 && err == EACCES && access (inside, F_OK) == 0,
	       "root: rename out of the root: EACCES");
	memcpy (two + 11, "sub.txt", 8);
	r = sim_call (&s, GOMP_HS_OP_RENAME, 0, 0, 0, two, 19, NULL, 0, NULL,
		      &err);
	check (r == 0, "root: rename within the root works");
      }
      r = sim_path (&s, GOMP_HS_OP_MKDIR, "d", 0700, 0, NULL, 0, &err);
      check (r == 0, "root: mkdir within the root works");
      r = sim_path (&s, GOMP_HS_OP_UNLINK, "sub.txt", 0, 0, NULL, 0, &err);
      check (r == 0, "root: unlink within the root works");
      libgomp_host_register ("outside", cb_open_outside, outside);
      r = sim_host_call (&s, "outside", NULL, 0, &err);
      check (r == 0 && err == 0,
	     "root: a host callback is not confined (it opens a file outside)");
      libgomp_host_unregister ("outside");
      if (s.server->landlock_fd < 0)
	unsupported ("Landlock (not available)");
      else
	{
	  struct confine_arg a = { s.server, outside, 0, 0 };
	  pthread_t t;
	  pthread_create (&t, NULL, confine_fn, &a);
	  pthread_join (t, NULL);
	  host_fd = open (outside, O_RDONLY);
	  check (a.confined && a.open_errno == EACCES && host_fd >= 0,
		 "Landlock confines a worker thread to the root and only it");
	  if (host_fd >= 0)
	    close (host_fd);
	}
    }
  sim_stop (&s);
  unsetenv ("GOMP_HOST_SERVICES_ROOT");
  snprintf (path, sizeof path, "%s/escape", root);
  unlink (path);
  snprintf (path, sizeof path, "%s/abs", root);
  unlink (path);
  snprintf (path, sizeof path, "%s/d", root);
  rmdir (path);
  unlink (inside);
  rmdir (root);
  unlink (outside);
}

/* One write of N bytes to a pipe must arrive as one host write when it
   fits the staging size: read it from the other end and compare.  */

static void
test_big_single (size_t n, unsigned buf)
{
  struct sim s;
  int32_t err;
  int64_t fd, r;
  unsigned char *data = malloc (n ? n : 1), *back = malloc (n ? n : 1);
  size_t i;
  uint64_t got;

  for (i = 0; i < n; i++)
    data[i] = pattern_byte (99, i);
  sim_start (&s, 2, buf, "all");
  fd = sim_path (&s, GOMP_HS_OP_OPEN, tmp ("big.bin"),
		 O_CREAT | O_RDWR | O_TRUNC, 0600, NULL, 0, &err);
  r = sim_call (&s, GOMP_HS_OP_WRITE, fd, 0, 0, data, n, NULL, 0, NULL, &err);
  check (r == (int64_t) n, "one write of %zu bytes through %u-byte buffers",
	 n, buf);
  sim_call (&s, GOMP_HS_OP_LSEEK, fd, 0, SEEK_SET, NULL, 0, NULL, 0, NULL,
	    &err);
  memset (back, 0, n ? n : 1);
  r = sim_call (&s, GOMP_HS_OP_READ, fd, n, 0, NULL, 0, back, n, &got, &err);
  check (r == (int64_t) n && got == n && memcmp (data, back, n) == 0,
	 "one read of %zu bytes through %u-byte buffers", n, buf);
  sim_call (&s, GOMP_HS_OP_CLOSE, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  sim_stop (&s);
  unlink (tmp ("big.bin"));
  free (data);
  free (back);
}

/* Requests no correct client sends, written into a port by hand.  The
   caller holds the port's lock.  */

struct raw_reply
{
  int64_t ret;
  int32_t err;
  uint32_t flags;
  uint64_t len;
};

static void
raw_round (struct sim *s, uint32_t port, uint32_t op, uint32_t flags,
	   int64_t a0, uint64_t len, uint64_t total, const void *payload,
	   size_t plen, struct raw_reply *rep)
{
  volatile struct gomp_hs_port *p = hs_port (s->dev, port);
  volatile unsigned char *b = hs_buf (s->dev, port);
  uint32_t info;
  size_t i;
  for (i = 0; i < plen; i++)
    b[i] = ((const unsigned char *) payload)[i];
  p->req.op = op;
  p->req.flags = flags;
  p->req.arg[0] = a0;
  p->req.arg[1] = p->req.arg[2] = p->req.arg[3] = 0;
  p->req.len = len;
  p->req.total = total;
  hs_round (p, ++s->ports[port].seq, &info, &rep->ret);
  rep->err = GOMP_HS_INFO_ERRNO (info);
  rep->flags = GOMP_HS_INFO_FLAGS (info);
  rep->len = GOMP_HS_INFO_LEN (info);
}

/* Take port I's lock, as a client would.  */

static void
sim_lock_port (struct sim *s, uint32_t i)
{
  uint32_t z;
  do
    z = 0;
  while (!__atomic_compare_exchange_n (&s->ports[i].lock, &z, 1, 0,
				       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
}

static int
count_open_fds (void)
{
  int n = 0;
  DIR *d = opendir ("/proc/self/fd");
  if (d == NULL)
    return -1;
  while (readdir (d) != NULL)
    n++;
  closedir (d);
  return n;
}

static void
test_bad_requests (void)
{
  struct sim s;
  struct raw_reply rep;
  int32_t err;
  int64_t r;
  char path[64];
  int host_fd;
  struct stat st;

  sim_start (&s, 2, 64, "all");
  sim_lock_port (&s, 0);	/* Port 0 is ours to abuse.  */

  raw_round (&s, 0, 999, GOMP_HS_REQ_FIRST, 0, 0, 0, NULL, 0, &rep);
  check (rep.ret == -1 && rep.err == ENOSYS && rep.flags == 0,
	 "unknown opcode: ENOSYS");
  raw_round (&s, 0, GOMP_HS_OP_NONE, GOMP_HS_REQ_FIRST, 0, 0, 0, NULL, 0, &rep);
  check (rep.ret == -1 && rep.err == ENOSYS, "opcode 0: ENOSYS");
  raw_round (&s, 0, GOMP_HS_OP_WRITE, GOMP_HS_REQ_FIRST, 1, 65, 65, NULL, 0,
	     &rep);
  check (rep.ret == -1 && rep.err == EINVAL, "length past the buffer: EINVAL");
  raw_round (&s, 0, GOMP_HS_OP_WRITE, GOMP_HS_REQ_FIRST, 1, 10, 5, NULL, 0,
	     &rep);
  check (rep.ret == -1 && rep.err == EINVAL, "length past the total: EINVAL");
  memset (path, 'x', sizeof path);
  raw_round (&s, 0, GOMP_HS_OP_STAT, GOMP_HS_REQ_FIRST, 0, 64, 64, path, 64,
	     &rep);
  check (rep.ret == -1 && rep.err == EINVAL, "unterminated path: EINVAL");
  raw_round (&s, 0, GOMP_HS_OP_RENAME, GOMP_HS_REQ_FIRST, 0, 2, 2, "a", 2,
	     &rep);
  check (rep.ret == -1 && rep.err == EINVAL, "rename with one path: EINVAL");
  raw_round (&s, 0, GOMP_HS_OP_STAT, GOMP_HS_REQ_FIRST, 0, 0, 1u << 20, NULL,
	     0, &rep);
  check (rep.ret == -1 && rep.err == ENAMETOOLONG && rep.flags == 0,
	 "path longer than PATH_MAX: ENAMETOOLONG, call ended");
  raw_round (&s, 0, GOMP_HS_OP_STAT, GOMP_HS_REQ_FIRST, 0, 0, 0, NULL, 0, &rep);
  check (rep.ret == -1 && rep.err == EFAULT, "empty path input: EFAULT");
  raw_round (&s, 0, GOMP_HS_OP_READ, 0x77, 0, 0, 0, NULL, 0, &rep);
  check (rep.ret == -1 && rep.err == EINVAL, "bad flags: EINVAL");
  raw_round (&s, 0, GOMP_HS_OP_WRITE, GOMP_HS_REQ_CONT, 1, 0, 0, NULL, 0, &rep);
  check (rep.ret == -1 && rep.err == EPROTO,
	 "continuation without a call: EPROTO");
  raw_round (&s, 0, GOMP_HS_OP_CLOSE, GOMP_HS_REQ_FIRST, 57, 0, 0, NULL, 0,
	     &rep);
  check (rep.ret == -1 && rep.err == EBADF, "fd not in the table: EBADF");
  raw_round (&s, 0, GOMP_HS_OP_READ, GOMP_HS_REQ_FIRST, -5, 0, 0, NULL, 0, &rep);
  check (rep.ret == -1 && rep.err == EBADF, "negative fd: EBADF");

  /* A descriptor the host itself owns is not the device's to use.  */
  host_fd = open (tmp ("host-own.txt"), O_CREAT | O_RDWR, 0600);
  raw_round (&s, 0, GOMP_HS_OP_WRITE, GOMP_HS_REQ_FIRST, host_fd, 3, 3, "bad",
	     3, &rep);
  fstat (host_fd, &st);
  check (rep.ret == -1 && rep.err == EBADF && st.st_size == 0,
	 "the host's own fd %d: EBADF, file untouched", host_fd);
  close (host_fd);
  unlink (tmp ("host-own.txt"));

  /* Abandon a write midway: the first of three rounds, then a new call.  */
  {
    int64_t fd = sim_path (&s, GOMP_HS_OP_OPEN, tmp ("abandon.txt"),
			   O_CREAT | O_WRONLY | O_TRUNC, 0600, NULL, 0, &err);
    raw_round (&s, 0, GOMP_HS_OP_WRITE, GOMP_HS_REQ_FIRST, fd, 64, 192,
	       "0123456789012345678901234567890123456789012345678901234567890123",
	       64, &rep);
    check (rep.flags == GOMP_HS_REP_MORE_IN, "first round of three: MORE_IN");
    raw_round (&s, 0, GOMP_HS_OP_LSEEK, GOMP_HS_REQ_FIRST, fd, 0, 0, NULL, 0,
	       &rep);
    check (rep.ret == 0 && rep.err == 0,
	   "a new call on the port after an abandoned one works");
    stat (tmp ("abandon.txt"), &st);
    check (st.st_size == 0, "the abandoned write wrote nothing");
    raw_round (&s, 0, GOMP_HS_OP_WRITE, GOMP_HS_REQ_FIRST, fd, 64, 192,
	       "0123456789012345678901234567890123456789012345678901234567890123",
	       64, &rep);
    /* The kernel ends with the call half done; the server notices that
       no kernel runs (give it time), then one starts again.  */
    GOMP_PLUGIN_host_service_kernel_end (s.server);
    usleep (50000);
    GOMP_PLUGIN_host_service_kernel_begin (s.server);
    raw_round (&s, 0, GOMP_HS_OP_WRITE, GOMP_HS_REQ_CONT, fd, 64, 192,
	       "0123456789012345678901234567890123456789012345678901234567890123",
	       64, &rep);
    check (rep.ret == -1 && rep.err == EPROTO,
	   "after the kernel ended, its half-done call is gone: EPROTO");
    sim_call (&s, GOMP_HS_OP_CLOSE, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
    unlink (tmp ("abandon.txt"));
  }
  hs_port_release (s.ports, 0);

  /* The host is unharmed: a normal call still works.  */
  r = sim_call (&s, GOMP_HS_OP_GETTIMEOFDAY, 0, 0, 0, NULL, 0, NULL, 0, NULL,
		&err);
  check (r == 0 && err == 0, "after bad requests the server still serves");
  sim_stop (&s);

  /* Descriptors the device leaves open are closed when the server goes.  */
  {
    int before = count_open_fds (), i;
    sim_start (&s, 2, 64, "all");
    for (i = 0; i < 3; i++)
      sim_path (&s, GOMP_HS_OP_OPEN, tmp ("leak.txt"), O_CREAT | O_RDWR, 0600,
		NULL, 0, &err);
    sim_stop (&s);
    unlink (tmp ("leak.txt"));
    check (count_open_fds () == before,
	   "fds the device left open are closed at fini (%d -> %d)", before,
	   count_open_fds ());
  }

  /* A device whose geometry the plugin did not fill in is refused by the
     client.  */
  sim_start (&s, 2, 64, "all");
  s.dev->ports = 0;
  r = sim_call (&s, GOMP_HS_OP_GETTIMEOFDAY, 0, 0, 0, NULL, 0, NULL, 0, NULL,
		&err);
  check (r == -1 && err == ENOSYS, "client without port locks: ENOSYS");
  s.dev->ports = (uintptr_t) s.ports;
  s.dev->buf_size = GOMP_HS_MAX_BUF_SIZE * 2;
  r = sim_call (&s, GOMP_HS_OP_GETTIMEOFDAY, 0, 0, 0, NULL, 0, NULL, 0, NULL,
		&err);
  check (r == -1 && err == ENOSYS, "client with a bad geometry: ENOSYS");
  s.dev->buf_size = 64;
  sim_stop (&s);
}

static void
test_policies (void)
{
  struct sim s;
  int32_t err;
  int64_t r, fd;

  sim_start (&s, 2, 64, "readonly");
  fd = sim_path (&s, GOMP_HS_OP_OPEN, tmp ("ro.txt"), O_CREAT | O_WRONLY, 0600,
		 NULL, 0, &err);
  check (fd == -1 && err == EROFS && access (tmp ("ro.txt"), F_OK) != 0,
	 "readonly: open for writing: EROFS");
  r = sim_path (&s, GOMP_HS_OP_UNLINK, "/nonexistent", 0, 0, NULL, 0, &err);
  check (r == -1 && err == EROFS, "readonly: unlink: EROFS");
  fd = sim_path (&s, GOMP_HS_OP_OPEN, "/dev/null", O_RDONLY, 0, NULL, 0, &err);
  check (fd >= 3, "readonly: open for reading works");
  r = sim_call (&s, GOMP_HS_OP_WRITE, 2, 0, 0, "", 0, NULL, 0, NULL, &err);
  check (r == 0, "readonly: stderr still writable");
  sim_stop (&s);

  sim_start (&s, 2, 64, "stdio");
  fd = sim_path (&s, GOMP_HS_OP_OPEN, "/dev/null", O_RDONLY, 0, NULL, 0, &err);
  check (fd == -1 && err == EPERM, "stdio: open: EPERM");
  r = sim_call (&s, GOMP_HS_OP_WRITE, 1, 0, 0, "", 0, NULL, 0, NULL, &err);
  check (r == 0, "stdio: stdout writable");
  r = sim_call (&s, GOMP_HS_OP_FTRUNCATE, 1, 0, 0, NULL, 0, NULL, 0, NULL,
		&err);
  check (r == -1 && err == EPERM, "stdio: ftruncate of the host's stdout: EPERM");
  sim_stop (&s);

  sim_start (&s, 2, 64, "off");
  check (s.size == 0 && s.server == NULL, "off: no region");
  r = sim_call (&s, GOMP_HS_OP_WRITE, 1, 0, 0, "", 0, NULL, 0, NULL, &err);
  check (r == -1 && err == ENOSYS, "off: the client gets ENOSYS");
  sim_stop (&s);
}

/* Named host callbacks.  */

/* A device-side libgomp_host_call, as config/nvptx/host-call.c makes it.  */
static int64_t
sim_host_call (struct sim *s, const char *name, void *buf, size_t size,
	       int32_t *err)
{
  int64_t args[4] = { (int64_t) strlen (name) + 1, (int64_t) size, 0, 0 };
  return hs_call2 (s->dev, GOMP_HS_OP_HOST_CALL, args, name,
		   strlen (name) + 1, buf, size, buf, size, NULL, err);
}

/* Reverse the buffer; return the sum of its bytes.  */
static int64_t
cb_reverse (void *buf, size_t size, void *user)
{
  unsigned char *p = buf;
  int64_t sum = 0;
  size_t i;
  (void) user;
  for (i = 0; i < size; i++)
    sum += p[i];
  for (i = 0; i < size / 2; i++)
    {
      unsigned char t = p[i];
      p[i] = p[size - 1 - i];
      p[size - 1 - i] = t;
    }
  return sum;
}

static int64_t
cb_const (void *buf, size_t size, void *user)
{
  (void) buf;
  (void) size;
  return (int64_t) (intptr_t) user;
}

static int64_t
cb_in_callback (void *buf, size_t size, void *user)
{
  (void) buf;
  (void) size;
  (void) user;
  return GOMP_PLUGIN_host_service_in_callback ();
}

/* Does file I/O on the host: appends the buffer to the file USER.  */
static int64_t
cb_log (void *buf, size_t size, void *user)
{
  FILE *f = fopen ((const char *) user, "a");
  size_t w;
  if (f == NULL)
    return -errno;
  w = fwrite (buf, 1, size, f);
  fclose (f);
  return (int64_t) w;
}

static volatile int slow_entered, slow_release;

static int64_t
cb_slow (void *buf, size_t size, void *user)
{
  (void) buf;
  (void) size;
  (void) user;
  __atomic_store_n (&slow_entered, 1, __ATOMIC_SEQ_CST);
  while (!__atomic_load_n (&slow_release, __ATOMIC_SEQ_CST))
    usleep (1000);
  return 7;
}

static int64_t
cb_unregister_self (void *buf, size_t size, void *user)
{
  (void) buf;
  (void) size;
  (void) user;
  return libgomp_host_unregister ("self");
}

static int
validate_pair (const void *buf, size_t size, void *user)
{
  int32_t a[2];
  (void) user;
  memcpy (a, buf, sizeof a);
  (void) size;
  return a[0] <= a[1] ? 0 : ERANGE;
}

static int64_t
cb_pair (void *buf, size_t size, void *user)
{
  int32_t a[2];
  (void) size;
  (void) user;
  memcpy (a, buf, sizeof a);
  return a[1] - a[0];
}

struct caller
{
  struct sim *s;
  unsigned id;
  int ok;
  int64_t ret;
  int32_t err;
};

static void *
caller_fn (void *arg)
{
  struct caller *c = arg;
  unsigned char buf[1024], want[1024];
  int64_t sum = 0;
  size_t n = 1 + c->id % sizeof buf, i;
  sim_client_id = c->id;
  for (i = 0; i < n; i++)
    {
      buf[i] = pattern_byte (c->id, i);
      sum += buf[i];
      want[n - 1 - i] = buf[i];
    }
  c->ret = sim_host_call (c->s, "reverse", buf, n, &c->err);
  c->ok = c->ret == sum && c->err == 0 && memcmp (buf, want, n) == 0;
  return NULL;
}

static void *
slow_caller_fn (void *arg)
{
  struct caller *c = arg;
  sim_client_id = c->id;
  c->ret = sim_host_call (c->s, "slow", NULL, 0, &c->err);
  return NULL;
}

static void *
unregister_fn (void *arg)
{
  *(int *) arg = libgomp_host_unregister ("slow");
  return NULL;
}

static void
test_host_calls (size_t max)
{
  struct sim s;
  int32_t err;
  int64_t r;
  int e;
  size_t sizes[] = { 0, 1, 63, 64, 65, 1000, 1 << 20, 16 << 20 };
  unsigned i;
  char logfile[600];
  struct libgomp_host_type pair = { 8, 8, validate_pair };
  char longname[300];

  sim_start (&s, 8, 64, "all");
  check (libgomp_host_register ("reverse", cb_reverse, NULL) == 0,
	 "register a callback");

  /* In/out integrity and return values, up to 16 MiB.  */
  for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
      size_t n = sizes[i] <= max ? sizes[i] : max, k;
      unsigned char *buf = malloc (n + 1), *want = malloc (n + 1);
      int64_t sum = 0;
      for (k = 0; k < n; k++)
	{
	  buf[k] = pattern_byte (7, k);
	  sum += buf[k];
	  want[n - 1 - k] = buf[k];
	}
      r = sim_host_call (&s, "reverse", buf, n, &err);
      check (r == sum && err == 0 && memcmp (buf, want, n) == 0,
	     "host call with %zu bytes: buffer changed by the host, result"
	     " returned", n);
      /* Host fallback: the same call made on the host.  */
      e = -1;
      r = libgomp_host_call ("reverse", buf, n, &e);
      for (k = 0; k < n; k++)
	if (buf[k] != pattern_byte (7, k))
	  break;
      check (r == sum && e == 0 && k == n,
	     "the same call on the host (fallback path), %zu bytes", n);
      free (buf);
      free (want);
    }

  r = sim_host_call (&s, "no-such-service", NULL, 0, &err);
  check (r == -1 && err == ENOENT, "unregistered name: ENOENT");
  e = 0;
  r = libgomp_host_call ("no-such-service", NULL, 0, &e);
  check (r == -1 && e == ENOENT && errno == ENOENT,
	 "unregistered name on the host: ENOENT");

  libgomp_host_register ("answer", cb_const, (void *) (intptr_t) -7);
  r = sim_host_call (&s, "answer", NULL, 0, &err);
  check (r == -7 && err == 0, "a negative result is a result, not an error");
  libgomp_host_register ("answer", cb_const, (void *) (intptr_t) 42);
  r = sim_host_call (&s, "answer", NULL, 0, &err);
  check (r == 42 && err == 0, "re-registration replaces the function");

  libgomp_host_register ("inside", cb_in_callback, NULL);
  r = sim_host_call (&s, "inside", NULL, 0, &err);
  check (r == 1 && GOMP_PLUGIN_host_service_in_callback () == 0,
	 "a callback for a kernel knows it is one (device work from it is"
	 " refused)");
  r = libgomp_host_call ("inside", NULL, 0, &e);
  check (r == 0 && e == 0,
	 "a callback on the host fallback path may use the device");

  snprintf (logfile, sizeof logfile, "%s", tmp ("callback-log.txt"));
  libgomp_host_register ("log", cb_log, logfile);
  {
    char l1[] = "line one\n", l2[] = "line two\n";
    r = sim_host_call (&s, "log", l1, 9, &err);
    r += sim_host_call (&s, "log", l2, 9, &err);
  }
  {
    char got[64] = "";
    FILE *f = fopen (logfile, "r");
    size_t n = f ? fread (got, 1, sizeof got - 1, f) : 0;
    if (f)
      fclose (f);
    check (r == 18 && n == 18 && strcmp (got, "line one\nline two\n") == 0,
	   "a callback that does file I/O on the host");
    unlink (logfile);
  }

  check (libgomp_host_register_typed ("pair", &pair, cb_pair, NULL) == 0,
	 "register a typed service");
  {
    int32_t a[2] = { 3, 10 };
    r = sim_host_call (&s, "pair", a, 4, &err);
    check (r == -1 && err == EINVAL, "typed: buffer too small: EINVAL");
    r = sim_host_call (&s, "pair", a, sizeof a, &err);
    check (r == 7 && err == 0, "typed: valid arguments reach the function");
    a[0] = 11;
    r = sim_host_call (&s, "pair", a, sizeof a, &err);
    check (r == -1 && err == ERANGE, "typed: the validator's errno");
  }

  memset (longname, 'n', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  e = libgomp_host_register (longname, cb_const, NULL);
  check (e == -1 && errno == EINVAL, "a name longer than 255: EINVAL");
  r = sim_host_call (&s, longname, NULL, 0, &err);
  check (r == -1 && err == EINVAL, "calling a name longer than 255: EINVAL");
  check (libgomp_host_register (NULL, cb_const, NULL) == -1
	 && libgomp_host_register ("x", NULL, NULL) == -1,
	 "register without a name or a function: refused");

  libgomp_host_register ("self", cb_unregister_self, NULL);
  r = sim_host_call (&s, "self", NULL, 0, &err);
  check (r == 0 && sim_host_call (&s, "self", NULL, 0, &err) == -1
	 && err == ENOENT, "a callback can unregister itself");

  /* Unregistering while a caller is inside the callback: waits for it;
     later calls get ENOENT.  */
  {
    pthread_t ct, ut;
    struct caller c = { &s, 3, 0, 0, 0 };
    volatile int ures = 99;
    int done;
    slow_entered = slow_release = 0;
    libgomp_host_register ("slow", cb_slow, NULL);
    pthread_create (&ct, NULL, slow_caller_fn, &c);
    while (!__atomic_load_n (&slow_entered, __ATOMIC_SEQ_CST))
      usleep (1000);
    pthread_create (&ut, NULL, unregister_fn, (void *) &ures);
    usleep (50000);
    done = __atomic_load_n (&ures, __ATOMIC_SEQ_CST) != 99;
    __atomic_store_n (&slow_release, 1, __ATOMIC_SEQ_CST);
    pthread_join (ct, NULL);
    pthread_join (ut, NULL);
    check (!done && ures == 0 && c.ret == 7 && c.err == 0,
	   "unregister waits for the call in progress, which completes");
    r = sim_host_call (&s, "slow", NULL, 0, &err);
    check (r == -1 && err == ENOENT, "after unregister: ENOENT");
  }
  sim_stop (&s);

  /* 512 concurrent callers.  */
  {
    pthread_t t[512];
    struct caller c[512];
    int bad = 0;
    sim_start (&s, 32, 128, "all");
    for (i = 0; i < 512; i++)
      {
	c[i].s = &s;
	c[i].id = i + 1;
	pthread_create (&t[i], NULL, caller_fn, &c[i]);
      }
    for (i = 0; i < 512; i++)
      {
	pthread_join (t[i], NULL);
	bad += !c[i].ok;
      }
    sim_stop (&s);
    check (bad == 0, "512 concurrent host calls: all results and buffers"
	   " right (%d wrong)", bad);
  }

  sim_start (&s, 2, 64, "off");
  e = 0;
  r = libgomp_host_call ("reverse", NULL, 0, &e);
  check (r == -1 && e == ENOSYS,
	 "host services off: ENOSYS on the host too, as on the device");
  sim_stop (&s);
  libgomp_host_unregister ("reverse");
  libgomp_host_unregister ("answer");
  libgomp_host_unregister ("inside");
  libgomp_host_unregister ("log");
  libgomp_host_unregister ("pair");
}

/* Shutdown while named host callbacks never return (issue 16, item 1):
   shutdown answers their rounds with ECANCELED; the device threads then
   let go of their ports and call again, on the same ports, whose
   workers are still inside the callbacks.  Every such call must be
   answered (ECANCELED) at once, however many times; and when a callback
   finally returns, its worker must not write its reply over the port's
   later rounds.  Before the fix the poller skipped those ports: the
   second call waited until the callback returned (here: the test lets
   them go after 5 s and reports the failure).  */

static volatile int stuck_entered, stuck_release, stuck_left;

static int64_t
cb_stuck (void *buf, size_t size, void *user)
{
  (void) buf;
  (void) size;
  (void) user;
  __atomic_add_fetch (&stuck_entered, 1, __ATOMIC_SEQ_CST);
  while (!__atomic_load_n (&stuck_release, __ATOMIC_SEQ_CST))
    usleep (1000);
  __atomic_add_fetch (&stuck_left, 1, __ATOMIC_SEQ_CST);
  return 99;
}

enum { STUCK_AGAIN = 5 };

struct stuck_caller
{
  struct sim *s;
  unsigned id;
  int64_t ret, again_ret[STUCK_AGAIN];
  int32_t err, again_err[STUCK_AGAIN];
  volatile int done;
};

static void *
stuck_caller_fn (void *arg)
{
  struct stuck_caller *c = arg;
  int k;
  sim_client_id = c->id;
  c->ret = sim_host_call (c->s, "stuck", NULL, 0, &c->err);
  /* The same thread calls again: the same port, whose worker is still in
     the callback; a host call (worker-served) and a clock call
     (poller-served) in turn.  */
  for (k = 0; k < STUCK_AGAIN; k++)
    if (k % 2 == 0)
      c->again_ret[k] = sim_host_call (c->s, "stuck", NULL, 0,
				       &c->again_err[k]);
    else
      {
	struct gomp_hs_timespec ts;
	c->again_ret[k] = sim_call (c->s, GOMP_HS_OP_CLOCK_GETTIME,
				    CLOCK_MONOTONIC, 0, 0, NULL, 0, &ts,
				    sizeof ts, NULL, &c->again_err[k]);
      }
  __atomic_store_n (&c->done, 1, __ATOMIC_SEQ_CST);
  return NULL;
}

static void
test_shutdown_stuck (unsigned nports, unsigned ncallers)
{
  struct sim s;
  pthread_t t[4];
  struct stuck_caller c[4];
  struct gomp_hs_reply before[4];
  unsigned i, answered = 0, right = 0, same = 0;
  int k;
  double t0, waited;

  stuck_entered = stuck_release = stuck_left = 0;
  sim_start (&s, nports, 64, "all");
  libgomp_host_register ("stuck", cb_stuck, NULL);
  for (i = 0; i < ncallers; i++)
    {
      memset (&c[i], 0, sizeof c[i]);
      c[i].s = &s;
      c[i].id = i;
      pthread_create (&t[i], NULL, stuck_caller_fn, &c[i]);
    }
  t0 = sim_now ();
  while (__atomic_load_n (&stuck_entered, __ATOMIC_SEQ_CST)
	 < (int) (ncallers < nports ? ncallers : nports)
	 && sim_now () - t0 < 10)
    usleep (1000);
  /* As the plugin tears down: shutdown (its grace period passes: the
     callbacks do not return), then the device must come to its end.  */
  GOMP_PLUGIN_host_service_shutdown (s.server);
  t0 = sim_now ();
  for (i = 0; i < ncallers; i++)
    while (!__atomic_load_n (&c[i].done, __ATOMIC_SEQ_CST)
	   && sim_now () - t0 < 5)
      usleep (1000);
  waited = sim_now () - t0;
  for (i = 0; i < ncallers; i++)
    answered += __atomic_load_n (&c[i].done, __ATOMIC_SEQ_CST);
  /* Unstick whatever still waits (before the fix: the callers), so that
     the test goes on either way.  */
  for (i = 0; i < nports; i++)
    before[i] = *(struct gomp_hs_reply *) &hs_port (s.dev, i)->rep;
  if (answered == ncallers)
    {
      __atomic_store_n (&stuck_release, 1, __ATOMIC_SEQ_CST);
      /* The workers return; the replies they would have written must not
	 appear.  */
      t0 = sim_now ();
      while (sim_now () - t0 < 5)
	{
	  for (i = 0; i < nports; i++)
	    if (__atomic_load_n (&s.server->ctx[i].owner, __ATOMIC_ACQUIRE)
		!= HS_OWNER_POLLER)
	      break;
	  if (i == nports)
	    break;
	  usleep (1000);
	}
      for (i = 0; i < nports; i++)
	same += memcmp (&before[i],
			(const void *) &hs_port (s.dev, i)->rep,
			sizeof before[i]) == 0;
    }
  __atomic_store_n (&stuck_release, 1, __ATOMIC_SEQ_CST);
  for (i = 0; i < ncallers; i++)
    {
      pthread_join (t[i], NULL);
      if (c[i].ret != -1 || c[i].err != ECANCELED)
	continue;
      for (k = 0; k < STUCK_AGAIN; k++)
	if (c[i].again_ret[k] != -1 || c[i].again_err[k] != ECANCELED)
	  break;
      right += k == STUCK_AGAIN;
    }
  check (answered == ncallers,
	 "shutdown with %u callbacks that never return, %u ports: the"
	 " threads call again, %d times each, on ports whose workers are"
	 " still busy, and are answered (%u of %u answered, %.2f s)",
	 ncallers, nports, STUCK_AGAIN, answered, ncallers, waited);
  check (right == ncallers,
	 "shutdown with callbacks stuck: the stuck calls and every later one"
	 " fail with ECANCELED (%u of %u threads)", right, ncallers);
  if (answered == ncallers)
    check (same == nports, "shutdown with callbacks stuck: a worker that"
	   " returns late writes no reply (%u of %u ports untouched)",
	   same, nports);
  /* Before the callbacks left, no worker touched its context; after,
     the server is torn down as usual.  */
  t0 = sim_now ();
  while (__atomic_load_n (&stuck_left, __ATOMIC_SEQ_CST)
	 < __atomic_load_n (&stuck_entered, __ATOMIC_SEQ_CST)
	 && sim_now () - t0 < 5)
    usleep (1000);
  sim_stop (&s);
  libgomp_host_unregister ("stuck");
}

/* GOMP_HS_OP_EXIT: the host flushes its streams and the process ends at
   once with the device's status; no reply.  Run in a child process.
   With READER, a host thread of the child is blocked in fgets on stdin,
   a pipe nobody writes, holding stdin's lock (issue 16, item 7): before
   the fix the exit's fflush (NULL) waited for that lock forever; the
   parent gives the child 10 s.  Either way the buffered output of a
   file and of stdout must be written.  */

static void *
exit_reader_fn (void *arg)
{
  char line[64];
  __atomic_store_n ((int *) arg, 1, __ATOMIC_SEQ_CST);
  if (fgets (line, sizeof line, stdin) != NULL)
    __atomic_store_n ((int *) arg, 2, __ATOMIC_SEQ_CST);
  return NULL;
}

static void
test_exit (int reader)
{
  pid_t pid;
  int status = 0, ended = 0;
  FILE *f;
  char got[64] = "", out_got[64] = "";
  const char *how = reader ? " (a host thread blocked reading stdin)" : "";
  double t0;
  char file_path[512], out_path[512];

  snprintf (file_path, sizeof file_path, "%s", tmp ("exit.txt"));
  snprintf (out_path, sizeof out_path, "%s", tmp ("exit-stdout.txt"));
  fflush (NULL);
  pid = fork ();
  if (pid == 0)
    {
      struct sim s;
      int32_t err;
      FILE *out = fopen (file_path, "w");
      if (out == NULL || freopen (out_path, "w", stdout) == NULL)
	_exit (90);
      if (reader)
	{
	  int fds[2];
	  static int entered;
	  pthread_t t;
	  /* The write end stays open in this very process: no end of
	     file, ever.  */
	  if (pipe (fds) != 0 || dup2 (fds[0], 0) != 0
	      || pthread_create (&t, NULL, exit_reader_fn, &entered) != 0)
	    _exit (92);
	  while (!__atomic_load_n (&entered, __ATOMIC_SEQ_CST))
	    usleep (1000);
	  /* Now inside fgets, holding stdin's lock.  */
	  usleep (100000);
	}
      /* Buffered, not yet written: the exit must flush them.  */
      fputs ("host line", out);
      fputs ("stdout line", stdout);
      sim_start (&s, 2, 64, "stdio");
      sim_call (&s, GOMP_HS_OP_EXIT, 7, 0, 0, NULL, 0, NULL, 0, NULL, &err);
      _exit (91);
    }
  check (pid > 0, "exit%s: child ran", how);
  t0 = sim_now ();
  while (pid > 0 && sim_now () - t0 < 10)
    {
      pid_t w = waitpid (pid, &status, WNOHANG);
      if (w == pid)
	{
	  ended = 1;
	  break;
	}
      if (w < 0)
	break;
      usleep (10000);
    }
  if (pid > 0 && !ended)
    {
      kill (pid, SIGKILL);
      waitpid (pid, &status, 0);
    }
  check (ended, "exit%s: the process ends (%.1f s)", how, sim_now () - t0);
  check (ended && WIFEXITED (status) && WEXITSTATUS (status) == 7,
	 "exit%s: the process ends with the device's status (got %#x)", how,
	 status);
  f = fopen (file_path, "r");
  if (f != NULL)
    {
      if (fgets (got, sizeof got, f) == NULL)
	got[0] = '\0';
      fclose (f);
    }
  f = fopen (out_path, "r");
  if (f != NULL)
    {
      if (fgets (out_got, sizeof out_got, f) == NULL)
	out_got[0] = '\0';
      fclose (f);
    }
  check (strcmp (got, "host line") == 0 && strcmp (out_got, "stdout line") == 0,
	 "exit%s: the host's buffered streams are flushed first (got \"%s\","
	 " \"%s\")", how, got, out_got);
  unlink (file_path);
  unlink (out_path);
}

/* Reverse offload (target-rev-client.h against target-rev.c): map kinds,
   multi-round payloads both ways, firstprivate, unknown and malformed
   regions, many regions at once, and the host-fallback entry point.  */

static int rev_runs;

/* The plugin's number for the simulated device, where a test needs one.  */
enum { REV_TID = 7, REV_N = 16, REV_MAPPED = 15 };

/* The body of a region with the entries of rev_call below.  */

static void
rev_body (void *data)
{
  void **a = data;
  int *x = a[0];
  double *arr = a[1];
  long k = (long) (intptr_t) a[2];
  int *fp = a[3];
  unsigned char *out = a[4];
  unsigned char *scratch = a[5];
  size_t n = (size_t) *x >> 8, i;
  int zero = 1;
  for (i = 0; i < n; i++)
    arr[i] = arr[i] * 2 + (double) k;
  for (i = 0; i < 64; i++)
    {
      zero &= out[i] == 0 && scratch[i] == 0;
      out[i] = (unsigned char) (i + *fp);
      scratch[i] = 0xee;
    }
  *fp = -1;			/* A private copy: the device's stays.  */
  *x = *x + (zero ? 1 : 1000);
  __atomic_add_fetch (&rev_runs, 1, __ATOMIC_RELAXED);
}

static const char rev_id[] = "rev_body@hs-sim.c#1";
static const void *const rev_table[] = { rev_id, (const void *) rev_body };

/* Listed in an image's table beside rev_body, never a region's body
   here.  */

static int rev_unused_runs;

static void
rev_body_unused (void *data)
{
  (void) data;
  __atomic_add_fetch (&rev_unused_runs, 1, __ATOMIC_RELAXED);
}

/* Run rev_body through host services: N doubles in ARR; the region
   named ID, or, where ID is NULL, the one whose function is at device
   address FN (GCC 14's form).  */

static int32_t
rev_call_any (struct sim *s, const char *id, uint64_t fn, size_t n,
	      double *arr, int *x)
{
  int fp = 7;
  unsigned char out[64], scratch[64];
  void *addrs[6] = { x, arr, (void *) (intptr_t) 3, &fp, out, scratch };
  size_t sizes[6] = { sizeof *x, n * sizeof *arr, 0, sizeof fp,
		      sizeof out, sizeof scratch };
  unsigned short kinds[6] = { GOMP_HS_REV_TOFROM | 2 << 8,
			      GOMP_HS_REV_TOFROM | 3 << 8,
			      GOMP_HS_REV_FIRSTPRIVATE_INT,
			      GOMP_HS_REV_FIRSTPRIVATE | 2 << 8,
			      GOMP_HS_REV_FROM, GOMP_HS_REV_ALLOC };
  int32_t err;
  size_t i;
  memset (out, 0x55, sizeof out);
  memset (scratch, 0x66, sizeof scratch);
  *x = (int) (n << 8);
  err = id ? hs_target_rev (s->dev, id, 6, addrs, sizes, kinds)
	   : hs_target_rev_fn (s->dev, fn, 6, addrs, sizes, kinds);
  if (err == 0)
    for (i = 0; i < 64; i++)
      if (out[i] != (unsigned char) (i + 7) || scratch[i] != 0x66)
	return -1;
  return err == 0 && fp != 7 ? -2 : err;
}

static int32_t
rev_call (struct sim *s, const char *id, size_t n, double *arr, int *x)
{
  return rev_call_any (s, id, 0, n, arr, x);
}

/* Regions that must all be running at once to finish quickly: each
   waits (up to 10 s) until REV_MEET regions have come in, and says
   whether they met.  A server that ran one region at a time would make
   the first wait out its 10 s alone.  */

enum { REV_MEET = 4 };
static int rev_inside;

static void
rev_meet (void *data)
{
  int *met = ((void **) data)[0];
  int i;
  __atomic_add_fetch (&rev_inside, 1, __ATOMIC_SEQ_CST);
  for (i = 0; i < 10000; i++)
    {
      if (__atomic_load_n (&rev_inside, __ATOMIC_SEQ_CST) >= REV_MEET)
	break;
      usleep (1000);
    }
  *met = i < 10000;
}

static const char rev_meet_id[] = "rev_meet@hs-sim.c#1";
static const void *const rev_meet_table[] = { rev_meet_id,
					      (const void *) rev_meet };

static void *
rev_meet_fn (void *p)
{
  struct sim *s = p;
  int met = 0;
  void *addrs[1] = { &met };
  size_t sizes[1] = { sizeof met };
  unsigned short kinds[1] = { GOMP_HS_REV_FROM | 2 << 8 };
  int32_t err = hs_target_rev (s->dev, rev_meet_id, 1, addrs, sizes, kinds);
  return (void *) (intptr_t) (err == 0 && met);
}

struct rev_worker
{
  struct sim *s;
  unsigned calls, bad;
};

static void *
rev_worker_fn (void *p)
{
  struct rev_worker *w = p;
  double arr[100];
  unsigned c, i;
  int x;
  for (c = 0; c < w->calls; c++)
    {
      for (i = 0; i < 100; i++)
	arr[i] = i + c;
      if (rev_call (w->s, rev_id, 100, arr, &x) != 0
	  || x != (100 << 8) + 1)
	w->bad++;
      for (i = 0; i < 100; i++)
	if (arr[i] != 2.0 * (i + c) + 3)
	  w->bad++;
    }
  return NULL;
}

static void
test_target_rev (size_t max)
{
  struct sim s;
  size_t n = max / 8 < ((size_t) 1 << 17) ? max / 8 : (size_t) 1 << 17, i;
  double *arr = malloc (n * sizeof *arr);
  int x = 0, ok = 1;
  int32_t err;

  sim_start (&s, 4, 64, "stdio");
  GOMP_target_rev_register (1, rev_table, 1);
  for (i = 0; i < n; i++)
    arr[i] = (double) i;
  err = rev_call (&s, rev_id, n, arr, &x);
  for (i = 0; i < n; i++)
    ok &= arr[i] == 2.0 * i + 3;
  check (err == 0 && ok && x == (int) (n << 8) + 1 && rev_runs == 1,
	 "reverse offload: %zu doubles there and back over 64-byte rounds,"
	 " firstprivate private, from/alloc zeroed, alloc not sent back", n);

  err = rev_call (&s, "rev_body@forged.c#1", 4, arr, &x);
  check (err == ENOENT && rev_runs == 1,
	 "reverse offload: an unknown region is refused (ENOENT), not run");


  {
    /* Hand-made requests: a kind the host must refuse, bytes that do not
       add up, an identity without its NUL.  */
    unsigned char req[8 + 24 + 4];
    struct gomp_hs_rev_map m = { (uintptr_t) &x, 4, 8, 0 };
    uint64_t got;
    memcpy (req, "rev_bo\0", 8);
    memcpy (req + 8, &m, sizeof m);
    sim_call (&s, GOMP_HS_OP_TARGET_REV, 7, 1, 0, req, 32, NULL, 0, &got,
	      &err);
    check (err == EINVAL, "reverse offload: map kind 8 (force_deviceptr) refused");
    m.kind = GOMP_HS_REV_TO;
    memcpy (req + 8, &m, sizeof m);
    sim_call (&s, GOMP_HS_OP_TARGET_REV, 7, 1, 0, req, 32, NULL, 0, &got,
	      &err);
    check (err == EINVAL, "reverse offload: missing bytes refused");
    memcpy (req, "rev_body", 8);
    memcpy (req + 32, &x, 4);
    sim_call (&s, GOMP_HS_OP_TARGET_REV, 8, 1, 0, req, 36, NULL, 0, &got,
	      &err);
    check (err == EINVAL && rev_runs == 1,
	   "reverse offload: an identity without its NUL refused");
  }

  {
    enum { T = 16 };
    pthread_t t[T];
    struct rev_worker w[T];
    unsigned k, bad = 0;
    for (k = 0; k < T; k++)
      {
	w[k].s = &s;
	w[k].calls = 200;
	w[k].bad = 0;
	pthread_create (&t[k], NULL, rev_worker_fn, &w[k]);
      }
    for (k = 0; k < T; k++)
      {
	pthread_join (t[k], NULL);
	bad += w[k].bad;
      }
    check (bad == 0 && rev_runs == 1 + T * 200,
	   "reverse offload: %d device threads x 200 regions over 4 ports,"
	   " all run once, all results right", T);
  }

  {
    /* GCC 14's form: the region named by its function's device address,
       which the host finds in the function tables of the images loaded
       on the device it serves, and nowhere else.  */
    static const uint64_t dev_a[2] = { 0x7f0000001000, 0x7f0000002000 };
    static const uint64_t dev_b[1] = { 0x7f0000003000 };
    void *const host_a[2] = { (void *) rev_body_unused, (void *) rev_body };
    void *const host_b[1] = { (void *) rev_body };
    int image_a, image_b, good = 1, runs0 = rev_runs;
    GOMP_PLUGIN_host_service_device (s.server, REV_TID);
    gomp_target_rev_fns_add (REV_TID, &image_a, 2, dev_a, host_a);
    gomp_target_rev_fns_add (REV_TID + 1, &image_b, 1, dev_b, host_b);
    for (i = 0; i < 4; i++)
      arr[i] = (double) i;
    err = rev_call_any (&s, NULL, dev_a[1], 4, arr, &x);
    for (i = 0; i < 4; i++)
      good &= arr[i] == 2.0 * i + 3;
    check (err == 0 && good && rev_runs == runs0 + 1 && rev_unused_runs == 0,
	   "reverse offload by function address: the image's entry for it"
	   " runs, with its data there and back");
    err = rev_call_any (&s, NULL, dev_b[0], 4, arr, &x);
    check (err == ENOENT && rev_runs == runs0 + 1,
	   "reverse offload by function address: a function of another"
	   " device's image is refused (ENOENT)");
    err = rev_call_any (&s, NULL, dev_a[1] + 8, 4, arr, &x);
    check (err == ENOENT && rev_runs == runs0 + 1,
	   "reverse offload by function address: an address no table lists"
	   " is refused, never called");
    err = rev_call_any (&s, NULL, 0, 4, arr, &x);
    check (err == ENOENT && rev_runs == runs0 + 1,
	   "reverse offload by function address: address 0 is refused");
    {
      unsigned char req[8];
      uint64_t got;
      memcpy (req, &dev_a[1], 8);
      sim_call (&s, GOMP_HS_OP_TARGET_REV, 4, 0, GOMP_HS_REV_BY_FN, req, 8,
		NULL, 0, &got, &err);
      check (err == EINVAL && rev_runs == runs0 + 1,
	     "reverse offload by function address: an identity of 4 bytes"
	     " refused");
      sim_call (&s, GOMP_HS_OP_TARGET_REV, 8, 0, 2, req, 8, NULL, 0, &got,
		&err);
      check (err == EINVAL && rev_runs == runs0 + 1,
	     "reverse offload: an identity of an unknown form (ARG2 2)"
	     " refused");
    }
    gomp_target_rev_fns_remove (REV_TID, &image_a);
    err = rev_call_any (&s, NULL, dev_a[1], 4, arr, &x);
    check (err == ENOENT && rev_runs == runs0 + 1,
	   "reverse offload by function address: refused once its image is"
	   " unloaded");
    gomp_target_rev_fns_remove (REV_TID + 1, &image_b);
    GOMP_PLUGIN_host_service_device (s.server, -1);
  }

  {
    /* Host fallback: the same region, host addresses, no copies but the
       firstprivate one.  */
    int hx = 4 << 8, fp = 9;
    double harr[4] = { 1, 2, 3, 4 };
    unsigned char out[64] = { 0 }, scratch[64] = { 0 };
    void *addrs[6] = { &hx, harr, (void *) (intptr_t) 3, &fp, out, scratch };
    size_t sizes[6] = { 4, sizeof harr, 0, 4, 64, 64 };
    unsigned short kinds[6] = { 3 | 2 << 8, 3 | 3 << 8, 13, 12 | 2 << 8,
				2, 0 };
    GOMP_target_rev (rev_id, 1, 6, addrs, sizes, kinds);
    check (hx == (4 << 8) + 1 && harr[3] == 11 && out[5] == 14 && fp == 9
	   && scratch[0] == 0xee,
	   "reverse offload on the host: runs in place, firstprivate copied");
  }

  {
    /* As many regions at once as there are ports, each from its own
       device thread: all four run side by side.  */
    pthread_t t[REV_MEET];
    void *met;
    int all = 1, k;
    struct timespec t0, t1;
    GOMP_target_rev_register (1, rev_meet_table, 1);
    clock_gettime (CLOCK_MONOTONIC, &t0);
    for (k = 0; k < REV_MEET; k++)
      pthread_create (&t[k], NULL, rev_meet_fn, &s);
    for (k = 0; k < REV_MEET; k++)
      {
	pthread_join (t[k], &met);
	all &= met != NULL;
      }
    clock_gettime (CLOCK_MONOTONIC, &t1);
    GOMP_target_rev_unregister (rev_meet_table);
    check (all, "reverse offload: %d regions from %d device threads run at"
	   " once (met in %.0f ms)", REV_MEET, REV_MEET,
	   (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
  }

  GOMP_target_rev_unregister (rev_table);
  err = rev_call (&s, rev_id, 4, arr, &x);
  check (err == ENOENT, "reverse offload: an unregistered table is gone");
  sim_stop (&s);
  free (arr);
}

/* Reverse offload and the host's mappings (target-rev-map.c): items
   present on the device use the host's originals, found by device
   address, while another host thread holds the device's lock and waits
   for the kernel -- as a "target update" does, whose synchronous copy
   waits for the running kernel.  The index must answer without that
   lock: the kernel (a simulated device thread) waits for its regions,
   so a lookup that waited for the lock would wait for ever (before
   issue 16, target.c's lookup gave up after 5 s with gomp_fatal).  */


/* The host's original and the device's copy of an item of REV_MAPPED
   ints (one more for an entry that runs past it), and of a second item.  */
static int rev_host[REV_N], rev_dev[REV_N];
static int rev_host2[4], rev_dev2[4];
static pthread_mutex_t rev_devlock = PTHREAD_MUTEX_INITIALIZER;
static int rev_mapped, rev_kernel_done, rev_lock_held_at_end;

/* The entries of rev_present_call: a present item, part of it with
   always, an entry that runs past its end, a pointer into the second
   item (not otherwise mapped by the region), and the result.  */

static void
rev_present_body (void *data)
{
  void **a = data;
  int *whole = a[0], *part = a[1], *past = a[2], *ptr = a[3], *res = a[4];
  int r = 0, i;
  r |= (whole == rev_host) << 0;
  r |= (part == rev_host + 4 && part[0] == -4) << 1;  /* always: sent.  */
  r |= (past != rev_host + 14 && past[0] == -14 && past[1] == -15) << 2;
  r |= (ptr == rev_host2 + 1) << 3;
  for (i = 0; i < 4; i++)
    part[i] = 100 + i;
  whole[0] = 50;		/* The original: not sent back.  */
  *res = r;
}

static const char rev_present_id[] = "rev_present@hs-sim.c#1";
static const void *const rev_present_table[]
  = { rev_present_id, (const void *) rev_present_body, };

/* Returns the body's bits (15: all right), or -1 - the errno, or -100
   when the device's copy is not as it should be afterwards: the host's
   values for the always part, and the rest as it was where the item is
   present (the original takes the body's write), else the body's.  */

static int
rev_present_call (struct sim *s, int present)
{
  int res = -1, i;
  void *addrs[5] = { rev_dev, rev_dev + 4, rev_dev + 14, rev_dev2 + 1, &res };
  size_t sizes[5] = { REV_MAPPED * sizeof (int), 4 * sizeof (int),
		      2 * sizeof (int), 0, sizeof res };
  unsigned short kinds[5] = { GOMP_HS_REV_TOFROM | 2 << 8,
			      GOMP_HS_REV_ALWAYS_TOFROM | 2 << 8,
			      GOMP_HS_REV_TO | 2 << 8,
			      GOMP_HS_REV_ZERO_LEN_ARRAY,
			      GOMP_HS_REV_FROM | 2 << 8 };
  int32_t err;
  for (i = 0; i < REV_N; i++)
    rev_dev[i] = -i;
  err = hs_target_rev (s->dev, rev_present_id, 5, addrs, sizes, kinds);
  if (err != 0)
    return -1 - err;
  if (rev_dev[4] != 100 || rev_dev[7] != 103 || rev_dev[8] != -8
      || rev_dev[0] != (present ? 0 : 50))
    return -100;
  return res;
}

/* A region that only looks: where the present item and the pointer
   into the second one are on the host.  */

static void
rev_where_body (void *data)
{
  void **a = data;
  int *res = a[2];
  *res = (a[0] == rev_host) | (a[1] == rev_host2 + 1) << 1;
}

static const char rev_where_id[] = "rev_where@hs-sim.c#1";
static const void *const rev_where_table[]
  = { rev_where_id, (const void *) rev_where_body };

/* Host thread B: maps the items under the device's lock, as
   gomp_map_vars does, and keeps the lock until the kernel has ended (at
   most 10 s), as its copy would.  */

static void *
rev_mapper_fn (void *p)
{
  int i;
  (void) p;
  pthread_mutex_lock (&rev_devlock);
  gomp_target_rev_map_add (REV_TID, (uintptr_t) rev_host,
			   (uintptr_t) (rev_host + REV_MAPPED),
			   (uintptr_t) rev_dev);
  gomp_target_rev_map_add (REV_TID, (uintptr_t) rev_host2,
			   (uintptr_t) (rev_host2 + 4), (uintptr_t) rev_dev2);
  __atomic_store_n (&rev_mapped, 1, __ATOMIC_RELEASE);
  for (i = 0; i < 10000; i++)
    {
      if (__atomic_load_n (&rev_kernel_done, __ATOMIC_ACQUIRE))
	break;
      usleep (1000);
    }
  rev_lock_held_at_end = i < 10000;
  pthread_mutex_unlock (&rev_devlock);
  return NULL;
}

/* Host threads that map and unmap other items of the same device and
   of another one, racing the lookups (ThreadSanitizer watches).  */

static int rev_churn_stop;

static void *
rev_churn_fn (void *p)
{
  static char junk[2][4096];
  int t = (int) (intptr_t) p;
  unsigned k = 0;
  while (!__atomic_load_n (&rev_churn_stop, __ATOMIC_ACQUIRE))
    {
      uintptr_t h = (uintptr_t) junk[t] + k % 4096;
      gomp_target_rev_map_add (REV_TID + t, h, h + 1,
			       (uintptr_t) 0x1000 + k % 4096);
      gomp_target_rev_map_remove (REV_TID + t, h, h + 1);
      k++;
    }
  return NULL;
}

struct rev_present_dev
{
  struct sim *s;
  int bad, first;
};

static void *
rev_present_dev_fn (void *p)
{
  struct rev_present_dev *d = p;
  int i, res;
  void *addrs[3] = { rev_dev, rev_dev2 + 1, &res };
  size_t sizes[3] = { REV_MAPPED * sizeof (int), 0, sizeof res };
  unsigned short kinds[3] = { GOMP_HS_REV_TO | 2 << 8,
			      GOMP_HS_REV_ZERO_LEN_ARRAY,
			      GOMP_HS_REV_FROM | 2 << 8 };
  for (i = 0; i < 100; i++)
    {
      int32_t err;
      res = -1;
      err = hs_target_rev (d->s->dev, rev_where_id, 3, addrs, sizes, kinds);
      if (err != 0 || res != 3)
	if (d->bad++ == 0)
	  d->first = err ? -1 - err : res;
    }
  return NULL;
}

/* The device-address index of reverse offload (target-rev-map.c) with
   many items: 10^5 mapped, then unmapped in the order of mapping (before
   the index was hashed, each removal searched from the newest entry and
   moved every later one: quadratic, about 10 s here, all of it with the
   device's lock held); then adds and removes in a pseudo-random order
   against a model of what is mapped, every item looked up by device
   address at the end.  */

static void
test_target_rev_index (void)
{
  enum { TID = REV_TID + 5, N = 100000, ROUNDS = 400000 };
  static unsigned char mapped[N];
  const uintptr_t host0 = 0x10000000, dev0 = 0x900000000ULL;
  struct timespec t0, t1;
  double ms;
  unsigned x = 12345;
  int i, bad = 0, n_mapped = 0;

  clock_gettime (CLOCK_MONOTONIC, &t0);
  for (i = 0; i < N; i++)
    gomp_target_rev_map_add (TID, host0 + 64 * i, host0 + 64 * i + 48,
			     dev0 + 64 * i);
  for (i = 0; i < N; i++)
    gomp_target_rev_map_remove (TID, host0 + 64 * i, host0 + 64 * i + 48);
  clock_gettime (CLOCK_MONOTONIC, &t1);
  ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  for (i = 0; i < N; i += 997)
    {
      void *h = (void *) 1;
      if (gomp_target_rev_present (TID, dev0 + 64 * i, 4, &h) != 0
	  || h != NULL)
	bad++;
    }
  check (bad == 0 && ms < 2000,
	 "reverse offload index: %d items mapped, then unmapped in the order"
	 " of mapping (%.0f ms, %d still found)", N, ms, bad);

  for (i = 0; i < ROUNDS; i++)
    {
      int k;
      x = x * 1103515245u + 12345u;
      k = (x >> 8) % (N / 10);
      if (mapped[k])
	{
	  gomp_target_rev_map_remove (TID, host0 + 64 * k,
				      host0 + 64 * k + 48);
	  n_mapped--;
	}
      else
	{
	  gomp_target_rev_map_add (TID, host0 + 64 * k, host0 + 64 * k + 48,
				   dev0 + 64 * k);
	  n_mapped++;
	}
      mapped[k] ^= 1;
    }
  for (i = 0; i < N / 10; i++)
    {
      void *h = (void *) 1;
      void *want = mapped[i] ? (void *) (host0 + 64 * i + 8) : NULL;
      if (gomp_target_rev_present (TID, dev0 + 64 * i + 8, 40, &h) != 0
	  || h != want)
	bad++;
      /* Past the item's end: never found.  */
      if (gomp_target_rev_present (TID, dev0 + 64 * i + 8, 41, &h) != 0
	  || h != NULL)
	bad++;
    }
  check (bad == 0, "reverse offload index: %d random adds and removes,"
	 " then every item looked up (%d mapped, %d wrong)", ROUNDS,
	 n_mapped, bad);
  for (i = 0; i < N / 10; i++)
    if (mapped[i])
      gomp_target_rev_map_remove (TID, host0 + 64 * i, host0 + 64 * i + 48);
}

#include "rev-kinds.c"

static void
test_target_rev_present (void)
{
  struct sim s;
  pthread_t b, churn[2];
  struct timespec t0, t1;
  double ms;
  int r, i, busy;

  sim_start (&s, 4, 64, "stdio");
  GOMP_PLUGIN_host_service_device (s.server, REV_TID);
  GOMP_target_rev_register (1, rev_present_table, 1);
  GOMP_target_rev_register (1, rev_where_table, 1);
  for (i = 0; i < REV_N; i++)
    rev_host[i] = 1000 + i;

  clock_gettime (CLOCK_MONOTONIC, &t0);
  pthread_create (&b, NULL, rev_mapper_fn, NULL);
  while (!__atomic_load_n (&rev_mapped, __ATOMIC_ACQUIRE))
    usleep (100);
  /* The kernel's region, while B holds the device's lock.  */
  r = rev_present_call (&s, 1);
  clock_gettime (CLOCK_MONOTONIC, &t1);
  ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  busy = pthread_mutex_trylock (&rev_devlock) == EBUSY;
  if (!busy)
    pthread_mutex_unlock (&rev_devlock);
  __atomic_store_n (&rev_kernel_done, 1, __ATOMIC_RELEASE);
  pthread_join (b, NULL);
  check (r == 15 && busy && rev_lock_held_at_end && ms < 2000
	 && rev_host[0] == 50 && rev_host[4] == 100 && rev_host[8] == 1008,
	 "reverse offload: present items found by device address while"
	 " another host thread holds the device's lock until the kernel ends"
	 " (bits %d of 15, %.0f ms, lock held %d)", r, ms,
	 busy && rev_lock_held_at_end);

  {
    /* Many device threads' lookups beside host threads that map and
       unmap other items on this device and another.  */
    enum { T = 4 };
    pthread_t t[T];
    struct rev_present_dev d[T];
    int bad = 0, first = 0;
    for (i = 0; i < 2; i++)
      pthread_create (&churn[i], NULL, rev_churn_fn, (void *) (intptr_t) i);
    for (i = 0; i < T; i++)
      {
	d[i].s = &s;
	d[i].bad = 0;
	d[i].first = 0;
	pthread_create (&t[i], NULL, rev_present_dev_fn, &d[i]);
      }
    for (i = 0; i < T; i++)
      {
	pthread_join (t[i], NULL);
	if (d[i].bad && !bad)
	  first = d[i].first;
	bad += d[i].bad;
      }
    __atomic_store_n (&rev_churn_stop, 1, __ATOMIC_RELEASE);
    for (i = 0; i < 2; i++)
      pthread_join (churn[i], NULL);
    check (bad == 0, "reverse offload: %d x 100 regions' lookups beside"
	   " mappings added and removed on two devices (%d wrong, first %d)",
	   T, bad, first);
  }

  /* Unmapped: temporary storage again, and no translation.  */
  gomp_target_rev_map_remove (REV_TID, (uintptr_t) rev_host,
			      (uintptr_t) (rev_host + REV_MAPPED));
  r = rev_present_call (&s, 0);
  check (r >= 0 && !(r & 1) && (r & 12) == 12,
	 "reverse offload: an unmapped item is no longer present (bits %d)",
	 r);
  gomp_target_rev_map_remove (REV_TID, (uintptr_t) rev_host2,
			      (uintptr_t) (rev_host2 + 4));
  r = rev_present_call (&s, 0);
  check (r >= 0 && (r & 9) == 0,
	 "reverse offload: a pointer into an unmapped item is not translated"
	 " (bits %d)", r);
  GOMP_target_rev_unregister (rev_where_table);
  GOMP_target_rev_unregister (rev_present_table);
  sim_stop (&s);
}

/* GOMP_HOST_SERVICES_SERVER=process: file calls are served by the
   server process, named host callbacks and reverse-offload regions by
   this one (the rest of the suite checks what they do).  */

static pid_t split_pid;

static int64_t
cb_pid (void *buf, size_t size, void *user)
{
  (void) buf;
  (void) size;
  (void) user;
  split_pid = getpid ();
  return 7;
}

static void
test_process_split (void)
{
  struct sim s;
  int32_t err = 0;
  int64_t r;
  pid_t pid;
  struct gomp_hs_timespec ts;
  uint64_t got = 0;
  sim_start (&s, 4, 64, "all");
  pid = gomp_hs_proc_pid (s.server);
  libgomp_host_register ("pid", cb_pid, NULL);
  r = sim_host_call (&s, "pid", NULL, 0, &err);
  check (r == 7 && err == 0 && split_pid == getpid (),
	 "process: a named host call runs in this process");
  r = sim_call (&s, GOMP_HS_OP_CLOCK_GETTIME, CLOCK_REALTIME, 0, 0, NULL, 0,
		&ts, sizeof ts, &got, &err);
  check (r == 0 && err == 0 && got == sizeof ts && pid > 0
	 && pid != getpid () && kill (pid, 0) == 0,
	 "process: the next call, on the same port, is served by process %ld",
	 (long) pid);
  libgomp_host_unregister ("pid");
  sim_stop (&s);
}

int
main (int argc, char **argv)
{
  size_t max = argc > 1 ? strtoull (argv[1], NULL, 0) : (size_t) 64 << 20;
  const char *t = getenv ("TMPDIR");

  snprintf (tmpdir, sizeof tmpdir, "%s/hs-sim-XXXXXX", t ? t : "/tmp");
  if (mkdtemp (tmpdir) == NULL)
    {
      perror ("mkdtemp");
      return 2;
    }
  setvbuf (stdout, NULL, _IOLBF, 0);
  proc_mode = getenv ("GOMP_HOST_SERVICES_SERVER") != NULL
	      && strcmp (getenv ("GOMP_HOST_SERVICES_SERVER"), "process") == 0;

  /* First, while this process has no other thread: it forks, and the
     child starts a server (ThreadSanitizer refuses new threads in the
     child of a process that had others running, and the server's
     workers of earlier tests are detached, perhaps still on their way
     out).  */
  if (argc > 2 && strcmp (argv[2], "trace") == 0)
    {
      test_opcodes ();
      test_bad_requests ();
      rmdir (tmpdir);
      fprintf (stderr, "hs-sim: %d checks, %d failed\n", checks, failures);
      return failures != 0;
    }
  test_exit (0);
  test_exit (1);
  test_opcodes ();
  test_bad_requests ();
  test_policies ();
  if (proc_mode)
    test_process_split ();
  test_host_calls (max);
  test_target_rev (max);
  test_target_rev_present ();
  test_target_rev_kinds ();
  test_target_rev_index ();
  test_big_single (0, 64);
  test_big_single (1, 64);
  test_big_single (4096, 64);
  /* A million 64-byte rounds each way prove no more than 131072 do (the
     round loop has no state that grows with the count), and cost 80 s on
     2 cores: the smallest buffers carry at most 8 MiB, the 4 KiB ones the
     largest payload.  */
  test_big_single (max < ((size_t) 8 << 20) ? max : (size_t) 8 << 20, 64);
  test_big_single (max, 4096);
  test_clients (1, 1, 64, max < ((size_t) 4 << 20) ? max : (size_t) 4 << 20);
  test_clients (64, 16, 256, 64 << 10);
  test_clients (512, 64, 128, 8 << 10);
  test_clients (512, 1, 64, 1 << 10);
  test_copy_lanes ();
  test_two_images ();
  test_kernel_churn (8, max >= ((size_t) 64 << 20) ? 2500 : 500);
  test_errno_on_failure ();
  test_security ();
  test_blocked_port (max >= ((size_t) 64 << 20) ? 10000 : 1000);
  test_shutdown_stuck (1, 1);
  test_shutdown_stuck (2, 2);
  test_shutdown_stuck (2, 3);

  rmdir (tmpdir);
  fprintf (stderr, "hs-sim: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}
