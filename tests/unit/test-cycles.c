/* test-cycles.c — Tarjan against brute-force reachability, gprof's
 * numbering, depth that a recursive implementation would not survive, and
 * collapsing. */
#include "config.h"

#include "cg-test.h"

static CgGraph *
random_graph (GRand *rand, guint n, guint m)
{
  CgGraph *g = cg_graph_new ();
  for (guint i = 0; i < n; i++)
    {
      char name[16];
      g_snprintf (name, sizeof name, "f%u", i);
      cg_graph_ensure_function (g, "", name);
    }
  for (guint i = 0; i < m; i++)
    cg_graph_ensure_arc (g, g_rand_int_range (rand, 0, (gint32) n), g_rand_int_range (rand, 0, (gint32) n));
  return g;
}

/* reach[i * n + j]: j is reachable from i (Floyd–Warshall closure) */
static guint8 *
closure (CgGraph *g)
{
  guint n = cg_graph_n_functions (g);
  guint8 *reach = g_new0 (guint8, n * n);
  for (guint i = 0; i < n; i++)
    reach[i * n + i] = 1;
  for (CgArcId a = 0; a < cg_graph_n_arcs (g); a++)
    reach[cg_graph_arc_caller (g, a) * n + cg_graph_arc_callee (g, a)] = 1;
  for (guint k = 0; k < n; k++)
    for (guint i = 0; i < n; i++)
      if (reach[i * n + k])
        for (guint j = 0; j < n; j++)
          reach[i * n + j] |= reach[k * n + j];
  return reach;
}

static void
test_random_against_closure (void)
{
  GRand *rand = g_rand_new_with_seed (2005);
  for (int round = 0; round < 200; round++)
    {
      guint n = (guint) g_rand_int_range (rand, 1, 40), m = (guint) g_rand_int_range (rand, 0, 80);
      g_autoptr (CgGraph) g = random_graph (rand, n, m);
      g_autofree guint8 *reach = closure (g);
      g_autoptr (CgScc) scc = cg_scc_find (g, NULL, NULL);
      g_autoptr (CgCycles) cycles = cg_cycles_find (g, NULL, NULL);
      for (guint i = 0; i < n; i++)
        for (guint j = 0; j < n; j++)
          {
            gboolean mutual = reach[i * n + j] && reach[j * n + i];
            CU_ASSERT_EQUAL (scc->component_of[i] == scc->component_of[j], mutual);
            /* cycles are exactly the components with two or more members */
            gboolean same_cycle = cg_cycles_cycle_of (cycles, i) != 0
                                  && cg_cycles_cycle_of (cycles, i) == cg_cycles_cycle_of (cycles, j);
            CU_ASSERT_EQUAL (same_cycle, mutual && scc->size[scc->component_of[i]] > 1);
          }
      /* components come callees first: an arc never points to a later one */
      for (CgArcId a = 0; a < cg_graph_n_arcs (g); a++)
        CU_ASSERT_TRUE (scc->component_of[cg_graph_arc_callee (g, a)]
                        <= scc->component_of[cg_graph_arc_caller (g, a)]);
      /* numbered in the order of their heads */
      for (guint k = 2; k <= cg_cycles_count (cycles); k++)
        CU_ASSERT_TRUE (cg_cycles_head (cycles, k - 1) < cg_cycles_head (cycles, k));
    }
  g_rand_free (rand);
}

/* gprof visits callees in reverse order of their arcs: with main -> a,
 * main -> b, a -> b, b -> a, the DFS enters b first, so b heads the cycle. */
static void
test_gprof_head (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  CgFunctionId main_ = cg_graph_ensure_function (g, "", "main");
  CgFunctionId a = cg_graph_ensure_function (g, "", "a");
  CgFunctionId b = cg_graph_ensure_function (g, "", "b");
  CgFunctionId x = cg_graph_ensure_function (g, "", "x");
  CgFunctionId y = cg_graph_ensure_function (g, "", "y");
  cg_graph_ensure_arc (g, main_, a);
  cg_graph_ensure_arc (g, main_, b);
  cg_graph_ensure_arc (g, a, b);
  cg_graph_ensure_arc (g, b, a);
  cg_graph_ensure_arc (g, main_, x);
  cg_graph_ensure_arc (g, x, y);
  cg_graph_ensure_arc (g, y, x);
  g_autoptr (CgCycles) c = cg_cycles_find (g, NULL, NULL);
  CU_ASSERT_EQUAL (cg_cycles_count (c), 2);
  /* x's cycle is entered first (last arc of main), but numbering follows
   * the heads' order: b (index 2) before x (index 3) */
  CU_ASSERT_EQUAL (cg_cycles_head (c, 1), b);
  CU_ASSERT_EQUAL (cg_cycles_head (c, 2), x);
  CU_ASSERT_EQUAL (cg_cycles_cycle_of (c, a), 1);
  CU_ASSERT_EQUAL (cg_cycles_cycle_of (c, y), 2);
  CU_ASSERT_EQUAL (cg_cycles_cycle_of (c, main_), 0);
}

