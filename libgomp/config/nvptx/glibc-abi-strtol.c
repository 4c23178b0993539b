/* glibc's C23 names of the strtol family on nvptx.
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

/* From glibc 2.38 on, with _GNU_SOURCE (which g++ always defines) or
   -std=c23, glibc's headers name strtol, strtoul, strtoll, strtoull and
   their _l forms __isoc23_strtol and so on: C23's versions, which also
   read binary numbers with a "0b" or "0B" prefix when the base is 0 or 2.
   Debian 13's headers do, so code offloaded from there references these
   names.  Each is newlib's function, but for that prefix, which newlib
   does not read and which is handled here.

   This file is apart from glibc-abi.c because that one links stdio; code
   that converts numbers must not bring in stdio with it.  */

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdlib.h>

/* If S, in BASE, is C23's binary form (white space, an optional sign,
   "0b" or "0B", then at least one binary digit), set *NEG, *MAG (the
   magnitude, modulo 2^64), *OVF (nonzero if the magnitude does not fit
   in 64 bits) and *END, and return nonzero.  Otherwise return zero: the
   string is newlib's to read ("0b" with no binary digit after it reads
   as 0, with the end at the "b").  */

static int
c23_binary (const char *s, int base, int *neg, unsigned long long *mag,
	    int *ovf, char **end)
{
  const char *p = s;

  if (base != 0 && base != 2)
    return 0;
  while (isspace ((unsigned char) *p))
    p++;
  *neg = *p == '-';
  if (*p == '-' || *p == '+')
    p++;
  if (p[0] != '0' || (p[1] != 'b' && p[1] != 'B')
      || (p[2] != '0' && p[2] != '1'))
    return 0;
  *mag = 0;
  *ovf = 0;
  for (p += 2; *p == '0' || *p == '1'; p++)
    {
      if (*mag >> 63)
	*ovf = 1;
      *mag = (*mag << 1) | (unsigned) (*p - '0');
    }
  *end = (char *) p;
  return 1;
}

/* The value of a binary form for a signed type whose largest value is
   MAX: clamped to MAX or -MAX - 1 with ERANGE, as strtol does.  */

static long long
c23_signed (int neg, unsigned long long mag, int ovf, unsigned long long max)
{
  if (ovf || mag > max + (neg ? 1 : 0))
    {
      errno = ERANGE;
      return neg ? -(long long) max - 1 : (long long) max;
    }
  return neg ? (long long) (0 - mag) : (long long) mag;
}

/* For an unsigned type whose largest value is MAX: a minus sign negates
   the value in that type, as strtoul does.  */

static unsigned long long
c23_unsigned (int neg, unsigned long long mag, int ovf,
	      unsigned long long max)
{
  if (ovf || mag > max)
    {
      errno = ERANGE;
      return max;
    }
  return neg ? (0 - mag) & max : mag;
}

long
__isoc23_strtol (const char *s, char **end, int base)
{
  int neg, ovf;
  unsigned long long mag;
  char *e;

  if (!c23_binary (s, base, &neg, &mag, &ovf, &e))
    return strtol (s, end, base);
  if (end)
    *end = e;
  return c23_signed (neg, mag, ovf, LONG_MAX);
}

unsigned long
__isoc23_strtoul (const char *s, char **end, int base)
{
  int neg, ovf;
  unsigned long long mag;
  char *e;

  if (!c23_binary (s, base, &neg, &mag, &ovf, &e))
    return strtoul (s, end, base);
  if (end)
    *end = e;
  return c23_unsigned (neg, mag, ovf, ULONG_MAX);
}

long long
__isoc23_strtoll (const char *s, char **end, int base)
{
  int neg, ovf;
  unsigned long long mag;
  char *e;

  if (!c23_binary (s, base, &neg, &mag, &ovf, &e))
    return strtoll (s, end, base);
  if (end)
    *end = e;
  return c23_signed (neg, mag, ovf, LLONG_MAX);
}

unsigned long long
__isoc23_strtoull (const char *s, char **end, int base)
{
  int neg, ovf;
  unsigned long long mag;
  char *e;

  if (!c23_binary (s, base, &neg, &mag, &ovf, &e))
    return strtoull (s, end, base);
  if (end)
    *end = e;
  return c23_unsigned (neg, mag, ovf, ULLONG_MAX);
}

/* The _l forms.  The device has only the C locale, in which digits and
   white space are those above.  */

long
__isoc23_strtol_l (const char *s, char **end, int base, locale_t loc)
{
  (void) loc;
  return __isoc23_strtol (s, end, base);
}

unsigned long
__isoc23_strtoul_l (const char *s, char **end, int base, locale_t loc)
{
  (void) loc;
  return __isoc23_strtoul (s, end, base);
}

long long
__isoc23_strtoll_l (const char *s, char **end, int base, locale_t loc)
{
  (void) loc;
  return __isoc23_strtoll (s, end, base);
}

unsigned long long
__isoc23_strtoull_l (const char *s, char **end, int base, locale_t loc)
{
  (void) loc;
  return __isoc23_strtoull (s, end, base);
}
