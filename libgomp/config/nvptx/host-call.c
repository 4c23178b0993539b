/* Named host services: calls from nvptx device code.
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

/* libgomp_host_call (gomp-host-services.h) on the device: one
   GOMP_HS_OP_HOST_CALL with the name and the buffer as input and the
   buffer, as the host callback left it, as output.  Registering is the
   host's business; there is nothing else here.  */

#include "libgomp.h"
#include "host-service-device.h"
#include "gomp-host-services.h"
#include <errno.h>
#include <string.h>

int64_t
libgomp_host_call (const char *name, void *buf, size_t size, int *err)
{
  int32_t e;
  int64_t r = -1;
  if (name == NULL || (size && buf == NULL))
    e = GOMP_HS_EFAULT;
  else
    {
      size_t nlen = strlen (name) + 1;
      r = gomp_hs_call2 (GOMP_HS_OP_HOST_CALL, nlen, size, 0, name, nlen,
			 buf, size, buf, size, NULL, &e);
    }
  if (err)
    *err = e;
  if (e)
    {
      errno = e;
      return -1;
    }
  return r;
}
