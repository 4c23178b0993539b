/* gomp-hs-serve: the server process of libgomp's host services.
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

/* Installed as libexec/gomp-hs/gomp-hs-serve; libgomp (or any user of
   libgomp-hs-server.a) starts it for GOMP_HOST_SERVICES_SERVER=process.
   Everything is in libgomp/host-service-process.c.  */

#include "libgomp.h"
#include "host-service-internal.h"

int
main (int argc, char **argv)
{
  return gomp_hs_helper_main (argc, argv);
}
