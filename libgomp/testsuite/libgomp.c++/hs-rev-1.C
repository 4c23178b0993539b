// Reverse offload from C++: a region in a member function and in a
// function template, host-only member functions and a host-only
// std::string (never compiled for the device), references, and
// firstprivate objects.

// { dg-do run }

#include <cstdio>
#include <string>

#pragma omp requires reverse_offload

static std::string host_log;	// Host-only, with its allocator.

struct counter
{
  int n = 0;
  void host_add (int k) { n += k; host_log += std::to_string (k) + ";"; }
  int bump (int k);
};

#pragma omp declare target
int
counter::bump (int k)
{
  int before = 0, after = 0;
  counter *self = this;
  // THIS is a device address: the host reaches the object through the
  // map (present, as the enclosing region mapped it; "always" makes the
  // device's copy and the host's agree before and after).
#pragma omp target device(ancestor: 1) map(always, tofrom: self[0:1]) \
				      map(from: before, after)
  {
    before = self->n;
    self->host_add (k);
    after = self->n;
  }
  return after - before;
}
#pragma omp end declare target

template <typename T>
T
twice_on_host (const T &v)
{
  T r = v;
#pragma omp target device(ancestor: 1) map(tofrom: r)
  r = r + r;
  return r;
}

int
main ()
{
  counter c;
  int d1 = 0, d2 = 0, i2 = 0, n = 0;
  double x2 = 0;

#pragma omp target map(tofrom: c) map(from: d1, d2, i2, x2, n)
  {
    d1 = c.bump (3);
    d2 = c.bump (4);
    i2 = twice_on_host (21);
    x2 = twice_on_host (1.25);
    n = c.n;
  }
  std::printf ("%d %d %d %g %d %s\n", d1, d2, i2, x2, n, host_log.c_str ());
  return !(d1 == 3 && d2 == 4 && i2 == 42 && x2 == 2.5 && n == 7
	   && host_log == "3;4;");
}

// { dg-output "3 4 42 2.5 7 3;4;" }
// { dg-final { ptx-valid } }
