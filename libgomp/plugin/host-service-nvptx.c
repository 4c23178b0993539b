/* Host services for the nvptx plugin: region, device symbol, serving.
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

/* Included by plugin-nvptx.c: the CUDA side of host services
   (host-service.h).  When an image that defines the device runtime's
   __gomp_host_service is loaded, the device gets a region of page-locked
   host memory mapped into its address space (cuMemHostAlloc with
   CU_MEMHOSTALLOC_DEVICEMAP), the image's __gomp_host_service is pointed
   at it, and libgomp's server (host-service.c) serves it on a thread of
   its own while kernels run.  An image without the symbol costs nothing:
   no region, no thread, launches exactly as before.  The server makes no
   CUDA calls, so nothing here touches a kernel's stream.  */

#include "host-service.h"

struct nvptx_hs
{
  void *region;			/* Host address.  */
  CUdeviceptr region_dev;	/* The same memory, as the device sees it.  */
  struct gomp_host_service *server;	/* NULL: host services are off.  */
  unsigned nports, buf_size;
  int images;			/* Loaded images that use it.  */
};

static pthread_mutex_t nvptx_hs_lock = PTHREAD_MUTEX_INITIALIZER;

static void
nvptx_hs_free (struct ptx_device *dev)
{
  struct nvptx_hs *hs = dev->host_service;
  dev->host_service = NULL;
  if (hs == NULL)
    return;
  GOMP_PLUGIN_host_service_fini (hs->server);
  if (hs->region)
    CUDA_CALL_NOCHECK (cuMemFreeHost, hs->region);
  free (hs);
}

/* Create DEV's region and server.  */

static struct nvptx_hs *
nvptx_hs_create (struct ptx_device *dev)
{
  struct nvptx_hs *hs = GOMP_PLUGIN_malloc_cleared (sizeof *hs);
  size_t size = GOMP_PLUGIN_host_service_size ();
  CUresult r;

  dev->host_service = hs;
  if (size == 0)
    {
      GOMP_PLUGIN_debug (0, "  host services are off (GOMP_HOST_SERVICES)\n");
      return hs;
    }
  r = CUDA_CALL_NOCHECK (cuMemHostAlloc, &hs->region, size,
			 CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
  if (r != CUDA_SUCCESS)
    {
      GOMP_PLUGIN_error ("host services: cuMemHostAlloc of %zu bytes: %s",
			 size, cuda_error (r));
      return NULL;
    }
  r = CUDA_CALL_NOCHECK (cuMemHostGetDevicePointer, &hs->region_dev,
			 hs->region, 0);
  if (r != CUDA_SUCCESS)
    {
      GOMP_PLUGIN_error ("host services: host memory is not mapped into"
			 " device %d: %s", dev->ord, cuda_error (r));
      return NULL;
    }
  hs->server = GOMP_PLUGIN_host_service_init (hs->region, size);
  if (hs->server == NULL)
    {
      GOMP_PLUGIN_error ("host services: cannot set up the server");
      return NULL;
    }
  GOMP_PLUGIN_host_service_geometry (hs->server, &hs->nports, &hs->buf_size);
  GOMP_PLUGIN_debug (0, "  host services: device %d: %zu bytes at %p"
		     " (device %p)\n", dev->ord, size, hs->region,
		     (void *) hs->region_dev);
  return hs;
}

/* If MODULE (of IMAGE, on DEV) uses host services, point its
   __gomp_host_service at DEV's region, creating that first.  */

static bool
nvptx_hs_load_image (CUmodule module, struct ptx_device *dev,
		     struct ptx_image_data *image)
{
  CUdeviceptr sym;
  size_t bytes;
  struct nvptx_hs *hs;
  struct gomp_hs_device head;
  CUresult r = CUDA_CALL_NOCHECK (cuModuleGetGlobal, &sym, &bytes, module,
				  GOMP_HS_DEVICE_SYMBOL);
  if (r == CUDA_ERROR_NOT_FOUND)
    return true;
  if (r != CUDA_SUCCESS)
    {
      GOMP_PLUGIN_error ("cuModuleGetGlobal error: %s", cuda_error (r));
      return false;
    }
  if (bytes != sizeof (struct gomp_hs_device))
    {
      GOMP_PLUGIN_error ("host services: the image's %s has %zu bytes, this"
			 " libgomp expects %zu: mismatched device runtime",
			 GOMP_HS_DEVICE_SYMBOL, bytes,
			 sizeof (struct gomp_hs_device));
      return false;
    }

  pthread_mutex_lock (&nvptx_hs_lock);
  hs = dev->host_service;
  if (hs == NULL)
    hs = nvptx_hs_create (dev);
  if (hs == NULL)
    {
      nvptx_hs_free (dev);
      pthread_mutex_unlock (&nvptx_hs_lock);
      return false;
    }
  hs->images++;
  image->host_service = true;
  pthread_mutex_unlock (&nvptx_hs_lock);

  /* Only the head: the locks stay as the module loaded them (zero).  */
  head.region = hs->server ? (uint64_t) hs->region_dev : 0;
  head.nports = hs->nports;
  head.buf_size = hs->buf_size;
  r = CUDA_CALL_NOCHECK (cuMemcpyHtoD, sym, &head,
			 offsetof (struct gomp_hs_device, locks));
  if (r != CUDA_SUCCESS)
    {
      GOMP_PLUGIN_error ("cuMemcpyHtoD error: %s", cuda_error (r));
      return false;
    }
  return true;
}

static void
nvptx_hs_unload_image (struct ptx_device *dev, struct ptx_image_data *image)
{
  if (!image->host_service)
    return;
  pthread_mutex_lock (&nvptx_hs_lock);
  if (dev->host_service && --dev->host_service->images == 0)
    nvptx_hs_free (dev);
  pthread_mutex_unlock (&nvptx_hs_lock);
}

/* A kernel is about to run on DEV / has ended.  While one runs, the
   server polls.  */

static inline void
nvptx_hs_kernel_begin (struct ptx_device *dev)
{
  struct nvptx_hs *hs = dev->host_service;
  /* A launch from a host-service callback would wait for a kernel that
     waits for the callback: refuse it.  */
  if (GOMP_PLUGIN_host_service_in_callback ())
    GOMP_PLUGIN_fatal ("cannot launch a kernel on device %d from a host"
		       " service callback: the device is waiting for the"
		       " callback", dev->ord);
  if (hs && hs->server)
    GOMP_PLUGIN_host_service_kernel_begin (hs->server);
}

static inline void
nvptx_hs_kernel_end (struct ptx_device *dev)
{
  struct nvptx_hs *hs = dev->host_service;
  if (hs && hs->server)
    GOMP_PLUGIN_host_service_kernel_end (hs->server);
}

static void
nvptx_hs_kernel_end_cb (CUstream stream, CUresult status, void *dev)
{
  (void) stream;
  (void) status;
  nvptx_hs_kernel_end ((struct ptx_device *) dev);
}

/* For a launch on STREAM: end the kernel when the stream gets there.  */

static inline void
nvptx_hs_end_on_stream (struct ptx_device *dev, CUstream stream)
{
  struct nvptx_hs *hs = dev->host_service;
  if (hs && hs->server)
    CUDA_CALL_ASSERT (cuStreamAddCallback, stream, nvptx_hs_kernel_end_cb,
		      dev, 0);
}
