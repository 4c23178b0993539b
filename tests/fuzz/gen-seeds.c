/* Write the hand-made seed inputs of tests/fuzz/hs-fuzz.c: each a short
   program in the harness's input format (see the comment at the top of
   hs-fuzz.c) that exercises some opcodes or a protocol corner.  The
   corpus in tests/fuzz/corpus started from these; libFuzzer grew it and
   -merge=1 minimized it.

   Usage: gen-seeds DIR  */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host-service.h"

static unsigned char buf[65536];
static size_t len;

static void
u8 (unsigned v)
{
  buf[len++] = (unsigned char) v;
}

static void
uint_le (uint64_t v, int bytes)
{
  int i;
  for (i = 0; i < bytes; i++)
    u8 ((unsigned) (v >> (8 * i)) & 0xff);
}

static void
bytes (const void *p, size_t n)
{
  memcpy (buf + len, p, n);
  len += n;
}

/* Servers (byte 0 and action SERVER): policy = k % 3 (all, readonly,
   stdio), staging 1 MiB for k < 3, 128 bytes for k >= 3.  */
enum { ALL, RO, STDIO, ALL_SMALL, RO_SMALL, STDIO_SMALL };

/* Actions.  */
enum { CALL = 0, ROUND = 1, WAIT = 2, SERVER = 3, HCALL = 4, SHUT = 5 };

/* Argument words (rd_arg).  */
static void a_small (unsigned v) { u8 (0); u8 (v); }
static void a_fd (unsigned recent) { u8 (1); u8 (recent); }
static void a_i64 (int64_t v) { u8 (2); uint_le ((uint64_t) v, 8); }
static void a_interesting (unsigned k) { u8 (3); u8 (k); }
static void a_neg (unsigned v) { u8 (5); u8 (v); }
static void a_u16 (unsigned v) { u8 (6); uint_le (v, 2); }
/* Open flags: bit I of MASK is the harness's fz_open_bits[I]:
   0 WRONLY 1 RDWR 2 CREAT 3 EXCL 4 TRUNC 5 APPEND 6 NONBLOCK 7 SYNC
   8 DSYNC 9 DIRECTORY 10 NOFOLLOW 11 CLOEXEC 12 NOCTTY 13 LARGEFILE
   14 PATH 15 TMPFILE.  */
static void a_oflags (unsigned mask) { u8 (7); uint_le (mask, 2); }
static void a_whence (unsigned v) { u8 (8); u8 (v); }
static void a_clock (unsigned v) { u8 (9); u8 (v); }
static void a_access (unsigned v) { u8 (10); u8 (v); }
static void a_mode (void) { u8 (11); }
static void a_zero (void) { u8 (12); }

#define O_RW_CREAT_TRUNC ((1u << 1) | (1u << 2) | (1u << 4))

/* Names of a path input.  */
static void name (unsigned idx) { u8 (4 * idx); }	/* a b c d a1 */
static void
raw_name (const char *s, size_t n)
{
  u8 (2);
  u8 ((unsigned) n);
  bytes (s, n);
}
static void long_name (unsigned n) { u8 (3); uint_le (n, 2); }

/* Data of a write or host call: SIZE bytes, up to 16 of them literal
   bytes from FILL on, the rest the harness's pattern.  */
static void
data (unsigned size, unsigned char fill)
{
  unsigned i, lit = size < 16 ? size : 16;
  if (size < 64)
    u8 (size * 4);
  else
    {
      u8 (2);
      uint_le (size, 2);
    }
  u8 (lit);
  for (i = 0; i < lit; i++)
    u8 (fill + i);
}

/* A CALL: port, op; ABANDON > 0 stops after that many rounds.  The
   arguments and input follow, written by the caller.  */
static void
call (unsigned port, unsigned op, int abandon, int alt)
{
  u8 (CALL);
  u8 (port | (abandon > 0 ? 0x80 : 0) | (alt ? 0x40 : 0));
  u8 (op);
  if (abandon > 0)
    u8 (abandon - 1);
}

static void
open_call (unsigned port, unsigned nm, unsigned mask)
{
  call (port, GOMP_HS_OP_OPEN, 0, 0);
  a_oflags (mask);
  a_mode ();
  a_zero ();
  a_zero ();
  name (nm);
}

static void
fd_call (unsigned port, unsigned op, unsigned recent, int64_t a1,
	 unsigned a2)
{
  call (port, op, 0, 0);
  a_fd (recent);
  a_i64 (a1);
  a_whence (a2);
  a_zero ();
}

