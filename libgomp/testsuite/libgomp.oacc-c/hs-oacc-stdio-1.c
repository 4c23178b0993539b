/* stdio and errno in an OpenACC compute region.  */

/* { dg-do run } */

#include <errno.h>
#include <stdio.h>

int
main (void)
{
  const char path[] = "hs-oacc-stdio-1.tmp";
  int v = 0, enoent = 0;

#pragma acc parallel num_gangs(1) copyin(path) copyout(v, enoent)
  {
    FILE *f = fopen (path, "w");
    if (f != NULL)
      {
	fprintf (f, "%d\n", 4242);
	fclose (f);
      }
    f = fopen (path, "r");
    if (f != NULL)
      {
	if (fscanf (f, "%d", &v) != 1)
	  v = -1;
	fclose (f);
      }
    errno = 0;
    enoent = fopen ("hs-oacc-stdio-1.missing/x", "r") == NULL
	     && errno == ENOENT;
    fprintf (stderr, "oacc stderr %d\n", v);
  }
  printf ("v=%d enoent=%d\n", v, enoent);
  remove (path);
  return !(v == 4242 && enoent);
}

/* { dg-output "oacc stderr 4242\r?\n" } */
/* { dg-output "v=4242 enoent=1" } */
/* { dg-final { ptx-valid } } */
