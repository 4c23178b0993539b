/* Host services: the wire protocol between offloaded code and libgomp.
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

/* Host services let code running on an offload device call the host while
   it runs: POSIX file I/O, stdio's system calls, the clock, and named host
   callbacks.  This header is the whole wire protocol; the device runtime
   (config/nvptx/host-service.c, host-service-client.h) and the host
   server (host-service*.c) both include it.

   MEMORY.  One region per device, in host memory that the device can
   read and write (pinned and mapped into the device's address space).
   It starts with a struct gomp_hs_header, followed by NPORTS struct
   gomp_hs_port, followed by NPORTS payload buffers of BUF_SIZE bytes each,
   at the offsets the accessors below compute.  The host writes the header
   before the first kernel runs and never changes it; it is there for the
   host's own checks and for debugging: the device learns the geometry
   from its struct gomp_hs_device, which the plugin fills in after
   checking that the device runtime speaks this version.  Besides the
   region, every device has one array of NPORTS struct gomp_hs_port_state
   in device memory, shared by every image loaded on it: the port locks,
   and the device's own copy of each port's sequence number.

   PORTS.  A port is a request slot with its payload buffer.  A device
   client (one per thread: a warp under GCC's uniform-SIMT model, a lane
   in OpenACC vector code and in "omp simd") owns a port from the moment
   it takes the port's lock until it has read the last reply.  Locks are
   device-memory atomics; the region itself is only ever accessed with
   plain, ordered loads and stores from the device, since atomics over
   PCIe are not guaranteed.  A client that holds a port waits only for
   the host, never for another client, and the lanes of a warp take ports
   so that none of them waits for a sibling (host-service-client.h): there
   is no deadlock whatever the number of ports.

   STATE MACHINE of one port.  DEV_SEQ, in the request's cache line, is
   written only by the device; the reply block, in a cache line of its
   own, only by the host, its SEQ word last.  The device keeps the
   sequence number it last published in its gomp_hs_port_state and never
   reads DEV_SEQ back; the host keeps the last one it answered.

     device (owner)                          host (server)
     1. write REQ and the payload buffer
     2. release fence (membar.sys)
     3. DEV_SEQ = SEQ + 1   --------------->  4. sees DEV_SEQ != answered
                                              5. acquire; copy REQ and the
                                                 payload out of the region
                                              6. act; write the payload
                                                 buffer and REP's INFO, RET
                                              7. release; REP.SEQ = DEV_SEQ
     8. polls REP.SEQ == SEQ + 1  <---------
     9. acquire fence (once); one 16-byte load of REP; read the payload

   After publishing, a round whose reply fits the reply block costs the
   device two dependent reads of host memory: the poll that sees REP.SEQ,
   then the load of REP.

   One round moves at most BUF_SIZE bytes each way.  A call whose input
   is larger (a big write, a long path, a host-call buffer) sends it in
   rounds: the first with GOMP_HS_REQ_FIRST and TOTAL set to the whole
   input length, the others with GOMP_HS_REQ_CONT; the host answers each
   but the last with GOMP_HS_REP_MORE_IN.  A call whose output is larger
   (a big read) gets the first part in the reply to its last input round
   with GOMP_HS_REP_MORE_OUT set, and fetches the rest with empty
   GOMP_HS_REQ_CONT rounds.  The final reply carries the call's result:
   RET and ERRNO, with errno values of the host (Linux) ABI.  The host may
   end a call early (an error, or a short write): it then sends the final
   reply, and the client stops sending.  A FIRST request always starts a
   new call, so a call abandoned midway (a kernel that ended or trapped)
   leaves nothing behind but what the host discards.

   TRUST.  Everything the device writes is untrusted: the host copies each
   request out of the region before looking at it, checks the opcode,
   flags, lengths, file descriptors and string termination, reaches only
   descriptors that device code opened (plus 0, 1 and 2), and answers a bad
   request with an error and errno rather than acting on it.  */

#ifndef GOMP_HOST_SERVICE_H
#define GOMP_HOST_SERVICE_H 1

#include <stdint.h>

#define GOMP_HS_MAGIC		0x53484f47u	/* "GOHS" */
#define GOMP_HS_VERSION		2u

