/* Unit test of the nvptx plugin's host-service code
   (libgomp/plugin/host-service-nvptx.c) without a GPU: the file is
   compiled against stand-ins for the few CUDA driver calls and plugin
   structures it uses, with the real server (host-service.c).  A "module"
   is a block of host memory with or without a __gomp_host_service; a
   "kernel" is a host thread that makes calls through the client code
   against whatever the plugin wrote into that symbol.  Checks: an image
   without the symbol costs nothing; one with it gets a mapped region,
   its head written, served while kernels run; a mismatched symbol is
   refused; GOMP_HOST_SERVICES=off leaves the device without a region; a
   launch from a callback is refused; unloading the last image frees the
   region.  Prints PASS:/FAIL: lines.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim-client.h"
#include "gomp-host-services.h"

/* Stand-ins for cuda.h and the plugin's own definitions.  */
typedef int CUresult;
typedef uint64_t CUdeviceptr;
typedef void *CUstream;
#define CUDA_SUCCESS 0
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_NOT_FOUND 500
#define CU_MEMHOSTALLOC_PORTABLE 0x01
#define CU_MEMHOSTALLOC_DEVICEMAP 0x02

struct fake_module
{
  const char *symbol;		/* Name of its one global, or NULL.  */
  void *mem;
  size_t size;
};
typedef struct fake_module *CUmodule;

struct nvptx_hs;
struct ptx_device
{
  int ord;
  struct nvptx_hs *host_service;
};
struct ptx_image_data
{
  bool host_service;
};

static int host_allocs, host_frees, alloc_flags, fail_alloc;
static char last_error[512];
static jmp_buf fatal_jmp;
static int fatal_armed;

