/* As hs-abi-1.c, for the checking functions that _FORTIFY_SOURCE
   declares.  */

/* { dg-do run } */
/* { dg-options "-O2 -D_GNU_SOURCE -D_FORTIFY_SOURCE=2 -fopenmp -foffload=nvptx-none" } */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main (void)
{
  int n = 0;
#pragma omp target map(from: n)
  {
    void *volatile refs[] = {
      (void *) __printf_chk, (void *) __fprintf_chk, (void *) __vprintf_chk,
      (void *) __vfprintf_chk, (void *) __sprintf_chk,
      (void *) __snprintf_chk, (void *) __vsprintf_chk,
      (void *) __vsnprintf_chk, (void *) __dprintf_chk,
      (void *) __vdprintf_chk, (void *) __asprintf_chk,
      (void *) __vasprintf_chk, (void *) __fgets_chk, (void *) __fread_chk,
      (void *) __fgets_unlocked_chk, (void *) __fread_unlocked_chk,
      (void *) __read_chk, (void *) __open_2, (void *) __open64_2,
      (void *) __mbstowcs_chk, (void *) __wcstombs_chk, (void *) __wctomb_chk
    };
    for (unsigned i = 0; i < sizeof refs / sizeof refs[0]; i++)
      n += refs[i] != 0;
  }
  return n != 22;
}

/* { dg-final { ptx-valid } } */
