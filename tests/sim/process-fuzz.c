/* A hostile device against the server process
   (GOMP_HOST_SERVICES_SERVER=process): random rounds written straight
   into the ports -- any opcode but EXIT, flags, arguments, lengths,
   totals, payloads and sequence numbers (repeated, skipped, going
   backwards), calls abandoned midway and kernels ended with calls half
   done -- from a seeded generator, not a coverage-guided one (the
   libFuzzer harness, tests/fuzz/hs-fuzz.c, drives an in-process server
   and reads its state; this one sees only what a device sees).

   Checked: every round is answered within a bound (no hang); every
   reply keeps the protocol (flags 0-2, a payload that fits the buffer);
   the server process lives through it all (no crash, no call refused by
   its sandbox: it would die or fail the next call), still serves a
   well-formed call afterwards, and its device's files all lie in the
   scratch root (GOMP_HOST_SERVICES_ROOT).  Descriptors 0-2 are kept out
   of the arguments, so that the device neither reads the test's stdin
   nor writes over its report.

   Usage: process-fuzz SCRATCH ROUNDS [SEED].  Prints PASS/FAIL lines.  */

#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "libgomp.h"
#include "host-service-internal.h"
#include "sim-client.h"

#define PORTS	4
#define BUF	64

static int failures;

static void
check (int ok, const char *what, ...)
{
  va_list ap;
  printf ("%s: process-fuzz: ", ok ? "PASS" : "FAIL");
  va_start (ap, what);
  vprintf (what, ap);
  va_end (ap);
  putchar ('\n');
  fflush (stdout);
  failures += !ok;
}

static uint64_t rng;

static uint64_t
next (void)
{
  /* xorshift64*.  */
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 0x2545f4914f6cdd1dull;
}

static unsigned
pick (unsigned n)
{
  return (unsigned) (next () % n);
}

/* A number that is often interesting.  */

static int64_t
arg (void)
{
  switch (pick (8))
    {
    case 0: return 0;
    case 1: return 3 + pick (8);	/* Device descriptors.  */
    case 2: return -1;
    case 3: return (int64_t) next ();
    case 4: return pick (BUF + 2);
    case 5: return O_CREAT | O_RDWR | (pick (2) ? O_TRUNC : O_APPEND);
    case 6: return (int64_t) 1 << pick (63);
    default: return pick (4096);
    }
}

/* A payload: a path in the scratch root, two paths, junk or zeros.  */

static unsigned
payload (unsigned char *b, unsigned cap)
{
  static const char *names[] = { "a", "b/c", "../x", "/etc/passwd", "d",
				 "a\0b", "", "/proc/self/mem", "x/../a" };
  unsigned n;
  switch (pick (4))
    {
    case 0:
      {
	const char *nm = names[pick (sizeof names / sizeof names[0])];
	n = strlen (nm) + 1;
	memcpy (b, nm, n);
	if (pick (2) && n * 2 <= cap)
	  {
	    memcpy (b + n, nm, n);
	    n *= 2;
	  }
	return n;
      }
    case 1:
      n = pick (cap + 1);
      for (unsigned k = 0; k < n; k++)
	b[k] = (unsigned char) next ();
      return n;
    case 2:
      n = pick (cap + 1);
      memset (b, 0, n);
      return n;
    default:
      return 0;
    }
}

