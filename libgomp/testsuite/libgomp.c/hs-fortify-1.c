/* With _FORTIFY_SOURCE=2 glibc's headers route stdio, string and read
   calls to the __*_chk functions; they must link and behave in a target
   region.  */

/* { dg-do run } */
/* { dg-options "-O2 -D_FORTIFY_SOURCE=2 -fopenmp -foffload=nvptx-none" } */

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

volatile int n = 5;

int
main (void)
{
  const char path[] = "hs-fortify-1.tmp";
  char out[64] = "";
  int ok = 0;

#pragma omp target map(to: path) map(from: out, ok)
  {
    char small[16], line[16], raw[8];
    int fd;
    FILE *f;
    snprintf (small, sizeof small, "%s-%d", "chk", n);
    sprintf (out, "%s|", small);
    memcpy (out + strlen (out), "mem|", n);
    strcat (out, "cat|");
    f = fopen (path, "w+");
    if (f != NULL)
      {
	fprintf (f, "line %d\n", n);
	rewind (f);
	if (fgets (line, sizeof line, f) != NULL && strcmp (line, "line 5\n") == 0)
	  ok = 1;
	rewind (f);
	ok &= fread (raw, 1, n, f) == 5 && memcmp (raw, "line ", 5) == 0;
	fclose (f);
      }
    fd = open (path, O_RDONLY);
    ok &= fd >= 0 && read (fd, raw, n) == 5;
    close (fd);
    printf ("%s %d\n", out, ok);
  }
  remove (path);
  return !ok;
}

/* { dg-output "chk-5\\|mem\\|cat\\| 1" } */
/* { dg-final { ptx-valid } } */
