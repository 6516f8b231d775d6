/* gmonreal-dwarf5.c — where gprof's index names the source file of a
 * static function from the rows of a line table that come before its
 * first DW_LNS_set_file (see gmonreal-dwarf5.h).  tests/cli/gmon-real.sh
 * builds it with gcc -pg as DWARF 5 and 4, at -O0, -O2 and with -flto,
 * and compares cgcost's report with gprof's. */
#include "gmonreal-dwarf5.h"

#include <stdio.h>
#include <stdlib.h>

static unsigned long d5_tail (unsigned long x);

/* static, in the .c file: after a set_file in DWARF 5 */
static D5_NOINLINE unsigned long
d5_walk (unsigned long n)
{
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; i++)
    s += i % 97 == 0 ? d5_rare (i) : i % 5 == 0 ? d5_tail (i) : d5_mix (i);
  return s;
}

int
main (int argc, char **argv)
{
  unsigned long n = argc > 1 ? strtoul (argv[1], NULL, 10) : 20000;
  printf ("%lu\n", d5_walk (n));
  return 0;
}

#define GMONREAL_DWARF5_TAIL
#include "gmonreal-dwarf5.h"