static void
test_million_deep (void)
{
  const guint n = 1000000;
  g_autoptr (CgGraph) g = cg_graph_new ();
  for (guint i = 0; i < n; i++)
    {
      char name[16];
      g_snprintf (name, sizeof name, "f%u", i);
      cg_graph_ensure_function (g, "", name);
    }
  for (guint i = 0; i + 1 < n; i++)
    cg_graph_ensure_arc (g, i, i + 1);
  g_autoptr (CgCycles) chain = cg_cycles_find (g, NULL, NULL);
  CU_ASSERT_EQUAL (cg_cycles_count (chain), 0);
  /* close the chain into one ring of a million members */
  cg_graph_ensure_arc (g, n - 1, 0);
  g_autoptr (CgCycles) ring = cg_cycles_find (g, NULL, NULL);
  CU_ASSERT_EQUAL (cg_cycles_count (ring), 1);
  guint members;
  cg_cycles_members (ring, 1, &members);
  CU_ASSERT_EQUAL (members, n);
}

static void
test_collapse (void)
{
  g_autoptr (CgProfile) p = cg_profile_new ();
  CgGraph *g = cg_profile_graph (p);
  guint e;
  cg_graph_ensure_event (g, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL);
  cg_graph_set_has_inclusive (g, TRUE);
  CgFunctionId m = cg_graph_ensure_function (g, "", "main");
  CgFunctionId a = cg_graph_ensure_function (g, "", "a");
  CgFunctionId b = cg_graph_ensure_function (g, "", "b");
  CgFunctionId leaf = cg_graph_ensure_function (g, "", "leaf");
  cg_graph_self (g, m)->n = 1;
  cg_graph_self (g, a)->n = 10;
  cg_graph_self (g, b)->n = 20;
  cg_graph_self (g, leaf)->n = 5;
  cg_graph_spontaneous_mut (g, m)->n = 36;
  CgArcId ma = cg_graph_ensure_arc (g, m, a), ab = cg_graph_ensure_arc (g, a, b);
  CgArcId ba = cg_graph_ensure_arc (g, b, a), aa = cg_graph_ensure_arc (g, a, a);
  CgArcId bl = cg_graph_ensure_arc (g, b, leaf);
  cg_graph_arc_add_calls (g, ma, 2);
  cg_graph_arc_add_calls (g, ab, 3);
  cg_graph_arc_add_calls (g, ba, 4);
  cg_graph_arc_add_calls (g, aa, 50);
  cg_graph_arc_add_calls (g, bl, 6);
  cg_graph_arc_inclusive (g, ma)->n = 35;
  cg_graph_arc_inclusive (g, ab)->n = 25;
  cg_graph_arc_inclusive (g, bl)->n = 5;
  CU_ASSERT_TRUE (cg_collapse_cycles (p, NULL));
  g = cg_profile_graph (p);
  CU_ASSERT_EQUAL (cg_graph_n_functions (g), 3);
  CgFunctionId c = cg_graph_lookup_function (g, "", "<cycle 1>");
  CU_ASSERT_NOT_EQUAL (c, CG_NO_ID);
  CU_ASSERT_TRUE (cg_graph_function_flags (g, c) & CG_FUNCTION_CYCLE);
  CU_ASSERT_EQUAL (cg_graph_self (g, c)->n, 30);
  CgArcId in = cg_graph_lookup_arc (g, cg_graph_lookup_function (g, "", "main"), c);
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, in), 2);
  CU_ASSERT_EQUAL (cg_graph_arc_inclusive (g, in)->n, 35);
  /* calls between different members make the cycle's self-arc; a's own
   * recursion disappears with it */
  CgArcId self = cg_graph_lookup_arc (g, c, c);
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, self), 7);
  CU_ASSERT_EQUAL (cg_graph_arc_inclusive (g, self)->n, 0);
  CgArcId out = cg_graph_lookup_arc (g, c, cg_graph_lookup_function (g, "", "leaf"));
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, out), 6);
  CU_ASSERT_PTR_NULL (cg_profile_cycles (p));
}

/* the sources survive the collapse, note and all: their strings are the
 * new graph's (the old graph and its strings are freed; the note was left
 * pointing into them, and cgcycles --collapse wrote freed memory) */
static void
test_collapse_keeps_sources (void)
{
  g_autoptr (CgProfile) p = cg_profile_new ();
  CgGraph *g = cg_profile_graph (p);
  guint e;
  cg_graph_ensure_event (g, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL);
  CgFunctionId a = cg_graph_ensure_function (g, "", "a");
  CgFunctionId b = cg_graph_ensure_function (g, "", "b");
  cg_graph_ensure_arc (g, a, b);
  cg_graph_ensure_arc (g, b, a);
  cg_profile_add_source (p, "amon", "amon.out", NULL, "libamon");
  cg_profile_set_source_note (p, "a note that only this source has");
  CU_ASSERT_TRUE (cg_collapse_cycles (p, NULL));
  g = cg_profile_graph (p);
  CU_ASSERT_EQUAL (cg_profile_n_sources (p), 1);
  const CgSource *s = cg_profile_source (p, 0);
  const char *note = cg_graph_intern (g, "a note that only this source has", -1);
  const char *path = cg_graph_intern (g, "amon.out", -1);
  /* pointers first: the old strings must not be read */
  CU_ASSERT_PTR_EQUAL (s->note, note);
  CU_ASSERT_PTR_EQUAL (s->path, path);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "components equal mutual reachability (200 random graphs)", test_random_against_closure },
    { "heads and numbering follow gprof", test_gprof_head },
    { "a million-deep chain and a million-member ring", test_million_deep },
    { "collapsing a cycle", test_collapse },
    { "collapsing keeps the sources' strings, the note's too", test_collapse_keeps_sources },
    { NULL, NULL },
  };
  return cg_test_main ("cycles", cases);
}
