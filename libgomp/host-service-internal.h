/* Host services: what the host-side files share.
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

/* The host side of host-service.h is four files:

     host-service.c         configuration, the plugin interface, and the
			    rounds of a call: taking in a request, running
			    the op, writing the reply;
     host-service-ops.c     the op table and its handlers;
     host-service-fd.c      the device's file descriptors;
     host-service-server.c  the threads: one poller per region, and
			    workers for what may block.

   Ownership of a port's state (struct hs_ctx): the poller owns every
   port whose OWNER is HS_OWNER_POLLER; it hands a round that may block to
   a worker by setting OWNER to HS_OWNER_WORKER, and the worker hands the
   port back when it has answered.  Only the owner touches the context.
   HS_OWNER_ORPHAN splits the two: shutdown has answered the worker's
   round for it, so the port (its slot in the region, and ANSWERED) is the
   poller's again, which answers every later round on it with ECANCELED,
   while the call's state stays the worker's until it returns.
   The region is read and written by the poller, and by workers and
   GOMP_PLUGIN_host_service_shutdown only under REPLY_LOCK while the
   region is attached (see host-service-server.c).  */

#ifndef GOMP_HOST_SERVICE_INTERNAL_H
#define GOMP_HOST_SERVICE_INTERNAL_H 1

#include "host-service.h"
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

enum hs_policy { HS_POLICY_OFF, HS_POLICY_STDIO, HS_POLICY_READONLY,
		 HS_POLICY_ALL };

/* What a call's input is.  */
enum hs_in_kind
{
  HS_IN_NONE,		/* No input.  */
  HS_IN_PATH,		/* One NUL-terminated path.  */
  HS_IN_PATH2,		/* Two NUL-terminated paths, back to back.  */
  HS_IN_STREAM		/* Data, any length, staged and streamed.  */
};

/* Op flags.  */
#define HS_OP_BLOCKS	1u	/* May block: always off the poller.  */
#define HS_OP_FD_IO	2u	/* May block when its descriptor may.  */
#define HS_OP_FD	4u	/* ARG0 is a descriptor, looked up once.  */
#define HS_OP_FD_META	8u	/* May block when its descriptor is on a
				   remote file system.  */

/* How I/O on a device descriptor may block (host-service-fd.c).  */
#define HS_FD_LOCAL	0	/* Not for long: local files, memory devices.  */
#define HS_FD_STREAM	1	/* Until a peer moves: pipes, terminals...  */
#define HS_FD_REMOTE	2	/* As long as a file server takes.  */

struct gomp_host_service;
struct hs_ctx;
struct hs_fd;

/* One op table entry.  */
struct hs_op
{
  const char *name;
  enum hs_in_kind in;
  /* The weakest policy under which the op is allowed.  */
  enum hs_policy policy;
  unsigned flags;
  /* Carry out the call whose input is complete (for HS_IN_STREAM: the
     staged data so far; see hs_do_write).  */
  void (*fn) (struct gomp_host_service *, struct hs_ctx *);
};

extern const struct hs_op gomp_hs_ops[GOMP_HS_OP_MAX];
extern const char *gomp_hs_op_name (uint32_t);

#define HS_OWNER_POLLER	0
#define HS_OWNER_WORKER	1
#define HS_OWNER_ORPHAN	2

/* A port's call in progress, and how its rounds are being served.
   Host-private: the device cannot touch it.  */
struct hs_ctx
{
  uint32_t op;			/* 0: no call in progress.  */
  int64_t arg[4];
  uint64_t in_total, in_recv;
  unsigned char *stage;		/* Input gathered, or output to send.  */
  size_t stage_cap, stage_len;
  size_t out_len, out_sent;	/* Output in STAGE.  */
  int64_t ret;
  int32_t err;
  int64_t done;			/* Stream bytes written or read so far.  */
  int ended;			/* Result final (a stream ended early).  */
  int more_out;			/* READ: another block may follow.  */
  struct hs_fd *fd;		/* The call's descriptor, looked up once.  */
  /* The descriptor gomp_hs_round_may_block judged the first round by,
     with a reference: the call gets that one (hs_start).  */
  struct hs_fd *peek_fd;
  /* WRITE on the poller: try without blocking (gomp_hs_do_write); the
     attempt left the rest of the round to a worker; a worker is to
     finish such a round (gomp_hs_resume).  */
  unsigned char try_nb, deferred, resume;
  /* Process mode (FWD): the port is handed over, as the poller last saw
     it.  The poller's only.  */
  unsigned char forwarded;

  /* The reply to the round just processed, until it is written.  */
  uint32_t r_flags, r_len;
  size_t r_off;			/* Of its payload in STAGE.  */
  int64_t r_ret;
  int32_t r_err;

