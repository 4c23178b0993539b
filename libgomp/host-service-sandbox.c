/* Host services: confining a process that serves the device.
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

/* A helper process that serves the device's file requests (privilege
   separation, host-service-process.c: the requests are untrusted input,
   parsed by a process that can do little harm if they subvert it)
   confines itself with gomp_hs_sandbox before it starts any thread:

     - no new privileges (PR_SET_NO_NEW_PRIVS): no set-user-ID program or
       file capability gives it more, and it may install the filter;
     - no core dumps (RLIMIT_CORE 0): what it read stays out of them;
     - at most NOFILE descriptors (RLIMIT_NOFILE, soft and hard, never
       raised; NOFILE 0 leaves the limit alone);
     - where the kernel has Landlock, a domain of its own that forbids
       only making device nodes: a process in a domain cannot ptrace a
       process outside it, nor open its /proc/PID/mem, /proc/PID/fd/N...
       (the application's too), a hole no filter can close since it
       cannot see paths;
     - a seccomp filter, which every thread it starts inherits.

   THE FILTER, classic BPF over struct seccomp_data (seccomp(2)).  A call
   of another ABI than the build's kills the process (on x86_64 also
   x32's numbers, with __X32_SYSCALL_BIT): its numbers mean other calls.
   Allowed is what the handlers of host-service-ops.c and
   host-service-fd.c, and the helper's loop, make, and what glibc's
   stdio, malloc and threads make for them; hs_build has the list, by
   purpose.  Some only with the arguments they need:

     ioctl     TCGETS (isatty, and stdio choosing its buffering);
     clone     with CLONE_THREAD and no namespace flag: threads, but no
	       processes; clone3 fails with ENOSYS, and glibc falls back
	       to clone, whose flags a filter can see (clone3's are in
	       memory);
     tgkill    of this process (abort, raise);
     prlimit64 of this process, setting nothing (getrlimit);
     prctl     PR_SET_TIMERSLACK, PR_SET_NAME, PR_GET_NAME, and
	       PR_SET_NO_NEW_PRIVS, which like the landlock calls only
	       takes rights away (gomp_hs_confine_thread).

   Every other call fails with EPERM: no new sockets (socket, connect,
   bind, accept, socketpair), no programs (execve, execveat), no
   processes or namespaces (fork, vfork, unshare, setns), nothing that
   reaches into another process (ptrace, process_vm_readv/writev, kill,
   pidfd_*), no mount, chroot, set*id, bpf, perf_event_open,
   memfd_create, io_uring, keyctl...  A subverted server can still do
   what serving does -- read and write the files that the path policy
   of host-service-fd.c lets it reach, which the filter cannot check --
   but it cannot reach the network, run a program or touch another
   process.

   With GOMP_DEBUG=1 a refused call raises SIGSYS instead, whose handler
   says which call it was on standard error and makes it fail with EPERM
   all the same.  Not clone: glibc's posix_spawn calls it with every
   signal blocked, and a blocked SIGSYS kills the process.

   ARGUMENTS.  seccomp_data.args[] are 64 bits wide, classic BPF loads
   32.  Only the low word of an argument is compared: the kernel itself
   truncates prctl's option, ioctl's request and tgkill's process id to
   32 bits, and CLONE_THREAD and the namespace flags are in the low word
   of clone's flags.  prlimit64's new limit, a pointer, must be NULL in
   both words.  */

#define _GNU_SOURCE 1
#include "libgomp.h"
#include "host-service-internal.h"
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <fcntl.h>
#ifdef __linux__
#include <sched.h>
#include <signal.h>
#include <ucontext.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#ifdef SYS_landlock_create_ruleset
#include <linux/landlock.h>
#endif
#endif

#if defined __linux__ && defined __x86_64__ && !defined __ILP32__
#define HS_AUDIT_ARCH	AUDIT_ARCH_X86_64
#elif defined __linux__ && defined __aarch64__ && !defined __ILP32__ \
      && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HS_AUDIT_ARCH	AUDIT_ARCH_AARCH64
#endif

#ifdef HS_AUDIT_ARCH

/* The low and high words of argument I (both are little-endian).  */
#define HS_ARG_LO(I)	(offsetof (struct seccomp_data, args) + 8 * (I))
#define HS_ARG_HI(I)	(HS_ARG_LO (I) + 4)
/* siginfo's si_code for a seccomp trap (asm-generic/siginfo.h).  */
#define HS_SYS_SECCOMP	1
#define HS_CLONE_NS	(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC \
			 | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET \
			 | CLONE_NEWCGROUP)
