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
   (host-service.h), and the per-thread state of the device C library
   (config/nvptx/device-tls.h).

   When an image that defines the device runtime's __gomp_host_service is
   loaded, its device gets, once for all its images: a region of
   page-locked host memory mapped into its address space (cuMemHostAlloc
   with CU_MEMHOSTALLOC_DEVICEMAP), the array of port locks and sequence
   numbers in device memory, and libgomp's server for the region
   (host-service-server.c).  The image's __gomp_host_service is checked
   (size, protocol version) and pointed at them.  Only kernels of such
   images are bracketed for the server; an image without the symbol costs
   nothing: no region, no thread, no event, launches exactly as before.
   The server makes no CUDA calls.  The end of a kernel launched on a
   stream (OpenACC) is learnt from an event, at the plugin's next
   synchronization point, not from a stream callback (see
   nvptx_hs_end_on_stream).

   An image that defines __gomp_nvptx_tls gets a table of per-thread
   states in device memory of its own (its newlib state is its own),
   freed when it is unloaded, and its kernels are bracketed too, so that
   the table's entries are freed whenever none of them runs.

   TEARDOWN (nvptx_hs_free), when the last image that uses host services
   is unloaded or the device is closed -- which exit's atexit handlers do,
   possibly on a host-service worker thread whose callback refused device
   work: the server stops taking calls and answers every pending one with
   an error, so that a kernel still calling the host ends; then the plugin
   waits for the device; then the server stops, and the region and the
   locks are freed.  The waiting and the freeing run in the device's
   context, pushed for the time (the unloading thread may have another
   device's context current, or none).  Kernels hold references to the
   server, so a kernel whose end is told after all this finds it still
   allocated; closing the device tells every end left.  */

#include "host-service.h"
#include "config/nvptx/device-tls.h"

struct nvptx_hs
{
  void *region;			/* Host address.  */
  bool shared;			/* From GOMP_PLUGIN_host_service_alloc,
				   registered (the server's own process
				   maps it too).  */
  CUdeviceptr region_dev;	/* The same memory, as the device sees it.  */
  CUdeviceptr ports_dev;	/* NPORTS struct gomp_hs_port_state.  */
  struct gomp_host_service *server;	/* NULL: host services are off.  */
  unsigned nports, buf_size;
  int images;			/* Loaded images that use it.  */
};

static pthread_mutex_t nvptx_hs_lock = PTHREAD_MUTEX_INITIALIZER;

/* Make DEV's context the calling thread's current one, on top of its
   context stack, for as long as teardown runs: cuCtxSynchronize waits
   only for the current context's work and cuMemFree frees in it, and the
   thread that unloads an image (a library's destructor, after dlclose or
   at exit) or closes a device may have another device's context current,
   or none.  Pushing a context that is already current is harmless.
   Returns false, having said why, when it cannot be done: then nothing
   may be freed (a kernel of DEV may still be running).  */

static bool
nvptx_hs_push_context (struct ptx_device *dev)
{
  CUresult r = CUDA_CALL_NOCHECK (cuCtxPushCurrent, dev->ctx);
  if (r == CUDA_SUCCESS)
    return true;
  GOMP_PLUGIN_error ("host services: cannot make device %d's context"
		     " current to tear down (%s): its memory is not freed",
		     dev->ord, cuda_error (r));
  return false;
}

static void
nvptx_hs_pop_context (void)
{
  CUcontext old;
  CUDA_CALL_NOCHECK (cuCtxPopCurrent, &old);
}

static void
nvptx_hs_free (struct ptx_device *dev)
{
  struct nvptx_hs *hs = dev->host_service;
  dev->host_service = NULL;
  if (hs == NULL)
    return;
  if (!nvptx_hs_push_context (dev))
    {
      /* Keep the server: a kernel may still be calling it.  */
      if (hs->server)
	GOMP_PLUGIN_host_service_shutdown (hs->server);
      return;
    }
  if (hs->server)
    {
      GOMP_PLUGIN_host_service_shutdown (hs->server);
      /* Kernels still calling the host now get errors at once and end:
	 wait for them, so that nothing is freed under a running kernel
	 (and no freeing call below waits for one forever).  */
      CUDA_CALL_NOCHECK (cuCtxSynchronize, );
      GOMP_PLUGIN_host_service_fini (hs->server);
    }
  if (hs->ports_dev)
    CUDA_CALL_NOCHECK (cuMemFree, hs->ports_dev);
  if (hs->region && hs->shared)
    {
      CUDA_CALL_NOCHECK (cuMemHostUnregister, hs->region);
      GOMP_PLUGIN_host_service_free (hs->region);
    }
  else if (hs->region)
    CUDA_CALL_NOCHECK (cuMemFreeHost, hs->region);
  nvptx_hs_pop_context ();
  free (hs);
}

/* Create DEV's region, locks and server.  Returns NULL, with nothing
   left allocated, on failure.  */

static struct nvptx_hs *
nvptx_hs_create (struct ptx_device *dev)
{
  struct nvptx_hs *hs = GOMP_PLUGIN_malloc_cleared (sizeof *hs);
  size_t size = GOMP_PLUGIN_host_service_size ();
  const char *what;
  CUresult r;

  dev->host_service = hs;
  if (size == 0)
    {
      GOMP_PLUGIN_debug (0, "  host services are off (GOMP_HOST_SERVICES)\n");
      return hs;
    }
  /* Shared memory, when the server runs in a process of its own
     (GOMP_HOST_SERVICES_SERVER=process): page-locked and mapped for the
     device by registering it, which the driver API documents for any
     existing host range; the helper's mapping of the same pages sees
     what the device writes.  */
  hs->region = GOMP_PLUGIN_host_service_alloc (size);
  if (hs->region != NULL)
    {
      what = "cuMemHostRegister";
      r = CUDA_CALL_NOCHECK (cuMemHostRegister, hs->region, size,
			     CU_MEMHOSTREGISTER_PORTABLE
			     | CU_MEMHOSTREGISTER_DEVICEMAP);
      if (r != CUDA_SUCCESS)
	{
	  GOMP_PLUGIN_host_service_free (hs->region);
	  hs->region = NULL;
	  goto fail;
	}
      hs->shared = true;
    }
  else
    {
      what = "cuMemHostAlloc";
      r = CUDA_CALL_NOCHECK (cuMemHostAlloc, &hs->region, size,
			     CU_MEMHOSTALLOC_PORTABLE
			     | CU_MEMHOSTALLOC_DEVICEMAP);
      if (r != CUDA_SUCCESS)
	{
	  hs->region = NULL;
	  goto fail;
	}
    }
  what = "cuMemHostGetDevicePointer (is host memory mapped?)";
  r = CUDA_CALL_NOCHECK (cuMemHostGetDevicePointer, &hs->region_dev,
			 hs->region, 0);
  if (r != CUDA_SUCCESS)
    goto fail;
  hs->server = GOMP_PLUGIN_host_service_init (hs->region, size);
  if (hs->server == NULL)
    {
      GOMP_PLUGIN_error ("host services: cannot set up the server");
      goto fail_quiet;
    }
  GOMP_PLUGIN_host_service_geometry (hs->server, &hs->nports, &hs->buf_size);
  GOMP_PLUGIN_host_service_device (hs->server, dev->ord);
  what = "cuMemAlloc";
  r = CUDA_CALL_NOCHECK (cuMemAlloc, &hs->ports_dev,
			 hs->nports * sizeof (struct gomp_hs_port_state));
  if (r != CUDA_SUCCESS)
    {
      hs->ports_dev = 0;
      goto fail;
    }
  what = "cuMemsetD8";
  r = CUDA_CALL_NOCHECK (cuMemsetD8, hs->ports_dev, 0,
			 hs->nports * sizeof (struct gomp_hs_port_state));
  if (r != CUDA_SUCCESS)
    goto fail;
  GOMP_PLUGIN_debug (0, "  host services: device %d: %zu bytes at %p"
		     " (device %p), %u ports\n", dev->ord, size, hs->region,
		     (void *) hs->region_dev, hs->nports);
  return hs;

 fail:
  GOMP_PLUGIN_error ("host services: %s for device %d: %s", what, dev->ord,
		     cuda_error (r));
 fail_quiet:
  nvptx_hs_free (dev);
  return NULL;
}

/* Best effort: make the context's limit WHICH at least BYTES.  */

static void
nvptx_hs_raise_limit (CUlimit which, const char *name, size_t bytes)
{
  size_t cur = 0;
  CUresult r = CUDA_CALL_NOCHECK (cuCtxGetLimit, &cur, which);
  if (r == CUDA_SUCCESS && cur >= bytes)
    return;
  r = CUDA_CALL_NOCHECK (cuCtxSetLimit, which, bytes);
  GOMP_PLUGIN_debug (0, "  host services: %s %zu -> %zu: %s\n", name, cur,
		     bytes, r == CUDA_SUCCESS ? "ok" : cuda_error (r));
}

/* An image's table of per-thread C library state (device-tls.h,
   config/nvptx/reent.c).  Its entries are owned by device threads for
   one epoch (or until the next thread in the owner's hardware slot
   takes one over); the plugin starts a new epoch when it launches a
   kernel of the image that cannot run at the same time as any other of
   its kernels (see nvptx_tls_kernel_begin), which frees every entry at
   once (their owners have all ended by then).  REFS counts the image and its
   kernels that may still run: a kernel's end may be told after the image
   is unloaded.  */

struct nvptx_tls
{
  CUdeviceptr sym;		/* The image's __gomp_nvptx_tls.  */
  CUdeviceptr table;
  /* Under LOCK: the last epoch written; the stream of every kernel
     launched since one was launched while none ran, unless MIXED;
     EPOCH_EV, recorded on the stream of the last epoch's write right
     after it (NULL until the first).  */
  pthread_mutex_t lock;
  uint32_t epoch;
  CUstream stream;
  bool mixed;
  CUevent epoch_ev;
  int refs;
};

/* GOMP_NVPTX_THREAD_STATES: how many device threads of an image may use
   the C library's per-thread state in one kernel, or in kernels that may
   run at the same time; 0 when not set (the default: one per resident
   thread of the device).  */

static uint64_t
nvptx_tls_requested (void)
{
  const char *s = getenv ("GOMP_NVPTX_THREAD_STATES");
  unsigned long long v;
  char *end;

  if (s == NULL || *s == '\0')
    return 0;
  errno = 0;
  v = strtoull (s, &end, 10);
  if (errno != 0 || *end != '\0' || *s < '0' || *s > '9' || v == 0
      || v > GOMP_NVPTX_TLS_MAX_SLOTS)
    {
      GOMP_PLUGIN_error ("GOMP_NVPTX_THREAD_STATES=%s is not a number from 1"
			 " to %u: using the default", s,
			 GOMP_NVPTX_TLS_MAX_SLOTS);
      return 0;
    }
  return v;
}

static void
nvptx_tls_unref (struct nvptx_tls *tls)
{
  if (__atomic_sub_fetch (&tls->refs, 1, __ATOMIC_ACQ_REL) == 0)
    {
      pthread_mutex_destroy (&tls->lock);
      free (tls);
    }
}

/* If MODULE (of IMAGE, on DEV, with NFNS kernels) defines
   __gomp_nvptx_tls, give it its table: one entry per thread the device
   can run at once (every lane: in OpenACC vector code each is a thread),
   or GOMP_NVPTX_THREAD_STATES, and room on the device heap for a state
   per entry.  A table that cannot be set up fails the load, with the
   reason: the device would otherwise have no per-thread state.  */

static bool
nvptx_hs_load_tls (CUmodule module, struct ptx_device *dev,
		   struct ptx_image_data *image, unsigned nfns)
{
  struct gomp_nvptx_tls t;
  struct nvptx_tls *tls;
  CUdeviceptr sym;
  size_t bytes, size = 0;
  uint64_t n = 0, heap;
  const char *what;
  unsigned i;
  CUresult r = CUDA_CALL_NOCHECK (cuModuleGetGlobal, &sym, &bytes, module,
				  GOMP_NVPTX_TLS_SYMBOL);
  if (r == CUDA_ERROR_NOT_FOUND)
    return true;
  if (r == CUDA_SUCCESS && bytes == sizeof t)
    r = CUDA_CALL_NOCHECK (cuMemcpyDtoH, &t, sym, sizeof t);
  if (r != CUDA_SUCCESS)
    {
      GOMP_PLUGIN_error ("%s: %s", GOMP_NVPTX_TLS_SYMBOL, cuda_error (r));
      return false;
    }
  if (bytes != sizeof t || t.version != GOMP_NVPTX_TLS_VERSION
      || t.entry_size == 0 || t.entry_size > 4096)
    {
      GOMP_PLUGIN_error ("the image's %s (%zu bytes, version %u) does not"
			 " match this libgomp's (%zu bytes, version %u):"
			 " mismatched device runtime", GOMP_NVPTX_TLS_SYMBOL,
			 bytes, bytes == sizeof t ? t.version : 0, sizeof t,
			 GOMP_NVPTX_TLS_VERSION);
      return false;
    }
  tls = GOMP_PLUGIN_malloc_cleared (sizeof *tls);
  tls->sym = sym;
  tls->refs = 1;
  pthread_mutex_init (&tls->lock, NULL);
  n = gomp_nvptx_tls_slots (dev->num_sms,
			    dev->max_threads_per_multiprocessor,
			    nvptx_tls_requested ());
  size = n * t.entry_size;
  what = "cuMemAlloc";
  r = CUDA_CALL_NOCHECK (cuMemAlloc, &tls->table, size);
  if (r != CUDA_SUCCESS)
    {
      tls->table = 0;
      goto fail;
    }
  what = "cuMemsetD8";
  r = CUDA_CALL_NOCHECK (cuMemsetD8, tls->table, 0, size);
  if (r != CUDA_SUCCESS)
    goto fail;
  /* Epoch 0 until the first kernel starts one.  */
  t.nslots = n;
  t.epoch = 0;
  t.slots = tls->table;
  what = "cuMemcpyHtoD";
  r = CUDA_CALL_NOCHECK (cuMemcpyHtoD, sym, &t, sizeof t);
  if (r != CUDA_SUCCESS)
    goto fail;
  /* Each thread's state comes from the device heap, which all tables
     of the device share: raise it to what they need together.  The
     total only grows: the states of a table stay on the heap after its
     image is unloaded (nvptx_tls_unload).  */
  pthread_mutex_lock (&nvptx_hs_lock);
  dev->host_tls_heap += gomp_nvptx_tls_heap (n) - GOMP_NVPTX_TLS_HEAP_BASE;
  heap = GOMP_NVPTX_TLS_HEAP_BASE + dev->host_tls_heap;
  pthread_mutex_unlock (&nvptx_hs_lock);
  nvptx_hs_raise_limit (CU_LIMIT_MALLOC_HEAP_SIZE, "device heap", heap);
  image->host_tls = tls;
  for (i = 0; i < nfns; i++)
    image->fns[i].host_tls = tls;
  GOMP_PLUGIN_debug (0, "  %s: %llu entries of %u bytes\n",
		     GOMP_NVPTX_TLS_SYMBOL, (unsigned long long) n,
		     t.entry_size);
  return true;

 fail:
  GOMP_PLUGIN_error ("%s: %s for a table of %llu per-thread states (%zu"
		     " bytes; GOMP_NVPTX_THREAD_STATES sets the number) on"
		     " device %d: %s", GOMP_NVPTX_TLS_SYMBOL, what,
		     (unsigned long long) n, size, dev->ord, cuda_error (r));
  if (tls->table)
    CUDA_CALL_NOCHECK (cuMemFree, tls->table);
  pthread_mutex_destroy (&tls->lock);
  free (tls);
  return false;
}

/* A kernel of TLS's image is about to be launched on DEV, on STREAM.
   Its threads may reuse every entry of the table -- start a new epoch --
   when no other kernel of the image can run at the same time: when none
   runs (REFS is 1), or when all that may still run were launched on
   STREAM, and so end before it starts.  The new epoch is written on
   STREAM, right before the kernel, by a memset of the word (the value is
   an argument of the call: no host buffer to keep alive): it lands after
   those kernels have ended and before this one starts.  EPOCH_EV is
   recorded right after it.

   A kernel launched on another stream while kernels of the image may
   still run (MIXED) starts no epoch, but it might otherwise start before
   the last epoch's write has landed: its threads would then claim
   entries in the old epoch, and the write would free them under them.
   So its stream first waits for EPOCH_EV (cuStreamWaitEvent: the device
   waits, the host does not).  That also waits for what was queued
   before the write on the write's stream, which had to end before the
   kernels of that epoch started anyway.

   Why this is sound: a kernel launched before the last launch that found
   REFS at 1 had ended by then, so the kernels that may run are among
   those launched since, which are all on STREAM unless MIXED.  REFS, the
   epoch, STREAM and EPOCH_EV are read and changed under the lock, by
   launches only; telling a kernel's end (which may come late) only lowers
   REFS, and reading a stale higher value only means that no new epoch
   starts this time.  */

static void
nvptx_tls_kernel_begin (struct ptx_device *dev, struct nvptx_tls *tls,
			CUstream stream)
{
  bool idle, renew;
  const char *what = NULL;
  CUresult r = CUDA_SUCCESS;

  pthread_mutex_lock (&tls->lock);
  idle = __atomic_load_n (&tls->refs, __ATOMIC_ACQUIRE) == 1;
  if (idle)
    {
      tls->stream = stream;
      tls->mixed = false;
    }
  else if (stream != tls->stream)
    tls->mixed = true;
  renew = idle || !tls->mixed;
  if (renew)
    {
      uint32_t epoch = gomp_nvptx_tls_next_epoch (tls->epoch);
      what = "cuEventCreate";
      if (tls->epoch_ev == NULL)
	r = CUDA_CALL_NOCHECK (cuEventCreate, &tls->epoch_ev,
			       CU_EVENT_DISABLE_TIMING);
      if (r == CUDA_SUCCESS)
	{
	  what = "cuMemsetD32Async";
	  r = CUDA_CALL_NOCHECK (cuMemsetD32Async,
				 tls->sym + offsetof (struct gomp_nvptx_tls,
						      epoch),
				 epoch, 1, stream);
	}
      if (r == CUDA_SUCCESS)
	{
	  what = "cuEventRecord";
	  r = CUDA_CALL_NOCHECK (cuEventRecord, tls->epoch_ev, stream);
	}
      tls->epoch = epoch;
    }
  else if (stream != tls->stream && tls->epoch_ev != NULL)
    {
      what = "cuStreamWaitEvent";
      r = CUDA_CALL_NOCHECK (cuStreamWaitEvent, stream, tls->epoch_ev, 0);
    }
  if (r != CUDA_SUCCESS)
    {
      pthread_mutex_unlock (&tls->lock);
      GOMP_PLUGIN_fatal ("%s: cannot order a kernel after the start of its"
			 " epoch on device %d: %s: %s", GOMP_NVPTX_TLS_SYMBOL,
			 dev->ord, what, cuda_error (r));
    }
  __atomic_add_fetch (&tls->refs, 1, __ATOMIC_ACQ_REL);
  pthread_mutex_unlock (&tls->lock);
}

/* TLS's image is being unloaded from DEV, or DEV closed.  The table is
   freed; the struct _reent its entries point to are not: freeing them
   would need a kernel of the image, which teardown must not launch (the
   image is going, the context may be).  They stay on the device heap
   until the context is destroyed, and DEV->host_tls_heap keeps counting
   them.  */

static void
nvptx_tls_unload (struct ptx_device *dev, struct nvptx_tls *tls)
{
  /* Freeing device memory waits for the kernels that may use it.  */
  if (nvptx_hs_push_context (dev))
    {
      CUDA_CALL_NOCHECK (cuMemFree, tls->table);
      if (tls->epoch_ev)
	CUDA_CALL_NOCHECK (cuEventDestroy, tls->epoch_ev);
      tls->epoch_ev = NULL;
      nvptx_hs_pop_context ();
    }
  nvptx_tls_unref (tls);
}

/* The per-thread hardware stack that an image whose __gomp_host_service
   is HEAD needs, or 0 for no change.  Whether host services are on does
   not matter: with them off (GOMP_HOST_SERVICES=off, or a region that
   could not be set up) the device's printf still runs newlib's vfprintf
   down to the write that fails with ENOSYS, and that path is the deepest
   (about 3.1 KiB in OpenACC code; config/nvptx/host-service.c).  The
   device's value is bounded: CUDA reserves the stack for every resident
   thread.  */

#define NVPTX_HS_STACK_MAX (64 * 1024)

static size_t
nvptx_hs_stack_bytes (const struct gomp_hs_device *head)
{
  if (head->stack > NVPTX_HS_STACK_MAX)
    {
      GOMP_PLUGIN_debug (0, "  host services: the image asks for a %u-byte"
			 " stack; using %u\n", head->stack,
			 NVPTX_HS_STACK_MAX);
      return NVPTX_HS_STACK_MAX;
    }
  return head->stack;
}

/* Whether MODULE defines the global NAME.  */

static bool
nvptx_hs_has_symbol (CUmodule module, const char *name)
{
  CUdeviceptr sym;
  size_t bytes;
  return CUDA_CALL_NOCHECK (cuModuleGetGlobal, &sym, &bytes, module,
			    name) == CUDA_SUCCESS;
}

/* An image with reverse-offload regions is being loaded on DEV, whose
   host services are off: its regions could only fail.  */

static void
nvptx_hs_target_rev_off (struct ptx_device *dev)
{
  GOMP_PLUGIN_error ("host services: this program has reverse-offload"
		     " regions (target device(ancestor: 1)), which run"
		     " through host services, but host services are off or"
		     " unavailable on device %d", dev->ord);
}

/* Whether DEV serves reverse-offload regions, once an image that has
   them is loaded (GCC 14, which tells them by the image's function
   table: patches/14/libgomp-0004); says why not.  */

static bool __attribute__ ((unused))
nvptx_hs_serves_target_rev (struct ptx_device *dev)
{
  bool on;
  pthread_mutex_lock (&nvptx_hs_lock);
  on = dev->host_service != NULL && dev->host_service->server != NULL;
  pthread_mutex_unlock (&nvptx_hs_lock);
  if (!on)
    nvptx_hs_target_rev_off (dev);
  return on;
}

/* If MODULE (of IMAGE, on DEV, with NFNS kernels) uses host services,
   point its __gomp_host_service at DEV's, creating that first.  */

static bool
nvptx_hs_load_image (CUmodule module, struct ptx_device *dev,
		     struct ptx_image_data *image, unsigned nfns)
{
  CUdeviceptr sym;
  size_t bytes;
  struct nvptx_hs *hs;
  struct gomp_hs_device head;
  CUresult r;
  unsigned i;
  size_t stack;

  if (!nvptx_hs_load_tls (module, dev, image, nfns))
    return false;
  r = CUDA_CALL_NOCHECK (cuModuleGetGlobal, &sym, &bytes, module,
			 GOMP_HS_DEVICE_SYMBOL);
  if (r == CUDA_ERROR_NOT_FOUND)
    return true;
  if (r != CUDA_SUCCESS)
    {
      GOMP_PLUGIN_error ("cuModuleGetGlobal error: %s", cuda_error (r));
      return false;
    }
  if (bytes == sizeof head)
    r = CUDA_CALL_NOCHECK (cuMemcpyDtoH, &head, sym, sizeof head);
  if (r != CUDA_SUCCESS)
    {
      GOMP_PLUGIN_error ("cuMemcpyDtoH error: %s", cuda_error (r));
      return false;
    }
  if (bytes != sizeof head || head.version != GOMP_HS_VERSION)
    {
      GOMP_PLUGIN_error ("host services: the image's %s (%zu bytes, protocol"
			 " %u) does not match this libgomp's (%zu bytes,"
			 " protocol %u): mismatched device runtime",
			 GOMP_HS_DEVICE_SYMBOL, bytes,
			 bytes == sizeof head ? head.version : 0,
			 sizeof head, GOMP_HS_VERSION);
      return false;
    }

  pthread_mutex_lock (&nvptx_hs_lock);
  hs = dev->host_service;
  if (hs == NULL && (hs = nvptx_hs_create (dev)) == NULL)
    {
      pthread_mutex_unlock (&nvptx_hs_lock);
      return false;
    }
  if (hs->server == NULL
      && nvptx_hs_has_symbol (module, "__gomp_target_rev_used"))
    {
      /* Its regions could only fail: say so now.  */
      nvptx_hs_target_rev_off (dev);
      if (hs->images == 0)
	nvptx_hs_free (dev);
      pthread_mutex_unlock (&nvptx_hs_lock);
      return false;
    }
  head.nports = hs->server ? hs->nports : 0;
  head.buf_size = hs->buf_size;
  head.region = hs->server ? (uint64_t) hs->region_dev : 0;
  head.ports = hs->server ? (uint64_t) hs->ports_dev : 0;
  r = CUDA_CALL_NOCHECK (cuMemcpyHtoD, sym, &head, sizeof head);
  if (r != CUDA_SUCCESS)
    {
      GOMP_PLUGIN_error ("cuMemcpyHtoD error: %s", cuda_error (r));
      if (hs->images == 0)
	nvptx_hs_free (dev);
      pthread_mutex_unlock (&nvptx_hs_lock);
      return false;
    }
  /* Only now is the image counted.  */
  hs->images++;
  image->host_service = true;
  pthread_mutex_unlock (&nvptx_hs_lock);

  for (i = 0; i < nfns; i++)
    {
      int local = -1;
      image->fns[i].host_service = true;
      CUDA_CALL_NOCHECK (cuFuncGetAttribute, &local,
			 CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, image->fns[i].fn);
      GOMP_PLUGIN_debug (0, "  host services: kernel %s: %d bytes of local"
			 " memory per thread\n", image->fns[i].launch->fn,
			 local);
    }
  /* Threads on the hardware stack need room for stdio there.  */
  stack = nvptx_hs_stack_bytes (&head);
  if (stack)
    nvptx_hs_raise_limit (CU_LIMIT_STACK_SIZE, "stack", stack);
  return true;
}

/* What a launch of a kernel whose image uses host services or per-thread
   state must tell when the kernel has ended.  A launch on a stream
   (nvptx_hs_end_on_stream) also records, until it is told: its device
   and stream, the event recorded on the stream right after the kernel,
   and the next such launch.  */

struct nvptx_hs_launch
{
  struct gomp_host_service *server;
  struct nvptx_tls *tls;
  struct ptx_device *dev;
  CUstream stream;
  CUevent ev;
  struct nvptx_hs_launch *next;
};

/* Launches on a stream whose end is not known yet, in the order their
   events were recorded (ENDING, with ENDING_TAIL its last link); and
   records of ended ones whose event is kept for a later launch of the
   same device (SPARE).  Under ENDING_LOCK, which is held only for calls
   that neither block nor wait for the device (cuEventRecord,
   cuEventQuery, cuEventCreate, and the ends, which do not block).

   WHY NO STREAM CALLBACK.  A host function on a stream holds up
   everything queued behind it on that stream until a host thread has
   run it: one host round trip after every kernel, so no copy or kernel
   queued behind overlaps the host's part.  An event costs the stream
   nothing.  The cost moves to the host, and is small: the end of a
   launch is learnt late -- when the plugin next launches a kernel, or
   synchronizes with the device or an async queue, or tests one
   (nvptx_hs_reap) -- and until then the server counts the kernel as
   running.  That is safe:
     - the server's poller keeps scanning, at its idle pace, as it does
       while a kernel computes without calling the host (its only cost
       is the wake-ups);
     - a call that a kernel abandoned midway stays in its port until
       then, and a FIRST request on that port starts a new call anyway
       (host-service.h), so no later kernel can continue it;
     - the second, non-blocking open of the program's stdout or stderr
       that the poller writes pipes through (host-service-fd.c) stays
       open until then too: a reader of that pipe sees its end only after
       the program's next launch, wait or teardown;
     - the per-thread state table starts a new epoch only when no kernel
       of its image may run (nvptx_tls_kernel_begin): a late end only
       means that one launch does not start one;
     - the server and the table are reference counted, so a launch ended
       after teardown finds them allocated, and teardown ends every
       launch of the device itself (nvptx_hs_reap_device).  */

static pthread_mutex_t nvptx_hs_ending_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nvptx_hs_launch *nvptx_hs_ending;
static struct nvptx_hs_launch **nvptx_hs_ending_tail = &nvptx_hs_ending;
static struct nvptx_hs_launch *nvptx_hs_spare;
/* How many launches are on ENDING: changed under ENDING_LOCK, read
   without it (atomically) to skip a reap when there is nothing to reap;
   a stale count only delays an end.  */
static unsigned nvptx_hs_nending;

/* Tell the server and the table of LAUNCH that its kernel has ended.
   Neither blocks nor calls CUDA.  */

static void
nvptx_hs_tell_end (struct nvptx_hs_launch *launch)
{
  if (launch->server)
    GOMP_PLUGIN_host_service_kernel_end (launch->server);
  if (launch->tls)
    nvptx_tls_unref (launch->tls);
  launch->server = NULL;
  launch->tls = NULL;
}

/* At most this many streams are remembered as still busy during one
   reap; with more, the launches of the others are each queried.  */
#define NVPTX_HS_BUSY_STREAMS 32

/* End every launch on DEV whose event has completed: all of them when
   ALL (the caller has waited for the device to be idle).  Launches on
   one stream end in the order they were queued, so once one of a
   stream's is found still running, the later ones on that stream are
   not queried.  Only an event that says so has completed: one that
   reports an error (a context that can run nothing more, or a handle
   that is not of the current context) leaves its launch for teardown,
   which ends every launch.  The ends are told after the lock is given
   back (the last reference to a server frees it, which closes the
   descriptors the device left open).  */

static void
nvptx_hs_reap_1 (struct ptx_device *dev, bool all)
{
  CUstream busy[NVPTX_HS_BUSY_STREAMS];
  unsigned nbusy = 0, i;
  struct nvptx_hs_launch **link, *l, *ended = NULL, *last = NULL;

  pthread_mutex_lock (&nvptx_hs_ending_lock);
  link = &nvptx_hs_ending;
  while ((l = *link) != NULL)
    {
      bool running = l->dev != dev;
      for (i = 0; !running && !all && i < nbusy; i++)
	running = busy[i] == l->stream;
      if (!running && !all
	  && CUDA_CALL_NOCHECK (cuEventQuery, l->ev) != CUDA_SUCCESS)
	{
	  running = true;
	  if (nbusy < NVPTX_HS_BUSY_STREAMS)
	    busy[nbusy++] = l->stream;
	}
      if (running)
	{
	  link = &l->next;
	  continue;
	}
      *link = l->next;
      __atomic_store_n (&nvptx_hs_nending, nvptx_hs_nending - 1,
			__ATOMIC_RELAXED);
      l->next = ended;
      ended = l;
      if (last == NULL)
	last = l;
    }
  nvptx_hs_ending_tail = link;
  pthread_mutex_unlock (&nvptx_hs_ending_lock);
  if (ended == NULL)
    return;
  for (l = ended; l != NULL; l = l->next)
    nvptx_hs_tell_end (l);
  pthread_mutex_lock (&nvptx_hs_ending_lock);
  last->next = nvptx_hs_spare;
  nvptx_hs_spare = ended;
  pthread_mutex_unlock (&nvptx_hs_ending_lock);
}

/* The plugin's synchronization points (a launch, a wait for the device
   or for a stream, a test that found a stream idle): end what has
   ended on DEV.  Cheap when nothing waits to end.  */

static inline void
nvptx_hs_reap (struct ptx_device *dev)
{
  if (__atomic_load_n (&nvptx_hs_nending, __ATOMIC_RELAXED) != 0)
    nvptx_hs_reap_1 (dev, false);
}

/* The same, for the device of the calling OpenACC thread, if it has
   one: after its waits and tests of async queues.  */

static inline void
nvptx_hs_reap_acc_thread (void)
{
  struct nvptx_thread *thr
    = (struct nvptx_thread *) GOMP_PLUGIN_acc_thread ();
  if (thr != NULL && thr->ptx_dev != NULL)
    nvptx_hs_reap (thr->ptx_dev);
}

/* Move DEV's spare records from the spare list to MINE, which is
   returned.  Under ENDING_LOCK.  */

static struct nvptx_hs_launch *
nvptx_hs_take_spares (struct ptx_device *dev, struct nvptx_hs_launch *mine)
{
  struct nvptx_hs_launch **link, *l;
  for (link = &nvptx_hs_spare; (l = *link) != NULL; )
    if (l->dev == dev)
      {
	*link = l->next;
	l->next = mine;
	mine = l;
      }
    else
      link = &l->next;
  return mine;
}

/* DEV is being closed: end every launch on it, once it is idle, and
   destroy its events, in its context.  A device whose context cannot be
   made current runs nothing more: its launches are ended, and its
   events left to the context's destruction.  */

static void
nvptx_hs_reap_device (struct ptx_device *dev)
{
  struct nvptx_hs_launch *l, *mine;
  bool ending = false, ctx;

  pthread_mutex_lock (&nvptx_hs_ending_lock);
  for (l = nvptx_hs_ending; l != NULL && !ending; l = l->next)
    ending = l->dev == dev;
  mine = nvptx_hs_take_spares (dev, NULL);
  pthread_mutex_unlock (&nvptx_hs_ending_lock);
  if (!ending && mine == NULL)
    return;
  ctx = nvptx_hs_push_context (dev);
  if (ending)
    {
      if (ctx)
	CUDA_CALL_NOCHECK (cuCtxSynchronize, );
      nvptx_hs_reap_1 (dev, true);
      pthread_mutex_lock (&nvptx_hs_ending_lock);
      mine = nvptx_hs_take_spares (dev, mine);
      pthread_mutex_unlock (&nvptx_hs_ending_lock);
    }
  while ((l = mine) != NULL)
    {
      mine = l->next;
      if (ctx)
	CUDA_CALL_NOCHECK (cuEventDestroy, l->ev);
      free (l);
    }
  if (ctx)
    nvptx_hs_pop_context ();
}

/* Kernel FN is about to run on DEV, launched on STREAM: returns what to
   pass to nvptx_hs_kernel_end or nvptx_hs_end_on_stream, or NULL
   (nothing to tell) if FN's image uses neither host services nor
   per-thread state.  First, whatever FN's image, ends the launches of
   DEV that have ended: the table's epoch depends on them.  */

static inline struct nvptx_hs_launch *
nvptx_hs_kernel_begin (struct ptx_device *dev, struct targ_fn_descriptor *fn,
		       CUstream stream)
{
  struct nvptx_hs *hs = dev->host_service;
  struct nvptx_hs_launch *launch;
  struct gomp_host_service *server = NULL;

  /* A launch from a host-service callback would wait for a kernel that
     waits for the callback: refuse it.  */
  if (GOMP_PLUGIN_host_service_in_callback ())
    GOMP_PLUGIN_fatal ("cannot launch a kernel on device %d from a host"
		       " service callback: the device is waiting for the"
		       " callback", dev->ord);
  nvptx_hs_reap (dev);
  if (fn->host_service && hs != NULL && hs->server != NULL)
    server = hs->server;
  if (server == NULL && fn->host_tls == NULL)
    return NULL;
  launch = GOMP_PLUGIN_malloc_cleared (sizeof *launch);
  launch->server = server;
  launch->tls = fn->host_tls;
  launch->dev = dev;
  if (launch->tls)
    nvptx_tls_kernel_begin (dev, launch->tls, stream);
  if (server)
    GOMP_PLUGIN_host_service_kernel_begin (server);
  return launch;
}

/* The kernel of LAUNCH has ended: the caller has waited for its stream
   or its context, and has the context current.  So have the kernels
   queued before it on that stream (after a wait for the context: on
   every stream): the reap tells their ends too.  */

static inline void
nvptx_hs_kernel_end (struct nvptx_hs_launch *launch)
{
  struct ptx_device *dev;
  if (launch == NULL)
    return;
  dev = launch->dev;
  nvptx_hs_tell_end (launch);
  free (launch);
  nvptx_hs_reap (dev);
}

/* For a launch on STREAM (OpenACC, async or not): end the kernel once an
   event recorded on STREAM right after it has completed, as a later
   nvptx_hs_reap finds.  The event comes from an ended launch of the
   same device when there is one.  Without an event (none can be
   created or recorded) the stream is waited for instead: slow, but the
   end is then known.  */

static void
nvptx_hs_end_on_stream (struct nvptx_hs_launch *launch, CUstream stream)
{
  struct nvptx_hs_launch **link, *spare;
  CUresult r = CUDA_SUCCESS;
  CUevent ev = NULL;

  if (launch == NULL)
    return;
  pthread_mutex_lock (&nvptx_hs_ending_lock);
  for (link = &nvptx_hs_spare; (spare = *link) != NULL; link = &spare->next)
    if (spare->dev == launch->dev)
      {
	*link = spare->next;
	ev = spare->ev;
	free (spare);
	break;
      }
  if (ev == NULL)
    r = CUDA_CALL_NOCHECK (cuEventCreate, &ev, CU_EVENT_DISABLE_TIMING);
  if (r == CUDA_SUCCESS)
    r = CUDA_CALL_NOCHECK (cuEventRecord, ev, stream);
  if (r == CUDA_SUCCESS)
    {
      /* Recorded and queued under one lock: the list keeps each
	 stream's order.  */
      launch->stream = stream;
      launch->ev = ev;
      launch->next = NULL;
      *nvptx_hs_ending_tail = launch;
      nvptx_hs_ending_tail = &launch->next;
      __atomic_store_n (&nvptx_hs_nending, nvptx_hs_nending + 1,
			__ATOMIC_RELAXED);
      pthread_mutex_unlock (&nvptx_hs_ending_lock);
      return;
    }
  pthread_mutex_unlock (&nvptx_hs_ending_lock);
  GOMP_PLUGIN_debug (0, "  host services: no event for the end of a kernel"
		     " (%s): waiting for its stream\n", cuda_error (r));
  if (ev != NULL)
    CUDA_CALL_NOCHECK (cuEventDestroy, ev);
  CUDA_CALL_NOCHECK (cuStreamSynchronize, stream);
  nvptx_hs_kernel_end (launch);
}

/* IMAGE is being unloaded from DEV.  Host services go first: freeing
   device memory waits for running kernels, which must not be waiting for
   the host then.  */

static void
nvptx_hs_unload_image (struct ptx_device *dev, struct ptx_image_data *image)
{
  bool waited = image->host_service || image->host_tls != NULL;

  if (image->host_service)
    {
      pthread_mutex_lock (&nvptx_hs_lock);
      if (dev->host_service && --dev->host_service->images == 0)
	nvptx_hs_free (dev);
      pthread_mutex_unlock (&nvptx_hs_lock);
      image->host_service = false;
    }
  if (image->host_tls)
    nvptx_tls_unload (dev, image->host_tls);
  image->host_tls = NULL;
  /* Tell the ends that the waiting above made known (each is queried:
     kernels of other images may still run).  Without the context
     nothing is told: closing the device tells every end.  */
  if (waited && __atomic_load_n (&nvptx_hs_nending, __ATOMIC_RELAXED) != 0
      && CUDA_CALL_NOCHECK (cuCtxPushCurrent, dev->ctx) == CUDA_SUCCESS)
    {
      nvptx_hs_reap_1 (dev, false);
      nvptx_hs_pop_context ();
    }
}

/* DEV is being closed.  */

static void
nvptx_hs_close_device (struct ptx_device *dev)
{
  struct ptx_image_data *image;
  pthread_mutex_lock (&nvptx_hs_lock);
  nvptx_hs_free (dev);
  pthread_mutex_unlock (&nvptx_hs_lock);
  for (image = dev->images; image; image = image->next)
    if (image->host_tls)
      {
	nvptx_tls_unload (dev, image->host_tls);
	image->host_tls = NULL;
      }
  nvptx_hs_reap_device (dev);
}
