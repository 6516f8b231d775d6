/* statics-a.c, with statics-b.c: two static functions named helper, one
 * per file, calling each other through the files' entry points; b.c's
 * helper recurses and a.c's does not.  callgrind keeps them apart; so
 * must cgtools (tests/cli/annotate.sh). */
#include <stdio.h>
#include <stdlib.h>

int b_entry (int n);

static int
helper (int n)
{
  int s = 0;
  for (int i = 0; i < n * 1000; i++)
    s += i % 7;
  return s + (n > 0 ? b_entry (n - 1) : 0);
}

int
a_entry (int n)
{
  return helper (n);
}

int
main (int argc, char **argv)
{
  printf ("%d\n", a_entry (argc > 1 ? atoi (argv[1]) : 4));
  return 0;
}
