/* GOMP_HS_OP_EXIT in a Fortran program whose host thread is blocked in a
   READ of unit 5 from a pipe nobody writes (issue 16, item 7): the READ
   holds the unit's lock for as long as no input comes.  Before the fix
   the exit's FLUSH of every unit waited for that lock forever; now the
   process ends within the flushing deadline, with the device's status,
   and unit 6's buffered line written.

   Then what host-service-ops.c (hs_do_exit) does when its flushing
   threads cannot be created, and when two devices end the program at
   once.  The program is linked with --wrap=pthread_create: a thread
   creation that is neither the main thread's nor a server's poller
   starting a worker is one of the exit's flushing threads (the C one is
   always asked for first), and can be made to fail:
     - "late": every one fails for the first 50 ms; the exit must try
       again (before the fix it never did: the Fortran units, and every
       C stream but stdout and stderr, were not flushed at all);
     - "no C thread": the C one always fails while another host thread
       keeps stdout locked; the exit must still end by the one deadline
       (before the fix the worker tried stdout for 2 s and then waited up
       to 2 s more for the Fortran thread: about 4 s);
     - "none": every one always fails; stdout is still flushed, by the
       worker, and the process ends with the status.
   "two devices": two simulated devices ask at once, with statuses 7
   and 8: one flushes, the process ends by the deadline with one of the
   statuses, everything flushed.

   Each case runs in a child that runs the servers; the parent gives it
   10 s.  Prints PASS:/FAIL: lines.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "libgomp-plugin.h"
#include "host-service.h"
#include "sim-client.h"

extern void hs_exit_reader (void);
extern void hs_exit_write (void);
extern int __real_pthread_create (pthread_t *, const pthread_attr_t *,
				  void *(*) (void *), void *);

enum { PLAIN, LATE, NO_C, NONE, TWO };
static const char *const names[]
  = { "", " (flushing threads late)", " (no C flushing thread, stdout locked)",
      " (no flushing thread)", " (two devices at once)" };

static int entered, mode;
static pthread_t main_thread;
static void *(*worker_fn) (void *), *(*c_fn) (void *);
static double first_try;

int
__wrap_pthread_create (pthread_t *t, const pthread_attr_t *a,
		       void *(*fn) (void *), void *arg)
{
  int fail = 0;
  if (!pthread_equal (pthread_self (), main_thread) && mode != PLAIN)
    {
      if (worker_fn == NULL)
	/* A poller starting its first worker.  */
	worker_fn = fn;
      else if (fn != worker_fn)
	{
	  /* A worker running the exit starts a flushing thread.  */
	  if (c_fn == NULL)
	    {
	      c_fn = fn;
	      first_try = sim_now ();
	    }
	  fail = (mode == LATE && sim_now () - first_try < 0.05)
		 || (mode == NO_C && fn == c_fn) || mode == NONE;
	}
    }
  return fail ? EAGAIN : __real_pthread_create (t, a, fn, arg);
}

static void *
reader_fn (void *arg)
{
  (void) arg;
  __atomic_store_n (&entered, 1, __ATOMIC_SEQ_CST);
  hs_exit_reader ();
  return NULL;
}

static void *
stdout_holder_fn (void *arg)
{
  (void) arg;
  flockfile (stdout);
  __atomic_store_n (&entered, 2, __ATOMIC_SEQ_CST);
  for (;;)
    pause ();
  return NULL;
}

struct exiter
{
  struct sim s;
  int status;
};

static void *
exiter_fn (void *arg)
{
  struct exiter *x = arg;
  int32_t err;
  sim_call (&x->s, GOMP_HS_OP_EXIT, x->status, 0, 0, NULL, 0, NULL, 0, NULL,
	    &err);
  return NULL;
}

