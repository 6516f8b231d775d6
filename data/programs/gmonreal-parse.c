/* gmonreal-parse.c — a recursive-descent parser: the cycle
 * expr -> term -> factor -> expr, and numbers formatted back by the cycle
 * fmt_num -> fmt_digit -> fmt_num, which only the first cycle calls.  See
 * gmonreal-main.c. */
#include "gmonreal.h"

static long expr (const char **p);

static __attribute__ ((noinline)) unsigned long
helper (unsigned long n)
{
  return gr_spin (n + 3);
}

static __attribute__ ((noinline)) unsigned long
count (long v)
{
  return v < 0 ? (unsigned long) -v : (unsigned long) v;
}

static unsigned long fmt_digit (unsigned long v, unsigned depth);

static __attribute__ ((noinline)) unsigned long
fmt_num (unsigned long v, unsigned depth)
{
  gr_sink += gr_work (40);
  return v < 10 ? v + depth : fmt_digit (v / 10, depth + 1) + v % 10;
}

static __attribute__ ((noinline)) unsigned long
fmt_digit (unsigned long v, unsigned depth)
{
  gr_sink += gr_work (30);
  return fmt_num (v, depth);
}

static __attribute__ ((noinline)) long
factor (const char **p)
{
  gr_sink += gr_work (120);
  if (**p == '(')
    {
      ++*p;
      long v = expr (p);
      if (**p == ')')
        ++*p;
      return v;
    }
  long v = 0;
  while (**p >= '0' && **p <= '9')
    v = v * 10 + (*(*p)++ - '0');
  gr_sink += fmt_num (count (v), 0);
  return v;
}

static __attribute__ ((noinline)) long
term (const char **p)
{
  long v = factor (p);
  gr_sink += gr_work (60);
  while (**p == '*')
    {
      ++*p;
      v *= factor (p);
    }
  return v;
}

static __attribute__ ((noinline)) long
expr (const char **p)
{
  long v = term (p);
  while (**p == '+' || **p == '-')
    {
      char op = *(*p)++;
      long w = term (p);
      v = op == '+' ? v + w : v - w;
    }
  return v + (long) (0 * gr_sink);
}

long
gr_parse (const char *text)
{
  const char *p = text;
  return expr (&p) + (long) helper (5);
}
