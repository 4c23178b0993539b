/* Named host services: the registry, and calls made on the host.
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

/* The host side of gomp-host-services.h.  Services are kept in a hash
   table keyed by name (FNV-1a; names are compared in full, so hash
   collisions are harmless).  A call holds a reference to its entry, so an
   entry that is unregistered or replaced while called stays alive until
   its calls return.  The server (host-service.c) runs device calls through
   gomp_host_call_invoke; libgomp_host_call runs host calls (a target
   region on the host) through the same function, so both behave alike.
   The device's libgomp_host_call is config/nvptx/host-call.c.  */

#include "libgomp.h"
#include "host-service.h"
#include "gomp-host-services.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Longest name, with its NUL.  */
#define HC_NAME_MAX	256
/* Largest buffer of a call.  */
#define HC_SIZE_MAX	((size_t) 64 << 20)
#define HC_BUCKETS	64

struct hc_entry
{
  char *name;
  uint64_t hash;
  libgomp_host_fn fn;
  void *user;
  struct libgomp_host_type type;
  int refs;			/* Calls running.  */
  int dead;			/* Out of the table; free at refs == 0...  */
  int waited;			/* ... unless unregister waits to free it.  */
  struct hc_entry *next;
};

static pthread_mutex_t hc_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hc_cond = PTHREAD_COND_INITIALIZER;
static struct hc_entry *hc_table[HC_BUCKETS];

/* Nonzero while this thread runs a callback for a kernel.  */
static __thread int hc_in_callback;

int64_t gomp_host_call_invoke (const char *, void *, size_t, int *, int);
void gomp_host_call_enter (void);
void gomp_host_call_leave (void);
extern int gomp_host_service_off (void);	/* host-service.c.  */

static uint64_t
hc_hash (const char *s)
{
  uint64_t h = 0xcbf29ce484222325ull;
  while (*s)
    h = (h ^ (unsigned char) *s++) * 0x100000001b3ull;
  return h;
}

/* The live entry called NAME, with a pointer to the link to it.  Called
   with HC_LOCK held.  */

static struct hc_entry *
hc_find (const char *name, uint64_t h, struct hc_entry ***link)
{
  struct hc_entry **l = &hc_table[h % HC_BUCKETS];
  for (; *l; l = &(*l)->next)
    if ((*l)->hash == h && strcmp ((*l)->name, name) == 0)
      {
	if (link)
	  *link = l;
	return *l;
      }
  return NULL;
}

static void
hc_free (struct hc_entry *e)
{
  free (e->name);
  free (e);
}

/* Take E out of the table (HC_LOCK held); free it unless it is called.  */

static void
hc_retire (struct hc_entry **link)
{
  struct hc_entry *e = *link;
  *link = e->next;
  e->dead = 1;
  if (e->refs == 0)
    hc_free (e);
}

static int
hc_name_ok (const char *name)
{
  return name != NULL && name[0] != '\0'
	 && strnlen (name, HC_NAME_MAX) < HC_NAME_MAX;
}

int
libgomp_host_register_typed (const char *name,
			     const struct libgomp_host_type *type,
			     libgomp_host_fn fn, void *user)
{
  struct hc_entry *e, **link;
  if (!hc_name_ok (name) || fn == NULL
      || (type && type->max_size && type->min_size > type->max_size))
    {
      errno = EINVAL;
      return -1;
    }
  e = calloc (1, sizeof *e);
  if (e == NULL || (e->name = strdup (name)) == NULL)
    {
      free (e);
      errno = ENOMEM;
      return -1;
    }
  e->hash = hc_hash (name);
  e->fn = fn;
  e->user = user;
  if (type)
    e->type = *type;
  pthread_mutex_lock (&hc_lock);
  if (hc_find (name, e->hash, &link))
    hc_retire (link);
  e->next = hc_table[e->hash % HC_BUCKETS];
  hc_table[e->hash % HC_BUCKETS] = e;
  pthread_mutex_unlock (&hc_lock);
  gomp_debug (0, "host-service: registered %s\n", name);
  return 0;
}

