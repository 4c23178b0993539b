/* OpenMP reverse offload: target regions with device(ancestor: 1) inside
   a target region run on the host.  Scalars and arrays that live on the
   device (not present: the host gets temporary storage, data goes both
   ways), array sections, firstprivate, a host-only function that
   touches a host-only global, and items the enclosing region mapped
   (present: the host original is used, and data moves only with
   "always").  What a region writes for the device to see lives on the
   device (a mapped item written on the host without "always" stays as
   the device had it).  On a GPU the regions go through host services; without one
   everything runs on the host, where "present" means the same storage.  */

/* { dg-do run } */

#include <omp.h>
#include <stdio.h>

#pragma omp requires reverse_offload

int host_global;		/* Never declared target.  */

static int
host_only (int v)
{
  host_global += v;
  return 2 * v;
}

int
main (void)
{
  int on_dev = 0, loc_after = 0, buf_ok = 0, sect_ok = 0, fp_in = 0;
  int fp_after = 0, pv = 1, pv_seen = 0, pv_dev_after = 0, pa = 1;
  int pa_seen = 0, pa_dev_after = 0, alloc_ok = 0, ok;

#pragma omp target map(from: on_dev, loc_after, buf_ok, sect_ok, fp_in, \
		       fp_after, pv_dev_after, pa_dev_after, alloc_ok) \
		   map(tofrom: pv, pa, pv_seen, pa_seen)
  {
    int loc = 5, buf[8], big[100], fp = 3, tmp[4], i, seen = 0, got = 0;
    int aok = 0;
    on_dev = !omp_is_initial_device ();
    for (i = 0; i < 8; i++)
      buf[i] = i;
    for (i = 0; i < 100; i++)
      big[i] = i;

    /* Device-local data: copied to the host and back.  */
#pragma omp target device(ancestor: 1) map(tofrom: loc, buf)
    {
      int j;
      loc = host_only (loc);
      for (j = 0; j < 8; j++)
	buf[j] *= 3;
    }
    loc_after = loc;
    buf_ok = 1;
    for (i = 0; i < 8; i++)
      buf_ok &= buf[i] == 3 * i;

    /* An array section: only big[10..29] travels.  */
#pragma omp target device(ancestor: 1) map(tofrom: big[10:20])
    {
      int j;
      for (j = 10; j < 30; j++)
	big[j] = -big[j];
    }
    sect_ok = 1;
    for (i = 0; i < 100; i++)
      sect_ok &= big[i] == (i >= 10 && i < 30 ? -i : i);

    /* firstprivate: the host gets a copy; the device's stays.  */
#pragma omp target device(ancestor: 1) firstprivate(fp) map(from: got)
    {
      got = fp;
      fp = 100;
    }
    fp_in = got;
    fp_after = fp;

    /* alloc: host storage, nothing copied either way.  */
    tmp[0] = 42;
#pragma omp target device(ancestor: 1) map(alloc: tmp) map(from: aok)
    {
      tmp[1] = 7;
      aok = tmp[1] == 7;
    }
    alloc_ok = aok && tmp[0] == 42;

    /* Present (mapped by the enclosing region): the host original.  */
    pv = 2;
#pragma omp target device(ancestor: 1) map(tofrom: pv) map(from: seen)
    {
      seen = pv;
      pv = 3;
    }
    pv_seen = seen;
    pv_dev_after = pv;

    /* Present, with always: the device's value goes to the host
       original, and the host's comes back.  */
    pa = 2;
#pragma omp target device(ancestor: 1) map(always, tofrom: pa) \
				      map(from: seen)
    {
      seen = pa;
      pa = 3;
    }
    pa_seen = seen;
    pa_dev_after = pa;
  }

  ok = loc_after == 10 && host_global == 5 && buf_ok && sect_ok
       && fp_in == 3 && fp_after == 3 && alloc_ok;
  printf ("on device: %d; local %d, global %d, arrays %d %d, firstprivate"
	  " %d/%d, alloc %d\n", on_dev, loc_after, host_global, buf_ok,
	  sect_ok, fp_in, fp_after, alloc_ok);
  if (on_dev)
    {
      /* pv: the host original (1) is seen and set to 3; the device keeps
	 2, which the enclosing region then copies back.  pa: always moves
	 2 to the host and 3 back.  */
      printf ("present: seen %d, device after %d, host %d; always: seen %d,"
	      " device after %d, host %d\n", pv_seen, pv_dev_after, pv,
	      pa_seen, pa_dev_after, pa);
      ok &= pv_seen == 1 && pv_dev_after == 2 && pv == 2
	    && pa_seen == 2 && pa_dev_after == 3 && pa == 3;
    }
  else
    /* One storage for all.  */
    ok &= pv_seen == 2 && pv_dev_after == 3 && pv == 3
	  && pa_seen == 2 && pa_dev_after == 3 && pa == 3;
  return !ok;
}

/* { dg-final { ptx-valid } } */
/* { dg-final { ptx-defined GOMP_target_rev } } */
