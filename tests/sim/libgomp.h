/* Stand-in for libgomp.h when host-service.c is compiled into the
   simulated-device test (tests/sim/hs-sim.c) instead of into libgomp:
   just the few libgomp services it uses, with the same meaning.  */

#ifndef HS_SIM_LIBGOMP_H
#define HS_SIM_LIBGOMP_H 1

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "libgomp-plugin.h"

static int hs_sim_debug_var = -1;

static inline int
hs_sim_debug_on (void)
{
  if (hs_sim_debug_var < 0)
    {
      const char *s = getenv ("GOMP_DEBUG");
      hs_sim_debug_var = s != NULL && atoi (s) != 0;
    }
  return hs_sim_debug_var;
}

#define gomp_debug(KIND, ...) \
  do { if (hs_sim_debug_on ()) fprintf (stderr, __VA_ARGS__); } while (0)
#define gomp_error(...) \
  do { fprintf (stderr, "libgomp: " __VA_ARGS__); fputc ('\n', stderr); } \
  while (0)
#define gomp_fatal(...) \
  do { gomp_error (__VA_ARGS__); abort (); } while (0)

#endif
