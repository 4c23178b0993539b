/* libFuzzer harness for the host-service server: a misbehaving device.

   The input is a program of actions that write rounds into the ports of
   real servers (libgomp/host-service*.c, compiled into this harness) the
   way a device would -- request, payload, then DEV_SEQ with release --
   except that nothing in them need be right: any opcode, flags,
   arguments, lengths, totals, payloads and sequence numbers (repeated,
   skipped, going backwards), calls abandoned midway, rounds published
   while the last one is still being served, host-call names, and
   sequences of rounds interleaved across ports and servers.

   DRIVING.  No poller thread is started (no kernel begins): after
   publishing a round the harness calls gomp_hs_poll_once, one scan of
   every port on this thread.  Rounds that may block are handed to the
   server's worker threads; the harness then waits, with a bound, until
   the port's reply block carries the sequence number it published and
   the port is the poller's again.  A wait that runs out is a hang and is
   reported as a crash (abort), as is every other finding:

     - a reply that breaks the protocol (flags 3, a length past the
       buffer, MORE_IN with a payload, MORE_IN when all input was sent);
     - a reply other than the one host-service.h documents for a bad
       round (bad flags or length: EINVAL; unknown op: ENOSYS; op above
       the policy: EPERM or EROFS; a continuation of no call or of
       another call: EPROTO; a new call after shutdown: ECANCELED);
     - a failed call without errno, or a successful one with errno
       (isatty and host calls excepted); output of the wrong size
       (stat, clocks, read), a host call's buffer or result not as the
       callback left them;
     - after each input: a device descriptor open on anything outside
       the scratch directory (what the device opened, by whatever path);
       a device descriptor still open after the device closed all it
       knew of; any descriptor of the process open
       on something in the scratch directory (looked for whenever the
       number of open descriptors or the lowest free one changed, and
       every 1024 inputs);
     - AddressSanitizer, UndefinedBehaviorSanitizer and LeakSanitizer
       reports; memory that stays reachable but grows from input to
       input is replay.c's to find.

   STATE.  Six servers (policies all, readonly and stdio, each with a
   staging size of 128 bytes and of 1 MiB), 4 ports of 64 bytes each,
   live across inputs: creating one per input would cost more than the
   input.  After every input the harness drains every port, abandons
   half-done calls with a fresh first round, closes every descriptor the
   device has open (through the protocol), checks that none is left, and
   empties the scratch directory, so each input starts from the same
   state; a server that was shut down is replaced.  Every 4096 inputs all
   servers are torn down (without that clean-up: fini must close what the
   device left open) and created again.

   CONFINEMENT.  Paths the device names must stay inside a scratch
   directory: the harness makes one (on /dev/shm when it can, else in
   $TMPDIR), sets GOMP_HOST_SERVICES_ROOT to it and makes it the current
   directory while an input runs (between inputs it is libFuzzer's own
   again; artifact paths are made absolute).  The server confines every
   path beneath GOMP_HOST_SERVICES_ROOT, and the harness checks after
   every input that each descriptor the device has open is open on
   something in the scratch directory, so payloads are published as they
   are.  Built with -DHS_FUZZ_FILTER_PATHS=1 the harness also rewrites
   every '/' and '.' byte of every payload it publishes to '_': whatever
   the server takes for a path is then one relative name without '/',
   "." or "..", i.e. an entry of the scratch directory (there is no op
   that makes a symbolic link or a FIFO); use that to fuzz a server
   whose confinement is in doubt.  tests/unit/fuzz.sh also runs
   regress/seed-confine (opens of "/dev/null", ".." and "/").
   Descriptors 0 and 1 are pointed at /dev/null, and 2, if it
   is something a read could block on, is reopened write-only; run with
   -close_fd_mask=3 so that device writes to 2 do not flood the log.
   HS_FUZZ_SCRATCH_BASE names another place for the scratch directory
   (removed at exit, but left behind by a run that ends in a finding).

   INPUT FORMAT (every read past the end yields 0; little-endian):
     byte 0: server (policy = b % 3, small staging = b / 3 % 2)
     then actions, b = next byte, kind = b % 8:
       0 CALL   a well-formed call (one of the ops, its input built from
		the input: names, two names, raw bytes, long names, data,
		host-call name and buffer), rounds as the client makes
		them; may abandon it after some rounds;
       1 ROUND  one raw round: op, flags, 4 args, len, total, payload,
		sequence delta, and whether to wait for the reply;
       2 WAIT   wait for every port's reply;
       3 SERVER switch to another server;
       4 HCALL  a host call (one of the registered names);
       5 SHUT   GOMP_PLUGIN_host_service_shutdown on the current server;
       6, 7     CALL again (the most useful action).
   Data of a write or a host call is a size, a count L of literal bytes,
   L bytes, and a pattern for the rest.  tests/fuzz/gen-seeds.c writes
   seeds in this format.

   SELF-TEST.  HS_FUZZ_SELFTEST=fdleak leaks a descriptor in the first
   input, =hang makes a callback outlast a 300 ms hang limit: each must be
   reported (tests/unit/fuzz.sh checks that).  HS_FUZZ_HANG_MS sets the
   hang limit (default 10000).  HS_FUZZ_TRACE=1 prints every round and
   reply; GOMP_DEBUG=1 the server's trace of every call.  */

#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "libgomp-plugin.h"
#include "host-service-internal.h"
#include "gomp-host-services.h"

#ifndef HS_FUZZ_FILTER_PATHS
#define HS_FUZZ_FILTER_PATHS 0
#endif

#define FZ_PORTS	4
#define FZ_BUF		64
#define FZ_NPOL		3
#define FZ_NSTAGING	2
#define FZ_NSERVERS	(FZ_NPOL * FZ_NSTAGING)
/* Work bounds per input.  */
#define FZ_MAX_ROUNDS	20000
#define FZ_MAX_OUT_ROUNDS 256
#define FZ_MAX_IN	(160u << 10)
/* Inputs between re-creations of every server.  */
#define FZ_RECREATE	4096
/* Inputs between looks at every descriptor.  */
#define FZ_FDCOUNT	1024

static const char *const fz_policy_name[FZ_NPOL] = { "all", "readonly",
						     "stdio" };
static const enum hs_policy fz_policy[FZ_NPOL] = { HS_POLICY_ALL,
						   HS_POLICY_READONLY,
						   HS_POLICY_STDIO };
static const unsigned fz_staging[FZ_NSTAGING] = { 1u << 20, 128 };

struct fz_srv
{
  int pol;			/* Index into fz_policy.  */
  unsigned staging;
  void *region;
  size_t size;
  struct gomp_host_service *s;
  uint32_t pub[FZ_PORTS];	/* DEV_SEQ as the harness last stored it.  */
  int outstanding[FZ_PORTS];	/* Published, reply not yet waited for.  */
  int used;			/* Touched by the current input.  */
  int closing;			/* Shut down by the current input.  */
};

static struct fz_srv fz_servers[FZ_NSERVERS];
static char fz_scratch[4096];
static int fz_scratch_touched;
static long fz_hang_ms = 10000;
static int fz_low_fd = -1;	/* Lowest free descriptor between inputs.  */
static int fz_fd_total = -1;	/* Open descriptors between inputs.  */
static unsigned long fz_inputs;
static unsigned fz_rounds;	/* Rounds published by the current input.  */
static const char *fz_selftest;
static int fz_trace;		/* HS_FUZZ_TRACE: print every round.  */
static int fz_cwd = -1;		/* The current directory between inputs.  */
/* Where findings go: the standard error the harness started with
   (libFuzzer's -close_fd_mask=2 points descriptor 2 at /dev/null).  */
static FILE *fz_log;

/* Recent results of opens, for descriptor arguments.  */
static int64_t fz_recent_fd[8];
static unsigned fz_recent_n;

