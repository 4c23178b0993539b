/* stdio on host files from a target region: fopen, fprintf, fputs, fwrite,
   ftell, fclose, fscanf, fgets, fseek, fread, rewind, and errno from a
   failing fopen.  */

/* { dg-do run } */

#include <errno.h>
#include <stdio.h>
#include <string.h>

int
main (void)
{
  const char path[] = "hs-stdio-1.tmp";
  const char missing[] = "hs-stdio-1.does-not-exist/x";
  int closed = 0, sum = 0, tail_ok = 0, rewound = -1, enoent = 0;
  long pos = -1;
  char line[64] = "";

#pragma omp target map(to: path, missing) \
		   map(from: closed, sum, tail_ok, rewound, enoent, pos, line)
  {
    FILE *f = fopen (path, "w");
    if (f != NULL)
      {
	fprintf (f, "%d %d %d\n", 1, 22, 333);
	fputs ("second line\n", f);
	fwrite ("ABCDEFGH", 1, 8, f);
	pos = ftell (f);
	closed = fclose (f) == 0;
      }
    f = fopen (path, "r");
    if (f != NULL)
      {
	int a, b, c;
	char buf[8];
	if (fscanf (f, "%d %d %d\n", &a, &b, &c) == 3)
	  sum = a + b + c;
	if (fgets (line, sizeof line, f) == NULL)
	  line[0] = '\0';
	if (fseek (f, -8, SEEK_END) == 0 && fread (buf, 1, 8, f) == 8)
	  tail_ok = memcmp (buf, "ABCDEFGH", 8) == 0;
	rewind (f);
	rewound = (int) ftell (f);
	fclose (f);
      }
    errno = 0;
    f = fopen (missing, "r");
    enoent = f == NULL && errno == ENOENT;
  }

  printf ("closed=%d pos=%ld sum=%d tail=%d rewound=%d enoent=%d line=%s",
	  closed, pos, sum, tail_ok, rewound, enoent, line);
  remove (path);
  return !(closed && pos == 29 && sum == 356 && tail_ok && rewound == 0
	   && enoent && strcmp (line, "second line\n") == 0);
}

/* { dg-output "closed=1 pos=29 sum=356 tail=1 rewound=0 enoent=1 line=second line" } */
/* { dg-final { ptx-valid } } */
/* { dg-final { ptx-defined-once open read write lseek close _open _write __gomp_host_service } } */
