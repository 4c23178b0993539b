/* Unit test of the nvptx plugin's host-service code
   (libgomp/plugin/host-service-nvptx.c) without a GPU: the file is
   compiled against stand-ins for the few CUDA driver calls and plugin
   structures it uses, with the real server (host-service*.c).  A
   "module" is a pair of blocks of host memory standing for its globals
   __gomp_host_service and __gomp_nvptx_tls (either may be missing); a
   "kernel" is a host thread that makes calls through the client code
   against whatever the plugin wrote into the first; the device is idle
   (cuCtxSynchronize returns) when every such thread has finished.

   Checks: an image without the symbols costs nothing; one with them gets
   a mapped region, the per-device port locks and a per-image state table,
   all described in its symbols; images of a device share one region and
   one lock set; mismatched symbols are refused; only kernels of images
   that use host services are bracketed; GOMP_HOST_SERVICES=off; failed
   set-up leaves nothing counted; a launch from a callback is refused;
   teardown with kernels still calling the host (blocked in a read, or in
   a callback that does not return) neither hangs nor frees anything
   before the device is idle; the end of a kernel launched on a stream
   is an event recorded after it (this CUDA has no stream callbacks),
   told at a later launch, wait or test, or at teardown, with one query
   per busy stream, events reused, and a wait for the stream when no
   event can be had; an end told after teardown finds the server alive;
   the per-thread state's epochs: written by a memset on the launch's
   stream, waited for (an event) by a kernel on another stream that may
   start while the write is still queued, kept while an untold kernel may
   still run, and a device heap with room for the states of every table.
   Prints PASS:/FAIL: lines.  */

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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "sim-client.h"
#include "gomp-host-services.h"
#include "host-service-internal.h"
#include "config/nvptx/device-tls.h"

/* Stand-ins for cuda.h and the plugin's own definitions.  */
typedef int CUresult;
typedef uint64_t CUdeviceptr;
typedef void *CUstream;
typedef struct fake_event *CUevent;
#define CU_EVENT_DISABLE_TIMING 2
typedef void *CUfunction;
typedef struct fake_context *CUcontext;
typedef enum { CU_LIMIT_STACK_SIZE = 0, CU_LIMIT_MALLOC_HEAP_SIZE = 2 } CUlimit;
#define CUDA_SUCCESS 0
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_NOT_FOUND 500
#define CUDA_ERROR_NOT_READY 600
#define CU_MEMHOSTALLOC_PORTABLE 0x01
#define CU_MEMHOSTALLOC_DEVICEMAP 0x02
#define CU_MEMHOSTREGISTER_PORTABLE 0x01
#define CU_MEMHOSTREGISTER_DEVICEMAP 0x02
#define CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES 3

struct fake_module
{
  void *hs;			/* __gomp_host_service, or NULL.  */
  size_t hs_size;
  void *tls;			/* __gomp_nvptx_tls, or NULL.  */
  size_t tls_size;
};
typedef struct fake_module *CUmodule;

struct targ_fn_launch
{
  const char *fn;
};

struct nvptx_tls;
struct targ_fn_descriptor
{
  CUfunction fn;
  const struct targ_fn_launch *launch;
  bool host_service;
  struct nvptx_tls *host_tls;
};

struct ptx_image_data
{
  bool host_service;
  struct nvptx_tls *host_tls;
  struct targ_fn_descriptor *fns;
  struct ptx_image_data *next;
};

struct nvptx_hs;
struct ptx_device;
struct nvptx_thread
{
  struct ptx_device *ptx_dev;
};

struct ptx_device
{
  int ord;
  int num_sms;
  int max_threads_per_multiprocessor;
  struct nvptx_hs *host_service;
  struct ptx_image_data *images;
  CUcontext ctx;
  uint64_t host_tls_heap;
};

/* Contexts: the device's, and another device's, which a thread that
   unloads an image may have current.  Calls that act on "the current
   context" count the times it was not the device's.  */
struct fake_context
{
  int id;
};
static struct fake_context device_ctx = { 0 }, other_ctx = { 1 };
static __thread CUcontext ctx_stack[8];
static __thread int ctx_depth;
static int wrong_ctx_calls;

static void
check_ctx (void)
{
  if (ctx_depth == 0 || ctx_stack[ctx_depth - 1] != &device_ctx)
    wrong_ctx_calls++;
}

static int host_allocs, host_frees, dev_allocs, dev_frees, alloc_flags;
static int fail_alloc, fail_htod;
static size_t stack_limit = 1024, heap_limit = 8 << 20;
static char last_error[512];
static char calls[4096];
static jmp_buf fatal_jmp;
static int fatal_armed;

/* The simulated device: kernels are threads; it is idle when none runs.  */
static pthread_mutex_t device_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t device_cond = PTHREAD_COND_INITIALIZER;
static int kernels_running, sync_timed_out;

static void
log_call (const char *what)
{
  strncat (calls, what, sizeof calls - strlen (calls) - 1);
  strncat (calls, ";", sizeof calls - strlen (calls) - 1);
}

