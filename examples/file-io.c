/* Demo: ordinary C I/O inside an OpenMP target region.

   The region writes a small report to a file with fopen/fprintf, reads it
   back with fscanf, shows errno for a file that does not exist, and prints
   to stdout and stderr.  The host then says where the region ran.

   Build:  gomp-gcc -O2 -fopenmp -foffload=nvptx-none file-io.c -o file-io  */

#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

int
main (void)
{
  const char path[] = "file-io-demo.txt";
  int on_host = 1, total = 0, open_errno = 0, wrote = 0;

#pragma omp target map(to: path) \
		   map(from: on_host, total, open_errno, wrote)
  {
    FILE *f;

    on_host = omp_is_initial_device ();
    f = fopen (path, "w");
    if (f != NULL)
      {
	for (int i = 1; i <= 4; i++)
	  fprintf (f, "%d\n", i * i);
	wrote = fclose (f) == 0;
      }
    f = fopen (path, "r");
    if (f != NULL)
      {
	int v;
	while (fscanf (f, "%d", &v) == 1)
	  total += v;
	fclose (f);
      }
    errno = 0;
    if (fopen ("no-such-dir/no-such-file", "r") == NULL)
      open_errno = errno;
    printf ("target region: wrote %s, sum of squares read back = %d\n",
	    wrote ? "ok" : "FAILED", total);
    fprintf (stderr, "target region: fopen of a missing file: errno %d\n",
	     open_errno);
  }

  printf ("host: errno from the region is %s (%s)\n",
	  open_errno == ENOENT ? "ENOENT" : "unexpected", strerror (open_errno));
  printf ("host: the target region ran %s\n",
	  on_host ? "on the host (no GPU found: host fallback)"
		  : "on the GPU");
  remove (path);
  return !(wrote && total == 30 && open_errno == ENOENT);
}
