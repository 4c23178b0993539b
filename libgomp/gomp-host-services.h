/* Named host services: the public interface.
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

/* Device code calls a host function by name through libgomp's host
   services; the host registers the functions it offers.

   On the host:
     libgomp_host_register (NAME, FN, USER)
       offer FN under NAME.  FN gets the caller's buffer (a copy of it,
       when called from a device), its size and USER, may read and change
       the buffer, and returns a value that becomes the call's result.
       Registering a name again replaces the function: calls that already
       started finish with the old one.
     libgomp_host_register_typed (NAME, TYPE, FN, USER)
       the same, with argument checks that run before FN is called: the
       buffer's size must lie in [TYPE->min_size, TYPE->max_size] (0 for
       no upper bound) and TYPE->validate, if not NULL, must return 0
       (else its result is the call's errno).  This is how a library adds
       its own typed service.
     libgomp_host_unregister (NAME)
       withdraw NAME; waits for calls to it that have started, and later
       calls fail with ENOENT.
   These return 0, or -1 with errno set (EINVAL, ENOMEM, ENOENT).  They
   are thread-safe and may be called while kernels run, but not from a
   callback.

   In a target region (on the device, or on the host when the region runs
   there) and on the host:
     libgomp_host_call (NAME, BUF, SIZE, &ERR)
       call NAME with the SIZE bytes at BUF (up to 64 MiB), which it may
       change; returns the function's result, with ERR set to 0.  When the
       call cannot be made it returns -1 and sets ERR (and errno): ENOENT,
       no function of that name; EINVAL, EMSGSIZE or a validator's error,
       arguments refused; EFAULT, no name or no buffer; ENOSYS, host
       services off.

   A callback runs on a libgomp thread of the host while the calling
   kernel waits for it.  It may use stdio and the rest of the C library,
   but must not launch work on the device (a target region, an OpenACC
   construct, a copy to or from the device): that waits for the kernel,
   which waits for the callback.  libgomp detects device work started
   from a callback for a kernel and stops the program with an error rather
   than hang.  */

#ifndef GOMP_HOST_SERVICES_H
#define GOMP_HOST_SERVICES_H 1

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int64_t (*libgomp_host_fn) (void *buf, size_t size, void *user);

struct libgomp_host_type
{
  size_t min_size;
  size_t max_size;		/* 0: no bound but libgomp's (64 MiB).  */
  int (*validate) (const void *buf, size_t size, void *user);
};

extern int libgomp_host_register (const char *, libgomp_host_fn, void *);
extern int libgomp_host_register_typed (const char *,
					const struct libgomp_host_type *,
					libgomp_host_fn, void *);
extern int libgomp_host_unregister (const char *);
extern int64_t libgomp_host_call (const char *, void *, size_t, int *);

#ifdef __cplusplus
}
#endif

#endif /* GOMP_HOST_SERVICES_H */