/* Limits of the region the host creates.  A round's length must fit the
   reply's 20-bit LEN field.  */
#define GOMP_HS_MAX_PORTS	1024u
#define GOMP_HS_MIN_BUF_SIZE	64u
#define GOMP_HS_MAX_BUF_SIZE	(1u << 19)

/* Opcodes.  The host's op table (host-service-ops.c) maps each to its
   name, its argument checks and its handler.  Numbers are ABI: append
   only.  */
enum gomp_hs_op
{
  GOMP_HS_OP_NONE = 0,		/* Never valid.  */
  GOMP_HS_OP_OPEN,		/* in: path; arg0 flags, arg1 mode.  */
  GOMP_HS_OP_CLOSE,		/* arg0 fd.  */
  GOMP_HS_OP_READ,		/* arg0 fd, arg1 count; out: data.  */
  GOMP_HS_OP_WRITE,		/* arg0 fd; in: data.  */
  GOMP_HS_OP_LSEEK,		/* arg0 fd, arg1 offset, arg2 whence.  */
  GOMP_HS_OP_FSTAT,		/* arg0 fd; out: struct gomp_hs_stat.  */
  GOMP_HS_OP_STAT,		/* in: path; out: struct gomp_hs_stat.  */
  GOMP_HS_OP_LSTAT,		/* in: path; out: struct gomp_hs_stat.  */
  GOMP_HS_OP_UNLINK,		/* in: path.  */
  GOMP_HS_OP_RENAME,		/* in: from, NUL, to, NUL.  */
  GOMP_HS_OP_ISATTY,		/* arg0 fd.  */
  GOMP_HS_OP_FSYNC,		/* arg0 fd.  */
  GOMP_HS_OP_ACCESS,		/* in: path; arg0 mode.  */
  GOMP_HS_OP_CLOCK_GETTIME,	/* arg0 clock id; out: struct gomp_hs_timespec.  */
  GOMP_HS_OP_GETTIMEOFDAY,	/* out: struct gomp_hs_timespec (tv_nsec: usec).  */
  GOMP_HS_OP_MKDIR,		/* in: path; arg0 mode.  */
  GOMP_HS_OP_HOST_CALL,		/* Named host callbacks; see host-call.c.  */
  GOMP_HS_OP_FTRUNCATE,		/* arg0 fd, arg1 length.  */
  GOMP_HS_OP_EXIT,		/* arg0 status; never answered: the host
				   process ends.  */
  GOMP_HS_OP_TARGET_REV,	/* Reverse offload; see below.  */
  GOMP_HS_OP_MAX
};

/* Request flags.  */
#define GOMP_HS_REQ_FIRST	1u	/* First round of a call.  */
#define GOMP_HS_REQ_CONT	2u	/* A later round.  */

/* Reply flags.  */
#define GOMP_HS_REP_MORE_IN	1u	/* Send the next input round.  */
#define GOMP_HS_REP_MORE_OUT	2u	/* Fetch the next output round.  */

struct gomp_hs_request
{
  uint32_t op;
  uint32_t flags;
  int64_t arg[4];
  uint64_t len;			/* Payload bytes in this round.  */
  uint64_t total;		/* Input bytes of the whole call.  */
};

/* The reply: 16 bytes that the device reads with one load.  INFO packs
   the reply flags (bits 0-1), the host's errno (bits 2-11, 0 on success)
   and the payload bytes of this round (bits 12-31).  */
struct gomp_hs_reply
{
  uint32_t seq;			/* Written last.  */
  uint32_t info;
  int64_t ret;
} __attribute__ ((aligned (16)));

#define GOMP_HS_ERRNO_MAX	1023
#define GOMP_HS_INFO(FLAGS, ERR, LEN) \
  ((uint32_t) (FLAGS) | (uint32_t) (ERR) << 2 | (uint32_t) (LEN) << 12)
#define GOMP_HS_INFO_FLAGS(I)	((I) & 3u)
#define GOMP_HS_INFO_ERRNO(I)	((int32_t) (((I) >> 2) & GOMP_HS_ERRNO_MAX))
#define GOMP_HS_INFO_LEN(I)	((I) >> 12)