int
main (int argc, char **argv)
{
  struct sim s;
  unsigned long rounds, i, answered = 0, bad_reply = 0, hangs = 0;
  uint32_t seq[PORTS] = { 0 };
  pid_t pid;
  int32_t err = 0;
  int64_t r;
  char root[512];

  if (argc < 3)
    return 2;
  rounds = strtoul (argv[2], NULL, 0);
  rng = argc > 3 ? strtoull (argv[3], NULL, 0) : (uint64_t) time (NULL);
  if (rng == 0)
    rng = 1;
  printf ("process-fuzz: %lu rounds, seed %llu\n", rounds,
	  (unsigned long long) rng);
  snprintf (root, sizeof root, "%s/root", argv[1]);
  mkdir (root, 0700);
  setenv ("GOMP_HOST_SERVICES_SERVER", "process", 1);
  setenv ("GOMP_HOST_SERVICES_ROOT", root, 1);
  sim_start (&s, PORTS, BUF, "all");
  pid = gomp_hs_proc_pid (s.server);

  for (i = 0; i < rounds; i++)
    {
      unsigned p = pick (PORTS);
      volatile struct gomp_hs_port *port = hs_port (s.dev, p);
      volatile unsigned char *buf = hs_buf (s.dev, p);
      unsigned char tmp[BUF];
      unsigned n = payload (tmp, BUF), k;
      uint32_t op, info, want;
      double t0;

      if (pick (64) == 0)
	{
	  /* A kernel ends with whatever is half done, another begins.  */
	  GOMP_PLUGIN_host_service_kernel_end (s.server);
	  GOMP_PLUGIN_host_service_kernel_begin (s.server);
	}
      do
	op = pick (8) ? pick (GOMP_HS_OP_MAX + 2) : (uint32_t) next ();
      while (op == GOMP_HS_OP_EXIT);
      for (k = 0; k < n; k++)
	buf[k] = tmp[k];
      port->req.op = op;
      port->req.flags = pick (6) ? (pick (2) ? GOMP_HS_REQ_FIRST
				    : GOMP_HS_REQ_CONT) : (uint32_t) next ();
      for (k = 0; k < 4; k++)
	port->req.arg[k] = arg ();
      /* Never the test's own stdin, stdout or stderr.  */
      if (port->req.arg[0] >= 0 && port->req.arg[0] <= 2)
	port->req.arg[0] = 3;
      port->req.len = pick (8) ? n : (uint64_t) next ();
      port->req.total = pick (4) ? n : (pick (2) ? (uint64_t) arg ()
						 : n + pick (256));
      /* The next sequence number, mostly; sometimes an old one (the
	 server must not answer twice) or a jump.  */
      switch (pick (16))
	{
	case 0:
	  want = seq[p];	/* Repeated: ignored, no reply awaited.  */
	  break;
	case 1:
	  want = seq[p] + 2 + pick (1000);
	  break;
	default:
	  want = seq[p] + 1;
	}
      __atomic_store_n (&port->dev_seq, want, __ATOMIC_RELEASE);
      if (want == seq[p])
	continue;
      seq[p] = want;
      t0 = sim_now ();
      while (__atomic_load_n (&port->rep.seq, __ATOMIC_ACQUIRE) != want
	     && sim_now () - t0 < 10)
	usleep (10);
      if (__atomic_load_n (&port->rep.seq, __ATOMIC_ACQUIRE) != want)
	{
	  hangs++;
	  printf ("process-fuzz: round %lu, port %u, op %u: no reply in"
		  " 10 s\n", i, p, op);
	  break;
	}
      answered++;
      info = port->rep.info;
      if (GOMP_HS_INFO_FLAGS (info) == 3 || GOMP_HS_INFO_LEN (info) > BUF)
	bad_reply++;
    }

  check (hangs == 0, "%lu of %lu rounds answered, each within 10 s",
	 answered, rounds);
  check (bad_reply == 0, "every reply keeps the protocol (%lu bad)",
	 bad_reply);
  check (pid > 0 && kill (pid, 0) == 0
	 && gomp_hs_proc_pid (s.server) == pid,
	 "the server process %ld lived through it", (long) pid);
  /* A well-formed call still works on every port.  */
  {
    int ok = 1;
    for (unsigned p = 0; p < PORTS; p++)
      {
	/* Abandon whatever is half done on it: a new first round.  */
	struct gomp_hs_timespec ts;
	uint64_t got = 0;
	s.ports[p].seq = hs_port (s.dev, p)->rep.seq;
	r = sim_call (&s, GOMP_HS_OP_CLOCK_GETTIME, CLOCK_MONOTONIC, 0, 0,
		      NULL, 0, &ts, sizeof ts, &got, &err);
	ok &= r == 0 && err == 0 && got == sizeof ts;
      }
    check (ok, "afterwards a well-formed call is served");
  }
  /* Everything the device made is in the root: nothing outside it
     appeared next to it.  */
  {
    DIR *d = opendir (argv[1]);
    struct dirent *e;
    int outside = 0;
    while (d && (e = readdir (d)) != NULL)
      if (strcmp (e->d_name, ".") && strcmp (e->d_name, "..")
	  && strcmp (e->d_name, "root"))
	{
	  printf ("process-fuzz: %s/%s made outside the root\n", argv[1],
		  e->d_name);
	  outside++;
	}
    if (d)
      closedir (d);
    check (outside == 0, "nothing was made outside the root");
  }
  sim_stop (&s);
  return failures != 0;
}
