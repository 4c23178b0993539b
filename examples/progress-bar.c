/* Demo: a library-style typed host service.  A "progress" service takes
   a fixed-size message, checked on the host before the callback runs;
   device code reports its progress through it and the host draws a
   progress bar while the kernel runs.

   Build:  gomp-gcc -O2 -fopenmp -foffload=nvptx-none progress-bar.c  */

#include <errno.h>
#include <gomp-host-services.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

/* The service's message: what a library would put in its header.  */
struct progress_msg
{
  int32_t done, total;
  char label[24];
};

/* Reject malformed messages before the callback sees them.  */
static int
progress_validate (const void *buf, size_t size, void *user)
{
  const struct progress_msg *m = buf;
  (void) size;
  (void) user;
  if (m->total <= 0 || m->done < 0 || m->done > m->total)
    return ERANGE;
  if (memchr (m->label, '\0', sizeof m->label) == NULL)
    return EINVAL;
  return 0;
}

/* Draw the bar on the host; return how far along it is, in percent.  */
static int64_t
progress_draw (void *buf, size_t size, void *user)
{
  const struct progress_msg *m = buf;
  int width = 40, fill = m->done * width / m->total, i;
  int *last = user;
  (void) size;
  int pct = m->done * 100 / m->total;
  if (pct != *last)
    {
      fprintf (stderr, "\r%s [", m->label);
      for (i = 0; i < width; i++)
	fputc (i < fill ? '#' : '.', stderr);
      fprintf (stderr, "] %3d%%%s", pct, m->done == m->total ? "\n" : "");
      *last = pct;
    }
  return pct;
}

static const struct libgomp_host_type progress_type =
{
  sizeof (struct progress_msg), sizeof (struct progress_msg),
  progress_validate
};

int
main (void)
{
  enum { STEPS = 20 };
  int last = -1, on_host = 1, err = 0;
  int64_t final = 0, bad = 0;
  double acc = 0;

  if (libgomp_host_register_typed ("progress", &progress_type, progress_draw,
				   &last) != 0)
    return 1;

#pragma omp target map(tofrom: acc, final, bad, on_host, err)
  {
    struct progress_msg m = { 0, STEPS, "computing" };
    on_host = omp_is_initial_device ();
    for (int step = 1; step <= STEPS; step++)
      {
	for (int i = 0; i < 100000; i++)
	  acc += 1.0 / (step * 100000.0 + i);
	m.done = step;
	final = libgomp_host_call ("progress", &m, sizeof m, &err);
      }
    /* A message the host refuses: done > total.  */
    m.done = STEPS + 1;
    bad = libgomp_host_call ("progress", &m, sizeof m, &err);
  }

  printf ("host: final progress %lld%%; a bad message was refused: %s\n",
	  (long long) final, bad == -1 && err == ERANGE ? "yes" : "NO");
  printf ("host: the target region ran %s\n",
	  on_host ? "on the host (no GPU found: host fallback)" : "on the GPU");
  libgomp_host_unregister ("progress");
  return !(final == 100 && bad == -1 && err == ERANGE);
}
