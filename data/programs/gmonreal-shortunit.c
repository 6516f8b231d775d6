/* gmonreal-shortunit.c — a unit whose DWARF ranges leave out its last
 * function.  tests/cli/gmon-real.sh compiles it with gcc -S -g, moves the
 * label .Letext0 (where the unit's range in .text ends) up before
 * sh_last, and assembles the result: the unit's line table still covers
 * sh_last, its DW_AT_high_pc no longer does.  gprof then names sh_last's
 * file only when a symbol of the unit comes before it in .symtab (see
 * formats/gmon.md); the test builds it both ways and compares cgcost's
 * reports with gprof's. */
#include <stdio.h>
#include <stdlib.h>

#define SH_NOINLINE __attribute__ ((noinline))

static unsigned long sh_last (unsigned long x);

static SH_NOINLINE unsigned long
sh_mix (unsigned long x)
{
  for (int i = 0; i < 48; i++)
    x = x * 2654435761u + (x >> 7);
  return x;
}

static SH_NOINLINE unsigned long
sh_loop (unsigned long n)
{
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; i++)
    s += i % 3 == 0 ? sh_last (i) : sh_mix (i);
  return s;
}

int
main (int argc, char **argv)
{
  unsigned long n = argc > 1 ? strtoul (argv[1], NULL, 10) : 20000;
  printf ("%lu\n", sh_loop (n));
  return 0;
}

/* the function the edited assembly leaves outside the unit's range */
static SH_NOINLINE unsigned long
sh_last (unsigned long x)
{
  return sh_mix (x) * 3 + 1;
}
