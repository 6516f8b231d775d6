/* gmonreal-dwarf5.h — static functions of a header, which
 * gmonreal-dwarf5.c includes twice: first before any code of its own, so
 * that gcc's DWARF 5 line table makes this header file 1 and the unit's
 * first rows come before any DW_LNS_set_file (binutils 2.40, hence
 * gprof, names them after file 0, the .c file); then after the .c file's
 * code, which reaches this header through a set_file (gprof names it). */
#define D5_NOINLINE __attribute__ ((noinline))

#ifndef GMONREAL_DWARF5_TAIL
/* the unit's first code */
static D5_NOINLINE unsigned long
d5_mix (unsigned long x)
{
  for (int i = 0; i < 48; i++)
    x = x * 2654435761u + (x >> 7);
  return x;
}

/* cold: a section of its own, whose sequence begins with this file */
static D5_NOINLINE __attribute__ ((cold)) unsigned long
d5_rare (unsigned long x)
{
  return d5_mix (x ^ 0x5bd1e995u) + 1;
}
#else
/* after the .c file's code */
static D5_NOINLINE unsigned long
d5_tail (unsigned long x)
{
  return d5_mix (x) >> 3;
}
#endif