#define HS_MAX_INSNS	256

struct hs_prog
{
  struct sock_filter insn[HS_MAX_INSNS];
  unsigned n;
  uint32_t refuse;		/* What a refused call gets.  */
};

static void
hs_insn (struct hs_prog *p, unsigned short code, uint32_t k, unsigned jt,
	 unsigned jf)
{
  struct sock_filter f = BPF_JUMP (code, k, jt, jf);
  if (p->n < HS_MAX_INSNS)
    p->insn[p->n] = f;
  p->n++;
}

#define HS_LD(P, OFF)	hs_insn (P, BPF_LD | BPF_W | BPF_ABS, OFF, 0, 0)
#define HS_RET(P, K)	hs_insn (P, BPF_RET | BPF_K, K, 0, 0)
#define HS_JEQ(P, K, JT, JF) hs_insn (P, BPF_JMP | BPF_JEQ | BPF_K, K, JT, JF)
#define HS_JSET(P, K, JT, JF) hs_insn (P, BPF_JMP | BPF_JSET | BPF_K, K, JT, JF)

/* Allow system call NR when the low word of its argument ARG is one of
   the N values in VALS (N 0: always), refuse it otherwise.  The
   accumulator holds the number; every path of the block returns.  */

static void
hs_allow_if (struct hs_prog *p, long nr, unsigned arg, const uint32_t *vals,
	     unsigned n)
{
  unsigned i;
  HS_JEQ (p, nr, 0, n ? n + 3 : 1);
  if (n == 0)
    {
      HS_RET (p, SECCOMP_RET_ALLOW);
      return;
    }
  HS_LD (p, HS_ARG_LO (arg));
  for (i = 0; i < n; i++)
    HS_JEQ (p, vals[i], n - i, 0);
  HS_RET (p, p->refuse);
  HS_RET (p, SECCOMP_RET_ALLOW);
}

/* GOMP_DEBUG: a refused call (SECCOMP_RET_TRAP) says which it was and
   fails with EPERM.  Async-signal-safe: write(2) only.  */

static void
hs_sigsys (int sig, siginfo_t *si, void *ctx)
{
  static const char tail[] = " refused by the sandbox\n";
  char msg[80] = "host-service: system call ", num[12];
  size_t len = strlen (msg);
  unsigned nr = (unsigned) si->si_syscall;
  int k = 0, saved = errno;
  ssize_t w;
  (void) sig;
  if (si->si_code != HS_SYS_SECCOMP)
    return;
  do
    num[k++] = '0' + nr % 10;
  while ((nr /= 10) != 0);
  while (k > 0)
    msg[len++] = num[--k];
  memcpy (msg + len, tail, sizeof tail - 1);
  w = write (2, msg, len + sizeof tail - 1);
  (void) w;
#ifdef __x86_64__
  ((ucontext_t *) ctx)->uc_mcontext.gregs[REG_RAX] = -EPERM;
#else
  ((ucontext_t *) ctx)->uc_mcontext.regs[0] = (unsigned long long) -EPERM;
#endif
  errno = saved;
}