/* Findings.  */

static void fz_list_fds (FILE *);

static void __attribute__ ((noreturn, format (printf, 1, 2)))
fz_finding (const char *fmt, ...)
{
  va_list ap;
  FILE *out = fz_log ? fz_log : stderr;
  fprintf (out, "hs-fuzz: FINDING: ");
  va_start (ap, fmt);
  vfprintf (out, fmt, ap);
  va_end (ap);
  fprintf (out, "\n");
  if (strstr (fmt, "descriptor"))
    fz_list_fds (out);
  fflush (out);
  abort ();
}

#define FZ_CHECK(COND, ...) \
  do { if (!(COND)) fz_finding (__VA_ARGS__); } while (0)

/* The input.  */

struct fz_in
{
  const uint8_t *p;
  size_t n;
};

static uint8_t
rd_u8 (struct fz_in *r)
{
  if (r->n == 0)
    return 0;
  r->n--;
  return *r->p++;
}

static uint64_t
rd_uint (struct fz_in *r, int bytes)
{
  uint64_t v = 0;
  int i;
  for (i = 0; i < bytes; i++)
    v |= (uint64_t) rd_u8 (r) << (8 * i);
  return v;
}

/* Filler for data past the literal bytes of an input (byte I is
   I * 131 + 7), and for long names (letters).  */
#define FZ_NAME_LONG	4300
static unsigned char fz_pattern[FZ_MAX_IN + 512];
static unsigned char fz_letters[FZ_NAME_LONG];

/* Copy N input bytes to DST; bytes past the end of the input are
   filled from the pattern.  */

static void
rd_bytes (struct fz_in *r, unsigned char *dst, size_t n)
{
  size_t k = n < r->n ? n : r->n;
  memcpy (dst, r->p, k);
  r->p += k;
  r->n -= k;
  memcpy (dst + k, fz_pattern + k, n - k);
}

/* Data of N bytes: a count of literal bytes, those bytes from the input,
   then the pattern, so that big writes take few input bytes.  */

static void
rd_data (struct fz_in *r, unsigned char *dst, size_t n)
{
  size_t lit = rd_u8 (r);
  if (lit > n)
    lit = n;
  rd_bytes (r, dst, lit);
  memcpy (dst + lit, fz_pattern + lit, n - lit);
}

static const int64_t fz_interesting[] =
{
  0, 1, 2, 3, 4, 5, -1, -2, 63, 64, 65, 127, 128, 129, 4095, 4096, 4097,
  INT32_MAX, (int64_t) INT32_MAX + 1, INT32_MIN, (int64_t) INT32_MIN - 1,
  UINT32_MAX, INT64_MAX, INT64_MIN, (int64_t) 1 << 20, ((int64_t) 1 << 20) + 1,
  (int64_t) 64 << 20, ((int64_t) 64 << 20) + 256, ((int64_t) 64 << 20) + 257,
  256, 257, 255, (int64_t) 1 << 31, (int64_t) 1 << 40, (int64_t) 1 << 62
};

static const int fz_open_bits[] =
{
  O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_NONBLOCK, O_SYNC,
  O_DSYNC, O_DIRECTORY, O_NOFOLLOW, O_CLOEXEC, O_NOCTTY, O_LARGEFILE,
  O_PATH, O_TMPFILE
};

/* An argument word.  */

static int64_t
rd_arg (struct fz_in *r)
{
  uint8_t s = rd_u8 (r);
  switch (s & 15)
    {
    case 0:
      return rd_u8 (r);
    case 1:
      s = rd_u8 (r);
      if (fz_recent_n == 0)
	return 3;
      return fz_recent_fd[s % (fz_recent_n < 8 ? fz_recent_n : 8)];
    case 2:
      return (int64_t) rd_uint (r, 8);
    case 3:
      return fz_interesting[rd_u8 (r) % (sizeof fz_interesting
					 / sizeof fz_interesting[0])];
    case 4:
      return (int32_t) rd_uint (r, 4);
    case 5:
      return -(int64_t) rd_u8 (r);
    case 6:
      return (int64_t) rd_uint (r, 2);
    case 7:
      {
	/* Open flags: a combination of the known bits.  */
	unsigned m = rd_uint (r, 2), i;
	int64_t f = 0;
	for (i = 0; i < sizeof fz_open_bits / sizeof fz_open_bits[0]; i++)
	  if (m & (1u << i))
	    f |= fz_open_bits[i];
	return f;
      }
    case 8:
      return rd_u8 (r) % 6;		/* Whence, small descriptors.  */
    case 9:
      return rd_u8 (r) % 12;		/* Clock ids.  */
    case 10:
      return rd_u8 (r) & 7;		/* Access modes.  */
    case 11:
      return 0644;
    default:
      return 0;
    }
}

/* The region, as the device sees it.  */

static volatile struct gomp_hs_port *
fz_port (struct fz_srv *f, unsigned i)
{
  return (volatile struct gomp_hs_port *)
    ((unsigned char *) f->region + gomp_hs_ports_offset ()) + i;
}

static volatile unsigned char *
fz_buf (struct fz_srv *f, unsigned i)
{
  return (volatile unsigned char *) f->region
	 + gomp_hs_buf_offset (FZ_PORTS, FZ_BUF, i);
}

/* Servers.  */

static void
fz_srv_create (struct fz_srv *f, int pol, unsigned staging)
{
  char v[32];
  unsigned np, bs;
  memset (f, 0, sizeof *f);
  f->pol = pol;
  f->staging = staging;
  setenv ("GOMP_HOST_SERVICES", fz_policy_name[pol], 1);
  snprintf (v, sizeof v, "%u", FZ_PORTS);
  setenv ("GOMP_HOST_SERVICES_PORTS", v, 1);
  snprintf (v, sizeof v, "%u", FZ_BUF);
  setenv ("GOMP_HOST_SERVICES_BUFFER", v, 1);
  snprintf (v, sizeof v, "%u", staging);
  setenv ("GOMP_HOST_SERVICES_STAGING", v, 1);
  f->size = GOMP_PLUGIN_host_service_size ();
  FZ_CHECK (f->size == gomp_hs_region_size (FZ_PORTS, FZ_BUF),
	    "region size %zu for %u ports of %u bytes", f->size, FZ_PORTS,
	    FZ_BUF);
  if (posix_memalign (&f->region, 64, f->size) != 0)
    abort ();
  f->s = GOMP_PLUGIN_host_service_init (f->region, f->size);
  FZ_CHECK (f->s != NULL, "GOMP_PLUGIN_host_service_init failed");
  GOMP_PLUGIN_host_service_geometry (f->s, &np, &bs);
  FZ_CHECK (np == FZ_PORTS && bs == FZ_BUF && f->s->staging == staging
	    && f->s->policy == fz_policy[pol],
	    "server geometry %u x %u, staging %zu, policy %d", np, bs,
	    f->s->staging, (int) f->s->policy);
}

static void
fz_srv_destroy (struct fz_srv *f)
{
  GOMP_PLUGIN_host_service_fini (f->s);
  free (f->region);
  f->s = NULL;
  f->region = NULL;
}

/* Sleep a little, a little longer each time.  */

static void
fz_backoff (unsigned *k)
{
  if (++*k < 64)
    sched_yield ();
  else
    {
      struct timespec ts = { 0, *k < 1000 ? 20000 : 200000 };
      nanosleep (&ts, NULL);
    }
}

static double
fz_now_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* A reply, as the device reads it.  */

struct fz_rep
{
  uint32_t flags, len;
  int32_t err;
  int64_t ret;
};

/* Wait until port I of F has answered the last round published and is
   the poller's again; *REP gets the reply.  Polls meanwhile, for rounds
   published while a worker held the port.  */

