/* How many host calls stdio makes on the device (the GPU check counts
   them in the GOMP_DEBUG=1 trace): each puts to the unbuffered stdout is
   one write of text and newline together; an append-mode stream flushes
   without seeking (the host's descriptor has O_APPEND).  On the host the
   program just runs.  */

#include <omp.h>
#include <stdio.h>

int
main (void)
{
  const char path[] = "hs-stdio-calls.tmp";
  int on_device = 0;
  FILE *f = fopen (path, "w");
  if (f)
    fclose (f);
#pragma omp target map(to: path) map(from: on_device)
  {
    FILE *a;
    on_device = !omp_is_initial_device ();
    puts ("stdio-calls: one");
    puts ("stdio-calls: two");
    puts ("stdio-calls: three");
    a = fopen (path, "a");
    if (a)
      {
	for (int i = 0; i < 3; i++)
	  {
	    fprintf (a, "appended %d\n", i);
	    fflush (a);
	  }
	fclose (a);
      }
  }
  f = fopen (path, "r");
  int n = 0;
  char line[64];
  while (f && fgets (line, sizeof line, f))
    n++;
  if (f)
    fclose (f);
  remove (path);
  printf ("stdio-calls: %s, %d lines appended\n",
	  on_device ? "device" : "host", n);
  return n != 3;
}
