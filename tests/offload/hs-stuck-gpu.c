/* On a GPU: a kernel calls a named host callback that never returns, and
   the program exits meanwhile (issue 16, item 1).  The teardown at exit
   (the plugin's nvptx_hs_free) shuts host services down, which answers
   the stuck call with ECANCELED after its grace period; the kernel then
   calls the host again, on the same port, whose worker is still inside
   the callback: that call must be answered too (ECANCELED), or the
   kernel never ends and the teardown's wait for the device never
   returns.  The program must end by itself, within seconds, and not by
   a signal (its status is printed: the thread whose kernel was torn
   down may report an error of its own while exit runs).  Without a GPU the region runs on the host, where nothing is
   torn down under it: the test says so and passes.  */

#include <gomp-host-services.h>
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int entered;

static int64_t
cb_stuck (void *buf, size_t size, void *user)
{
  (void) buf;
  (void) size;
  (void) user;
  __atomic_store_n (&entered, 1, __ATOMIC_SEQ_CST);
  for (;;)
    pause ();
  return 0;
}

static void *
kernel_fn (void *arg)
{
  (void) arg;
  /* No map clauses: nothing to copy back once the device is gone.  */
#pragma omp target
  {
    int err1 = 0, err2 = 0;
    libgomp_host_call ("stuck", NULL, 0, &err1);
    /* The same device thread, the same port.  */
    libgomp_host_call ("stuck", NULL, 0, &err2);
    printf ("hs-stuck-gpu: device: errno %d, %d\n", err1, err2);
  }
  return NULL;
}

static double
since (const struct timespec *t0)
{
  struct timespec t1;
  clock_gettime (CLOCK_MONOTONIC, &t1);
  return (t1.tv_sec - t0->tv_sec) + (t1.tv_nsec - t0->tv_nsec) * 1e-9;
}

int
main (void)
{
  int on_device = 0, status = 0;
  struct timespec t0;
  pid_t pid, w = 0;

#pragma omp target map(from: on_device)
  on_device = !omp_is_initial_device ();
  if (!on_device)
    {
      puts ("hs-stuck-gpu: no GPU: nothing is torn down under a kernel");
      puts ("hs-stuck-gpu: ended");
      return 0;
    }
  libgomp_host_register ("stuck", cb_stuck, NULL);
  fflush (stdout);
  clock_gettime (CLOCK_MONOTONIC, &t0);
  pid = fork ();
  if (pid == 0)
    {
      pthread_t t;
      if (pthread_create (&t, NULL, kernel_fn, NULL) != 0)
	_exit (3);
      while (!__atomic_load_n (&entered, __ATOMIC_SEQ_CST))
	{
	  if (since (&t0) > 30)
	    {
	      puts ("hs-stuck-gpu: the callback was never called");
	      _exit (4);
	    }
	  usleep (1000);
	}
      /* The kernel waits for the callback, which never returns: exit,
	 whose handlers tear the device down under it.  */
      puts ("hs-stuck-gpu: callback entered; exiting");
      exit (0);
    }
  if (pid < 0)
    return 2;
  /* The teardown's grace period is 2 s; give it 40.  */
  while (since (&t0) < 40 && (w = waitpid (pid, &status, WNOHANG)) == 0)
    usleep (10000);
  if (w != pid)
    {
      printf ("hs-stuck-gpu: still running after %.1f s: the teardown"
	      " hangs\n", since (&t0));
      kill (pid, SIGKILL);
      waitpid (pid, &status, 0);
      return 1;
    }
  printf ("hs-stuck-gpu: status %#x after %.2f s\n", status, since (&t0));
  if (WIFEXITED (status) && WEXITSTATUS (status) != 3
      && WEXITSTATUS (status) != 4)
    {
      puts ("hs-stuck-gpu: ended");
      return 0;
    }
  return 1;
}