static void
fz_wait (struct fz_srv *f, unsigned i, struct fz_rep *rep)
{
  volatile struct gomp_hs_port *p = fz_port (f, i);
  struct hs_ctx *c = &f->s->ctx[i];
  unsigned k = 0;
  double t0 = 0;
  uint32_t info;
  for (;;)
    {
      uint32_t seq = __atomic_load_n (&p->rep.seq, __ATOMIC_ACQUIRE);
      int owner = __atomic_load_n (&c->owner, __ATOMIC_ACQUIRE);
      if (seq == f->pub[i] && owner != HS_OWNER_WORKER)
	break;
      /* The poller's port not answered (an orphan's too: shutdown
	 answered its worker, and the poller answers it now): a round
	 published while a worker held it, which this scan takes; a
	 worker's: wait.  */
      if (owner != HS_OWNER_WORKER)
	gomp_hs_poll_once (f->s);
      if (t0 == 0)
	t0 = fz_now_ms ();
      else if (fz_now_ms () - t0 > fz_hang_ms)
	fz_finding ("HANG: server %s/%u port %u: no reply to sequence %u"
		    " after %ld ms (reply block at %u, op %u, port %s's)",
		    fz_policy_name[f->pol], f->staging, i, f->pub[i],
		    fz_hang_ms, seq, (unsigned) p->req.op,
		    owner == HS_OWNER_POLLER ? "the poller" : "a worker");
      if (owner == HS_OWNER_WORKER)
	fz_backoff (&k);
    }
  f->outstanding[i] = 0;
  info = p->rep.info;
  rep->ret = p->rep.ret;
  rep->flags = GOMP_HS_INFO_FLAGS (info);
  rep->err = GOMP_HS_INFO_ERRNO (info);
  rep->len = GOMP_HS_INFO_LEN (info);
  if (fz_trace)
    fprintf (fz_log, "hs-fuzz: %s/%u port %u seq %u: reply ret %lld errno %d"
	     " flags %u len %u\n", fz_policy_name[f->pol], f->staging, i,
	     f->pub[i], (long long) rep->ret, rep->err, rep->flags, rep->len);
  /* What holds of every reply.  */
  FZ_CHECK (rep->flags != (GOMP_HS_REP_MORE_IN | GOMP_HS_REP_MORE_OUT),
	    "reply with both MORE_IN and MORE_OUT (port %u)", i);
  FZ_CHECK (rep->len <= FZ_BUF, "reply length %u past the %u-byte buffer",
	    rep->len, FZ_BUF);
  FZ_CHECK (!(rep->flags & GOMP_HS_REP_MORE_IN)
	    || (rep->len == 0 && rep->ret == 0 && rep->err == 0),
	    "MORE_IN reply with length %u, ret %lld, errno %d", rep->len,
	    (long long) rep->ret, rep->err);
}

static void
fz_wait_all (struct fz_srv *f)
{
  struct fz_rep rep;
  unsigned i;
  for (i = 0; i < FZ_PORTS; i++)
    fz_wait (f, i, &rep);
}

/* What the harness's path filter makes of N bytes at P (see above).  */

static void
fz_filter (unsigned char *p, size_t n)
{
#if HS_FUZZ_FILTER_PATHS
  size_t k;
  for (k = 0; k < n; k++)
    if (p[k] == '/' || p[k] == '.')
      p[k] = '_';
#else
  (void) p;
  (void) n;
#endif
}

/* Publish a round on port I of F: request RQ, N bytes of payload at
   PAYLOAD, DEV_SEQ moved by DELTA; then one scan of the ports.  */

static void
fz_publish (struct fz_srv *f, unsigned i, const struct gomp_hs_request *rq,
	    const unsigned char *payload, size_t n, uint32_t delta)
{
  volatile struct gomp_hs_port *p = fz_port (f, i);
  unsigned char tmp[FZ_BUF];
  size_t k;
  if (n > FZ_BUF)
    n = FZ_BUF;
  if (n)
    {
      memcpy (tmp, payload, n);
      fz_filter (tmp, n);
      /* The region is the device's to write here (a worker may still be
	 writing a reply into it when the harness misbehaves: so may a
	 device).  */
      memcpy ((unsigned char *) fz_buf (f, i), tmp, n);
    }
  p->req.op = rq->op;
  p->req.flags = rq->flags;
  for (k = 0; k < 4; k++)
    p->req.arg[k] = rq->arg[k];
  p->req.len = rq->len;
  p->req.total = rq->total;
  f->pub[i] += delta;
  f->used = 1;
  if (delta)
    f->outstanding[i] = 1;
  fz_rounds++;
  if (fz_trace)
    fprintf (fz_log, "hs-fuzz: %s/%u port %u seq %u: op %u flags %#x args"
	     " %lld %lld %lld %lld len %llu total %llu payload %zu\n",
	     fz_policy_name[f->pol], f->staging, i, f->pub[i],
	     (unsigned) rq->op, (unsigned) rq->flags, (long long) rq->arg[0],
	     (long long) rq->arg[1], (long long) rq->arg[2],
	     (long long) rq->arg[3], (unsigned long long) rq->len,
	     (unsigned long long) rq->total, n);
  __atomic_store_n (&p->dev_seq, f->pub[i], __ATOMIC_RELEASE);
  k = gomp_hs_poll_once (f->s);
  if (fz_trace)
    fprintf (fz_log, "hs-fuzz: %u rounds taken; port owned by %s, reply"
	     " seq %u, call op %u\n",
	     (unsigned) k, f->s->ctx[i].owner == HS_OWNER_POLLER ? "poller"
							      : "worker",
	     p->rep.seq, f->s->ctx[i].op);
}

/* The weakest policy each op needs (host-service.h, host-services.texi),
   written down here independently of the server's op table.  */

static enum hs_policy
fz_op_policy (uint32_t op)
{
  switch (op)
    {
    case GOMP_HS_OP_OPEN:
    case GOMP_HS_OP_STAT:
    case GOMP_HS_OP_LSTAT:
    case GOMP_HS_OP_ACCESS:
      return HS_POLICY_READONLY;
    case GOMP_HS_OP_UNLINK:
    case GOMP_HS_OP_RENAME:
    case GOMP_HS_OP_MKDIR:
      return HS_POLICY_ALL;
    default:
      return HS_POLICY_STDIO;
    }
}


/* GOMP_HS_OP_EXIT ends the process by design (tests/sim/hs-exit.sh
   covers it): the harness sends an invalid opcode in its place.  */

static uint32_t
fz_no_exit (uint32_t op)
{
  return op == GOMP_HS_OP_EXIT ? GOMP_HS_OP_NONE : op;
}

static int
fz_is_path_op (uint32_t op)
{
  return op == GOMP_HS_OP_OPEN || op == GOMP_HS_OP_STAT
	 || op == GOMP_HS_OP_LSTAT || op == GOMP_HS_OP_UNLINK
	 || op == GOMP_HS_OP_RENAME || op == GOMP_HS_OP_ACCESS
	 || op == GOMP_HS_OP_MKDIR;
}

/* The reply that a round must get whatever came before it, or 0 when
   that depends on the server's state beyond CALL_OP (the op of the call
   in progress on the port, 0 if none).  */

static int
fz_expected_err (struct fz_srv *f, const struct gomp_hs_request *rq,
		 uint32_t call_op)
{
  if (f->closing)
    {
      if (rq->flags != GOMP_HS_REQ_CONT || call_op == 0)
	return ECANCELED;
      return 0;
    }
  if ((rq->flags != GOMP_HS_REQ_FIRST && rq->flags != GOMP_HS_REQ_CONT)
      || rq->len > FZ_BUF)
    return EINVAL;
  if (rq->flags == GOMP_HS_REQ_FIRST)
    {
      if (rq->op == GOMP_HS_OP_NONE || rq->op >= GOMP_HS_OP_MAX)
	return ENOSYS;
      if (fz_policy[f->pol] < fz_op_policy (rq->op))
	return -1;		/* EPERM or EROFS.  */
      return 0;
    }
  if (call_op == 0 || rq->op != call_op)
    return EPROTO;
  return 0;
}

