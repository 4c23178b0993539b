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
   accesses fault.  The pages after the region hold the control block
   (struct hs_proc_ctl): the count of running kernels, which only the
   application writes, and the ports' hand-over words.

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
   own server (kernel_begin and kernel_end of host-service-server.c);
   the application's own server is bracketed as usual.
   _end never blocks (a send with MSG_DONTWAIT): if the nudge is lost to
   a full socket, the helper reads the control word at its next wake-up,
   which comes at least once a second.

   WHAT STAYS IN.  Named host callbacks and reverse-offload regions are
   the application's own code and need its address space: when the
   helper takes the first round of such a call it hands the port over
   to the application's own server -- the server GOMP_PLUGIN_host_
   service_init returns, an ordinary one (host-service-server.c) that
   serves only the ports handed over to it and refuses every other op
   with EPERM -- and looks at the port no more until that server hands
   it back, before its final reply (struct hs_fwd_port, hs_fwd_mine),
   or, unanswered, when the device abandons the callback for a new call
   of another kind (hs_poll_pass).  So exactly one process serves each
   round.  While no port is handed over, the application's poller scans
   only every millisecond (HS_FWD_IDLE_US), which is what a callback's
   first round may wait.  A device call to exit ends the
   application: the helper sends EXIT with the status, and the monitor
   flushes the application's streams and ends it exactly as the
   in-process server does (gomp_hs_exit_process).

   FAULTS.  When the helper dies (killed, or its sandbox refused a call
   and it crashed), the monitor sees the socket's end of file, reaps it,
   says so on stderr, and from then on the application's own server
   serves every port (FWD_ALL): the callbacks it was running finish as
   before, every other round is answered with EPIPE (ECANCELED once
   shutdown has begun), each port from the last reply written on it
   (host-service.h, STATE MACHINE).  The helper is gone before that
   server looks at its ports, so every reply is written by one process.
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
#include <link.h>
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

/* The control pages, after the region.  */
struct hs_proc_ctl
{
  uint32_t magic;
  uint32_t version;
  uint32_t active;		/* Kernels running; atomic.  */
  uint32_t nudge;		/* A KERNELS message is on its way.  */
  struct hs_fwd_port port[GOMP_HS_MAX_PORTS];
};

#define HS_PROC_MAGIC	0x70726f63u