static CUresult
fake_cuModuleGetGlobal (CUdeviceptr *p, size_t *bytes, CUmodule m,
			const char *name)
{
  if (m->symbol == NULL || strcmp (m->symbol, name) != 0)
    return CUDA_ERROR_NOT_FOUND;
  *p = (CUdeviceptr) (uintptr_t) m->mem;
  *bytes = m->size;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuMemHostAlloc (void **p, size_t size, unsigned flags)
{
  if (fail_alloc)
    return CUDA_ERROR_OUT_OF_MEMORY;
  alloc_flags = flags;
  if (posix_memalign (p, 4096, size) != 0)
    return CUDA_ERROR_OUT_OF_MEMORY;
  host_allocs++;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuMemHostGetDevicePointer (CUdeviceptr *d, void *p, unsigned flags)
{
  (void) flags;
  /* As with unified addressing: the same address.  */
  *d = (CUdeviceptr) (uintptr_t) p;
  return alloc_flags & CU_MEMHOSTALLOC_DEVICEMAP ? CUDA_SUCCESS : 1;
}

static CUresult
fake_cuMemFreeHost (void *p)
{
  free (p);
  host_frees++;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuMemcpyHtoD (CUdeviceptr d, const void *h, size_t n)
{
  memcpy ((void *) (uintptr_t) d, h, n);
  return CUDA_SUCCESS;
}

static CUresult
fake_cuStreamAddCallback (CUstream s, void (*cb) (CUstream, CUresult, void *),
			  void *data, unsigned flags)
{
  (void) flags;
  cb (s, CUDA_SUCCESS, data);	/* The "kernel" has already ended.  */
  return CUDA_SUCCESS;
}

#define CUDA_CALL_NOCHECK(FN, ...) fake_##FN (__VA_ARGS__)
#define CUDA_CALL_ASSERT(FN, ...) \
  do { if (fake_##FN (__VA_ARGS__) != CUDA_SUCCESS) \
	 GOMP_PLUGIN_fatal ("%s failed", #FN); } while (0)

static const char *
cuda_error (CUresult r)
{
  return r == CUDA_ERROR_OUT_OF_MEMORY ? "out of memory" : "error";
}

void *
GOMP_PLUGIN_malloc_cleared (size_t n)
{
  void *p = calloc (1, n);
  if (p == NULL)
    abort ();
  return p;
}

void
GOMP_PLUGIN_error (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (last_error, sizeof last_error, fmt, ap);
  va_end (ap);
}

void
GOMP_PLUGIN_debug (int kind, const char *fmt, ...)
{
  (void) kind;
  (void) fmt;
}

void
GOMP_PLUGIN_fatal (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (last_error, sizeof last_error, fmt, ap);
  va_end (ap);
  if (fatal_armed)
    longjmp (fatal_jmp, 1);
  abort ();
}

#include "plugin/host-service-nvptx.c"

static int failures;

static void
check (int ok, const char *what)
{
  printf ("%s: plugin %s\n", ok ? "PASS" : "FAIL", what);
  failures += !ok;
}

/* A kernel: one device thread making a few calls through the symbol.  */
struct kernel
{
  struct gomp_hs_device *dev;
  int64_t wrote, sum;
  int32_t err, err2;
};

static int64_t
cb_add (void *buf, size_t size, void *user)
{
  int64_t *v = buf;
  (void) user;
  (void) size;
  v[0] += v[1];
  return v[0];
}

static void *
kernel_fn (void *arg)
{
  struct kernel *k = arg;
  int64_t args[4] = { -1, 0, 0, 0 }, v[2] = { 40, 2 };
  int64_t nargs[4] = { 4, sizeof v, 0, 0 };
  args[0] = open ("/dev/null", O_WRONLY);	/* Not the device's.  */
  k->wrote = hs_call (k->dev, GOMP_HS_OP_WRITE, args, "x", 1, NULL, 0, NULL,
		      &k->err);
  close ((int) args[0]);
  args[0] = 2;
  hs_call (k->dev, GOMP_HS_OP_WRITE, args, "", 0, NULL, 0, NULL, &k->err2);
  k->sum = hs_call2 (k->dev, GOMP_HS_OP_HOST_CALL, nargs, "add", 4, v,
		     sizeof v, v, sizeof v, NULL, &k->err2);
  return NULL;
}

static int64_t
cb_launch (void *buf, size_t size, void *user)
{
  (void) buf;
  (void) size;
  fatal_armed = 1;
  if (setjmp (fatal_jmp) == 0)
    nvptx_hs_kernel_begin ((struct ptx_device *) user);
  fatal_armed = 0;
  return 0;
}

int
main (void)
{
  struct ptx_device dev = { 0, NULL };
  struct ptx_image_data img1 = { false }, img2 = { false }, img3 = { false };
  struct gomp_hs_device *sym = calloc (1, sizeof *sym);
  struct fake_module none = { NULL, NULL, 0 };
  struct fake_module with = { GOMP_HS_DEVICE_SYMBOL, sym, sizeof *sym };
  struct fake_module bad = { GOMP_HS_DEVICE_SYMBOL, sym, 16 };
  struct kernel k;
  pthread_t t;
  int32_t err;
  int64_t args[4] = { 0 };

  setenv ("GOMP_HOST_SERVICES", "all", 1);
  setenv ("GOMP_HOST_SERVICES_PORTS", "4", 1);
  setenv ("GOMP_HOST_SERVICES_BUFFER", "64", 1);

  check (nvptx_hs_load_image (&none, &dev, &img1) && dev.host_service == NULL
	 && host_allocs == 0 && !img1.host_service,
	 "an image without __gomp_host_service: no region, nothing started");
  nvptx_hs_kernel_begin (&dev);
  nvptx_hs_kernel_end (&dev);
  check (dev.host_service == NULL, "launches on it: no server");

  check (!nvptx_hs_load_image (&bad, &dev, &img2)
	 && strstr (last_error, "mismatched device runtime") != NULL,
	 "a __gomp_host_service of the wrong size is refused");

  check (nvptx_hs_load_image (&with, &dev, &img2) && dev.host_service != NULL
	 && host_allocs == 1 && img2.host_service
	 && (alloc_flags & CU_MEMHOSTALLOC_DEVICEMAP),
	 "an image with it: a region mapped into the device");
  check (sym->region == (uint64_t) dev.host_service->region_dev
	 && sym->nports == 4 && sym->buf_size == 64 && hs_usable (sym),
	 "the image's __gomp_host_service points at the region");
  check (nvptx_hs_load_image (&with, &dev, &img3) && host_allocs == 1
	 && dev.host_service->images == 2,
	 "a second image shares the device's region");

  libgomp_host_register ("add", cb_add, NULL);
  memset (&k, 0, sizeof k);
  k.dev = sym;
  nvptx_hs_kernel_begin (&dev);
  pthread_create (&t, NULL, kernel_fn, &k);
  pthread_join (t, NULL);
  nvptx_hs_kernel_end (&dev);
  check (k.wrote == -1 && k.err == EBADF,
	 "a kernel's call on a host fd it did not open: EBADF");
  check (k.sum == 42 && k.err2 == 0,
	 "a kernel's host call is served while it runs");

  libgomp_host_register ("launch", cb_launch, &dev);
  nvptx_hs_kernel_begin (&dev);
  {
    int64_t nargs[4] = { 7, 0, 0, 0 };
    last_error[0] = '\0';
    hs_call2 (sym, GOMP_HS_OP_HOST_CALL, nargs, "launch", 7, NULL, 0, NULL,
	      0, NULL, &err);
  }
  nvptx_hs_end_on_stream (&dev, NULL);
  check (strstr (last_error, "cannot launch a kernel on device 0 from a host"
		 " service callback") != NULL,
	 "a launch from a callback is refused, not deadlocked");

  nvptx_hs_unload_image (&dev, &img2);
  check (dev.host_service != NULL && host_frees == 0,
	 "unloading one of two images keeps the region");
  nvptx_hs_unload_image (&dev, &img3);
  check (dev.host_service == NULL && host_frees == 1,
	 "unloading the last image frees the region");

  setenv ("GOMP_HOST_SERVICES", "off", 1);
  memset (sym, 0xff, offsetof (struct gomp_hs_device, locks));
  img2.host_service = false;
  check (nvptx_hs_load_image (&with, &dev, &img2) && host_allocs == 1
	 && sym->region == 0,
	 "GOMP_HOST_SERVICES=off: no region; the device is told so");
  check (hs_call (sym, GOMP_HS_OP_WRITE, args, "", 0, NULL, 0, NULL, &err)
	 == -1 && err == GOMP_HS_ENOSYS,
	 "GOMP_HOST_SERVICES=off: device calls get ENOSYS");
  nvptx_hs_free (&dev);

  setenv ("GOMP_HOST_SERVICES", "all", 1);
  fail_alloc = 1;
  img2.host_service = false;
  check (!nvptx_hs_load_image (&with, &dev, &img2) && dev.host_service == NULL
	 && strstr (last_error, "cuMemHostAlloc") != NULL,
	 "a failed allocation fails the image load loudly");
  free (sym);
  return failures != 0;
}
