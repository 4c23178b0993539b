/* Replays the inputs of the fuzz harness (tests/fuzz/hs-fuzz.c) several
   times in one process, without libFuzzer, and checks that memory and
   threads do not grow from pass to pass: what an input allocates and
   keeps reachable (LeakSanitizer only sees what is unreachable) must not
   pile up across inputs.  Measured after each pass: the bytes the
   program has allocated (AddressSanitizer's count, quarantine excluded)
   and the process's threads.  The first pass warms up (the servers'
   port buffers and workers, the harness's tables); every later pass must
   end within 64 KiB (HS_REPLAY_SLACK_KIB) of where the second ended, and
   with no more threads than the first ended with, plus the workers of
   one set of servers.  With fewer than 4096 inputs in all passes (the
   harness re-creates its servers every 4096 inputs, and a server that
   goes is freed by its last worker, a little later), the passes end in
   the same state: 20 passes over 160 inputs find a leak of 24 bytes an
   input.

   Usage: replay PASSES DIR...   Prints PASS:/FAIL: lines.  Link with the
   harness and the server, -fsanitize=fuzzer-no-link,address,undefined.  */

#define _GNU_SOURCE 1
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sanitizer/allocator_interface.h>

int LLVMFuzzerInitialize (int *, char ***);
int LLVMFuzzerTestOneInput (const uint8_t *, size_t);

struct input
{
  uint8_t *data;
  size_t size;
};

static struct input *inputs;
static size_t ninputs, cap;

static void
load_dir (const char *dir)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  if (d == NULL)
    {
      perror (dir);
      exit (2);
    }
  while ((e = readdir (d)) != NULL)
    {
      char path[4096];
      struct stat st;
      FILE *f;
      if (e->d_name[0] == '.')
	continue;
      snprintf (path, sizeof path, "%s/%s", dir, e->d_name);
      if (stat (path, &st) != 0 || !S_ISREG (st.st_mode))
	continue;
      if (ninputs == cap)
	{
	  cap = cap ? 2 * cap : 256;
	  inputs = realloc (inputs, cap * sizeof *inputs);
	  if (inputs == NULL)
	    abort ();
	}
      inputs[ninputs].size = st.st_size;
      inputs[ninputs].data = malloc (st.st_size + 1);
      f = fopen (path, "rb");
      if (f == NULL || inputs[ninputs].data == NULL
	  || fread (inputs[ninputs].data, 1, st.st_size, f)
	     != (size_t) st.st_size)
	{
	  perror (path);
	  exit (2);
	}
      fclose (f);
      ninputs++;
    }
  closedir (d);
}

static int
threads (void)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  int n = -1;
  if (f == NULL)
    return -1;
  while (fgets (line, sizeof line, f))
    if (sscanf (line, "Threads: %d", &n) == 1)
      break;
  fclose (f);
  return n;
}

int
main (int argc, char **argv)
{
  int passes, p, i, ok = 1, t1 = 0, tmax = 0;
  size_t k, b2 = 0, bmax = 0, slack = 64;
  FILE *out;
  const char *v = getenv ("HS_REPLAY_SLACK_KIB");
  if (argc < 3)
    {
      fprintf (stderr, "usage: replay PASSES DIR...\n");
      return 2;
    }
  passes = atoi (argv[1]);
  if (v)
    slack = strtoul (v, NULL, 0);
  for (i = 2; i < argc; i++)
    load_dir (argv[i]);
  /* The harness points descriptor 1 at /dev/null.  */
  out = fdopen (dup (1), "w");
  if (out == NULL)
    return 2;
  setvbuf (out, NULL, _IOLBF, 0);
  {
    static int one = 1;
    static char *none[2], **pa = none;
    none[0] = argv[0];
    LLVMFuzzerInitialize (&one, &pa);
  }
  for (p = 1; p <= passes; p++)
    {
      size_t b;
      int t;
      for (k = 0; k < ninputs; k++)
	LLVMFuzzerTestOneInput (inputs[k].data, inputs[k].size);
      b = __sanitizer_get_current_allocated_bytes ();
      t = threads ();
      fprintf (out, "replay: pass %d: %zu inputs, %zu bytes allocated, %d threads\n",
	      p, ninputs, b, t);
      if (p == 1)
	t1 = t;
      if (p == 2)
	b2 = b;
      if (p >= 2 && b > bmax)
	bmax = b;
      if (t > tmax)
	tmax = t;
    }
  /* A set of servers has at most 4 workers each; 6 servers.  */
  if (passes >= 3)
    {
      ok = bmax <= b2 + slack * 1024 && tmax <= t1 + 24;
      fprintf (out, "%s: fuzz: replaying %zu inputs %d times: allocated"
	       " memory %+.1f KiB from pass 2 on (at most +%zu), threads %d"
	       " -> at most %d\n", ok ? "PASS" : "FAIL", ninputs, passes,
	       ((double) bmax - (double) b2) / 1024.0, slack, t1, tmax);
    }
  fclose (out);
  return !ok;
}