/* A port's control block: the device's line, then the host's.  */
struct gomp_hs_port
{
  uint32_t dev_seq;
  uint32_t pad0;
  struct gomp_hs_request req;
  struct gomp_hs_reply rep __attribute__ ((aligned (64)));
  uint8_t pad1[64 - sizeof (struct gomp_hs_reply)];
};

struct gomp_hs_header
{
  uint32_t magic;
  uint32_t version;
  uint32_t nports;
  uint32_t buf_size;
  uint64_t size;		/* Of the whole region.  */
  uint8_t pad[40];
};

_Static_assert (sizeof (struct gomp_hs_request) == 56, "request layout");
_Static_assert (sizeof (struct gomp_hs_reply) == 16, "reply layout");
_Static_assert (sizeof (struct gomp_hs_port) == 128, "port layout");
_Static_assert (sizeof (struct gomp_hs_header) == 64, "header layout");

/* The few errno values the protocol itself produces (host ABI, Linux).  */
#define GOMP_HS_EPERM		1
#define GOMP_HS_EIO		5
#define GOMP_HS_EBADF		9
#define GOMP_HS_ENOMEM		12
#define GOMP_HS_EFAULT		14
#define GOMP_HS_EINVAL		22
#define GOMP_HS_ENAMETOOLONG	36
#define GOMP_HS_ENOSYS		38
#define GOMP_HS_EPROTO		71
#define GOMP_HS_ECANCELED	125

/* Fixed-layout results.  */
struct gomp_hs_stat
{
  uint64_t dev, ino, nlink;
  uint32_t mode, uid, gid, pad;
  uint64_t rdev;
  int64_t size, blksize, blocks;
  int64_t atime_sec, atime_nsec;
  int64_t mtime_sec, mtime_nsec;
  int64_t ctime_sec, ctime_nsec;
};

struct gomp_hs_timespec
{
  int64_t sec, nsec;
};

/* TARGET_REV runs an OpenMP target region with device(ancestor: 1) on
   the host.  ARG0 is the length of the region's identity, ARG1 the
   number of map entries, ARG2 what the identity is: 0, a string (the
   name GCC 12 with this project's compiler patches gives the region),
   ARG0 counting its NUL; GOMP_HS_REV_BY_FN, the 8-byte device address of
   the region's function (what GCC 14 passes to the device's
   GOMP_target_ext), ARG0 8, which the host finds in the function tables
   of the images loaded on the device it serves.  Input: the identity,
   padded with NULs to a multiple of 8 bytes; ARG1 struct gomp_hs_rev_map; then, in entry
   order, the SIZE bytes at ADDR of every entry that carries data to the
   host (gomp_hs_rev_sends).  Output: a bit set of ARG1 bits in 8-byte
   words (bit I of word I / 64: entry I's bytes follow), then those
   bytes in entry order, SIZE each; the device stores them at ADDR.
   Only entries that receive data (gomp_hs_rev_receives) may have their
   bit set.  RET is 0.  ADDR, SIZE and KIND are those of the device's
   GOMP_target_rev arguments: device addresses, and GOMP_MAP_* kinds with
   the alignment's log2 in bits 8-15.  */
struct gomp_hs_rev_map
{
  uint64_t addr;
  uint64_t size;
  uint32_t kind;
  uint32_t pad;
};

_Static_assert (sizeof (struct gomp_hs_rev_map) == 24, "rev map layout");

/* TARGET_REV's ARG2: the identity is a device function address.  */
#define GOMP_HS_REV_BY_FN		1

/* Map kinds (include/gomp-constants.h) a reverse-offload region may
   have, as gomp_hs_rev_kind gives them, and which of them move data.
   Both flavours' compilers emit them for a target construct; GCC 12
   has none of the "present" kinds.  */
