/* Soak test of host services on the simulated device: many clients
   (host threads running the real client code through
   tests/sim/sim-client.h) make many calls of random kinds and sizes
   against the real server with its poller running, and everything is
   checked:

     - every byte read back (through the protocol, and at the end by the
       host directly) is the byte that client wrote there: each client
       appends to a file of its own, and the file's content must be
       exactly the sequence of that client's writes, in order;
     - every result, errno and output size is what POSIX says;
     - host calls return what the callback computed, and the buffer as it
       left it;
     - the process's open descriptors stay bounded while the clients run
       (at most two device descriptors per client) and are back to the
       count before the server started once they are done; the server has
       no device descriptor left;
     - the process's resident memory is flat: see RSS below.

   The calls, made by each client until the phase's calls are made:
   write (append), lseek + read at a random offset, lseek, fstat, stat,
   open + read + close of a second descriptor, host call, clock_gettime,
   isatty, access, rename there and back, and now and then close +
   unlink + open of a new file (and always when the file would pass
   1 MiB), after reading the whole file back.  Sizes of
   writes, reads and host-call buffers are 0 to 512 bytes (70 %), to
   64 KiB (29 %) or to 1 MiB (1 %).

   Two phases, each with half of the calls: 64 ports of 64 bytes, then 64
   ports of 64 KiB.

   RSS.  Sampled with the descriptor count every 100 ms (VmRSS of
   /proc/self/status, entries of /proc/self/fd).  Buffers of 32 KiB and
   more are mmapped and unmapped by malloc (M_MMAP_THRESHOLD is fixed,
   so malloc does not raise it and keep them), so a sample is the memory
   in use at that moment: what everything permanent uses, plus the
   buffers of the calls in flight at that instant, which come and go (up
   to 512 clients with a call of up to 1 MiB each, and the server's
   staging): tens of MiB of noise.  So RSS is judged by its floor, over
   the steady state: from 10 % of the phase's calls on (warm-up: thread
   stacks, malloc arenas, workers, port buffers) until the first client
   finishes (a finished client's thread gives memory back, which would
   hide growth; clients take no new operation once the phase's calls are
   made, so they all run until then).  "Flat" is: the least sample of
   the last quarter of that window is at most 8 MiB + 2 % above the least
   sample of the first quarter.  Those two samples are at least half
   the window apart, some 225000 calls of a 500000-call phase: a leak of
   48 bytes or more per call fails.  The 8 MiB allow for malloc's arenas
   settling (512 threads share 16 of them) and workers started late.  A
   window shorter than 8 samples reports RSS without judging it.

   Usage: hs-soak [CALLS [CLIENTS]]   (defaults 1000000 and 512)
   Environment: TMPDIR (where the files go), HS_SOAK_SEED.  Prints
   PASS:/FAIL: lines and the figures.  */

#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stddef.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sim-client.h"
#include "host-service-internal.h"
#include "gomp-host-services.h"

/* Clients wait as sim-client.h's hs_pause has them: a client waiting
   for its reply yields, one waiting for a free port backs off into
   sleeps, as the device's clients do.  */

#define FILE_CAP	(1u << 20)
#define MAX_SIZE	(1u << 20)
#define SAMPLE_MS	100
/* Ports of the simulated device.  */
#define SOAK_PORTS	64
/* Samples of the steady state it takes to judge RSS's trend (30 s).
   Over a shorter window, transfers of up to 1 MiB in flight at random
   swing the floor by several MiB (make check's short soak, and the
   64 KiB phase of make soak, which takes some 10 s): there a leak shows
   in the other check, RSS once the server is gone.  */
#define SOAK_MIN_SAMPLES 300
#define PROGRESS_S	15
#define MAX_SAMPLES	100000

static int failures;

