/* Unit test: the device's C23 strtol family (libgomp/config/nvptx/
   glibc-abi-strtol.c), compiled for the host, against what C23 says:
   the "0b"/"0B" prefix in base 0 and 2, with a sign and white space
   before it, the value, where the conversion ends, and ERANGE; and, for
   every input without that prefix, against the host C library's own
   strtol family (the code the device function hands those to is newlib's,
   whose results for them the standard fixes just as well).  When the host
   library is glibc 2.38 or later (Debian 13), its __isoc23_ functions are
   the reference for every input.  Prints one PASS/FAIL line per check.  */

/* No _GNU_SOURCE: with it, glibc 2.38's headers would make the file's
   own strtol calls C23 ones.  */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The device's functions under names of their own, so that they neither
   clash with nor stand in for the host library's.  */
#define __isoc23_strtol dev_strtol
#define __isoc23_strtoul dev_strtoul
#define __isoc23_strtoll dev_strtoll
#define __isoc23_strtoull dev_strtoull
#define __isoc23_strtol_l dev_strtol_l
#define __isoc23_strtoul_l dev_strtoul_l
#define __isoc23_strtoll_l dev_strtoll_l
#define __isoc23_strtoull_l dev_strtoull_l
#include "glibc-abi-strtol.c"
#undef __isoc23_strtol
#undef __isoc23_strtoul
#undef __isoc23_strtoll
#undef __isoc23_strtoull

static int failures;

static void
result (int ok, const char *fn, const char *in, int base, const char *why)
{
  printf ("%s: glibc-c23-strtol %s (\"%s\", %d)%s%s\n", ok ? "PASS" : "FAIL",
	  fn, in, base, ok ? "" : ": ", ok ? "" : why);
  failures += !ok;
}

/* Known answers: VALUE as unsigned bits, END the offset where the
   conversion stops, ERR the errno it sets (0: none).  */
struct known
{
  const char *in;
  int base;
  unsigned long long value;
  int end, err;
};

static const struct known signed_known[] = {
  { "0b101", 0, 5, 5, 0 },
  { "0B101", 2, 5, 5, 0 },
  { "  -0b11x", 0, (unsigned long long) -3, 7, 0 },
  { "+0b1", 0, 1, 4, 0 },
  { "0b", 0, 0, 1, 0 },
  { "0b2", 0, 0, 1, 0 },
  { "0b101", 16, 0xb101, 5, 0 },
  { "0b101", 10, 0, 1, 0 },
  { "0b1111111111111111111111111111111111111111111111111111111111111111",
    0, LLONG_MAX, 66, ERANGE },
  { "-0b1000000000000000000000000000000000000000000000000000000000000000",
    0, (unsigned long long) LLONG_MIN, 67, 0 },
  { "-0b1000000000000000000000000000000000000000000000000000000000000001",
    0, (unsigned long long) LLONG_MIN, 67, ERANGE },
  { "101", 2, 5, 3, 0 },
  { "0x1f", 0, 31, 4, 0 },
  { "017", 0, 15, 3, 0 },
  { "", 0, 0, 0, 0 },
};

static const struct known unsigned_known[] = {
  { "0b101", 0, 5, 5, 0 },
  { "-0b1", 0, ULLONG_MAX, 4, 0 },
  { "0b1111111111111111111111111111111111111111111111111111111111111111",
    2, ULLONG_MAX, 66, 0 },
  { "0b10000000000000000000000000000000000000000000000000000000000000000",
    0, ULLONG_MAX, 67, ERANGE },
  { "0b", 2, 0, 1, 0 },
};

#define CHECK_KNOWN(TABLE, FN, TYPE)					\
  for (size_t i = 0; i < sizeof TABLE / sizeof TABLE[0]; i++)		\
    {									\
      const struct known *k = &TABLE[i];				\
      char *end;							\
      errno = 0;							\
      TYPE v = FN (k->in, &end, k->base);				\
      int err = errno;							\
      char why[160];							\
      snprintf (why, sizeof why, "value %llu, end %d, errno %d; C23: "	\
		"%llu, %d, %d", (unsigned long long) v, (int) (end - k->in), \
		err, k->value, k->end, k->err);				\
      result ((unsigned long long) v == (unsigned long long) (TYPE) k->value \
	      && end - k->in == k->end && err == k->err, #FN, k->in,	\
	      k->base, why);						\
    }

/* Inputs without a binary prefix: the device function and the host's
   must agree on value, end and errno.  */
static const char *const plain[] = {
  "42", "  -17z", "0x7fffffffffffffff", "99999999999999999999", "-0",
  "0x", "z", "1010", "+0777", "-9223372036854775809",
};

#define CHECK_SAME(FN, REF, TYPE, BASE, IN)				\
  do									\
    {									\
      char *e1, *e2;							\
      errno = 0;							\
      TYPE v1 = FN (IN, &e1, BASE);					\
      int r1 = errno;							\
      errno = 0;							\
      TYPE v2 = REF (IN, &e2, BASE);					\
      int r2 = errno;							\
      char why[160];							\
      snprintf (why, sizeof why, "%llu/%d/%d, the host's %llu/%d/%d",	\
		(unsigned long long) v1, (int) (e1 - (IN)), r1,		\
		(unsigned long long) v2, (int) (e2 - (IN)), r2);		\
      result (v1 == v2 && e1 == e2 && r1 == r2, #FN " = " #REF, IN, BASE, \
	      why);							\
    }									\
  while (0)

int
main (void)
{
  CHECK_KNOWN (signed_known, dev_strtoll, long long);
  CHECK_KNOWN (signed_known, dev_strtol, long);
  CHECK_KNOWN (unsigned_known, dev_strtoull, unsigned long long);
  CHECK_KNOWN (unsigned_known, dev_strtoul, unsigned long);

  for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
    for (int base = 0; base <= 16; base += 2)
      {
	CHECK_SAME (dev_strtol, strtol, long, base, plain[i]);
	CHECK_SAME (dev_strtoull, strtoull, unsigned long long, base,
		    plain[i]);
      }

  /* The _l forms are the same functions.  */
  {
    locale_t c = newlocale (LC_ALL_MASK, "C", (locale_t) 0);
    char *e;
    result (dev_strtol_l ("-0b11", &e, 0, c) == -3 && *e == '\0'
	    && dev_strtoull_l ("0b11", &e, 2, c) == 3
	    && dev_strtoll_l ("0b11", &e, 0, c) == 3
	    && dev_strtoul_l ("7", &e, 0, c) == 7,
	    "the _l forms", "-0b11", 0, "differ from the plain ones");
    freelocale (c);
  }

#if defined __GLIBC__ && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 38)
  /* glibc's own C23 functions as the reference for every input.  */
  {
    extern long __isoc23_strtol (const char *, char **, int);
    extern unsigned long long __isoc23_strtoull (const char *, char **, int);
    for (size_t i = 0; i < sizeof signed_known / sizeof signed_known[0]; i++)
      for (int base = 0; base <= 16; base += 2)
	{
	  CHECK_SAME (dev_strtol, __isoc23_strtol, long, base,
		      signed_known[i].in);
	  CHECK_SAME (dev_strtoull, __isoc23_strtoull, unsigned long long,
		      base, signed_known[i].in);
	}
  }
#else
  printf ("UNSUPPORTED: glibc-c23-strtol against glibc's __isoc23_ functions"
	  " (this C library is older than glibc 2.38)\n");
#endif
  return failures != 0;
}
