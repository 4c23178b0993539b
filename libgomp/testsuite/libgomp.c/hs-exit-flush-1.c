/* exit in a target region flushes stdio before it ends the thread: data
   written to a fully buffered FILE that is never closed reaches the host.
   (On the device exit ends the calling thread only; on the host fallback
   it would end the program, so there the FILE is closed instead.)  */

/* { dg-do run } */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main (void)
{
  const char path[] = "hs-exit-flush-1.tmp";
  char line[64] = "";
  int on_device = 0;
  FILE *f;

  remove (path);
  /* One team of one thread: exit ends that thread, and with it the
     kernel.  */
#pragma omp target teams num_teams(1) thread_limit(1) map(to: path) \
		   map(from: on_device)
#pragma omp parallel num_threads(1)
  {
    FILE *g = fopen (path, "w");
    on_device = !omp_is_initial_device ();
    if (g != NULL)
      {
	/* A regular file is fully buffered: this stays in the FILE's
	   buffer until something flushes it.  */
	fprintf (g, "flushed at exit %d\n", 42);
	if (on_device)
	  exit (0);
	fclose (g);
      }
  }

  f = fopen (path, "r");
  if (f != NULL)
    {
      if (fgets (line, sizeof line, f) == NULL)
	line[0] = '\0';
      fclose (f);
    }
  remove (path);
  line[strcspn (line, "\n")] = '\0';
  printf ("content: \"%s\" (%s)\n", line, on_device ? "device" : "host");
  return strcmp (line, "flushed at exit 42") != 0;
}

/* { dg-output "content: \"flushed at exit 42\"" } */
/* { dg-final { ptx-valid } } */
