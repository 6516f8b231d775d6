// Static initializers in a C++ program built with -pg, as every large
// C++ program has them (ninja: one per file).  This file's initializer
// calls no profiled function (getenv is libc's): gprof numbers it
// (_GLOBAL__sub_I_aa_home, no time, no calls) but prints it nowhere.
// See gmonreal-init-b.cc.
#include <cstdlib>
#include <cstring>

const char *aa_home = std::getenv ("HOME");

std::size_t
home_length ()
{
  return aa_home ? std::strlen (aa_home) : 0;
}
