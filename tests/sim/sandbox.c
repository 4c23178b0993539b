/* The sandbox of a process that serves the device (host-service-sandbox.c,
   gomp_hs_sandbox): each check runs in a child of its own, which confines
   itself with gomp_hs_sandbox (64) and then tries one thing:

   - what serving needs works: threads, files (open, write, read, lseek,
     fstat, unlink, mkdir, rename, access, stat), isatty (0 with ENOTTY
     on a file), stdio on standard error and on a file, a 64 MiB malloc,
     getrlimit, raise, the prctl calls the server makes;
   - the limits hold: RLIMIT_CORE 0, RLIMIT_NOFILE at most 64 (and a
     65th descriptor fails), NoNewPrivs in /proc/self/status; its own
     /proc/self/fd/N opens, its parent's /proc/PID/mem does not (where
     the kernel has Landlock and would let it without the sandbox);
   - what it must not do fails with EPERM: socket (AF_INET, AF_UNIX),
     execve, fork, posix_spawn, ioctl other than TCGETS (FIONBIO), prctl
     options other than the server's, clone with a namespace flag, kill
     of another process, ptrace, unshare, mount, memfd_create,
     setrlimit; clone3 fails with ENOSYS; an x32 call kills the process;
   - with GOMP_DEBUG=1 a refused call is reported on standard error and
     still fails with EPERM.

   Negative controls: socket, execve, fork, FIONBIO and the parent's
   memory without the sandbox succeed, so the checks above can fail.  One PASS: or FAIL:
   line per check; UNSUPPORTED: where the build's architecture has no
   sandbox.  Built and run by tests/unit/hs-sandbox.sh.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "host-service-internal.h"

extern char **environ;

static char dir[64];		/* A temporary directory for the checks.  */
static int failures;

/* A check's test: 0 if it held, else 1 after saying why on stderr.  */
#define EXPECT(COND) \
  do { if (!(COND)) { fprintf (stderr, "sandbox: %s:%d: %s (errno %d)\n", \
			       __func__, __LINE__, #COND, errno); \
		      return 1; } } while (0)
#define REFUSED(CALL) \
  do { errno = 0; EXPECT ((CALL) == -1 && errno == EPERM); } while (0)

static int
t_socket_inet (void)
{
  REFUSED (socket (AF_INET, SOCK_STREAM, 0));
  return 0;
}

static int
t_socket_unix (void)
{
  REFUSED (socket (AF_UNIX, SOCK_STREAM, 0));
  return 0;
}

static int
t_execve (void)
{
  char *argv[] = { (char *) "true", NULL };
  execve ("/bin/true", argv, environ);
  EXPECT (errno == EPERM);
  return 0;
}

static int
t_fork (void)
{
  pid_t p = fork ();
  if (p == 0)
    _exit (0);
  if (p > 0)
    waitpid (p, NULL, 0);
  EXPECT (p == -1 && errno == EPERM);
  return 0;
}

static int
t_spawn (void)
{
  char *argv[] = { (char *) "true", NULL };
  pid_t p;
  int r = posix_spawn (&p, "/bin/true", NULL, NULL, argv, environ);
  if (r == 0)
    waitpid (p, NULL, 0);
  errno = r;
  EXPECT (r == EPERM);
  return 0;
}

static void *
t_thread_fn (void *arg)
{
  prctl (PR_SET_NAME, "hs-worker", 0, 0, 0);
  return (char *) arg + 1;
}

static int
t_threads (void)
{
  pthread_t t[4];
  void *r;
  int i;
  for (i = 0; i < 4; i++)
    EXPECT (pthread_create (&t[i], NULL, t_thread_fn, dir + i) == 0);
  for (i = 0; i < 4; i++)
    {
      EXPECT (pthread_join (t[i], &r) == 0);
      EXPECT (r == dir + i + 1);
    }
  return 0;
}

static int
t_files (void)
{
  char path[128], buf[16];
  struct stat st;
  int fd;
  snprintf (path, sizeof path, "%s/file", dir);
  fd = open (path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  EXPECT (fd >= 0);
  EXPECT (write (fd, "hello, device", 13) == 13);
  EXPECT (lseek (fd, 7, SEEK_SET) == 7);
  EXPECT (read (fd, buf, sizeof buf) == 6 && memcmp (buf, "device", 6) == 0);
  EXPECT (pwrite (fd, "D", 1, 7) == 1 && pread (fd, buf, 1, 7) == 1);
  EXPECT (fstat (fd, &st) == 0 && st.st_size == 13 && S_ISREG (st.st_mode));
  EXPECT (ftruncate (fd, 5) == 0 && fsync (fd) == 0 && fdatasync (fd) == 0);
  EXPECT (fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) | O_NONBLOCK) == 0);
  EXPECT (close (fd) == 0);
  EXPECT (stat (path, &st) == 0 && st.st_size == 5);
  EXPECT (access (path, R_OK | W_OK) == 0);
  EXPECT (faccessat (AT_FDCWD, path, R_OK, AT_EACCESS) == 0);
  EXPECT (unlink (path) == 0);
  EXPECT (access (path, F_OK) == -1 && errno == ENOENT);
  return 0;
}

