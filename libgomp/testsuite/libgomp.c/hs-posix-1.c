/* POSIX file I/O from a target region: open, write, lseek, read, close,
   stat, rename, unlink, and errno for each kind of failure.  */

/* { dg-do run } */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
main (void)
{
  const char a[] = "hs-posix-1.a.tmp", b[] = "hs-posix-1.b.tmp";
  long wrote = -1, size = -1, end = -1, got = -1;
  int same = 0, renamed = 0, gone = 0, ebadf = 0, enoent = 0, eexist = 0;

#pragma omp target map(to: a, b) \
		   map(from: wrote, size, end, got, same, renamed, gone, \
			     ebadf, enoent, eexist)
  {
    static const char msg[] = "host services\n";
    char buf[32];
    struct stat st;
    int fd = open (a, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd >= 0)
      {
	wrote = write (fd, msg, sizeof msg - 1);
	close (fd);
      }
    if (stat (a, &st) == 0)
      size = st.st_size;
    errno = 0;
    eexist = open (a, O_CREAT | O_EXCL | O_WRONLY, 0644) == -1
	     && errno == EEXIST;
    fd = open (a, O_RDONLY);
    if (fd >= 0)
      {
	end = lseek (fd, 0, SEEK_END);
	lseek (fd, 0, SEEK_SET);
	got = read (fd, buf, sizeof buf);
	same = got == (long) (sizeof msg - 1)
	       && memcmp (buf, msg, sizeof msg - 1) == 0;
	close (fd);
      }
    renamed = rename (a, b) == 0;
    errno = 0;
    enoent = stat (a, &st) == -1 && errno == ENOENT;
    gone = unlink (b) == 0 && unlink (b) == -1 && errno == ENOENT;
    errno = 0;
    ebadf = close (-1) == -1 && errno == EBADF;
  }

  printf ("wrote=%ld size=%ld end=%ld got=%ld same=%d renamed=%d enoent=%d "
	  "gone=%d ebadf=%d eexist=%d\n", wrote, size, end, got, same, renamed,
	  enoent, gone, ebadf, eexist);
  unlink (a);
  unlink (b);
  return !(same && renamed && enoent && gone && ebadf && eexist);
}

/* { dg-output "wrote=14 size=14 end=14 got=14 same=1 renamed=1 enoent=1 gone=1 ebadf=1 eexist=1" } */
/* { dg-final { ptx-valid } } */
/* { dg-final { ptx-defined-once open read write lseek close stat unlink rename } } */
