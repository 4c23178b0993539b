/* Against the real libgomp.so: a host-service callback made for a kernel
   that starts device work (a target region) is stopped with an error
   instead of deadlocking, and the process ends within seconds.  The
   "kernel" is a host thread using the client code over a region served
   by libgomp's exported server.  The refusal ends in exit, on the worker
   thread that runs the callback; an atexit handler there tears the
   server down the way the nvptx plugin does (shutdown, wait for the
   device to be idle, fini): it must not wait for the callback's own
   reply.  Prints PASS:/FAIL: lines.  */

#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sim-client.h"
#include "gomp-host-services.h"

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

static struct sim child_sim;
static volatile int kernel_done;

static void *
kernel_fn (void *arg)
{
  struct sim *s = arg;
  int64_t args[4] = { 7, 0, 0, 0 };
  int32_t err;
  hs_call (s->dev, GOMP_HS_OP_HOST_CALL, args, "target", 7, NULL, 0, NULL,
	   &err);
  /* The refused call gets an error, and the kernel goes on and ends.  */
  fprintf (stderr, "kernel: call ended with errno %d\n", err);
  __atomic_store_n (&kernel_done, 1, __ATOMIC_RELEASE);
  return NULL;
}

/* What the nvptx plugin does at exit (host-service-nvptx.c).  */

static void
teardown (void)
{
  int i;
  GOMP_PLUGIN_host_service_shutdown (child_sim.server);
  /* cuCtxSynchronize: the device is idle when the kernel has ended.  */
  for (i = 0; i < 1000 && !__atomic_load_n (&kernel_done, __ATOMIC_ACQUIRE);
       i++)
    usleep (10000);
  if (!kernel_done)
    {
      fprintf (stderr, "teardown: the kernel never ended\n");
      _exit (3);
    }
  GOMP_PLUGIN_host_service_fini (child_sim.server);
  child_sim.server = NULL;
  fprintf (stderr, "teardown: done\n");
}

int
main (void)
{
  int fds[2], status, x = 0;
  struct timespec t0, t1;
  double secs;
  char msg[512] = "";
  ssize_t n;
  pid_t pid;

  /* The same callback called on the host may use the device.  */
  libgomp_host_register ("target", cb_target, NULL);
  x = (int) libgomp_host_call ("target", NULL, 0, NULL);
  printf ("%s: callback-refuse: on the host path a callback may run a target"
	  " region\n", x == 1 ? "PASS" : "FAIL");

  fflush (stdout);
  if (pipe (fds) != 0)
    return 2;
  pid = fork ();
  if (pid == 0)
    {
      pthread_t t;
      dup2 (fds[1], 2);
      sim_start (&child_sim, 2, 64, "all");
      atexit (teardown);
      pthread_create (&t, NULL, kernel_fn, &child_sim);
      /* The process ends through the refusal's exit.  */
      for (;;)
	pause ();
    }
  close (fds[1]);
  clock_gettime (CLOCK_MONOTONIC, &t0);
  alarm (60);
  /* Everything the child wrote to stderr, until it exits.  */
  {
    size_t got = 0;
    while (got < sizeof msg - 1
	   && (n = read (fds[0], msg + got, sizeof msg - 1 - got)) > 0)
      got += n;
    msg[got] = '\0';
  }
  waitpid (pid, &status, 0);
  clock_gettime (CLOCK_MONOTONIC, &t1);
  secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
  printf ("%s: callback-refuse: a target region from a callback for a kernel"
	  " stops the program with an error (status %d)\n",
	  WIFEXITED (status) && WEXITSTATUS (status) != 0
	  && strstr (msg, "cannot use an offload device from a host-service"
			  " callback") ? "PASS" : "FAIL", status);
  printf ("%s: callback-refuse: the kernel's call fails, the kernel ends and"
	  " the teardown at exit completes, in %.2f s\n",
	  strstr (msg, "kernel: call ended with errno 125")
	  && strstr (msg, "teardown: done") && secs < 10 ? "PASS" : "FAIL",
	  secs);
  if (!strstr (msg, "teardown: done"))
    fprintf (stderr, "child's stderr:\n%s\n", msg);
  return 0;
}
