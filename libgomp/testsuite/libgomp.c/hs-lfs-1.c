/* With _FILE_OFFSET_BITS=64 glibc's headers rename the file functions to
   their 64-bit forms (fopen64, lseek64, stat64, ...).  */

/* { dg-do run } */
/* { dg-options "-O2 -D_FILE_OFFSET_BITS=64 -fopenmp -foffload=nvptx-none" } */

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int
main (void)
{
  const char path[] = "hs-lfs-1.tmp";
  long long size = -1, at = -1, off = -1;

#pragma omp target map(to: path) map(from: size, at, off)
  {
    struct stat st;
    FILE *f = fopen (path, "w");
    int fd;
    if (f != NULL)
      {
	fputs ("0123456789", f);
	fseeko (f, 4, SEEK_SET);
	at = ftello (f);
	fclose (f);
      }
    if (stat (path, &st) == 0)
      size = st.st_size;
    fd = open (path, O_RDONLY);
    off = lseek (fd, -3, SEEK_END);
    close (fd);
  }
  printf ("size=%lld at=%lld off=%lld\n", size, at, off);
  unlink (path);
  return !(size == 10 && at == 4 && off == 7);
}

/* { dg-output "size=10 at=4 off=7" } */
/* { dg-final { ptx-valid } } */