static void
write_call (unsigned port, unsigned recent, unsigned size)
{
  call (port, GOMP_HS_OP_WRITE, 0, 0);
  a_fd (recent);
  a_zero ();
  a_zero ();
  a_zero ();
  data (size, 'A');
}

static void
path_call (unsigned port, unsigned op, unsigned a0, unsigned nm)
{
  call (port, op, 0, 0);
  a_small (a0);
  a_zero ();
  a_zero ();
  a_zero ();
  name (nm);
}

static void
noarg_call (unsigned port, unsigned op, unsigned a0)
{
  call (port, op, 0, 0);
  a_small (a0);
  a_zero ();
  a_zero ();
  a_zero ();
}

static void
hcall (unsigned port, unsigned which, unsigned size, unsigned char fill)
{
  u8 (HCALL);
  u8 (port + 4 * which);
  data (size, fill);
}

/* A raw ROUND.  FLAGS: 0 first, 1 cont, else 240 + v.  LEN_SEL: 0 the
   payload's length, 7 past the buffer.  TOTAL: -1 the length, else a
   16-bit total.  DELTA: 1, 0, or a skip of 2 to 21.  */
static void
round_ (unsigned port, int nowait, unsigned op, unsigned flags,
	int64_t a0, const void *payload, unsigned plen, unsigned len_sel,
	long total, unsigned delta)
{
  u8 (ROUND);
  u8 (port | (nowait ? 4 : 0));
  u8 (op);
  u8 (flags == 0 ? 0 : flags == 1 ? 120 : 240 + flags);
  a_i64 (a0);
  a_zero ();
  a_zero ();
  a_zero ();
  u8 (plen);
  bytes (payload, plen);
  u8 (len_sel);
  if (total < 0)
    u8 (0);
  else
    {
      u8 (2);
      uint_le ((uint64_t) total, 2);
    }
  u8 (delta == 1 ? 0 : delta == 0 ? 200 : 220 + delta - 2);
}

static void
emit (const char *dir, const char *nm)
{
  char path[4096];
  FILE *f;
  snprintf (path, sizeof path, "%s/seed-%s", dir, nm);
  f = fopen (path, "wb");
  if (f == NULL || fwrite (buf, 1, len, f) != len || fclose (f) != 0)
    {
      perror (path);
      exit (1);
    }
  len = 0;
}