static void
hs_build (struct hs_prog *p)
{
  static const long plain[] = {
    /* Descriptors and files: the handlers, stdio, and the helper's
       socket (device writes to sockets are sends, too).  The frequent
       ones first.  */
    SYS_futex, SYS_read, SYS_write, SYS_readv, SYS_writev, SYS_pread64,
    SYS_pwrite64, SYS_lseek, SYS_close, SYS_fstat, SYS_newfstatat,
    SYS_fstatfs, SYS_fcntl, SYS_sendto, SYS_recvfrom, SYS_sendmsg,
    SYS_recvmsg, SYS_openat, SYS_faccessat, SYS_unlinkat, SYS_mkdirat,
    SYS_fsync, SYS_fdatasync, SYS_ftruncate, SYS_readlinkat, SYS_getcwd,
#ifdef SYS_open
    /* The older calls of x86_64, which aarch64 has not.  */
    SYS_open, SYS_stat, SYS_lstat, SYS_access, SYS_unlink, SYS_mkdir,
    SYS_rename, SYS_readlink, SYS_poll,
#endif
#ifdef SYS_renameat
    SYS_renameat,
#endif
#ifdef SYS_renameat2
    SYS_renameat2,
#endif
#ifdef SYS_openat2
    SYS_openat2,
#endif
#ifdef SYS_statx
    SYS_statx,
#endif
#ifdef SYS_faccessat2
    SYS_faccessat2,
#endif
    /* Waiting and time.  */
    SYS_ppoll, SYS_nanosleep, SYS_clock_nanosleep, SYS_clock_gettime,
    SYS_clock_getres, SYS_gettimeofday, SYS_sched_yield,
    /* Memory.  */
    SYS_brk, SYS_mmap, SYS_munmap, SYS_mprotect, SYS_mremap,
    /* Threads and signals.  */
    SYS_set_robust_list, SYS_exit, SYS_exit_group, SYS_rt_sigprocmask,
    SYS_rt_sigaction, SYS_rt_sigreturn, SYS_sigaltstack,
    SYS_sched_getaffinity, SYS_getcpu, SYS_restart_syscall,
#ifdef SYS_rseq
    SYS_rseq,
#endif
    /* What the process may know of itself.  */
    SYS_getpid, SYS_gettid, SYS_getppid, SYS_uname,
#ifdef SYS_getrlimit
    SYS_getrlimit,
#endif
#ifdef SYS_getrandom
    SYS_getrandom,
#endif
#ifdef SYS_landlock_create_ruleset
    /* Taking rights away (gomp_hs_confine_thread).  */
    SYS_landlock_create_ruleset, SYS_landlock_add_rule,
    SYS_landlock_restrict_self,
#endif
  };
  static const uint32_t ioctls[] = { TCGETS };
  static const uint32_t madvs[] = { MADV_DONTNEED, MADV_FREE, MADV_HUGEPAGE,
				    MADV_NOHUGEPAGE };
  static const uint32_t prctls[] = { PR_SET_TIMERSLACK, PR_SET_NAME,
				     PR_GET_NAME, PR_SET_NO_NEW_PRIVS };
  uint32_t pid = (uint32_t) getpid ();
  size_t i;

  /* The ABI.  */
  HS_LD (p, offsetof (struct seccomp_data, arch));
  HS_JEQ (p, HS_AUDIT_ARCH, 1, 0);
  HS_RET (p, SECCOMP_RET_KILL_PROCESS);
  HS_LD (p, offsetof (struct seccomp_data, nr));
#ifdef __x86_64__
  HS_JSET (p, __X32_SYSCALL_BIT, 0, 1);
  HS_RET (p, SECCOMP_RET_KILL_PROCESS);
#endif

  for (i = 0; i < sizeof plain / sizeof plain[0]; i++)
    hs_allow_if (p, plain[i], 0, NULL, 0);
  hs_allow_if (p, SYS_ioctl, 1, ioctls, 1);
  hs_allow_if (p, SYS_prctl, 0, prctls, 4);
  hs_allow_if (p, SYS_tgkill, 0, &pid, 1);
  /* Not MADV_REMOVE and its kind, which would punch holes in the shared
     region: the device would go on seeing the pages the driver pinned,
     the processes new ones.  */
  hs_allow_if (p, SYS_madvise, 2, madvs, 4);

  /* clone: CLONE_THREAD and no namespace flag.  Never a trap (above).  */
  HS_JEQ (p, SYS_clone, 0, 5);
  HS_LD (p, HS_ARG_LO (0));
  HS_JSET (p, HS_CLONE_NS, 1, 0);
  HS_JSET (p, CLONE_THREAD, 1, 0);
  HS_RET (p, SECCOMP_RET_ERRNO | EPERM);
  HS_RET (p, SECCOMP_RET_ALLOW);
#ifdef SYS_clone3
  HS_JEQ (p, SYS_clone3, 0, 1);
  HS_RET (p, SECCOMP_RET_ERRNO | ENOSYS);
#endif

  /* prlimit64 (0, RESOURCE, NULL, OLD).  */
  HS_JEQ (p, SYS_prlimit64, 0, 8);
  HS_LD (p, HS_ARG_LO (0));
  HS_JEQ (p, 0, 0, 4);
  HS_LD (p, HS_ARG_LO (2));
  HS_JEQ (p, 0, 0, 2);
  HS_LD (p, HS_ARG_HI (2));
  HS_JEQ (p, 0, 1, 0);
  HS_RET (p, p->refuse);
  HS_RET (p, SECCOMP_RET_ALLOW);

  HS_RET (p, p->refuse);
}

