/* Host services: the device's file descriptors.
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

/* The device sees its own descriptor numbers: 0, 1 and 2 are the host's
   standard streams, every other one is a host descriptor that device code
   opened, recorded here.  It can reach nothing else of the host process.

   A call looks its descriptor up once, when it starts, and holds a
   reference to the entry until it ends: if another device thread closes
   the number meanwhile (and opens another file that gets it), the call
   carries on with the file it started with, which the host closes when
   the last call using it ends.

   Each entry also says whether I/O on it may block indefinitely (pipes,
   FIFOs, terminals, sockets, character devices other than the memory
   devices): such I/O is served off the poller thread.  */

#define _GNU_SOURCE 1
#include "libgomp.h"
#include "host-service-internal.h"
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct hs_fd
{
  int hfd;			/* The host's descriptor.  */
  int refs;			/* The table's, and calls'.  FD_LOCK.  */
  unsigned char std;		/* 0, 1 or 2: never closed by us.  */
  unsigned char may_block;
  unsigned char closed;		/* Already closed by gomp_hs_fd_close.  */
};

/* Whether I/O on HFD may block indefinitely.  */

static int
hs_fd_blocking_kind (int hfd)
{
  struct stat st;
  if (fstat (hfd, &st) != 0)
    return 0;
  if (S_ISREG (st.st_mode) || S_ISDIR (st.st_mode) || S_ISBLK (st.st_mode))
    return 0;
  /* /dev/null, /dev/zero, /dev/full, /dev/urandom: the memory devices.  */
  if (S_ISCHR (st.st_mode) && major (st.st_rdev) == 1)
    return 0;
  return 1;
}

static struct hs_fd *
hs_fd_new (int hfd, int std)
{
  struct hs_fd *e = malloc (sizeof *e);
  if (e == NULL)
    return NULL;
  e->hfd = hfd;
  e->refs = 1;
  e->std = std;
  e->may_block = hs_fd_blocking_kind (hfd);
  e->closed = 0;
  return e;
}

/* Set up S's table with the standard streams.  Returns 0 on failure.  */

int
gomp_hs_fd_init (struct gomp_host_service *s)
{
  int i;
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

static void
hs_fd_release (struct gomp_host_service *s, struct hs_fd *e)
{
  if (--e->refs == 0)
    {
      if (!e->std)
	{
	  if (!e->closed)
	    close (e->hfd);
	  s->open_fds--;
	}
      free (e);
    }
}

/* Close every descriptor the device opened, now or, for those that
   calls still use, when they end.  */

void
gomp_hs_fd_close_all (struct gomp_host_service *s)
{
  int i;
  pthread_mutex_lock (&s->fd_lock);
  for (i = 0; i < s->n_fds; i++)
    if (s->fds[i])
      {
	struct hs_fd *e = s->fds[i];
	s->fds[i] = NULL;
	if (!e->std)
	  gomp_debug (0, "host-service: closing device fd %d (host fd %d)%s\n",
		      i, e->hfd, e->refs > 1 ? " when its calls end" : "");
	hs_fd_release (s, e);
      }
  pthread_mutex_unlock (&s->fd_lock);
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
  if (e == NULL)
    return;
  pthread_mutex_lock (&s->fd_lock);
  hs_fd_release (s, e);
  pthread_mutex_unlock (&s->fd_lock);
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
gomp_hs_fd_may_block (const struct hs_fd *e)
{
  return e->may_block;
}

/* Record host descriptor HFD as the lowest free device descriptor and
   return that, or -1 (HFD is then not recorded).  */

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
  if (i >= s->n_fds)
    {
      int n = 2 * s->n_fds, j;
      struct hs_fd **t = realloc (s->fds, n * sizeof *t);
      if (t == NULL)
	{
	  pthread_mutex_unlock (&s->fd_lock);
	  free (e);
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
  struct hs_fd *e;
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
      if (e->refs == 1)
	{
	  /* Nobody else uses it: close now, and report how it went.  */
	  r = close (e->hfd);
	  e->closed = 1;
	}
      hs_fd_release (s, e);
    }
  pthread_mutex_unlock (&s->fd_lock);
  return r;
}
