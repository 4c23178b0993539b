/* device(ancestor: 1) needs "requires reverse_offload" first.  */

/* { dg-do compile } */

void
g (void)
{
#pragma omp target device(ancestor: 1) /* { dg-error "not preceded by .requires. directive with .reverse_offload. clause" } */
  ;
}

/* { dg-error "expected .\\). before .ancestor." "" { target *-*-* } 8 } */
