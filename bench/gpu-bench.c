/* Host services on a real GPU: what calls from target regions cost.  Run
   by bench/gpu-check.sh with OMP_TARGET_OFFLOAD=mandatory, next to
   bench/gpu-baseline.c (the physical limits, measured in the same run)
   and, when built, the same workload under LLVM (bench/gpu-check.sh
   prints the ratios).  Prints one "bench: WHAT VALUE UNIT" line per
   figure:

     null-call 1 thread         round trip of an lseek on /dev/null from
				one device thread (us per call);
     null-call 1 warp/SM        the same from one thread per multiprocessor
				at once (us per call, and calls/s in all);
     null-call all SMs          from 8 OpenMP threads per multiprocessor;
     fprintf lines/s            unbuffered fprintf of short lines from 8
				threads per multiprocessor at once, to a
				file on tmpfs;
     fwrite MB/s, fread MB/s    one 256 MiB fwrite from device memory to a
				file on tmpfs, and its fread back;
     empty target region        the launch of an empty region of this
				image (which uses host services; us);
     first call after idle      a null call after a second without calls
				(us), against a warm one;
     call from every SM after idle  the same from one thread per
				multiprocessor at once (the slowest, us).

   The same source is the LLVM peer's workload (bench/make-llvm-peer.sh
   builds it with clang-19 and LLVM's GPU libc, with HS_BENCH_LLVM
   defined).  LLVM's GPU libc has no POSIX I/O, so there the null call is
   an fseek of a stream on /dev/null (one round trip, like the lseek
   here); its streams have no buffer, so the setvbuf here is what it
   does anyway.  Its printf has no floating point: the lines print
   integers only, on both.

   Usage: gpu-bench [SMS [DIR [MIB]]]  (SMS: multiprocessors, default 132;
   DIR: where the files go, default /dev/shm; MIB: the size of the fwrite
   and the fread, default 256).  */

#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CALLS 2000
#define LINES 200

#pragma omp declare target
#ifdef HS_BENCH_LLVM
static FILE *f_null;
# define NULL_CALL() (fseek (f_null, 0, SEEK_SET) != 0)
#else
static int fd_null;
# define NULL_CALL() (lseek (fd_null, 0, SEEK_SET) != 0)
#endif
#pragma omp end declare target

static double
null_calls (int teams, int threads, int calls, int *bad)
{
  double t0 = omp_get_wtime ();
  int b = 0;
#pragma omp target teams num_teams(teams) thread_limit(threads) \
		   map(tofrom: b) firstprivate(calls)
#pragma omp parallel num_threads(threads) reduction(+: b)
  for (int i = 0; i < calls; i++)
    if (NULL_CALL ())
      b++;
  *bad += b;
  return omp_get_wtime () - t0;
}

