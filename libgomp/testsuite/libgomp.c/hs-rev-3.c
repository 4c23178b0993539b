/* A reverse-offload region in a declare target function, called from a
   target region, and one outside any target region (the host is then
   the parent device: the region runs on the host).  The host-only
   callee is not compiled for the device, and its host-only variables
   are reached through it (a variable named in the region itself would be
   mapped or firstprivate, as in any target region).  */

/* { dg-do run } */

#include <stdio.h>
#include <string.h>

#pragma omp requires reverse_offload

static char host_log[64];
static char *host_cursor = host_log;

static int
host_append (const char *s)
{
  size_t n = strlen (s);
  memcpy (host_cursor, s, n);
  host_cursor += n;
  return (int) (host_cursor - host_log);
}

#pragma omp declare target
int
tell_host (int k)
{
  char msg[4] = { (char) ('a' + k), 0 };
  int r = 0;
#pragma omp target device(ancestor: 1) map(to: msg) map(from: r)
  r = host_append (msg);
  return r;
}
#pragma omp end declare target

int
main (void)
{
  int r[3] = { 0 }, top = 0;

#pragma omp target map(from: r)
  for (int k = 0; k < 3; k++)
    r[k] = tell_host (k);

#pragma omp target device(ancestor: 1) map(from: top)
  top = host_append ("!");

  printf ("log %s, %d %d %d %d\n", host_log, r[0], r[1], r[2], top);
  return !(strcmp (host_log, "abc!") == 0 && r[0] == 1 && r[1] == 2
	   && r[2] == 3 && top == 4);
}

/* { dg-output "log abc!, 1 2 3 4" } */
/* { dg-final { ptx-valid } } */
/* { dg-final { ptx-not-defined host_append } } */