static void
fz_check_expected (struct fz_srv *f, const struct gomp_hs_request *rq,
		   int want, const struct fz_rep *rep)
{
  if (want == 0)
    return;
  FZ_CHECK (rep->ret == -1 && rep->flags == 0 && rep->len == 0
	    && (want == -1 ? rep->err == EPERM || rep->err == EROFS
			   : rep->err == want),
	    "server %s/%u: round op %u flags %#x len %llu total %llu: reply"
	    " ret %lld errno %d flags %u len %u, want -1, errno %d, final",
	    fz_policy_name[f->pol], f->staging, (unsigned) rq->op,
	    (unsigned) rq->flags, (unsigned long long) rq->len,
	    (unsigned long long) rq->total, (long long) rep->ret, rep->err,
	    rep->flags, rep->len, want == -1 ? EPERM : want);
}

/* A final reply's result and errno agree.  */

static void
fz_check_result (uint32_t op, const struct fz_rep *rep)
{
  if (op == GOMP_HS_OP_ISATTY || op == GOMP_HS_OP_HOST_CALL)
    return;
  FZ_CHECK (rep->ret >= 0 ? rep->err == 0 : rep->err != 0,
	    "%s: result %lld with errno %d", gomp_hs_op_name (op),
	    (long long) rep->ret, rep->err);
}

/* Host callbacks.  */

#define FZ_XOR 0xa5

static void
fz_check_callback_env (void *buf, size_t size)
{
  FZ_CHECK (GOMP_PLUGIN_host_service_in_callback (),
	    "a callback for the device does not know it is one");
  FZ_CHECK (buf != NULL || size == 0, "callback buffer NULL, size %zu",
	    size);
  FZ_CHECK (((uintptr_t) buf & 7) == 0, "callback buffer %p not aligned",
	    buf);
}

/* "fz-xor": flips bits of every byte; returns 3 * SIZE + 1.  */

static int64_t
fz_cb_xor (void *buf, size_t size, void *user)
{
  unsigned char *p = buf;
  size_t i;
  (void) user;
  fz_check_callback_env (buf, size);
  for (i = 0; i + 8 <= size; i += 8)
    {
      uint64_t w;
      memcpy (&w, p + i, 8);
      w ^= 0x0101010101010101ull * FZ_XOR;
      memcpy (p + i, &w, 8);
    }
  for (; i < size; i++)
    p[i] ^= FZ_XOR;
  return (int64_t) size * 3 + 1;
}

/* "fz-typed": 8 to 200 bytes, the first even; returns the byte sum and
   zeroes the buffer.  The validator answers an odd first byte with an
   errno made from the second byte (any int: the server must fit it into
   the reply).  */

static int
fz_validate (const void *buf, size_t size, void *user)
{
  const unsigned char *p = buf;
  int v;
  (void) user;
  FZ_CHECK (size >= 8 && size <= 200, "validator called with %zu bytes",
	    size);
  if ((p[0] & 1) == 0)
    return 0;
  v = ((int) p[1] - 100) * 997;
  return v ? v : EDOM;
}

static int64_t
fz_cb_typed (void *buf, size_t size, void *user)
{
  unsigned char *p = buf;
  int64_t sum = 0;
  size_t i;
  (void) user;
  fz_check_callback_env (buf, size);
  FZ_CHECK (size >= 8 && size <= 200 && (p[0] & 1) == 0,
	    "typed callback called with bad arguments (%zu bytes)", size);
  for (i = 0; i < size; i++)
    {
      sum += p[i];
      p[i] = 0;
    }
  return sum;
}

/* "fz-rereg": registers itself again (replacing itself while it runs);
   returns -1, a result like any other.  */

static int64_t
fz_cb_rereg (void *buf, size_t size, void *user)
{
  fz_check_callback_env (buf, size);
  libgomp_host_register ("fz-rereg", fz_cb_rereg, user);
  return -1;
}

/* "fz-sleep" (self-test only): outlasts the hang limit.  */

static int64_t
fz_cb_sleep (void *buf, size_t size, void *user)
{
  (void) buf;
  (void) size;
  (void) user;
  usleep (1000 * (fz_hang_ms + 500));
  return 0;
}

static const char *const fz_names[] =
{
  "fz-xor", "fz-typed", "fz-rereg", "fz-none", "", "fz-xor\377"
};
#define FZ_NNAMES (sizeof fz_names / sizeof fz_names[0])

/* Calls.  */

static unsigned char fz_inbuf[FZ_MAX_IN + 512];
static unsigned char fz_outbuf[FZ_MAX_OUT_ROUNDS * FZ_BUF + FZ_BUF];
static unsigned char fz_want[sizeof fz_outbuf];

static const char *const fz_path_names[] = { "a", "b", "c", "d", "a1" };

/* Append a name to the input being built at *N.  */

static void
fz_add_name (struct fz_in *r, size_t *n)
{
  uint8_t s = rd_u8 (r);
  size_t len;
  switch (s % 4)
    {
    case 0:
    case 1:
      {
	const char *nm = fz_path_names[(s / 4) % 5];
	len = strlen (nm) + 1;
	memcpy (fz_inbuf + *n, nm, len);
	*n += len;
	break;
      }
    case 2:
      /* Raw bytes, maybe with a NUL in them, maybe without any.  */
      len = rd_u8 (r);
      rd_bytes (r, fz_inbuf + *n, len);
      *n += len;
      break;
    default:
      /* A long name: 200 to 4299 bytes, NUL-terminated.  */
      len = 200 + rd_uint (r, 2) % (FZ_NAME_LONG - 200);
      memcpy (fz_inbuf + *n, fz_letters, len);
      fz_inbuf[*n + len] = '\0';
      *n += len + 1;
      break;
    }
}

/* Reverse offload: the harness registers one region, whose body only
   checks that it got one host address per entry.  */

static void
fz_rev_body (void *data)
{
  FZ_CHECK (data != NULL, "reverse-offload region run without its entries");
}

static const char fz_rev_id[] = "fz_rev_body@hs-fuzz.c#0";
static const void *const fz_rev_table[] = { fz_rev_id,
					    (const void *) fz_rev_body };
extern void GOMP_target_rev_register (unsigned, const void *const *, size_t);
struct fz_call;
static size_t fz_rev_request (struct fz_in *, struct fz_call *, uint8_t);

/* The size of the data of a write or a host call.  */

static size_t
fz_data_size (struct fz_in *r)
{
  uint8_t s = rd_u8 (r);
  switch (s % 4)
    {
    case 0:
      return s / 4;
    case 1:
      return rd_u8 (r) + 64 * (s / 4 % 4);
    case 2:
      return rd_uint (r, 2) % 8192;
    default:
      return (s & 0x80) ? 65536 + rd_uint (r, 2) % 4096 : rd_uint (r, 2);
    }
}

struct fz_call
{
  uint32_t op;
  int64_t arg[4];
  size_t in_len;
  int abandon;			/* Stop after this many rounds, -1: never.  */
  /* Results.  */
  int completed;
  struct fz_rep rep;
  size_t out_len;
};

/* Make call C on port I of F, its input in fz_inbuf, as the client
   does.  */