  /* Serving.  ANSWERED: the sequence number of the last round taken.  */
  uint32_t answered;
  int owner;			/* HS_OWNER_*; atomic.  */
  int pending;			/* A worker's round is unanswered
				   (REPLY_LOCK); set only with the round
				   queued for a worker.  */
  uint32_t pending_seq;
  struct gomp_hs_request req;	/* The round a worker serves...  */
  unsigned char *inbuf;		/* ... and its payload (BUF_SIZE bytes).  */
  struct hs_ctx *next;		/* Work queue.  */
};

struct hs_proc;

/* GOMP_HOST_SERVICES_SERVER=process: a port handed over from the server
   process to the program's own server for named host callbacks and
   reverse-offload regions, in the shared control page
   (host-service-process.c).  FWD: nonzero while the program's server
   owns the port (the server process sets it, the program's server
   clears it); FIRST: the sequence number of the first round handed
   over, written before FWD is set; LAST: that of the final reply,
   written before FWD is cleared, which comes before the reply.  */
struct hs_fwd_port
{
  uint32_t fwd, first, last, pad;
};

struct gomp_host_service
{
  unsigned char *region;
  size_t region_size;
  /* GOMP_HOST_SERVICES_SERVER=process: in the application, the helper
     process that serves (host-service-process.c; nothing below LOCK is
     used); in the helper, its socket to the application (else -1).  */
  struct hs_proc *proc;
  int helper_sock;
  /* In process mode, the control page's ports: in the server process,
     to hand callback calls over; in the program's own server, the
     ports it may serve.  NULL otherwise.  FWD_ALL: the
     server process is gone, the program's server serves every port and
     fails every call but callbacks with REFUSE_ERR (atomic both).  */
  struct hs_fwd_port *fwd;
  int fwd_all, refuse_err;
  /* In the server process, the application's count of running kernels
     (hs_kernels_run).  */
  uint32_t *shared_active;
  int target_id;		/* The plugin's number for the device, or -1
				   (GOMP_PLUGIN_host_service_device).  */
  uint32_t nports, buf_size;
  size_t staging;
  unsigned long poll_sleep_us;	/* GOMP_HOST_SERVICES_POLL_SLEEP.  */
  enum hs_policy policy;
  struct hs_ctx *ctx;

  /* Device file descriptors (host-service-fd.c).  */
  pthread_mutex_t fd_lock;
  struct hs_fd **fds;		/* FDS[I]: device descriptor I, or NULL.  */
  int n_fds;
  unsigned open_fds, max_fds;
  /* Path policy (host-service-fd.c).  */
  int root_fd;			/* GOMP_HOST_SERVICES_ROOT, or -1.  */
  char *root_path;		/* Its canonical name.  */
  int landlock_fd;		/* Landlock ruleset for it, or -1.  */
  int have_openat2;
  /* Staged bytes of all calls, and their limit; atomic.  */
  size_t staged, staged_max;

  /* Serving (host-service-server.c).  LOCK guards everything below but
     the atomics.  */
  pthread_mutex_t lock;
  pthread_cond_t poller_cond;	/* The poller waits for kernels.  */
  pthread_cond_t idle_cond;	/* Shutdown waits for busy workers.  */
  pthread_mutex_t reply_lock;	/* Workers' replies vs. detaching.  */
  pthread_t poller;
  int poller_started;
  int active;			/* Kernels running; atomic.  */
  int closing;			/* Shutdown started; atomic.  */
  int detached;			/* The region is gone (REPLY_LOCK).  */
  int handoffs_closed;		/* Shutdown has answered for the workers:
				   no more hand-offs (REPLY_LOCK).  */
  int stop;			/* The poller must exit.  */
  int refs;			/* Owner, workers, kernels; atomic.  */
  /* Workers: for file operations (confined to the root, if any) and for
     named host callbacks (never confined).  */
  struct hs_pool
  {
    pthread_cond_t cond;	/* Idle workers wait for work.  */
    struct hs_ctx *head, *tail;
    unsigned workers, idle, queued, max;
    int confined;
  } pool[2];
  unsigned busy_workers;
  unsigned long long served;	/* Atomic.  */
};

#define HS_POOL_FILES	0
#define HS_POOL_CALLS	1

/* host-service.c.  */
extern unsigned long gomp_hs_env_ulong (const char *, unsigned long,
					unsigned long, unsigned long);
extern int gomp_hs_round_may_block (struct gomp_host_service *,
				    struct hs_ctx *,
				    const struct gomp_hs_request *);
/* What gomp_hs_round_may_block says of a round.  */
#define HS_ROUND_POLLER	0	/* Serve it on the poller.  */
#define HS_ROUND_WORKER	1	/* Hand it to a worker.  */
#define HS_ROUND_TRY	2	/* A write: try it on the poller without
				   blocking, hand the rest to a worker.  */
extern int gomp_hs_round (struct gomp_host_service *, struct hs_ctx *,
			  const struct gomp_hs_request *,
			  const unsigned char *);
extern int gomp_hs_resume (struct gomp_host_service *, struct hs_ctx *);
extern int gomp_hs_give_up_deferred (struct gomp_host_service *,
				     struct hs_ctx *, int);
extern void gomp_hs_fail_round (struct hs_ctx *, const struct gomp_hs_request *,
				int);
