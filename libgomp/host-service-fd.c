/* Host services: the device's file descriptors and path policy.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This file is part of the GNU Offloading and Multi Processing Library
   (libgomp).

   Libgomp is free software; you can redistribute it and/or modify it
   under the terms of the GNU General Public License as published by
   the Free Software Foundation; either version 3, or (at your option)
   any later version.

   Libgomp is distributed in the hope that it will be useful, but WITHOUT ANY
   WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
   FOR A PARTICULAR PURPOSE.  See the GNU General Public License for
   more details.

   Under Section 7 of GPL version 3, you are granted additional
   permissions described in the GCC Runtime Library Exception, version
   3.1, as published by the Free Software Foundation.

   You should have received a copy of the GNU General Public License and
   a copy of the GCC Runtime Library Exception along with this program;
   see the files COPYING3 and COPYING.RUNTIME respectively.  If not, see
   <http://www.gnu.org/licenses/>.  */

/* DESCRIPTORS.  The device sees its own descriptor numbers: 0, 1 and 2
   are the host's standard streams, every other one is a host descriptor
   that device code opened, recorded here.  It can reach nothing else of
   the host process.  At most GOMP_HOST_SERVICES_MAX_FDS of them are open
   at once (default: a quarter of RLIMIT_NOFILE, at most 1024), so device
   code cannot starve the host program of descriptors.

   A call looks its descriptor up once, when it starts, and holds a
   reference to the entry until it ends: if another device thread closes
   the number meanwhile (and opens another file that gets it), the call
   carries on with the file it started with, which the host closes when
   the last call using it ends.

   Each entry also says how I/O on it may block (hs_fd_kind): until a
   peer moves (pipes, FIFOs, terminals, sockets, character devices other
   than the memory devices: HS_FD_STREAM), for as long as a file server
   takes (regular files and directories on file systems that are not
   known to be local: NFS, SMB, Lustre, GPFS, FUSE...: HS_FD_REMOTE), or
   not for long (HS_FD_LOCAL).  Calls that may block are served off the
   poller thread, so a stalled reader or file server never holds up the
   other ports.  A write to a pipe, FIFO, terminal or socket is first
   tried on the poller without blocking (gomp_hs_fd_write_nb): for pipes,
   FIFOs and terminals through a second, non-blocking open file
   description of the same object (the descriptor's own description is
   the host program's too, and its O_NONBLOCK must not change), for
   sockets with MSG_DONTWAIT; only what does not fit goes to a worker.

   PATHS.  Every path the device names is resolved here.  Magic links
   (/proc/PID/fd/N, /dev/fd/N, /proc/PID/cwd, ...) are never followed,
   and nothing on procfs is opened (/proc/PID/mem is a plain file there):
   through them device code could reach the host's own descriptors and
   memory.  With GOMP_HOST_SERVICES_ROOT=DIR, every path resolves beneath
   DIR: relative paths from DIR, absolute ones only if they name DIR or
   something in it; ".." and symbolic links may not leave it (EACCES).
   That is Linux's openat2 with RESOLVE_BENEATH and RESOLVE_NO_MAGICLINKS
   on a descriptor of DIR, and the *at calls on descriptors of parent
   directories resolved the same way.  Where the kernel has no openat2
   (before Linux 5.6), magic links are refused by refusing any path whose
   directory lies on procfs, and with a root every path operation fails
   with ENOSYS (the standard streams and open descriptors still work).
   Where the kernel has Landlock, the worker threads that run path
   operations also restrict themselves to DIR (see gomp_hs_confine_thread):
   Landlock applies per thread, so the rest of the program, the threads
   that run named host callbacks included, is untouched.  Modes of
   created files and directories are masked to 0777.  */

#define _GNU_SOURCE 1
#include "libgomp.h"
#include "host-service-internal.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/magic.h>
#if defined SYS_openat2 && __has_include (<linux/openat2.h>)
#include <linux/openat2.h>
#define HS_HAVE_OPENAT2 1
#endif
#if defined SYS_landlock_create_ruleset && __has_include (<linux/landlock.h>)
#include <linux/landlock.h>
#define HS_HAVE_LANDLOCK 1
#endif
#endif

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif

