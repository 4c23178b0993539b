/* On a GPU: a named host callback, called from a kernel, that starts
   device work (a target region) is refused with an error, and the program
   ends within seconds: the kernel gets an error for its call and ends,
   and the teardown at exit waits for neither.  Without a GPU there is no
   kernel to refuse: the test says so and passes.  */

#include <gomp-host-services.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int64_t
cb_target (void *buf, size_t size, void *user)
{
  int x = 0;
  (void) buf;
  (void) size;
  (void) user;
#pragma omp target map(tofrom: x)
  x = 1;
  return x;
}

int
main (void)
{
  int on_device = 0, fds[2], status;
  char msg[1024];
  size_t got = 0;
  ssize_t n;
  struct timespec t0, t1;
  double secs;
  pid_t pid;

#pragma omp target map(from: on_device)
  on_device = !omp_is_initial_device ();
  if (!on_device)
    {
      puts ("hs-refuse-gpu: no GPU: nothing to refuse");
      return 0;
    }
  libgomp_host_register ("target", cb_target, NULL);
  fflush (stdout);
  if (pipe (fds) != 0)
    return 2;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  pid = fork ();
  if (pid == 0)
    {
      int err = 0;
      dup2 (fds[1], 2);
#pragma omp target map(tofrom: err)
      libgomp_host_call ("target", NULL, 0, &err);
      fprintf (stderr, "not refused (err %d)\n", err);
      exit (0);
    }
  close (fds[1]);
  alarm (120);
  while (got < sizeof msg - 1
	 && (n = read (fds[0], msg + got, sizeof msg - 1 - got)) > 0)
    got += n;
  msg[got] = '\0';
  waitpid (pid, &status, 0);
  clock_gettime (CLOCK_MONOTONIC, &t1);
  secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
  printf ("hs-refuse-gpu: status %d after %.2f s: %s", status, secs, msg);
  if (WIFEXITED (status) && WEXITSTATUS (status) != 0 && secs < 30
      && strstr (msg, "from a host-service callback"))
    {
      puts ("hs-refuse-gpu: refused, ended");
      return 0;
    }
  return 1;
}
