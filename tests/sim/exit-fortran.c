/* GOMP_HS_OP_EXIT in a Fortran program whose host thread is blocked in a
   READ of unit 5 from a pipe nobody writes (issue 16, item 7): the READ
   holds the unit's lock for as long as no input comes.  Before the fix
   the exit's FLUSH of every unit waited for that lock forever; now the
   process ends within the flushing deadline, with the device's status,
   and unit 6's buffered line written.  The child runs the server; the
   parent gives it 10 s.  Prints PASS:/FAIL: lines.  */

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

static int entered;

static void *
reader_fn (void *arg)
{
  (void) arg;
  __atomic_store_n (&entered, 1, __ATOMIC_SEQ_CST);
  hs_exit_reader ();
  return NULL;
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
main (void)
{
  const char *dir = getenv ("TMPDIR");
  char out_path[512], got[64] = "";
  int status = 0, ended = 0, failures = 0;
  double t0;
  pid_t pid;
  FILE *f;

  snprintf (out_path, sizeof out_path, "%s/exit-fortran-%d.out",
	    dir ? dir : "/tmp", (int) getpid ());
  fflush (NULL);
  pid = fork ();
  if (pid == 0)
    {
      struct sim s;
      int32_t err;
      int fds[2];
      pthread_t t;
      if (freopen (out_path, "w", stdout) == NULL || pipe (fds) != 0
	  || dup2 (fds[0], 0) != 0
	  || pthread_create (&t, NULL, reader_fn, NULL) != 0)
	_exit (90);
      while (!__atomic_load_n (&entered, __ATOMIC_SEQ_CST))
	usleep (1000);
      /* Now inside the READ, holding unit 5.  */
      usleep (100000);
      hs_exit_write ();
      sim_start (&s, 2, 64, "stdio");
      sim_call (&s, GOMP_HS_OP_EXIT, 7, 0, 0, NULL, 0, NULL, 0, NULL, &err);
      _exit (91);
    }
  t0 = now ();
  while (pid > 0 && now () - t0 < 10)
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
  printf ("%s: sim exit (a host thread blocked in a Fortran READ): the"
	  " process ends with the device's status (%.1f s, status %#x)\n",
	  ended && WIFEXITED (status) && WEXITSTATUS (status) == 7
	  ? "PASS" : "FAIL", now () - t0, status);
  failures += !(ended && WIFEXITED (status) && WEXITSTATUS (status) == 7);
  f = fopen (out_path, "r");
  if (f != NULL)
    {
      if (fgets (got, sizeof got, f) == NULL)
	got[0] = '\0';
      fclose (f);
    }
  got[strcspn (got, "\n")] = '\0';
  printf ("%s: sim exit (a host thread blocked in a Fortran READ): unit 6's"
	  " buffered line is written (got \"%s\")\n",
	  strcmp (got, "fortran line") == 0 ? "PASS" : "FAIL", got);
  failures += strcmp (got, "fortran line") != 0;
  unlink (out_path);
  return failures != 0;
}
