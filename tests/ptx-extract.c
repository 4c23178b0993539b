/* ptx-extract: write the PTX modules embedded in an offloading executable
   to separate files.

   mkoffload (nvptx) embeds each linked PTX module of the device image as a
   NUL-terminated string; every module starts with GCC's preamble comment.
   Usage: ptx-extract EXECUTABLE OUTDIR
   Writes OUTDIR/module-NNN.ptx and prints their number; exits 1 if the
   executable holds no PTX, 2 on an I/O error.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char marker[] = "// BEGIN PREAMBLE";

static char *
slurp (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  char *buf = NULL;
  size_t cap = 0, n = 0, r;

  if (f == NULL)
    return NULL;
  do
    {
      if (n == cap)
	{
	  char *nb;
	  cap = cap ? 2 * cap : 1 << 20;
	  nb = realloc (buf, cap + 1);
	  if (nb == NULL)
	    {
	      free (buf);
	      fclose (f);
	      return NULL;
	    }
	  buf = nb;
	}
      r = fread (buf + n, 1, cap - n, f);
      n += r;
    }
  while (r > 0);
  if (ferror (f))
    {
      free (buf);
      fclose (f);
      return NULL;
    }
  fclose (f);
  buf[n] = '\0';
  *len = n;
  return buf;
}

int
main (int argc, char **argv)
{
  size_t len, pos = 0;
  unsigned count = 0;
  char *buf;

  if (argc != 3)
    {
      fprintf (stderr, "usage: %s EXECUTABLE OUTDIR\n", argv[0]);
      return 2;
    }
  buf = slurp (argv[1], &len);
  if (buf == NULL)
    {
      perror (argv[1]);
      return 2;
    }
  while (pos < len)
    {
      char *start = memmem (buf + pos, len - pos, marker, sizeof marker - 1);
      size_t mlen;
      char name[4096];
      FILE *out;

      if (start == NULL)
	break;
      mlen = strlen (start);	/* Up to the NUL that ends the module.  */
      snprintf (name, sizeof name, "%s/module-%03u.ptx", argv[2], count);
      out = fopen (name, "w");
      if (out == NULL || fwrite (start, 1, mlen, out) != mlen
	  || fclose (out) != 0)
	{
	  perror (name);
	  return 2;
	}
      count++;
      pos = (size_t) (start - buf) + mlen;
    }
  free (buf);
  printf ("%u\n", count);
  return count ? 0 : 1;
}
