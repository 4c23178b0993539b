/* A stand-in for a slow network file system, for the simulated device's
   tests and benchmark.  The program is linked with
   -Wl,--wrap=fstatfs,--wrap=read,--wrap=close: once slow_fs_ms is set, a
   file whose host path contains "slowfs-" is reported by fstatfs as on
   NFS, and every read and close of it first waits slow_fs_ms
   milliseconds, as an NFS client waits for a file server that is slow to
   answer.  The server cannot tell the difference: it sees the file
   system's magic number and a read that takes long.  */

#ifndef SLOW_FS_H
#define SLOW_FS_H 1

#include <string.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

extern int __real_fstatfs (int, struct statfs *);
extern ssize_t __real_read (int, void *, size_t);
extern int __real_close (int);

static volatile int slow_fs_ms;
/* How many reads and closes are waiting in the stand-in right now.  */
static int slow_fs_inside;

static int
slow_fs_fd (int fd)
{
  char link[64], path[4096];
  ssize_t n;
  if (slow_fs_ms == 0)
    return 0;
  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  n = readlink (link, path, sizeof path - 1);
  if (n <= 0)
    return 0;
  path[n] = '\0';
  return strstr (path, "slowfs-") != NULL;
}

static void
slow_fs_wait (void)
{
  struct timespec ts = { slow_fs_ms / 1000, (slow_fs_ms % 1000) * 1000000L };
  __atomic_add_fetch (&slow_fs_inside, 1, __ATOMIC_SEQ_CST);
  nanosleep (&ts, NULL);
  __atomic_sub_fetch (&slow_fs_inside, 1, __ATOMIC_SEQ_CST);
}

int
__wrap_fstatfs (int fd, struct statfs *buf)
{
  int r = __real_fstatfs (fd, buf);
  if (r == 0 && slow_fs_fd (fd))
    buf->f_type = 0x6969;	/* NFS_SUPER_MAGIC.  */
  return r;
}

ssize_t
__wrap_read (int fd, void *p, size_t n)
{
  if (slow_fs_fd (fd))
    slow_fs_wait ();
  return __real_read (fd, p, n);
}

int
__wrap_close (int fd)
{
  if (slow_fs_fd (fd))
    slow_fs_wait ();
  return __real_close (fd);
}

#endif /* SLOW_FS_H */