static void
check (int ok, const char *fmt, ...)
{
  va_list ap;
  printf (ok ? "PASS: soak " : "FAIL: soak ");
  if (!ok)
    failures++;
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  putchar ('\n');
  fflush (stdout);
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t
mix64 (uint64_t x)
{
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

/* The content of a write: N bytes from offset OFF of the stream KEY.  */

static void
gen (uint64_t key, uint64_t off, unsigned char *dst, size_t n)
{
  size_t i = 0;
  while (i < n)
    {
      uint64_t pos = off + i, w = mix64 (key + pos / 8);
      unsigned b = pos % 8;
      for (; b < 8 && i < n; b++, i++)
	dst[i] = (unsigned char) (w >> (8 * b));
    }
}

/* One append: LEN bytes at START of the file, from stream KEY.  */
struct seg
{
  uint64_t start, len, key;
};

struct client
{
  struct sim *s;
  unsigned id;
  uint64_t rng;
  unsigned long calls;
  char path[300], path2[310];
  int64_t fd;
  uint32_t epoch, writes, hcalls;
  struct seg *segs;
  size_t nsegs, cap;
  uint64_t size, pos;
  int64_t last_clock_ns;
  /* Figures.  */
  uint64_t bytes_written, bytes_read, bytes_hcall;
  unsigned long nwrites, nreads, nrotations;
  int failed;
  char why[300];
};

static volatile unsigned long calls_done;
/* Clients that have not finished yet.  */
static volatile unsigned clients_running;
/* Clients start no new operation once CALLS_DONE has reached this, so
   that they all run until the end of the phase.  */
static unsigned long calls_budget;

static uint64_t
rnd (struct client *c)
{
  c->rng ^= c->rng << 13;
  c->rng ^= c->rng >> 7;
  c->rng ^= c->rng << 17;
  return c->rng;
}

static size_t
rnd_size (struct client *c)
{
  unsigned r = rnd (c) % 1000;
  if (r < 700)
    return rnd (c) % 513;
  if (r < 990)
    return rnd (c) % (65536 + 1);
  return rnd (c) % (MAX_SIZE + 1);
}

static void __attribute__ ((format (printf, 2, 3)))
fail (struct client *c, const char *fmt, ...)
{
  va_list ap;
  if (c->failed)
    return;
  c->failed = 1;
  va_start (ap, fmt);
  vsnprintf (c->why, sizeof c->why, fmt, ap);
  va_end (ap);
}

static int64_t
call (struct client *c, uint32_t op, int64_t a0, int64_t a1, int64_t a2,
      const void *in, uint64_t in_len, void *out, uint64_t cap,
      uint64_t *got, int32_t *err)
{
  c->calls++;
  __atomic_fetch_add (&calls_done, 1, __ATOMIC_RELAXED);
  return sim_call (c->s, op, a0, a1, a2, in, in_len, out, cap, got, err);
}

static int64_t
path_call (struct client *c, uint32_t op, const char *path, int64_t a0,
	   void *out, uint64_t cap, int32_t *err)
{
  return call (c, op, a0, 0, 0, path, strlen (path) + 1, out, cap, NULL, err);
}

/* Whether the N bytes at P are the file's bytes from OFF on, by the
   model.  */

static int
matches (struct client *c, uint64_t off, const unsigned char *p, size_t n)
{
  unsigned char want[4096];
  size_t lo = 0, hi = c->nsegs;
  if (off + n > c->size)
    return 0;
  /* The segment holding OFF.  */
  while (hi - lo > 1)
    {
      size_t mid = (lo + hi) / 2;
      if (c->segs[mid].start <= off)
	lo = mid;
      else
	hi = mid;
    }
  while (n > 0)
    {
      struct seg *sg = &c->segs[lo];
      uint64_t in = off - sg->start;
      size_t k = sg->len - in < n ? sg->len - in : n;
      size_t done = 0;
      while (done < k)
	{
	  size_t m = k - done < sizeof want ? k - done : sizeof want;
	  gen (sg->key, in + done, want, m);
	  if (memcmp (want, p + done, m) != 0)
	    return 0;
	  done += m;
	}
      p += k;
      off += k;
      n -= k;
      lo++;
    }
  return 1;
}

static void *
xmalloc (size_t n)
{
  void *p = malloc (n ? n : 1);
  if (p == NULL)
    abort ();
  return p;
}

/* Read the whole file back through the protocol, in chunks of random
   sizes, and compare.  */

static void
verify_all (struct client *c)
{
  int32_t err;
  int64_t r;
  uint64_t off = 0, got;
  r = call (c, GOMP_HS_OP_LSEEK, c->fd, 0, SEEK_SET, NULL, 0, NULL, 0, NULL,
	    &err);
  if (r != 0)
    {
      fail (c, "lseek to 0: %lld, errno %d", (long long) r, err);
      return;
    }
  while (off < c->size && !c->failed)
    {
      size_t n = 1 + rnd_size (c);
      unsigned char *buf = xmalloc (n);
      r = call (c, GOMP_HS_OP_READ, c->fd, n, 0, NULL, 0, buf, n, &got,
		&err);
      if (r <= 0 || (uint64_t) r != got || got > n
	  || !matches (c, off, buf, got))
	fail (c, "reading the file back at %llu: %lld (%llu bytes), errno"
	      " %d%s", (unsigned long long) off, (long long) r,
	      (unsigned long long) got, err,
	      r > 0 ? ", bytes differ" : "");
      off += got;
      c->bytes_read += got;
      free (buf);
    }
  c->pos = off;
}

static void
open_new (struct client *c)
{
  int32_t err;
  int64_t r;
  struct gomp_hs_stat st;
  c->fd = path_call (c, GOMP_HS_OP_OPEN, c->path,
		     O_CREAT | O_EXCL | O_RDWR | O_APPEND, NULL, 0, &err);
  if (c->fd < 3)
    {
      fail (c, "open of %s: %lld, errno %d", c->path, (long long) c->fd,
	    err);
      return;
    }
  c->nsegs = 0;
  c->size = c->pos = 0;
  c->writes = 0;
  c->epoch++;
  r = call (c, GOMP_HS_OP_FSTAT, c->fd, 0, 0, NULL, 0, &st, sizeof st, NULL,
	    &err);
  if (r != 0 || st.size != 0 || !S_ISREG (st.mode))
    fail (c, "fstat of a new file: %lld, errno %d, size %lld",
	  (long long) r, err, (long long) st.size);
}

/* Close, unlink and create the file again, after reading it back.  */

static void
rotate (struct client *c)
{
  int32_t err;
  int64_t r;
  struct gomp_hs_stat st;
  verify_all (c);
  r = call (c, GOMP_HS_OP_CLOSE, c->fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  if (r != 0)
    fail (c, "close: %lld, errno %d", (long long) r, err);
  r = path_call (c, GOMP_HS_OP_UNLINK, c->path, 0, NULL, 0, &err);
  if (r != 0)
    fail (c, "unlink: %lld, errno %d", (long long) r, err);
  r = path_call (c, GOMP_HS_OP_STAT, c->path, 0, &st, sizeof st, &err);
  if (r != -1 || err != ENOENT)
    fail (c, "stat after unlink: %lld, errno %d", (long long) r, err);
  c->nrotations++;
  if (!c->failed)
    open_new (c);
}

static void
op_write (struct client *c)
{
  int32_t err;
  int64_t r;
  size_t n = rnd_size (c);
  unsigned char *buf;
  uint64_t key;
  if (c->size + n > FILE_CAP)
    {
      rotate (c);
      if (c->failed)
	return;
    }
  key = mix64 (((uint64_t) c->id << 40) ^ ((uint64_t) c->epoch << 20)
	       ^ c->writes) ^ 0x5bd1e995;
  buf = xmalloc (n);
  gen (key, 0, buf, n);
  r = call (c, GOMP_HS_OP_WRITE, c->fd, 0, 0, buf, n, NULL, 0, NULL, &err);
  free (buf);
  if (r != (int64_t) n || err != 0)
    {
      fail (c, "write of %zu bytes: %lld, errno %d", n, (long long) r, err);
      return;
    }
  c->writes++;
  c->nwrites++;
  c->bytes_written += n;
  if (n > 0)
    {
      if (c->nsegs == c->cap)
	{
	  c->cap = c->cap ? 2 * c->cap : 64;
	  c->segs = realloc (c->segs, c->cap * sizeof *c->segs);
	  if (c->segs == NULL)
	    abort ();
	}
      c->segs[c->nsegs].start = c->size;
      c->segs[c->nsegs].len = n;
      c->segs[c->nsegs].key = key;
      c->nsegs++;
    }
  c->size += n;
  /* O_APPEND: the write moves the offset to the end, if it writes.  */
  if (n > 0)
    c->pos = c->size;
}

static void
op_read (struct client *c, int64_t fd, int seek)
{
  int32_t err;
  int64_t r;
  uint64_t off = seek ? (c->size ? rnd (c) % (c->size + 1) : 0) : c->pos;
  uint64_t got, want;
  size_t n = rnd_size (c);
  unsigned char *buf;
  if (seek)
    {
      r = call (c, GOMP_HS_OP_LSEEK, fd, off, SEEK_SET, NULL, 0, NULL, 0,
		NULL, &err);
      if (r != (int64_t) off)
	{
	  fail (c, "lseek to %llu: %lld, errno %d", (unsigned long long) off,
		(long long) r, err);
	  return;
	}
    }
  buf = xmalloc (n);
  r = call (c, GOMP_HS_OP_READ, fd, n, 0, NULL, 0, buf, n, &got, &err);
  want = c->size - off < n ? c->size - off : n;
  if (r != (int64_t) want || got != want || err != 0
      || !matches (c, off, buf, got))
    fail (c, "read of %zu bytes at %llu of %llu: %lld (%llu bytes), errno"
	  " %d%s", n, (unsigned long long) off,
	  (unsigned long long) c->size, (long long) r,
	  (unsigned long long) got, err,
	  r == (int64_t) want ? ", bytes differ" : "");
  free (buf);
  c->bytes_read += got;
  c->nreads++;
  if (fd == c->fd)
    c->pos = off + got;
}

static void
op_lseek (struct client *c)
{
  int32_t err;
  int64_t r, want;
  int whence = rnd (c) % 3;
  int64_t off = 0;
  if (whence == SEEK_SET)
    off = c->size ? rnd (c) % (c->size + 1) : 0;
  r = call (c, GOMP_HS_OP_LSEEK, c->fd, off, whence, NULL, 0, NULL, 0, NULL,
	    &err);
  want = whence == SEEK_SET ? off : whence == SEEK_CUR ? (int64_t) c->pos
						      : (int64_t) c->size;
  if (r != want || err != 0)
    fail (c, "lseek (%lld, %d): %lld, errno %d, want %lld", (long long) off,
	  whence, (long long) r, err, (long long) want);
  c->pos = want;
}

static void
op_stat (struct client *c, int by_path)
{
  int32_t err;
  int64_t r;
  uint64_t got = 0;
  struct gomp_hs_stat st;
  memset (&st, 0, sizeof st);
  if (by_path)
    r = call (c, GOMP_HS_OP_STAT, 0, 0, 0, c->path, strlen (c->path) + 1,
	      &st, sizeof st, &got, &err);
  else
    r = call (c, GOMP_HS_OP_FSTAT, c->fd, 0, 0, NULL, 0, &st, sizeof st,
	      &got, &err);
  if (r != 0 || err != 0 || got != sizeof st || st.size != (int64_t) c->size
      || !S_ISREG (st.mode))
    fail (c, "%s: %lld, errno %d, %llu bytes, size %lld of %llu",
	  by_path ? "stat" : "fstat", (long long) r, err,
	  (unsigned long long) got, (long long) st.size,
	  (unsigned long long) c->size);
}

static void
op_second_fd (struct client *c)
{
  int32_t err;
  int64_t fd2, r;
  fd2 = path_call (c, GOMP_HS_OP_OPEN, c->path, O_RDONLY, NULL, 0, &err);
  if (fd2 < 3 || fd2 == c->fd)
    {
      fail (c, "second open: %lld, errno %d", (long long) fd2, err);
      return;
    }
  /* A new descriptor starts at 0; reading it does not move the
     other's offset.  */
  {
    uint64_t keep = c->pos;
    c->pos = 0;
    op_read (c, fd2, 0);
    c->pos = keep;
  }
  r = call (c, GOMP_HS_OP_CLOSE, fd2, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  if (r != 0)
    fail (c, "close of the second fd: %lld, errno %d", (long long) r, err);
}

/* The host callback: adds (I * 7 + SIZE) to byte I; returns the sum of
   the bytes it was given plus SIZE.  */

static int64_t
cb_xform (void *buf, size_t size, void *user)
{
  unsigned char *p = buf;
  int64_t sum = (int64_t) size;
  size_t i;
  (void) user;
  for (i = 0; i < size; i++)
    {
      sum += p[i];
      p[i] = (unsigned char) (p[i] + i * 7 + size);
    }
  return sum;
}

/* GOMP_HOST_SERVICES_SERVER=process: the server's counters of
   descriptors and rounds are in another process.  */
static int proc_mode;

static void
op_host_call (struct client *c)
{
  static const char name[] = "soak-xform";
  int32_t err;
  int64_t r, sum;
  size_t n = rnd_size (c), i;
  unsigned char *buf = xmalloc (n), *orig = xmalloc (n);
  int64_t args[4] = { sizeof name, (int64_t) n, 0, 0 };
  uint64_t key = mix64 (((uint64_t) c->id << 32) ^ c->hcalls++);
  uint64_t got = 0;
  gen (key, 0, buf, n);
  memcpy (orig, buf, n);
  c->calls++;
  __atomic_fetch_add (&calls_done, 1, __ATOMIC_RELAXED);
  r = hs_call2 (c->s->dev, GOMP_HS_OP_HOST_CALL, args, name, sizeof name,
		buf, n, buf, n, &got, &err);
  sum = (int64_t) n;
  for (i = 0; i < n; i++)
    {
      sum += orig[i];
      if (buf[i] != (unsigned char) (orig[i] + i * 7 + n))
	break;
    }
  if (r != sum || err != 0 || got != n || i != n)
    fail (c, "host call with %zu bytes: %lld (want %lld), errno %d, %llu"
	  " bytes back, first wrong byte %zu", n, (long long) r,
	  (long long) sum, err, (unsigned long long) got, i);
  c->bytes_hcall += n;
  free (buf);
  free (orig);
}

static void
op_misc (struct client *c)
{
  int32_t err;
  int64_t r;
  switch (rnd (c) % 4)
    {
    case 0:
      {
	struct gomp_hs_timespec ts;
	int64_t ns;
	r = call (c, GOMP_HS_OP_CLOCK_GETTIME, CLOCK_MONOTONIC, 0, 0, NULL, 0,
		  &ts, sizeof ts, NULL, &err);
	ns = ts.sec * 1000000000 + ts.nsec;
	if (r != 0 || ns < c->last_clock_ns)
	  fail (c, "clock_gettime: %lld, errno %d, went back %lld ns",
		(long long) r, err, (long long) (c->last_clock_ns - ns));
	c->last_clock_ns = ns;
	break;
      }
    case 1:
      r = call (c, GOMP_HS_OP_ISATTY, c->fd, 0, 0, NULL, 0, NULL, 0, NULL,
		&err);
      if (r != 0 || err != ENOTTY)
	fail (c, "isatty of a file: %lld, errno %d", (long long) r, err);
      break;
    case 2:
      r = path_call (c, GOMP_HS_OP_ACCESS, c->path, R_OK | W_OK, NULL, 0,
		     &err);
      if (r != 0)
	fail (c, "access: %lld, errno %d", (long long) r, err);
      break;
    default:
      {
	/* Rename there and back; the descriptor stays valid.  */
	char two[620];
	size_t a = strlen (c->path) + 1, b = strlen (c->path2) + 1;
	struct gomp_hs_stat st;
	memcpy (two, c->path, a);
	memcpy (two + a, c->path2, b);
	r = call (c, GOMP_HS_OP_RENAME, 0, 0, 0, two, a + b, NULL, 0, NULL,
		  &err);
	if (r != 0)
	  fail (c, "rename: %lld, errno %d", (long long) r, err);
	r = path_call (c, GOMP_HS_OP_STAT, c->path, 0, &st, sizeof st, &err);
	if (r != -1 || err != ENOENT)
	  fail (c, "stat of the old name: %lld, errno %d", (long long) r, err);
	memcpy (two, c->path2, b);
	memcpy (two + b, c->path, a);
	r = call (c, GOMP_HS_OP_RENAME, 0, 0, 0, two, a + b, NULL, 0, NULL,
		  &err);
	if (r != 0)
	  fail (c, "rename back: %lld, errno %d", (long long) r, err);
	break;
      }
    }
}

static char scratch[256];

static void *
client_fn (void *arg)
{
  struct client *c = arg;
  int32_t err;
  int64_t r;
  sim_client_id = c->id;
  snprintf (c->path, sizeof c->path, "%s/c%u.dat", scratch, c->id);
  snprintf (c->path2, sizeof c->path2, "%s/c%u.moved", scratch, c->id);
  unlink (c->path);
  open_new (c);
  while (!c->failed
	 && __atomic_load_n (&calls_done, __ATOMIC_RELAXED) < calls_budget)
    {
      unsigned r100 = rnd (c) % 100;
      if (r100 < 30)
	op_write (c);
      else if (r100 < 55)
	op_read (c, c->fd, 1);
      else if (r100 < 62)
	op_lseek (c);
      else if (r100 < 67)
	op_stat (c, 0);
      else if (r100 < 72)
	op_stat (c, 1);
      else if (r100 < 77)
	op_second_fd (c);
      else if (r100 < 87)
	op_host_call (c);
      else if (r100 < 98)
	op_misc (c);
      else
	rotate (c);
    }
  if (!c->failed)
    verify_all (c);
  r = call (c, GOMP_HS_OP_CLOSE, c->fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  if (r != 0)
    fail (c, "last close: %lld, errno %d", (long long) r, err);
  __atomic_fetch_sub (&clients_running, 1, __ATOMIC_RELAXED);
  return NULL;
}

/* The host's own look at a client's file: exactly its writes.  */

static int
host_check (struct client *c)
{
  int fd = open (c->path, O_RDONLY);
  unsigned char buf[65536];
  uint64_t off = 0;
  ssize_t n;
  int ok = fd >= 0;
  while (ok && (n = read (fd, buf, sizeof buf)) > 0)
    {
      ok = matches (c, off, buf, n);
      off += n;
    }
  if (fd >= 0)
    close (fd);
  return ok && off == c->size;
}

/* Process figures.  */

static long
rss_kib (void)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  long v = -1;
  if (f == NULL)
    return -1;
  while (fgets (line, sizeof line, f))
    if (sscanf (line, "VmRSS: %ld", &v) == 1)
      break;
  fclose (f);
  return v;
}

static int
count_fds (void)
{
  int n = 0;
  DIR *d = opendir ("/proc/self/fd");
  struct dirent *e;
  if (d == NULL)
    return -1;
  while ((e = readdir (d)) != NULL)
    if (e->d_name[0] != '.')
      n++;
  closedir (d);
  /* Less the one opendir used.  */
  return n - 1;
}

/* What malloc has handed out and not got back, in KiB: unlike RSS, not
   moved by how glibc's arenas keep and return freed memory.  Chunks
   held in a thread's cache (tcache) count as in use: the scripts run
   this with glibc.malloc.tcache_count=0, or 512 threads filling their
   caches would look like growth.  What the server keeps on purpose is
   bounded (staging up to 64 KiB per port between calls).  */

static long
heap_kib (void)
{
  struct mallinfo2 mi = mallinfo2 ();
  return (long) ((mi.uordblks + mi.hblkhd) / 1024);
}

struct sample
{
  double t;
  unsigned long calls;
  unsigned running;
  long rss;
  long heap;		/* KiB allocated by malloc and in use.  */
  int fds;
};

static struct sample samples[MAX_SAMPLES];
static int nsamples;
static volatile int sampler_stop;
static unsigned sampler_buf;

/* Samples every SAMPLE_MS; prints one every PROGRESS_S.  */

static void *
sampler_fn (void *arg)
{
  double t0 = now (), next = t0 + PROGRESS_S;
  (void) arg;
  while (!__atomic_load_n (&sampler_stop, __ATOMIC_ACQUIRE))
    {
      if (nsamples < MAX_SAMPLES)
	{
	  struct sample *s = &samples[nsamples];
	  s->t = now ();
	  s->calls = __atomic_load_n (&calls_done, __ATOMIC_RELAXED);
	  s->running = __atomic_load_n (&clients_running, __ATOMIC_RELAXED);
	  s->rss = rss_kib ();
	  s->heap = heap_kib ();
	  s->fds = count_fds ();
	  if (s->t >= next)
	    {
	      printf ("soak: [%u] %4.0f s: %8lu calls, RSS %6.1f MiB, %4d"
		      " descriptors\n", sampler_buf, s->t - t0, s->calls,
		      s->rss / 1024.0, s->fds);
	      next += PROGRESS_S;
	    }
	  nsamples++;
	}
      usleep (SAMPLE_MS * 1000);
    }
  return NULL;
}

/* The least value of FIELD (KiB) in the first and in the last quarter of
   samples FIRST to LAST.  */

static void
quarter_floors (int first, int last, size_t field, long *floor_first,
		long *floor_last)
{
  int n = last - first, q, k;
  for (q = 0; q < 4; q += 3)
    {
      long fl = -1;
      for (k = first + q * n / 4; k < first + (q + 1) * n / 4; k++)
	{
	  long v = *(long *) ((char *) &samples[k] + field);
	  if (fl < 0 || v < fl)
	    fl = v;
	}
      *(q == 0 ? floor_first : floor_last) = fl;
    }
}

static void
phase (unsigned long calls, unsigned nclients, unsigned buf,
       unsigned long seed)
{
  struct sim s;
  struct client *cl = calloc (nclients, sizeof *cl);
  pthread_t *t = calloc (nclients, sizeof *t), st;
  unsigned i, bad = 0, host_bad = 0;
  const char *why = "";
  double t0, t1;
  int fds_before, fds_max = 0, fds_after_clients, fds_after;
  long rss_before, rss_gone;
  unsigned open_after;
  unsigned long long served;
  uint64_t wr = 0, rd = 0, hc = 0;
  unsigned long nw = 0, nr = 0, nrot = 0, total = 0;
  int first, last, k;
  long floor_first = -1, floor_last = -1, rss_max = 0;

  fds_before = count_fds ();
  rss_before = rss_kib ();
  calls_done = 0;
  nsamples = 0;
  sampler_stop = 0;
  sampler_buf = buf;
  clients_running = nclients;
  calls_budget = calls;
  sim_start (&s, SOAK_PORTS, buf, "all");
  pthread_create (&st, NULL, sampler_fn, NULL);
  t0 = now ();
  for (i = 0; i < nclients; i++)
    {
      cl[i].s = &s;
      cl[i].id = i + 1;
      cl[i].rng = mix64 (seed * 1000003 + i + 1) | 1;
      if (pthread_create (&t[i], NULL, client_fn, &cl[i]) != 0)
	abort ();
    }
  for (i = 0; i < nclients; i++)
    {
      pthread_join (t[i], NULL);
      if (cl[i].failed)
	{
	  bad++;
	  why = cl[i].why;
	}
      wr += cl[i].bytes_written;
      rd += cl[i].bytes_read;
      hc += cl[i].bytes_hcall;
      nw += cl[i].nwrites;
      nr += cl[i].nreads;
      nrot += cl[i].nrotations;
      total += cl[i].calls;
    }
  t1 = now ();
  __atomic_store_n (&sampler_stop, 1, __ATOMIC_RELEASE);
  pthread_join (st, NULL);
  fds_after_clients = count_fds ();
  open_after = 0;
  served = 0;
  if (!proc_mode)
    {
      pthread_mutex_lock (&s.server->fd_lock);
      open_after = s.server->open_fds;
      pthread_mutex_unlock (&s.server->fd_lock);
      served = __atomic_load_n (&s.server->served, __ATOMIC_RELAXED);
    }
  sim_stop (&s);
  /* The server's last reference may belong to a worker thread (they are
     detached: one blocked in a host callback cannot hold up fini), and
     whoever drops it closes the socket to the server process: give the
     workers, which fini has told to leave, up to 10 s to do so.  */
  for (k = 0; (fds_after = count_fds ()) != fds_before && k < 1000; k++)
    usleep (10000);
  if (k != 0)
    printf ("soak: [%u] descriptors back %d ms after fini\n", buf, k * 10);

  for (i = 0; i < nclients; i++)
    {
      if (!cl[i].failed && !host_check (&cl[i]))
	host_bad++;
      unlink (cl[i].path);
      free (cl[i].segs);
    }

  printf ("soak: %u-byte ports: %lu calls (%llu rounds) by %u clients in"
	  " %.1f s: %.0f calls/s; %lu writes (%.1f MiB), %lu reads (%.1f"
	  " MiB), %.1f MiB through host calls, %lu files replaced\n",
	  buf, total, served, nclients, t1 - t0, total / (t1 - t0), nw,
	  wr / 1048576.0, nr, rd / 1048576.0, hc / 1048576.0, nrot);
  check (bad == 0, "[%u] every result, errno and byte read back as"
	 " written, by all %u clients%s%s", buf, nclients,
	 bad ? ": " : "", why);
  check (host_bad == 0, "[%u] each client's file holds exactly its writes,"
	 " in order (read by the host): %u wrong", buf, host_bad);

  /* Descriptors.  */
  for (k = 0; k < nsamples; k++)
    if (samples[k].fds > fds_max)
      fds_max = samples[k].fds;
  printf ("soak: [%u] descriptors: %d before, at most %d while running"
	  " (%d samples), %d after the clients, %d after the server\n", buf,
	  fds_before, fds_max, nsamples, fds_after_clients, fds_after);
  check (fds_max <= fds_before + 2 * (int) nclients
	 /* The server process's memfd and socket, in this one.  */
	 && fds_after_clients == fds_before + (proc_mode ? 2 : 0)
	 && fds_after == fds_before
	 && open_after == 0,
	 "[%u] descriptors bounded (<= %d + 2 per client) and back to %d;"
	 " server holds %u device fds", buf, fds_before, fds_before,
	 open_after);

  /* RSS: floors of the quarters of the steady state, from 10 % of the
     calls on until the first client finishes (a finished client's
     thread gives its memory back, which would hide growth).  */
  for (first = 0; first < nsamples; first++)
    if (samples[first].calls >= calls / 10)
      break;
  for (last = first; last < nsamples; last++)
    if (samples[last].running < nclients)
      break;
  /* A trend needs a few seconds of steady state: over a shorter window
     (make check's short soak on a loaded machine) the buffers still
     growing to their working size look like one.  */
  if (last - first >= SOAK_MIN_SAMPLES)
    {
      int n = last - first;
      long heap_first, heap_last;
      quarter_floors (first, last, offsetof (struct sample, rss),
		      &floor_first, &floor_last);
      quarter_floors (first, last, offsetof (struct sample, heap),
		      &heap_first, &heap_last);
      for (k = first; k < last; k++)
	if (samples[k].rss > rss_max)
	  rss_max = samples[k].rss;
      printf ("soak: [%u] RSS while all %u clients run, from %lu to %lu"
	      " calls (%.1f s, %d samples): floor %.1f MiB in the first"
	      " quarter, %.1f MiB in the last; %.1f MiB at the start, peak"
	      " %.1f MiB\n", buf, nclients, samples[first].calls,
	      samples[last - 1].calls, samples[last - 1].t - samples[first].t,
	      n, floor_first / 1024.0, floor_last / 1024.0,
	      samples[first].rss / 1024.0, rss_max / 1024.0);
      printf ("soak: [%u] heap in use (malloc): floor %.1f MiB in the"
	      " first quarter, %.1f MiB in the last\n", buf,
	      heap_first / 1024.0, heap_last / 1024.0);
      /* RSS also moves with how glibc's arenas keep freed memory (several
	 MiB either way between runs); what the server allocates and keeps
	 is the heap in use.  A leak of 48 bytes per call grows both by
	 some 24 MiB over make soak's 64-byte phase.  */
      check (floor_last <= floor_first + 16384 + floor_first / 50,
	     "[%u] RSS flat: floor %+.1f MiB from the first quarter to the"
	     " last (tolerance 16 MiB + 2 %%)", buf,
	     (floor_last - floor_first) / 1024.0);
      /* Beside the tolerance, what the server keeps by design: a port's
	 staging buffer of up to 64 KiB between calls, which the ports
	 reach one by one as calls get big.  */
      check (heap_last <= heap_first + 2048 + heap_first / 50
			  + SOAK_PORTS * 64,
	     "[%u] heap in use flat: floor %+.1f MiB from the first quarter"
	     " to the last (tolerance 2 MiB + 2 %% + %u KiB of staging)", buf,
	     (heap_last - heap_first) / 1024.0, SOAK_PORTS * 64);
    }
  else
    printf ("soak: [%u] RSS %.1f MiB; run too short to judge its trend (%d"
	    " samples while all clients ran after warm-up)\n", buf,
	    rss_kib () / 1024.0, last - first);
  rss_gone = rss_kib ();
  printf ("soak: [%u] RSS %.1f MiB before the server, %.1f MiB once it is"
	  " gone\n", buf, rss_before / 1024.0, rss_gone / 1024.0);
  check (rss_gone <= rss_before + 8192 + rss_before / 50,
	 "[%u] RSS back to where it was once the server is gone: %+.1f MiB"
	 " (tolerance 8 MiB + 2 %%)", buf, (rss_gone - rss_before) / 1024.0);
  free (cl);
  free (t);
}

int
main (int argc, char **argv)
{
  unsigned long calls = argc > 1 ? strtoul (argv[1], NULL, 0) : 1000000;
  unsigned nclients = argc > 2 ? strtoul (argv[2], NULL, 0) : 512;
  const char *tmp = getenv ("TMPDIR"), *sd = getenv ("HS_SOAK_SEED");
  unsigned long seed = sd ? strtoul (sd, NULL, 0) : (unsigned long) time (NULL);
  struct rlimit rl;

  setvbuf (stdout, NULL, _IOLBF, 0);
  proc_mode = getenv ("GOMP_HOST_SERVICES_SERVER") != NULL
	      && strcmp (getenv ("GOMP_HOST_SERVICES_SERVER"), "process") == 0;
  /* Big buffers straight from mmap and back (see RSS above).  */
  mallopt (M_MMAP_THRESHOLD, 32 * 1024);
  /* Two descriptors per client, and some.  */
  if (getrlimit (RLIMIT_NOFILE, &rl) == 0
      && rl.rlim_cur < 2 * nclients + 64)
    {
      rl.rlim_cur = rl.rlim_max < 4 * nclients + 64 ? rl.rlim_max
						    : 4 * nclients + 64;
      setrlimit (RLIMIT_NOFILE, &rl);
    }
  snprintf (scratch, sizeof scratch, "%s/hs-soak-XXXXXX", tmp ? tmp : "/tmp");
  if (mkdtemp (scratch) == NULL)
    {
      perror ("mkdtemp");
      return 2;
    }
  libgomp_host_register ("soak-xform", cb_xform, NULL);
  printf ("soak: %lu calls, %u clients, seed %lu, files in %s\n", calls,
	  nclients, seed, scratch);
  phase (calls / 2, nclients, 64, seed);
  phase (calls - calls / 2, nclients, 65536, seed + 1);
  libgomp_host_unregister ("soak-xform");
  rmdir (scratch);
  printf ("soak: %s\n", failures ? "FAILED" : "all checks passed");
  return failures != 0;
}
