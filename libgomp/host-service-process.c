/* Host services: serving from a process of its own.
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

/* GOMP_HOST_SERVICES_SERVER=process: the requests of the device are
   served by a helper process, libexec/gomp-hs/gomp-hs-serve, instead of
   threads of the application, so that a device bug, or a hostile kernel
   that finds a flaw in a handler, reaches only what the helper holds:
   the region, the files it opened for the device, the root it was given
   and descriptors 0, 1 and 2 -- not the application's memory, its other
   descriptors or its code.

   THE REGION is a memfd mapping (GOMP_PLUGIN_host_service_alloc): the
   plugin registers it with the driver instead of allocating page-locked
   memory itself, and the helper maps the same pages.  The file is sealed
   against shrinking, so the helper cannot make the application's
   accesses fault.  One page after the region holds the control word
   (struct hs_proc_ctl), which only the application writes.

   THE HELPER is started by a thread of the application (the monitor,
   below) with posix_spawn: the memfd as descriptor 3, one end of a
   SOCK_SEQPACKET socket pair as descriptor 4, descriptors 0-2, and an
   environment of the GOMP_HOST_SERVICES* and GOMP_DEBUG variables only.
   It closes every other descriptor, asks to be killed when the monitor
   thread ends (PR_SET_PDEATHSIG; it also ends when the socket reaches
   end of file, i.e. when the application is gone), lays out the region
   with the ordinary server (host-service.c, so the geometry and the
   policy are read from the same environment), and confines itself
   (host-service-sandbox.c: no new privileges, no core dumps, limits, a
   system-call filter; workers for file operations are also confined to
   GOMP_HOST_SERVICES_ROOT with Landlock, as in the application).  Then
   it says READY and serves.

   KERNELS.  GOMP_PLUGIN_host_service_kernel_begin and _end count
   running kernels in the control word and nudge the helper with a
   message; the helper's main thread mirrors "some kernel runs" into its
   own server (kernel_begin and kernel_end of host-service-server.c).
   _end never blocks (a send with MSG_DONTWAIT): if the nudge is lost to
   a full socket, the helper reads the control word at its next wake-up,
   which comes at least once a second.

   WHAT STAYS OUT.  Named host callbacks and reverse-offload regions are
   the application's own code and need its address space: the helper
   refuses them with ENOTSUP (host-service.c, hs_start_1).  A device
   call to exit ends the application: the helper sends EXIT with the
   status, and the monitor flushes the application's streams and ends
   it exactly as the in-process server does (gomp_hs_exit_process).

   FAULTS.  When the helper dies (killed, or its sandbox refused a call
   and it crashed), the monitor sees the socket's end of file, reaps it,
   says so on stderr, and from then on answers every round the device
   publishes, itself, with EPIPE (ECANCELED once shutdown has begun): a
   port whose DEV_SEQ differs from its reply's SEQ has an unanswered
   round (host-service.h, STATE MACHINE).  The helper is gone before the
   monitor writes anything, so every reply is written by one process.
   Whatever the helper had written to a file stays written: it wrote
   with write, never through a buffer of its own; a call that was in
   progress fails, so the device never takes data for written that was
   not.  Shutdown waits for the helper's own shutdown (its grace period
   and a margin), fini for its exit, a few seconds at most each, after
   which the helper is killed.  */

#define _GNU_SOURCE 1
#include "libgomp.h"
#include "host-service-internal.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define HS_HELPER_NAME	"gomp-hs-serve"
/* How long the application waits for the helper to start, to finish its
   shutdown (beyond its own grace period, host-service-server.c), and to
   exit, before it kills it.  */
#define HS_PROC_START_MS	10000
#define HS_PROC_SHUTDOWN_MS	4000
#define HS_PROC_EXIT_MS		3000
/* The descriptors the helper gets.  */
#define HS_PROC_MEMFD	3
#define HS_PROC_SOCK	4

/* Messages on the socket pair.  */
enum
{
  HS_MSG_READY = 1,	/* Helper: serving (ARG 0), or failed (ARG errno);
			   VAL its pid.  */
  HS_MSG_KERNELS,	/* Application: the control word changed.  */
  HS_MSG_SHUTDOWN,	/* Application: GOMP_PLUGIN_host_service_shutdown.  */
  HS_MSG_SHUT_DONE,	/* Helper: done.  */
  HS_MSG_FINI,		/* Application: stop serving and exit.  */
  HS_MSG_EXIT		/* Helper: the device ends the program, status ARG.  */
};

