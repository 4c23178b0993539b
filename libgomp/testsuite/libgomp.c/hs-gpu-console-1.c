/* On a GPU: the region really runs on the device, and its console output
   (printf, fprintf to stderr, write to fd 1) reaches the host.  */

/* { dg-do run } */
/* { dg-require-effective-target offload_device_nvptx } */

#include <omp.h>
#include <stdio.h>
#include <unistd.h>

int
main (void)
{
  int on_device = 0;
#pragma omp target map(from: on_device)
  {
    on_device = !omp_is_initial_device ();
    printf ("gpu printf %d\n", on_device);
    fprintf (stderr, "gpu stderr %d\n", 7);
    write (1, "gpu write\n", 10);
  }
  return !on_device;
}

/* { dg-output "gpu printf 1\r?\n" } */
/* { dg-output "gpu stderr 7\r?\n" } */
/* { dg-output "gpu write\r?\n" } */