int
main (int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : ".";
  int i;

  /* A file's life: open, write (several rounds), lseek, read, fstat,
     isatty, fsync, close; on the small-staging server so that the write
     streams and the read takes several blocks.  */
  u8 (ALL_SMALL);
  open_call (0, 0, O_RW_CREAT_TRUNC);
  write_call (1, 0, 300);
  fd_call (2, GOMP_HS_OP_LSEEK, 0, 0, 0);
  fd_call (3, GOMP_HS_OP_READ, 0, 1000, 0);
  fd_call (0, GOMP_HS_OP_LSEEK, 0, -10, 2);
  fd_call (0, GOMP_HS_OP_FSTAT, 0, 0, 0);
  fd_call (1, GOMP_HS_OP_ISATTY, 0, 0, 0);
  fd_call (1, GOMP_HS_OP_FSYNC, 0, 0, 0);
  fd_call (2, GOMP_HS_OP_CLOSE, 0, 0, 0);
  fd_call (2, GOMP_HS_OP_CLOSE, 0, 0, 0);
  emit (dir, "file-io");

  /* Paths: mkdir, stat, lstat, access, rename, unlink.  */
  u8 (ALL);
  path_call (0, GOMP_HS_OP_MKDIR, 0755 & 0xff, 3);
  open_call (1, 0, (1u << 0) | (1u << 2));
  fd_call (1, GOMP_HS_OP_CLOSE, 0, 0, 0);
  path_call (2, GOMP_HS_OP_STAT, 0, 0);
  path_call (3, GOMP_HS_OP_LSTAT, 0, 3);
  call (0, GOMP_HS_OP_ACCESS, 0, 0);
  a_access (4);
  a_zero ();
  a_zero ();
  a_zero ();
  name (0);
  call (1, GOMP_HS_OP_RENAME, 0, 0);
  a_zero ();
  a_zero ();
  a_zero ();
  a_zero ();
  name (0);
  name (1);
  path_call (2, GOMP_HS_OP_UNLINK, 0, 1);
  path_call (2, GOMP_HS_OP_UNLINK, 0, 1);
  path_call (3, GOMP_HS_OP_STAT, 0, 2);
  emit (dir, "paths");

  /* Bad paths: unterminated, NUL inside, long, rename with one name.  */
  u8 (ALL);
  call (0, GOMP_HS_OP_STAT, 0, 0);
  a_zero (); a_zero (); a_zero (); a_zero ();
  raw_name ("abc", 3);
  call (1, GOMP_HS_OP_OPEN, 0, 0);
  a_zero (); a_zero (); a_zero (); a_zero ();
  raw_name ("a\0b\0", 4);
  call (2, GOMP_HS_OP_MKDIR, 0, 0);
  a_zero (); a_zero (); a_zero (); a_zero ();
  long_name (4000);
  call (3, GOMP_HS_OP_UNLINK, 0, 0);
  a_zero (); a_zero (); a_zero (); a_zero ();
  long_name (300);
  call (0, GOMP_HS_OP_RENAME, 0, 0);
  a_zero (); a_zero (); a_zero (); a_zero ();
  name (0);
  emit (dir, "bad-paths");

  /* Clocks, stdio descriptors.  */
  u8 (STDIO);
  noarg_call (0, GOMP_HS_OP_CLOCK_GETTIME, 0);
  call (1, GOMP_HS_OP_CLOCK_GETTIME, 0, 0);
  a_clock (1);
  a_zero (); a_zero (); a_zero ();
  noarg_call (2, GOMP_HS_OP_CLOCK_GETTIME, 77);
  noarg_call (3, GOMP_HS_OP_GETTIMEOFDAY, 0);
  write_call (0, 9, 10);	/* No open: fd 3, EBADF.  */
  call (1, GOMP_HS_OP_WRITE, 0, 0);
  a_small (1); a_zero (); a_zero (); a_zero ();
  data (70, 'w');
  fd_call (2, GOMP_HS_OP_READ, 9, 5, 0);
  noarg_call (3, GOMP_HS_OP_ISATTY, 2);
  noarg_call (0, GOMP_HS_OP_CLOSE, 1);
  path_call (1, GOMP_HS_OP_OPEN, 0, 0);	/* Not under stdio.  */
  emit (dir, "stdio");

  /* Readonly: reading works, writing is refused.  */
  u8 (ALL);
  open_call (0, 2, (1u << 0) | (1u << 2));
  write_call (0, 0, 5);
  fd_call (0, GOMP_HS_OP_CLOSE, 0, 0, 0);
  u8 (SERVER);
  u8 (RO);
  open_call (1, 2, 0);
  fd_call (1, GOMP_HS_OP_READ, 0, 100, 0);
  write_call (1, 0, 5);
  open_call (2, 2, (1u << 1));
  path_call (3, GOMP_HS_OP_UNLINK, 0, 2);
  path_call (3, GOMP_HS_OP_MKDIR, 0, 3);
  emit (dir, "readonly");

  /* Host calls: each registered name, validator accepting and refusing,
     bad sizes, names not registered.  */
  u8 (ALL);
  hcall (0, 0, 0, 0);
  hcall (1, 0, 100, 'x');
  hcall (2, 1, 16, 0x10);	/* First byte even: accepted.  */
  hcall (3, 1, 16, 0x11);	/* Odd: the validator's errno.  */
  hcall (0, 1, 4, 0);		/* Too small.  */
  hcall (1, 1, 300, 0);	/* Too big.  */
  hcall (2, 2, 8, 1);
  call (3, GOMP_HS_OP_HOST_CALL, 0, 0);
  a_zero (); a_zero (); a_zero (); a_zero ();
  u8 (3);			/* "fz-none".  */
  data (10, 0);
  call (0, GOMP_HS_OP_HOST_CALL, 0, 1);	/* Arguments not matching.  */
  a_small (3); a_small (5); a_zero (); a_zero ();
  u8 (0);
  data (10, 0);
  emit (dir, "host-calls");

  /* More descriptors than the table starts with.  */
  u8 (ALL);
  for (i = 0; i < 20; i++)
    open_call (i % 4, i % 5, (1u << 2) | (1u << 1));
  emit (dir, "many-fds");

  /* Raw rounds: every way a round can be wrong.  */
  u8 (ALL);
  round_ (0, 0, 0, 0, 0, "", 0, 0, -1, 1);		/* Op 0.  */
  round_ (0, 0, GOMP_HS_OP_MAX, 0, 0, "", 0, 0, -1, 1);	/* Op too big.  */
  round_ (1, 0, GOMP_HS_OP_READ, 5, 0, "", 0, 0, -1, 1);	/* Flags.  */
  round_ (1, 0, GOMP_HS_OP_WRITE, 0, 1, "xyz", 3, 7, -1, 1);	/* Len.  */
  round_ (2, 0, GOMP_HS_OP_WRITE, 1, 1, "", 0, 0, -1, 1);	/* No call.  */
  round_ (2, 0, GOMP_HS_OP_WRITE, 0, 1, "0123456789", 10, 0, 200, 1);
  round_ (2, 0, GOMP_HS_OP_READ, 1, 1, "", 0, 0, 200, 1);	/* Other op.  */
  round_ (3, 0, GOMP_HS_OP_GETTIMEOFDAY, 0, 0, "", 0, 0, -1, 0); /* Same.  */
  round_ (3, 0, GOMP_HS_OP_GETTIMEOFDAY, 0, 0, "", 0, 0, -1, 7); /* Skip.  */
  round_ (3, 0, GOMP_HS_OP_GETTIMEOFDAY, 0, 0, "", 0, 0, 12, 1); /* Input.  */
  round_ (0, 0, GOMP_HS_OP_STAT, 0, 0, "a", 2, 0, 1000, 1);
  round_ (0, 0, GOMP_HS_OP_STAT, 1, 0, "b", 1, 0, 1000, 1);	/* Abandoned.  */
  round_ (0, 0, GOMP_HS_OP_FSTAT, 0, 1, "", 0, 0, -1, 1);
  round_ (0, 0, GOMP_HS_OP_FSTAT, 1, 1, "xx", 2, 0, 0, 1);	/* Out + len.  */
  emit (dir, "raw-rounds");

  /* A read whose output takes many rounds, fetched partly and then
     abandoned; a blocking round published while another is served.  */
  u8 (ALL_SMALL);
  open_call (0, 0, O_RW_CREAT_TRUNC);
  write_call (0, 0, 2000);
  fd_call (0, GOMP_HS_OP_LSEEK, 0, 0, 0);
  call (0, GOMP_HS_OP_READ, 3, 0);
  a_fd (0); a_u16 (5000); a_zero (); a_zero ();
  round_ (1, 1, GOMP_HS_OP_STAT, 0, 0, "a", 2, 0, -1, 1);
  round_ (1, 1, GOMP_HS_OP_STAT, 0, 0, "b", 2, 0, -1, 1);
  round_ (2, 1, GOMP_HS_OP_FSYNC, 0, 3, "", 0, 0, -1, 1);
  u8 (WAIT);
  round_ (0, 0, GOMP_HS_OP_READ, 0, 3, "", 0, 0, -1, 1);
  emit (dir, "overlap");

  /* Shutdown with a call in progress: it may finish; new calls are
     refused.  */
  u8 (ALL);
  round_ (0, 0, GOMP_HS_OP_WRITE, 0, 1, "0123", 4, 0, 100, 1);
  u8 (SHUT);
  round_ (0, 0, GOMP_HS_OP_WRITE, 1, 1, "4567", 4, 0, 100, 1);
  noarg_call (1, GOMP_HS_OP_GETTIMEOFDAY, 0);
  hcall (2, 0, 10, 0);
  emit (dir, "shutdown");

  /* Numbers at the edges.  */
  u8 (ALL);
  call (0, GOMP_HS_OP_READ, 0, 0);
  a_interesting (17); a_interesting (22); a_zero (); a_zero ();
  call (1, GOMP_HS_OP_LSEEK, 0, 0);
  a_neg (1); a_interesting (22); a_i64 (-1); a_zero ();
  call (2, GOMP_HS_OP_OPEN, 0, 0);
  a_i64 ((int64_t) 1 << 40); a_zero (); a_zero (); a_zero ();
  name (0);
  call (3, GOMP_HS_OP_WRITE, 0, 0);
  a_u16 (65535); a_zero (); a_zero (); a_zero ();
  data (1, 0);
  emit (dir, "edges");

  /* Paths that leave the root: an absolute one and "..", opened for
     reading (with the harness's path filter, "_dev_null" and "__": no
     such files).  Built with HS_FUZZ_FILTER_PATHS=0, the harness checks
     with this input that GOMP_HOST_SERVICES_ROOT confines them.  */
  u8 (RO);
  call (0, GOMP_HS_OP_OPEN, 0, 0);
  a_zero (); a_zero (); a_zero (); a_zero ();
  raw_name ("/dev/null", 10);
  call (1, GOMP_HS_OP_OPEN, 0, 0);
  a_oflags (1u << 9); a_zero (); a_zero (); a_zero ();
  raw_name ("..", 3);
  call (2, GOMP_HS_OP_OPEN, 0, 0);
  a_oflags (1u << 9); a_zero (); a_zero (); a_zero ();
  raw_name ("/", 2);
  emit (dir, "confine");
  return 0;
}
