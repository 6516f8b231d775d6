/* test-pair-map.c — the pair index against GHashTable as reference. */
#include "config.h"

#include "cg-pair-map.h"
#include "cg-test.h"

/* The pairs of the values, kept as the map's users keep them: in their
 * own records. */
typedef struct {
  guint32 a, b;
} Pair;

static void
pair_key (gconstpointer data, guint32 value, guint32 *a, guint32 *b)
{
  const Pair *p = &g_array_index ((const GArray *) data, Pair, value);
  *a = p->a;
  *b = p->b;
}

static void
test_against_reference (void)
{
  g_autoptr (GArray) pairs = g_array_new (FALSE, FALSE, sizeof (Pair));
  g_autoptr (CgPairMap) map = cg_pair_map_new (pair_key, pairs);
  g_autoptr (GHashTable) ref = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  GRand *rand = g_rand_new_with_seed (7);
  for (guint32 i = 0; i < 200000; i++)
    {
      /* small ranges make many repeats, which must find the old value */
      guint32 a = g_rand_int_range (rand, 0, 2000), b = g_rand_int_range (rand, 0, 500);
      gint64 *key = g_new (gint64, 1);
      *key = ((gint64) a << 32) | b;
      gpointer old = g_hash_table_lookup (ref, key);
      /* the record of value i exists before it is inserted, as the
       * graph's do right after */
      Pair p = { a, b };
      g_array_append_val (pairs, p);
      guint32 got = cg_pair_map_insert (map, a, b, i);
      if (old)
        {
          CU_ASSERT_EQUAL (got, GPOINTER_TO_UINT (old) - 1);
          g_free (key);
        }
      else
        {
          CU_ASSERT_EQUAL (got, i);
          g_hash_table_insert (ref, key, GUINT_TO_POINTER (i + 1));
        }
    }
  CU_ASSERT_EQUAL (cg_pair_map_size (map), g_hash_table_size (ref));
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, ref);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      gint64 key = *(gint64 *) k;
      CU_ASSERT_EQUAL (cg_pair_map_lookup (map, (guint32) (key >> 32), (guint32) key), GPOINTER_TO_UINT (v) - 1);
    }
  CU_ASSERT_EQUAL (cg_pair_map_lookup (map, 5000, 5000), CG_PAIR_MAP_NONE);
  g_rand_free (rand);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "agrees with GHashTable on 200,000 random pairs", test_against_reference },
    { NULL, NULL },
  };
  return cg_test_main ("pair-map", cases);
}
