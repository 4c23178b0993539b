/* The host C library's ABI on nvptx: what glibc's headers reference.
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

/* glibc's headers turn ordinary C into references to symbols that newlib
   does not have: the stdin/stdout/stderr variables, the C99 and C23
   scanf families under their __isoc99_ and __isoc23_ names, the checking
   functions that _FORTIFY_SOURCE calls, the 64-bit-offset names that
   _FILE_OFFSET_BITS=64 selects, and __assert_fail.  Each is defined here
   on top of newlib with the semantics glibc documents.  The C23 strtol
   family is in glibc-abi-strtol.c and __errno_location in reent.c, with
   the rest of the per-thread state: code that uses only errno, or only
   converts numbers, must not link this file, which links stdio.

   Deliberately absent: __uflow and __overflow.  glibc's inline
   getc_unlocked/putc_unlocked bodies read glibc's FILE layout directly;
   with newlib's FILE behind the pointer they would corrupt the stream, so
   a program that uses them fails to link instead.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "glibc-abi.h"

/* The standard streams.  newlib keeps them in the global array __sf;
   glibc's headers name them as variables.  */
#undef stdin
#undef stdout
#undef stderr
extern FILE __sf[3];
FILE *stdin = &__sf[0];
FILE *stdout = &__sf[1];
FILE *stderr = &__sf[2];

/* MB_CUR_MAX.  */
size_t
__ctype_get_mb_cur_max (void)
{
  return MB_CUR_MAX;
}

/* <ctype.h>'s tables, "C" locale, filled on first use (every thread that
   races to fill them writes the same values).  */

static unsigned short ctype_b[384];
static int ctype_lower[384], ctype_upper[384];
static const unsigned short *ctype_b_ptr = ctype_b + 128;
static const int *ctype_lower_ptr = ctype_lower + 128;
static const int *ctype_upper_ptr = ctype_upper + 128;
static volatile int ctype_ready;

static void
ctype_init (void)
{
  int c;
  if (ctype_ready)
    return;
  for (c = -128; c < 256; c++)
    {
      ctype_b[c + 128] = host_ctype_bits (c);
      ctype_lower[c + 128] = host_tolower (c);
      ctype_upper[c + 128] = host_toupper (c);
    }
  __atomic_thread_fence (__ATOMIC_RELEASE);
  ctype_ready = 1;
}

const unsigned short **
__ctype_b_loc (void)
{
  ctype_init ();
  return &ctype_b_ptr;
}

const int **
__ctype_tolower_loc (void)
{
  ctype_init ();
  return &ctype_lower_ptr;
}

const int **
__ctype_toupper_loc (void)
{
  ctype_init ();
  return &ctype_upper_ptr;
}

/* C99 scanf: newlib's scanf family already implements C99.  */

int
__isoc99_vfscanf (FILE *fp, const char *fmt, va_list ap)
{
  return vfscanf (fp, fmt, ap);
}

int
__isoc99_vscanf (const char *fmt, va_list ap)
{
  return vfscanf (__sf + 0, fmt, ap);
}

int
__isoc99_vsscanf (const char *s, const char *fmt, va_list ap)
{
  return vsscanf (s, fmt, ap);
}

int
__isoc99_fscanf (FILE *fp, const char *fmt, ...)
{
  va_list ap;
  int r;
  va_start (ap, fmt);
  r = vfscanf (fp, fmt, ap);
  va_end (ap);
  return r;
}

int
__isoc99_scanf (const char *fmt, ...)
{
  va_list ap;
  int r;
  va_start (ap, fmt);
  r = vfscanf (__sf + 0, fmt, ap);
  va_end (ap);
  return r;
}

int
__isoc99_sscanf (const char *s, const char *fmt, ...)
{
  va_list ap;
  int r;
  va_start (ap, fmt);
  r = vsscanf (s, fmt, ap);
  va_end (ap);
  return r;
}