/* A Landlock domain that forbids making device nodes (which serving
   never does): from then on the process cannot ptrace, nor open the
   /proc files that need ptrace access to, any process outside it.  */

static void
hs_landlock_domain (void)
{
#if defined SYS_landlock_create_ruleset && defined LANDLOCK_ACCESS_FS_MAKE_CHAR
  struct landlock_ruleset_attr attr;
  int fd;
  long abi = syscall (SYS_landlock_create_ruleset, NULL, 0,
		      LANDLOCK_CREATE_RULESET_VERSION);
  memset (&attr, 0, sizeof attr);
  attr.handled_access_fs = (LANDLOCK_ACCESS_FS_MAKE_CHAR
			    | LANDLOCK_ACCESS_FS_MAKE_BLOCK);
#ifdef LANDLOCK_ACCESS_FS_REFER
  /* Every domain denies REFER (renames across directories) unless a
     rule grants it: grant it everywhere.  */
  if (abi >= 2)
    attr.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
#endif
  fd = (int) syscall (SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
#ifdef LANDLOCK_ACCESS_FS_REFER
  if (fd >= 0 && abi >= 2)
    {
      struct landlock_path_beneath_attr rule;
      memset (&rule, 0, sizeof rule);
      rule.allowed_access = LANDLOCK_ACCESS_FS_REFER;
      rule.parent_fd = open ("/", O_PATH | O_CLOEXEC);
      if (rule.parent_fd < 0
	  || syscall (SYS_landlock_add_rule, fd, LANDLOCK_RULE_PATH_BENEATH,
		      &rule, 0) != 0)
	{
	  close (fd);
	  fd = -1;
	}
      if (rule.parent_fd >= 0)
	close (rule.parent_fd);
    }
#endif
  if (fd < 0 || syscall (SYS_landlock_restrict_self, fd, 0) != 0)
    gomp_debug (0, "host-service: sandbox without a Landlock domain: %s\n",
		strerror (errno));
  if (fd >= 0)
    close (fd);
#endif
}

int
gomp_hs_sandbox (unsigned long nofile)
{
  static struct hs_prog prog;
  struct sock_fprog fprog;
  struct rlimit rl;
  const char *dbg = getenv ("GOMP_DEBUG");
  int trap = dbg != NULL && atoi (dbg) != 0;
  long r;

  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return -1;
  rl.rlim_cur = rl.rlim_max = 0;
  if (setrlimit (RLIMIT_CORE, &rl) != 0)
    return -1;
  if (nofile != 0)
    {
      if (getrlimit (RLIMIT_NOFILE, &rl) != 0)
	return -1;
      if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > nofile)
	rl.rlim_max = nofile;
      rl.rlim_cur = rl.rlim_max;
      if (setrlimit (RLIMIT_NOFILE, &rl) != 0)
	return -1;
    }
  hs_landlock_domain ();

  if (trap)
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_sigaction = hs_sigsys;
      sa.sa_flags = SA_SIGINFO;
      sigemptyset (&sa.sa_mask);
      trap = sigaction (SIGSYS, &sa, NULL) == 0;
    }
  prog.n = 0;
  prog.refuse = trap ? SECCOMP_RET_TRAP : SECCOMP_RET_ERRNO | EPERM;
  hs_build (&prog);
  if (prog.n > HS_MAX_INSNS)
    {
      errno = E2BIG;
      return -1;
    }
  fprog.len = prog.n;
  fprog.filter = prog.insn;
  /* TSYNC: a thread the caller started after all is confined too (or
     the call fails, returning that thread's id).  */
  r = syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	       SECCOMP_FILTER_FLAG_TSYNC, &fprog);
  if (r < 0 && errno == ENOSYS)
    r = prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0);
  if (r > 0)
    errno = EBUSY;
  if (r != 0)
    {
      gomp_debug (0, "host-service: no seccomp filter: %s\n",
		  strerror (errno));
      return -1;
    }
  gomp_debug (0, "host-service: sandboxed: %u filter instructions, at most"
	      " %lu descriptors%s\n", prog.n, nofile,
	      trap ? ", refused calls reported" : "");
  return 0;
}

#else /* !HS_AUDIT_ARCH */

/* No filter for this architecture (or ABI) yet.  */

int
gomp_hs_sandbox (unsigned long nofile)
{
  (void) nofile;
  errno = ENOSYS;
  return -1;
}

#endif /* HS_AUDIT_ARCH */