struct hs_msg
{
  uint32_t type;
  int32_t arg;
  uint64_t val;
};

/* The control page.  */
struct hs_proc_ctl
{
  uint32_t magic;
  uint32_t version;
  uint32_t active;		/* Kernels running; atomic.  */
};

#define HS_PROC_MAGIC	0x70726f63u

/* The application's side of a helper.  */
struct hs_proc
{
  int sock;			/* Closed only when the server is freed: a
				   late kernel_end may still send on it.  */
  int memfd;
  pid_t pid;
  struct hs_proc_ctl *ctl;	/* Mapped until the server is freed.  */
  size_t page;
  pthread_t monitor;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  /* Under LOCK.  */
  int ready;			/* 1: serving; -1: failed to start.  */
  int shut_done;
  int dead;			/* The helper is gone (reaped).  */
  int stop;			/* Fini: the monitor must return.  */
};

/* Regions allocated by GOMP_PLUGIN_host_service_alloc.  */

struct hs_shm
{
  void *base;
  size_t len;			/* The region's, a multiple of the page.  */
  int memfd;
  struct hs_shm *next;
};

static pthread_mutex_t hs_shm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct hs_shm *hs_shm_list;

/* Set in the helper: its own server serves in-process.  */
static int hs_in_helper;

static size_t
hs_page (void)
{
  long p = sysconf (_SC_PAGESIZE);
  return p > 0 ? (size_t) p : 4096;
}

static size_t
hs_round_page (size_t n)
{
  size_t p = hs_page ();
  return (n + p - 1) / p * p;
}

/* GOMP_HOST_SERVICES_SERVER: HS_SERVER_THREAD (unset, empty or
   "thread"), HS_SERVER_PROCESS, or HS_SERVER_BAD (said once).  */

int
gomp_hs_server_mode (void)
{
  const char *v = getenv ("GOMP_HOST_SERVICES_SERVER");
  static int warned;
  if (hs_in_helper || v == NULL || *v == '\0' || strcmp (v, "thread") == 0)
    return HS_SERVER_THREAD;
  if (strcmp (v, "process") == 0)
    return HS_SERVER_PROCESS;
  if (!__atomic_exchange_n (&warned, 1, __ATOMIC_RELAXED))
    gomp_error ("GOMP_HOST_SERVICES_SERVER=%s is not thread or process;"
		" host services are off", v);
  return HS_SERVER_BAD;
}

/* The region, when the server must allocate it itself: shared memory,
   for GOMP_HOST_SERVICES_SERVER=process.  NULL otherwise (the caller
   allocates it), or on failure (said on stderr; init then fails).  The
   caller may register it with its driver; it is SIZE bytes rounded up
   to the page.  */

void *
GOMP_PLUGIN_host_service_alloc (size_t size)
{
  struct hs_shm *m;
  size_t len;
  int fd;
  void *p;
  if (gomp_hs_server_mode () != HS_SERVER_PROCESS || size == 0)
    return NULL;
  len = hs_round_page (size);
  m = malloc (sizeof *m);
  fd = memfd_create ("gomp-host-services", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (m == NULL || fd < 0
      || ftruncate (fd, (off_t) (len + hs_page ())) != 0
      || fcntl (fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)
	 != 0
      || (p = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0))
	 == MAP_FAILED)
    {
      gomp_error ("host services: cannot create the shared region: %s",
		  strerror (errno));
      if (fd >= 0)
	close (fd);
      free (m);
      return NULL;
    }
  m->base = p;
  m->len = len;
  m->memfd = fd;
  pthread_mutex_lock (&hs_shm_lock);
  m->next = hs_shm_list;
  hs_shm_list = m;
  pthread_mutex_unlock (&hs_shm_lock);
  return p;
}

/* Release REGION from GOMP_PLUGIN_host_service_alloc, after fini.  */

void
GOMP_PLUGIN_host_service_free (void *region)
{
  struct hs_shm **pm, *m = NULL;
  pthread_mutex_lock (&hs_shm_lock);
  for (pm = &hs_shm_list; *pm != NULL; pm = &(*pm)->next)
    if ((*pm)->base == region)
      {
	m = *pm;
	*pm = m->next;
	break;
      }
  pthread_mutex_unlock (&hs_shm_lock);
  if (m == NULL)
    return;
  munmap (m->base, m->len);
  close (m->memfd);
  free (m);
}