/* C23 scanf: from glibc 2.38 on, with _GNU_SOURCE (which g++ always
   defines) or -std=c23, glibc's headers name the scanf family
   __isoc23_scanf and so on.  This is newlib's scanf, which does not read
   C23's additions: the %b conversion and the "0b" prefix of %i (the
   manual says so).  */

int
__isoc23_vfscanf (FILE *fp, const char *fmt, va_list ap)
{
  return vfscanf (fp, fmt, ap);
}

int
__isoc23_vscanf (const char *fmt, va_list ap)
{
  return vfscanf (__sf + 0, fmt, ap);
}

int
__isoc23_vsscanf (const char *s, const char *fmt, va_list ap)
{
  return vsscanf (s, fmt, ap);
}

int
__isoc23_fscanf (FILE *fp, const char *fmt, ...)
{
  va_list ap;
  int r;
  va_start (ap, fmt);
  r = vfscanf (fp, fmt, ap);
  va_end (ap);
  return r;
}

int
__isoc23_scanf (const char *fmt, ...)
{
  va_list ap;
  int r;
  va_start (ap, fmt);
  r = vfscanf (__sf + 0, fmt, ap);
  va_end (ap);
  return r;
}

int
__isoc23_sscanf (const char *s, const char *fmt, ...)
{
  va_list ap;
  int r;
  va_start (ap, fmt);
  r = vsscanf (s, fmt, ap);
  va_end (ap);
  return r;
}

/* assert.  */

void
__assert_fail (const char *assertion, const char *file, unsigned line,
	       const char *function)
{
  fprintf (__sf + 2, "%s:%u: %s%sAssertion `%s' failed.\n", file, line,
	   function ? function : "", function ? ": " : "", assertion);
  abort ();
}

/* _FORTIFY_SOURCE.  A failed check reports and aborts, as glibc does.  */

void __attribute__ ((noreturn))
__chk_fail (void)
{
  fputs ("*** buffer overflow detected ***: terminated\n", __sf + 2);
  abort ();
}

int
__vfprintf_chk (FILE *fp, int flag, const char *fmt, va_list ap)
{
  (void) flag;
  return vfprintf (fp, fmt, ap);
}

int
__vprintf_chk (int flag, const char *fmt, va_list ap)
{
  (void) flag;
  return vfprintf (__sf + 1, fmt, ap);
}

int
__fprintf_chk (FILE *fp, int flag, const char *fmt, ...)
{
  va_list ap;
  int r;
  (void) flag;
  va_start (ap, fmt);
  r = vfprintf (fp, fmt, ap);
  va_end (ap);
  return r;
}

int
__printf_chk (int flag, const char *fmt, ...)
{
  va_list ap;
  int r;
  (void) flag;
  va_start (ap, fmt);
  r = vfprintf (__sf + 1, fmt, ap);
  va_end (ap);
  return r;
}

int
__vsnprintf_chk (char *s, size_t maxlen, int flag, size_t slen,
		 const char *fmt, va_list ap)
{
  (void) flag;
  if (maxlen > slen)
    __chk_fail ();
  return vsnprintf (s, maxlen, fmt, ap);
}

int
__snprintf_chk (char *s, size_t maxlen, int flag, size_t slen,
		const char *fmt, ...)
{
  va_list ap;
  int r;
  va_start (ap, fmt);
  r = __vsnprintf_chk (s, maxlen, flag, slen, fmt, ap);
  va_end (ap);
  return r;
}

int
__vsprintf_chk (char *s, int flag, size_t slen, const char *fmt, va_list ap)
{
  int r;
  (void) flag;
  if (slen == 0)
    __chk_fail ();
  r = vsnprintf (s, slen, fmt, ap);
  if (r >= 0 && (size_t) r >= slen)
    __chk_fail ();
  return r;
}

