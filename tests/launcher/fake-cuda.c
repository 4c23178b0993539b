/* A stand-in for the CUDA driver (libcuda.so.1), for testing
   gomp-nvptx-run without a GPU.  Copyright (C) 2026 Free Software
   Foundation, Inc.

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

/* Exactly the driver functions the launcher uses, under the names the
   real driver exports.  "Device memory" is host memory; a device pointer
   is the host address.  The JIT "links" PTX texts by concatenating them
   (each must be NUL-terminated text with a .version directive); a module
   has the .entry functions and the .global variables that its PTX
   declares, with their initializers; a launch of more threads than
   __main's .maxntid fails.  cuLaunchKernel runs the "device
   program" on a host thread: the lines "// fake-device: ACTION ARGS" of
   the PTX, in order, acting through the simulator's host-service client
   (tests/sim/sim-client.h) on the region that the module's
   __gomp_host_service points to, as the device runtime would:

     argv            write "argc=N" and "argv[I]=S" lines to fd 1
     write FD TEXT   write TEXT and a newline to FD
     file PATH TEXT  open PATH (create, truncate), write TEXT, close
     printf TEXT     print TEXT on stdout without host services (as
		     CUDA's printf would)
     tls             print what __gomp_nvptx_tls holds (through fd 1)
     return N        store N at rval_ptr and end the kernel
     exit N          call the EXIT op with N
     trap            end the kernel with an illegal-instruction error

   The kernel first stores 255 at rval_ptr, as crt0 does.  A call that
   fails is reported on stderr ("fake-device: ...").  After a failed
   kernel the context is lost: every call fails with that error.

   Environment: FAKE_CUDA_LOG, a file to which every call that matters to
   the tests is appended, one line each; FAKE_CUDA_DEVICES, the number of
   devices (default 1; 0: cuInit fails with CUDA_ERROR_NO_DEVICE).  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda.h>

/* Built, like the launcher, with GCC's minimal cuda.h, which lacks these;
   the values are the driver API's.  */
#if CUDA_VERSION < 9000
#define CUDA_ERROR_NOT_INITIALIZED ((CUresult) 3)
#define CUDA_ERROR_NO_DEVICE ((CUresult) 100)
#define CUDA_ERROR_INVALID_DEVICE ((CUresult) 101)
#define CUDA_ERROR_INVALID_IMAGE ((CUresult) 200)
#define CUDA_ERROR_INVALID_PTX ((CUresult) 218)
#define CUDA_ERROR_INVALID_HANDLE ((CUresult) 400)
#define CUDA_ERROR_ILLEGAL_INSTRUCTION ((CUresult) 715)
#define CU_JIT_GENERATE_DEBUG_INFO ((CUjit_option) 11)
#define CU_JIT_GENERATE_LINE_INFO ((CUjit_option) 13)
#endif
#include "sim-client.h"
#include "config/nvptx/device-tls.h"

#define API __attribute__ ((visibility ("default")))

static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
static int fake_inited, fake_ctx;
static CUresult fake_sticky;	/* The lost context's error.  */
static size_t fake_stack = 1024, fake_heap = (size_t) 8 << 20;

static void __attribute__ ((format (printf, 1, 2)))
fake_log (const char *fmt, ...)
{
  const char *path = getenv ("FAKE_CUDA_LOG");
  FILE *f;
  va_list ap;
  if (path == NULL || (f = fopen (path, "a")) == NULL)
    return;
  va_start (ap, fmt);
  vfprintf (f, fmt, ap);
  va_end (ap);
  fputc ('\n', f);
  fclose (f);
}

/* Every call after cuCtxCreate: the context's state.  */
static CUresult
fake_ready (void)
{
  if (!fake_inited)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (!fake_ctx)
    return CUDA_ERROR_INVALID_CONTEXT;
  return fake_sticky;
}

#define READY() do { CUresult r_ = fake_ready (); \
		     if (r_ != CUDA_SUCCESS) return r_; } while (0)

