/* Against the real libgomp.so: a host-service callback made for a kernel
   that starts device work (a target region) is stopped with an error
   instead of deadlocking.  The "kernel" is a host thread using the client
   code over a region served by libgomp's exported server.  Prints
   PASS:/FAIL: lines.  */

#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

static void *
kernel_fn (void *arg)
{
  struct sim *s = arg;
  int64_t args[4] = { 7, 0, 0, 0 };
  int32_t err;
  hs_call (s->dev, GOMP_HS_OP_HOST_CALL, args, "target", 7, NULL, 0, NULL,
	   &err);
  return NULL;
}

int
main (void)
{
  int fds[2], status, x = 0;
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
      struct sim s;
      pthread_t t;
      dup2 (fds[1], 2);
      sim_start (&s, 2, 64, "all");
      pthread_create (&t, NULL, kernel_fn, &s);
      pthread_join (t, NULL);
      _exit (0);		/* Not reached if the refusal works.  */
    }
  close (fds[1]);
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
  printf ("%s: callback-refuse: a target region from a callback for a kernel"
	  " stops the program with an error (status %d)\n",
	  WIFEXITED (status) && WEXITSTATUS (status) != 0
	  && strstr (msg, "cannot use an offload device from a host-service"
			  " callback") ? "PASS" : "FAIL", status);
  return 0;
}