int
__sprintf_chk (char *s, int flag, size_t slen, const char *fmt, ...)
{
  va_list ap;
  int r;
  va_start (ap, fmt);
  r = __vsprintf_chk (s, flag, slen, fmt, ap);
  va_end (ap);
  return r;
}

int
__vdprintf_chk (int fd, int flag, const char *fmt, va_list ap)
{
  (void) flag;
  return vdprintf (fd, fmt, ap);
}

int
__dprintf_chk (int fd, int flag, const char *fmt, ...)
{
  va_list ap;
  int r;
  va_start (ap, fmt);
  r = __vdprintf_chk (fd, flag, fmt, ap);
  va_end (ap);
  return r;
}

char *
__fgets_chk (char *s, size_t size, int n, FILE *fp)
{
  if ((size_t) n > size)
    __chk_fail ();
  return fgets (s, n, fp);
}

size_t
__fread_chk (void *ptr, size_t ptrlen, size_t size, size_t n, FILE *fp)
{
  size_t bytes;
  if (__builtin_mul_overflow (size, n, &bytes) || bytes > ptrlen)
    __chk_fail ();
  return fread (ptr, size, n, fp);
}

extern long read (int, void *, size_t);

long
__read_chk (int fd, void *buf, size_t nbytes, size_t buflen)
{
  if (nbytes > buflen)
    __chk_fail ();
  return read (fd, buf, nbytes);
}

/* In posix-io.c: the device has neither (they fail with ENOSYS).  */
char *getcwd (char *, size_t);
int gethostname (char *, size_t);

char *
__getcwd_chk (char *buf, size_t size, size_t buflen)
{
  if (size > buflen)
    __chk_fail ();
  return getcwd (buf, size);
}

int
__gethostname_chk (char *buf, size_t len, size_t buflen)
{
  if (len > buflen)
    __chk_fail ();
  return gethostname (buf, len);
}

void *
__memcpy_chk (void *dst, const void *src, size_t n, size_t dstlen)
{
  if (n > dstlen)
    __chk_fail ();
  return memcpy (dst, src, n);
}

void *
__memmove_chk (void *dst, const void *src, size_t n, size_t dstlen)
{
  if (n > dstlen)
    __chk_fail ();
  return memmove (dst, src, n);
}

void *
__mempcpy_chk (void *dst, const void *src, size_t n, size_t dstlen)
{
  if (n > dstlen)
    __chk_fail ();
  return (char *) memcpy (dst, src, n) + n;
}

void *
__memset_chk (void *dst, int c, size_t n, size_t dstlen)
{
  if (n > dstlen)
    __chk_fail ();
  return memset (dst, c, n);
}

void
__explicit_bzero_chk (void *dst, size_t n, size_t dstlen)
{
  if (n > dstlen)
    __chk_fail ();
  memset (dst, 0, n);
  __asm__ volatile ("" : : "r" (dst) : "memory");
}

char *
__strcpy_chk (char *dst, const char *src, size_t dstlen)
{
  size_t n = strlen (src);
  if (n >= dstlen)
    __chk_fail ();
  return memcpy (dst, src, n + 1);
}

char *
__stpcpy_chk (char *dst, const char *src, size_t dstlen)
{
  size_t n = strlen (src);
  if (n >= dstlen)
    __chk_fail ();
  memcpy (dst, src, n + 1);
  return dst + n;
}

char *
__strncpy_chk (char *dst, const char *src, size_t n, size_t dstlen)
{
  if (n > dstlen)
    __chk_fail ();
  return strncpy (dst, src, n);
}

char *
__stpncpy_chk (char *dst, const char *src, size_t n, size_t dstlen)
{
  if (n > dstlen)
    __chk_fail ();
  return stpncpy (dst, src, n);
}

char *
__strcat_chk (char *dst, const char *src, size_t dstlen)
{
  size_t d = strnlen (dst, dstlen);
  size_t s = strlen (src);
  if (d == dstlen || s >= dstlen - d)
    __chk_fail ();
  memcpy (dst + d, src, s + 1);
  return dst;
}

