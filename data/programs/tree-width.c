/* tree-width.c — for tests/cli/diff-tree-width.sh: a call tree six
 * levels deep whose functions have names of 16 to 21 characters and two
 * callees each, so that no chain folds; the argument sets the leaves'
 * work, so that two runs differ. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned sink;

#define LEAF(name, k)                                                                                                  \
  __attribute__ ((noinline)) static void name (unsigned n)                                                             \
  {                                                                                                                    \
    unsigned s = k;                                                                                                    \
    for (unsigned i = 0; i < n * k; i++)                                                                               \
      s = s * 31 + i;                                                                                                  \
    sink = s;                                                                                                          \
  }
#define NODE(name, a, b)                                                                                               \
  __attribute__ ((noinline)) static void name (unsigned n)                                                             \
  {                                                                                                                    \
    a (n);                                                                                                             \
    b (n);                                                                                                             \
  }

LEAF (leaf_compare_keys, 3)
LEAF (leaf_hash_the_string, 2)
LEAF (leaf_table_resize, 1)
LEAF (leaf_intern_string, 4)
NODE (level5_string_ops, leaf_compare_keys, leaf_hash_the_string)
NODE (level5_table_ops, leaf_table_resize, leaf_intern_string)
NODE (level4_dispatcher, level5_string_ops, level5_table_ops)
NODE (level4_collector, leaf_table_resize, leaf_hash_the_string)
NODE (level3_interpreter, level4_dispatcher, level4_collector)
NODE (level3_other_work, leaf_compare_keys, leaf_intern_string)
NODE (level2_protected_call, level3_interpreter, level3_other_work)
NODE (level2_setup_state, leaf_table_resize, leaf_compare_keys)
NODE (level1_run_script, level2_protected_call, level2_setup_state)

int main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) atoi (argv[1]) : 100;
  for (int i = 0; i < 50; i++)
    level1_run_script (n);
  printf ("%u\n", sink);
  return 0;
}
