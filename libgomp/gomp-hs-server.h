/* The host-service server as a library: its interface.
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

/* The server of host services (host-service.h) serves the requests that
   device code writes into a region of host memory the device can reach.
   It makes no call to the offload target's driver: whoever launches the
   kernels -- libgomp's nvptx plugin, the standalone launcher
   gomp-nvptx-run, a simulated device -- allocates the region, tells the
   device where it is, and calls these functions.  libgomp exports them to
   its plugins (GOMP_PLUGIN_1.4); libgomp-hs-server.a has the same code
   for programs without libgomp, and exports nothing else.

   Configuration comes from the environment, read by
   GOMP_PLUGIN_host_service_size: GOMP_HOST_SERVICES (policy),
   GOMP_HOST_SERVICES_PORTS, _BUFFER, _STAGING, _STAGING_MAX, _MAX_FDS,
   _ROOT, _POLL_SLEEP; GOMP_DEBUG=1 traces every call (the manual,
   "Host Services").

   Use:
     size = GOMP_PLUGIN_host_service_size ();   0: host services are off
     REGION = GOMP_PLUGIN_host_service_alloc (SIZE), registered with the
       driver so that the device can read and write it; or, when that
       is NULL, SIZE bytes the device can read and write, zeroed or not,
       that the caller allocates
     s = GOMP_PLUGIN_host_service_init (REGION, SIZE);   NULL: failed
     GOMP_PLUGIN_host_service_geometry (s, &nports, &buf_size);
       the device's struct gomp_hs_device gets them, the region's device
       address and NPORTS struct gomp_hs_port_state in device memory,
       zeroed (host-service.h)
     GOMP_PLUGIN_host_service_device (s, ID);   optional: the libgomp
       device number reverse-offload regions map data from
     for each kernel that may call the host:
       GOMP_PLUGIN_host_service_kernel_begin (s) before it is launched,
       GOMP_PLUGIN_host_service_kernel_end (s) once it has ended (any
       thread; it neither blocks nor calls the driver)
     GOMP_PLUGIN_host_service_shutdown (s);   new calls fail (ECANCELED)
     wait until no kernel runs
     GOMP_PLUGIN_host_service_fini (s);   after it, free REGION
       (GOMP_PLUGIN_host_service_free, if it came from _alloc, once the
       driver has let go of it)

   GOMP_HOST_SERVICES_SERVER=process serves from a helper process
   (libexec/gomp-hs/gomp-hs-serve beside the library, or
   GOMP_HOST_SERVICES_HELPER), which maps the region: it must then come
   from GOMP_PLUGIN_host_service_alloc.  Named host callbacks and
   reverse-offload regions still run in the calling program: the server
   process hands those calls over to the server init returns.

   Named host callbacks (libgomp_host_register and friends) are declared
   in gomp-host-services.h; with the library, the program registers them
   the same way.  A device call to exit ends the host process with the
   device's status, from a server thread, after flushing the device's
   streams (host-service-ops.c).  */

#ifndef GOMP_HS_SERVER_H
#define GOMP_HS_SERVER_H 1

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gomp_host_service;

/* The size of the region to allocate, from the environment; 0 when host
   services are off (GOMP_HOST_SERVICES=off) or misconfigured (said on
   stderr).  */
extern size_t GOMP_PLUGIN_host_service_size (void);

/* With GOMP_HOST_SERVICES_SERVER=process, the region, in memory the
   server's process can map (SIZE rounded up to the page; page
   aligned); NULL otherwise (the caller allocates the region) or on
   failure (said on stderr).  */
extern void *GOMP_PLUGIN_host_service_alloc (size_t);

/* Release a region from GOMP_PLUGIN_host_service_alloc.  */
extern void GOMP_PLUGIN_host_service_free (void *);

/* Lay out REGION (SIZE bytes, SIZE from GOMP_PLUGIN_host_service_size)
   and create its server; NULL, with the reason on stderr, on failure.
   No thread starts before the first kernel.  */
extern struct gomp_host_service *GOMP_PLUGIN_host_service_init (void *,
								 size_t);

/* The number of ports and the bytes of each port's buffer.  */
extern void GOMP_PLUGIN_host_service_geometry (struct gomp_host_service *,
					       unsigned *, unsigned *);

/* The libgomp device number whose mappings reverse-offload regions use
   (-1, the default: none).  */
extern void GOMP_PLUGIN_host_service_device (struct gomp_host_service *,
					     int);

/* A kernel that may call the host is about to be launched; it has
   ended.  */
extern void GOMP_PLUGIN_host_service_kernel_begin (struct gomp_host_service *);
extern void GOMP_PLUGIN_host_service_kernel_end (struct gomp_host_service *);

/* Teardown: refuse new calls and answer pending ones; then, once no
   kernel runs, stop serving and release everything but the region.  */
extern void GOMP_PLUGIN_host_service_shutdown (struct gomp_host_service *);
extern void GOMP_PLUGIN_host_service_fini (struct gomp_host_service *);

/* Nonzero on a thread that is running a device's named host callback,
   which must not wait for the device.  */
extern int GOMP_PLUGIN_host_service_in_callback (void);

#ifdef __cplusplus
}
#endif

#endif /* GOMP_HS_SERVER_H */