static int
t_dirs (void)
{
  char a[128], b[128], f[140];
  struct stat st;
  int dfd;
  snprintf (a, sizeof a, "%s/sub", dir);
  snprintf (b, sizeof b, "%s/moved", dir);
  EXPECT (mkdir (a, 0700) == 0);
  EXPECT (rename (a, b) == 0);
  EXPECT (lstat (b, &st) == 0 && S_ISDIR (st.st_mode));
  dfd = open (b, O_PATH | O_DIRECTORY | O_CLOEXEC);
  EXPECT (dfd >= 0);
  EXPECT (mkdirat (dfd, "d", 0700) == 0);
  EXPECT (renameat (dfd, "d", dfd, "e") == 0);
  EXPECT (fstatat (dfd, "e", &st, 0) == 0 && S_ISDIR (st.st_mode));
  snprintf (f, sizeof f, "%s/e", b);
  EXPECT (realpath (f, NULL) != NULL);
  EXPECT (close (dfd) == 0);
  return 0;
}

static int
t_ioctl (void)
{
  char buf[256];
  int one = 1, fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);
  EXPECT (fd >= 0);
  REFUSED (ioctl (fd, FIONBIO, &one));
  /* Only the low word of the request counts, for the filter as for the
     kernel: this is TCGETS, which /dev/null is not a terminal for.  */
  errno = 0;
  EXPECT (syscall (SYS_ioctl, fd, 0x100000000UL | TCGETS, buf) == -1
	  && errno == ENOTTY);
  return 0;
}

/* madvise: what malloc and thread stacks use, not MADV_REMOVE (a hole
   punched in a shared mapping: the region's pages).  */

static int
t_madvise (void)
{
  size_t n = 1 << 20;
  char *p = mmap (NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		  -1, 0);
  EXPECT (p != MAP_FAILED);
  p[0] = 1;
  EXPECT (madvise (p, n, MADV_DONTNEED) == 0);
  REFUSED (madvise (p, n, MADV_REMOVE));
  return 0;
}

static int
n_madvise (void)
{
  size_t n = 1 << 20;
  char *p = mmap (NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		  -1, 0);
  EXPECT (p != MAP_FAILED && madvise (p, n, MADV_REMOVE) == 0);
  return 0;
}

static int
t_isatty (void)
{
  int fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);
  EXPECT (fd >= 0);
  errno = 0;
  EXPECT (isatty (fd) == 0 && errno == ENOTTY);
  return 0;
}

static int
t_limits (void)
{
  struct rlimit rl;
  int fds[64], n = 0, ok;
  EXPECT (getrlimit (RLIMIT_CORE, &rl) == 0);
  EXPECT (rl.rlim_cur == 0 && rl.rlim_max == 0);
  EXPECT (getrlimit (RLIMIT_NOFILE, &rl) == 0);
  EXPECT (rl.rlim_cur <= 64 && rl.rlim_max <= 64);
  /* Raising it back, or setting anything, is refused.  */
  rl.rlim_cur = rl.rlim_max = 1024;
  REFUSED (setrlimit (RLIMIT_NOFILE, &rl));
  while (n < 64 && (fds[n] = open ("/dev/null", O_RDONLY)) >= 0)
    n++;
  ok = n < 64 && errno == EMFILE;
  while (n > 0)
    close (fds[--n]);
  EXPECT (ok);
  return 0;
}