int
libgomp_host_register (const char *name, libgomp_host_fn fn, void *user)
{
  return libgomp_host_register_typed (name, NULL, fn, user);
}

int
libgomp_host_unregister (const char *name)
{
  struct hc_entry *e, **link;
  if (!hc_name_ok (name))
    {
      errno = EINVAL;
      return -1;
    }
  pthread_mutex_lock (&hc_lock);
  e = hc_find (name, hc_hash (name), &link);
  if (e == NULL)
    {
      pthread_mutex_unlock (&hc_lock);
      errno = ENOENT;
      return -1;
    }
  if (e->refs == 0 || hc_in_callback)
    /* From a callback, waiting could be waiting for ourselves: the entry
       goes when its last call returns.  */
    hc_retire (link);
  else
    {
      *link = e->next;
      e->dead = 1;
      e->waited = 1;
      while (e->refs > 0)
	pthread_cond_wait (&hc_cond, &hc_lock);
      hc_free (e);
    }
  pthread_mutex_unlock (&hc_lock);
  gomp_debug (0, "host-service: unregistered %s\n", name);
  return 0;
}

/* Call NAME with SIZE bytes at BUF; *ERR gets 0, or why the call could not
   be made (the result is then -1).  FROM_DEVICE: the call came from a
   kernel, which waits for it.  */

int64_t
gomp_host_call_invoke (const char *name, void *buf, size_t size, int *err,
		       int from_device)
{
  struct hc_entry *e;
  int64_t ret = -1;
  int v = 0;

  pthread_mutex_lock (&hc_lock);
  e = hc_name_ok (name) ? hc_find (name, hc_hash (name), NULL) : NULL;
  if (e == NULL)
    v = ENOENT;
  else if (size > HC_SIZE_MAX
	   || (e->type.max_size && size > e->type.max_size))
    v = EMSGSIZE;
  else if (size < e->type.min_size)
    v = EINVAL;
  else
    e->refs++;
  pthread_mutex_unlock (&hc_lock);
  if (v)
    {
      *err = v;
      return -1;
    }

  if (e->type.validate)
    v = e->type.validate (buf, size, e->user);
  if (v == 0)
    {
      hc_in_callback += from_device;
      ret = e->fn (buf, size, e->user);
      hc_in_callback -= from_device;
    }
  *err = v;

  pthread_mutex_lock (&hc_lock);
  if (--e->refs == 0)
    {
      if (e->dead && !e->waited)
	hc_free (e);
      else
	pthread_cond_broadcast (&hc_cond);
    }
  pthread_mutex_unlock (&hc_lock);
  return v ? -1 : ret;
}

/* A host call from code running on the host.  */

int64_t
libgomp_host_call (const char *name, void *buf, size_t size, int *err)
{
  int e = 0;
  int64_t ret = -1;
  if (name == NULL || (size && buf == NULL))
    e = EFAULT;
  else if (gomp_host_service_off ())
    e = ENOSYS;		/* As on a device.  */
  else
    ret = gomp_host_call_invoke (name, buf, size, &e, 0);
  if (err)
    *err = e;
  if (e)
    errno = e;
  return e ? -1 : ret;
}

/* Around a reverse-offload region that a kernel waits for
   (target-rev.c): it counts as a callback.  */

void
gomp_host_call_enter (void)
{
  hc_in_callback++;
}

void
gomp_host_call_leave (void)
{
  hc_in_callback--;
}

/* Whether this thread is running a host-service callback for a kernel:
   no device work may start then (the kernel waits for the callback).
   libgomp's device constructs and the plugins' launches check it.  */

int
GOMP_PLUGIN_host_service_in_callback (void)
{
  return hc_in_callback != 0;
}
