/* Nesting a reverse-offload region in a target region is what it is for:
   no "target construct inside of target region" warning, unlike other
   nested target regions (which still get it).  */

/* { dg-do compile } */

#pragma omp requires reverse_offload

int x;

void
h (void)
{
#pragma omp target map(tofrom: x)
  {
#pragma omp target device(ancestor: 1) map(tofrom: x)
    x++;
#pragma omp target map(tofrom: x) /* { dg-warning "construct inside of .target. region" } */
    x++;
  }
}