static void
fz_do_call (struct fz_srv *f, unsigned i, struct fz_call *c)
{
  struct gomp_hs_request rq;
  size_t sent = 0;
  int rounds = 0, want;
  struct fz_rep rep;

  c->completed = 0;
  c->out_len = 0;
  /* Whatever is outstanding on the port is abandoned with it.  */
  fz_wait (f, i, &rep);
  rq.op = c->op;
  rq.flags = GOMP_HS_REQ_FIRST;
  memcpy (rq.arg, c->arg, sizeof rq.arg);
  rq.total = c->in_len;
  for (;;)
    {
      size_t n = c->in_len - sent < FZ_BUF ? c->in_len - sent : FZ_BUF;
      rq.len = n;
      want = fz_expected_err (f, &rq, f->s->ctx[i].op);
      fz_publish (f, i, &rq, fz_inbuf + sent, n, 1);
      fz_wait (f, i, &rep);
      fz_check_expected (f, &rq, want, &rep);
      sent += n;
      rounds++;
      rq.flags = GOMP_HS_REQ_CONT;
      if (!(rep.flags & GOMP_HS_REP_MORE_IN))
	break;
      FZ_CHECK (sent < c->in_len,
		"%s: the server asks for more input after all %zu bytes",
		gomp_hs_op_name (c->op), c->in_len);
      if (rounds == c->abandon || fz_rounds >= FZ_MAX_ROUNDS)
	return;
    }
  for (;;)
    {
      if (c->out_len + rep.len <= sizeof fz_outbuf)
	{
	  volatile unsigned char *b = fz_buf (f, i);
	  uint32_t k;
	  for (k = 0; k < rep.len; k++)
	    fz_outbuf[c->out_len + k] = b[k];
	}
      c->out_len += rep.len;
      if (!(rep.flags & GOMP_HS_REP_MORE_OUT))
	break;
      if (rounds++ == c->abandon || rounds > FZ_MAX_OUT_ROUNDS
	  || fz_rounds >= FZ_MAX_ROUNDS)
	return;
      rq.len = 0;
      fz_publish (f, i, &rq, NULL, 0, 1);
      fz_wait (f, i, &rep);
    }
  c->completed = 1;
  c->rep = rep;
  FZ_CHECK (rep.err != EPROTO,
	    "%s: EPROTO for a call made by the rules",
	    gomp_hs_op_name (c->op));
  fz_check_result (c->op, &rep);
}

/* Checks of a completed call's output.  */

static void
fz_check_output (struct fz_srv *f, struct fz_call *c, const unsigned char *in,
		 size_t in_len)
{
  const struct fz_rep *rep = &c->rep;
  (void) f;
  if (!c->completed)
    return;
  if (c->op == GOMP_HS_OP_HOST_CALL ? rep->err != 0 : rep->ret < 0)
    {
      FZ_CHECK (c->out_len == 0, "%s failed but sent %zu bytes of output",
		gomp_hs_op_name (c->op), c->out_len);
      return;
    }
  switch (c->op)
    {
    case GOMP_HS_OP_STAT:
    case GOMP_HS_OP_LSTAT:
    case GOMP_HS_OP_FSTAT:
      FZ_CHECK (c->out_len == sizeof (struct gomp_hs_stat),
		"%s: %zu bytes of output", gomp_hs_op_name (c->op),
		c->out_len);
      break;
    case GOMP_HS_OP_CLOCK_GETTIME:
    case GOMP_HS_OP_GETTIMEOFDAY:
      FZ_CHECK (c->out_len == sizeof (struct gomp_hs_timespec),
		"%s: %zu bytes of output", gomp_hs_op_name (c->op),
		c->out_len);
      break;
    case GOMP_HS_OP_READ:
      FZ_CHECK ((uint64_t) rep->ret == c->out_len
		&& (uint64_t) rep->ret <= (uint64_t) c->arg[1],
		"read of %lld: result %lld, %zu bytes of output",
		(long long) c->arg[1], (long long) rep->ret, c->out_len);
      break;
    case GOMP_HS_OP_OPEN:
      FZ_CHECK (rep->ret >= 3 && rep->ret <= INT32_MAX && c->out_len == 0,
		"open returned %lld", (long long) rep->ret);
      fz_recent_fd[fz_recent_n++ % 8] = rep->ret;
      break;
    case GOMP_HS_OP_HOST_CALL:
      {
	/* IN is the name, then the buffer.  */
	size_t nlen = strlen ((const char *) in) + 1, k;
	const char *name = (const char *) in;
	const unsigned char *buf = in + nlen;
	size_t size = in_len - nlen;
	FZ_CHECK (nlen <= in_len && c->out_len == size,
		  "host call %s: %zu bytes in, %zu out", name, size,
		  c->out_len);
	if (strcmp (name, "fz-xor") == 0)
	  {
	    FZ_CHECK (rep->ret == (int64_t) size * 3 + 1,
		      "fz-xor: result %lld for %zu bytes",
		      (long long) rep->ret, size);
	    for (k = 0; k < size; k++)
	      fz_want[k] = buf[k] ^ FZ_XOR;
	    if (memcmp (fz_outbuf, fz_want, size) != 0)
	      for (k = 0; k < size; k++)
		FZ_CHECK (fz_outbuf[k] == fz_want[k],
			  "fz-xor: byte %zu of %zu is %#x, want %#x", k,
			  size, fz_outbuf[k], fz_want[k]);
	  }
	else if (strcmp (name, "fz-typed") == 0)
	  {
	    int64_t sum = 0;
	    for (k = 0; k < size; k++)
	      sum += buf[k];
	    FZ_CHECK (rep->ret == sum, "fz-typed: result %lld, want %lld",
		      (long long) rep->ret, (long long) sum);
	    memset (fz_want, 0, size);
	    FZ_CHECK (memcmp (fz_outbuf, fz_want, size) == 0,
		      "fz-typed: buffer not zeroed");
	  }
	else if (strcmp (name, "fz-rereg") == 0)
	  FZ_CHECK (rep->ret == -1, "fz-rereg: result %lld",
		    (long long) rep->ret);
	else
	  fz_finding ("host call of unregistered %s succeeded", name);
	break;
      }
    default:
      break;
    }
}

/* Action CALL.  */

static void
fz_act_call (struct fz_srv *f, struct fz_in *r)
{
  uint8_t b = rd_u8 (r);
  unsigned i = b % FZ_PORTS;
  struct fz_call c;
  size_t n = 0;
  int k;

  memset (&c, 0, sizeof c);
  c.op = fz_no_exit (rd_u8 (r) % (GOMP_HS_OP_MAX + 1));
  c.abandon = (b & 0x80) ? 1 + rd_u8 (r) % 8 : -1;
  for (k = 0; k < 4; k++)
    c.arg[k] = rd_arg (r);
  if (fz_is_path_op (c.op))
    {
      fz_add_name (r, &n);
      if (c.op == GOMP_HS_OP_RENAME)
	fz_add_name (r, &n);
    }
  else if (c.op == GOMP_HS_OP_WRITE)
    {
      n = fz_data_size (r);
      rd_data (r, fz_inbuf, n);
    }
  else if (c.op == GOMP_HS_OP_TARGET_REV)
    n = fz_rev_request (r, &c, b);
  else if (c.op == GOMP_HS_OP_HOST_CALL)
    {
      const char *nm = fz_names[rd_u8 (r) % FZ_NNAMES];
      size_t nl = strlen (nm) + 1, size = fz_data_size (r);
      memcpy (fz_inbuf, nm, nl);
      rd_data (r, fz_inbuf + nl, size);
      n = nl + size;
      if (!(b & 0x40))
	{
	  c.arg[0] = nl;
	  c.arg[1] = size;
	}
    }
  else if (b & 0x40)
    {
      /* Input for an op that takes none.  */
      n = rd_u8 (r);
      rd_bytes (r, fz_inbuf, n);
    }
  c.in_len = n;
  fz_filter (fz_inbuf, n);
  fz_do_call (f, i, &c);
  if (fz_is_path_op (c.op))
    fz_scratch_touched = 1;
  if (c.completed && !f->closing)
    fz_check_output (f, &c, fz_inbuf, n);
}