struct hs_fd
{
  int hfd;			/* The host's descriptor.  */
  int nbfd;			/* Non-blocking description for writes, or -1.  */
  dev_t nb_dev;			/* For 0, 1 and 2: what NBFD was opened on.  */
  ino_t nb_ino;
  int refs;			/* The table's, and calls'.  FD_LOCK.  */
  unsigned char std;		/* 0, 1 or 2: never closed by us.  */
  unsigned char kind;		/* HS_FD_LOCAL, _STREAM or _REMOTE.  */
  unsigned char sock;		/* A socket: MSG_DONTWAIT for NBFD.  */
  unsigned char closed;		/* Already closed by gomp_hs_fd_close.  */
};

/* Whether F_TYPE, a file system's magic number from fstatfs, is one whose
   files live on this machine.  A list of the local ones, not of the
   remote ones: a file system this does not know (a new network or FUSE
   file system) is served as possibly slow, which costs a hand-off per
   call, never a stalled poller.  Overlay counts as local: container
   roots are overlays of local file systems.  */

static int
hs_fs_is_local (unsigned long f_type)
{
  static const unsigned long local[] = {
    0xef53,		/* ext2, ext3, ext4.  */
    0x58465342,		/* XFS.  */
    0x9123683e,		/* Btrfs.  */
    0x01021994,		/* tmpfs.  */
    0x858458f6,		/* ramfs.  */
    0x958458f6,		/* hugetlbfs.  */
    0xf2f52010,		/* F2FS.  */
    0x2fc12fc1,		/* ZFS.  */
    0xca451a4e,		/* bcachefs.  */
    0x794c7630,		/* overlayfs.  */
    0x73717368,		/* squashfs.  */
    0x00009660,		/* ISO 9660.  */
    0x4d44,		/* FAT.  */
    0x2011bab0,		/* exFAT.  */
    0x5346544e,		/* NTFS.  */
    0x3153464a,		/* JFS.  */
    0x52654973,		/* ReiserFS.  */
    0x3434,		/* NILFS.  */
    0x62656572,		/* sysfs.  */
    0x64626720,		/* debugfs.  */
    0x27e0eb,		/* cgroup.  */
    0x63677270,		/* cgroup2.  */
    0xcafe4a11,		/* bpf.  */
    PROC_SUPER_MAGIC,
    0x7366746e,		/* ntfs3.  */
  };
  size_t i;
  for (i = 0; i < sizeof local / sizeof local[0]; i++)
    if ((f_type & 0xffffffffUL) == local[i])
      return 1;
  return 0;
}

/* How I/O on HFD may block (HS_FD_*); *SOCK gets whether it is a socket.  */

static int
hs_fd_kind (int hfd, unsigned char *sock)
{
  struct stat st;
  struct statfs sf;
  *sock = 0;
  if (fstat (hfd, &st) != 0)
    return HS_FD_LOCAL;
  if (S_ISREG (st.st_mode) || S_ISDIR (st.st_mode))
    return (fstatfs (hfd, &sf) == 0 && !hs_fs_is_local (sf.f_type)
	    ? HS_FD_REMOTE : HS_FD_LOCAL);
  if (S_ISBLK (st.st_mode))
    return HS_FD_LOCAL;
  /* /dev/null, /dev/zero, /dev/full, /dev/urandom: the memory devices.  */
  if (S_ISCHR (st.st_mode) && major (st.st_rdev) == 1)
    return HS_FD_LOCAL;
  *sock = S_ISSOCK (st.st_mode) != 0;
  return HS_FD_STREAM;
}

/* Whether a character device of major number MAJ is a terminal: Linux's
   virtual consoles and serial lines (4), /dev/tty and /dev/console (5),
   pseudo-terminals (136-143).  Known by number, so that no other device
   is opened anew or sent an ioctl (opening a device may act on it).  */

static int
hs_tty_major (unsigned maj)
{
  return maj == 4 || maj == 5 || (maj >= 136 && maj <= 143);
}

/* A second, non-blocking open file description of the pipe, FIFO or
   terminal HFD, whose mode is MODE and device RDEV, writable, for the
   poller's attempts; or -1.  Opening /proc/self/fd/N makes a new
   description of the same pipe or terminal (not so for sockets).  Where
   /proc is missing or the thread may not open it, there is none and
   every write goes to a worker, as before.  The descriptor is never one
   of 0, 1 and 2, which the program may reopen.  */