/* The application's side of a helper.  */
struct hs_proc
{
  int sock;			/* Closed only when the server is freed: a
				   late kernel_end may still send on it.  */
  pid_t pid;
  struct hs_proc_ctl *ctl;	/* Mapped until the server is freed.  */
  size_t ctl_size;
  pthread_t monitor;
  int monitor_started;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  /* Under LOCK.  */
  int ready;			/* 1: serving; -1: failed to start.  */
  int shut_sent, shut_done;
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

static size_t
hs_ctl_size (void)
{
  return hs_round_page (sizeof (struct hs_proc_ctl));
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
      || ftruncate (fd, (off_t) (len + hs_ctl_size ())) != 0
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

/* dl_iterate_phdr callback: whether the address in *DATA lies in the
   first object, the program itself.  */

static int
hs_in_program (struct dl_phdr_info *info, size_t size, void *data)
{
  uintptr_t a = (uintptr_t) *(void **) data;
  (void) size;
  for (int k = 0; k < info->dlpi_phnum; k++)
    if (info->dlpi_phdr[k].p_type == PT_LOAD
	&& a >= info->dlpi_addr + info->dlpi_phdr[k].p_vaddr
	&& a < (info->dlpi_addr + info->dlpi_phdr[k].p_vaddr
		+ info->dlpi_phdr[k].p_memsz))
      return 1;
  return -1;			/* Stop: only the first object counts.  */
}

static char *
hs_helper_path (void)
{
  /* Not from the environment of a set-user-ID program.  */
  const char *env = secure_getenv ("GOMP_HOST_SERVICES_HELPER");
  void *self_fn = (void *) &GOMP_PLUGIN_host_service_alloc;
  Dl_info info;
  char *path, *slash, *self;
  if (env != NULL && *env != '\0')
    return strdup (env);
  if (dladdr (self_fn, &info) == 0 || info.dli_fname == NULL)
    return NULL;
  /* In the program itself (libgomp-hs-server.a) DLI_FNAME is its
     argv[0], which says nothing: the kernel knows where it is.  */
  if (dl_iterate_phdr (hs_in_program, &self_fn) == 1)
    self = realpath ("/proc/self/exe", NULL);
  else
    self = realpath (info.dli_fname, NULL);
  if (self == NULL)
    return NULL;
  path = malloc (strlen (self) + sizeof "/../libexec/gomp-hs/"
		 + sizeof HS_HELPER_NAME);
  if (path == NULL)
    {
      free (self);
      return NULL;
    }
  strcpy (path, self);
  free (self);
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
#if defined __GLIBC__ && __GLIBC_PREREQ (2, 34)
      /* Nothing else, even where the helper cannot close_range.  */
      posix_spawn_file_actions_addclosefrom_np (&fa, HS_PROC_SOCK + 1);
#endif
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
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
	continue;
      if (n <= 0)
	break;			/* End of file: the helper is gone.  */
      if (n != (ssize_t) sizeof msg)
	continue;		/* Not a message of ours: ignored.  */
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
  pthread_mutex_unlock (&p->lock);
  /* From now on this process's own server answers every port
     (hs_fwd_mine): callbacks as before, all else with EPIPE.  */
  __atomic_store_n (&s->refuse_err, EPIPE, __ATOMIC_RELEASE);
  __atomic_store_n (&s->fwd_all, 1, __ATOMIC_RELEASE);
  return NULL;

 failed:
  pthread_mutex_lock (&p->lock);
  p->ready = -1;
  p->dead = 1;
  pthread_cond_broadcast (&p->cond);
  pthread_mutex_unlock (&p->lock);
  return NULL;
}

/* GOMP_PLUGIN_host_service_init, GOMP_HOST_SERVICES_SERVER=process:
   REGION must come from GOMP_PLUGIN_host_service_alloc.  The server
   returned is this process's own, which serves only the ports the
   helper hands over (callbacks; hs_fwd_mine), and drives the helper
   (P).  NULL on failure.  */

struct gomp_host_service *
gomp_hs_proc_init (void *region, size_t size)
{
  struct hs_shm *m = hs_shm_find (region);
  struct gomp_host_service *s;
  struct hs_proc *p;
  struct timespec deadline;
  if (m == NULL || size > m->len)
    {
      gomp_error ("host services: GOMP_HOST_SERVICES_SERVER=process needs"
		  " the region from GOMP_PLUGIN_host_service_alloc");
      return NULL;
    }
  s = gomp_hs_server_new (region, size, 0);
  p = calloc (1, sizeof *p);
  if (s == NULL || p == NULL)
    {
      if (s != NULL)
	GOMP_PLUGIN_host_service_fini (s);
      free (p);
      return NULL;
    }
  p->sock = -1;
  p->ctl_size = hs_ctl_size ();
  p->ctl = mmap (NULL, p->ctl_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 m->memfd, (off_t) m->len);
  if (p->ctl == MAP_FAILED)
    {
      gomp_error ("host services: cannot map the control pages: %s",
		  strerror (errno));
      free (p);
      GOMP_PLUGIN_host_service_fini (s);
      return NULL;
    }
  memset (p->ctl, 0, p->ctl_size);
  p->ctl->magic = HS_PROC_MAGIC;
  p->ctl->version = GOMP_HS_VERSION;
  pthread_mutex_init (&p->lock, NULL);
  pthread_cond_init (&p->cond, NULL);
  s->proc = p;
  s->fwd = p->ctl->port;
  if (pthread_create (&p->monitor, NULL, hs_proc_monitor, s) != 0)
    {
      gomp_error ("host services: cannot start the monitor thread");
      GOMP_PLUGIN_host_service_fini (s);
      return NULL;
    }
  p->monitor_started = 1;
  deadline = hs_deadline_ms (HS_PROC_START_MS + 1000);
  pthread_mutex_lock (&p->lock);
  while (p->ready == 0 && hs_proc_wait (p, &deadline))
    ;
  pthread_mutex_unlock (&p->lock);
  if (p->ready <= 0)
    {
      gomp_error ("host services: the server process did not start");
      GOMP_PLUGIN_host_service_fini (s);
      return NULL;
    }
  return s;
}

/* The count of running kernels changed: tell the helper, without
   waiting for it.  At most one KERNELS message is ever on its way (the
   helper clears NUDGE before it reads the count), so the socket never
   fills with them, and a helper that stops reading cannot hold up a
   launch.  */

static void
hs_nudge (struct hs_proc *p)
{
  if (!__atomic_exchange_n (&p->ctl->nudge, 1, __ATOMIC_ACQ_REL))
    hs_send (p->sock, HS_MSG_KERNELS, 0, 0, MSG_DONTWAIT);
}

/* GOMP_PLUGIN_host_service_kernel_begin, before this process's own
   server's part.  */

void
gomp_hs_proc_kernel_begin (struct gomp_host_service *s)
{
  struct hs_proc *p = s->proc;
  /* The in-process server flushes what the program left in stdout
     before each device write to descriptor 1; the helper cannot, so
     this does it once per kernel (the manual says so).  */
  if (__fpending (stdout) != 0)
    fflush (stdout);
  __atomic_fetch_add (&p->ctl->active, 1, __ATOMIC_ACQ_REL);
  hs_nudge (p);
}

/* GOMP_PLUGIN_host_service_kernel_end: never blocks.  */

void
gomp_hs_proc_kernel_end (struct gomp_host_service *s)
{
  struct hs_proc *p = s->proc;
  __atomic_fetch_sub (&p->ctl->active, 1, __ATOMIC_ACQ_REL);
  hs_nudge (p);
}

/* Step one of teardown, before this process's own server's: the helper
   refuses new calls and answers those its workers hold.  */

void
gomp_hs_proc_shutdown (struct gomp_host_service *s)
{
  struct hs_proc *p = s->proc;
  struct timespec deadline;
  pthread_mutex_lock (&p->lock);
  if (!p->shut_sent && !p->dead && p->ready > 0)
    {
      p->shut_sent = 1;
      gomp_debug (0, "host-service: shutting down the server process\n");
      hs_send (p->sock, HS_MSG_SHUTDOWN, 0, 0, MSG_DONTWAIT);
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

/* Step two, after this process's own server's: the helper exits.  */

void
gomp_hs_proc_fini (struct gomp_host_service *s)
{
  struct hs_proc *p = s->proc;
  struct timespec deadline;
  pthread_mutex_lock (&p->lock);
  p->stop = 1;
  if (p->monitor_started && !p->dead && p->sock >= 0)
    {
      hs_send (p->sock, HS_MSG_FINI, 0, 0, MSG_DONTWAIT);
      deadline = hs_deadline_ms (HS_PROC_EXIT_MS);
      while (!p->dead && hs_proc_wait (p, &deadline))
	;
      if (!p->dead)
	kill (p->pid, SIGKILL);
    }
  pthread_cond_broadcast (&p->cond);
  pthread_mutex_unlock (&p->lock);
  if (p->monitor_started)
    pthread_join (p->monitor, NULL);
}

/* The helper's pid (for tests and GOMP_DEBUG), 0 if there is none.  */

int
gomp_hs_proc_pid (struct gomp_host_service *s)
{
  return s->proc != NULL && s->proc->pid > 0 ? (int) s->proc->pid : 0;
}

/* The last reference to S is gone: what P holds (S is freed after).  */

void
gomp_hs_proc_free (struct gomp_host_service *s)
{
  struct hs_proc *p = s->proc;
  if (p->sock >= 0)
    close (p->sock);
  munmap (p->ctl, p->ctl_size);
  pthread_mutex_destroy (&p->lock);
  pthread_cond_destroy (&p->cond);
  free (p);
  s->proc = NULL;
  s->fwd = NULL;
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
  size_t len, ctl_size = hs_ctl_size ();
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
  /* Signals for the program (its process group, its job) are not ours:
     we end with it (PDEATHSIG, end of file); a write to a broken pipe
     fails with EPIPE for the device.  */
  signal (SIGPIPE, SIG_IGN);
  signal (SIGINT, SIG_IGN);
  signal (SIGQUIT, SIG_IGN);
  signal (SIGHUP, SIG_IGN);
  signal (SIGTERM, SIG_IGN);
  signal (SIGXFSZ, SIG_IGN);
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
      || fstat (HS_PROC_MEMFD, &st) != 0
      || (size_t) st.st_size < len + ctl_size
      || (map = mmap (NULL, len + ctl_size, PROT_READ | PROT_WRITE,
		      MAP_SHARED, HS_PROC_MEMFD, 0)) == MAP_FAILED)
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
  s->fwd = ctl->port;
  s->shared_active = &ctl->active;
  /* The whole process beneath the root, not only the threads for path
     operations: in one address space a thread is no boundary.  (A
     pipe's second open through /proc/self/fd still works: Landlock does
     not govern pipes.)  */
  if (s->landlock_fd >= 0 && gomp_hs_confine_thread (s))
    s->pool[HS_POOL_FILES].confined = 0;
  else if (s->root_fd >= 0)
    gomp_error ("host services: GOMP_HOST_SERVICES_ROOT: no Landlock here;"
		" the server process is kept beneath the root by openat2"
		" only");
  /* Each pipe, FIFO or terminal of the device may take two descriptors
     (host-service-fd.c), and path operations some of their own.  */
  if (gomp_hs_sandbox (2 * (unsigned long) s->max_fds + 2 * s->nports + 64)
      != 0)
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
      __atomic_store_n (&ctl->nudge, 0, __ATOMIC_SEQ_CST);
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
      else if (running)
	/* A kernel ended and another began since the last look: the
	   poller judges by the count itself (hs_kernels_run).  */
	gomp_hs_wake_poller (s);
    }
}