static struct hs_shm *
hs_shm_find (void *region)
{
  struct hs_shm *m;
  pthread_mutex_lock (&hs_shm_lock);
  for (m = hs_shm_list; m != NULL && m->base != region; m = m->next)
    ;
  pthread_mutex_unlock (&hs_shm_lock);
  return m;
}

/* The application's side.  */

static void
hs_send (int sock, uint32_t type, int32_t arg, uint64_t val, int flags)
{
  struct hs_msg m = { type, arg, val };
  while (send (sock, &m, sizeof m, flags | MSG_NOSIGNAL) < 0
	 && errno == EINTR)
    ;
}

/* Wait on P->COND (P->LOCK held) until DEADLINE; 0 once it has passed.  */

static int
hs_proc_wait (struct hs_proc *p, const struct timespec *deadline)
{
  return pthread_cond_timedwait (&p->cond, &p->lock, deadline) != ETIMEDOUT;
}

static struct timespec
hs_deadline_ms (long ms)
{
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  ts.tv_sec += ms / 1000;
  ts.tv_nsec += (ms % 1000) * 1000000L;
  if (ts.tv_nsec >= 1000000000L)
    {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000L;
    }
  return ts;
}

/* The helper's program: GOMP_HOST_SERVICES_HELPER, or
   ../libexec/gomp-hs/gomp-hs-serve from the directory of the library or
   program this code is in (lib/libgomp.so.1, bin/gomp-nvptx-run).  */

static char *
hs_helper_path (void)
{
  const char *env = getenv ("GOMP_HOST_SERVICES_HELPER");
  Dl_info info;
  char *path, *slash, exe[4096];
  const char *self;
  ssize_t n;
  if (env != NULL && *env != '\0')
    return strdup (env);
  if (dladdr ((void *) &GOMP_PLUGIN_host_service_alloc, &info) == 0
      || info.dli_fname == NULL)
    return NULL;
  self = info.dli_fname;
  /* In a program (not a shared library) that is its name as it was
     run, perhaps found through PATH: the kernel knows where it is.  */
  if (strchr (self, '/') == NULL
      && (n = readlink ("/proc/self/exe", exe, sizeof exe - 1)) > 0)
    {
      exe[n] = '\0';
      self = exe;
    }
  path = malloc (strlen (self) + sizeof "/../libexec/gomp-hs/"
		 + sizeof HS_HELPER_NAME);
  if (path == NULL)
    return NULL;
  strcpy (path, self);
  slash = strrchr (path, '/');
  if (slash == NULL)
    strcpy (path, ".");
  else
    *slash = '\0';
  strcat (path, "/../libexec/gomp-hs/" HS_HELPER_NAME);
  return path;
}

/* The helper's environment: what configures the server, no more.  */

static char **
hs_helper_env (void)
{
  size_t n = 0, k = 0;
  char **env;
  for (char **e = environ; e && *e; e++)
    n++;
  env = calloc (n + 2, sizeof *env);
  if (env == NULL)
    return NULL;
  for (char **e = environ; e && *e; e++)
    if ((strncmp (*e, "GOMP_HOST_SERVICES", 18) == 0
	 && strncmp (*e, "GOMP_HOST_SERVICES_SERVER=", 26) != 0)
	|| strncmp (*e, "GOMP_DEBUG=", 11) == 0)
      env[k++] = *e;
  env[k++] = (char *) "GOMP_HOST_SERVICES_SERVER=thread";
  env[k] = NULL;
  return env;
}

/* Start the helper for S; returns its pid, or -1 with errno.  */