static int
run (int m)
{
  const char *dir = getenv ("TMPDIR");
  char out_path[512], file_path[512], got[256] = "", file_got[64] = "";
  int status = 0, ended = 0, failures = 0, st_ok;
  double t0, t;
  pid_t pid;
  FILE *f;
  size_t n;

  snprintf (out_path, sizeof out_path, "%s/exit-fortran-%d-%d.out",
	    dir ? dir : "/tmp", (int) getpid (), m);
  snprintf (file_path, sizeof file_path, "%s/exit-fortran-%d-%d.txt",
	    dir ? dir : "/tmp", (int) getpid (), m);
  fflush (NULL);
  pid = fork ();
  if (pid == 0)
    {
      static struct exiter x[2];
      int fds[2];
      pthread_t t;
      FILE *file = fopen (file_path, "w");
      main_thread = pthread_self ();
      mode = m;
      if (file == NULL || freopen (out_path, "w", stdout) == NULL
	  || pipe (fds) != 0 || dup2 (fds[0], 0) != 0
	  || pthread_create (&t, NULL, reader_fn, NULL) != 0)
	_exit (90);
      while (!__atomic_load_n (&entered, __ATOMIC_SEQ_CST))
	usleep (1000);
      /* Now inside the READ, holding unit 5.  */
      usleep (100000);
      hs_exit_write ();
      /* Buffered: only the exit's flushing writes them.  */
      fputs ("c line\n", stdout);
      fputs ("file line", file);
      if (m == NO_C)
	{
	  if (pthread_create (&t, NULL, stdout_holder_fn, NULL) != 0)
	    _exit (92);
	  while (__atomic_load_n (&entered, __ATOMIC_SEQ_CST) != 2)
	    usleep (1000);
	}
      x[0].status = 7;
      x[1].status = 8;
      sim_start (&x[0].s, 2, 64, "stdio");
      if (m == TWO)
	{
	  sim_start (&x[1].s, 2, 64, "stdio");
	  if (pthread_create (&t, NULL, exiter_fn, &x[1]) != 0)
	    _exit (93);
	}
      exiter_fn (&x[0]);
      _exit (91);
    }
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
  t = sim_now () - t0;
  if (pid > 0 && !ended)
    {
      kill (pid, SIGKILL);
      waitpid (pid, &status, 0);
    }
  st_ok = ended && WIFEXITED (status)
	  && (WEXITSTATUS (status) == 7
	      || (m == TWO && WEXITSTATUS (status) == 8));
  printf ("%s: sim exit%s (a host thread blocked in a Fortran READ): the"
	  " process ends with the device's status (%.1f s, status %#x)\n",
	  st_ok ? "PASS" : "FAIL", names[m], t, status);
  failures += !st_ok;
  /* The deadline is 2 s after the EXIT came (a later one waits 0.1 s
     more), the child's start up to it some 0.2 s.  */
  printf ("%s: sim exit%s: within the flushing deadline (%.1f s)\n",
	  ended && t < 3.0 ? "PASS" : "FAIL", names[m], t);
  failures += !(ended && t < 3.0);
  f = fopen (out_path, "r");
  if (f != NULL)
    {
      n = fread (got, 1, sizeof got - 1, f);
      got[n] = '\0';
      fclose (f);
    }
  f = fopen (file_path, "r");
  if (f != NULL)
    {
      if (fgets (file_got, sizeof file_got, f) == NULL)
	file_got[0] = '\0';
      fclose (f);
    }
  if (m != NO_C)
    {
      /* Without a C thread, stdout is flushed by the worker (unless, as
	 here in NO_C, another thread keeps it locked).  */
      printf ("%s: sim exit%s: stdout's buffered line is written\n",
	      strstr (got, "c line\n") ? "PASS" : "FAIL", names[m]);
      failures += !strstr (got, "c line\n");
    }
  if (m != NONE)
    {
      /* Unit 6 and fflush (NULL) need a thread of their own.  */
      printf ("%s: sim exit%s: unit 6's buffered line is written\n",
	      strstr (got, "fortran line\n") ? "PASS" : "FAIL", names[m]);
      failures += !strstr (got, "fortran line\n");
      if (m != NO_C)
	{
	  printf ("%s: sim exit%s: another C stream's buffered line is"
		  " written (got \"%s\")\n",
		  strcmp (file_got, "file line") == 0 ? "PASS" : "FAIL",
		  names[m], file_got);
	  failures += strcmp (file_got, "file line") != 0;
	}
    }
  unlink (out_path);
  unlink (file_path);
  return failures;
}

int
main (void)
{
  int failures = 0;
  for (int m = PLAIN; m <= TWO; m++)
    failures += run (m);
  return failures != 0;
}
