// gmonreal-thunks.cc — code the compiler makes: clang's virtual and
// non-virtual thunks and __cxx_global_var_init carry DWARF line 0, for
// which gprof names no source file in its index (tests/cli/gmon-real.sh).
#include <cstdlib>

namespace {
struct Base { virtual ~Base () {} virtual int f (int) = 0; };
struct A : virtual Base { int f (int x) override { return x + 1; } };
struct B : virtual Base { int f (int x) override { return x * 2; } };
struct D final : A, B { int f (int x) override { return A::f (x) + B::f (x); } };
}

static int
init ()
{
  return std::rand () % 3;
}

int global_value = init ();

int
main (int argc, char **argv)
{
  long n = argc > 1 ? std::atol (argv[1]) : 3000000;
  Base *b = new D;
  long s = 0;
  for (long i = 0; i < n; i++)
    s += b->f ((int) i);
  delete b;
  return (int) (s & 1) + global_value;
}