static const struct { CUresult r; const char *name, *desc; } fake_errors[] =
{
  { CUDA_SUCCESS, "CUDA_SUCCESS", "no error" },
  { CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
  { CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory" },
  { CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED",
    "initialization error" },
  { CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE",
    "no CUDA-capable device is detected" },
  { CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE",
    "invalid device ordinal" },
  { CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE",
    "device kernel image is invalid" },
  { CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT",
    "invalid device context" },
  { CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX",
    "a PTX JIT compilation failed" },
  { CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE",
    "invalid resource handle" },
  { CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found" },
  { CUDA_ERROR_ILLEGAL_INSTRUCTION, "CUDA_ERROR_ILLEGAL_INSTRUCTION",
    "an illegal instruction was encountered" },
};

API CUresult
cuGetErrorName (CUresult r, const char **s)
{
  size_t i;
  for (i = 0; i < sizeof fake_errors / sizeof *fake_errors; i++)
    if (fake_errors[i].r == r)
      {
	*s = fake_errors[i].name;
	return CUDA_SUCCESS;
      }
  *s = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}

API CUresult
cuGetErrorString (CUresult r, const char **s)
{
  size_t i;
  for (i = 0; i < sizeof fake_errors / sizeof *fake_errors; i++)
    if (fake_errors[i].r == r)
      {
	*s = fake_errors[i].desc;
	return CUDA_SUCCESS;
      }
  *s = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}

static int
fake_ndevices (void)
{
  const char *s = getenv ("FAKE_CUDA_DEVICES");
  return s ? atoi (s) : 1;
}

API CUresult
cuInit (unsigned flags)
{
  if (flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (fake_ndevices () <= 0)
    return CUDA_ERROR_NO_DEVICE;
  fake_inited = 1;
  return CUDA_SUCCESS;
}

API CUresult
cuDeviceGetCount (int *n)
{
  if (!fake_inited)
    return CUDA_ERROR_NOT_INITIALIZED;
  *n = fake_ndevices ();
  return CUDA_SUCCESS;
}

API CUresult
cuDeviceGet (CUdevice *d, int ord)
{
  if (!fake_inited)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (ord < 0 || ord >= fake_ndevices ())
    return CUDA_ERROR_INVALID_DEVICE;
  *d = ord;
  return CUDA_SUCCESS;
}

API CUresult
cuCtxCreate_v2 (CUcontext *c, unsigned flags, CUdevice d)
{
  if (!fake_inited)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (d < 0 || d >= fake_ndevices ())
    return CUDA_ERROR_INVALID_DEVICE;
  fake_ctx = 1;
  *c = (CUcontext) &fake_ctx;
  fake_log ("cuCtxCreate flags %#x", flags);
  return CUDA_SUCCESS;
}

API CUresult
cuCtxDestroy_v2 (CUcontext c)
{
  if (c != (CUcontext) &fake_ctx || !fake_ctx)
    return CUDA_ERROR_INVALID_CONTEXT;
  fake_ctx = 0;
  fake_log ("cuCtxDestroy");
  return CUDA_SUCCESS;
}

static const char *
fake_limit_name (CUlimit l)
{
  return l == CU_LIMIT_STACK_SIZE ? "STACK_SIZE"
	 : l == CU_LIMIT_MALLOC_HEAP_SIZE ? "MALLOC_HEAP_SIZE" : NULL;
}

API CUresult
cuCtxGetLimit (size_t *v, CUlimit l)
{
  READY ();
  if (l == CU_LIMIT_STACK_SIZE)
    *v = fake_stack;
  else if (l == CU_LIMIT_MALLOC_HEAP_SIZE)
    *v = fake_heap;
  else
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

API CUresult
cuCtxSetLimit (CUlimit l, size_t v)
{
  READY ();
  if (fake_limit_name (l) == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  if (l == CU_LIMIT_STACK_SIZE)
    fake_stack = v;
  else
    fake_heap = v;
  fake_log ("cuCtxSetLimit %s %zu", fake_limit_name (l), v);
  return CUDA_SUCCESS;
}

/* Memory.  */

struct fake_host_block
{
  void *p;
  unsigned flags;
  int registered;		/* cuMemHostRegister: not ours to free.  */
  struct fake_host_block *next;
};
static struct fake_host_block *fake_host_blocks;

API CUresult
cuMemAlloc_v2 (CUdeviceptr *p, size_t n)
{
  void *m;
  READY ();
  if (n == 0)
    return CUDA_ERROR_INVALID_VALUE;
  /* Device memory holds garbage until written.  */
  if (posix_memalign (&m, 256, n) != 0)
    return CUDA_ERROR_OUT_OF_MEMORY;
  memset (m, 0xa5, n);
  *p = (CUdeviceptr) (uintptr_t) m;
  return CUDA_SUCCESS;
}

API CUresult
cuMemFree_v2 (CUdeviceptr p)
{
  READY ();
  free ((void *) (uintptr_t) p);
  return CUDA_SUCCESS;
}

API CUresult
cuMemsetD8_v2 (CUdeviceptr p, unsigned char v, size_t n)
{
  READY ();
  memset ((void *) (uintptr_t) p, v, n);
  return CUDA_SUCCESS;
}

API CUresult
cuMemcpyHtoD_v2 (CUdeviceptr d, const void *s, size_t n)
{
  READY ();
  memcpy ((void *) (uintptr_t) d, s, n);
  return CUDA_SUCCESS;
}

API CUresult
cuMemcpyDtoH_v2 (void *d, CUdeviceptr s, size_t n)
{
  READY ();
  memcpy (d, (void *) (uintptr_t) s, n);
  return CUDA_SUCCESS;
}

API CUresult
cuMemHostAlloc (void **p, size_t n, unsigned flags)
{
  struct fake_host_block *b;
  READY ();
  if (n == 0)
    return CUDA_ERROR_INVALID_VALUE;
  b = malloc (sizeof *b);
  if (b == NULL || posix_memalign (&b->p, 4096, n) != 0)
    {
      free (b);
      return CUDA_ERROR_OUT_OF_MEMORY;
    }
  memset (b->p, 0x5a, n);
  b->flags = flags;
  b->registered = 0;
  pthread_mutex_lock (&fake_lock);
  b->next = fake_host_blocks;
  fake_host_blocks = b;
  pthread_mutex_unlock (&fake_lock);
  *p = b->p;
  fake_log ("cuMemHostAlloc %zu flags %#x", n, flags);
  return CUDA_SUCCESS;
}

API CUresult
cuMemHostGetDevicePointer_v2 (CUdeviceptr *d, void *p, unsigned flags)
{
  struct fake_host_block *b;
  READY ();
  if (flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  for (b = fake_host_blocks; b; b = b->next)
    if (b->p == p)
      break;
  if (b == NULL || !(b->flags & CU_MEMHOSTALLOC_DEVICEMAP))
    return CUDA_ERROR_INVALID_VALUE;
  *d = (CUdeviceptr) (uintptr_t) p;
  return CUDA_SUCCESS;
}

API CUresult
cuMemFreeHost (void *p)
{
  struct fake_host_block **b;
  for (b = &fake_host_blocks; *b; b = &(*b)->next)
    if ((*b)->p == p && !(*b)->registered)
      {
	struct fake_host_block *x = *b;
	*b = x->next;
	free (x->p);
	free (x);
	return CUDA_SUCCESS;
      }
  return CUDA_ERROR_INVALID_VALUE;
}

/* GOMP_HOST_SERVICES_SERVER=process: the launcher registers the
   server's shared region instead.  */

API CUresult
cuMemHostRegister_v2 (void *p, size_t n, unsigned flags)
{
  struct fake_host_block *b;
  READY ();
  if (n == 0 || ((uintptr_t) p & 4095) != 0)
    return CUDA_ERROR_INVALID_VALUE;
  b = malloc (sizeof *b);
  if (b == NULL)
    return CUDA_ERROR_OUT_OF_MEMORY;
  b->p = p;
  b->flags = flags;
  b->registered = 1;
  pthread_mutex_lock (&fake_lock);
  b->next = fake_host_blocks;
  fake_host_blocks = b;
  pthread_mutex_unlock (&fake_lock);
  fake_log ("cuMemHostRegister %zu flags %#x", n, flags);
  return CUDA_SUCCESS;
}

API CUresult
cuMemHostUnregister (void *p)
{
  struct fake_host_block **b;
  for (b = &fake_host_blocks; *b; b = &(*b)->next)
    if ((*b)->p == p && (*b)->registered)
      {
	struct fake_host_block *x = *b;
	*b = x->next;
	free (x);
	fake_log ("cuMemHostUnregister");
	return CUDA_SUCCESS;
      }
  return CUDA_ERROR_INVALID_VALUE;
}

/* The JIT.  */

struct fake_link
{
  char *text;
  size_t len;
  char *elog;
  size_t elog_size;
};

static const char *
fake_jit_name (CUjit_option o)
{
  /* An int: GCC's minimal CUjit_option has no GENERATE_*_INFO.  */
  switch ((int) o)
    {
    case CU_JIT_OPTIMIZATION_LEVEL: return "OPTIMIZATION_LEVEL";
    case CU_JIT_GENERATE_LINE_INFO: return "GENERATE_LINE_INFO";
    case CU_JIT_GENERATE_DEBUG_INFO: return "GENERATE_DEBUG_INFO";
    case CU_JIT_ERROR_LOG_BUFFER: return "ERROR_LOG_BUFFER";
    case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: return "ERROR_LOG_BUFFER_SIZE_BYTES";
    case CU_JIT_INFO_LOG_BUFFER: return "INFO_LOG_BUFFER";
    case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: return "INFO_LOG_BUFFER_SIZE_BYTES";
    default: return NULL;
    }
}

API CUresult
cuLinkCreate_v2 (unsigned n, CUjit_option *opts, void **vals, CUlinkState *ls)
{
  struct fake_link *l;
  unsigned i;
  READY ();
  l = calloc (1, sizeof *l);
  if (l == NULL)
    return CUDA_ERROR_OUT_OF_MEMORY;
  for (i = 0; i < n; i++)
    {
      const char *name = fake_jit_name (opts[i]);
      if (name == NULL)
	{
	  free (l);
	  return CUDA_ERROR_INVALID_VALUE;
	}
      if (opts[i] == CU_JIT_ERROR_LOG_BUFFER)
	l->elog = vals[i];
      else if (opts[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
	l->elog_size = (uintptr_t) vals[i];
      else if (opts[i] != CU_JIT_INFO_LOG_BUFFER
	       && opts[i] != CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES)
	fake_log ("cuLinkCreate %s %lu", name,
		  (unsigned long) (uintptr_t) vals[i]);
    }
  *ls = (CUlinkState) l;
  return CUDA_SUCCESS;
}

API CUresult
cuLinkAddData_v2 (CUlinkState ls, CUjitInputType type, void *data,
		  size_t size, const char *name, unsigned n, CUjit_option *o,
		  void **v)
{
  struct fake_link *l = (struct fake_link *) ls;
  const char *p = data;
  char *t;
  (void) o;
  (void) v;
  READY ();
  if (type != CU_JIT_INPUT_PTX || n != 0 || size == 0 || name == NULL)
    return CUDA_ERROR_INVALID_VALUE;
  if (p[size - 1] != '\0' || strlen (p) != size - 1
      || strstr (p, ".version") == NULL)
    {
      if (l->elog && l->elog_size)
	snprintf (l->elog, l->elog_size, "ptxas fatal   : %s: not PTX text",
		  name);
      return CUDA_ERROR_INVALID_PTX;
    }
  t = realloc (l->text, l->len + size + 1);
  if (t == NULL)
    return CUDA_ERROR_OUT_OF_MEMORY;
  memcpy (t + l->len, p, size - 1);
  l->len += size - 1;
  t[l->len++] = '\n';
  t[l->len] = '\0';
  l->text = t;
  fake_log ("cuLinkAddData %zu bytes", size - 1);
  return CUDA_SUCCESS;
}

#define FAKE_CUBIN "FAKE-CUBIN\n"

API CUresult
cuLinkComplete (CUlinkState ls, void **out, size_t *size)
{
  struct fake_link *l = (struct fake_link *) ls;
  char *c;
  READY ();
  if (l->text == NULL)
    return CUDA_ERROR_INVALID_IMAGE;
  c = malloc (strlen (FAKE_CUBIN) + l->len + 1);
  if (c == NULL)
    return CUDA_ERROR_OUT_OF_MEMORY;
  strcpy (c, FAKE_CUBIN);
  strcat (c, l->text);
  free (l->text);
  l->text = c;
  *out = c;
  if (size)
    *size = strlen (c) + 1;
  return CUDA_SUCCESS;
}

API CUresult
cuLinkDestroy (CUlinkState ls)
{
  struct fake_link *l = (struct fake_link *) ls;
  free (l->text);
  free (l);
  return CUDA_SUCCESS;
}

/* Modules.  */

struct fake_global
{
  char name[128];
  void *mem;
  size_t size;
};

struct fake_module
{
  char *text;
  struct fake_global *globals;
  int nglobals, cap;
  int has_main;
  unsigned maxntid;		/* __main's .maxntid (X only), or 0.  */
};

static size_t
fake_type_size (const char *t)
{
  static const struct { const char *t; size_t n; } types[] =
    { { ".u8", 1 }, { ".s8", 1 }, { ".b8", 1 }, { ".u16", 2 }, { ".s16", 2 },
      { ".b16", 2 }, { ".u32", 4 }, { ".s32", 4 }, { ".b32", 4 },
      { ".u64", 8 }, { ".s64", 8 }, { ".b64", 8 } };
  size_t i;
  for (i = 0; i < sizeof types / sizeof *types; i++)
    if (strcmp (types[i].t, t) == 0)
      return types[i].n;
  return 0;
}

/* A line ".visible .global .align A .TYPE NAME[N] = { V, ... };" (or
   without the array, the initializer, or .visible).  */

static int
fake_parse_global (struct fake_module *m, const char *line)
{
  char buf[512], *tok, *save, *name = NULL;
  size_t esize = 0, count = 1, i;
  const char *init = strchr (line, '=');
  struct fake_global *g;
  unsigned char *mem;

  if (m->nglobals == m->cap)
    {
      int cap = m->cap ? 2 * m->cap : 16;
      struct fake_global *n = realloc (m->globals, cap * sizeof *n);
      if (n == NULL)
	return -1;
      m->globals = n;
      m->cap = cap;
    }
  snprintf (buf, sizeof buf, "%.*s",
	    (int) (init ? (size_t) (init - line) : strcspn (line, ";")), line);
  for (tok = strtok_r (buf, " \t", &save); tok;
       tok = strtok_r (NULL, " \t", &save))
    if (fake_type_size (tok))
      esize = fake_type_size (tok);
    else if (esize && name == NULL)
      name = tok;
  if (name == NULL)
    return -1;
  if (strchr (name, '['))
    {
      count = strtoul (strchr (name, '[') + 1, NULL, 10);
      *strchr (name, '[') = '\0';
    }
  g = &m->globals[m->nglobals++];
  snprintf (g->name, sizeof g->name, "%s", name);
  g->size = esize * count;
  mem = calloc (1, g->size ? g->size : 1);
  g->mem = mem;
  if (init)
    {
      const char *p = init + 1;
      for (i = 0; i < count; i++)
	{
	  unsigned long long v;
	  char *end;
	  size_t b;
	  p += strspn (p, " \t{,");
	  v = strtoull (p, &end, 0);
	  if (end == p)
	    break;
	  for (b = 0; b < esize; b++)
	    mem[i * esize + b] = (unsigned char) (v >> (8 * b));
	  p = end;
	}
    }
  return 0;
}

API CUresult
cuModuleLoadData (CUmodule *mod, const void *image)
{
  const char *text = image, *p;
  struct fake_module *m;
  READY ();
  if (strncmp (text, FAKE_CUBIN, strlen (FAKE_CUBIN)) != 0)
    return CUDA_ERROR_INVALID_IMAGE;
  m = calloc (1, sizeof *m);
  if (m == NULL || (m->text = strdup (text)) == NULL)
    {
      free (m);
      return CUDA_ERROR_OUT_OF_MEMORY;
    }
  for (p = m->text; p && *p; p = strchr (p, '\n'), p = p ? p + 1 : p)
    {
      size_t n = strcspn (p, "\n");
      char line[512];
      snprintf (line, sizeof line, "%.*s", (int) n, p);
      if (strstr (line, ".entry __main") && strncmp (line, "//", 2) != 0)
	m->has_main = 1;
      if (strstr (line, ".maxntid ") && strncmp (line, "//", 2) != 0)
	m->maxntid = strtoul (strstr (line, ".maxntid ") + 9, NULL, 10);
      if (strstr (line, ".global ") && strncmp (line, "//", 2) != 0
	  && strstr (line, ".extern ") == NULL && strchr (line, '(') == NULL)
	{
	  /* A declaration, whose initializer may be on the next lines (GCC
	     writes "NAME[N] =" then "{V, ... };"): up to its ';'.  */
	  char decl[1024];
	  size_t k, dn = strcspn (p, ";");
	  snprintf (decl, sizeof decl, "%.*s", (int) dn, p);
	  for (k = 0; decl[k]; k++)
	    if (decl[k] == '\n')
	      decl[k] = ' ';
	  if (fake_parse_global (m, decl) != 0)
	    {
	      free (m->globals);
	      free (m->text);
	      free (m);
	      return CUDA_ERROR_INVALID_PTX;
	    }
	}
    }
  *mod = (CUmodule) m;
  fake_log ("cuModuleLoadData %d globals%s", m->nglobals,
	    m->has_main ? ", entry __main" : "");
  return CUDA_SUCCESS;
}

API CUresult
cuModuleUnload (CUmodule mod)
{
  struct fake_module *m = (struct fake_module *) mod;
  int i;
  READY ();
  for (i = 0; i < m->nglobals; i++)
    free (m->globals[i].mem);
  free (m->globals);
  free (m->text);
  free (m);
  return CUDA_SUCCESS;
}

API CUresult
cuModuleGetFunction (CUfunction *f, CUmodule mod, const char *name)
{
  struct fake_module *m = (struct fake_module *) mod;
  READY ();
  if (strcmp (name, "__main") != 0 || !m->has_main)
    return CUDA_ERROR_NOT_FOUND;
  *f = (CUfunction) m;
  return CUDA_SUCCESS;
}

API CUresult
cuModuleGetGlobal_v2 (CUdeviceptr *d, size_t *bytes, CUmodule mod,
		      const char *name)
{
  struct fake_module *m = (struct fake_module *) mod;
  int i;
  READY ();
  for (i = 0; i < m->nglobals; i++)
    if (strcmp (m->globals[i].name, name) == 0)
      {
	if (d)
	  *d = (CUdeviceptr) (uintptr_t) m->globals[i].mem;
	if (bytes)
	  *bytes = m->globals[i].size;
	return CUDA_SUCCESS;
      }
  return CUDA_ERROR_NOT_FOUND;
}

static void *
fake_global_mem (struct fake_module *m, const char *name, size_t size)
{
  int i;
  for (i = 0; i < m->nglobals; i++)
    if (strcmp (m->globals[i].name, name) == 0 && m->globals[i].size == size)
      return m->globals[i].mem;
  return NULL;
}

/* The device.  */

struct fake_kernel
{
  struct fake_module *m;
  int *rval;
  int argc;
  uint64_t *argv;
  CUresult result;
};

static pthread_t fake_thread;
static int fake_running;
static struct fake_kernel fake_k;

/* A host-service call as the device runtime makes it.  */

static int64_t
fake_hs (struct fake_kernel *k, uint32_t op, int64_t a0, int64_t a1,
	 const void *in, size_t len, const char *what)
{
  struct gomp_hs_device *d
    = fake_global_mem (k->m, GOMP_HS_DEVICE_SYMBOL, sizeof *d);
  int64_t args[4] = { a0, a1, 0, 0 };
  int32_t err = 0;
  int64_t r;
  if (d == NULL)
    {
      fprintf (stderr, "fake-device: %s: no %s in the program\n", what,
	       GOMP_HS_DEVICE_SYMBOL);
      return -1;
    }
  r = hs_call (d, op, args, in, len, NULL, 0, NULL, &err);
  if (r < 0)
    fprintf (stderr, "fake-device: %s: errno %d\n", what, (int) err);
  return r;
}

static void
fake_write (struct fake_kernel *k, int fd, const char *s)
{
  fake_hs (k, GOMP_HS_OP_WRITE, fd, 0, s, strlen (s), "write");
}

static void *
fake_device (void *arg)
{
  struct fake_kernel *k = arg;
  const char *marker = "// fake-device: ";
  const char *p;
  char line[4096];

  /* crt0.  */
  *k->rval = 255;
  for (p = strstr (k->m->text, marker); p; p = strstr (p, marker))
    {
      char *act, *rest;
      p += strlen (marker);
      snprintf (line, sizeof line, "%.*s", (int) strcspn (p, "\n"), p);
      act = line;
      rest = strchr (line, ' ');
      if (rest)
	*rest++ = '\0';
      else
	rest = line + strlen (line);
      if (strcmp (act, "argv") == 0)
	{
	  char out[8192];
	  int i;
	  snprintf (out, sizeof out, "argc=%d\n", k->argc);
	  fake_write (k, 1, out);
	  for (i = 0; i < k->argc; i++)
	    {
	      snprintf (out, sizeof out, "argv[%d]=%s\n", i,
			(const char *) (uintptr_t) k->argv[i]);
	      fake_write (k, 1, out);
	    }
	  snprintf (out, sizeof out, "argv[%d] %s\n", k->argc,
		    k->argv[k->argc] == 0 ? "is a null pointer"
					  : "is NOT a null pointer");
	  fake_write (k, 1, out);
	}
      else if (strcmp (act, "write") == 0)
	{
	  char out[4096];
	  int fd = strtol (rest, &rest, 10);
	  snprintf (out, sizeof out, "%s\n", rest + (*rest == ' '));
	  fake_write (k, fd, out);
	}
      else if (strcmp (act, "file") == 0)
	{
	  char *text = strchr (rest, ' '), out[4096];
	  int64_t fd;
	  if (text)
	    *text++ = '\0';
	  fd = fake_hs (k, GOMP_HS_OP_OPEN, O_CREAT | O_WRONLY | O_TRUNC, 0644,
			rest, strlen (rest) + 1, "open");
	  snprintf (out, sizeof out, "%s\n", text ? text : "");
	  if (fd >= 0)
	    {
	      fake_write (k, fd, out);
	      fake_hs (k, GOMP_HS_OP_CLOSE, fd, 0, NULL, 0, "close");
	    }
	}
      else if (strcmp (act, "printf") == 0)
	{
	  printf ("%s\n", rest);
	  fflush (stdout);
	}
      else if (strcmp (act, "tls") == 0)
	{
	  struct gomp_nvptx_tls *t
	    = fake_global_mem (k->m, GOMP_NVPTX_TLS_SYMBOL, sizeof *t);
	  char out[256];
	  int zeroed = 1;
	  uint64_t i;
	  if (t == NULL)
	    snprintf (out, sizeof out, "tls: none\n");
	  else
	    {
	      for (i = 0; t->slots && i < (uint64_t) t->nslots * t->entry_size;
		   i++)
		zeroed &= ((unsigned char *) (uintptr_t) t->slots)[i] == 0;
	      snprintf (out, sizeof out, "tls: version %u entry %u nslots %u"
			" epoch %u table %s%s\n", t->version, t->entry_size,
			t->nslots, t->epoch, t->slots ? "set" : "none",
			zeroed ? " zeroed" : "");
	    }
	  fake_write (k, 1, out);
	}
      else if (strcmp (act, "newlib-errno") == 0)
	{
	  int *e = fake_global_mem (k->m, "__gomp_nvptx_newlib_errno",
				    sizeof *e);
	  char out[64];
	  if (e == NULL)
	    snprintf (out, sizeof out, "newlib-errno: none\n");
	  else
	    snprintf (out, sizeof out, "newlib-errno: %d\n", *e);
	  fake_write (k, 1, out);
	}
      else if (strcmp (act, "return") == 0)
	{
	  *k->rval = atoi (rest);
	  return NULL;
	}
      else if (strcmp (act, "exit") == 0)
	{
	  /* As Fortran's STOP and error termination do (C's exit stores
	     *rval_ptr and ends the kernel: "return").  */
	  fake_hs (k, GOMP_HS_OP_EXIT, atoi (rest), 0, NULL, 0, "exit");
	  /* Not answered when it works: the host process ends.  */
	  k->result = CUDA_ERROR_ILLEGAL_INSTRUCTION;
	  return NULL;
	}
      else if (strcmp (act, "trap") == 0)
	{
	  k->result = CUDA_ERROR_ILLEGAL_INSTRUCTION;
	  return NULL;
	}
      else
	{
	  fprintf (stderr, "fake-device: unknown action '%s'\n", act);
	  k->result = CUDA_ERROR_ILLEGAL_INSTRUCTION;
	  return NULL;
	}
    }
  return NULL;
}

API CUresult
cuLaunchKernel (CUfunction f, unsigned gx, unsigned gy, unsigned gz,
		unsigned bx, unsigned by, unsigned bz, unsigned shmem,
		CUstream stream, void **params, void **extra)
{
  READY ();
  if (f == NULL || params == NULL || extra != NULL || stream != NULL
      || gx * gy * gz == 0 || bx * by * bz == 0 || bx * by * bz > 1024)
    return CUDA_ERROR_INVALID_VALUE;
  if (((struct fake_module *) f)->maxntid
      && bx * by * bz > ((struct fake_module *) f)->maxntid)
    return CUDA_ERROR_INVALID_VALUE;
  if (fake_running)
    pthread_join (fake_thread, NULL);
  fake_k.m = (struct fake_module *) f;
  /* Parameters are copied at launch.  */
  fake_k.rval = (int *) (uintptr_t) *(CUdeviceptr *) params[0];
  fake_k.argc = *(int *) params[1];
  fake_k.argv = (uint64_t *) (uintptr_t) *(CUdeviceptr *) params[2];
  fake_k.result = CUDA_SUCCESS;
  fake_log ("cuLaunchKernel grid %u %u %u block %u %u %u shared %u",
	    gx, gy, gz, bx, by, bz, shmem);
  fake_log ("launch limits STACK_SIZE %zu MALLOC_HEAP_SIZE %zu", fake_stack,
	    fake_heap);
  if (pthread_create (&fake_thread, NULL, fake_device, &fake_k) != 0)
    return CUDA_ERROR_OUT_OF_MEMORY;
  fake_running = 1;
  return CUDA_SUCCESS;
}

API CUresult
cuCtxSynchronize (void)
{
  READY ();
  if (fake_running)
    {
      pthread_join (fake_thread, NULL);
      fake_running = 0;
      if (fake_k.result != CUDA_SUCCESS)
	{
	  fake_sticky = fake_k.result;
	  fake_log ("kernel failed");
	  return fake_sticky;
	}
      fake_log ("kernel ended");
    }
  return CUDA_SUCCESS;
}
