/* An executable and a shared library that both offload code calling the
   host, running at once on two OpenACC async queues: two images on one
   device share its host-service region and its one set of port locks.
   Each of their lanes appends records to a file with one write(2) per
   record; every record must arrive whole, exactly once.  Runs on the host
   when there is no GPU.  */

#include <fcntl.h>
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 2048

extern void hs_dso_lib_work (int, const char *, int, int);

static int
count (const char *path, const char *tag, int n)
{
  char line[64];
  int bad = 0, i, *seen = calloc (n, sizeof *seen);
  FILE *f = fopen (path, "r");
  while (f && fgets (line, sizeof line, f))
    {
      char t[8];
      if (sscanf (line, "%7s %d", t, &i) == 2 && strcmp (t, tag) == 0
	  && i >= 0 && i < n && line[strlen (line) - 1] == '\n')
	seen[i]++;
      else
	bad++;
    }
  if (f)
    fclose (f);
  for (i = 0; i < n; i++)
    bad += seen[i] != 1;
  free (seen);
  return bad;
}

int
main (void)
{
  const char exe_path[] = "hs-dso-exe.tmp", lib_path[] = "hs-dso-lib.tmp";
  size_t len = sizeof exe_path;
  int bad;

  close (open (exe_path, O_CREAT | O_TRUNC | O_WRONLY, 0644));
  close (open (lib_path, O_CREAT | O_TRUNC | O_WRONLY, 0644));
#pragma acc parallel loop gang vector num_gangs(8) vector_length(32) \
	    async(1) copyin(exe_path[0:len])
  for (int i = 0; i < N; i++)
    {
      char rec[32];
      int fd = open (exe_path, O_WRONLY | O_APPEND);
      int k = snprintf (rec, sizeof rec, "exe %d\n", i);
      if (fd >= 0)
	{
	  write (fd, rec, k);
	  close (fd);
	}
    }
  hs_dso_lib_work (2, lib_path, N, 8);
  acc_wait_all ();
  bad = count (exe_path, "exe", N) + count (lib_path, "lib", N);
  printf ("hs-dso: %s, %d bad records\n",
	  acc_get_device_type () == acc_device_host ? "host" : "device", bad);
  remove (exe_path);
  remove (lib_path);
  return bad != 0;
}
