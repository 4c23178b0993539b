/* The simulated device: host threads acting as device clients, running
   host-service-client.h with its primitives implemented with C11-style
   atomics (which ThreadSanitizer understands), against the real server
   (host-service.c) over a region in ordinary memory.  Used by
   tests/sim/hs-sim.c and bench/hs-bench.c.  */

#ifndef HS_SIM_CLIENT_H
#define HS_SIM_CLIENT_H 1

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "libgomp-plugin.h"
#include "host-service.h"

static __thread unsigned sim_client_id;
/* Counts of the region loads of the client's control path (polls of the
   reply's sequence word and loads of the reply block), and of the polls
   among them that did not see the reply yet, per thread.  */
static __thread unsigned long sim_region_loads, sim_region_waits;
#define HS_COUNT_WAIT() (sim_region_waits++)
#define hs_publish(W, V) __atomic_store_n ((W), (V), __ATOMIC_RELEASE)
/* The device polls with plain loads and fences once after the poll; here
   (ThreadSanitizer does not model fences) every poll is an acquire load,
   which orders at least as much.  */
#define hs_poll(W) (sim_region_loads++, __atomic_load_n ((W), __ATOMIC_ACQUIRE))
#define hs_acquire() ((void) 0)
#define hs_client_start() (sim_client_id * 7u)
/* Every simulated client is a thread of its own: one lane.  */
#define hs_lane_mask() 1u
#define hs_lanes(M) ((void) (M), 1u)
#define hs_lane_index() 0u
#define hs_vote(M, P) ((void) (M), (P) != 0)
/* The port locks, with the acquire and release orders the device's
   fences give them.  */
static inline int
hs_lock_try (uint32_t *p)
{
  uint32_t z = 0;
  return __atomic_compare_exchange_n (p, &z, 1, 0, __ATOMIC_ACQUIRE,
				      __ATOMIC_RELAXED);
}
#define hs_lock_free(P) __atomic_store_n ((P), 0, __ATOMIC_RELEASE)
#define hs_lock_peek(M, P) ((void) (M), __atomic_load_n ((P), __ATOMIC_RELAXED))
#define hs_copy_share(M, L, N) ((void) (M), *(L) = 0, *(N) = 1)
/* The data path (host-service-client.h, DATA-PATH ROUNDS): every region
   load of a copy out of a port buffer counts, and opens a round unless
   one is open; HS_DATA_USE, which the client calls before it uses any
   loaded value, closes it.  SIM_LD_LO/SIM_LD_HI, when the includer sets
   them (not 0), are the bytes the loads may touch: a load outside them,
   or misaligned (a fault on a GPU), counts in SIM_LD_BAD.  */
static __thread unsigned long sim_data_loads, sim_data_rounds, sim_ld_bad;
static __thread int sim_data_open;
static __thread uintptr_t sim_ld_lo, sim_ld_hi;

static inline void
sim_data_load (const volatile void *p, unsigned size)
{
  uintptr_t a = (uintptr_t) p;
  sim_data_loads++;
  if (!sim_data_open)
    {
      sim_data_open = 1;
      sim_data_rounds++;
    }
  if ((a & (size - 1)) != 0
      || (sim_ld_hi != 0 && (a < sim_ld_lo || a + size > sim_ld_hi)))
    sim_ld_bad++;
}

#define HS_DATA_USE() ((void) (sim_data_open = 0))
#define HS_LD64(P) (sim_data_load ((P), 8), *(const volatile uint64_t *) (P))
#define HS_LD128(P, LO, HI) \
  (sim_data_load ((P), 16), *(LO) = (P)[0], *(HI) = (P)[1])
#define HS_ST8(P, V) (*(volatile uint8_t *) (P) = (V))
#define HS_ST64(P, V) (*(volatile uint64_t *) (P) = (V))
#define hs_copy_sync(M, HOST) ((void) (M), (void) (HOST))


static inline void
hs_load_reply (volatile struct gomp_hs_reply *r, uint32_t *info, int64_t *ret)
{
  sim_region_loads++;
  *info = r->info;
  *ret = r->ret;
}

/* How clients wait (the includer may define SIM_PAUSE(BACKOFF) to wait
   its own way).  A client waiting for its reply yields (at most one per
   port waits so); a client waiting for a free port backs off into
   sleeps, doubling from 16 us up to 16 ms, as the device's clients back
   off (config/nvptx/host-service.c).  Which of the two a wait is shows in
   sim_region_loads: polling for a reply reads the region, sweeping the
   port locks does not.  With hundreds of threads that only ever yield,
   the server's threads and the clients that hold ports hardly get the
   CPUs: 512 clients on one 64-byte port took 17 s on 2 idle cores (now
   0.6 s), and the soak's 64-byte phase ran 7 times slower; shorter
   sleeps wake the clients without a port too often.  */