static int
hs_fd_open_nb (int hfd, mode_t mode, dev_t rdev)
{
  char path[32];
  int fd, fl = fcntl (hfd, F_GETFL);
  if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY)
    return -1;
  if (!S_ISFIFO (mode) && !(S_ISCHR (mode) && hs_tty_major (major (rdev))))
    return -1;
  snprintf (path, sizeof path, "/proc/self/fd/%d", hfd);
  fd = open (path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd >= 0 && fd < 3)
    {
      int d = fcntl (fd, F_DUPFD_CLOEXEC, 3);
      close (fd);
      fd = d;
    }
  return fd;
}

static struct hs_fd *
hs_fd_new (int hfd, int std)
{
  struct hs_fd *e = malloc (sizeof *e);
  struct stat st;
  if (e == NULL)
    return NULL;
  e->hfd = hfd;
  e->refs = 1;
  e->std = std;
  e->kind = hs_fd_kind (hfd, &e->sock);
  e->nbfd = -1;
  e->nb_dev = 0;
  e->nb_ino = 0;
  /* The program's own 0, 1 and 2 get theirs when a kernel writes to them
     (gomp_hs_fd_prepare_nb).  */
  if (!std && e->kind == HS_FD_STREAM && !e->sock && fstat (hfd, &st) == 0)
    e->nbfd = hs_fd_open_nb (hfd, st.st_mode, st.st_rdev);
  e->closed = 0;
  return e;
}

/* Set up S's table with the standard streams.  Returns 0 on failure.  */

