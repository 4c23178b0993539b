/* A target region that calls nothing on the host links no host-service
   client: the image has no __gomp_host_service, so the plugin allocates
   nothing and starts no server for it.  */

/* { dg-do run } */

int
main (void)
{
  int x = 0;
#pragma omp target map(tofrom: x)
  x += 42;
  return x != 42;
}

/* { dg-final { ptx-valid } } */
/* { dg-final { ptx-not-defined __gomp_host_service gomp_hs_call write } } */
