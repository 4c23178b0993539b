/* The console from a target region: printf, puts, putchar, fprintf to
   stdout and stderr, and write to file descriptors 1 and 2.  */

/* { dg-do run } */

#include <stdio.h>
#include <unistd.h>

int
main (void)
{
#pragma omp target
  {
    printf ("printf %d\n", 42);
    puts ("puts");
    putchar ('c');
    putchar ('\n');
    fprintf (stdout, "fprintf stdout %s\n", "ok");
    fflush (stdout);
    fprintf (stderr, "fprintf stderr %x\n", 255);
    write (2, "write 2\n", 8);
    write (1, "write 1\n", 8);
  }
  return 0;
}

/* { dg-output "printf 42\r?\n" } */
/* { dg-output "puts\r?\n" } */
/* { dg-output "c\r?\n" } */
/* { dg-output "fprintf stdout ok\r?\n" } */
/* { dg-output "fprintf stderr ff\r?\n" } */
/* { dg-output "write 2\r?\n" } */
/* { dg-output "write 1\r?\n" } */
/* { dg-final { ptx-valid } } */
