/* The shared-library half of tests/offload/hs-dso-main.c: offloaded code
   in a shared library that calls the host, on an OpenACC async queue of
   the caller's choosing.  */

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Append N records "lib <i>" to PATH, one write(2) each, from every lane
   of NGANGS gangs, on async queue Q.  */

void
hs_dso_lib_work (int q, const char *path, int n, int ngangs)
{
  size_t len = strlen (path) + 1;
#pragma acc parallel loop gang vector num_gangs(ngangs) vector_length(32) \
	    async(q) copyin(path[0:len])
  for (int i = 0; i < n; i++)
    {
      char rec[32];
      int fd = open (path, O_WRONLY | O_APPEND);
      int k = snprintf (rec, sizeof rec, "lib %d\n", i);
      if (fd >= 0)
	{
	  write (fd, rec, k);
	  close (fd);
	}
    }
}
