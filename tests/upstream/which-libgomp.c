/* Which libgomp runs a program of the upstream testsuite: built with the
   same compiler and options as the testsuite's programs and run with the
   LD_LIBRARY_PATH that the testsuite sets, it prints the file that
   libgomp.so.1 (and the offload plugin, when one was loaded) came from,
   one "libgomp PATH" or "plugin PATH" line each, after a target region
   has initialized the devices.  tests/upstream/run-upstream.sh checks
   that Debian's side runs Debian's libgomp and ours runs ours.  */

#define _GNU_SOURCE
#include <link.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
show_object (struct dl_phdr_info *info, size_t size, void *data)
{
  const char *name = info->dlpi_name;
  const char *base = strrchr (name, '/');
  const char *kind = NULL;
  char *real;

  (void) size;
  (void) data;
  base = base ? base + 1 : name;
  if (strncmp (base, "libgomp.so", 10) == 0)
    kind = "libgomp";
  else if (strncmp (base, "libgomp-plugin-", 15) == 0)
    kind = "plugin";
  if (kind == NULL)
    return 0;
  real = realpath (name, NULL);
  printf ("%s %s\n", kind, real ? real : name);
  free (real);
  return 0;
}

int
main (void)
{
  int initial = -1;

#pragma omp target map(from: initial)
  initial = omp_is_initial_device ();

  printf ("devices %d, target region on the %s\n", omp_get_num_devices (),
	  initial ? "host" : "device");
  dl_iterate_phdr (show_object, NULL);
  return 0;
}