int
gomp_hs_fd_init (struct gomp_host_service *s)
{
  int i;
  struct rlimit rl;
  unsigned long dflt = 1024;
  if (getrlimit (RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
      && rl.rlim_cur / 4 < dflt)
    dflt = rl.rlim_cur / 4 < 16 ? 16 : rl.rlim_cur / 4;
  s->max_fds = gomp_hs_env_ulong ("GOMP_HOST_SERVICES_MAX_FDS", dflt, 1,
				  1 << 20);
  pthread_mutex_init (&s->fd_lock, NULL);
  s->n_fds = 16;
  s->fds = calloc (s->n_fds, sizeof *s->fds);
  if (s->fds == NULL)
    return 0;
  for (i = 0; i < 3; i++)
    if ((s->fds[i] = hs_fd_new (i, 1)) == NULL)
      return 0;
  return 1;
}

/* Drop a reference to E; the caller holds FD_LOCK.  Returns E if that
   was the last one: the caller then closes and frees it with
   hs_fd_destroy once it has let go of FD_LOCK, since a close may take as
   long as a file server takes (NFS writes back on close), and every
   call's lookup takes FD_LOCK.  */

static struct hs_fd *
hs_fd_unref (struct gomp_host_service *s, struct hs_fd *e)
{
  if (--e->refs != 0)
    return NULL;
  if (!e->std)
    s->open_fds--;
  return e;
}

static void
hs_fd_destroy_now (struct hs_fd *e)
{
  if (!e->std && !e->closed)
    close (e->hfd);
  if (e->nbfd >= 0)
    close (e->nbfd);
  free (e);
}

static void *
hs_fd_close_thread (void *arg)
{
  hs_fd_destroy_now (arg);
  return NULL;
}

/* Close and free E, whose last reference is gone.  The poller does not
   close a descriptor whose close may wait (a socket's lingering, a
   terminal's draining, a network file system's write-back): that
   happens when a call that used it ends on the poller after the device
   has closed it.  A thread of its own does it, or the poller after all
   when no thread can be started.  */

static void
hs_fd_destroy (struct hs_fd *e)
{
  if (e == NULL)
    return;
  if (gomp_hs_on_poller () && !e->std && !e->closed
      && e->kind != HS_FD_LOCAL)
    {
      pthread_t t;
      pthread_attr_t attr;
      int r;
      pthread_attr_init (&attr);
      pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
      r = pthread_create (&t, &attr, hs_fd_close_thread, e);
      pthread_attr_destroy (&attr);
      if (r == 0)
	return;
    }
  hs_fd_destroy_now (e);
}

/* Close every descriptor the device opened, now or, for those that
   calls still use, when they end.  */

void
gomp_hs_fd_close_all (struct gomp_host_service *s)
{
  int i;
  for (i = 0; i < s->n_fds; i++)
    {
      struct hs_fd *e, *d = NULL;
      pthread_mutex_lock (&s->fd_lock);
      if ((e = s->fds[i]) != NULL)
	{
	  s->fds[i] = NULL;
	  if (!e->std)
	    gomp_debug (0, "host-service: closing device fd %d (host fd %d)%s\n",
			i, e->hfd, e->refs > 1 ? " when its calls end" : "");
	  d = hs_fd_unref (s, e);
	}
      pthread_mutex_unlock (&s->fd_lock);
      hs_fd_destroy (d);
    }
}

/* Free the table, empty by now.  */

void
gomp_hs_fd_fini (struct gomp_host_service *s)
{
  free (s->fds);
  s->fds = NULL;
  pthread_mutex_destroy (&s->fd_lock);
}

/* The entry of device descriptor FD, with a reference for the caller, or
   NULL if the device has no such descriptor.  */

struct hs_fd *
gomp_hs_fd_get (struct gomp_host_service *s, int64_t fd)
{
  struct hs_fd *e = NULL;
  if (fd < 0 || fd > INT32_MAX)
    return NULL;
  if (fd > 2 && s->policy < HS_POLICY_READONLY)
    return NULL;
  pthread_mutex_lock (&s->fd_lock);
  if (fd < s->n_fds && (e = s->fds[fd]) != NULL)
    e->refs++;
  pthread_mutex_unlock (&s->fd_lock);
  return e;
}

void
gomp_hs_fd_put (struct gomp_host_service *s, struct hs_fd *e)
{
  struct hs_fd *d;
  if (e == NULL)
    return;
  pthread_mutex_lock (&s->fd_lock);
  d = hs_fd_unref (s, e);
  pthread_mutex_unlock (&s->fd_lock);
  hs_fd_destroy (d);
}

int
gomp_hs_fd_host (const struct hs_fd *e)
{
  return e->hfd;
}

int
gomp_hs_fd_std (const struct hs_fd *e)
{
  return e->std;
}

int
gomp_hs_fd_kind (const struct hs_fd *e)
{
  return e->kind;
}

/* Drop the non-blocking description of E.  */

static void
hs_fd_drop_nb (struct hs_fd *e)
{
  if (e->nbfd >= 0)
    close (e->nbfd);
  e->nbfd = -1;
}

/* Whether gomp_hs_fd_write_nb can try a write to E, getting it ready.
   Called by the poller only, the only thread that uses NBFD (but
   hs_fd_destroy, once the poller is gone).

   The program's own 0, 1 and 2 may have been redirected or closed since
   the server looked at them (dup2, freopen), so each time the
   descriptor is checked to name what NBFD was opened on, without
   waiting for a file server (AT_STATX_DONT_SYNC), and NBFD is opened
   again when it does not.  NBFD is a second writer on the program's pipe
   or terminal: it is kept only while kernels that may call the host run
   (gomp_hs_fd_idle), so that a reader of the pipe sees its end once the
   program has closed it and no such kernel runs.  */

int
gomp_hs_fd_prepare_nb (struct hs_fd *e)
{
  if (e->kind != HS_FD_STREAM)
    return 0;
  if (!e->std)
    return e->nbfd >= 0 || e->sock;
#ifdef STATX_INO
  {
    struct statx sx;
    dev_t dev;
    if (statx (e->hfd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC,
	       STATX_TYPE | STATX_INO, &sx) != 0)
      {
	hs_fd_drop_nb (e);
	return 0;
      }
    dev = makedev (sx.stx_dev_major, sx.stx_dev_minor);
    e->sock = S_ISSOCK (sx.stx_mode) != 0;
    if (e->sock)
      {
	hs_fd_drop_nb (e);
	return 1;
      }
    if (e->nbfd >= 0 && dev == e->nb_dev && sx.stx_ino == e->nb_ino)
      return 1;
    hs_fd_drop_nb (e);
    e->nbfd = hs_fd_open_nb (e->hfd, sx.stx_mode,
			     makedev (sx.stx_rdev_major, sx.stx_rdev_minor));
    e->nb_dev = dev;
    e->nb_ino = sx.stx_ino;
    return e->nbfd >= 0;
  }
#else
  return 0;
#endif
}

/* No kernel that may call the host runs: the poller lets go of the
   second descriptions of the program's 0, 1 and 2.  */

void
gomp_hs_fd_idle (struct gomp_host_service *s)
{
  int i;
  for (i = 0; i < 3; i++)
    {
      struct hs_fd *e = gomp_hs_fd_get (s, i);
      if (e != NULL && e->std)
	hs_fd_drop_nb (e);
      gomp_hs_fd_put (s, e);
    }
}

/* Write up to N bytes at P to E without blocking: what write does, with
   EAGAIN where it would block.  */

ssize_t
gomp_hs_fd_write_nb (const struct hs_fd *e, const void *p, size_t n)
{
  if (e->sock)
    return send (e->hfd, p, n, MSG_DONTWAIT);
  if (e->nbfd >= 0)
    return write (e->nbfd, p, n);
  errno = EAGAIN;
  return -1;
}

/* Record host descriptor HFD as the lowest free device descriptor and
   return that, or -1 (HFD is then not recorded): EMFILE, the device has
   as many open as it may.  */

int
gomp_hs_fd_add (struct gomp_host_service *s, int hfd)
{
  struct hs_fd *e = hs_fd_new (hfd, 0);
  int i;
  if (e == NULL)
    return -1;
  pthread_mutex_lock (&s->fd_lock);
  for (i = 3; i < s->n_fds; i++)
    if (s->fds[i] == NULL)
      break;
  if (s->open_fds >= s->max_fds)
    {
      pthread_mutex_unlock (&s->fd_lock);
      /* The caller closes HFD.  */
      e->closed = 1;
      hs_fd_destroy (e);
      return -1;
    }
  if (i >= s->n_fds)
    {
      int n = 2 * s->n_fds, j;
      struct hs_fd **t = realloc (s->fds, n * sizeof *t);
      if (t == NULL)
	{
	  pthread_mutex_unlock (&s->fd_lock);
	  e->closed = 1;
	  hs_fd_destroy (e);
	  return -1;
	}
      for (j = s->n_fds; j < n; j++)
	t[j] = NULL;
      s->fds = t;
      s->n_fds = n;
    }
  s->fds[i] = e;
  s->open_fds++;
  pthread_mutex_unlock (&s->fd_lock);
  return i;
}

/* Close device descriptor FD: 0, or -1 with errno.  The host's standard
   streams stay open (the device's close of them succeeds); a descriptor
   that calls still use is closed by the host when the last one ends.  */

int
gomp_hs_fd_close (struct gomp_host_service *s, int64_t fd)
{
  struct hs_fd *e, *d = NULL;
  int r = 0;
  if (fd < 0 || fd > INT32_MAX || (fd > 2 && s->policy < HS_POLICY_READONLY))
    {
      errno = EBADF;
      return -1;
    }
  pthread_mutex_lock (&s->fd_lock);
  e = fd < s->n_fds ? s->fds[fd] : NULL;
  if (e == NULL)
    {
      pthread_mutex_unlock (&s->fd_lock);
      errno = EBADF;
      return -1;
    }
  if (!e->std)
    {
      s->fds[fd] = NULL;
      d = hs_fd_unref (s, e);
    }
  pthread_mutex_unlock (&s->fd_lock);
  if (d != NULL)
    {
      /* Nobody else uses it: close now, and report how it went.  */
      int err;
      r = close (d->hfd);
      err = errno;
      d->closed = 1;
      hs_fd_destroy (d);
      errno = err;
    }
  return r;
}

/* Paths.  */

#ifdef HS_HAVE_OPENAT2
static int
hs_openat2 (int dirfd, const char *path, int flags, mode_t mode,
	    uint64_t resolve)
{
  struct open_how how;
  memset (&how, 0, sizeof how);
  how.flags = (uint64_t) (unsigned) flags;
  how.mode = (flags & O_CREAT) ? mode : 0;
  how.resolve = resolve;
  return (int) syscall (SYS_openat2, dirfd, path, &how, sizeof how);
}
#endif

/* Set up S's path policy from the environment.  Returns 0 on failure.  */

int
gomp_hs_path_init (struct gomp_host_service *s)
{
  const char *root = getenv ("GOMP_HOST_SERVICES_ROOT");
  s->root_fd = -1;
  s->root_path = NULL;
  s->landlock_fd = -1;
  s->have_openat2 = 0;
#ifdef HS_HAVE_OPENAT2
  {
    int fd = hs_openat2 (AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC, 0,
			 RESOLVE_NO_MAGICLINKS);
    if (fd >= 0)
      {
	s->have_openat2 = 1;
	close (fd);
      }
  }
#endif
  if (root == NULL || *root == '\0')
    return 1;
  s->root_path = realpath (root, NULL);
  if (s->root_path == NULL
      || (s->root_fd = open (s->root_path, O_PATH | O_DIRECTORY | O_CLOEXEC))
	 < 0)
    {
      gomp_error ("GOMP_HOST_SERVICES_ROOT=%s: %s", root, strerror (errno));
      free (s->root_path);
      s->root_path = NULL;
      return 0;
    }
  if (!s->have_openat2)
    gomp_error ("GOMP_HOST_SERVICES_ROOT=%s: this kernel has no openat2:"
		" device code can use no paths at all", root);
#ifdef HS_HAVE_LANDLOCK
  {
    /* The rights of Landlock's first three ABIs; a kernel that knows
       fewer gets those it knows.  */
    struct landlock_ruleset_attr attr;
    struct landlock_path_beneath_attr rule;
    uint64_t rights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE
		      | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR
		      | LANDLOCK_ACCESS_FS_REMOVE_DIR
		      | LANDLOCK_ACCESS_FS_REMOVE_FILE
		      | LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR
		      | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK
		      | LANDLOCK_ACCESS_FS_MAKE_FIFO
		      | LANDLOCK_ACCESS_FS_MAKE_BLOCK
		      | LANDLOCK_ACCESS_FS_MAKE_SYM;
    long abi = syscall (SYS_landlock_create_ruleset, NULL, 0,
			LANDLOCK_CREATE_RULESET_VERSION);
#ifdef LANDLOCK_ACCESS_FS_REFER
    if (abi >= 2)
      rights |= LANDLOCK_ACCESS_FS_REFER;
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
    if (abi >= 3)
      rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
    if (abi >= 1)
      {
	memset (&attr, 0, sizeof attr);
	attr.handled_access_fs = rights;
	s->landlock_fd = (int) syscall (SYS_landlock_create_ruleset, &attr,
					sizeof attr, 0);
	if (s->landlock_fd >= 0)
	  {
	    memset (&rule, 0, sizeof rule);
	    rule.allowed_access = rights;
	    rule.parent_fd = open (s->root_path, O_PATH | O_CLOEXEC);
	    if (rule.parent_fd < 0
		|| syscall (SYS_landlock_add_rule, s->landlock_fd,
			    LANDLOCK_RULE_PATH_BENEATH, &rule, 0) != 0)
	      {
		close (s->landlock_fd);
		s->landlock_fd = -1;
	      }
	    if (rule.parent_fd >= 0)
	      close (rule.parent_fd);
	  }
      }
    gomp_debug (0, "host-service: root %s; Landlock ABI %ld%s\n",
		s->root_path, abi, s->landlock_fd >= 0 ? ", used" : ", not used");
  }
#endif
  return 1;
}

void
gomp_hs_path_fini (struct gomp_host_service *s)
{
  if (s->root_fd >= 0)
    close (s->root_fd);
  if (s->landlock_fd >= 0)
    close (s->landlock_fd);
  s->root_fd = s->landlock_fd = -1;
  free (s->root_path);
  s->root_path = NULL;
}

/* Restrict the calling thread, which will run path operations for S, to
   S's root with Landlock, if there is a root and the kernel can.  Returns
   whether it did.  */

int
gomp_hs_confine_thread (struct gomp_host_service *s)
{
#ifdef HS_HAVE_LANDLOCK
  if (s->landlock_fd < 0)
    return 0;
  /* Both apply to this thread (and threads it creates) only.  */
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || syscall (SYS_landlock_restrict_self, s->landlock_fd, 0) != 0)
    {
      gomp_debug (0, "host-service: Landlock: %s\n", strerror (errno));
      return 0;
    }
  return 1;
#else
  (void) s;
  return 0;
#endif
}

