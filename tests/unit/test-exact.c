/* test-exact.c — Kaes's Min_E totals over call trees, against brute force.
 *
 * The oracle is the definition read literally: each sample is charged
 * once to every distinct function on its stack; the arc (g, f) gets the
 * samples of the stacks whose outermost f was called by g; the arc's own
 * part those of them whose leaf is that outermost f's function.  Random
 * folded profiles with self and mutual recursion are generated here,
 * read through the folded reader, and compared to the last bit.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cg-test.h"

typedef struct {
  GArray *frames; /* guint function numbers, root first */
  guint64 count;  /* in tenths when decimal */
} Stack;

typedef struct {
  guint n_functions;
  GArray *stacks; /* Stack */
  gboolean decimal;
} Sample;

static void
sample_free (Sample *s)
{
  for (guint i = 0; i < s->stacks->len; i++)
    g_array_unref (g_array_index (s->stacks, Stack, i).frames);
  g_array_unref (s->stacks);
}

/* Random stacks over @nf functions: each next frame repeats one already
 * on the stack (self or mutual recursion) with probability 0.35. */
static Sample
random_sample (GRand *rand, guint nf, guint n_stacks, guint max_depth, gboolean decimal)
{
  Sample s = { nf, g_array_new (FALSE, FALSE, sizeof (Stack)), decimal };
  for (guint i = 0; i < n_stacks; i++)
    {
      Stack st = { g_array_new (FALSE, FALSE, sizeof (guint)), (guint64) g_rand_int_range (rand, 1, 1000) };
      guint depth = (guint) g_rand_int_range (rand, 1, (gint32) max_depth + 1);
      for (guint d = 0; d < depth; d++)
        {
          guint f;
          if (d > 0 && g_rand_double (rand) < 0.35)
            f = g_array_index (st.frames, guint, (guint) g_rand_int_range (rand, 0, (gint32) d));
          else
            f = (guint) g_rand_int_range (rand, 0, (gint32) nf);
          g_array_append_val (st.frames, f);
        }
      g_array_append_val (s.stacks, st);
    }
  return s;
}

static char *
to_folded (const Sample *s)
{
  GString *out = g_string_new (NULL);
  for (guint i = 0; i < s->stacks->len; i++)
    {
      const Stack *st = &g_array_index (s->stacks, Stack, i);
      for (guint d = 0; d < st->frames->len; d++)
        g_string_append_printf (out, "%sfunc %u", d ? ";" : "", g_array_index (st->frames, guint, d));
      if (s->decimal)
        g_string_append_printf (out, " %" G_GUINT64_FORMAT ".%u\n", st->count / 10, (guint) (st->count % 10));
      else
        g_string_append_printf (out, " %" G_GUINT64_FORMAT "\n", st->count);
    }
  return g_string_free (out, FALSE);
}

/* The brute force: totals per function, carried and own parts per
 * (caller, callee) pair, in the sample's count unit. */
typedef struct {
  guint64 *total;  /* nf */
  guint64 *arc;    /* nf × nf */
  guint64 *own;    /* nf × nf */
} Truth;

static Truth
brute_force (const Sample *s)
{
  guint nf = s->n_functions;
  Truth t = { g_new0 (guint64, nf), g_new0 (guint64, nf * nf), g_new0 (guint64, nf * nf) };
  g_autofree gint *first = g_new (gint, nf);
  for (guint i = 0; i < s->stacks->len; i++)
    {
      const Stack *st = &g_array_index (s->stacks, Stack, i);
      for (guint f = 0; f < nf; f++)
        first[f] = -1;
      for (guint d = 0; d < st->frames->len; d++)
        {
          guint f = g_array_index (st->frames, guint, d);
          if (first[f] < 0)
            first[f] = (gint) d;
        }
      for (guint f = 0; f < nf; f++)
        {
          if (first[f] < 0)
            continue;
          t.total[f] += st->count;
          if (first[f] > 0)
            t.arc[g_array_index (st->frames, guint, first[f] - 1) * nf + f] += st->count;
        }
      guint leaf = g_array_index (st->frames, guint, st->frames->len - 1);
      if (first[leaf] > 0)
        t.own[g_array_index (st->frames, guint, first[leaf] - 1) * nf + leaf] += st->count;
    }
  return t;
}

static void
truth_free (Truth *t)
{
  g_free (t->total);
  g_free (t->arc);
  g_free (t->own);
}

static guint
number_of (CgGraph *g, CgFunctionId f)
{
  return (guint) g_ascii_strtoull (cg_graph_function_name (g, f) + strlen ("func "), NULL, 10);
}

static gboolean
same (CgKind kind, CgValue v, guint64 want)
{
  if (kind == CG_KIND_INTEGER)
    return v.n == want;
  gdouble w = (gdouble) want / 10.0;
  return fabs (v.x - w) <= 1e-9 * MAX (1.0, w);
}