static pid_t
hs_spawn (struct gomp_host_service *s, struct hs_shm *m, int child_sock)
{
  struct hs_proc *p = s->proc;
  posix_spawn_file_actions_t fa;
  char *path = hs_helper_path ();
  char **env = hs_helper_env ();
  char size_arg[32], ppid_arg[32];
  char *argv[] = { (char *) HS_HELPER_NAME, (char *) "--serve", size_arg,
		   ppid_arg, NULL };
  /* Above the helper's numbers, so that dup2 always makes a copy (and
     clears FD_CLOEXEC).  */
  int mfd = fcntl (m->memfd, F_DUPFD_CLOEXEC, 10);
  int sfd = fcntl (child_sock, F_DUPFD_CLOEXEC, 10);
  pid_t pid = -1;
  int err = ENOMEM;
  (void) p;
  snprintf (size_arg, sizeof size_arg, "%zu", (size_t) s->region_size);
  snprintf (ppid_arg, sizeof ppid_arg, "%ld", (long) getpid ());
  if (path != NULL && env != NULL && mfd >= 0 && sfd >= 0
      && posix_spawn_file_actions_init (&fa) == 0)
    {
      posix_spawn_file_actions_adddup2 (&fa, mfd, HS_PROC_MEMFD);
      posix_spawn_file_actions_adddup2 (&fa, sfd, HS_PROC_SOCK);
      err = posix_spawn (&pid, path, &fa, NULL, argv, env);
      posix_spawn_file_actions_destroy (&fa);
      if (err != 0)
	{
	  gomp_error ("host services: cannot start the server process %s: %s",
		      path, strerror (err));
	  pid = -1;
	}
    }
  if (mfd >= 0)
    close (mfd);
  if (sfd >= 0)
    close (sfd);
  free (path);
  free (env);
  if (pid < 0)
    errno = err;
  return pid;
}

/* Answer, with ERR, every round the device has published and nobody
   answered; the helper is gone.  Returns how many.  */

static unsigned
hs_proc_answer_all (struct gomp_host_service *s, int err)
{
  unsigned n = 0;
  for (uint32_t i = 0; i < s->nports; i++)
    {
      volatile struct gomp_hs_port *port = gomp_hs_port (s, i);
      uint32_t seq = __atomic_load_n (&port->dev_seq, __ATOMIC_ACQUIRE);
      if (seq == __atomic_load_n (&port->rep.seq, __ATOMIC_RELAXED))
	continue;
      port->rep.ret = -1;
      port->rep.info = GOMP_HS_INFO (0, err, 0);
      __atomic_store_n (&port->rep.seq, seq, __ATOMIC_RELEASE);
      n++;
    }
  return n;
}

/* The helper is gone; serve as above until fini.  Caller holds LOCK.  */

static void
hs_proc_orphaned (struct gomp_host_service *s)
{
  struct hs_proc *p = s->proc;
  while (!p->stop)
    {
      int closing = gomp_hs_closing (s);
      int active = __atomic_load_n (&p->ctl->active, __ATOMIC_ACQUIRE);
      struct timespec deadline;
      pthread_mutex_unlock (&p->lock);
      if (hs_proc_answer_all (s, closing ? ECANCELED : EPIPE))
	gomp_debug (0, "host-service: answered for the server process\n");
      pthread_mutex_lock (&p->lock);
      /* While kernels run, about as often as the helper's poller would
	 scan; else rarely (a late round of an ended kernel).  */
      if (active)
	{
	  pthread_mutex_unlock (&p->lock);
	  struct timespec ts = { 0, (long) s->poll_sleep_us * 1000 };
	  nanosleep (&ts, NULL);
	  pthread_mutex_lock (&p->lock);
	}
      else
	{
	  deadline = hs_deadline_ms (20);
	  hs_proc_wait (p, &deadline);
	}
    }
}

/* The monitor thread: starts the helper, then takes its messages.  */

