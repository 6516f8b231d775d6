/* gmonreal-walk.c — a tree walked by two functions that call each other
 * (walk_node, walk_list), a visitor reached through a function pointer
 * (visit -> dispatch -> visit) and a ring of four functions.  See
 * gmonreal-main.c. */
#include "gmonreal.h"

static __attribute__ ((noinline)) unsigned long
helper (unsigned long n)
{
  return gr_spin (n + 5);
}

static __attribute__ ((noinline)) unsigned long
count (unsigned long a, unsigned long b)
{
  return a * 3 + b;
}

/* ---- tree walk: a node calls the list of its children, which calls
 * each node ---- */
static unsigned long walk_list (unsigned depth, unsigned width);

static __attribute__ ((noinline)) unsigned long
walk_node (unsigned depth)
{
  gr_sink += gr_work (25);
  return depth == 0 ? 1 : 1 + walk_list (depth - 1, 3);
}

static __attribute__ ((noinline)) unsigned long
walk_list (unsigned depth, unsigned width)
{
  unsigned long n = 0;
  for (unsigned i = 0; i < width; i++)
    n += walk_node (depth);
  return count (n, width);
}

unsigned long
gr_walk (unsigned depth)
{
  return walk_node (depth) + helper (depth);
}

/* ---- a visitor through a function pointer ---- */
typedef unsigned long (*Visitor) (unsigned n);

static unsigned long dispatch (Visitor v, unsigned n);

static __attribute__ ((noinline)) unsigned long
visit (unsigned n)
{
  gr_sink += gr_work (70);
  return n == 0 ? 0 : dispatch (visit, n - 1) + 1;
}

static __attribute__ ((noinline)) unsigned long
dispatch (Visitor v, unsigned n)
{
  gr_sink += gr_work (20);
  return v (n);
}

unsigned long
gr_visit_all (unsigned n)
{
  return dispatch (visit, n);
}

/* ---- a ring of four ---- */
static unsigned long ring_b (unsigned n);
static unsigned long ring_c (unsigned n);
static unsigned long ring_d (unsigned n);

static __attribute__ ((noinline)) unsigned long
ring_a (unsigned n)
{
  gr_sink += gr_work (90);
  return n == 0 ? 0 : ring_b (n - 1) + 1;
}

static __attribute__ ((noinline)) unsigned long
ring_b (unsigned n)
{
  gr_sink += gr_work (150);
  return n == 0 ? 0 : ring_c (n - 1) + 1;
}

static __attribute__ ((noinline)) unsigned long
ring_c (unsigned n)
{
  gr_sink += gr_work (60);
  return n == 0 ? 0 : ring_d (n - 1) + 1;
}

static __attribute__ ((noinline)) unsigned long
ring_d (unsigned n)
{
  gr_sink += gr_work (210);
  return n == 0 ? 0 : ring_a (n - 1) + 1;
}

unsigned long
gr_ring (unsigned n)
{
  return ring_a (n);
}
