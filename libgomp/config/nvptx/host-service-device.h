/* Host services: the nvptx device runtime's internal interface.
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

#ifndef GOMP_NVPTX_HOST_SERVICE_DEVICE_H
#define GOMP_NVPTX_HOST_SERVICE_DEVICE_H 1

#include <stdint.h>
#include "host-service.h"
#include "host-service-seg.h"

/* The device's host services, as the plugin described them.  */
extern struct gomp_hs_device __gomp_host_service;

/* Make a host call (see hs_call in host-service-client.h).  Returns the
   call's result; *ERR gets the host's errno, GOMP_HS_ENOSYS when there is
   no host service.  */
extern int64_t gomp_hs_call (uint32_t op, int64_t a0, int64_t a1, int64_t a2,
			     const void *in, uint64_t in_len, void *out,
			     uint64_t out_cap, uint64_t *out_len,
			     int32_t *err);

/* The same, with the input in two pieces: IN then IN2.  */
extern int64_t gomp_hs_call2 (uint32_t op, int64_t a0, int64_t a1,
			      int64_t a2, const void *in, uint64_t in_len,
			      const void *in2, uint64_t in2_len, void *out,
			      uint64_t out_cap, uint64_t *out_len,
			      int32_t *err);

/* The same, with the input in NIN segments and the output going to OUT
   (host-service-seg.h).  */
extern int64_t gomp_hs_callv (uint32_t op, const int64_t args[4],
			      const struct hs_seg *in, unsigned nin,
			      struct hs_sink *out, uint64_t *out_len,
			      int32_t *err);

#endif /* GOMP_NVPTX_HOST_SERVICE_DEVICE_H */
