/* gomp-nvptx-run: run a standalone nvptx-none program, serving its host
   services.
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

/* Usage: gomp-nvptx-run [OPTION...] PROGRAM [ARG...]

   PROGRAM is an nvptx-none executable as nvptx-none-ld writes it: PTX
   texts, each ended by a NUL.  They are JIT-linked on CUDA device 0 and
   the kernel __main (crt0: int *rval_ptr, int argc, void **argv) is
   launched as one block of one thread (-L: N threads), with argv[0] =
   PROGRAM and the ARGs after it, in device memory.  Written from the CUDA
   driver API documentation; the options are those of nvptx-tools'
   nvptx-none-run.

   If the program's device runtime defines __gomp_host_service
   (host-service.h), the launcher is its host-service server: it
   allocates the region in page-locked host memory mapped into the
   device, the port states in device memory, points the device's struct
   at them and serves calls (gomp-hs-server.h) while the kernel runs;
   GOMP_HOST_SERVICES* configure it as in libgomp.  main's return and C's
   exit end the kernel with the status in *rval_ptr (newlib's exit
   flushes the device's streams first), which the launcher exits with;
   Fortran's STOP and error termination reach the host as the EXIT call,
   and the server ends this process with the device's status.  A device
   runtime that defines __gomp_nvptx_newlib_errno (config/nvptx/
   posix-io.c) has it set: the program was compiled with newlib's
   <errno.h>, so errno gets newlib's numbers.  If the program defines
   __gomp_nvptx_tls (config/nvptx/device-tls.h), it gets its table of
   per-thread C library states.  A program without __gomp_host_service
   runs without a server, and its status is what crt0 left in *rval_ptr.

   The CUDA driver (libcuda.so.1) is opened at run time: nothing is
   linked against it.

   Exit status:
     0-255  the program's: main's return value or exit's status
     125    bad usage (an unknown option, a bad number, no PROGRAM)
     126    PROGRAM cannot be read, linked or loaded, or has no __main
     127    no CUDA driver (libcuda.so.1 missing or incomplete) or no
	    CUDA device
     123    another CUDA error (e.g. the kernel cannot be launched with
	    that many lanes), or host services could not be set up
     134    the kernel failed (a trap: abort, an assertion, a fault)
   Every error of the launcher itself is one line on stderr that starts
   with "gomp-nvptx-run: ".  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda.h>

/* GCC's own minimal cuda.h (include/cuda/cuda.h in GCC's tree, which
   libgomp's plugin is built with when no CUDA toolkit is installed, and
   so is this launcher) lacks these; the values are the driver API's.  */
#if CUDA_VERSION < 9000
#define CU_JIT_GENERATE_DEBUG_INFO ((CUjit_option) 11)
#define CU_JIT_GENERATE_LINE_INFO ((CUjit_option) 13)
#define CU_CTX_SCHED_BLOCKING_SYNC 0x04
#define CU_CTX_MAP_HOST 0x08
#endif
#include "gomp-hs-server.h"
#include "host-service.h"
#include "config/nvptx/device-tls.h"

#define PROG "gomp-nvptx-run"
#define VERSION_STRING "1.0"

#define EXIT_USAGE	125
#define EXIT_PROGRAM	126
#define EXIT_NO_CUDA	127
#define EXIT_CUDA	123
#define EXIT_KERNEL	134

/* The most hardware stack per thread that an image's __gomp_host_service
   may ask for, as in libgomp's plugin.  */
#define HS_STACK_MAX (64 * 1024)

/* The driver functions used, by the names libcuda.so.1 exports them
   under (cuda.h maps most names to their _v2 versions).  */
