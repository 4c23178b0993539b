// Number conversion from C++ in a target region.  g++ always defines
// _GNU_SOURCE, so with glibc 2.38's headers or later (Debian 13) strtol,
// strtoull and sscanf are glibc's C23 functions (__isoc23_strtol, ...),
// which read "0b" binary numbers; with older headers (Debian 12) they
// are the plain ones, which do not.  The device must give what the host
// gives for the same code; where the headers make them C23 ones, the
// manual documents one difference, for scanf only (%b and the "0b" of %i
// are not read on the device), which this test does not use.

// { dg-do run }
// { dg-final { ptx-valid } }

#include <cerrno>
#include <cstdio>
#include <cstdlib>

static const char *const in[] = {
  "0b101", "  -0B11x", "0b", "0b2", "101", "0x1f", "-17",
  "0b10000000000000000000000000000000000000000000000000000000000000000",
};
static const int bases[] = { 0, 2, 10, 16 };
const int n_in = sizeof in / sizeof in[0];
const int n_bases = sizeof bases / sizeof bases[0];

struct result
{
  long l;
  unsigned long long ull;
  int end_l, end_ull, err_l, err_ull;
};

static void
convert (result *r)
{
  for (int i = 0; i < n_in; i++)
    for (int b = 0; b < n_bases; b++)
      {
	result *x = &r[i * n_bases + b];
	char *end;
	errno = 0;
	x->l = strtol (in[i], &end, bases[b]);
	x->err_l = errno;
	x->end_l = end - in[i];
	errno = 0;
	x->ull = strtoull (in[i], &end, bases[b]);
	x->err_ull = errno;
	x->end_ull = end - in[i];
      }
}
#pragma omp declare target to (in, bases, convert)

int
main ()
{
  result host[n_in * n_bases], dev[n_in * n_bases];
  int a = 0, b = 0, got = 0;
  convert (host);
#pragma omp target map(from: dev, a, b, got)
  {
    convert (dev);
    got = sscanf ("12 -34", "%d %i", &a, &b);
  }
  int bad = 0;
  for (int i = 0; i < n_in * n_bases; i++)
    if (host[i].l != dev[i].l || host[i].ull != dev[i].ull
	|| host[i].end_l != dev[i].end_l || host[i].end_ull != dev[i].end_ull
	|| host[i].err_l != dev[i].err_l || host[i].err_ull != dev[i].err_ull)
      {
	std::printf ("\"%s\" in base %d: host %ld/%d/%d %llu/%d/%d, device "
		     "%ld/%d/%d %llu/%d/%d\n", in[i / n_bases],
		     bases[i % n_bases], host[i].l, host[i].end_l,
		     host[i].err_l, host[i].ull, host[i].end_ull,
		     host[i].err_ull, dev[i].l, dev[i].end_l, dev[i].err_l,
		     dev[i].ull, dev[i].end_ull, dev[i].err_ull);
	bad = 1;
      }
  if (got != 2 || a != 12 || b != -34)
    {
      std::printf ("sscanf: %d conversions, %d %d\n", got, a, b);
      bad = 1;
    }
  return bad;
}