#define GOMP_HS_REV_ALLOC		0
#define GOMP_HS_REV_TO			1
#define GOMP_HS_REV_FROM		2
#define GOMP_HS_REV_TOFROM		3
#define GOMP_HS_REV_POINTER		4
#define GOMP_HS_REV_TO_PSET		5
#define GOMP_HS_REV_FORCE_PRESENT	6
#define GOMP_HS_REV_DELETE		7
#define GOMP_HS_REV_FIRSTPRIVATE	12
#define GOMP_HS_REV_FIRSTPRIVATE_INT	13
#define GOMP_HS_REV_ZERO_LEN_ARRAY	15
#define GOMP_HS_REV_ALWAYS_TO		17
#define GOMP_HS_REV_ALWAYS_FROM		18
#define GOMP_HS_REV_ALWAYS_TOFROM	19
#define GOMP_HS_REV_RELEASE		23
#define GOMP_HS_REV_STRUCT		28
#define GOMP_HS_REV_ALWAYS_POINTER	29
#define GOMP_HS_REV_POINTER_ZERO_LEN	30
#define GOMP_HS_REV_DELETE_ZERO_LEN	31
#define GOMP_HS_REV_ATTACH		80
#define GOMP_HS_REV_ATTACH_ZERO_LEN	82
#define GOMP_HS_REV_FORCE_ALLOC		128
#define GOMP_HS_REV_FORCE_TO		129
#define GOMP_HS_REV_FORCE_FROM		130
#define GOMP_HS_REV_FORCE_TOFROM	131
#define GOMP_HS_REV_ALWAYS_PRESENT_TO	149
#define GOMP_HS_REV_ALWAYS_PRESENT_FROM	150
#define GOMP_HS_REV_ALWAYS_PRESENT_TOFROM 151

/* The kind entry KIND is served as: its low byte, less the mark GCC
   gives a map it made implicitly (bits 5 and 6 alone among the special
   bits 2-7).  */
static inline uint32_t
gomp_hs_rev_kind (uint32_t kind)
{
  kind &= 0xff;
  return (kind & 0xfc) == 0x60 ? kind & ~(uint32_t) 0x60 : kind;
}

/* How the host serves an entry of kind KIND (gomp_hs_rev_kind): 0, a
   kind it refuses; GOMP_HS_REV_DATA, SIZE bytes at ADDR (what the kind
   moves: gomp_hs_rev_sends, gomp_hs_rev_receives); GOMP_HS_REV_PTR, a
   pointer at ADDR whose target is mapped SIZE bytes past what it holds
   (SIZE is the bias); GOMP_HS_REV_GROUP, the SIZE entries after it are
   the mapped members of a structure at ADDR; GOMP_HS_REV_NONE, nothing
   at ADDR (a value, or a zero-length section: SIZE is 0).  One list for
   the device, which leaves a region with a refused kind to GCC's own
   reverse offload where there is one, and the host, which refuses
   it.  */
#define GOMP_HS_REV_DATA		1
#define GOMP_HS_REV_PTR			2
#define GOMP_HS_REV_GROUP		3
#define GOMP_HS_REV_NONE		4

static inline int
gomp_hs_rev_class (uint32_t kind)
{
  switch (kind)
    {
    case GOMP_HS_REV_ALLOC: case GOMP_HS_REV_TO: case GOMP_HS_REV_FROM:
    case GOMP_HS_REV_TOFROM: case GOMP_HS_REV_TO_PSET:
    case GOMP_HS_REV_FORCE_PRESENT: case GOMP_HS_REV_DELETE:
    case GOMP_HS_REV_FIRSTPRIVATE: case GOMP_HS_REV_ALWAYS_TO:
    case GOMP_HS_REV_ALWAYS_FROM: case GOMP_HS_REV_ALWAYS_TOFROM:
    case GOMP_HS_REV_RELEASE: case GOMP_HS_REV_FORCE_ALLOC:
    case GOMP_HS_REV_FORCE_TO: case GOMP_HS_REV_FORCE_FROM:
    case GOMP_HS_REV_FORCE_TOFROM: case GOMP_HS_REV_ALWAYS_PRESENT_TO:
    case GOMP_HS_REV_ALWAYS_PRESENT_FROM:
    case GOMP_HS_REV_ALWAYS_PRESENT_TOFROM:
      return GOMP_HS_REV_DATA;
    case GOMP_HS_REV_POINTER: case GOMP_HS_REV_ALWAYS_POINTER:
    case GOMP_HS_REV_POINTER_ZERO_LEN: case GOMP_HS_REV_ATTACH:
    case GOMP_HS_REV_ATTACH_ZERO_LEN:
      return GOMP_HS_REV_PTR;
    case GOMP_HS_REV_STRUCT:
      return GOMP_HS_REV_GROUP;
    case GOMP_HS_REV_FIRSTPRIVATE_INT: case GOMP_HS_REV_ZERO_LEN_ARRAY:
    case GOMP_HS_REV_DELETE_ZERO_LEN:
      return GOMP_HS_REV_NONE;
    default:
      return 0;
    }
}