/* Whether the file open on FD lives on procfs.  */

static int
hs_on_procfs (int fd)
{
  struct statfs sf;
  return fstatfs (fd, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC;
}

/* Where PATH starts from: *DIRFD gets the descriptor to resolve it from
   and the result is PATH relative to it.  NULL with errno if PATH may not
   be used at all.  */

static const char *
hs_path_start (struct gomp_host_service *s, const char *path, int *dirfd)
{
  size_t n;
  *dirfd = AT_FDCWD;
  if (s->root_fd < 0)
    return path;
  if (!s->have_openat2)
    {
      errno = ENOSYS;
      return NULL;
    }
  *dirfd = s->root_fd;
  if (path[0] != '/')
    return path;
  /* An absolute path must name the root or something in it.  */
  n = strlen (s->root_path);
  if (strcmp (s->root_path, "/") == 0)
    n = 0;
  if (strncmp (path, s->root_path, n) != 0
      || (path[n] != '/' && path[n] != '\0'))
    {
      errno = EACCES;
      return NULL;
    }
  path += n;
  while (*path == '/')
    path++;
  return *path ? path : ".";
}

/* Open PATH (relative to DIRFD) with FLAGS and MODE under S's policy.  */

static int
hs_resolve_open (struct gomp_host_service *s, int dirfd, const char *path,
		 int flags, mode_t mode)
{
  int fd;
#ifdef HS_HAVE_OPENAT2
  if (s->have_openat2)
    {
      uint64_t resolve = RESOLVE_NO_MAGICLINKS;
      if (s->root_fd >= 0)
	resolve |= RESOLVE_BENEATH;
      fd = hs_openat2 (dirfd, path, flags, mode, resolve);
      if (fd < 0 && errno == EXDEV)
	errno = EACCES;		/* It would leave the root.  */
      return fd;
    }
#endif
  /* No openat2 (and no root): refuse what lies in a procfs directory,
     where the magic links are.  */
  {
    char *copy = strdup (path), *slash, *dir;
    int dfd, bad;
    if (copy == NULL)
      {
	errno = ENOMEM;
	return -1;
      }
    slash = strrchr (copy, '/');
    if (slash == NULL)
      dir = (char *) ".";
    else
      {
	*slash = '\0';
	dir = slash == copy ? (char *) "/" : copy;
      }
    dfd = openat (dirfd, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    bad = dfd >= 0 && hs_on_procfs (dfd);
    if (dfd >= 0)
      close (dfd);
    free (copy);
    if (bad)
      {
	errno = EACCES;
	return -1;
      }
    return openat (dirfd, path, flags, mode);
  }
}

/* Open PATH for the device with FLAGS (O_CLOEXEC added) and MODE (masked
   to 0777).  A FIFO is opened without blocking the server: for reading a
   non-blocking open succeeds at once and the reads wait for data; for
   writing it fails with ENXIO until there is a reader, and is retried
   until then or shutdown.  Returns the host descriptor or -1 with
   errno.  */

int
gomp_hs_open_path (struct gomp_host_service *s, const char *path, int flags,
		   unsigned mode)
{
  int dirfd, fd;
  const char *p = hs_path_start (s, path, &dirfd);
  if (p == NULL)
    return -1;
  flags |= O_CLOEXEC;
  mode &= 0777;
  for (;;)
    {
      fd = hs_resolve_open (s, dirfd, p, flags | O_NONBLOCK, mode);
      if (fd >= 0 || errno != ENXIO || (flags & O_NONBLOCK))
	break;
      if (gomp_hs_closing (s))
	{
	  errno = ECANCELED;
	  return -1;
	}
      struct timespec ts = { 0, 10000000 };
      nanosleep (&ts, NULL);
    }
  if (fd < 0)
    return -1;
  /* /proc/PID/mem and friends are plain files on procfs.  */
  if (hs_on_procfs (fd))
    {
      close (fd);
      errno = EACCES;
      return -1;
    }
  if (!(flags & O_NONBLOCK)
      && fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK) != 0)
    {
      int e = errno;
      close (fd);
      errno = e;
      return -1;
    }
  return fd;
}

/* Stat PATH (its final symbolic link too, if FOLLOW).  */

int
gomp_hs_stat_path (struct gomp_host_service *s, const char *path,
		   struct stat *st, int follow)
{
  int dirfd, fd, r, e;
  const char *p = hs_path_start (s, path, &dirfd);
  if (p == NULL)
    return -1;
  fd = hs_resolve_open (s, dirfd, p,
			O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW), 0);
  if (fd < 0)
    return -1;
  r = fstat (fd, st);
  e = errno;
  close (fd);
  errno = e;
  return r;
}

