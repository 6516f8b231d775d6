// This file's static initializer builds zz_table through profiled
// functions that take no time: gprof prints the calls from
// _GLOBAL__sub_I_zz_table, a function it numbers after every printed one
// (no time, no calls of its own) and never prints, while
// gmonreal-init-a.cc's initializer takes the number before it.  A report of it has a gap in its index numbers
// between its last printed entry and the initializer's.
#include <cstdio>
#include <cstdlib>
#include <vector>

std::size_t home_length ();

__attribute__ ((noinline)) static unsigned
mix (unsigned x)
{
  x ^= x >> 13;
  x *= 0x5bd1e995u;
  return x ^ (x >> 15);
}

// what the initializer calls takes no time: the initializer's total is 0
__attribute__ ((noinline)) static unsigned
seed (unsigned i)
{
  return i * 2654435761u;
}

struct Table
{
  std::vector<unsigned> cells;
  Table ()
  {
    for (unsigned i = 0; i < 16; i++)
      cells.push_back (seed (i));
  }
  __attribute__ ((noinline)) unsigned lookup (unsigned key) const { return cells[mix (key) % cells.size ()]; }
};

Table zz_table;

__attribute__ ((noinline)) static unsigned
work (unsigned rounds)
{
  unsigned sum = 0;
  for (unsigned r = 0; r < rounds; r++)
    for (unsigned k = 0; k < 1000; k++)
      sum += zz_table.lookup (k + r);
  return sum;
}

int
main (int argc, char **argv)
{
  unsigned rounds = argc > 1 ? (unsigned) atoi (argv[1]) : 30000;
  std::printf ("%u %zu\n", work (rounds), home_length ());
  return 0;
}
