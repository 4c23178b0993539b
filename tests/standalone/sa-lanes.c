/* A standalone nvptx program compiled with -mgomp (-msoft-stack
   -muniform-simt), run on every lane of a warp (gomp-nvptx-run -L 32):
   in uniform-SIMT code every side effect happens once, so the file has
   exactly one line per iteration and stdout one line.  Run as:
   sa-lanes DIR; returns 0 when the file it read back is right.  */

#include <stdio.h>
#include <string.h>

int
main (int argc, char **argv)
{
  char name[4096], line[64];
  FILE *f;
  int i, n = 0;

  if (argc != 2)
    return 2;
  snprintf (name, sizeof name, "%s/lanes.txt", argv[1]);
  f = fopen (name, "w");
  if (f == NULL)
    return 3;
  for (i = 0; i < 10; i++)
    fprintf (f, "line %d\n", i);
  if (fclose (f) != 0)
    return 4;
  f = fopen (name, "r");
  if (f == NULL)
    return 5;
  while (fgets (line, sizeof line, f) != NULL)
    n++;
  fclose (f);
  printf ("sa-lanes: %d lines\n", n);
  return n == 10 ? 0 : 1;
}
