/* A standalone nvptx program that ends through exit from a function
   other than main, with the status its first argument names, after
   writing to stdout (which must not be lost): gomp-nvptx-run must exit
   with that status.  With "abort" it calls abort (a trap on the GPU):
   gomp-nvptx-run must report the failed kernel and exit non-zero.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void __attribute__ ((noinline))
leave (int status)
{
  printf ("sa-exit: leaving with %d\n", status);
  exit (status);
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "abort") == 0)
    {
      printf ("sa-exit: aborting\n");
      abort ();
    }
  leave (argc > 1 ? atoi (argv[1]) : 0);
  return 99;
}