/* Check access MODE to PATH.  */

int
gomp_hs_access_path (struct gomp_host_service *s, const char *path, int mode)
{
  int dirfd, fd, r, e;
  const char *p = hs_path_start (s, path, &dirfd);
  if (p == NULL)
    return -1;
  fd = hs_resolve_open (s, dirfd, p, O_PATH | O_CLOEXEC, 0);
  if (fd < 0)
    return -1;
  if (mode == F_OK)
    r = 0;
  else
    r = faccessat (fd, "", mode, AT_EMPTY_PATH);
  e = errno;
  close (fd);
  errno = e;
  return r;
}

/* The directory PATH's last component is in, opened under S's policy
   (*DIRFD, to close), and that component (*BASE, in *COPY, to free).
   Returns 0, or -1 with errno.  "." and ".." cannot be the component
   an operation creates, removes or renames (EINVAL).  */

static int
hs_path_parent (struct gomp_host_service *s, const char *path, int *dirfd,
		const char **base, char **copy)
{
  int start;
  char *c, *slash;
  size_t n;
  const char *p = hs_path_start (s, path, &start), *dir;
  if (p == NULL)
    return -1;
  c = strdup (p);
  if (c == NULL)
    {
      errno = ENOMEM;
      return -1;
    }
  /* Trailing slashes name the same directory entry.  */
  n = strlen (c);
  while (n > 1 && c[n - 1] == '/')
    c[--n] = '\0';
  slash = strrchr (c, '/');
  if (slash == NULL)
    {
      dir = ".";
      *base = c;
    }
  else
    {
      *slash = '\0';
      dir = slash == c ? "/" : c;
      *base = slash + 1;
    }
  if (**base == '\0' || strcmp (*base, ".") == 0 || strcmp (*base, "..") == 0)
    {
      free (c);
      errno = EINVAL;
      return -1;
    }
  *dirfd = hs_resolve_open (s, start, dir, O_PATH | O_DIRECTORY | O_CLOEXEC,
			    0);
  if (*dirfd < 0)
    {
      free (c);
      return -1;
    }
  *copy = c;
  return 0;
}