#define CUDA_FNS \
  CUDA_FN (cuInit, (unsigned)) \
  CUDA_FN (cuGetErrorName, (CUresult, const char **)) \
  CUDA_FN (cuGetErrorString, (CUresult, const char **)) \
  CUDA_FN (cuDeviceGetCount, (int *)) \
  CUDA_FN (cuDeviceGet, (CUdevice *, int)) \
  CUDA_FN (cuCtxCreate_v2, (CUcontext *, unsigned, CUdevice)) \
  CUDA_FN (cuCtxDestroy_v2, (CUcontext)) \
  CUDA_FN (cuCtxSynchronize, (void)) \
  CUDA_FN (cuCtxGetLimit, (size_t *, CUlimit)) \
  CUDA_FN (cuCtxSetLimit, (CUlimit, size_t)) \
  CUDA_FN (cuLinkCreate_v2, (unsigned, CUjit_option *, void **, \
			     CUlinkState *)) \
  CUDA_FN (cuLinkAddData_v2, (CUlinkState, CUjitInputType, void *, size_t, \
			      const char *, unsigned, CUjit_option *, \
			      void **)) \
  CUDA_FN (cuLinkComplete, (CUlinkState, void **, size_t *)) \
  CUDA_FN (cuLinkDestroy, (CUlinkState)) \
  CUDA_FN (cuModuleLoadData, (CUmodule *, const void *)) \
  CUDA_FN (cuModuleUnload, (CUmodule)) \
  CUDA_FN (cuModuleGetFunction, (CUfunction *, CUmodule, const char *)) \
  CUDA_FN (cuModuleGetGlobal_v2, (CUdeviceptr *, size_t *, CUmodule, \
				  const char *)) \
  CUDA_FN (cuMemAlloc_v2, (CUdeviceptr *, size_t)) \
  CUDA_FN (cuMemFree_v2, (CUdeviceptr)) \
  CUDA_FN (cuMemsetD8_v2, (CUdeviceptr, unsigned char, size_t)) \
  CUDA_FN (cuMemcpyHtoD_v2, (CUdeviceptr, const void *, size_t)) \
  CUDA_FN (cuMemcpyDtoH_v2, (void *, CUdeviceptr, size_t)) \
  CUDA_FN (cuMemHostAlloc, (void **, size_t, unsigned)) \
  CUDA_FN (cuMemHostGetDevicePointer_v2, (CUdeviceptr *, void *, unsigned)) \
  CUDA_FN (cuMemFreeHost, (void *)) \
  CUDA_FN (cuMemHostRegister_v2, (void *, size_t, unsigned)) \
  CUDA_FN (cuMemHostUnregister, (void *)) \
  CUDA_FN (cuLaunchKernel, (CUfunction, unsigned, unsigned, unsigned, \
			    unsigned, unsigned, unsigned, unsigned, \
			    CUstream, void **, void **))

static struct
{
#define CUDA_FN(NAME, ARGS) CUresult (*NAME) ARGS;
  CUDA_FNS
#undef CUDA_FN
} cu;

/* Options.  */
static size_t opt_stack;	/* 0: automatic.  */
static size_t opt_heap = (size_t) 256 << 20;
static unsigned opt_lanes = 1;
static int opt_optlevel = -1;	/* -1: the JIT's default.  */
static int opt_lineinfo, opt_debuginfo;

static const char *progname;	/* PROGRAM.  */

static void __attribute__ ((format (printf, 2, 3), noreturn))
fail (int status, const char *fmt, ...)
{
  va_list ap;
  fflush (stdout);
  fputs (PROG ": ", stderr);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  exit (status);
}

/* GOMP_DEBUG=1: say what is set up, on stderr.  */

static int debug_on;

static void __attribute__ ((format (printf, 1, 2)))
debug (const char *fmt, ...)
{
  va_list ap;
  if (!debug_on)
    return;
  fputs (PROG ": ", stderr);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
}

static const char *
cuda_error (CUresult r)
{
  static char buf[256];
  const char *name = NULL, *desc = NULL;
  if (cu.cuGetErrorName == NULL || cu.cuGetErrorName (r, &name) != CUDA_SUCCESS)
    name = NULL;
  if (cu.cuGetErrorString == NULL
      || cu.cuGetErrorString (r, &desc) != CUDA_SUCCESS)
    desc = NULL;
  if (name != NULL && desc != NULL)
    snprintf (buf, sizeof buf, "%s: %s", name, desc);
  else
    snprintf (buf, sizeof buf, "CUDA error %d", (int) r);
  return buf;
}

/* Fail unless R is CUDA_SUCCESS.  */

static void
check (CUresult r, int status, const char *what)
{
  if (r != CUDA_SUCCESS)
    fail (status, "%s: %s", what, cuda_error (r));
}