/* Whether an entry's bytes go to the host with the call (KIND as given
   to GOMP_target_rev or GOMP_target_ext).  */
static inline int
gomp_hs_rev_sends (uint32_t kind)
{
  switch (gomp_hs_rev_kind (kind))
    {
    case GOMP_HS_REV_TO: case GOMP_HS_REV_TOFROM:
    case GOMP_HS_REV_ALWAYS_TO: case GOMP_HS_REV_ALWAYS_TOFROM:
    case GOMP_HS_REV_FIRSTPRIVATE: case GOMP_HS_REV_TO_PSET:
    case GOMP_HS_REV_FORCE_TO: case GOMP_HS_REV_FORCE_TOFROM:
    case GOMP_HS_REV_ALWAYS_PRESENT_TO:
    case GOMP_HS_REV_ALWAYS_PRESENT_TOFROM:
      return 1;
    default:
      return 0;
    }
}

/* Whether the host may send an entry's bytes back.  */
static inline int
gomp_hs_rev_receives (uint32_t kind)
{
  switch (gomp_hs_rev_kind (kind))
    {
    case GOMP_HS_REV_FROM: case GOMP_HS_REV_TOFROM:
    case GOMP_HS_REV_ALWAYS_FROM: case GOMP_HS_REV_ALWAYS_TOFROM:
    case GOMP_HS_REV_FORCE_FROM: case GOMP_HS_REV_FORCE_TOFROM:
    case GOMP_HS_REV_ALWAYS_PRESENT_FROM:
    case GOMP_HS_REV_ALWAYS_PRESENT_TOFROM:
      return 1;
    default:
      return 0;
    }
}

/* Bytes of the bit set that opens TARGET_REV's output: MAPNUM bits in
   8-byte words.  */
static inline uint64_t
gomp_hs_rev_bits_len (uint64_t mapnum)
{
  return (mapnum + 63) / 64 * 8;
}

/* Device memory, one per port and device: the port's lock, and the
   sequence number its last owner published.  */
struct gomp_hs_port_state
{
  uint32_t lock;
  uint32_t seq;
};

/* What the device runtime's global __gomp_host_service holds.  The
   device runtime initializes VERSION (and STACK); when the plugin loads an
   image that has the symbol, it checks VERSION, then fills in the rest:
   NPORTS 0 (or REGION 0) means there is no host service.  */
#define GOMP_HS_DEVICE_SYMBOL	"__gomp_host_service"
struct gomp_hs_device
{
  uint32_t version;		/* GOMP_HS_VERSION.  */
  uint32_t stack;		/* Per-thread hardware stack bytes the device
				   runtime's calls need (the compiler cannot
				   size it: indirect calls).  */
  uint32_t nports;
  uint32_t buf_size;
  uint64_t region;		/* Device address of the region.  */
  uint64_t ports;		/* Device address of NPORTS
				   struct gomp_hs_port_state.  */
};

/* Layout of the region.  */

static inline uint64_t
gomp_hs_ports_offset (void)
{
  return sizeof (struct gomp_hs_header);
}

static inline uint64_t
gomp_hs_buf_offset (uint32_t nports, uint32_t buf_size, uint32_t i)
{
  return gomp_hs_ports_offset ()
	 + (uint64_t) nports * sizeof (struct gomp_hs_port)
	 + (uint64_t) i * buf_size;
}

static inline uint64_t
gomp_hs_region_size (uint32_t nports, uint32_t buf_size)
{
  return gomp_hs_buf_offset (nports, buf_size, nports);
}

#endif /* GOMP_HOST_SERVICE_H */