int
main (int argc, char **argv)
{
  int sms = argc > 1 ? atoi (argv[1]) : 132;
  const char *dir = argc > 2 ? argv[2] : "/dev/shm";
  int dev = omp_get_default_device ();
  size_t big = (size_t) (argc > 3 ? atoi (argv[3]) : 256) << 20;
  int on_host = 1, bad = 0, fd = -1;
  double t0, empty, t;
  char lines_path[512], big_path[512];
  char *dbuf;
  long wrote = -1, got = -1, nlines = 0;

  snprintf (lines_path, sizeof lines_path, "%s/hs-bench-lines-%d.txt", dir,
	    (int) getpid ());
  snprintf (big_path, sizeof big_path, "%s/hs-bench-big-%d.bin", dir,
	    (int) getpid ());

  /* Warm up: first launch, first call.  */
#pragma omp target map(from: on_host, fd)
  {
    on_host = omp_is_initial_device ();
#ifdef HS_BENCH_LLVM
    f_null = fopen ("/dev/null", "r");
    fd = f_null != NULL;
#else
    fd = open ("/dev/null", O_WRONLY);
#endif
  }
  if (on_host || fd < 0)
    {
      printf ("bench: not on a GPU (on_host=%d fd=%d)\n", on_host, fd);
      return 1;
    }
#ifndef HS_BENCH_LLVM
  fd_null = fd;
#pragma omp target update to(fd_null)
#endif

  t0 = omp_get_wtime ();
  for (int i = 0; i < 200; i++)
    {
#pragma omp target
      ;
    }
  empty = (omp_get_wtime () - t0) / 200;
  printf ("bench: empty target region %.2f us\n", empty * 1e6);

  t = null_calls (1, 1, CALLS, &bad) - empty;
  printf ("bench: null-call 1 thread %.3f us\n", t / CALLS * 1e6);
  t = null_calls (sms, 1, CALLS, &bad) - empty;
  printf ("bench: null-call 1 warp/SM %.3f us\n", t / CALLS * 1e6);
  printf ("bench: null-call 1 warp/SM rate %.0f calls/s\n",
	  (double) sms * CALLS / t);
  t = null_calls (sms, 8, CALLS / 4, &bad) - empty;
  printf ("bench: null-call all SMs %.3f us\n", t / (CALLS / 4) * 1e6);
  printf ("bench: null-call all SMs rate %.0f calls/s\n",
	  (double) sms * 8 * (CALLS / 4) / t);

  /* After a quiet second on the device: the first call's round trip
     against a warm one (the host's poller sleeps between its scans
     meanwhile), from one thread, then from one thread per multiprocessor
     at once (the slowest of them).  */
  {
    double warm = 0, cold = 0, worst = 0;
#pragma omp target map(from: warm, cold) map(tofrom: bad)
    {
      double w0, w1, i0;
      for (int i = 0; i < 100; i++)
	bad += NULL_CALL ();
      w0 = omp_get_wtime ();
      for (int i = 0; i < 100; i++)
	bad += NULL_CALL ();
      w1 = omp_get_wtime ();
      warm = (w1 - w0) / 100;
      i0 = omp_get_wtime ();
      while (omp_get_wtime () - i0 < 1.0)
	;
      w0 = omp_get_wtime ();
      bad += NULL_CALL ();
      cold = omp_get_wtime () - w0;
    }
    printf ("bench: first call after idle %.1f us (warm %.2f us)\n",
	    cold * 1e6, warm * 1e6);
#pragma omp target teams num_teams(sms) thread_limit(1) \
		   map(tofrom: worst, bad)
#pragma omp parallel num_threads(1)
    {
      double i0 = omp_get_wtime (), c0, c;
      int b;
      while (omp_get_wtime () - i0 < 1.0)
	;
      c0 = omp_get_wtime ();
      b = NULL_CALL ();
      c = omp_get_wtime () - c0;
#pragma omp atomic
      bad += b;
#pragma omp critical
      if (c > worst)
	worst = c;
    }
    printf ("bench: call from every SM after idle %.1f us (slowest)\n",
	    worst * 1e6);
  }

  /* fprintf: each team opens the file for appending, unbuffered, and its
     threads share the stream.  */
  close (open (lines_path, O_CREAT | O_TRUNC | O_WRONLY, 0644));
  t0 = omp_get_wtime ();
#pragma omp target teams num_teams(sms) thread_limit(8) \
		   map(to: lines_path) map(tofrom: bad)
  {
    FILE *f = fopen (lines_path, "a");
    if (f == NULL)
      bad++;
    else
      {
#ifndef HS_BENCH_LLVM
	setvbuf (f, NULL, _IONBF, 0);
#endif
#pragma omp parallel num_threads(8)
	for (int i = 0; i < LINES; i++)
	  fprintf (f, "team %d thread %d line %d value %d\n",
		   omp_get_team_num (), omp_get_thread_num (), i, i * 5);
	fclose (f);
      }
  }
  t = omp_get_wtime () - t0 - empty;
  {
    FILE *f = fopen (lines_path, "r");
    char line[128];
    while (f && fgets (line, sizeof line, f))
      nlines += strncmp (line, "team ", 5) == 0;
    if (f)
      fclose (f);
    unlink (lines_path);
  }
  printf ("bench: fprintf lines/s %.0f lines/s (%ld of %ld lines)\n",
	  nlines / t, nlines, (long) sms * 8 * LINES);
  if (nlines != (long) sms * 8 * LINES)
    bad++;

  /* 256 MiB out and back.  */
  dbuf = omp_target_alloc (big, dev);
  if (dbuf == NULL)
    return 1;
#pragma omp target teams distribute parallel for is_device_ptr(dbuf)
  for (size_t i = 0; i < big; i++)
    dbuf[i] = (char) (i * 7);
  t0 = omp_get_wtime ();
#pragma omp target is_device_ptr(dbuf) map(to: big_path) map(from: wrote)
  {
    FILE *f = fopen (big_path, "w");
    wrote = f ? (long) fwrite (dbuf, 1, big, f) : -1;
    if (f)
      fclose (f);
  }
  t = omp_get_wtime () - t0 - empty;
  printf ("bench: fwrite MB/s %.1f MB/s (%ld bytes)\n", big / t / 1e6, wrote);
#pragma omp target teams distribute parallel for is_device_ptr(dbuf)
  for (size_t i = 0; i < big; i++)
    dbuf[i] = 0;
  t0 = omp_get_wtime ();
#pragma omp target is_device_ptr(dbuf) map(to: big_path) map(from: got)
  {
    FILE *f = fopen (big_path, "r");
    got = f ? (long) fread (dbuf, 1, big, f) : -1;
    if (f)
      fclose (f);
  }
  t = omp_get_wtime () - t0 - empty;
  printf ("bench: fread MB/s %.1f MB/s (%ld bytes)\n", big / t / 1e6, got);
  {
    long wrong = 0;
#pragma omp target teams distribute parallel for is_device_ptr(dbuf) \
		   reduction(+: wrong)
    for (size_t i = 0; i < big; i++)
      wrong += dbuf[i] != (char) (i * 7);
    if (wrong)
      printf ("bench: fread: %ld bytes wrong\n", wrong);
    bad += wrong != 0;
  }
  unlink (big_path);
  omp_target_free (dbuf, dev);
#pragma omp target
#ifdef HS_BENCH_LLVM
  fclose (f_null);
#else
  close (fd_null);
#endif
  return bad != 0 || wrote != (long) big || got != (long) big;
}