static int
t_no_new_privs (void)
{
  char line[256];
  int found = 0;
  FILE *f = fopen ("/proc/self/status", "r");
  EXPECT (f != NULL);
  while (fgets (line, sizeof line, f))
    if (strncmp (line, "NoNewPrivs:", 11) == 0)
      found = atoi (line + 11);
  fclose (f);
  EXPECT (found == 1);
  return 0;
}

static int
t_stdio (void)
{
  char path[128], buf[64];
  FILE *f;
  EXPECT (fprintf (stderr, "sandbox: stderr through stdio\n") > 0);
  snprintf (path, sizeof path, "%s/stdio", dir);
  f = fopen (path, "w+");
  EXPECT (f != NULL);
  EXPECT (fprintf (f, "%d %s\n", 42, "lines") > 0 && fflush (f) == 0);
  rewind (f);
  EXPECT (fgets (buf, sizeof buf, f) && strcmp (buf, "42 lines\n") == 0);
  EXPECT (fclose (f) == 0 && unlink (path) == 0);
  return 0;
}

static int
t_malloc (void)
{
  size_t n = (size_t) 64 << 20;
  char *p = malloc (n), *q;
  EXPECT (p != NULL);
  memset (p, 1, n);
  q = realloc (p, 2 * n);
  EXPECT (q != NULL && q[n - 1] == 1);
  free (q);
  return 0;
}

static volatile sig_atomic_t got_usr1;

static void
on_usr1 (int sig)
{
  got_usr1 = sig;
}

static int
t_signals (void)
{
  signal (SIGUSR1, on_usr1);
  EXPECT (raise (SIGUSR1) == 0 && got_usr1 == SIGUSR1);
  REFUSED (kill (getppid (), 0));
  REFUSED (syscall (SYS_tgkill, getppid (), getppid (), 0));
  return 0;
}

