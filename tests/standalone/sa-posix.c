/* A standalone nvptx program: POSIX I/O and errno on host files, with
   newlib's headers (gomp-nvptx-abi.h maps the calls whose ABI differs:
   open, stat, fstat, lstat, clock_gettime).  Run as: sa-posix DIR;
   prints "sa-posix: ok" and returns 0, or names the first failed check
   and returns 1.  */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *dir;

static char *
path (const char *name)
{
  static char buf[2][4096];
  static int k;
  k ^= 1;
  snprintf (buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

#define CHECK(C) \
  do { if (!(C)) { printf ("sa-posix: FAILED line %d: %s (errno %d)\n", \
			   __LINE__, #C, errno); return 1; } } while (0)

int
main (int argc, char **argv)
{
  char buf[8192];
  struct stat st;
  struct timespec t0, t1, rt;
  int fd, i;

  CHECK (argc == 2);
  dir = argv[1];
  for (i = 0; i < (int) sizeof buf; i++)
    buf[i] = (char) (i * 7 + 1);

  fd = open (path ("posix-data.bin"), O_CREAT | O_WRONLY | O_TRUNC, 0640);
  CHECK (fd >= 3);
  CHECK (write (fd, buf, sizeof buf) == (ssize_t) sizeof buf);
  CHECK (fstat (fd, &st) == 0 && st.st_size == (off_t) sizeof buf);
  CHECK (S_ISREG (st.st_mode) && (st.st_mode & 0777) == 0640);
  CHECK (close (fd) == 0);

  /* O_EXCL on an existing file: EEXIST.  */
  errno = 0;
  CHECK (open (path ("posix-data.bin"), O_CREAT | O_EXCL | O_WRONLY, 0600)
	 == -1 && errno == EEXIST);
  /* O_TRUNC not asked for: the data stays.  */
  fd = open (path ("posix-data.bin"), O_RDWR);
  CHECK (fd >= 3);
  CHECK (lseek (fd, 4096, SEEK_SET) == 4096);
  memset (buf, 0, 16);
  CHECK (read (fd, buf, 16) == 16);
  for (i = 0; i < 16; i++)
    CHECK (buf[i] == (char) ((4096 + i) * 7 + 1));
  CHECK (lseek (fd, 0, SEEK_END) == (off_t) sizeof buf);
  CHECK (read (fd, buf, 16) == 0);
  CHECK (close (fd) == 0);
  errno = 0;
  CHECK (close (fd) == -1 && errno == EBADF);

  CHECK (stat (path ("posix-data.bin"), &st) == 0
	 && st.st_size == (off_t) sizeof buf);
  CHECK (lstat (path ("posix-data.bin"), &st) == 0 && S_ISREG (st.st_mode));
  errno = 0;
  CHECK (stat (path ("missing"), &st) == -1 && errno == ENOENT);

  CHECK (mkdir (path ("posix-dir"), 0755) == 0);
  errno = 0;
  CHECK (mkdir (path ("posix-dir"), 0755) == -1 && errno == EEXIST);
  CHECK (stat (path ("posix-dir"), &st) == 0 && S_ISDIR (st.st_mode));
  CHECK (rename (path ("posix-data.bin"), path ("posix-dir/moved.bin")) == 0);
  CHECK (access (path ("posix-dir/moved.bin"), R_OK) == 0);
  errno = 0;
  CHECK (access (path ("posix-data.bin"), F_OK) == -1 && errno == ENOENT);
  CHECK (unlink (path ("posix-dir/moved.bin")) == 0);

  /* newlib's clock numbers: REALTIME is the epoch, MONOTONIC goes on.  */
  CHECK (clock_gettime (CLOCK_REALTIME, &rt) == 0 && rt.tv_sec > 1700000000);
  CHECK (clock_gettime (CLOCK_MONOTONIC, &t0) == 0);
  CHECK (clock_gettime (CLOCK_MONOTONIC, &t1) == 0);
  CHECK (t1.tv_sec > t0.tv_sec
	 || (t1.tv_sec == t0.tv_sec && t1.tv_nsec >= t0.tv_nsec));
  CHECK (t0.tv_sec < rt.tv_sec);

  CHECK (isatty (-1) == 0);
  printf ("sa-posix: ok\n");
  return 0;
}