static void
open_driver (void)
{
  void *h = dlopen ("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h == NULL)
    fail (EXIT_NO_CUDA, "cannot load the CUDA driver (libcuda.so.1): %s",
	  dlerror ());
#define CUDA_FN(NAME, ARGS) \
  if ((*(void **) &cu.NAME = dlsym (h, #NAME)) == NULL) \
    fail (EXIT_NO_CUDA, "the CUDA driver (libcuda.so.1) lacks %s", #NAME);
  CUDA_FNS
#undef CUDA_FN
}

static void
usage (FILE *f)
{
  fprintf (f, "\
Usage: " PROG " [OPTION...] PROGRAM [ARGUMENT...]\n\
Run the nvptx-none program PROGRAM on CUDA device 0, serving its host\n\
services (file and stream I/O, the clock, exit) while it runs.\n\
Options (they end at PROGRAM):\n\
  -S, --stack-size N    Set the per-thread GPU stack to N bytes (default:\n\
                        CUDA's, raised to what the device runtime asks for)\n\
  -H, --heap-size N     Set the GPU heap to N bytes (default: 256 MiB)\n\
  -L, --lanes N         Launch N lanes (for testing gcc -muniform-simt)\n\
  -O, --optlevel N      Pass the PTX JIT optimization level N (0-4)\n\
  -g, --lineinfo        Pass the PTX JIT option to generate line information\n\
  -G, --debuginfo       Pass the PTX JIT option to generate debug information\n\
  --help                Print this help and exit\n\
  --version             Print the version number and exit\n\
N may end in k, M or G (KiB, MiB, GiB).\n\
\n\
Exit status: the program's (main's return value or exit's status);\n\
125 bad usage; 126 PROGRAM cannot be read or loaded; 127 no CUDA driver\n\
or device; 123 another CUDA or host-service error; 134 the kernel failed\n\
(a trap, e.g. abort).\n\
Environment: GOMP_HOST_SERVICES, GOMP_HOST_SERVICES_* (the server, as in\n\
libgomp), GOMP_NVPTX_THREAD_STATES, GOMP_DEBUG, CUDA_VISIBLE_DEVICES.\n");
}

/* Parse N (bytes or a count) for option NAME; fail unless it is in
   [MIN, MAX].  */

static unsigned long long
parse_number (const char *s, const char *name, unsigned long long min,
	      unsigned long long max, int suffixes)
{
  char *end;
  unsigned long long v, mul = 1;
  errno = 0;
  if (*s < '0' || *s > '9')
    goto bad;
  v = strtoull (s, &end, 10);
  if (errno != 0)
    goto bad;
  if (suffixes && *end != '\0' && end[1] == '\0')
    switch (*end)
      {
      case 'k': case 'K': mul = 1ull << 10; end++; break;
      case 'm': case 'M': mul = 1ull << 20; end++; break;
      case 'g': case 'G': mul = 1ull << 30; end++; break;
      default: break;
      }
  if (*end != '\0' || v > ULLONG_MAX / mul)
    goto bad;
  v *= mul;
  if (v < min || v > max)
    goto bad;
  return v;
 bad:
  fail (EXIT_USAGE, "%s: '%s' is not a number from %llu to %llu", name, s,
	min, max);
}

static int
parse_options (int argc, char **argv)
{
  static const struct option longopts[] =
    {
      { "stack-size", required_argument, NULL, 'S' },
      { "heap-size", required_argument, NULL, 'H' },
      { "lanes", required_argument, NULL, 'L' },
      { "optlevel", required_argument, NULL, 'O' },
      { "lineinfo", no_argument, NULL, 'g' },
      { "debuginfo", no_argument, NULL, 'G' },
      { "help", no_argument, NULL, 'h' },
      { "version", no_argument, NULL, 'V' },
      { NULL, 0, NULL, 0 }
    };
  int c;

  opterr = 0;
  /* '+': options end at the first argument that is not one.  */
  while ((c = getopt_long (argc, argv, "+:S:H:L:O:gG", longopts, NULL)) != -1)
    switch (c)
      {
      case 'S':
	opt_stack = parse_number (optarg, "--stack-size", 1, SIZE_MAX, 1);
	break;
      case 'H':
	opt_heap = parse_number (optarg, "--heap-size", 0, SIZE_MAX, 1);
	break;
      case 'L':
	/* One warp at most: crt0 sets up the soft stack and the
	   uniform-SIMT state of warp 0 only.  */
	opt_lanes = parse_number (optarg, "--lanes", 1, 32, 0);
	break;
      case 'O':
	opt_optlevel = parse_number (optarg, "--optlevel", 0, 4, 0);
	break;
      case 'g':
	opt_lineinfo = 1;
	break;
      case 'G':
	opt_debuginfo = 1;
	break;
      case 'h':
	usage (stdout);
	exit (0);
      case 'V':
	printf (PROG " (GCC libgomp host services) " VERSION_STRING "\n"
		"Copyright (C) 2026 Free Software Foundation, Inc.\n"
		"This is free software; see the source for copying"
		" conditions.  There is NO\nwarranty; not even for"
		" MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.\n");
	exit (0);
      case ':':
	fail (EXIT_USAGE, "option '%s' needs an argument (--help: usage)",
	      argv[optind - 1]);
      default:
	if (optopt)
	  fail (EXIT_USAGE, "unknown option '-%c' (--help: usage)", optopt);
	fail (EXIT_USAGE, "unknown option '%s' (--help: usage)",
	      argv[optind - 1]);
      }
  if (optind >= argc)
    fail (EXIT_USAGE, "no PROGRAM given (--help: usage)");
  /* The PTX JIT does not optimize code it generates debug information
     for: -G means -O 0.  */
  if (opt_debuginfo && opt_optlevel > 0)
    fail (EXIT_USAGE, "-G (debug information) needs -O 0, not -O %d",
	  opt_optlevel);
  if (opt_debuginfo)
    opt_optlevel = 0;
  return optind;
}

/* PROGRAM's bytes, with a NUL after them.  */

static char *
read_program (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  char *buf = NULL;
  size_t n = 0, cap = 0;

  if (f == NULL)
    fail (EXIT_PROGRAM, "%s: %s", path, strerror (errno));
  for (;;)
    {
      size_t got;
      if (cap - n < 65536)
	{
	  cap = cap ? cap * 2 : 1 << 20;
	  if ((buf = realloc (buf, cap + 1)) == NULL)
	    fail (EXIT_PROGRAM, "%s: out of memory", path);
	}
      got = fread (buf + n, 1, cap - n, f);
      n += got;
      if (got == 0)
	break;
    }
  if (ferror (f))
    fail (EXIT_PROGRAM, "%s: %s", path, strerror (errno));
  fclose (f);
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* JIT-link the PTX texts of PROGRAM (BUF, LEN bytes) and load the
   result.  */

static CUmodule
load_program (char *buf, size_t len)
{
  static char elog[16384], ilog[16384];
  CUjit_option opts[8];
  void *vals[8];
  unsigned nopts = 0, pieces = 0;
  CUlinkState link;
  CUmodule module;
  void *cubin;
  size_t cubin_size, off;
  CUresult r;

  opts[nopts] = CU_JIT_ERROR_LOG_BUFFER;
  vals[nopts++] = elog;
  opts[nopts] = CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
  vals[nopts++] = (void *) (uintptr_t) sizeof elog;
  opts[nopts] = CU_JIT_INFO_LOG_BUFFER;
  vals[nopts++] = ilog;
  opts[nopts] = CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES;
  vals[nopts++] = (void *) (uintptr_t) sizeof ilog;
  if (opt_optlevel >= 0)
    {
      opts[nopts] = CU_JIT_OPTIMIZATION_LEVEL;
      vals[nopts++] = (void *) (uintptr_t) opt_optlevel;
    }
  if (opt_lineinfo)
    {
      opts[nopts] = CU_JIT_GENERATE_LINE_INFO;
      vals[nopts++] = (void *) (uintptr_t) 1;
    }
  if (opt_debuginfo)
    {
      opts[nopts] = CU_JIT_GENERATE_DEBUG_INFO;
      vals[nopts++] = (void *) (uintptr_t) 1;
    }
  check (cu.cuLinkCreate_v2 (nopts, opts, vals, &link), EXIT_CUDA,
	 "cuLinkCreate");
  /* nvptx-none-ld writes each object's PTX ended by a NUL.  */
  for (off = 0; off < len; )
    {
      size_t n = strlen (buf + off);
      if (n != 0)
	{
	  char name[64];
	  snprintf (name, sizeof name, "%s:%zu", "ptx", off);
	  r = cu.cuLinkAddData_v2 (link, CU_JIT_INPUT_PTX, buf + off, n + 1,
				   name, 0, NULL, NULL);
	  if (r != CUDA_SUCCESS)
	    {
	      if (elog[0])
		fprintf (stderr, "%s\n", elog);
	      fail (EXIT_PROGRAM, "%s: the PTX at offset %zu does not"
		    " compile: %s", progname, off, cuda_error (r));
	    }
	  pieces++;
	}
      off += n + 1;
    }
  debug ("%s: %u PTX texts", progname, pieces);
  if (pieces == 0)
    fail (EXIT_PROGRAM, "%s: no PTX in the file", progname);
  r = cu.cuLinkComplete (link, &cubin, &cubin_size);
  if (r != CUDA_SUCCESS)
    {
      if (elog[0])
	fprintf (stderr, "%s\n", elog);
      fail (EXIT_PROGRAM, "%s: cannot link: %s", progname, cuda_error (r));
    }
  if (ilog[0])
    debug ("the PTX JIT says: %s", ilog);
  r = cu.cuModuleLoadData (&module, cubin);
  if (r != CUDA_SUCCESS)
    fail (EXIT_PROGRAM, "%s: cannot load: %s", progname, cuda_error (r));
  cu.cuLinkDestroy (link);
  return module;
}

/* Best effort: make the limit WHICH at least BYTES.  */

static void
raise_limit (CUlimit which, size_t bytes)
{
  size_t cur = 0;
  CUresult r;
  if (cu.cuCtxGetLimit (&cur, which) == CUDA_SUCCESS && cur >= bytes)
    return;
  r = cu.cuCtxSetLimit (which, bytes);
  /* The program may still run with less; say why if it does not.  */
  if (r != CUDA_SUCCESS)
    fprintf (stderr, PROG ": warning: cannot raise the device %s to %zu"
	     " bytes: %s\n", which == CU_LIMIT_STACK_SIZE ? "stack" : "heap",
	     bytes, cuda_error (r));
}

/* Host services of one run.  */
static struct
{
  void *region;
  int shared;			/* From GOMP_PLUGIN_host_service_alloc.  */
  CUdeviceptr ports;
  struct gomp_host_service *server;
  CUdeviceptr tls_table;
} hs;

/* If MODULE defines __gomp_nvptx_tls, give it its table of per-thread
   states, for the one kernel of LANES threads, and the device heap for
   them beyond HEAP.  */

static void
setup_tls (CUmodule module, size_t heap)
{
  struct gomp_nvptx_tls t;
  CUdeviceptr sym;
  size_t bytes, size;
  uint64_t n, requested = 0;
  const char *s = getenv ("GOMP_NVPTX_THREAD_STATES");
  CUresult r = cu.cuModuleGetGlobal_v2 (&sym, &bytes, module,
					GOMP_NVPTX_TLS_SYMBOL);
  if (r == CUDA_ERROR_NOT_FOUND)
    return;
  check (r, EXIT_CUDA, "cuModuleGetGlobal (" GOMP_NVPTX_TLS_SYMBOL ")");
  if (bytes != sizeof t)
    fail (EXIT_PROGRAM, "%s: its %s has %zu bytes, not %zu: mismatched"
	  " device runtime", progname, GOMP_NVPTX_TLS_SYMBOL, bytes,
	  sizeof t);
  check (cu.cuMemcpyDtoH_v2 (&t, sym, sizeof t), EXIT_CUDA,
	 "cuMemcpyDtoH (" GOMP_NVPTX_TLS_SYMBOL ")");
  if (t.version != GOMP_NVPTX_TLS_VERSION || t.entry_size == 0
      || t.entry_size > 4096)
    fail (EXIT_PROGRAM, "%s: its %s is version %u (entries of %u bytes),"
	  " not %u: mismatched device runtime", progname,
	  GOMP_NVPTX_TLS_SYMBOL, t.version, t.entry_size,
	  GOMP_NVPTX_TLS_VERSION);
  if (s != NULL && *s != '\0')
    {
      char *end;
      errno = 0;
      requested = strtoull (s, &end, 10);
      if (errno != 0 || *end != '\0' || *s < '0' || *s > '9'
	  || requested == 0 || requested > GOMP_NVPTX_TLS_MAX_SLOTS)
	{
	  fprintf (stderr, PROG ": GOMP_NVPTX_THREAD_STATES=%s is not a"
		   " number from 1 to %u: using the default\n", s,
		   GOMP_NVPTX_TLS_MAX_SLOTS);
	  requested = 0;
	}
    }
  /* One kernel of one block: its threads are all there is.  */
  n = gomp_nvptx_tls_slots (1, opt_lanes, requested);
  size = n * t.entry_size;
  check (cu.cuMemAlloc_v2 (&hs.tls_table, size), EXIT_CUDA,
	 "cuMemAlloc (per-thread states)");
  check (cu.cuMemsetD8_v2 (hs.tls_table, 0, size), EXIT_CUDA,
	 "cuMemsetD8 (per-thread states)");
  t.nslots = n;
  /* The one launch is the first epoch.  */
  t.epoch = gomp_nvptx_tls_next_epoch (0);
  t.slots = hs.tls_table;
  check (cu.cuMemcpyHtoD_v2 (sym, &t, sizeof t), EXIT_CUDA,
	 "cuMemcpyHtoD (" GOMP_NVPTX_TLS_SYMBOL ")");
  raise_limit (CU_LIMIT_MALLOC_HEAP_SIZE,
	       heap + (gomp_nvptx_tls_heap (n) - GOMP_NVPTX_TLS_HEAP_BASE));
  debug ("%s: %llu entries of %u bytes", GOMP_NVPTX_TLS_SYMBOL,
	 (unsigned long long) n, t.entry_size);
}

/* If MODULE's device runtime defines __gomp_nvptx_newlib_errno (an int),
   set it: errno is then newlib's, as the program expects.  */

static void
setup_newlib_errno (CUmodule module)
{
  CUdeviceptr sym;
  size_t bytes;
  int one = 1;
  CUresult r = cu.cuModuleGetGlobal_v2 (&sym, &bytes, module,
					"__gomp_nvptx_newlib_errno");
  if (r == CUDA_ERROR_NOT_FOUND)
    return;
  check (r, EXIT_CUDA, "cuModuleGetGlobal (__gomp_nvptx_newlib_errno)");
  if (bytes != sizeof one)
    fail (EXIT_PROGRAM, "%s: its __gomp_nvptx_newlib_errno has %zu bytes,"
	  " not %zu: mismatched device runtime", progname, bytes, sizeof one);
  check (cu.cuMemcpyHtoD_v2 (sym, &one, sizeof one), EXIT_CUDA,
	 "cuMemcpyHtoD (__gomp_nvptx_newlib_errno)");
}

/* If MODULE defines __gomp_host_service, set up its region and server
   and point it at them.  */

static void
setup_host_services (CUmodule module)
{
  struct gomp_hs_device head;
  CUdeviceptr sym, region_dev = 0;
  size_t bytes, size;
  unsigned nports = 0, buf_size = 0;
  CUresult r = cu.cuModuleGetGlobal_v2 (&sym, &bytes, module,
					GOMP_HS_DEVICE_SYMBOL);
  if (r == CUDA_ERROR_NOT_FOUND)
    return;
  check (r, EXIT_CUDA, "cuModuleGetGlobal (" GOMP_HS_DEVICE_SYMBOL ")");
  if (bytes != sizeof head)
    fail (EXIT_PROGRAM, "%s: its %s has %zu bytes, not %zu: mismatched"
	  " device runtime", progname, GOMP_HS_DEVICE_SYMBOL, bytes,
	  sizeof head);
  check (cu.cuMemcpyDtoH_v2 (&head, sym, sizeof head), EXIT_CUDA,
	 "cuMemcpyDtoH (" GOMP_HS_DEVICE_SYMBOL ")");
  if (head.version != GOMP_HS_VERSION)
    fail (EXIT_PROGRAM, "%s: its device runtime speaks host-service"
	  " protocol %u, this launcher %u: mismatched device runtime",
	  progname, head.version, GOMP_HS_VERSION);

  size = GOMP_PLUGIN_host_service_size ();
  if (size != 0)
    {
      /* Shared memory when the server runs in a process of its own
	 (GOMP_HOST_SERVICES_SERVER=process): registered, not allocated.  */
      hs.region = GOMP_PLUGIN_host_service_alloc (size);
      if (hs.region != NULL)
	{
	  hs.shared = 1;
	  r = cu.cuMemHostRegister_v2 (hs.region, size,
				       CU_MEMHOSTREGISTER_PORTABLE
				       | CU_MEMHOSTREGISTER_DEVICEMAP);
	  if (r != CUDA_SUCCESS)
	    {
	      GOMP_PLUGIN_host_service_free (hs.region);
	      hs.region = NULL;
	      check (r, EXIT_CUDA, "host services: cuMemHostRegister");
	    }
	}
      else if ((r = cu.cuMemHostAlloc (&hs.region, size,
				       CU_MEMHOSTALLOC_PORTABLE
				       | CU_MEMHOSTALLOC_DEVICEMAP))
	       != CUDA_SUCCESS)
	{
	  hs.region = NULL;
	  check (r, EXIT_CUDA, "host services: cuMemHostAlloc");
	}
      check (cu.cuMemHostGetDevicePointer_v2 (&region_dev, hs.region, 0),
	     EXIT_CUDA, "host services: cuMemHostGetDevicePointer");
      hs.server = GOMP_PLUGIN_host_service_init (hs.region, size);
      if (hs.server == NULL)
	fail (EXIT_CUDA, "host services: cannot set up the server");
      GOMP_PLUGIN_host_service_geometry (hs.server, &nports, &buf_size);
      check (cu.cuMemAlloc_v2 (&hs.ports, nports
				 * sizeof (struct gomp_hs_port_state)),
	     EXIT_CUDA, "host services: cuMemAlloc");
      check (cu.cuMemsetD8_v2 (hs.ports, 0, nports
				 * sizeof (struct gomp_hs_port_state)),
	     EXIT_CUDA, "host services: cuMemsetD8");
    }
  if (hs.server)
    debug ("host services: %zu bytes at %p (device %#llx), %u ports of %u"
	   " bytes", size, hs.region, (unsigned long long) region_dev, nports,
	   buf_size);
  else
    debug ("host services are off (GOMP_HOST_SERVICES)");
  /* With host services off, NPORTS 0: every call fails with ENOSYS.  */
  head.nports = nports;
  head.buf_size = buf_size;
  head.region = hs.server ? (uint64_t) region_dev : 0;
  head.ports = hs.server ? (uint64_t) hs.ports : 0;
  check (cu.cuMemcpyHtoD_v2 (sym, &head, sizeof head), EXIT_CUDA,
	 "cuMemcpyHtoD (" GOMP_HS_DEVICE_SYMBOL ")");
  /* Threads on the hardware stack need room for stdio there.  */
  if (opt_stack == 0 && head.stack != 0)
    raise_limit (CU_LIMIT_STACK_SIZE, head.stack > HS_STACK_MAX
				      ? HS_STACK_MAX : head.stack);
}

/* ARGC strings of ARGV in device memory: the ARGC pointers and a null
   pointer (ARGV[ARGC], as C requires), then the strings.  */

static CUdeviceptr
device_argv (int argc, char **argv)
{
  size_t bytes = ((size_t) argc + 1) * sizeof (uint64_t), pos;
  char *host;
  uint64_t *ptrs;
  CUdeviceptr dev;
  int i;

  for (i = 0; i < argc; i++)
    bytes += strlen (argv[i]) + 1;
  if ((host = malloc (bytes)) == NULL)
    fail (EXIT_CUDA, "out of memory for the arguments");
  check (cu.cuMemAlloc_v2 (&dev, bytes), EXIT_CUDA,
	 "cuMemAlloc (arguments)");
  ptrs = (uint64_t *) host;
  ptrs[argc] = 0;
  pos = ((size_t) argc + 1) * sizeof (uint64_t);
  for (i = 0; i < argc; i++)
    {
      size_t n = strlen (argv[i]) + 1;
      ptrs[i] = (uint64_t) dev + pos;
      memcpy (host + pos, argv[i], n);
      pos += n;
    }
  check (cu.cuMemcpyHtoD_v2 (dev, host, bytes), EXIT_CUDA,
	 "cuMemcpyHtoD (arguments)");
  free (host);
  return dev;
}

/* Stop serving.  After a kernel failure the context is unusable: only
   the server's own threads are waited for, never the device.  */

static void
stop_host_services (void)
{
  if (hs.server == NULL)
    return;
  GOMP_PLUGIN_host_service_shutdown (hs.server);
  GOMP_PLUGIN_host_service_fini (hs.server);
  hs.server = NULL;
}

int
main (int argc, char **argv)
{
  int first = parse_options (argc, argv);
  int dev_argc = argc - first, ndev = 0, status = 255;
  char *image;
  size_t image_len;
  CUdevice dev;
  CUcontext ctx;
  CUmodule module;
  CUfunction fn;
  CUdeviceptr rval, dargv;
  void *params[3];
  CUresult r;
  const char *d = getenv ("GOMP_DEBUG");

  debug_on = d != NULL && atoi (d) != 0;
  progname = argv[first];
  image = read_program (progname, &image_len);
  open_driver ();
  r = cu.cuInit (0);
  if (r != CUDA_SUCCESS)
    fail (EXIT_NO_CUDA, "no CUDA device: cuInit: %s", cuda_error (r));
  r = cu.cuDeviceGetCount (&ndev);
  if (r != CUDA_SUCCESS || ndev == 0)
    fail (EXIT_NO_CUDA, "no CUDA device%s%s", r ? ": " : "",
	  r ? cuda_error (r) : "");
  check (cu.cuDeviceGet (&dev, 0), EXIT_NO_CUDA, "cuDeviceGet");
  /* The launching thread sleeps while it waits for the kernel: the
     server's threads need the CPU.  Mapped host memory (the region)
     needs CU_CTX_MAP_HOST before CUDA 11, and is always on since.  */
  check (cu.cuCtxCreate_v2 (&ctx, CU_CTX_SCHED_BLOCKING_SYNC
				 | CU_CTX_MAP_HOST, dev),
	 EXIT_CUDA, "cuCtxCreate");
  if (opt_stack)
    check (cu.cuCtxSetLimit (CU_LIMIT_STACK_SIZE, opt_stack), EXIT_CUDA,
	   "cannot set the stack size (-S)");
  check (cu.cuCtxSetLimit (CU_LIMIT_MALLOC_HEAP_SIZE, opt_heap), EXIT_CUDA,
	 "cannot set the heap size (-H)");

  module = load_program (image, image_len);
  free (image);
  r = cu.cuModuleGetFunction (&fn, module, "__main");
  if (r != CUDA_SUCCESS)
    fail (EXIT_PROGRAM, "%s: no kernel __main (not linked with crt0?): %s",
	  progname, cuda_error (r));
  setup_tls (module, opt_heap);
  setup_host_services (module);
  setup_newlib_errno (module);

  check (cu.cuMemAlloc_v2 (&rval, sizeof (int)), EXIT_CUDA,
	 "cuMemAlloc (exit status)");
  check (cu.cuMemsetD8_v2 (rval, 0xff, sizeof (int)), EXIT_CUDA,
	 "cuMemsetD8 (exit status)");
  dargv = device_argv (dev_argc, argv + first);
  params[0] = &rval;
  params[1] = &dev_argc;
  params[2] = &dargv;

  if (debug_on)
    {
      size_t stack = 0, heap = 0;
      cu.cuCtxGetLimit (&stack, CU_LIMIT_STACK_SIZE);
      cu.cuCtxGetLimit (&heap, CU_LIMIT_MALLOC_HEAP_SIZE);
      debug ("launching __main: %d arguments, %u lanes, stack %zu, heap %zu",
	     dev_argc, opt_lanes, stack, heap);
    }
  fflush (NULL);
  if (hs.server)
    GOMP_PLUGIN_host_service_kernel_begin (hs.server);
  r = cu.cuLaunchKernel (fn, 1, 1, 1, opt_lanes, 1, 1, 0, NULL, params, NULL);
  if (r != CUDA_SUCCESS)
    {
      if (hs.server)
	GOMP_PLUGIN_host_service_kernel_end (hs.server);
      stop_host_services ();
      fail (EXIT_CUDA, "%s: cannot launch __main with %u lanes: %s",
	    progname, opt_lanes, cuda_error (r));
    }
  r = cu.cuCtxSynchronize ();
  if (hs.server)
    GOMP_PLUGIN_host_service_kernel_end (hs.server);
  if (r != CUDA_SUCCESS)
    {
      /* A trap or fault: the context is lost; the process ends without
	 freeing device memory.  */
      stop_host_services ();
      fail (EXIT_KERNEL, "%s: kernel failed: %s", progname, cuda_error (r));
    }
  /* The program ended without the EXIT call (no host services, or host
     services off): crt0 left its status in *RVAL.  */
  stop_host_services ();
  check (cu.cuMemcpyDtoH_v2 (&status, rval, sizeof status), EXIT_CUDA,
	 "cuMemcpyDtoH (exit status)");
  debug ("__main ended, status %d", status);
  cu.cuMemFree_v2 (dargv);
  cu.cuMemFree_v2 (rval);
  if (hs.ports)
    cu.cuMemFree_v2 (hs.ports);
  if (hs.tls_table)
    cu.cuMemFree_v2 (hs.tls_table);
  if (hs.region && hs.shared)
    {
      cu.cuMemHostUnregister (hs.region);
      GOMP_PLUGIN_host_service_free (hs.region);
    }
  else if (hs.region)
    cu.cuMemFreeHost (hs.region);
  cu.cuModuleUnload (module);
  cu.cuCtxDestroy_v2 (ctx);
  return status & 0xff;
}