extern void gomp_hs_write_reply (struct gomp_host_service *, uint32_t,
				 struct hs_ctx *, uint32_t);
extern void gomp_hs_end_call (struct gomp_host_service *, uint32_t,
			      struct hs_ctx *);
extern void gomp_hs_reset_ctx (struct gomp_host_service *, struct hs_ctx *);
extern volatile struct gomp_hs_port *gomp_hs_port (struct gomp_host_service *,
						    uint32_t);
extern volatile unsigned char *gomp_hs_buf (struct gomp_host_service *,
					    uint32_t);
extern void gomp_hs_free (struct gomp_host_service *);
extern struct gomp_host_service *gomp_hs_server_new (void *, size_t, int);
extern int gomp_hs_callback_op (uint32_t);
extern void gomp_hs_fwd_return (struct gomp_host_service *, uint32_t,
				uint32_t);

/* host-service-ops.c.  */
extern void gomp_hs_do_write (struct gomp_host_service *, struct hs_ctx *);
extern void gomp_hs_do_read (struct gomp_host_service *, struct hs_ctx *);
extern int gomp_hs_reserve (struct gomp_host_service *, struct hs_ctx *,
			    size_t);
extern void gomp_hs_release_stage (struct gomp_host_service *,
				   struct hs_ctx *);
extern void gomp_hs_result (struct hs_ctx *, int64_t);
extern void gomp_hs_fail (struct hs_ctx *, int);
extern void gomp_hs_end_stream (struct hs_ctx *, size_t, int);

/* host-service-fd.c.  */
extern int gomp_hs_fd_init (struct gomp_host_service *);
extern void gomp_hs_fd_close_all (struct gomp_host_service *);
extern void gomp_hs_fd_fini (struct gomp_host_service *);
extern struct hs_fd *gomp_hs_fd_get (struct gomp_host_service *, int64_t);
extern void gomp_hs_fd_put (struct gomp_host_service *, struct hs_fd *);
extern int gomp_hs_fd_host (const struct hs_fd *);
extern int gomp_hs_fd_std (const struct hs_fd *);
extern int gomp_hs_fd_kind (const struct hs_fd *);
extern int gomp_hs_fd_prepare_nb (struct hs_fd *);
extern void gomp_hs_fd_idle (struct gomp_host_service *);
extern ssize_t gomp_hs_fd_write_nb (const struct hs_fd *, const void *,
				    size_t);
extern int gomp_hs_fd_add (struct gomp_host_service *, int);
extern int gomp_hs_fd_close (struct gomp_host_service *, int64_t);
extern int gomp_hs_path_init (struct gomp_host_service *);
extern void gomp_hs_path_fini (struct gomp_host_service *);
extern int gomp_hs_confine_thread (struct gomp_host_service *);
extern int gomp_hs_open_path (struct gomp_host_service *, const char *, int,
			      unsigned);
extern int gomp_hs_stat_path (struct gomp_host_service *, const char *,
			      struct stat *, int);
extern int gomp_hs_access_path (struct gomp_host_service *, const char *, int);
extern int gomp_hs_unlink_path (struct gomp_host_service *, const char *);
extern int gomp_hs_mkdir_path (struct gomp_host_service *, const char *,
			       unsigned);
extern int gomp_hs_rename_path (struct gomp_host_service *, const char *,
				const char *);

/* host-service-process.c.  */
#define HS_SERVER_THREAD	0
#define HS_SERVER_PROCESS	1
#define HS_SERVER_BAD		2
extern int gomp_hs_server_mode (void);
extern struct gomp_host_service *gomp_hs_proc_init (void *, size_t);
extern void gomp_hs_proc_kernel_begin (struct gomp_host_service *);
extern void gomp_hs_proc_kernel_end (struct gomp_host_service *);
extern void gomp_hs_proc_shutdown (struct gomp_host_service *);
extern void gomp_hs_proc_fini (struct gomp_host_service *);
extern void gomp_hs_proc_free (struct gomp_host_service *);
extern int gomp_hs_proc_pid (struct gomp_host_service *);
extern void gomp_hs_helper_exit (struct gomp_host_service *, int)
  __attribute__ ((noreturn));
extern int gomp_hs_helper_main (int, char **);

/* host-service-sandbox.c.  */
extern int gomp_hs_sandbox (unsigned long);

/* host-service-ops.c: end the process as a device's exit asks.  */
extern void gomp_hs_exit_process (int) __attribute__ ((noreturn));

/* host-service-server.c.  */
extern int gomp_hs_closing (struct gomp_host_service *);
extern int gomp_hs_wait_fd (struct gomp_host_service *, int, short);
extern void gomp_hs_unref (struct gomp_host_service *);
extern unsigned gomp_hs_poll_once (struct gomp_host_service *);
extern int gomp_hs_on_poller (void);
extern void gomp_hs_wake_poller (struct gomp_host_service *);

#endif /* GOMP_HOST_SERVICE_INTERNAL_H */
