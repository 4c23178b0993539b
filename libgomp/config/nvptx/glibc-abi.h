/* The host C library's ABI, as seen by target-region code on nvptx.
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

/* Code in an offloaded region is preprocessed with the host's headers
   (glibc on x86_64 GNU/Linux) but linked against newlib.  Where the two
   disagree on a number or a layout, the device runtime has to speak the
   host's language to user code and newlib's language to newlib.  This
   header spells out the host side: the constants are those of the x86_64
   Linux kernel ABI, which glibc passes through unchanged.  They are
   written here as numbers because the device runtime itself is compiled
   against newlib's headers.  */

#ifndef GOMP_NVPTX_GLIBC_ABI_H
#define GOMP_NVPTX_GLIBC_ABI_H 1

#include <stdint.h>

/* errno values.  1..34 coincide with newlib; the rest do not.  */
#define HOST_EPERM		1
#define HOST_ENOENT		2
#define HOST_EIO		5
#define HOST_EBADF		9
#define HOST_ENOMEM		12
#define HOST_EFAULT		14
#define HOST_EEXIST		17
#define HOST_ENOTDIR		20
#define HOST_EISDIR		21
#define HOST_EINVAL		22
#define HOST_EMFILE		24
#define HOST_ENOTTY		25
#define HOST_EFBIG		27
#define HOST_ENOSPC		28
#define HOST_ESPIPE		29
#define HOST_EROFS		30
#define HOST_ERANGE		34
#define HOST_ENAMETOOLONG	36
#define HOST_ENOSYS		38
#define HOST_EOVERFLOW		75

/* open flags.  */
#define HOST_O_ACCMODE		00000003
#define HOST_O_RDONLY		00000000
#define HOST_O_WRONLY		00000001
#define HOST_O_RDWR		00000002
#define HOST_O_CREAT		00000100
#define HOST_O_EXCL		00000200
#define HOST_O_NOCTTY		00000400
#define HOST_O_TRUNC		00001000
#define HOST_O_APPEND		00002000
#define HOST_O_NONBLOCK		00004000
#define HOST_O_SYNC		04010000
#define HOST_O_LARGEFILE	00000000	/* Implied on x86_64.  */
#define HOST_O_DIRECTORY	00200000
#define HOST_O_NOFOLLOW		00400000
#define HOST_O_CLOEXEC		02000000

/* File type bits of st_mode are the traditional octal ones on both.  */
#define HOST_S_IFMT		0170000
#define HOST_S_IFCHR		0020000
#define HOST_S_IFREG		0100000

struct host_timespec
{
  int64_t tv_sec;
  int64_t tv_nsec;
};

/* struct stat (and struct stat64, which is the same) of glibc on x86_64.  */
struct host_stat
{
  uint64_t st_dev;
  uint64_t st_ino;
  uint64_t st_nlink;
  uint32_t st_mode;
  uint32_t st_uid;
  uint32_t st_gid;
  int32_t pad0;
  uint64_t st_rdev;
  int64_t st_size;
  int64_t st_blksize;
  int64_t st_blocks;
  struct host_timespec st_atim;
  struct host_timespec st_mtim;
  struct host_timespec st_ctim;
  int64_t reserved[3];
};

_Static_assert (sizeof (struct host_stat) == 144, "glibc x86_64 struct stat");
_Static_assert (__builtin_offsetof (struct host_stat, st_size) == 48,
		"glibc x86_64 st_size");

/* <ctype.h>: glibc's macros index a table of class bits through
   __ctype_b_loc, and tolower/toupper tables through __ctype_tolower_loc
   and __ctype_toupper_loc, for -128 <= C < 256.  These give the "C"
   locale's entries, in glibc's bit order (little-endian layout).  */

#define HOST_ISBIT(B) ((B) < 8 ? (1 << (B)) << 8 : (1 << (B)) >> 8)

static inline unsigned short
host_ctype_bits (int c)
{
  int upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
  int digit = c >= '0' && c <= '9';
  int xdigit = digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  int space = c == ' ' || (c >= '\t' && c <= '\r');
  int print = c >= ' ' && c <= '~';
  int graph = c > ' ' && c <= '~';
  int blank = c == ' ' || c == '\t';
  int cntrl = (c >= 0 && c < ' ') || c == 127;
  int alpha = upper || lower;
  int punct = graph && !alpha && !digit;
  return (upper ? HOST_ISBIT (0) : 0) | (lower ? HOST_ISBIT (1) : 0)
	 | (alpha ? HOST_ISBIT (2) : 0) | (digit ? HOST_ISBIT (3) : 0)
	 | (xdigit ? HOST_ISBIT (4) : 0) | (space ? HOST_ISBIT (5) : 0)
	 | (print ? HOST_ISBIT (6) : 0) | (graph ? HOST_ISBIT (7) : 0)
	 | (blank ? HOST_ISBIT (8) : 0) | (cntrl ? HOST_ISBIT (9) : 0)
	 | (punct ? HOST_ISBIT (10) : 0) | (alpha || digit ? HOST_ISBIT (11) : 0);
}

/* For -128 <= C < -1 (a signed char), glibc's tables give the value
   for the byte, C + 256; EOF maps to itself.  */

static inline int
host_tolower (int c)
{
  if (c < -1)
    c += 256;
  return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static inline int
host_toupper (int c)
{
  if (c < -1)
    c += 256;
  return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

#endif /* GOMP_NVPTX_GLIBC_ABI_H */
