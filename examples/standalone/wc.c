/* A standalone GPU program: wc on the GPU.  main runs on the device; the
   files it names are the host's, read and written through host
   services.  Build and run:
     gomp-nvptx-gcc -O2 wc.c -o wc
     gomp-nvptx-run ./wc FILE... > counts.txt  */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int
main (int argc, char **argv)
{
  long total[3] = { 0, 0, 0 };
  int i, status = 0;

  for (i = 1; i < argc; i++)
    {
      long n[3] = { 0, 0, 0 };
      int c, in_word = 0;
      FILE *f = fopen (argv[i], "r");
      if (f == NULL)
	{
	  fprintf (stderr, "wc: %s: %s\n", argv[i], strerror (errno));
	  status = 1;
	  continue;
	}
      while ((c = getc (f)) != EOF)
	{
	  n[2]++;
	  if (c == '\n')
	    n[0]++;
	  if (isspace (c))
	    in_word = 0;
	  else if (!in_word)
	    {
	      in_word = 1;
	      n[1]++;
	    }
	}
      fclose (f);
      printf ("%7ld %7ld %7ld %s\n", n[0], n[1], n[2], argv[i]);
      total[0] += n[0];
      total[1] += n[1];
      total[2] += n[2];
    }
  if (argc > 2)
    printf ("%7ld %7ld %7ld total\n", total[0], total[1], total[2]);
  return status;
}