/* The input of a TARGET_REV call: the registered identity (or a
   stranger), up to 6 map entries of kinds the host accepts (now and then
   one it does not) with small sizes, and the bytes the kinds send (a few
   more or fewer when B says so).  Returns the length in fz_inbuf.  */

static size_t
fz_rev_request (struct fz_in *r, struct fz_call *c, uint8_t b)
{
  static const uint32_t kinds[]
    = { 0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 15, 17, 18, 19, 23, 28, 29, 30, 31,
	80, 82, 128, 129, 130, 131, 149, 150, 151, 0x63, 8 };
  const char *id = (rd_u8 (r) & 7) ? fz_rev_id : "fz_rev_body@elsewhere.c#0";
  size_t idlen = strlen (id) + 1, off, sent = 0;
  unsigned m = rd_u8 (r) % 7, k;
  struct gomp_hs_rev_map e;

  memcpy (fz_inbuf, id, idlen);
  memset (fz_inbuf + idlen, 0, -idlen & 7);
  off = (idlen + 7) & ~(size_t) 7;
  for (k = 0; k < m; k++)
    {
      uint8_t kb = rd_u8 (r);
      e.kind = kinds[kb % (sizeof kinds / sizeof kinds[0])] | (kb >> 6) << 8;
      e.size = gomp_hs_rev_class (gomp_hs_rev_kind (e.kind)) == GOMP_HS_REV_NONE
	       ? 0 : (e.kind & 0xff) == GOMP_HS_REV_STRUCT ? rd_u8 (r) % 4
	       : rd_u8 (r) * (1 + (kb & 0x20) * 4);
      e.addr = rd_arg (r);
      e.pad = 0;
      memcpy (fz_inbuf + off, &e, sizeof e);
      off += sizeof e;
      if (gomp_hs_rev_sends (e.kind) && e.addr != 0)
	sent += e.size;
    }
  if (b & 0x40)
    {
      /* One byte more or one fewer than the kinds send.  */
      if (rd_u8 (r) & 1)
	sent++;
      else if (sent)
	sent--;
    }
  if (sent > FZ_MAX_IN - off)
    sent = FZ_MAX_IN - off;
  rd_data (r, fz_inbuf + off, sent);
  if (!(b & 0x20))
    {
      c->arg[0] = (int64_t) idlen;
      c->arg[1] = m;
    }
  return off + sent;
}

/* Action HCALL: a well-formed host call of a registered name.  */

static void
fz_act_hcall (struct fz_srv *f, struct fz_in *r)
{
  uint8_t b = rd_u8 (r);
  unsigned i = b % FZ_PORTS;
  struct fz_call c;
  const char *nm = fz_names[(b / FZ_PORTS) % 3];
  size_t nl = strlen (nm) + 1, size = fz_data_size (r);

  memset (&c, 0, sizeof c);
  c.op = GOMP_HS_OP_HOST_CALL;
  c.abandon = -1;
  memcpy (fz_inbuf, nm, nl);
  rd_data (r, fz_inbuf + nl, size);
  c.arg[0] = nl;
  c.arg[1] = size;
  c.in_len = nl + size;
  fz_filter (fz_inbuf, c.in_len);
  fz_do_call (f, i, &c);
  if (c.completed && !f->closing)
    fz_check_output (f, &c, fz_inbuf, c.in_len);
}

/* Action ROUND: one raw round.  */

static void
fz_act_round (struct fz_srv *f, struct fz_in *r)
{
  uint8_t b = rd_u8 (r), s;
  unsigned i = b % FZ_PORTS, k;
  int nowait = (b >> 2) & 1, fresh, want;
  struct gomp_hs_request rq;
  unsigned char payload[FZ_BUF];
  size_t plen;
  uint32_t delta;
  struct fz_rep rep;

  s = rd_u8 (r);
  rq.op = fz_no_exit (s < 0xf0 ? s % (GOMP_HS_OP_MAX + 2)
				: (uint32_t) rd_uint (r, 4));
  s = rd_u8 (r);
  if (s < 120)
    rq.flags = GOMP_HS_REQ_FIRST;
  else if (s < 240)
    rq.flags = GOMP_HS_REQ_CONT;
  else
    rq.flags = s == 255 ? (uint32_t) rd_uint (r, 4) : s - 240;
  for (k = 0; k < 4; k++)
    rq.arg[k] = rd_arg (r);
  plen = rd_u8 (r) % (FZ_BUF + 1);
  rd_bytes (r, payload, plen);
  s = rd_u8 (r);
  switch (s % 8)
    {
    case 5:
      rq.len = plen + 1 + s / 8;
      break;
    case 6:
      rq.len = rd_uint (r, 8);
      break;
    case 7:
      rq.len = FZ_BUF + 1;
      break;
    default:
      rq.len = plen;
    }
  s = rd_u8 (r);
  switch (s % 8)
    {
    case 2:
      rq.total = rd_uint (r, 2);
      break;
    case 3:
      rq.total = rq.len + rd_uint (r, 2);
      break;
    case 4:
      rq.total = rd_uint (r, 8);
      break;
    case 5:
      rq.total = 0;
      break;
    case 6:
      rq.total = fz_interesting[rd_u8 (r) % (sizeof fz_interesting
					     / sizeof fz_interesting[0])];
      break;
    default:
      rq.total = rq.len;
    }
  s = rd_u8 (r);
  if (s < 200)
    delta = 1;
  else if (s < 220)
    delta = 0;
  else if (s < 240)
    delta = 2 + s - 220;
  else
    delta = (uint32_t) (int32_t) (int8_t) rd_u8 (r);

  fresh = delta != 0 && !f->outstanding[i];
  if (fresh)
    {
      /* The port is the poller's: nothing was left outstanding.  */
      want = fz_expected_err (f, &rq, f->s->ctx[i].op);
    }
  else
    want = 0;
  if (rq.flags == GOMP_HS_REQ_FIRST && fz_is_path_op (rq.op))
    fz_scratch_touched = 1;
  fz_publish (f, i, &rq, payload, plen, delta);
  if (nowait)
    return;
  fz_wait (f, i, &rep);
  if (fresh)
    fz_check_expected (f, &rq, want, &rep);
}

/* Clean-up after an input.  */

static void
fz_rm_tree_at (int dirfd, int depth)
{
  DIR *d;
  struct dirent *e;
  int fd = dup (dirfd);
  if (fd < 0)
    return;
  d = fdopendir (fd);
  if (d == NULL)
    {
      close (fd);
      return;
    }
  while ((e = readdir (d)) != NULL)
    {
      if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0)
	continue;
      if (unlinkat (dirfd, e->d_name, 0) == 0)
	continue;
      if (errno != EISDIR && errno != EPERM)
	continue;
      if (depth < 4096)
	{
	  int sub;
	  /* Best effort: where it fails, openat or the unlinkat below says so.  */
	  if (fchmodat (dirfd, e->d_name, 0700, 0) != 0)
	    errno = 0;
	  sub = openat (dirfd, e->d_name,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	  if (sub >= 0)
	    {
	      fz_rm_tree_at (sub, depth + 1);
	      close (sub);
	    }
	}
      unlinkat (dirfd, e->d_name, AT_REMOVEDIR);
    }
  closedir (d);
}

