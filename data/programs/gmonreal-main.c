/* gmonreal.c — a small program shaped like the real programs whose
 * gmon.out files exposed differences between cgtools and GNU gprof
 * (sqlite3 with eleven cycles, zlib, bzip2, dash, a C++ XML parser):
 *  - seven cycles: expr/term/factor and fmt_num/fmt_digit (a cycle called
 *    only from inside another one) in gmonreal-parse.c; walk_node/
 *    walk_list, visit/dispatch (through a function pointer) and the ring
 *    ring_a -> ring_b -> ring_c -> ring_d in gmonreal-walk.c; even/odd
 *    and ping/pong (never sampled) here;
 *  - self recursion (ackermann, fib);
 *  - static functions of the same name in three files (helper, count);
 *  - code that gcc -O2 moves out of its function: .cold pieces
 *    (check_slow's error path), .constprop and .isra clones, which gprof
 *    charges to the symbol before them or keeps as functions of their own;
 *  - functions in several sections (.text.hot, .text.unlikely,
 *    .text.startup for main, a section of its own);
 *  - many ties: sixteen leaves called equally often with no time, and
 *    twins with equal calls;
 *  - a function never called (for -z).
 * tests/cli/gmon-real.sh builds it with gcc -pg -O2 (non-PIE, PIE, -m32),
 * runs it twice and compares cgtools' reports with gprof -b's.
 *
 * Usage: gmonreal [ROUNDS]   (default 200) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmonreal.h"

volatile unsigned long gr_sink;

unsigned long
gr_spin (unsigned long n)
{
  return gr_work (n);
}

static __attribute__ ((noinline)) unsigned long
helper (unsigned long n)
{
  return gr_spin (n + 11);
}

static __attribute__ ((noinline)) unsigned long
count (const char *s)
{
  unsigned long n = 0;
  while (*s)
    n += *s++ == '+';
  return n;
}

/* ---- two cycles ---- */
static unsigned long odd (unsigned n);

static __attribute__ ((noinline)) unsigned long
even (unsigned n)
{
  gr_sink += gr_work (600);
  return n == 0 ? 1 : odd (n - 1) + 1;
}

static __attribute__ ((noinline)) unsigned long
odd (unsigned n)
{
  gr_sink += gr_work (1100);
  return n == 0 ? 0 : even (n - 1) + 1;
}

static unsigned long pong (unsigned n);

/* a cycle too short to be sampled */
static __attribute__ ((noinline)) unsigned long
ping (unsigned n)
{
  return n == 0 ? 0 : pong (n - 1) + 1;
}

static __attribute__ ((noinline)) unsigned long
pong (unsigned n)
{
  return n == 0 ? 2 : ping (n - 1) + 2;
}

/* ---- self recursion ---- */
static __attribute__ ((noinline)) unsigned long
ackermann (unsigned long m, unsigned long n)
{
  if (m == 0)
    return n + 1;
  if (n == 0)
    return ackermann (m - 1, 1);
  return ackermann (m - 1, ackermann (m, n - 1));
}

static __attribute__ ((noinline)) unsigned long
fib (unsigned n)
{
  return n < 2 ? n : fib (n - 1) + fib (n - 2) + 0 * gr_sink;
}

/* ---- clones and pieces ---- */
struct record {
  char name[64];
  unsigned long len;
  unsigned long weight;
};

/* called with a constant scale everywhere: gcc makes scaled.constprop.0 */
static __attribute__ ((noinline)) unsigned long
scaled (unsigned long x, unsigned long scale)
{
  return gr_spin (x % 97) + x * scale;
}

/* reads one field of a struct passed by pointer: scored.isra.0 */
static __attribute__ ((noinline)) unsigned long
scored (const struct record *r)
{
  return gr_spin (r->weight % 300 + 50);
}

/* a rare error path that gcc moves to check_slow.cold in .text.unlikely */
static __attribute__ ((noinline)) unsigned long
check_slow (unsigned long v, const char *what)
{
  if (__builtin_expect (v == 123456789ul, 0))
    {
      fprintf (stderr, "gmonreal: impossible value in %s: %lu\n", what, v);
      fprintf (stderr, "gmonreal: giving up on %s after %lu\n", what, v * 3);
      exit (3);
    }
  return gr_spin (v % 200 + 100);
}

/* ---- sections ---- */
static __attribute__ ((noinline, hot)) unsigned long
hot_loop (unsigned long n)
{
  return gr_spin (n * 3);
}

static __attribute__ ((noinline, cold)) unsigned long
cold_setup (unsigned long n)
{
  return gr_spin (n);
}

static __attribute__ ((noinline, section (".text.gmonreal"))) unsigned long
own_section (unsigned long n)
{
  return gr_spin (n * 2 + 1);
}

/* ---- ties ---- */
#define LEAF(k)                                                                                    \
  static __attribute__ ((noinline)) unsigned long leaf_##k (unsigned long x)                       \
  {                                                                                                \
    return x ^ k;                                                                                  \
  }
LEAF (0) LEAF (1) LEAF (2) LEAF (3) LEAF (4) LEAF (5) LEAF (6) LEAF (7)
LEAF (8) LEAF (9) LEAF (10) LEAF (11) LEAF (12) LEAF (13) LEAF (14) LEAF (15)

static __attribute__ ((noinline)) unsigned long
leaves (unsigned long x)
{
  return leaf_0 (x) + leaf_1 (x) + leaf_2 (x) + leaf_3 (x) + leaf_4 (x) + leaf_5 (x) + leaf_6 (x)
         + leaf_7 (x) + leaf_8 (x) + leaf_9 (x) + leaf_10 (x) + leaf_11 (x) + leaf_12 (x)
         + leaf_13 (x) + leaf_14 (x) + leaf_15 (x);
}

static __attribute__ ((noinline)) unsigned long
twin_a (unsigned long x)
{
  return gr_spin (x % 7 + 300);
}

static __attribute__ ((noinline)) unsigned long
twin_b (unsigned long x)
{
  return gr_spin (x % 5 + 300);
}

__attribute__ ((noinline)) unsigned long
never_called (unsigned long x)
{
  return gr_spin (x);
}

int
main (int argc, char **argv)
{
  unsigned long rounds = argc > 1 ? strtoul (argv[1], NULL, 10) : 200;
  static const char *const inputs[] = {
    "1+2*(3+4*(5+6))-7", "((((1))))+((2)*3)", "12*(34+56)*(78-9)+(1-(2-(3-(4-5))))", "9",
  };
  struct record rec = { "record", 10, 0 };
  unsigned long total = cold_setup (2000);
  if (rounds == 999999999ul)
    total += never_called (rounds);
  for (unsigned long r = 0; r < rounds; r++)
    {
      rec.weight = r;
      for (unsigned i = 0; i < sizeof inputs / sizeof *inputs; i++)
        total += (unsigned long) gr_parse (inputs[i]) + count (inputs[i]);
      total += even ((unsigned) (r % 9)) + ping ((unsigned) (r % 4));
      total += gr_walk (5) + gr_visit_all (12) + gr_ring ((unsigned) (r % 11));
      total += ackermann (2, r % 5) + fib (r % 12);
      total += scaled (r, 5) + scaled (r + 1, 5) + scored (&rec) + check_slow (r, "main");
      total += hot_loop (r % 50) + own_section (r % 90) + helper (r % 13);
      total += leaves (r) + twin_a (r) + twin_b (r);
    }
  printf ("%lu\n", total + (unsigned long) strlen (rec.name));
  return 0;
}
