// gmonreal-cxx.cc — a C++ program for gprof's demangled names: namespaces,
// templates, overloads, operators, virtual functions, a lambda, an
// anonymous namespace, constructors, a cycle through member functions and
// gcc's clones ("[clone .constprop.0]").  GNU gprof prints every name
// demangled; tests/cli/gmon-real.sh builds it with g++ -pg and compares
// cgtools' reports with gprof -b's.
//
// Usage: gmonreal-cxx [ROUNDS]   (default 300)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

static volatile unsigned long sink;

namespace work {
inline __attribute__ ((always_inline)) unsigned long
spin (unsigned long n)
{
  unsigned long s = 0;
  for (unsigned long i = 0; i < 240 * n; i++)
    s += i * i ^ (s >> 3);
  return s;
}

struct Shape {
  virtual ~Shape () = default;
  virtual unsigned long area (unsigned long k) const = 0;
};

struct Square : Shape {
  unsigned long side;
  explicit Square (unsigned long s) : side (s) {}
  __attribute__ ((noinline)) unsigned long area (unsigned long k) const override
  {
    return spin (side + k) + side * side;
  }
};

struct Circle : Shape {
  unsigned long radius;
  explicit Circle (unsigned long r) : radius (r) {}
  __attribute__ ((noinline)) unsigned long area (unsigned long k) const override
  {
    return spin (2 * radius + k) + 3 * radius * radius;
  }
};

template <typename T> struct Matrix {
  std::vector<T> cells;
  unsigned n;
  explicit Matrix (unsigned size) : cells (size * size, T (1)), n (size) {}
  __attribute__ ((noinline)) Matrix operator* (const Matrix &o) const
  {
    Matrix r (n);
    for (unsigned i = 0; i < n; i++)
      for (unsigned j = 0; j < n; j++)
        {
          T s = T (0);
          for (unsigned k = 0; k < n; k++)
            s += cells[i * n + k] * o.cells[k * n + j];
          r.cells[i * n + j] = s;
        }
    return r;
  }
};

// overloads
__attribute__ ((noinline)) unsigned long
weigh (int x)
{
  return spin (static_cast<unsigned long> (x) % 50);
}
__attribute__ ((noinline)) unsigned long
weigh (const std::string &s)
{
  return spin (s.size () * 3);
}
} // namespace work

namespace {
// a cycle through member functions: Parser::list -> Parser::item -> list
class Parser {
public:
  explicit Parser (const char *t) : text (t) {}
  __attribute__ ((noinline)) unsigned long list ();

private:
  __attribute__ ((noinline)) unsigned long item ();
  const char *text;
};

unsigned long
Parser::item ()
{
  sink += work::spin (40);
  if (*text == '(')
    {
      ++text;
      unsigned long v = list ();
      if (*text == ')')
        ++text;
      return v + 1;
    }
  ++text;
  return 1;
}

unsigned long
Parser::list ()
{
  unsigned long n = 0;
  while (*text && *text != ')')
    n += item ();
  return n;
}

template <unsigned K>
__attribute__ ((noinline)) unsigned long
unrolled (unsigned long x)
{
  return work::spin (K + x % 3);
}
} // namespace

int
main (int argc, char **argv)
{
  unsigned long rounds = argc > 1 ? std::strtoul (argv[1], nullptr, 10) : 300;
  std::vector<work::Shape *> shapes;
  for (unsigned i = 0; i < 8; i++)
    shapes.push_back (i % 3 ? static_cast<work::Shape *> (new work::Square (i)) : new work::Circle (i));
  std::map<std::string, unsigned long> seen;
  unsigned long total = 0;
  for (unsigned long r = 0; r < rounds; r++)
    {
      for (const work::Shape *s : shapes)
        total += s->area (r % 17);
      work::Matrix<double> m (6);
      total += static_cast<unsigned long> ((m * m).cells[0]);
      work::Matrix<long> l (4);
      total += static_cast<unsigned long> ((l * l).cells[3]);
      total += work::weigh (static_cast<int> (r)) + work::weigh (std::to_string (r));
      Parser p ("(()(())x)((x)(x(x)))");
      total += p.list ();
      total += unrolled<5> (r) + unrolled<90> (r);
      std::vector<unsigned long> v;
      for (unsigned i = 0; i < 40; i++)
        v.push_back ((i * 7919 + r) % 101);
      std::sort (v.begin (), v.end (), [] (unsigned long a, unsigned long b) { return a % 13 < b % 13 || (a % 13 == b % 13 && a < b); });
      seen[std::to_string (v[0])] += v[39];
    }
  for (work::Shape *s : shapes)
    delete s;
  std::printf ("%lu %zu\n", total, seen.size ());
  return 0;
}