static void
fz_empty_scratch (void)
{
  int fd = open (fz_scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    fz_finding ("scratch directory %s is gone: %s", fz_scratch,
		strerror (errno));
  fz_rm_tree_at (fd, 0);
  close (fd);
}

static int
fz_lowest_free_fd (void)
{
  int fd = fcntl (0, F_DUPFD, 0);
  if (fd >= 0)
    close (fd);
  return fd;
}

/* How many descriptors the process has open.  */

static int
fz_count_fds (void)
{
  DIR *d = opendir ("/proc/self/fd");
  int n = 0;
  if (d == NULL)
    fz_finding ("cannot list /proc/self/fd: %s", strerror (errno));
  while (readdir (d) != NULL)
    n++;
  closedir (d);
  return n;
}

/* Whether host descriptor HFD is open on something in the scratch
   directory; *WHERE gets what it is open on.  */

static int
fz_fd_inside (int hfd, char *where, size_t cap)
{
  char path[64];
  size_t len = strlen (fz_scratch);
  ssize_t k;
  snprintf (path, sizeof path, "/proc/self/fd/%d", hfd);
  k = readlink (path, where, cap - 1);
  where[k > 0 ? k : 0] = '\0';
  return k > 0 && strncmp (where, fz_scratch, len) == 0
	 && (where[len] == '/' || where[len] == '\0');
}

/* How many of the process's descriptors are open on something in the
   scratch directory (not the directory itself): the only files the
   device can open.  (Counting all
   descriptors would not do: libFuzzer's symbolizer opens pipes now and
   then.)  */

static int
fz_scratch_fds (void)
{
  DIR *d = opendir ("/proc/self/fd");
  struct dirent *e;
  char path[300], target[4096];
  size_t len = strlen (fz_scratch);
  int n = 0;
  if (d == NULL)
    fz_finding ("cannot list /proc/self/fd: %s", strerror (errno));
  while ((e = readdir (d)) != NULL)
    {
      ssize_t k;
      if (e->d_name[0] == '.')
	continue;
      snprintf (path, sizeof path, "/proc/self/fd/%s", e->d_name);
      k = readlink (path, target, sizeof target - 1);
      if (k <= 0)
	continue;
      target[k] = '\0';
      /* The scratch directory itself is each server's handle on
	 GOMP_HOST_SERVICES_ROOT, held from init to fini; what the device
	 opens is always beneath it.  */
      if (strncmp (target, fz_scratch, len) == 0 && target[len] == '/')
	n++;
    }
  closedir (d);
  return n;
}

/* For a descriptor leak: what is open.  */

static void
fz_list_fds (FILE *out)
{
  DIR *d = opendir ("/proc/self/fd");
  struct dirent *e;
  char path[300], target[4096];
  if (d == NULL)
    return;
  while ((e = readdir (d)) != NULL)
    {
      ssize_t n;
      if (e->d_name[0] == '.')
	continue;
      snprintf (path, sizeof path, "/proc/self/fd/%s", e->d_name);
      n = readlink (path, target, sizeof target - 1);
      target[n > 0 ? n : 0] = '\0';
      fprintf (out, "  fd %s -> %s\n", e->d_name, target);
    }
  closedir (d);
}

/* Confinement: every descriptor the device has open on F is open on
   something in the scratch directory, whatever path it was opened by.  */

static void
fz_check_confined (struct fz_srv *f)
{
  int fd, n_fds;
  pthread_mutex_lock (&f->s->fd_lock);
  n_fds = f->s->n_fds;
  pthread_mutex_unlock (&f->s->fd_lock);
  for (fd = 3; fd < n_fds; fd++)
    {
      struct hs_fd *e = gomp_hs_fd_get (f->s, fd);
      char where[4096];
      if (e != NULL && !fz_fd_inside (gomp_hs_fd_host (e), where,
				      sizeof where))
	fz_finding ("CONFINEMENT: device fd %d is open on %s, outside %s",
		    fd, where, fz_scratch);
      gomp_hs_fd_put (f->s, e);
    }
}

/* Close every descriptor the device has open on F through the protocol,
   and abandon half-done calls; check that nothing is left.  */

static void
fz_reset_srv (struct fz_srv *f)
{
  unsigned i;
  int fd, n_fds;
  struct fz_rep rep;
  struct gomp_hs_request rq;

  fz_wait_all (f);
  fz_check_confined (f);
  memset (&rq, 0, sizeof rq);
  rq.flags = GOMP_HS_REQ_FIRST;
  for (i = 0; i < FZ_PORTS; i++)
    if (f->s->ctx[i].op != 0)
      {
	rq.op = GOMP_HS_OP_GETTIMEOFDAY;
	fz_publish (f, i, &rq, NULL, 0, 1);
	fz_wait (f, i, &rep);
	FZ_CHECK (rep.ret == 0 && rep.err == 0 && rep.flags == 0
		  && rep.len == sizeof (struct gomp_hs_timespec),
		  "gettimeofday after an abandoned call: %lld, errno %d",
		  (long long) rep.ret, rep.err);
	FZ_CHECK (f->s->ctx[i].op == 0, "port %u: call still in progress"
		  " after a complete one", i);
      }
  pthread_mutex_lock (&f->s->fd_lock);
  n_fds = f->s->n_fds;
  pthread_mutex_unlock (&f->s->fd_lock);
  for (fd = 3; fd < n_fds; fd++)
    {
      int open_fd;
      pthread_mutex_lock (&f->s->fd_lock);
      open_fd = f->s->fds[fd] != NULL;
      pthread_mutex_unlock (&f->s->fd_lock);
      if (!open_fd)
	continue;
      rq.op = GOMP_HS_OP_CLOSE;
      rq.arg[0] = fd;
      fz_publish (f, 0, &rq, NULL, 0, 1);
      fz_wait (f, 0, &rep);
      FZ_CHECK (rep.ret == 0 && rep.err == 0,
		"close of device fd %d: %lld, errno %d", fd,
		(long long) rep.ret, rep.err);
    }
  pthread_mutex_lock (&f->s->fd_lock);
  FZ_CHECK (f->s->open_fds == 0, "%u device fds open after the device"
	    " closed all of them", f->s->open_fds);
  pthread_mutex_unlock (&f->s->fd_lock);
}

static void
fz_create_all (void)
{
  int k;
  for (k = 0; k < FZ_NSERVERS; k++)
    fz_srv_create (&fz_servers[k], k % FZ_NPOL, fz_staging[k / FZ_NPOL]);
}

static void
fz_destroy_all (void)
{
  int k;
  for (k = 0; k < FZ_NSERVERS; k++)
    {
      fz_wait_all (&fz_servers[k]);
      fz_check_confined (&fz_servers[k]);
      fz_srv_destroy (&fz_servers[k]);
    }
}

static void
fz_end_input (void)
{
  int k, low, scan, total;
  fz_inputs++;
  if (fz_inputs % FZ_RECREATE == 0)
    {
      /* Fini with whatever the device left behind.  */
      fz_destroy_all ();
      fz_create_all ();
    }
  else
    for (k = 0; k < FZ_NSERVERS; k++)
      {
	struct fz_srv *f = &fz_servers[k];
	if (!f->used)
	  continue;
	f->used = 0;
	if (f->closing)
	  {
	    fz_wait_all (f);
	    fz_srv_destroy (f);
	    fz_srv_create (f, f->pol, f->staging);
	  }
	else
	  fz_reset_srv (f);
      }
  scan = fz_scratch_touched;
  if (fz_scratch_touched)
    {
      fz_empty_scratch ();
      fz_scratch_touched = 0;
    }
  fz_recent_n = 0;
  /* Only opens make descriptors, and only inputs that name paths open.
     A descriptor more than after the last input, or the lowest free one
     moving, is worth a closer look.  */
  low = fz_lowest_free_fd ();
  total = scan ? fz_count_fds () : fz_fd_total;
  if (total != fz_fd_total || low != fz_low_fd
      || fz_inputs % FZ_FDCOUNT == 0)
    {
      int n = fz_scratch_fds ();
      FZ_CHECK (n == 0, "host descriptor leak: %d descriptors open in the"
		" scratch directory after the input", n);
      fz_low_fd = low;
      fz_fd_total = fz_count_fds ();
    }
}

/* At exit: the scratch directory goes.  */

static void
fz_remove_scratch (void)
{
  fz_empty_scratch ();
  rmdir (fz_scratch);
}

/* Point descriptors 0 and 1 at /dev/null, and make sure a device read
   of 2 cannot block the harness.  */

static void
fz_setup_std (void)
{
  struct stat st;
  int fl, nul = open ("/dev/null", O_RDWR);
  if (nul < 0)
    abort ();
  dup2 (nul, 0);
  dup2 (nul, 1);
  if (nul > 2)
    close (nul);
  fl = fcntl (2, F_GETFL);
  if (fl >= 0 && (fl & O_ACCMODE) != O_WRONLY && fstat (2, &st) == 0
      && !S_ISREG (st.st_mode)
      && !(S_ISCHR (st.st_mode) && major (st.st_rdev) == 1))
    {
      int w = open ("/proc/self/fd/2", O_WRONLY | O_APPEND);
      if (w < 0)
	w = open ("/dev/null", O_WRONLY);
      if (w >= 0)
	{
	  dup2 (w, 2);
	  close (w);
	}
    }
}

/* Inputs run with the scratch directory as the current one (see
   LLVMFuzzerTestOneInput), so libFuzzer may write an artifact (a crash, a
   timeout) while it is: make the artifact paths absolute, and give
   libFuzzer one if it has none.  */

static void
fz_fix_args (int *argc, char ***argv)
{
  static const char *const flags[] = { "-artifact_prefix=",
				       "-exact_artifact_path=" };
  char cwd[4096], **av;
  int i, given = 0;
  size_t k;
  if (getcwd (cwd, sizeof cwd) == NULL)
    return;
  av = malloc ((*argc + 2) * sizeof *av);
  if (av == NULL)
    return;
  for (i = 0; i < *argc; i++)
    {
      const char *a = (*argv)[i];
      size_t pre = 0;
      av[i] = (*argv)[i];
      for (k = 0; i > 0 && k < sizeof flags / sizeof flags[0]; k++)
	if (strncmp (a, flags[k], strlen (flags[k])) == 0)
	  pre = strlen (flags[k]);
      if (pre == 0)
	continue;
      given = 1;
      if (a[pre] != '/' && (av[i] = malloc (strlen (a) + strlen (cwd) + 2)))
	sprintf (av[i], "%.*s%s/%s", (int) pre, a, cwd, a + pre);
      else
	av[i] = (*argv)[i];
    }
  if (!given && (av[i] = malloc (strlen (cwd) + 20)))
    sprintf (av[i++], "-artifact_prefix=%s/", cwd);
  av[i] = NULL;
  *argc = i;
  *argv = av;
}

int LLVMFuzzerInitialize (int *, char ***);
int LLVMFuzzerTestOneInput (const uint8_t *, size_t);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  static const struct libgomp_host_type typed = { 8, 200, fz_validate };
  const char *base = getenv ("HS_FUZZ_SCRATCH_BASE"), *v;
  struct stat st;

  fz_fix_args (argc, argv);
  for (size_t k = 0; k < sizeof fz_pattern; k++)
    fz_pattern[k] = (unsigned char) (k * 131 + 7);
  for (size_t k = 0; k < sizeof fz_letters; k++)
    fz_letters[k] = 'a' + k % 26;
  if (base == NULL && stat ("/dev/shm", &st) == 0 && S_ISDIR (st.st_mode)
      && access ("/dev/shm", W_OK) == 0)
    base = "/dev/shm";
  if (base == NULL)
    base = getenv ("TMPDIR");
  snprintf (fz_scratch, sizeof fz_scratch, "%s/hs-fuzz-XXXXXX",
	    base ? base : "/tmp");
  if (mkdtemp (fz_scratch) == NULL
      || (fz_cwd = open (".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    {
      perror ("hs-fuzz: scratch directory");
      exit (2);
    }
  setenv ("GOMP_HOST_SERVICES_ROOT", fz_scratch, 1);
  atexit (fz_remove_scratch);
  if ((v = getenv ("HS_FUZZ_HANG_MS")) != NULL)
    fz_hang_ms = atol (v);
  fz_selftest = getenv ("HS_FUZZ_SELFTEST");
  fz_trace = getenv ("HS_FUZZ_TRACE") != NULL;
  if (fz_selftest && strcmp (fz_selftest, "hang") == 0)
    fz_hang_ms = 300;
  fz_setup_std ();
  {
    int fd = fcntl (2, F_DUPFD_CLOEXEC, 3);
    fz_log = fd >= 0 ? fdopen (fd, "w") : NULL;
    if (fz_log)
      setvbuf (fz_log, NULL, _IOLBF, 0);
  }

  libgomp_host_register ("fz-xor", fz_cb_xor, NULL);
  libgomp_host_register_typed ("fz-typed", &typed, fz_cb_typed, NULL);
  libgomp_host_register ("fz-rereg", fz_cb_rereg, NULL);
  libgomp_host_register ("fz-sleep", fz_cb_sleep, NULL);
  GOMP_target_rev_register (1, fz_rev_table, 1);
  fz_create_all ();
  fprintf (fz_log ? fz_log : stderr, "hs-fuzz: scratch %s, %d servers of %u ports x %u bytes,"
	   " path filter %s\n", fz_scratch, FZ_NSERVERS, FZ_PORTS, FZ_BUF,
	   HS_FUZZ_FILTER_PATHS ? "on" : "off");
  return 0;
}

/* The self-tests: faults the harness must report.  */

static void
fz_selftests (void)
{
  static int done;
  if (fz_selftest == NULL || done)
    return;
  done = 1;
  if (strcmp (fz_selftest, "fdleak") == 0)
    {
      /* A descriptor of a file in the scratch directory nobody gives
	 back.  */
      char leak[sizeof fz_scratch + 8];
      snprintf (leak, sizeof leak, "%s/leak", fz_scratch);
      if (open (leak, O_RDWR | O_CREAT, 0600) < 0)
	abort ();
      fz_scratch_touched = 1;
    }
  else if (strcmp (fz_selftest, "hang") == 0)
    {
      struct fz_call c;
      memset (&c, 0, sizeof c);
      c.op = GOMP_HS_OP_HOST_CALL;
      c.abandon = -1;
      memcpy (fz_inbuf, "fz-sleep", 9);
      c.arg[0] = 9;
      c.in_len = 9;
      fz_do_call (&fz_servers[0], 0, &c);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  struct fz_in r = { data, size };
  uint8_t b = rd_u8 (&r);
  struct fz_srv *f = &fz_servers[b % FZ_NSERVERS];

  /* Relative paths the device names resolve in the scratch directory;
     between inputs the current directory is libFuzzer's again.  */
  if (chdir (fz_scratch) != 0)
    fz_finding ("cannot enter %s: %s", fz_scratch, strerror (errno));
  fz_rounds = 0;
  fz_selftests ();
  while (r.n > 0 && fz_rounds < FZ_MAX_ROUNDS)
    {
      b = rd_u8 (&r);
      switch (b % 8)
	{
	case 1:
	  fz_act_round (f, &r);
	  break;
	case 2:
	  fz_wait_all (f);
	  break;
	case 3:
	  f = &fz_servers[rd_u8 (&r) % FZ_NSERVERS];
	  break;
	case 4:
	  fz_act_hcall (f, &r);
	  break;
	case 5:
	  if (!f->closing)
	    {
	      fz_wait_all (f);
	      f->used = 1;
	      f->closing = 1;
	      GOMP_PLUGIN_host_service_shutdown (f->s);
	    }
	  break;
	default:
	  fz_act_call (f, &r);
	  break;
	}
    }
  fz_end_input ();
  if (fchdir (fz_cwd) != 0)
    fz_finding ("cannot go back to the directory the harness started in: %s",
		strerror (errno));
  return 0;
}
