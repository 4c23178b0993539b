/* A standalone nvptx program (gomp-nvptx-gcc, run by gomp-nvptx-run):
   its arguments, stdio on host files, stdout and stderr, and main's
   status.  Run as: sa-stdio DIR alpha "" "with space"; prints
   "sa-stdio: ok" and returns 3 when everything checked out, or names
   the first check that failed and returns 1.  Its files are DIR/stdio-*.
   The GPU check (bench/gpu-check.sh) runs it and checks the output, the
   files and the status.  */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *dir;

static char *
path (const char *name)
{
  static char buf[4096];
  snprintf (buf, sizeof buf, "%s/%s", dir, name);
  return buf;
}

#define CHECK(C) \
  do { if (!(C)) { printf ("sa-stdio: FAILED: %s\n", #C); return 1; } } \
  while (0)

int
main (int argc, char **argv)
{
  FILE *f;
  char line[256];
  int i, sum = 0, n;
  long size;

  CHECK (argc == 5);
  dir = argv[1];
  CHECK (strcmp (argv[2], "alpha") == 0);
  CHECK (argv[3][0] == '\0');
  CHECK (strcmp (argv[4], "with space") == 0);
  CHECK (argv[5] == NULL);

  f = fopen (path ("stdio-numbers.txt"), "w");
  CHECK (f != NULL);
  for (i = 1; i <= 1000; i++)
    CHECK (fprintf (f, "%d\n", i) > 0);
  CHECK (fclose (f) == 0);

  f = fopen (path ("stdio-numbers.txt"), "r");
  CHECK (f != NULL);
  while (fscanf (f, "%d", &n) == 1)
    sum += n;
  CHECK (sum == 500500);
  CHECK (fseek (f, 0, SEEK_END) == 0);
  size = ftell (f);
  CHECK (size == 3893);
  rewind (f);
  CHECK (fgets (line, sizeof line, f) != NULL && strcmp (line, "1\n") == 0);
  CHECK (fclose (f) == 0);

  errno = 0;
  CHECK (fopen (path ("no/such/file"), "r") == NULL);
  CHECK (errno == ENOENT);

  f = fopen (path ("stdio-append.txt"), "a");
  CHECK (f != NULL);
  fputs ("appended\n", f);
  CHECK (fclose (f) == 0);

  fprintf (stderr, "sa-stdio: to stderr\n");
  printf ("sa-stdio: ok\n");
  return 3;
}
