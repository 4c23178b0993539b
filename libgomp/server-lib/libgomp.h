/* Stand-in for libgomp.h when the host-service server's sources
   (build-aux/hs-server-sources.sh) are compiled outside libgomp: into
   libgomp-hs-server.a (build-aux/build-hs-server.sh), the simulated
   device, the soak, the fuzzer and the benchmark.  Just the few libgomp
   services they use, with the same meaning.  */

#ifndef HS_SIM_LIBGOMP_H
#define HS_SIM_LIBGOMP_H 1

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "libgomp-plugin.h"
/* The library's interface, checked against libgomp-plugin.h's.  */
#include "gomp-hs-server.h"

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
