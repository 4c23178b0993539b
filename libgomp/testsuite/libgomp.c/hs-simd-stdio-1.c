/* printf from the lanes of an "omp simd" loop in a target region.  In a
   SIMT region every lane is a thread of its own: the lanes take turns in
   stdio's critical sections, and each call runs on the lane's own stack,
   which GCC reserves in local memory, -msoft-stack-reserve-local bytes
   of it (128 by default).  stdio needs more: printf on the unbuffered
   stdout runs _vfprintf_r (224 bytes of soft stack), __sbprintf (1216:
   its 1 KiB buffer and a FILE) and _vfprintf_r again down to the host
   call, about 2160 bytes on the deepest chain of the PTX's frames; with
   the default the lanes' stacks overflow.  2560 leaves some room.  */

/* { dg-do run } */
/* { dg-options "-O2 -fopenmp -foffload=nvptx-none -foffload-options=nvptx-none=-msoft-stack-reserve-local=2560" } */

#include <stdio.h>

#define N 32

int
main (void)
{
  int n = 0;

#pragma omp target map(tofrom: n)
  {
#pragma omp simd reduction(+: n)
    for (int i = 0; i < N; i++)
      n += printf ("simd iteration %02d of %d\n", i, N) == 24;
  }
  printf ("printed=%d\n", n);
  return n != N;
}

/* Each line whole, in whatever order the lanes ran.  */
/* { dg-output "(simd iteration \[0-9\]\[0-9\] of 32\r?\n){32}" } */
/* { dg-output "printed=32" } */
/* { dg-final { ptx-valid } } */
