/* The diagnostics GCC 12.2 already had for reverse-offload regions still
   fire now that the regions are implemented.  */

/* { dg-do compile } */
/* { dg-options "-O2 -fopenmp -foffload=nvptx-none -w" } */

#pragma omp requires reverse_offload

#include <omp.h>

int x;

void
f (void)
{
#pragma omp target
  {
#pragma omp target device(ancestor: 2) /* { dg-error "must evaluate to .1." } */
    x++;
#pragma omp target device(ancestor: 1) nowait /* { dg-error "only the .device., .firstprivate., .private., .defaultmap., and .map. clauses" } */
    x++;
#pragma omp target device(ancestor: 1)
    {
#pragma omp parallel /* { dg-error "OpenMP constructs are not allowed in target region with .ancestor." } */
      x++;
    }
#pragma omp target device(ancestor: 1)
    x = omp_get_thread_num (); /* { dg-error "OpenMP runtime API call .omp_get_thread_num. in a region with .device\\(ancestor\\)." } */
  }
}