static int
t_prctl (void)
{
  char name[16];
  EXPECT (prctl (PR_SET_TIMERSLACK, 1000, 0, 0, 0) == 0);
  EXPECT (prctl (PR_SET_NAME, "hs-server", 0, 0, 0) == 0);
  EXPECT (prctl (PR_GET_NAME, name, 0, 0, 0) == 0
	  && strcmp (name, "hs-server") == 0);
  REFUSED (prctl (PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
  REFUSED (prctl (PR_SET_DUMPABLE, 1, 0, 0, 0));
  return 0;
}

static int
t_clone (void)
{
  /* CLONE_THREAD passes the filter; without CLONE_SIGHAND and CLONE_VM
     the kernel then refuses it (EINVAL), so no thread starts.  */
  errno = 0;
  EXPECT (syscall (SYS_clone, CLONE_THREAD, 0, 0, 0, 0) == -1
	  && errno == EINVAL);
  REFUSED (syscall (SYS_clone, CLONE_THREAD | CLONE_NEWNET, 0, 0, 0, 0));
  REFUSED (syscall (SYS_clone, CLONE_NEWUSER, 0, 0, 0, 0));
#ifdef SYS_clone3
  errno = 0;
  EXPECT (syscall (SYS_clone3, NULL, 0) == -1 && errno == ENOSYS);
#endif
  return 0;
}

static int
t_others (void)
{
  REFUSED (ptrace (PTRACE_ATTACH, getppid (), 0, 0));
  REFUSED (unshare (CLONE_NEWNS));
  REFUSED (mount ("none", dir, "tmpfs", 0, NULL));
  REFUSED (chroot (dir));
  REFUSED (setuid (getuid ()));
  REFUSED (memfd_create ("x", 0));
  REFUSED (syscall (SYS_process_vm_readv, getppid (), NULL, 0, NULL, 0, 0));
  return 0;
}

/* The server opens /proc/self/fd/N (host-service-fd.c, hs_fd_open_nb).  */
static int
t_proc_self (void)
{
  char path[64];
  int fd = open ("/dev/null", O_WRONLY | O_CLOEXEC), fd2;
  EXPECT (fd >= 0);
  snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
  fd2 = open (path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  EXPECT (fd2 >= 0 && write (fd2, "x", 1) == 1);
  return 0;
}

static int
parent_mem (void)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%ld/mem", (long) getppid ());
  return open (path, O_RDONLY | O_CLOEXEC);
}

static int
have_landlock (void)
{
#ifdef SYS_landlock_create_ruleset
  /* LANDLOCK_CREATE_RULESET_VERSION: the ABI's version, 0 or -1 if none.  */
  return syscall (SYS_landlock_create_ruleset, NULL, 0, 1UL) >= 1;
#else
  return 0;
#endif
}

static int
t_parent_mem (void)
{
  errno = 0;
  EXPECT (parent_mem () == -1 && (errno == EACCES || errno == EPERM));
  return 0;
}

#ifdef __x86_64__
static int
t_x32 (void)
{
  /* Never returns: the process is killed.  */
  syscall (0x40000000L | SYS_getpid);
  return 1;
}
#endif

/* With GOMP_DEBUG=1: the refused socket is reported on stderr (a file,
   read back by the parent) and fails with EPERM all the same.  */
static int
t_debug (void)
{
  REFUSED (socket (AF_INET, SOCK_STREAM, 0));
  return 0;
}

/* Negative controls: without the sandbox these succeed.  */

static int
n_socket (void)
{
  EXPECT (socket (AF_INET, SOCK_STREAM, 0) >= 0);
  EXPECT (socket (AF_UNIX, SOCK_STREAM, 0) >= 0);
  return 0;
}

static int
n_execve (void)
{
  char *argv[] = { (char *) "true", NULL };
  execve ("/bin/true", argv, environ);
  EXPECT (0);
  return 1;
}

static int
n_fork (void)
{
  int st;
  pid_t p = fork ();
  if (p == 0)
    _exit (7);
  EXPECT (p > 0 && waitpid (p, &st, 0) == p && WEXITSTATUS (st) == 7);
  return 0;
}

static int
n_parent_mem (void)
{
  return parent_mem () < 0;
}

static int
n_ioctl (void)
{
  int one = 1, fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);
  EXPECT (fd >= 0 && ioctl (fd, FIONBIO, &one) == 0);
  return 0;
}

/* Run FN in a child, sandboxed if BOX (with GOMP_DEBUG=1 and stderr to
   ERR if that is not NULL, else without GOMP_DEBUG); its wait status.  */

static int
run_child (int (*fn) (void), int box, const char *err)
{
  int st;
  pid_t p;
  fflush (NULL);
  p = fork ();
  if (p < 0)
    return -1;
  if (p == 0)
    {
      if (err != NULL)
	{
	  int fd = open (err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	  if (fd < 0 || dup2 (fd, 2) < 0)
	    _exit (3);
	  close (fd);
	  setenv ("GOMP_DEBUG", "1", 1);
	}
      else
	unsetenv ("GOMP_DEBUG");
      if (box && gomp_hs_sandbox (64) != 0)
	{
	  fprintf (stderr, "sandbox: gomp_hs_sandbox: %s\n", strerror (errno));
	  _exit (2);
	}
      _exit (fn ());
    }
  if (waitpid (p, &st, 0) != p)
    return -1;
  return st;
}

/* A check: FN must exit 0, or die of signal SIG if SIG is not 0.  */

static void
check (const char *name, int (*fn) (void), int box, const char *err, int sig)
{
  int st = run_child (fn, box, err);
  if (st != -1 && (sig ? WIFSIGNALED (st) && WTERMSIG (st) == sig
		       : WIFEXITED (st) && WEXITSTATUS (st) == 0))
    printf ("PASS: sandbox: %s\n", name);
  else
    {
      printf ("FAIL: sandbox: %s (status 0x%x)\n", name, st);
      failures++;
    }
}

static int
t_nothing (void)
{
  return 0;
}

int
main (void)
{
  char err[128], buf[512], want[96];
  FILE *f;
  size_t n;
  int st;

  setvbuf (stdout, NULL, _IOLBF, 0);
  strcpy (dir, "/tmp/hs-sandbox-XXXXXX");
  if (mkdtemp (dir) == NULL)
    {
      printf ("FAIL: sandbox: mkdtemp: %s\n", strerror (errno));
      return 1;
    }
  /* Where the build's architecture has no sandbox, say so once.  */
  if (fork () == 0)
    _exit (gomp_hs_sandbox (64) == 0 ? 0 : errno == ENOSYS ? 38 : 1);
  if (wait (&st) < 0 || (WIFEXITED (st) && WEXITSTATUS (st) == 38))
    {
      printf ("UNSUPPORTED: sandbox: no seccomp sandbox on this architecture\n");
      rmdir (dir);
      return 0;
    }

  check ("gomp_hs_sandbox (64) returns 0", t_nothing, 1, NULL, 0);
  check ("socket (AF_INET) refused", t_socket_inet, 1, NULL, 0);
  check ("socket (AF_UNIX) refused", t_socket_unix, 1, NULL, 0);
  check ("execve refused", t_execve, 1, NULL, 0);
  check ("fork refused", t_fork, 1, NULL, 0);
  check ("posix_spawn refused", t_spawn, 1, NULL, 0);
  check ("threads start and join", t_threads, 1, NULL, 0);
  check ("file I/O works", t_files, 1, NULL, 0);
  check ("mkdir and rename work", t_dirs, 1, NULL, 0);
  check ("ioctl FIONBIO refused", t_ioctl, 1, NULL, 0);
  check ("isatty works (0, ENOTTY)", t_isatty, 1, NULL, 0);
  check ("madvise: MADV_DONTNEED works, MADV_REMOVE refused", t_madvise, 1,
	 NULL, 0);
  check ("RLIMIT_CORE 0, RLIMIT_NOFILE <= 64", t_limits, 1, NULL, 0);
  check ("NoNewPrivs set", t_no_new_privs, 1, NULL, 0);
  check ("its own /proc/self/fd/N opens", t_proc_self, 1, NULL, 0);
  st = run_child (n_parent_mem, 0, NULL);
  if (st == -1 || !WIFEXITED (st) || WEXITSTATUS (st) != 0)
    printf ("UNSUPPORTED: sandbox: the parent's /proc/PID/mem: not open"
	    " to the child even without the sandbox\n");
  else if (!have_landlock ())
    printf ("UNSUPPORTED: sandbox: the parent's /proc/PID/mem: no"
	    " Landlock\n");
  else
    {
      printf ("PASS: sandbox: control: the parent's /proc/PID/mem opens"
	      " without the sandbox\n");
      check ("the parent's /proc/PID/mem refused", t_parent_mem, 1, NULL, 0);
    }
  check ("stdio works", t_stdio, 1, NULL, 0);
  check ("malloc of 64 MiB works", t_malloc, 1, NULL, 0);
  check ("raise works, kill of another process refused", t_signals, 1,
	 NULL, 0);
  check ("prctl: the server's options only", t_prctl, 1, NULL, 0);
  check ("clone: threads only; clone3 ENOSYS", t_clone, 1, NULL, 0);
  check ("ptrace, unshare, mount, chroot, setuid, memfd_create,"
	 " process_vm_readv refused", t_others, 1, NULL, 0);
#ifdef __x86_64__
  check ("an x32 system call kills the process", t_x32, 1, NULL, SIGSYS);
#endif

  snprintf (err, sizeof err, "%s/debug.err", dir);
  check ("GOMP_DEBUG=1: a refused call still fails with EPERM", t_debug, 1,
	 err, 0);
  snprintf (want, sizeof want,
	    "host-service: system call %d refused by the sandbox\n",
	    (int) SYS_socket);
  n = 0;
  if ((f = fopen (err, "r")) != NULL)
    {
      n = fread (buf, 1, sizeof buf - 1, f);
      fclose (f);
    }
  buf[n] = '\0';
  if (strstr (buf, want) != NULL)
    printf ("PASS: sandbox: GOMP_DEBUG=1: the refused call is reported\n");
  else
    {
      printf ("FAIL: sandbox: GOMP_DEBUG=1: no report; stderr was: %s\n",
	      buf);
      failures++;
    }
  unlink (err);

  check ("control: socket without the sandbox", n_socket, 0, NULL, 0);
  check ("control: execve without the sandbox", n_execve, 0, NULL, 0);
  check ("control: fork without the sandbox", n_fork, 0, NULL, 0);
  check ("control: ioctl FIONBIO without the sandbox", n_ioctl, 0, NULL, 0);
  check ("control: madvise MADV_REMOVE without the sandbox", n_madvise, 0,
	 NULL, 0);

  snprintf (buf, sizeof buf, "%s/moved/e", dir);
  rmdir (buf);
  snprintf (buf, sizeof buf, "%s/moved", dir);
  rmdir (buf);
  rmdir (dir);
  return failures != 0;
}
