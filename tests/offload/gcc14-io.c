/* For the GPU check of the GCC 14 flavour (tests/gcc14-bundle.sh): a
   target region that must run on the device (it says so, and fails
   otherwise) writes a file with fopen/fprintf, reads it back with
   open/read, and prints what it read.  With Debian 13's own runtime the
   file is never written (newlib's nvptx open fails); in host fallback
   the region says it ran on the host, and fails unless the second
   argument is --host-ok (the CPU-only test, tests/unit/gcc14-flavour.sh,
   which checks the PTX instead).  */

#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  const char *path = argc > 1 ? argv[1] : "gcc14-io.txt";
  char back[64] = "";
  int host_ok = argc > 2 && strcmp (argv[2], "--host-ok") == 0;
  int r = -1, on_device = 0;
#pragma omp target map(tofrom: r, back, on_device) map(to: path[:strlen (path) + 1])
  {
    on_device = !omp_is_initial_device ();
    FILE *f = fopen (path, "w");
    r = f ? fprintf (f, "device %d\n", 14) : -2;
    if (f)
      fclose (f);
    int fd = open (path, O_RDONLY);
    if (fd >= 0)
      {
	ssize_t n = read (fd, back, sizeof back - 1);
	back[n > 0 ? n : 0] = 0;
	close (fd);
      }
    printf ("gcc14-io: from the device: %s", back);
  }
  printf ("gcc14-io: %s, fprintf %d, read back \"%.*s\"\n",
	  on_device ? "on the device" : "on the host", r,
	  (int) strcspn (back, "\n"), back);
  return (on_device || host_ok) && r == 10 && strcmp (back, "device 14\n") == 0 ? 0 : 1;
}