#ifndef SIM_PAUSE
static __thread unsigned long sim_loads_seen;
#endif

static inline void
hs_pause (unsigned *backoff)
{
#ifdef SIM_PAUSE
  SIM_PAUSE (backoff);
#else
  unsigned b = ++*backoff;
  if (sim_region_loads != sim_loads_seen)
    {
      sim_loads_seen = sim_region_loads;
      if (b > 16)
	sched_yield ();
    }
  else
    {
      struct timespec ts = { 0, 16000L << (b - 1 < 10 ? b - 1 : 10) };
      nanosleep (&ts, NULL);
    }
#endif
}

/* When SIM_WARP is set (per thread), every copy out of a port buffer is
   made as the 32 lanes of a warp that is one thread make it: each lane's
   share in turn (lanes 0 .. 31 of 32, on the same buffers).  The lanes
   would run side by side, so the copy's data-path rounds are the most
   that one lane made.  */
static __thread int sim_warp;
static void sim_copy_out (unsigned char *, const volatile unsigned char *,
			  size_t, unsigned, unsigned);
#define HS_COPY_OUT sim_copy_out

#include "host-service-client.h"

/* Seconds on CLOCK_MONOTONIC.  */
static inline double
sim_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void
sim_copy_out (unsigned char *dst, const volatile unsigned char *src,
	      size_t n, unsigned lane, unsigned nlanes)
{
  unsigned long r0 = sim_data_rounds, most = 0;
  unsigned l;
  if (!sim_warp)
    {
      hs_copy_out (dst, src, n, lane, nlanes);
      return;
    }
  for (l = 0; l < 32; l++)
    {
      sim_data_rounds = 0;
      sim_data_open = 0;
      hs_copy_out (dst, src, n, l, 32);
      if (sim_data_rounds > most)
	most = sim_data_rounds;
    }
  sim_data_rounds = r0 + most;
  sim_data_open = 0;
}

/* One simulated device: a region, its server, the device-side state.  */
struct sim
{
  void *region;
  size_t size;
  int shared;			/* REGION from GOMP_PLUGIN_host_service_alloc.  */
  struct gomp_host_service *server;
  struct gomp_hs_device *dev;
  /* The device's port locks and sequence numbers ("device memory").  */
  struct gomp_hs_port_state *ports;
};

static inline void
sim_start (struct sim *s, unsigned ports, unsigned buf, const char *policy)
{
  char v[32];
  snprintf (v, sizeof v, "%u", ports);
  setenv ("GOMP_HOST_SERVICES_PORTS", v, 1);
  snprintf (v, sizeof v, "%u", buf);
  setenv ("GOMP_HOST_SERVICES_BUFFER", v, 1);
  setenv ("GOMP_HOST_SERVICES", policy, 1);
  s->size = GOMP_PLUGIN_host_service_size ();
  s->region = NULL;
  s->shared = 0;
  s->server = NULL;
  s->ports = NULL;
  s->dev = calloc (1, sizeof *s->dev);
  s->dev->version = GOMP_HS_VERSION;
  if (s->size == 0)
    return;
  /* Shared memory when the server runs in a process of its own
     (GOMP_HOST_SERVICES_SERVER=process).  */
  s->region = GOMP_PLUGIN_host_service_alloc (s->size);
  s->shared = s->region != NULL;
  if (s->region == NULL && posix_memalign (&s->region, 64, s->size) != 0)
    abort ();
  s->server = GOMP_PLUGIN_host_service_init (s->region, s->size);
  if (s->server == NULL)
    abort ();
  GOMP_PLUGIN_host_service_geometry (s->server, &s->dev->nports,
				     &s->dev->buf_size);
  s->ports = calloc (s->dev->nports, sizeof *s->ports);
  s->dev->region = (uintptr_t) s->region;
  s->dev->ports = (uintptr_t) s->ports;
  GOMP_PLUGIN_host_service_kernel_begin (s->server);
}

static inline void
sim_stop (struct sim *s)
{
  if (s->server)
    {
      GOMP_PLUGIN_host_service_kernel_end (s->server);
      GOMP_PLUGIN_host_service_fini (s->server);
    }
  if (s->shared)
    GOMP_PLUGIN_host_service_free (s->region);
  else
    free (s->region);
  free (s->ports);
  free (s->dev);
}

static inline int64_t
sim_call (struct sim *s, uint32_t op, int64_t a0, int64_t a1, int64_t a2,
	  const void *in, uint64_t in_len, void *out, uint64_t out_cap,
	  uint64_t *out_len, int32_t *err)
{
  int64_t args[4] = { a0, a1, a2, 0 };
  return hs_call (s->dev, op, args, in, in_len, out, out_cap, out_len, err);
}

#endif
