// names-parser.cc — a parser's shape for tests/cli/names.sh: namespaces, a
// class template instantiated twice, two classes with a member of one name.
#include <cstdio>
#include <cstdlib>
#include <string>
namespace app {
struct Str { std::string s; };
struct Num { long n; };
struct Handler { long sum = 0; void OnValue (long v) { sum += v; } };
template <typename T> struct RegEx {
  __attribute__ ((noinline)) int Match (const T &t) const { return (int) sizeof (t) + width; }
  int width = 3;
};
struct Scanner {
  long pos = 0;
  __attribute__ ((noinline)) long peek () { return pos & 7; }
};
struct Stream {
  long at = 0;
  __attribute__ ((noinline)) long peek () const { return at * 3; }
};
class Parser {
public:
  __attribute__ ((noinline)) void HandleNext (Handler &h);
  Scanner scanner;
  Stream stream;
};
void Parser::HandleNext (Handler &h)
{
  RegEx<Str> rs;
  RegEx<Num> rn;
  Str s{ "x" };
  Num n{ 1 };
  for (int i = 0; i < 20000; i++)
    {
      scanner.pos++;
      stream.at++;
      h.OnValue (rs.Match (s) + rn.Match (n) + scanner.peek () + stream.peek ());
    }
}
}
int main (int argc, char **argv)
{
  app::Parser p;
  app::Handler h;
  int documents = argc > 1 ? std::atoi (argv[1]) : 5;
  for (int i = 0; i < documents; i++)
    p.HandleNext (h);
  std::printf ("%ld\n", h.sum);
  return 0;
}
