/* libgomp-hs-server.a on its own: a program that links the library and
   nothing of libgomp serves a simulated device (sim-client.h) through the
   interface of gomp-hs-server.h -- a file created, written, read back and
   closed, a named host callback, a write to stdout -- and tears the server
   down.  tests/unit/hs-server-lib.sh builds it against the staged
   library and checks what the library exports.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gomp-hs-server.h"
#include "gomp-host-services.h"
#include "sim-client.h"

static int failures;

static void
check (int ok, const char *what)
{
  printf ("%s: hs-server-lib: %s\n", ok ? "PASS" : "FAIL", what);
  failures += !ok;
}

static int64_t
cb_sum (void *buf, size_t size, void *user)
{
  unsigned char *p = buf;
  int64_t sum = (int64_t) (intptr_t) user;
  size_t i;
  for (i = 0; i < size; i++)
    sum += p[i];
  return sum;
}

int
main (int argc, char **argv)
{
  struct sim s;
  int32_t err = 0;
  int64_t fd, r;
  char buf[64], path[4096];
  const char msg[] = "written by the simulated device";
  const char out[] = "hs-server-lib: stdout through the library\n";
  int64_t args[4];

  if (argc != 2)
    {
      fprintf (stderr, "usage: %s DIR\n", argv[0]);
      return 2;
    }
  snprintf (path, sizeof path, "%s/lib-file.txt", argv[1]);
  check (libgomp_host_register ("sum", cb_sum, (void *) 1000) == 0,
	 "a callback registers");
  sim_start (&s, 4, 64, "all");
  check (s.server != NULL, "the server starts over a region of our own");
  fd = sim_call (&s, GOMP_HS_OP_OPEN, O_CREAT | O_RDWR | O_TRUNC, 0644, 0,
		 path, strlen (path) + 1, NULL, 0, NULL, &err);
  check (fd >= 3 && err == 0, "open creates a file");
  r = sim_call (&s, GOMP_HS_OP_WRITE, fd, 0, 0, msg, sizeof msg - 1, NULL, 0,
		NULL, &err);
  check (r == (int64_t) sizeof msg - 1, "write takes every byte");
  r = sim_call (&s, GOMP_HS_OP_LSEEK, fd, 0, SEEK_SET, NULL, 0, NULL, 0,
		NULL, &err);
  memset (buf, 0, sizeof buf);
  r = sim_call (&s, GOMP_HS_OP_READ, fd, sizeof buf, 0, NULL, 0, buf,
		sizeof buf, NULL, &err);
  check (r == (int64_t) sizeof msg - 1 && memcmp (buf, msg, r) == 0,
	 "read gives the bytes back");
  r = sim_call (&s, GOMP_HS_OP_CLOSE, fd, 0, 0, NULL, 0, NULL, 0, NULL, &err);
  check (r == 0, "close");
  args[0] = 4;
  args[1] = 3;
  args[2] = args[3] = 0;
  memcpy (buf, "sum", 4);
  r = hs_call2 (s.dev, GOMP_HS_OP_HOST_CALL, args, "sum", 4, "\1\2\3", 3,
		buf, 3, NULL, &err);
  check (r == 1006, "a named callback runs with its argument and buffer");
  fflush (stdout);
  r = sim_call (&s, GOMP_HS_OP_WRITE, 1, 0, 0, out, sizeof out - 1, NULL, 0,
		NULL, &err);
  check (r == (int64_t) sizeof out - 1, "write to stdout");
  GOMP_PLUGIN_host_service_kernel_end (s.server);
  GOMP_PLUGIN_host_service_shutdown (s.server);
  GOMP_PLUGIN_host_service_kernel_begin (s.server);
  r = sim_call (&s, GOMP_HS_OP_WRITE, 1, 0, 0, out, sizeof out - 1, NULL, 0,
		NULL, &err);
  check (r == -1 && err == ECANCELED, "after shutdown a call gets ECANCELED");
  sim_stop (&s);
  return failures != 0;
}