static CUresult
fake_cuModuleGetGlobal (CUdeviceptr *p, size_t *bytes, CUmodule m,
			const char *name)
{
  void *mem = NULL;
  size_t size = 0;
  if (strcmp (name, GOMP_HS_DEVICE_SYMBOL) == 0)
    mem = m->hs, size = m->hs_size;
  else if (strcmp (name, GOMP_NVPTX_TLS_SYMBOL) == 0)
    mem = m->tls, size = m->tls_size;
  if (mem == NULL)
    return CUDA_ERROR_NOT_FOUND;
  *p = (CUdeviceptr) (uintptr_t) mem;
  *bytes = size;
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

/* GOMP_HOST_SERVICES_SERVER=process: the region is registered.  */
static CUresult
fake_cuMemHostRegister (void *p, size_t size, unsigned flags)
{
  (void) p;
  (void) size;
  log_call ("cuMemHostRegister");
  alloc_flags = flags;
  host_allocs++;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuMemHostUnregister (void *p)
{
  (void) p;
  check_ctx ();
  log_call ("cuMemHostUnregister");
  host_frees++;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuCtxPushCurrent (CUcontext c)
{
  if (ctx_depth == 8)
    return 1;
  ctx_stack[ctx_depth++] = c;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuCtxPopCurrent (CUcontext *c)
{
  if (ctx_depth == 0)
    return 1;
  *c = ctx_stack[--ctx_depth];
  return CUDA_SUCCESS;
}

static CUresult
fake_cuMemFreeHost (void *p)
{
  check_ctx ();
  log_call ("cuMemFreeHost");
  free (p);
  host_frees++;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuMemAlloc (CUdeviceptr *d, size_t n)
{
  void *p = malloc (n);
  if (p == NULL)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *d = (CUdeviceptr) (uintptr_t) p;
  dev_allocs++;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuMemFree (CUdeviceptr d)
{
  check_ctx ();
  log_call ("cuMemFree");
  free ((void *) (uintptr_t) d);
  dev_frees++;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuMemsetD8 (CUdeviceptr d, unsigned char v, size_t n)
{
  memset ((void *) (uintptr_t) d, v, n);
  return CUDA_SUCCESS;
}

static CUresult
fake_cuMemcpyHtoD (CUdeviceptr d, const void *h, size_t n)
{
  if (fail_htod)
    return 1;
  memcpy ((void *) (uintptr_t) d, h, n);
  return CUDA_SUCCESS;
}

/* Streams, as far as the order of the epoch's writes and the kernels
   is concerned.  A write queued on a stream lands when what was queued
   before it on that stream has run: here its value is stored at once,
   but it stays "pending" until the test says that every stream has
   drained (streams_drained).  A kernel launched on a stream may start
   before a pending write of another stream unless its stream waits for
   an event recorded after that write (cuStreamWaitEvent):
   kernel_ordered_after_writes says whether a kernel launched now on a
   stream is ordered after every pending write.  An event is complete
   (cuEventQuery) once the test has said that what was queued on its
   stream before it has run (stream_finish), or the stream or the
   device was waited for.  */
#define MAX_STREAMS 8
#define MAX_WRITES 64
#define MAX_EVENTS 64
struct fake_event
{
  CUstream stream;		/* Where it was recorded, and after which  */
  int upto;			/* ... write of that stream (its count),  */
  int nth;			/* ... its place among the stream's records.  */
};
static struct fake_event fake_events[MAX_EVENTS];
static int events_created, events_destroyed, fail_event_create;
static int fail_event_query;
static int event_records[MAX_STREAMS], events_done[MAX_STREAMS];
static int event_queries, stream_syncs;
static struct
{
  CUstream stream;
  int nth;			/* Its place among its stream's writes.  */
  unsigned waited;		/* Streams ordered after it (bits).  */
} pending_writes[MAX_WRITES];
static int npending, write_count[MAX_STREAMS];
static CUstream stream_ids[MAX_STREAMS];
static CUstream write_stream;	/* The last epoch write's.  */
static int async_copies, memsets;

static int
stream_id (CUstream s)
{
  int i;
  if (s == NULL)
    /* The default stream: a slot of its own.  */
    s = (CUstream) stream_ids;
  for (i = 0; i < MAX_STREAMS && stream_ids[i] != NULL; i++)
    if (stream_ids[i] == s)
      return i;
  if (i == MAX_STREAMS)
    abort ();
  stream_ids[i] = s;
  return i;
}

static void
queue_write (CUstream s)
{
  if (npending == MAX_WRITES)
    abort ();
  pending_writes[npending].stream = s;
  pending_writes[npending].nth = ++write_count[stream_id (s)];
  pending_writes[npending].waited = 0;
  npending++;
  write_stream = s;
}

static bool
kernel_ordered_after_writes (CUstream s)
{
  int i;
  for (i = 0; i < npending; i++)
    if (pending_writes[i].stream != s
	&& !(pending_writes[i].waited & (1u << stream_id (s))))
      return false;
  return true;
}

static void
streams_drained (void)
{
  npending = 0;
}

/* What was queued on S so far has run.  */

static void
stream_finish (CUstream s)
{
  int id = stream_id (s);
  events_done[id] = event_records[id];
}

/* The old way of writing the epoch (a copy from a host buffer): kept, so
   that this test can be built against an older plugin.  */
static CUresult __attribute__ ((unused))
fake_cuMemcpyHtoDAsync (CUdeviceptr d, const void *h, size_t n, CUstream s)
{
  memcpy ((void *) (uintptr_t) d, h, n);
  queue_write (s);
  async_copies++;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuMemsetD32Async (CUdeviceptr d, unsigned v, size_t n, CUstream s)
{
  size_t i;
  if (d % 4 != 0)
    return 1;
  for (i = 0; i < n; i++)
    ((uint32_t *) (uintptr_t) d)[i] = v;
  queue_write (s);
  memsets++;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuEventCreate (CUevent *ev, unsigned flags)
{
  (void) flags;
  if (events_created == MAX_EVENTS || fail_event_create)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *ev = &fake_events[events_created++];
  (*ev)->stream = NULL;
  (*ev)->upto = 0;
  (*ev)->nth = 0;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuEventDestroy (CUevent ev)
{
  (void) ev;
  events_destroyed++;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuEventRecord (CUevent ev, CUstream s)
{
  ev->stream = s;
  ev->upto = write_count[stream_id (s)];
  ev->nth = ++event_records[stream_id (s)];
  return CUDA_SUCCESS;
}

static CUresult
fake_cuEventQuery (CUevent ev)
{
  event_queries++;
  if (fail_event_query)
    return 400;			/* CUDA_ERROR_INVALID_HANDLE.  */
  return ev->nth <= events_done[stream_id (ev->stream)]
	 ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

static CUresult
fake_cuStreamSynchronize (CUstream s)
{
  log_call ("cuStreamSynchronize");
  stream_syncs++;
  stream_finish (s);
  return CUDA_SUCCESS;
}

static CUresult
fake_cuStreamWaitEvent (CUstream s, CUevent ev, unsigned flags)
{
  int i;
  (void) flags;
  for (i = 0; i < npending; i++)
    if (pending_writes[i].stream == ev->stream
	&& pending_writes[i].nth <= ev->upto)
      pending_writes[i].waited |= 1u << stream_id (s);
  return CUDA_SUCCESS;
}

static CUresult
fake_cuMemcpyDtoH (void *h, CUdeviceptr d, size_t n)
{
  memcpy (h, (void *) (uintptr_t) d, n);
  return CUDA_SUCCESS;
}

static CUresult
fake_cuCtxGetLimit (size_t *v, CUlimit which)
{
  *v = which == CU_LIMIT_STACK_SIZE ? stack_limit : heap_limit;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuCtxSetLimit (CUlimit which, size_t v)
{
  if (which == CU_LIMIT_STACK_SIZE)
    stack_limit = v;
  else
    heap_limit = v;
  return CUDA_SUCCESS;
}

static CUresult
fake_cuFuncGetAttribute (int *v, int attr, CUfunction f)
{
  (void) attr;
  (void) f;
  *v = 0;
  return CUDA_SUCCESS;
}

/* Wait, as the real one does, until no kernel runs (for at most 20 s: a
   hang would be a failure of the code under test); then every stream's
   events are complete.  */

static CUresult
fake_cuCtxSynchronize (void)
{
  struct timespec deadline;
  check_ctx ();
  log_call ("cuCtxSynchronize");
  clock_gettime (CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 20;
  pthread_mutex_lock (&device_lock);
  while (kernels_running > 0)
    if (pthread_cond_timedwait (&device_cond, &device_lock, &deadline) != 0)
      {
	sync_timed_out = 1;
	break;
      }
  pthread_mutex_unlock (&device_lock);
  memcpy (events_done, event_records, sizeof events_done);
  return CUDA_SUCCESS;
}

/* The calling thread's OpenACC data: its device.  */
static struct nvptx_thread acc_thread;

void *
GOMP_PLUGIN_acc_thread (void)
{
  return acc_thread.ptx_dev ? &acc_thread : NULL;
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
GOMP_PLUGIN_malloc (size_t n)
{
  void *p = malloc (n);
  if (p == NULL)
    abort ();
  return p;
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
check (int ok, const char *fmt, ...)
{
  va_list ap;
  printf ("%s: plugin ", ok ? "PASS" : "FAIL");
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  putchar ('\n');
  fflush (stdout);
  failures += !ok;
}

/* Launches whose end the plugin has not told yet.  */

static int
ending_launches (void)
{
  struct nvptx_hs_launch *l;
  int n = 0;
  for (l = nvptx_hs_ending; l; l = l->next)
    n++;
  return n;
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A module: its globals as the device runtime initializes them.  */

static struct fake_module *
new_module (int with_hs, int with_tls)
{
  struct fake_module *m = calloc (1, sizeof *m);
  if (with_hs)
    {
      struct gomp_hs_device *d = calloc (1, sizeof *d);
      d->version = GOMP_HS_VERSION;
      d->stack = 8192;
      m->hs = d;
      m->hs_size = sizeof *d;
    }
  if (with_tls)
    {
      struct gomp_nvptx_tls *t = calloc (1, sizeof *t);
      t->version = GOMP_NVPTX_TLS_VERSION;
      t->entry_size = 16;
      m->tls = t;
      m->tls_size = sizeof *t;
    }
  return m;
}

static void
free_module (struct fake_module *m)
{
  free (m->hs);
  free (m->tls);
  free (m);
}

static const struct targ_fn_launch launch_main = { "main$_omp_fn$0" };

static struct ptx_image_data *
new_image (struct ptx_device *dev)
{
  struct ptx_image_data *img = calloc (1, sizeof *img);
  img->fns = calloc (1, sizeof *img->fns);
  img->fns[0].launch = &launch_main;
  img->next = dev->images;
  dev->images = img;
  return img;
}

static void
drop_image (struct ptx_device *dev, struct ptx_image_data *img)
{
  struct ptx_image_data **p;
  nvptx_hs_unload_image (dev, img);
  for (p = &dev->images; *p; p = &(*p)->next)
    if (*p == img)
      {
	*p = img->next;
	break;
      }
  free (img->fns);
  free (img);
}

/* Kernels.  */

struct kernel
{
  struct gomp_hs_device *dev;
  pthread_t thread;
  int64_t (*body) (struct kernel *);
  int64_t ret, ret2;
  int32_t err, err2;
  const char *path;
};

static void *
kernel_thread (void *arg)
{
  struct kernel *k = arg;
  k->ret = k->body (k);
  pthread_mutex_lock (&device_lock);
  kernels_running--;
  pthread_cond_broadcast (&device_cond);
  pthread_mutex_unlock (&device_lock);
  return NULL;
}

static void
launch (struct kernel *k)
{
  pthread_mutex_lock (&device_lock);
  kernels_running++;
  pthread_mutex_unlock (&device_lock);
  pthread_create (&k->thread, NULL, kernel_thread, k);
}

static int64_t
cb_add (void *buf, size_t size, void *user)
{
  int64_t *v = buf;
  (void) user;
  (void) size;
  v[0] += v[1];
  return v[0];
}

static int64_t
body_calls (struct kernel *k)
{
  int64_t args[4] = { -1, 0, 0, 0 }, v[2] = { 40, 2 };
  int64_t nargs[4] = { 4, sizeof v, 0, 0 };
  int64_t r;
  args[0] = open ("/dev/null", O_WRONLY);	/* Not the device's.  */
  r = hs_call (k->dev, GOMP_HS_OP_WRITE, args, "x", 1, NULL, 0, NULL,
	       &k->err);
  close ((int) args[0]);
  k->ret2 = hs_call2 (k->dev, GOMP_HS_OP_HOST_CALL, nargs, "add", 4, v,
		      sizeof v, v, sizeof v, NULL, &k->err2);
  return r;
}

/* Open a FIFO nobody writes to and read from it: blocks until shutdown.
   Then call again: the answer must come at once.  */

static int64_t
body_fifo (struct kernel *k)
{
  int64_t args[4] = { O_RDWR, 0, 0, 0 };
  char buf[8];
  int64_t fd = hs_call (k->dev, GOMP_HS_OP_OPEN, args, k->path,
			strlen (k->path) + 1, NULL, 0, NULL, &k->err);
  if (fd < 0)
    return -2;
  args[0] = fd;
  args[1] = sizeof buf;
  k->ret2 = hs_call (k->dev, GOMP_HS_OP_READ, args, NULL, 0, buf, sizeof buf,
		     NULL, &k->err);
  args[1] = 0;
  return hs_call (k->dev, GOMP_HS_OP_FSYNC, args, NULL, 0, NULL, 0, NULL,
		  &k->err2);
}

static pthread_mutex_t stuck_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stuck_cond = PTHREAD_COND_INITIALIZER;
static int stuck_release, stuck_entered;

static int64_t
cb_stuck (void *buf, size_t size, void *user)
{
  (void) buf;
  (void) size;
  (void) user;
  pthread_mutex_lock (&stuck_lock);
  stuck_entered = 1;
  pthread_cond_broadcast (&stuck_cond);
  while (!stuck_release)
    pthread_cond_wait (&stuck_cond, &stuck_lock);
  pthread_mutex_unlock (&stuck_lock);
  return 7;
}

static int64_t
body_stuck (struct kernel *k)
{
  int64_t nargs[4] = { 6, 0, 0, 0 };
  return hs_call2 (k->dev, GOMP_HS_OP_HOST_CALL, nargs, "stuck", 6, NULL, 0,
		   NULL, 0, NULL, &k->err);
}

static int64_t
cb_launch (void *buf, size_t size, void *user)
{
  struct targ_fn_descriptor fn = { NULL, &launch_main, false, NULL };
  (void) buf;
  (void) size;
  fatal_armed = 1;
  if (setjmp (fatal_jmp) == 0)
    nvptx_hs_kernel_begin ((struct ptx_device *) user, &fn, NULL);
  fatal_armed = 0;
  return 0;
}

static void
wait_stuck_entered (void)
{
  pthread_mutex_lock (&stuck_lock);
  while (!stuck_entered)
    pthread_cond_wait (&stuck_cond, &stuck_lock);
  pthread_mutex_unlock (&stuck_lock);
}

int
main (void)
{
  struct ptx_device dev = { 0, 4, 2048, NULL, NULL, &device_ctx, 0 };
  struct fake_module *none = new_module (0, 0), *tls_only = new_module (0, 1);
  struct fake_module *m1 = new_module (1, 1), *m2 = new_module (1, 1);
  struct fake_module *bad = new_module (1, 0);
  struct ptx_image_data *img1, *img2, *img3;
  struct gomp_hs_device *sym1 = m1->hs, *sym2 = m2->hs;
  struct gomp_nvptx_tls *tls1 = m1->tls;
  struct kernel k;
  struct nvptx_hs_launch *server;
  char fifo[64];
  int32_t err;
  int64_t args[4] = { 0 };
  double t0;
  bool ok;
  int made, destroyed;

  setenv ("GOMP_HOST_SERVICES", "all", 1);
  setenv ("GOMP_HOST_SERVICES_PORTS", "4", 1);
  setenv ("GOMP_HOST_SERVICES_BUFFER", "64", 1);

  /* Zero cost.  */
  img1 = new_image (&dev);
  check (nvptx_hs_load_image (none, &dev, img1, 1) && dev.host_service == NULL
	 && host_allocs == 0 && dev_allocs == 0 && !img1->host_service
	 && !img1->fns[0].host_service,
	 "an image without the symbols: no region, no table, nothing started");
  check (nvptx_hs_kernel_begin (&dev, &img1->fns[0], NULL) == NULL,
	 "its kernels are not bracketed: no server, no stream callback");
  drop_image (&dev, img1);

  /* Per-thread state only.  */
  img1 = new_image (&dev);
  ok = nvptx_hs_load_image (tls_only, &dev, img1, 1);
  {
    struct gomp_nvptx_tls *t = tls_only->tls;
    struct nvptx_hs_launch *l1, *l2, *l3;
    int writes;
    check (ok && dev.host_service == NULL && img1->host_tls != NULL
	   && t->nslots == 4 * 2048 && t->epoch == 0
	   && t->slots == img1->host_tls->table
	   && img1->fns[0].host_tls == img1->host_tls
	   && heap_limit >= (8u << 20) + 4 * 2048 * 1336,
	   "an image with __gomp_nvptx_tls only: a table of one entry per"
	   " resident lane (%u), room on the device heap for a struct _reent"
	   " each (%zu bytes), no host-service region", t->nslots,
	   heap_limit);
    CUstream s1 = (CUstream) &s1, s2 = (CUstream) &s2;
    l1 = nvptx_hs_kernel_begin (&dev, &img1->fns[0], s1);
    check (l1 != NULL && l1->server == NULL && t->epoch == 1
	   && write_stream == s1 && kernel_ordered_after_writes (s1),
	   "its first kernel is bracketed and starts epoch 1 (%u), written on"
	   " the kernel's stream before it", t->epoch);
    check (memsets == 1 && async_copies == 0,
	   "the epoch is written by a memset of the word (%d), not copied"
	   " from a host buffer (%d)", memsets, async_copies);
    l2 = nvptx_hs_kernel_begin (&dev, &img1->fns[0], s1);
    nvptx_hs_end_on_stream (l2, s1);
    check (t->epoch == 2 && write_stream == s1 && ending_launches () == 1
	   && kernel_ordered_after_writes (s1),
	   "a kernel queued behind it on the same stream starts epoch 2 (%u)"
	   " there: it cannot run while the first does", t->epoch);
    check (events_created == 2 && event_records[stream_id (s1)] == 3
	   && stream_syncs == 0,
	   "its end is an event recorded on its stream after it (%d events,"
	   " %d records there, with the epoch's), not a stream callback (this"
	   " test's CUDA has none) nor a wait", events_created,
	   event_records[stream_id (s1)]);
    writes = memsets + async_copies;
    l3 = nvptx_hs_kernel_begin (&dev, &img1->fns[0], s2);
    check (t->epoch == 2 && memsets + async_copies == writes,
	   "a kernel on another stream while those may run keeps the epoch"
	   " (%u): their threads own their entries", t->epoch);
    check (kernel_ordered_after_writes (s2),
	   "and its stream waits for the write of epoch 2, still queued on"
	   " the first stream: it cannot claim entries of epoch 1 that the"
	   " write would then free under its threads");
    nvptx_hs_kernel_end (l1);
    l1 = nvptx_hs_kernel_begin (&dev, &img1->fns[0], s1);
    check (t->epoch == 2 && memsets + async_copies == writes
	   && kernel_ordered_after_writes (s1),
	   "so does a later one on the first stream while the other stream"
	   " has one (%u)", t->epoch);
    nvptx_hs_kernel_end (l1);
    nvptx_hs_kernel_end (l3);
    streams_drained ();
    writes = memsets + async_copies;
    l1 = nvptx_hs_kernel_begin (&dev, &img1->fns[0], s2);
    check (t->epoch == 2 && memsets + async_copies == writes
	   && ending_launches () == 1,
	   "while the event after the second has not completed, that kernel"
	   " may still run: one launched on the other stream keeps the epoch"
	   " (%u)", t->epoch);
    nvptx_hs_kernel_end (l1);
    stream_finish (s1);
    l1 = nvptx_hs_kernel_begin (&dev, &img1->fns[0], s2);
    check (t->epoch == 3 && write_stream == s2 && ending_launches () == 0
	   && kernel_ordered_after_writes (s2),
	   "once it has, the next launch tells its end first, finds none"
	   " running and starts epoch 3 (%u)", t->epoch);
    nvptx_hs_kernel_end (l1);
    streams_drained ();
  }
  drop_image (&dev, img1);
  check (dev_frees == 1 && events_destroyed == 1 && events_created == 2,
	 "unloading it frees its table and its epoch's event; the event of"
	 " the ended launch is kept for the device's next");
  setenv ("GOMP_NVPTX_THREAD_STATES", "100", 1);
  img1 = new_image (&dev);
  ok = nvptx_hs_load_image (tls_only, &dev, img1, 1);
  check (ok && ((struct gomp_nvptx_tls *) tls_only->tls)->nslots == 100
	 && heap_limit >= (8u << 20) + 4 * 2048 * 1336,
	 "GOMP_NVPTX_THREAD_STATES=100: 100 entries; the heap is never"
	 " lowered");
  drop_image (&dev, img1);
  setenv ("GOMP_NVPTX_THREAD_STATES", "0x10", 1);
  img1 = new_image (&dev);
  last_error[0] = '\0';
  ok = nvptx_hs_load_image (tls_only, &dev, img1, 1);
  check (ok && ((struct gomp_nvptx_tls *) tls_only->tls)->nslots == 4 * 2048
	 && strstr (last_error, "GOMP_NVPTX_THREAD_STATES=0x10") != NULL,
	 "GOMP_NVPTX_THREAD_STATES=0x10 is refused with a message: %s",
	 last_error);
  drop_image (&dev, img1);
  unsetenv ("GOMP_NVPTX_THREAD_STATES");
  dev_allocs = dev_frees = 0;

  /* Mismatched device runtimes.  */
  img1 = new_image (&dev);
  bad->hs_size = 16;
  check (!nvptx_hs_load_image (bad, &dev, img1, 1)
	 && strstr (last_error, "mismatched device runtime") != NULL
	 && !img1->host_service && dev.host_service == NULL,
	 "a __gomp_host_service of the wrong size is refused");
  bad->hs_size = sizeof (struct gomp_hs_device);
  ((struct gomp_hs_device *) bad->hs)->version = 1;
  check (!nvptx_hs_load_image (bad, &dev, img1, 1)
	 && strstr (last_error, "protocol 1") != NULL
	 && dev.host_service == NULL,
	 "a device runtime of protocol version 1 is refused");
  drop_image (&dev, img1);

  /* Two images, one device.  */
  img2 = new_image (&dev);
  img3 = new_image (&dev);
  check (nvptx_hs_load_image (m1, &dev, img2, 1) && dev.host_service != NULL
	 && host_allocs == 1 && img2->host_service
	 && img2->fns[0].host_service
	 && (alloc_flags & CU_MEMHOSTALLOC_DEVICEMAP),
	 "an image with it: a region mapped into the device");
  check (sym1->region == (uint64_t) dev.host_service->region_dev
	 && sym1->ports == (uint64_t) dev.host_service->ports_dev
	 && sym1->nports == 4 && sym1->buf_size == 64 && hs_usable (sym1)
	 && img2->host_tls && tls1->slots == img2->host_tls->table
	 && tls1->slots != 0,
	 "the image's symbols point at the region, the locks and its table");
  check (stack_limit == 8192,
	 "the stack limit is raised to what the device runtime asks for");
  check (nvptx_hs_load_image (m2, &dev, img3, 1) && host_allocs == 1
	 && dev.host_service->images == 2 && sym2->region == sym1->region
	 && sym2->ports == sym1->ports
	 && ((struct gomp_nvptx_tls *) m2->tls)->slots != tls1->slots,
	 "a second image shares the region and the one lock set of the"
	 " device, and has a table of its own");
  check (heap_limit >= (8u << 20) + 2 * (uint64_t) 4 * 2048
			* GOMP_NVPTX_TLS_STATE_BYTES,
	 "the device heap has room for the states of both tables (%zu"
	 " bytes)", heap_limit);

  /* Kernels.  */
  libgomp_host_register ("add", cb_add, NULL);
  memset (&k, 0, sizeof k);
  k.dev = sym2;
  k.body = body_calls;
  server = nvptx_hs_kernel_begin (&dev, &img3->fns[0], NULL);
  launch (&k);
  pthread_join (k.thread, NULL);
  nvptx_hs_kernel_end (server);
  check (server != NULL && k.ret == -1 && k.err == EBADF,
	 "a kernel's call on a host fd it did not open: EBADF");
  check (k.ret2 == 42 && k.err2 == 0,
	 "a kernel's host call is served while it runs");

  libgomp_host_register ("launch", cb_launch, &dev);
  server = nvptx_hs_kernel_begin (&dev, &img2->fns[0], NULL);
  made = events_created;	/* With its table's first epoch's.  */
  {
    int64_t nargs[4] = { 7, 0, 0, 0 };
    last_error[0] = '\0';
    hs_call2 (sym1, GOMP_HS_OP_HOST_CALL, nargs, "launch", 7, NULL, 0, NULL,
	      0, NULL, &err);
  }
  nvptx_hs_end_on_stream (server, NULL);
  check (strstr (last_error, "cannot launch a kernel on device 0 from a host"
		 " service callback") != NULL && ending_launches () == 1,
	 "a launch from a callback is refused, not deadlocked");
  check (events_created == made,
	 "the launch's end reuses the event the device kept (%d made)",
	 events_created - made);
  stream_finish (NULL);
  acc_thread.ptx_dev = &dev;
  nvptx_hs_reap_acc_thread ();
  acc_thread.ptx_dev = NULL;
  check (ending_launches () == 0
	 && __atomic_load_n (&dev.host_service->server->active,
			     __ATOMIC_ACQUIRE) == 0,
	 "an OpenACC wait or test that finds the stream idle tells its end:"
	 " the server counts no kernel");

  /* Ends told late: many launches on two streams.  */
  {
    CUstream s1 = (CUstream) &s1, s2 = (CUstream) &s2;
    struct nvptx_hs_launch *l;
    int i, queries;
    made = events_created;
    for (i = 0; i < 6; i++)
      {
	l = nvptx_hs_kernel_begin (&dev, &img2->fns[0], i % 2 ? s2 : s1);
	nvptx_hs_end_on_stream (l, i % 2 ? s2 : s1);
      }
    queries = event_queries;
    nvptx_hs_reap (&dev);
    check (ending_launches () == 6 && event_queries - queries == 2
	   && __atomic_load_n (&dev.host_service->server->active,
			       __ATOMIC_ACQUIRE) == 6,
	   "six launches on two streams still running: the server counts"
	   " them all; a reap asks one event per stream (%d asked)",
	   event_queries - queries);
    stream_finish (s2);
    nvptx_hs_reap (&dev);
    check (ending_launches () == 3
	   && __atomic_load_n (&dev.host_service->server->active,
			       __ATOMIC_ACQUIRE) == 3,
	   "once one stream has run its kernels, theirs are told (%d left)",
	   ending_launches ());
    stream_finish (s1);
    l = nvptx_hs_kernel_begin (&dev, &img2->fns[0], s1);
    check (ending_launches () == 0,
	   "and the other's at the next launch");
    nvptx_hs_end_on_stream (l, s1);
    check (events_created - made == 5 && ending_launches () == 1,
	   "events are reused: %d made for 7 launches (6 at once, the first"
	   " on the one kept)", events_created - made);
    fail_event_query = 1;
    stream_finish (s1);
    nvptx_hs_reap (&dev);
    check (ending_launches () == 1,
	   "an event that reports an error is not taken for a completed one:"
	   " its kernel may still run");
    fail_event_query = 0;
    nvptx_hs_reap (&dev);
    check (ending_launches () == 0, "once it completes, the end is told");
    fail_event_create = 1;
    while (ending_launches () > 0)
      {
	stream_finish (s1);
	nvptx_hs_reap (&dev);
      }
    for (i = 0; i < 7; i++)
      {
	l = nvptx_hs_kernel_begin (&dev, &img2->fns[0], s2);
	nvptx_hs_end_on_stream (l, s2);
      }
    check (ending_launches () == 0 && stream_syncs == 1,
	   "with no event to be had, the seventh launch waits for its stream"
	   " instead, and so the ends of the six before it on that stream are"
	   " told too (%d waits, %d ending)", stream_syncs, ending_launches ());
    fail_event_create = 0;
    stream_finish (s2);
    nvptx_hs_reap (&dev);
  }

  /* Two devices: each one's ends are its own.  */
  {
    struct ptx_device dev2 = { 1, 4, 2048, NULL, NULL, &device_ctx, 0 };
    CUstream s1 = (CUstream) &s1;
    struct nvptx_hs_launch *l;
    int i;
    for (i = 0; i < 4; i++)
      {
	l = GOMP_PLUGIN_malloc_cleared (sizeof *l);
	l->dev = i % 2 ? &dev2 : &dev;
	nvptx_hs_end_on_stream (l, s1);
      }
    server = nvptx_hs_kernel_begin (&dev, &img2->fns[0], s1);
    nvptx_hs_end_on_stream (server, s1);
    stream_finish (s1);
    nvptx_hs_reap (&dev);
    check (ending_launches () == 2 && nvptx_hs_ending->dev == &dev2
	   && nvptx_hs_ending->next->dev == &dev2,
	   "a reap for one device tells only that device's ends, among"
	   " another's");
    server = nvptx_hs_kernel_begin (&dev, &img2->fns[0], s1);
    nvptx_hs_end_on_stream (server, s1);
    destroyed = events_destroyed;
    nvptx_hs_reap_device (&dev2);
    check (ending_launches () == 1 && nvptx_hs_ending->dev == &dev
	   && events_destroyed - destroyed == 2,
	   "closing the other device tells its ends and destroys its two"
	   " events, and leaves this one's (%d destroyed)",
	   events_destroyed - destroyed);
    stream_finish (s1);
    nvptx_hs_reap (&dev);
    check (ending_launches () == 0 && nvptx_hs_ending_tail == &nvptx_hs_ending,
	   "the list is empty and whole again");
    {
      struct targ_fn_descriptor plain = { NULL, &launch_main, false, NULL };
      server = nvptx_hs_kernel_begin (&dev, &img2->fns[0], s1);
      nvptx_hs_end_on_stream (server, s1);
      stream_finish (s1);
      check (nvptx_hs_kernel_begin (&dev, &plain, s1) == NULL
	     && ending_launches () == 0,
	     "a launch of a kernel of an image without host services tells"
	     " the ends too");
    }
  }

  drop_image (&dev, img2);
  check (dev.host_service != NULL && host_frees == 0,
	 "unloading one of two images keeps the region");

  /* Teardown while a kernel blocks in a read that nothing will satisfy.  */
  snprintf (fifo, sizeof fifo, "%s/fifo-%d", getenv ("TMPDIR") ?: "/tmp",
	    (int) getpid ());
  mkfifo (fifo, 0600);
  memset (&k, 0, sizeof k);
  k.dev = sym2;
  k.body = body_fifo;
  k.path = fifo;
  calls[0] = '\0';
  server = nvptx_hs_kernel_begin (&dev, &img3->fns[0], NULL);
  launch (&k);
  nvptx_hs_end_on_stream (server, NULL);
  usleep (200000);
  t0 = now ();
  /* Unloaded by a thread that has another device's context current (a
     library destructor after dlclose, with several GPUs).  */
  wrong_ctx_calls = 0;
  fake_cuCtxPushCurrent (&other_ctx);
  drop_image (&dev, img3);
  pthread_join (k.thread, NULL);
  check (wrong_ctx_calls == 0 && ctx_depth == 1 && ctx_stack[0] == &other_ctx,
	 "teardown from a thread with another device's context current waits"
	 " for and frees in the device's context (%d calls elsewhere), then"
	 " gives the thread its context back", wrong_ctx_calls);
  fake_cuCtxPopCurrent (&ctx_stack[0]);
  check (!sync_timed_out && k.ret2 == -1 && k.ret == -1
	 && k.err == ECANCELED && k.err2 == ECANCELED && now () - t0 < 5,
	 "teardown with a kernel blocked in a read: the read and the next"
	 " call fail with ECANCELED, the kernel ends (%.2f s)", now () - t0);
  check (dev.host_service == NULL && host_frees == 1
	 && strcmp (calls, "cuCtxSynchronize;cuMemFree;cuMemFreeHost;"
			   "cuMemFree;") == 0,
	 "teardown order: wait for the device, then free the locks and the"
	 " region (then the image's table): %s", calls);
  check (ending_launches () == 0,
	 "the kernel's end, told after teardown (the device was waited for),"
	 " finds its server");
  unlink (fifo);

  /* Teardown while a callback does not return.  */
  img1 = new_image (&dev);
  free_module (m1);
  m1 = new_module (1, 0);
  nvptx_hs_load_image (m1, &dev, img1, 1);
  libgomp_host_register ("stuck", cb_stuck, NULL);
  memset (&k, 0, sizeof k);
  k.dev = m1->hs;
  k.body = body_stuck;
  server = nvptx_hs_kernel_begin (&dev, &img1->fns[0], NULL);
  launch (&k);
  wait_stuck_entered ();
  t0 = now ();
  calls[0] = '\0';
  drop_image (&dev, img1);
  pthread_join (k.thread, NULL);
  nvptx_hs_kernel_end (server);
  check (!sync_timed_out && k.ret == -1 && k.err == ECANCELED
	 && now () - t0 < 10 && dev.host_service == NULL,
	 "teardown while a callback runs: its kernel gets ECANCELED and ends"
	 " (%.2f s), the region is freed", now () - t0);
  pthread_mutex_lock (&stuck_lock);
  stuck_release = 1;
  pthread_cond_broadcast (&stuck_cond);
  pthread_mutex_unlock (&stuck_lock);
  usleep (200000);
  check (1, "the callback returning later writes nothing into the freed"
	 " region");

  /* GOMP_HOST_SERVICES=off.  */
  setenv ("GOMP_HOST_SERVICES", "off", 1);
  img1 = new_image (&dev);
  free_module (m1);
  m1 = new_module (1, 0);
  stack_limit = 1024;
  check (nvptx_hs_load_image (m1, &dev, img1, 1) && host_allocs == 2
	 && ((struct gomp_hs_device *) m1->hs)->region == 0
	 && ((struct gomp_hs_device *) m1->hs)->nports == 0
	 && nvptx_hs_kernel_begin (&dev, &img1->fns[0], NULL) == NULL,
	 "GOMP_HOST_SERVICES=off: no region; the device is told so");
  check (stack_limit == 8192,
	 "GOMP_HOST_SERVICES=off: the stack is still raised to what the"
	 " device runtime asks for (printf runs vfprintf before its write"
	 " fails): %zu", stack_limit);
  {
    struct gomp_hs_device h = { .stack = 1u << 30 };
    check (nvptx_hs_stack_bytes (&h) == NVPTX_HS_STACK_MAX,
	   "an image asking for a 1 GiB stack gets the bound (%u)",
	   NVPTX_HS_STACK_MAX);
  }
  check (hs_call (m1->hs, GOMP_HS_OP_WRITE, args, "", 0, NULL, 0, NULL, &err)
	 == -1 && err == GOMP_HS_ENOSYS,
	 "GOMP_HOST_SERVICES=off: device calls get ENOSYS");
  drop_image (&dev, img1);

  /* Failed set-up.  */
  setenv ("GOMP_HOST_SERVICES", "all", 1);
  fail_alloc = 1;
  img1 = new_image (&dev);
  check (!nvptx_hs_load_image (m1, &dev, img1, 1) && dev.host_service == NULL
	 && !img1->host_service && strstr (last_error, "cuMemHostAlloc") != NULL,
	 "a failed allocation fails the image load loudly, nothing counted");
  fail_alloc = 0;
  fail_htod = 1;
  check (!nvptx_hs_load_image (m1, &dev, img1, 1) && dev.host_service == NULL
	 && !img1->host_service,
	 "a failed write of the symbol leaves no region and nothing counted");
  fail_htod = 0;
  drop_image (&dev, img1);
  check (host_allocs == host_frees + 0 && dev_allocs == dev_frees,
	 "everything allocated was freed (%d/%d host, %d/%d device)",
	 host_allocs, host_frees, dev_allocs, dev_frees);

  /* Closing the device tears down what is left.  */
  setenv ("GOMP_HOST_SERVICES", "all", 1);
  img1 = new_image (&dev);
  nvptx_hs_load_image (m2, &dev, img1, 1);
  calls[0] = '\0';
  nvptx_hs_close_device (&dev);
  check (dev.host_service == NULL && img1->host_tls == NULL
	 && strcmp (calls, "cuCtxSynchronize;cuMemFree;cuMemFreeHost;"
			   "cuMemFree;") == 0,
	 "closing the device: host services first, then the tables: %s",
	 calls);
  check (events_destroyed == events_created,
	 "every event was destroyed (%d of %d)", events_destroyed,
	 events_created);
  img1->host_service = false;
  drop_image (&dev, img1);

  /* Closing the device with a launch whose end is not told yet.  */
  img1 = new_image (&dev);
  nvptx_hs_load_image (m2, &dev, img1, 1);
  server = nvptx_hs_kernel_begin (&dev, &img1->fns[0], (CUstream) &calls);
  nvptx_hs_end_on_stream (server, (CUstream) &calls);
  calls[0] = '\0';
  nvptx_hs_close_device (&dev);
  check (ending_launches () == 0 && events_destroyed == events_created
	 && strcmp (calls, "cuCtxSynchronize;cuMemFree;cuMemFreeHost;"
			   "cuMemFree;cuCtxSynchronize;") == 0,
	 "closing the device with a kernel's end untold: told after the"
	 " device is idle, its event destroyed: %s", calls);
  img1->host_service = false;
  drop_image (&dev, img1);
  check (host_allocs == host_frees && dev_allocs == dev_frees,
	 "after closing, everything allocated was freed");
  check (wrong_ctx_calls == 0 && ctx_depth == 0,
	 "every wait and free of teardown ran in the device's context, also"
	 " from threads with no context current (%d elsewhere)",
	 wrong_ctx_calls);

  /* GOMP_HOST_SERVICES_SERVER=process: the region is the server's shared
     memory, registered with the driver, unregistered and given back at
     teardown; a device call is served (by the server process).  */
  if (getenv ("GOMP_HOST_SERVICES_HELPER") != NULL)
    {
      setenv ("GOMP_HOST_SERVICES_SERVER", "process", 1);
      img1 = new_image (&dev);
      calls[0] = '\0';
      check (nvptx_hs_load_image (m2, &dev, img1, 1) && dev.host_service
	     && dev.host_service->shared
	     && strstr (calls, "cuMemHostRegister;") != NULL
	     && (alloc_flags & CU_MEMHOSTREGISTER_DEVICEMAP),
	     "GOMP_HOST_SERVICES_SERVER=process: the shared region is"
	     " registered, mapped for the device: %s", calls);
      {
	int64_t bad_fd[4] = { 999, 0, SEEK_SET, 0 };
	server = nvptx_hs_kernel_begin (&dev, &img1->fns[0], NULL);
	check (server != NULL
	       && hs_call (m2->hs, GOMP_HS_OP_LSEEK, bad_fd, NULL, 0, NULL, 0,
			   NULL, &err) == -1 && err == EBADF,
	       "GOMP_HOST_SERVICES_SERVER=process: a device call is served"
	       " (EBADF for a descriptor it never opened)");
      }
      nvptx_hs_kernel_end (server);
      calls[0] = '\0';
      nvptx_hs_close_device (&dev);
      check (dev.host_service == NULL
	     && strstr (calls, "cuMemHostUnregister;") != NULL
	     && strstr (calls, "cuMemFreeHost") == NULL,
	     "GOMP_HOST_SERVICES_SERVER=process: teardown unregisters the"
	     " region: %s", calls);
      img1->host_service = false;
      drop_image (&dev, img1);
      check (host_allocs == host_frees && dev_allocs == dev_frees,
	     "GOMP_HOST_SERVICES_SERVER=process: everything was given back");
      unsetenv ("GOMP_HOST_SERVICES_SERVER");
    }
  else
    printf ("UNSUPPORTED: plugin process mode (GOMP_HOST_SERVICES_HELPER"
	    " not set)\n");

  free_module (none);
  free_module (tls_only);
  free_module (m1);
  free_module (m2);
  free_module (bad);
  return failures != 0;
}
