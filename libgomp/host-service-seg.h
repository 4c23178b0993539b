/* Host services: the pieces of a call's input and output on the client.
   Shared by the device runtime and the simulated device used in testing.
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

#ifndef GOMP_HOST_SERVICE_SEG_H
#define GOMP_HOST_SERVICE_SEG_H 1

#include <stdint.h>

/* A piece of a call's input or output in the caller's memory.  */
struct hs_seg
{
  unsigned char *p;
  uint64_t n;
};

/* Where a call's output goes: SEG[0 .. N-1], filled in order.  When they
   are full and output remains, MORE (if not NULL) may append segments
   (up to CAP) once, looking at what the first ones received; output with
   no segment left is fetched and dropped.  */
struct hs_sink
{
  struct hs_seg *seg;
  unsigned n, cap;
  void (*more) (struct hs_sink *);
  void *cookie;
};

#endif /* GOMP_HOST_SERVICE_SEG_H */