char *
__strncat_chk (char *dst, const char *src, size_t n, size_t dstlen)
{
  size_t d = strnlen (dst, dstlen);
  size_t s = strnlen (src, n);
  if (d == dstlen || s >= dstlen - d)
    __chk_fail ();
  memcpy (dst + d, src, s);
  dst[d + s] = '\0';
  return dst;
}

/* glibc 2.38's strlcpy and strlcat: the size given must not exceed the
   destination's.  */

size_t
__strlcpy_chk (char *dst, const char *src, size_t n, size_t dstlen)
{
  if (n > dstlen)
    __chk_fail ();
  return strlcpy (dst, src, n);
}

size_t
__strlcat_chk (char *dst, const char *src, size_t n, size_t dstlen)
{
  if (n > dstlen)
    __chk_fail ();
  return strlcat (dst, src, n);
}

int
__vasprintf_chk (char **strp, int flag, const char *fmt, va_list ap)
{
  (void) flag;
  return vasprintf (strp, fmt, ap);
}

int
__asprintf_chk (char **strp, int flag, const char *fmt, ...)
{
  va_list ap;
  int r;
  va_start (ap, fmt);
  r = __vasprintf_chk (strp, flag, fmt, ap);
  va_end (ap);
  return r;
}

char *
__fgets_unlocked_chk (char *s, size_t size, int n, FILE *fp)
{
  if ((size_t) n > size)
    __chk_fail ();
  return fgets_unlocked (s, n, fp);
}

size_t
__fread_unlocked_chk (void *ptr, size_t ptrlen, size_t size, size_t n,
		      FILE *fp)
{
  size_t bytes;
  if (__builtin_mul_overflow (size, n, &bytes) || bytes > ptrlen)
    __chk_fail ();
  return fread_unlocked (ptr, size, n, fp);
}

size_t
__mbstowcs_chk (wchar_t *dst, const char *src, size_t len, size_t dstlen)
{
  if (dst != NULL && len > dstlen)
    __chk_fail ();
  return mbstowcs (dst, src, len);
}

size_t
__wcstombs_chk (char *dst, const wchar_t *src, size_t len, size_t dstlen)
{
  if (dst != NULL && len > dstlen)
    __chk_fail ();
  return wcstombs (dst, src, len);
}

int
__wctomb_chk (char *s, wchar_t wc, size_t buflen)
{
  if (s != NULL && buflen < (size_t) MB_CUR_MAX)
    __chk_fail ();
  return wctomb (s, wc);
}

/* _FILE_OFFSET_BITS=64 names.  off_t is 64 bits on both sides, so these
   are the same functions.  */

FILE *
fopen64 (const char *path, const char *mode)
{
  return fopen (path, mode);
}

FILE *
freopen64 (const char *path, const char *mode, FILE *fp)
{
  return freopen (path, mode, fp);
}

FILE *
tmpfile64 (void)
{
  return tmpfile ();
}

int
fseeko64 (FILE *fp, off_t offset, int whence)
{
  return fseeko (fp, offset, whence);
}

off_t
ftello64 (FILE *fp)
{
  return ftello (fp);
}

/* glibc's fpos_t is larger than newlib's; newlib uses only the start.  */
int
fgetpos64 (FILE *fp, fpos_t *pos)
{
  return fgetpos (fp, pos);
}

int
fsetpos64 (FILE *fp, const fpos_t *pos)
{
  return fsetpos (fp, pos);
}

int
mkstemp64 (char *template)
{
  return mkstemp (template);
}

int
mkstemps64 (char *template, int suffixlen)
{
  return mkstemps (template, suffixlen);
}

int
mkostemp64 (char *template, int flags)
{
  return mkostemp (template, flags);
}

int
mkostemps64 (char *template, int suffixlen, int flags)
{
  return mkostemps (template, suffixlen, flags);
}