static void
check_sample (const Sample *s)
{
  g_autofree char *text = to_folded (s);
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string (text, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CgGraph *g = cg_profile_graph (p);
  CU_ASSERT_TRUE (cg_exact_applies (p, NULL));
  g_autoptr (CgCosts) c = cg_method_compute (p, CG_METHOD_AUTO, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  CU_ASSERT_EQUAL (cg_costs_method (c), CG_METHOD_EXACT);
  CgKind kind = cg_costs_kind (c, 0);
  CU_ASSERT_EQUAL (kind, s->decimal ? CG_KIND_REAL : CG_KIND_INTEGER);
  CU_ASSERT_FALSE (cg_costs_any_estimated (c));
  Truth t = brute_force (s);
  guint nf = s->n_functions, bad = 0;
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    bad += !same (kind, cg_costs_total_const (c, f)[0], t.total[number_of (g, f)]);
  for (CgArcId a = 0; a < cg_graph_n_arcs (g); a++)
    {
      guint x = number_of (g, cg_graph_arc_caller (g, a)), y = number_of (g, cg_graph_arc_callee (g, a));
      bad += !same (kind, cg_costs_arc_const (c, a)[0], t.arc[x * nf + y]);
      bad += !same (kind, cg_costs_arc_self_const (c, a)[0], t.own[x * nf + y]);
      bad += !same (kind, cg_costs_arc_children_const (c, a)[0], t.arc[x * nf + y] - t.own[x * nf + y]);
      /* no pair the brute force charges is missing from the graph */
      t.arc[x * nf + y] = 0;
    }
  for (guint i = 0; i < nf * nf; i++)
    bad += t.arc[i] != 0;
  CU_ASSERT_EQUAL (bad, 0);
  truth_free (&t);
}

static void
test_random_trees (void)
{
  GRand *rand = g_rand_new_with_seed (20260501);
  for (guint round = 0; round < 300; round++)
    {
      guint nf = (guint) g_rand_int_range (rand, 1, 9);
      Sample s = random_sample (rand, nf, (guint) g_rand_int_range (rand, 1, 40), 12, round % 4 == 3);
      check_sample (&s);
      sample_free (&s);
    }
  g_rand_free (rand);
}

static void
test_hand_example (void)
{
  /* main;a;b;a;b 10 and main;b 5: a and b recurse into each other.
   * Totals: main 15; a 10 (once per sample, however deep); b 15.  Arcs:
   * main→a 10; a→b 10 (the outer b of the first stack); b→a 0 (the inner
   * a is under the outer one); main→b 5. */
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string ("main;a;b;a;b 10\nmain;b 5\n", &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CgGraph *g = cg_profile_graph (p);
  g_autoptr (CgCosts) c = cg_exact_compute (p, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  CU_ASSERT_EQUAL (cg_test_total (g, c, "main"), 15);
  CU_ASSERT_EQUAL (cg_test_total (g, c, "a"), 10);
  CU_ASSERT_EQUAL (cg_test_total (g, c, "b"), 15);
  CgFunctionId m = cg_graph_lookup_function (g, "", "main");
  CgFunctionId a = cg_graph_lookup_function (g, "", "a"), b = cg_graph_lookup_function (g, "", "b");
  CU_ASSERT_EQUAL (cg_costs_arc_const (c, cg_graph_lookup_arc (g, m, a))[0].n, 10);
  CU_ASSERT_EQUAL (cg_costs_arc_const (c, cg_graph_lookup_arc (g, a, b))[0].n, 10);
  CU_ASSERT_EQUAL (cg_costs_arc_const (c, cg_graph_lookup_arc (g, b, a))[0].n, 0);
  CU_ASSERT_EQUAL (cg_costs_arc_const (c, cg_graph_lookup_arc (g, m, b))[0].n, 5);
  /* the leaf b of the first stack is inside the b that a called */
  CU_ASSERT_EQUAL (cg_costs_arc_self_const (c, cg_graph_lookup_arc (g, a, b))[0].n, 10);
  CU_ASSERT_EQUAL (cg_costs_arc_children_const (c, cg_graph_lookup_arc (g, m, a))[0].n, 10);
}

static void
test_million_frames (void)
{
  /* one stack of a million frames, a;b;a;b;...;b 3, and a 2 */
  const guint depth = 1000000;
  GString *text = g_string_sized_new (2 * depth + 16);
  for (guint d = 0; d < depth; d++)
    g_string_append (text, d == 0 ? "a" : d % 2 ? ";b" : ";a");
  g_string_append (text, " 3\na 2\n");
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string (text->str, &error);
  g_string_free (text, TRUE);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CU_ASSERT_EQUAL (cg_tree_n_frames (cg_profile_tree (p)), depth);
  CgGraph *g = cg_profile_graph (p);
  g_autoptr (CgCosts) c = cg_exact_compute (p, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  CU_ASSERT_EQUAL (cg_test_total (g, c, "a"), 5);
  CU_ASSERT_EQUAL (cg_test_total (g, c, "b"), 3);
  CgFunctionId a = cg_graph_lookup_function (g, "", "a"), b = cg_graph_lookup_function (g, "", "b");
  CU_ASSERT_EQUAL (cg_costs_arc_const (c, cg_graph_lookup_arc (g, a, b))[0].n, 3);
  CU_ASSERT_EQUAL (cg_costs_arc_const (c, cg_graph_lookup_arc (g, b, a))[0].n, 0);
}

static void
test_needs_a_complete_tree (void)
{
  GError *error = NULL;
  /* no tree */
  g_autoptr (CgProfile) p = cg_test_read_string ("events: Ir\nfn=main\n1 5\n", &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CU_ASSERT_PTR_NULL (cg_exact_compute (p, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_UNSUPPORTED, "no call tree");
  g_clear_error (&error);
  /* a profile without stacks merged with one with stacks */
  char *path = cg_test_temp_file ("main;f 4\n", -1);
  CU_ASSERT_TRUE (cg_read_file (p, path, NULL, &error));
  cg_test_remove (path);
  CU_ASSERT_FALSE (cg_exact_applies (p, NULL));
  CU_ASSERT_PTR_NULL (cg_exact_compute (p, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_UNSUPPORTED, "does not hold all the Ir of main");
  g_clear_error (&error);
  /* auto falls back to the measured method there */
  CgMethod m;
  CU_ASSERT_TRUE (cg_method_resolve (p, CG_METHOD_AUTO, &m, NULL));
  CU_ASSERT_EQUAL (m, CG_METHOD_MEASURED);
}

static void
test_missing_arc_and_overflow (void)
{
  GError *error = NULL;
  g_autoptr (CgGraph) g = cg_graph_new ();
  guint e;
  cg_graph_ensure_event (g, "samples", "samples", CG_KIND_INTEGER, &e, NULL);
  CgFunctionId a = cg_graph_ensure_function (g, "", "a"), b = cg_graph_ensure_function (g, "", "b");
  g_autoptr (CgTree) t = cg_tree_new (g);
  CgFrameId x = cg_tree_ensure_child (t, CG_NO_ID, a);
  CgFrameId y = cg_tree_ensure_child (t, x, b);
  cg_tree_self (t, y)->n = 1;
  cg_graph_self (g, b)->n = 1;
  CU_ASSERT_PTR_NULL (cg_exact_from_tree (g, t, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "a → b");
  g_clear_error (&error);

  /* self sums fit in 64 bits, the frame total of main does not */
  g_autoptr (CgProfile) p = cg_test_read_string ("main;a 18446744073709551615\nmain;b 1\n", &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CU_ASSERT_PTR_NULL (cg_exact_compute (p, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_OVERFLOW, "64-bit");
  g_clear_error (&error);
}

static void
test_survives_xml_and_collapse (void)
{
  /* the tree travels in XML; after collapsing the cycle, the cycle's
   * exact total is that of its outermost member */
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string ("main;a;b;a 7\nmain;b;a;b 4\nmain 1\n", &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  CU_ASSERT_TRUE (cg_write_xml (p, f, "memory", &error));
  fclose (f);
  g_autoptr (CgProfile) q = cg_test_read_string (buf, &error);
  free (buf);
  CU_ASSERT_PTR_NOT_NULL_FATAL (q);
  g_autoptr (CgCosts) c = cg_method_compute (q, CG_METHOD_AUTO, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  CU_ASSERT_EQUAL (cg_costs_method (c), CG_METHOD_EXACT);
  CU_ASSERT_EQUAL (cg_test_total (cg_profile_graph (q), c, "a"), 11);
  CU_ASSERT_EQUAL (cg_test_total (cg_profile_graph (q), c, "b"), 11);
  CU_ASSERT_EQUAL (cg_test_total (cg_profile_graph (q), c, "main"), 12);
  CU_ASSERT_TRUE (cg_collapse_cycles (q, &error));
  g_autoptr (CgCosts) d = cg_exact_compute (q, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (d);
  CU_ASSERT_EQUAL (cg_test_total (cg_profile_graph (q), d, "<cycle 1>"), 11);
  CU_ASSERT_EQUAL (cg_test_total (cg_profile_graph (q), d, "main"), 12);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "hand example", test_hand_example },
    { "random trees against brute force", test_random_trees },
    { "a million-frame stack", test_million_frames },
    { "needs a complete tree", test_needs_a_complete_tree },
    { "missing arc and overflow", test_missing_arc_and_overflow },
    { "survives XML and collapse", test_survives_xml_and_collapse },
    { NULL, NULL },
  };
  return cg_test_main ("exact", cases);
}
