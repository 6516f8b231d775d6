/* gmonreal.h — the parts of gmonreal (see gmonreal-main.c) that call one
 * another across files. */
#pragma once

extern volatile unsigned long gr_sink;

/* work charged to the function that does it (inlined) or to gr_spin */
static inline __attribute__ ((always_inline)) unsigned long
gr_work (unsigned long n)
{
  unsigned long s = 0;
  for (unsigned long i = 0; i < 24 * n; i++)
    s += i * i ^ (s >> 3);
  return s;
}

unsigned long gr_spin (unsigned long n);

/* gmonreal-parse.c: a recursive-descent parser (cycle expr/term/factor)
 * whose numbers are printed by a cycle of their own (fmt_num/fmt_digit) */
long gr_parse (const char *text);

/* gmonreal-walk.c: a tree walk (walk_node/walk_list), a visitor called
 * through a function pointer (visit/dispatch), a four-function ring */
unsigned long gr_walk (unsigned depth);
unsigned long gr_visit_all (unsigned n);
unsigned long gr_ring (unsigned n);