static int
hs_keep_errno (int r, int fd, char *copy)
{
  int e = errno;
  close (fd);
  free (copy);
  errno = e;
  return r;
}

int
gomp_hs_unlink_path (struct gomp_host_service *s, const char *path)
{
  int fd;
  const char *base;
  char *copy;
  if (hs_path_parent (s, path, &fd, &base, &copy) != 0)
    return -1;
  return hs_keep_errno (unlinkat (fd, base, 0), fd, copy);
}

int
gomp_hs_mkdir_path (struct gomp_host_service *s, const char *path,
		    unsigned mode)
{
  int fd;
  const char *base;
  char *copy;
  if (hs_path_parent (s, path, &fd, &base, &copy) != 0)
    return -1;
  return hs_keep_errno (mkdirat (fd, base, mode & 0777), fd, copy);
}

int
gomp_hs_rename_path (struct gomp_host_service *s, const char *from,
		     const char *to)
{
  int fd1, fd2, r, e;
  const char *b1, *b2;
  char *c1, *c2;
  if (hs_path_parent (s, from, &fd1, &b1, &c1) != 0)
    return -1;
  if (hs_path_parent (s, to, &fd2, &b2, &c2) != 0)
    return hs_keep_errno (-1, fd1, c1);
  r = renameat (fd1, b1, fd2, b2);
  e = errno;
  close (fd1);
  free (c1);
  errno = e;
  return hs_keep_errno (r, fd2, c2);
}
