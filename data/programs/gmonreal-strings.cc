// gmonreal-strings.cc — a word counter with std::string, std::map and std::vector (tests/cli/gmon-real.sh).
// Built -O2 -g -pg, its unit's line table has a row at the end address of main's sequence (.text.startup), after
// which crtstuff's frame_dummy and friends lie outside every sequence: gprof names no file for them.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

std::string
make_word (unsigned seed)
{
  std::string w;
  unsigned n = 3 + seed % 7;
  for (unsigned i = 0; i < n; i++)
    {
      seed = seed * 1103515245u + 12345u;
      w.push_back (static_cast<char> ('a' + (seed >> 16) % 6));
    }
  return w;
}

std::string
normalise (const std::string &w)
{
  std::string out;
  for (char c : w)
    if (c != 'f')
      out += c;
  return out.empty () ? std::string ("x") : out;
}

struct Counter
{
  std::map<std::string, unsigned long> counts;
  void add (const std::string &w) { counts[normalise (w)]++; }
  std::vector<std::pair<std::string, unsigned long>>
  top (std::size_t k) const
  {
    std::vector<std::pair<std::string, unsigned long>> v (counts.begin (), counts.end ());
    std::sort (v.begin (), v.end (), [] (const auto &a, const auto &b) { return a.second > b.second; });
    if (v.size () > k)
      v.resize (k);
    return v;
  }
};

} // namespace

int
main (int argc, char **argv)
{
  unsigned rounds = argc > 1 ? static_cast<unsigned> (std::atoi (argv[1])) : 200000;
  Counter c;
  for (unsigned i = 0; i < rounds; i++)
    c.add (make_word (i * 2654435761u));
  for (const auto &p : c.top (5))
    std::printf ("%s %lu\n", p.first.c_str (), p.second);
  return 0;
}
