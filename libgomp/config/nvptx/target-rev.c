/* OpenMP reverse offload: target regions with device(ancestor: 1) in
   nvptx device code.
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


/* GOMP_target_rev: the compiler's call in place of a reverse-offload
   region (see ../../target-rev.c for the host side).  The region runs on
   the host through host services (../../target-rev-client.h), called by
   the device thread that reached it.  Outside SIMT regions an OpenMP
   thread is a warp (uniform SIMT): its 32 lanes make the one call
   together and share its copies; the bookkeeping arrays live in the
   warp's shared soft-stack frame, written alike by every lane, and the
   output plan (hs_rev_more) is made by every lane after the copies are
   synchronized.  Inside a SIMT region (a declare target function with a
   region, called from "omp simd") each lane is a thread and a client of
   its own, with its own frame.  Either way the lanes reach the ports
   through hs_callv's loop, whose control is the same in every lane: no
   lane waits for another lane of its warp, whether the warp's lanes run
   in lock step (PTX below sm_70, as libgomp is built) or are scheduled
   independently (host-service-client.h has the argument).  Many device
   threads may be in regions at once, each on its own port, served side
   by side.

   A region that cannot run is an error, never skipped: the kernel stops
   (trap) after saying why, and the host reports the failed launch.  The
   host says why for what it refuses (an unknown region, memory); for
   what only the device knows, the device writes the message itself.  */

#include "libgomp.h"
#include "host-service-device.h"
#include <string.h>
#include <unistd.h>

#define hs_rev_callv(D, OP, ARGS, IN, NIN, SINK, OUT_LEN, ERR) \
  gomp_hs_callv ((OP), (ARGS), (IN), (NIN), (SINK), (OUT_LEN), (ERR))
#include "target-rev-client.h"

/* Referenced by every image that has a reverse-offload region: the
   plugin refuses to load such an image when host services are off,
   rather than let its first region fail.  Not with GCC 14, whose
   GOMP_target_ext links this file into images that may have no such
   region (a declare target function with a target region, called on
   the device): there the plugin tells them by their function table
   (patches/14/libgomp-0004).  The one difference between the GCC
   flavours in this file.  */
#if __GNUC__ < 14
int __gomp_target_rev_used = 1;
#endif

void
GOMP_target_rev (const char *id, int device, size_t mapnum, void **hostaddrs,
		 size_t *sizes, unsigned short *kinds)
{
  static const char bad_device[] = "libgomp: device(ancestor: N) with N "
    "other than 1 in offloaded code\n";
  static const char failed[] = "libgomp: a reverse-offload region could "
    "not run on the host (host services unavailable or out of device "
    "memory)\n";
  int32_t err;

  if (device != 1)
    {
      write (2, bad_device, sizeof bad_device - 1);
      __builtin_trap ();
    }
  err = hs_target_rev (&__gomp_host_service, id, mapnum, hostaddrs, sizes,
		       kinds);
  if (err == 0)
    return;
  /* The host has said why for the errors it found.  */
  if (err == GOMP_HS_ENOSYS || err == GOMP_HS_EPROTO
      || err == GOMP_HS_ENOMEM)
    write (2, failed, sizeof failed - 1);
  __builtin_trap ();
}

/* GCC 14 compiles a region with device(ancestor: 1) as upstream GCC
   does: the device calls GOMP_target_ext with the device address FN of
   the region's function in its image's function table, and the entries
   as GOMP_target_ext receives them (config/nvptx/target.c, patched by
   patches/14/libgomp-0004).  The region runs on the host through host
   services, named by FN (GOMP_HS_REV_BY_FN), as GOMP_target_rev above
   runs GCC 12's: the same client, the same lanes and ports, no lock of
   its own, as many regions in flight as there are device threads, in
   every image.  There is no other way: the plugin does not load an
   image with such regions where host services are off, and a map kind
   that the host does not serve (none that GCC 14 gives a target
   construct) is an error, as in GCC's own gomp_target_rev.  */

void
gomp_target_rev_fn (uint64_t fn, size_t mapnum, void **hostaddrs,
		    size_t *sizes, unsigned short *kinds)
{
  static const char unserved[] = "libgomp: a reverse-offload region has a "
    "map kind that host services do not serve\n";
  static const char off[] = "libgomp: a reverse-offload region could not "
    "run on the host: host services are off\n";
  static const char failed[] = "libgomp: a reverse-offload region could "
    "not run on the host (out of device memory, or a malformed reply)\n";
  int32_t err;
  size_t i;

  for (i = 0; i < mapnum; i++)
    if (gomp_hs_rev_class (gomp_hs_rev_kind (kinds[i])) == 0)
      {
	write (2, unserved, sizeof unserved - 1);
	__builtin_trap ();
      }
  err = hs_target_rev_fn (&__gomp_host_service, fn, mapnum, hostaddrs, sizes,
			  kinds);
  if (err == 0)
    return;
  if (err == GOMP_HS_ENOSYS)
    write (2, off, sizeof off - 1);
  /* The host has said why for the errors it found.  */
  else if (err == GOMP_HS_EPROTO || err == GOMP_HS_ENOMEM)
    write (2, failed, sizeof failed - 1);
  __builtin_trap ();
}
