/* Reverse offload beside an ordinary host thread: while one thread of a
   parallel region runs a target region whose reverse-offload regions
   use an item present on the device, the other thread does "target
   update" on the same device again and again.  On a GPU its update holds
   libgomp's lock of the device while the plugin's synchronous copy waits
   for the running kernel, and the kernel waits for its regions: the
   regions must find their present item without that lock (before issue
   16, item 4, the lookup waited for it and the program stopped after 5 s
   saying "the mappings of device 0 stay locked").  The target region
   keeps running regions until 20 of them ran while the other thread was
   inside an update (at most 3 s).  At the end the device's copy of the
   updated array is read back and must hold what the updater last sent.
   Without a GPU everything runs on the host and the updates do nothing:
   it passes trivially.  */

/* { dg-do run } */

#include <omp.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#pragma omp requires reverse_offload

#define N 64

static int *host_arr;		/* Never declared target.  */
static int updating, overlapped;
static double t_start;

static double
host_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Called from the reverse-offload region R: whether A is the host's
   original, and whether to run another region.  */

static int
host_visit (int *a, int r, int on_dev, int *more)
{
  double t = host_now () - t_start;
  int o = __atomic_load_n (&overlapped, __ATOMIC_RELAXED);
  /* Regions run one after the other, perhaps on different host
     threads.  */
  if (__atomic_load_n (&updating, __ATOMIC_ACQUIRE))
    __atomic_store_n (&overlapped, ++o, __ATOMIC_RELAXED);
  a[r % N]++;
  if (on_dev)
    *more = t < 3.0 && (o < 20 || t < 0.2);
  else
    *more = r < 49;
  return a == host_arr;
}

int
main (void)
{
  int arr[N] = { 0 }, other[N] = { 0 }, sent[N];
  int regions = 0, seen = 0, on_dev = 0, updates = 0, stop = 0;
  int nthreads = 0, i, sum = 0, ok;

  host_arr = arr;
#pragma omp target enter data map(to: arr, other)
  t_start = host_now ();

#pragma omp parallel num_threads(2) shared(stop, updates, nthreads)
  {
    if (omp_get_thread_num () == 0)
      {
	nthreads = omp_get_num_threads ();
#pragma omp target map(from: regions, seen, on_dev)
	{
	  int r = 0, s = 0, more = 1, d = !omp_is_initial_device ();
	  while (more)
	    {
	      int v = 0, m = 0;
#pragma omp target device(ancestor: 1) map(tofrom: arr) map(from: v, m) \
				      map(to: r, d)
	      v = host_visit (arr, r, d, &m);
	      s += v;
	      more = m;
	      r++;
	    }
	  regions = r;
	  seen = s;
	  on_dev = d;
	}
	__atomic_store_n (&stop, 1, __ATOMIC_RELEASE);
      }
    else
      while (!__atomic_load_n (&stop, __ATOMIC_ACQUIRE))
	{
	  /* Never 0, the value the device's copy starts with.  */
	  other[updates % N] = updates + 1;
	  __atomic_store_n (&updating, 1, __ATOMIC_RELEASE);
#pragma omp target update to(other)
	  __atomic_store_n (&updating, 0, __ATOMIC_RELEASE);
	  updates++;
	  /* Let the other thread take the device's lock too.  */
	  usleep (100);
	}
  }

  /* What the updater last sent: element J holds K + 1 for the last
     update K with K % N == J, or 0.  */
  for (i = 0; i < N; i++)
    sent[i] = updates > i ? (updates - 1 - (updates - 1 - i) % N) + 1 : 0;
  ok = 1;
  for (i = 0; i < N; i++)
    ok &= other[i] == sent[i];
  /* On a GPU the device's copy must hold it too: overwrite the host's
     array and copy the device's back.  Had the updates not reached the
     device, its copy would still be the zeros of "enter data" (or an
     older state) and the check would fail.  In host fallback there is no
     other copy: "target update" does nothing and the host's array is
     the one the check above read.  */
  if (on_dev)
    {
      for (i = 0; i < N; i++)
	other[i] = -1;
#pragma omp target update from(other)
      for (i = 0; i < N; i++)
	ok &= other[i] == sent[i];
    }
  if (!ok)
    printf ("no: the device's copy of the updated array is wrong\n");

#pragma omp target exit data map(release: arr, other)
  for (i = 0; i < N; i++)
    sum += arr[i];
  /* Every region changed the host's original (present: not copied).  */
  ok &= regions > 0 && seen == regions && sum == regions;
  if (on_dev)
    {
      printf ("device: %d regions, %d while the other thread was in a"
	      " target update (%d updates)\n", regions, overlapped, updates);
      ok &= nthreads != 2 || (overlapped >= 20 && updates > 0);
    }
  printf ("%s: every region used the host's original\n",
	  seen == regions && sum == regions ? "yes" : "no");
  return !ok;
}

/* { dg-output "yes: every region used the host's original" } */
/* { dg-final { ptx-valid } } */