static void *
hs_proc_monitor (void *arg)
{
  struct gomp_host_service *s = arg;
  struct hs_proc *p = s->proc;
  struct hs_shm *m = hs_shm_find (s->region);
  int sv[2];
  int status = 0;

  if (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    {
      gomp_error ("host services: socketpair: %s", strerror (errno));
      goto failed;
    }
  p->sock = sv[0];
  p->pid = hs_spawn (s, m, sv[1]);
  close (sv[1]);
  if (p->pid < 0)
    goto failed;

  for (;;)
    {
      struct pollfd pfd = { p->sock, POLLIN, 0 };
      struct hs_msg msg;
      ssize_t n;
      int timeout = -1;
      pthread_mutex_lock (&p->lock);
      if (p->ready == 0)
	timeout = HS_PROC_START_MS;
      pthread_mutex_unlock (&p->lock);
      n = poll (&pfd, 1, timeout);
      if (n < 0 && errno == EINTR)
	continue;
      if (n == 0)
	{
	  gomp_error ("host services: the server process %ld did not start"
		      " in %d ms", (long) p->pid, HS_PROC_START_MS);
	  kill (p->pid, SIGKILL);
	  continue;
	}
      n = recv (p->sock, &msg, sizeof msg, 0);
      if (n < 0 && errno == EINTR)
	continue;
      if (n != (ssize_t) sizeof msg)
	break;			/* End of file: the helper is gone.  */
      pthread_mutex_lock (&p->lock);
      switch (msg.type)
	{
	case HS_MSG_READY:
	  p->ready = msg.arg == 0 ? 1 : -1;
	  if (msg.arg == 0)
	    gomp_debug (0, "host-service: serving from process %ld\n",
			(long) p->pid);
	  break;
	case HS_MSG_SHUT_DONE:
	  p->shut_done = 1;
	  break;
	case HS_MSG_EXIT:
	  pthread_mutex_unlock (&p->lock);
	  /* Flushes the application's streams and ends it.  */
	  gomp_hs_exit_process (msg.arg);
	  break;
	default:
	  break;
	}
      pthread_cond_broadcast (&p->cond);
      pthread_mutex_unlock (&p->lock);
    }

  while (waitpid (p->pid, &status, 0) < 0 && errno == EINTR)
    ;
  pthread_mutex_lock (&p->lock);
  p->dead = 1;
  if (p->ready == 0)
    p->ready = -1;
  if (!p->stop && p->ready > 0)
    {
      if (WIFSIGNALED (status))
	gomp_error ("host services: the server process %ld was killed by"
		    " signal %d; device calls fail with EPIPE",
		    (long) p->pid, WTERMSIG (status));
      else
	gomp_error ("host services: the server process %ld ended (status"
		    " %d); device calls fail with EPIPE", (long) p->pid,
		    WIFEXITED (status) ? WEXITSTATUS (status) : -1);
    }
  pthread_cond_broadcast (&p->cond);
  hs_proc_orphaned (s);
  pthread_mutex_unlock (&p->lock);
  return NULL;

 failed:
  pthread_mutex_lock (&p->lock);
  p->ready = -1;
  p->dead = 1;
  pthread_cond_broadcast (&p->cond);
  pthread_mutex_unlock (&p->lock);
  return NULL;
}

/* GOMP_PLUGIN_host_service_init, GOMP_HOST_SERVICES_SERVER=process: S
   has its configuration; REGION must come from
   GOMP_PLUGIN_host_service_alloc.  Returns S, or NULL (S freed).  */

struct gomp_host_service *
gomp_hs_proc_init (struct gomp_host_service *s)
{
  struct hs_shm *m = hs_shm_find (s->region);
  struct hs_proc *p;
  struct timespec deadline;
  if (m == NULL || s->region_size > m->len)
    {
      gomp_error ("host services: GOMP_HOST_SERVICES_SERVER=process needs"
		  " the region from GOMP_PLUGIN_host_service_alloc");
      free (s);
      return NULL;
    }
  p = calloc (1, sizeof *p);
  if (p == NULL)
    {
      free (s);
      return NULL;
    }
  s->proc = p;
  p->sock = -1;
  p->memfd = -1;
  p->page = hs_page ();
  p->ctl = mmap (NULL, p->page, PROT_READ | PROT_WRITE, MAP_SHARED, m->memfd,
		 (off_t) m->len);
  if (p->ctl == MAP_FAILED)
    {
      gomp_error ("host services: cannot map the control page: %s",
		  strerror (errno));
      free (p);
      free (s);
      return NULL;
    }
  p->ctl->magic = HS_PROC_MAGIC;
  p->ctl->version = GOMP_HS_VERSION;
  p->ctl->active = 0;
  pthread_mutex_init (&p->lock, NULL);
  pthread_cond_init (&p->cond, NULL);
  s->refs = 1;
  if (pthread_create (&p->monitor, NULL, hs_proc_monitor, s) != 0)
    {
      gomp_error ("host services: cannot start the monitor thread");
      p->ready = -1;
      p->stop = 1;
      gomp_hs_unref (s);
      return NULL;
    }
  deadline = hs_deadline_ms (HS_PROC_START_MS + 1000);
  pthread_mutex_lock (&p->lock);
  while (p->ready == 0 && hs_proc_wait (p, &deadline))
    ;
  pthread_mutex_unlock (&p->lock);
  if (p->ready <= 0)
    {
      gomp_error ("host services: the server process did not start");
      gomp_hs_proc_fini (s);
      return NULL;
    }
  return s;
}

void
gomp_hs_proc_kernel_begin (struct gomp_host_service *s)
{
  struct hs_proc *p = s->proc;
  __atomic_fetch_add (&s->refs, 1, __ATOMIC_RELAXED);
  /* The in-process server flushes what the program left in stdout
     before each device write to descriptor 1; the helper cannot, so
     this does it once per kernel (the manual says so).  */
  if (__fpending (stdout) != 0)
    fflush (stdout);
  __atomic_fetch_add (&p->ctl->active, 1, __ATOMIC_ACQ_REL);
  hs_send (p->sock, HS_MSG_KERNELS, 0, 0, 0);
}

void
gomp_hs_proc_kernel_end (struct gomp_host_service *s)
{
  struct hs_proc *p = s->proc;
  __atomic_fetch_sub (&p->ctl->active, 1, __ATOMIC_ACQ_REL);
  hs_send (p->sock, HS_MSG_KERNELS, 0, 0, MSG_DONTWAIT);
  gomp_hs_unref (s);
}

/* Step one of teardown: the helper refuses new calls and answers those
   its workers hold; when it is gone, the monitor answers ECANCELED.  */

void
gomp_hs_proc_shutdown (struct gomp_host_service *s)
{
  struct hs_proc *p = s->proc;
  struct timespec deadline;
  if (__atomic_exchange_n (&s->closing, 1, __ATOMIC_ACQ_REL))
    return;
  gomp_debug (0, "host-service: shutting down the server process\n");
  pthread_mutex_lock (&p->lock);
  if (!p->dead)
    {
      hs_send (p->sock, HS_MSG_SHUTDOWN, 0, 0, 0);
      deadline = hs_deadline_ms (HS_PROC_SHUTDOWN_MS);
      while (!p->shut_done && !p->dead && hs_proc_wait (p, &deadline))
	;
      if (!p->shut_done && !p->dead)
	{
	  gomp_error ("host services: the server process %ld did not shut"
		      " down; killed", (long) p->pid);
	  kill (p->pid, SIGKILL);
	}
    }
  pthread_mutex_unlock (&p->lock);
}

/* Step two: the device is idle.  */

void
gomp_hs_proc_fini (struct gomp_host_service *s)
{
  struct hs_proc *p = s->proc;
  struct timespec deadline;
  if (p->ready > 0)
    gomp_hs_proc_shutdown (s);
  pthread_mutex_lock (&p->lock);
  p->stop = 1;
  if (!p->dead && p->sock >= 0)
    {
      hs_send (p->sock, HS_MSG_FINI, 0, 0, 0);
      deadline = hs_deadline_ms (HS_PROC_EXIT_MS);
      while (!p->dead && hs_proc_wait (p, &deadline))
	;
      if (!p->dead)
	kill (p->pid, SIGKILL);
    }
  pthread_cond_broadcast (&p->cond);
  pthread_mutex_unlock (&p->lock);
  pthread_join (p->monitor, NULL);
  gomp_hs_unref (s);
}

/* The helper's pid (for tests and GOMP_DEBUG), 0 if there is none.  */

int
gomp_hs_proc_pid (struct gomp_host_service *s)
{
  return s->proc != NULL && s->proc->pid > 0 ? (int) s->proc->pid : 0;
}

/* The last reference is gone.  */

void
gomp_hs_proc_free (struct gomp_host_service *s)
{
  struct hs_proc *p = s->proc;
  if (p->sock >= 0)
    close (p->sock);
  munmap (p->ctl, p->page);
  pthread_mutex_destroy (&p->lock);
  pthread_cond_destroy (&p->cond);
  free (p);
  free (s);
}

/* The helper's side: gomp-hs-serve --serve SIZE PPID, with the memfd as
   descriptor 3 and the socket as 4.  */

/* The device ends the program: tell the application, which flushes its
   own streams and exits (gomp_hs_exit_process); this thread holds the
   port until then, as in the application.  */

void
gomp_hs_helper_exit (struct gomp_host_service *s, int status)
{
  hs_send (s->helper_sock, HS_MSG_EXIT, status, 0, 0);
  for (;;)
    {
      struct timespec ts = { 1, 0 };
      nanosleep (&ts, NULL);
    }
}

int
gomp_hs_helper_main (int argc, char **argv)
{
  struct gomp_host_service *s;
  struct hs_proc_ctl *ctl;
  unsigned long long size;
  long ppid;
  char *end;
  size_t len, page = hs_page ();
  struct stat st;
  void *map;
  int running = 0, sock = HS_PROC_SOCK;

  if (argc != 4 || strcmp (argv[1], "--serve") != 0)
    {
      fprintf (stderr, "%s: the server process of libgomp's host services;"
	       " libgomp starts it (GOMP_HOST_SERVICES_SERVER=process)\n",
	       argv[0]);
      return 2;
    }
  /* Die with the application's thread that started us, and check that
     it had not gone already.  */
  prctl (PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  ppid = strtol (argv[3], &end, 10);
  if (*end != '\0' || getppid () != (pid_t) ppid)
    return 1;
  /* Nothing but 0-2, the memfd and the socket.  */
#ifdef SYS_close_range
  if (syscall (SYS_close_range, HS_PROC_SOCK + 1, ~0u, 0) != 0)
#endif
    for (int fd = HS_PROC_SOCK + 1; fd < 1024; fd++)
      close (fd);
  errno = 0;
  size = strtoull (argv[2], &end, 10);
  len = hs_round_page (size);
  if (*end != '\0' || size == 0 || errno
      || fstat (HS_PROC_MEMFD, &st) != 0 || (size_t) st.st_size < len + page
      || (map = mmap (NULL, len + page, PROT_READ | PROT_WRITE, MAP_SHARED,
		      HS_PROC_MEMFD, 0)) == MAP_FAILED)
    {
      hs_send (sock, HS_MSG_READY, EINVAL, getpid (), 0);
      return 1;
    }
  close (HS_PROC_MEMFD);
  ctl = (struct hs_proc_ctl *) ((char *) map + len);
  hs_in_helper = 1;
  if (ctl->magic != HS_PROC_MAGIC || ctl->version != GOMP_HS_VERSION)
    {
      gomp_error ("host services: the server process is not of this"
		  " libgomp (protocol version %u, not %u)", ctl->version,
		  (unsigned) GOMP_HS_VERSION);
      hs_send (sock, HS_MSG_READY, EPROTO, getpid (), 0);
      return 1;
    }
  s = GOMP_PLUGIN_host_service_init (map, size);
  if (s == NULL)
    {
      hs_send (sock, HS_MSG_READY, EINVAL, getpid (), 0);
      return 1;
    }
  s->helper_sock = sock;
  if (gomp_hs_sandbox (s->max_fds + 32) != 0)
    {
      gomp_error ("host services: cannot confine the server process: %s",
		  strerror (errno));
      hs_send (sock, HS_MSG_READY, errno ? errno : EPERM, getpid (), 0);
      return 1;
    }
  hs_send (sock, HS_MSG_READY, 0, getpid (), 0);

  for (;;)
    {
      struct pollfd pfd = { sock, POLLIN, 0 };
      struct hs_msg msg;
      int n = poll (&pfd, 1, 1000);
      uint32_t active;
      if (n > 0)
	{
	  ssize_t r = recv (sock, &msg, sizeof msg, 0);
	  if (r < 0 && errno == EINTR)
	    continue;
	  if (r != (ssize_t) sizeof msg)
	    /* The application is gone: its descriptors are closed, what
	       was written is written.  */
	    _exit (0);
	  if (msg.type == HS_MSG_SHUTDOWN)
	    {
	      GOMP_PLUGIN_host_service_shutdown (s);
	      hs_send (sock, HS_MSG_SHUT_DONE, 0, 0, 0);
	    }
	  else if (msg.type == HS_MSG_FINI)
	    {
	      if (running)
		GOMP_PLUGIN_host_service_kernel_end (s);
	      GOMP_PLUGIN_host_service_fini (s);
	      _exit (0);
	    }
	}
      else if (getppid () != (pid_t) ppid)
	_exit (0);
      /* Mirror "some kernel runs" (see above).  */
      active = __atomic_load_n (&ctl->active, __ATOMIC_ACQUIRE);
      if (active != 0 && !running)
	{
	  GOMP_PLUGIN_host_service_kernel_begin (s);
	  running = 1;
	}
      else if (active == 0 && running)
	{
	  GOMP_PLUGIN_host_service_kernel_end (s);
	  running = 0;
	}
    }
}
