/* test-gprof.c — gprof's analysis against independent oracles: its cycles
 * (gprof's depth-first glomming) against Tarjan's components of
 * cg-cycles.c on random graphs, its propagation against hand-computed
 * values, -c's static arcs against gprof's order of adding arcs, its
 * merge sort against glibc's qsort itself, which is the sort gprof calls
 * (exact tie-breaks even for inconsistent comparators), and demangled
 * names against c++filt's. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cg-test.h"

static CgProfile *
random_profile (GRand *rand, guint n, guint m)
{
  CgProfile *p = cg_profile_new ();
  CgGraph *g = cg_profile_graph (p);
  guint e;
  g_assert (cg_profile_ensure_event (p, "time", "seconds", CG_KIND_REAL, &e, NULL));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);
      CgFunctionId f = cg_graph_ensure_function (g, "x", name);
      cg_graph_self (g, f)[0].x = g_rand_int_range (rand, 0, 5);
    }
  for (guint j = 0; j < m; j++)
    {
      CgArcId a = cg_graph_ensure_arc (g, g_rand_int_range (rand, 0, (gint32) n),
                                       g_rand_int_range (rand, 0, (gint32) n));
      cg_graph_arc_add_calls (g, a, g_rand_int_range (rand, 1, 4));
    }
  return p;
}

/* gprof's cycles are Tarjan's components, numbered alike. */
static void
test_cycles_match_tarjan (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (42);
  for (guint round = 0; round < 300; round++)
    {
      guint n = g_rand_int_range (rand, 1, 40);
      g_autoptr (CgProfile) p = random_profile (rand, n, g_rand_int_range (rand, 0, 3 * n));
      CgGraph *g = cg_profile_graph (p);
      g_autoptr (CgGprof) gp = cg_gprof_new (p, 0, NULL);
      g_autoptr (CgCycles) c = cg_cycles_find (g, NULL, NULL);
      CU_ASSERT_EQUAL_FATAL (cg_gprof_n_cycles (gp), cg_cycles_count (c));
      for (CgFunctionId f = 0; f < n; f++)
        CU_ASSERT_EQUAL (cg_gprof_entry (gp, f)->cycle, cg_cycles_cycle_of (c, f));
      for (guint k = 1; k <= cg_cycles_count (c); k++)
        {
          guint nm;
          const CgFunctionId *m = cg_gprof_members (gp, k, &nm);
          CU_ASSERT_EQUAL (m[0], cg_cycles_head (c, k)); /* the head comes first */
        }
    }
}

/* main -> a (3 calls), main -> b (1 call), a -> c (1), b -> c (3): c's
 * 8 ticks split 2 / 6 by calls; a cycle x <-> y gets y's time as a unit. */
static void
test_propagation (void)
{
  g_autoptr (CgProfile) p = cg_test_profile_new (CG_KIND_REAL, "main", "a", "b", "c", "x", "y", NULL);
  CgGraph *g = cg_profile_graph (p);
  cg_graph_self (g, 3)[0].x = 8;
  cg_graph_self (g, 5)[0].x = 4;
  static const guint arcs[][3] = { { 0, 1, 3 }, { 0, 2, 1 }, { 1, 3, 1 }, { 2, 3, 3 }, { 0, 4, 2 },
                                   { 4, 5, 5 }, { 5, 4, 5 }, { 3, 3, 9 } };
  for (guint i = 0; i < G_N_ELEMENTS (arcs); i++)
    cg_graph_arc_add_calls (g, cg_graph_ensure_arc (g, arcs[i][0], arcs[i][1]), arcs[i][2]);
  g_autoptr (CgGprof) gp = cg_gprof_new (p, 0, NULL);
  CU_ASSERT_DOUBLE_EQUAL (cg_gprof_entry (gp, 1)->prop_child, 2.0, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL (cg_gprof_entry (gp, 2)->prop_child, 6.0, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL (cg_gprof_entry (gp, 0)->prop_child, 12.0, 1e-12);
  CU_ASSERT_EQUAL (cg_gprof_entry (gp, 3)->ncalls, 4);
  CU_ASSERT_EQUAL (cg_gprof_entry (gp, 3)->self_calls, 9);
  CU_ASSERT_EQUAL (cg_gprof_n_cycles (gp), 1);
  const CgGprofEntry *cyc = cg_gprof_entry (gp, 6);
  CU_ASSERT_EQUAL (cyc->ncalls, 2);
  CU_ASSERT_EQUAL (cyc->self_calls, 10);
  CU_ASSERT_DOUBLE_EQUAL (cyc->prop_self, 4.0, 1e-12);
  CU_ASSERT_EQUAL (cg_gprof_entry (gp, 4)->cycle, 1);
  /* the costs: totals and arcs, estimated */
  g_autoptr (CgCosts) c = cg_gprof_compute (p, NULL, NULL);
  CU_ASSERT_DOUBLE_EQUAL (cg_costs_total_const (c, 0)[0].x, 12.0, 1e-12);
  CgArcId ac = cg_graph_lookup_arc (g, 2, 3);
  CU_ASSERT_DOUBLE_EQUAL (cg_costs_arc_const (c, ac)[0].x, 6.0, 1e-12);
  CU_ASSERT_TRUE (cg_costs_total_is_estimated (c, 0));
  /* -E c: its time no longer propagates, and it becomes a root */
  g_autoptr (CgGprofSpecs) specs = cg_gprof_specs_new ();
  cg_gprof_specs_add_option (specs, 'E', "c");
  g_autoptr (CgGprof) gq = cg_gprof_new (p, 0, specs);
  CU_ASSERT_DOUBLE_EQUAL (cg_gprof_entry (gq, 0)->prop_child, 4.0, 1e-12);
  CU_ASSERT_FALSE (cg_gprof_entry (gq, 3)->print);
}

/* gprof -c: main -> a (2 calls), a -> b (5), a -> c (static only); the
 * code scan found a -> c, then a -> b.  gprof tallies the recorded arcs
 * through its arc specs, then adds the static ones without them
 * (cg_arcs.c cg_assemble, arc_add), prepending each new arc to its
 * caller's list: with -k a/b, a -> b comes back with 0 calls after
 * a -> c, so a's list is a -> b, a -> c. */
static void
test_static_arcs (void)
{
  g_autoptr (CgProfile) p = cg_test_profile_new (CG_KIND_REAL, "main", "a", "b", "c", NULL);
  CgGraph *g = cg_profile_graph (p);
  guint e = 0;
  CgArcId ma = cg_graph_ensure_arc (g, 0, 1), ab = cg_graph_ensure_arc (g, 1, 2), ac = cg_graph_ensure_arc (g, 1, 3);
  cg_graph_arc_add_calls (g, ma, 2);
  cg_graph_arc_add_calls (g, ab, 5);
  CgHistogram *h = cg_histogram_new (e, 100, 1.0);
  cg_profile_set_histogram (p, h);
  const guint32 scan[] = { ac, ab };
  cg_histogram_set_static_arcs (h, scan, G_N_ELEMENTS (scan));

  g_autoptr (CgGprofSpecs) specs = cg_gprof_specs_new ();
  cg_gprof_specs_add_option (specs, 'k', "a/b");
  g_autoptr (CgGprof) gp = cg_gprof_new (p, e, specs);
  guint n;
  const CgArcId *out = cg_gprof_children (gp, 1, &n);
  CU_ASSERT_EQUAL_FATAL (n, 2);
  CU_ASSERT_EQUAL (out[0], ab);
  CU_ASSERT_EQUAL (out[1], ac);
  CU_ASSERT_TRUE (cg_gprof_arc (gp, ab)->kept);
  CU_ASSERT_EQUAL (cg_gprof_arc (gp, ab)->calls, 0);
  CU_ASSERT_EQUAL (cg_gprof_entry (gp, 2)->ncalls, 0);
  CU_ASSERT_EQUAL (cg_gprof_entry (gp, 1)->ncalls, 2);

  /* without -k, a -> b keeps its calls and its place before a -> c */
  g_autoptr (CgGprof) all = cg_gprof_new (p, e, NULL);
  out = cg_gprof_children (all, 1, &n);
  CU_ASSERT_EQUAL_FATAL (n, 2);
  CU_ASSERT_EQUAL (out[0], ac);
  CU_ASSERT_EQUAL (out[1], ab);
  CU_ASSERT_EQUAL (cg_gprof_arc (all, ab)->calls, 5);

  /* without the scan's order (a document), a -> b stays deleted and
   * a -> c, having no calls, is kept as static */
  cg_histogram_set_static_arcs (h, NULL, 0);
  g_autoptr (CgGprof) doc = cg_gprof_new (p, e, specs);
  out = cg_gprof_children (doc, 1, &n);
  CU_ASSERT_EQUAL_FATAL (n, 1);
  CU_ASSERT_EQUAL (out[0], ac);
  CU_ASSERT_FALSE (cg_gprof_arc (doc, ab)->kept);
}

/* Spivey's aprof in gprof's layout (cg_gprof_new_from_contexts) on five
 * contexts computed by hand (* = marked, the last occurrence):
 *   [main*] 1; [main* even*] 2; [main* even* leaf*] 5, entered 3 times;
 *   [main* even* odd*] 4, entered twice; [main* even odd* even*] 8,
 *   entered twice; [leaf*] 2 (leaf started by nobody, as a thread).
 * Totals: main 20, even 19, odd 12, leaf 7; self: 1, 10, 4, 7.  Arcs
 * (self1 child1 / self2 child2): main -> even 10 9 / 2 9 (the last
 * context's running even is main's callee's function, though a deeper
 * activation), even -> leaf 5 0 / 5 0, even -> odd 4 0 / 4 8,
 * odd -> even 8 0 / 8 0.  main's 1 of self and 19 of children and
 * leaf's 2 of self are spontaneous.  The caller lines of each function
 * add up to its self and children, its callee lines to its children. */
static void
test_from_contexts (void)
{
  g_autoptr (CgProfile) p = cg_test_profile_new (CG_KIND_INTEGER, "main", "even", "odd", "leaf", NULL);
  CgGraph *g = cg_profile_graph (p);
  guint e = 0;
  CgContexts *cx = cg_profile_ensure_contexts (p);
  static const struct {
    guint len;
    CgFunctionId f[4];
    guint8 m[4];
    guint64 cost, entries;
  } ctx[] = {
    { 1, { 0 }, { 1 }, 1, 0 },
    { 2, { 0, 1 }, { 1, 1 }, 2, 1 },
    { 3, { 0, 1, 3 }, { 1, 1, 1 }, 5, 3 },
    { 3, { 0, 1, 2 }, { 1, 1, 1 }, 4, 2 },
    { 4, { 0, 1, 2, 1 }, { 1, 0, 1, 1 }, 8, 2 },
    { 1, { 3 }, { 1 }, 2, 0 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (ctx); i++)
    {
      CgContextId k = cg_contexts_ensure (cx, ctx[i].f, ctx[i].m, ctx[i].len);
      cg_contexts_cost (cx, k)[e].n = ctx[i].cost;
      cg_contexts_add_counts (cx, k, ctx[i].entries, 0);
      cg_graph_self (g, ctx[i].f[ctx[i].len - 1])[e].n += ctx[i].cost;
      if (ctx[i].len > 1)
        cg_graph_arc_add_calls (g, cg_graph_ensure_arc (g, ctx[i].f[ctx[i].len - 2], ctx[i].f[ctx[i].len - 1]),
                                ctx[i].entries);
    }
  g_autoptr (CgCosts) c = cg_spivey_compute (p, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  g_autoptr (CgGprof) gp = cg_gprof_new_from_contexts (p, c, e, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (gp);
  CU_ASSERT_TRUE (cg_gprof_is_exact (gp));
  CU_ASSERT_EQUAL (cg_gprof_n_contexts (gp), 6);
  CU_ASSERT_EQUAL (cg_gprof_n_cycles (gp), 0);
  static const gdouble self[] = { 1, 10, 4, 7 }, total[] = { 20, 19, 12, 7 };
  static const guint64 calls[] = { 0, 3, 2, 3 };
  for (CgFunctionId f = 0; f < 4; f++)
    {
      const CgGprofEntry *en = cg_gprof_entry (gp, f);
      CU_ASSERT_DOUBLE_EQUAL (en->prop_self, self[f], 1e-12);
      CU_ASSERT_DOUBLE_EQUAL (en->prop_self + en->prop_child, total[f], 1e-12);
      CU_ASSERT_EQUAL (en->ncalls, calls[f]);
      CU_ASSERT_EQUAL (en->index, f + 1); /* by total */
      CU_ASSERT_EQUAL (en->cycle, 0);
    }
  CU_ASSERT_DOUBLE_EQUAL (cg_gprof_entry (gp, 0)->spont_self, 1, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL (cg_gprof_entry (gp, 0)->spont_child, 19, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL (cg_gprof_entry (gp, 1)->spont_child, 0, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL (cg_gprof_entry (gp, 3)->spont_self, 2, 1e-12);
  static const struct {
    CgFunctionId from, to;
    gdouble s1, c1, s2, c2;
  } arcs[] = {
    { 0, 1, 10, 9, 2, 9 }, { 1, 3, 5, 0, 5, 0 }, { 1, 2, 4, 0, 4, 8 }, { 2, 1, 8, 0, 8, 0 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (arcs); i++)
    {
      const CgGprofArc *a = cg_gprof_arc (gp, cg_graph_lookup_arc (g, arcs[i].from, arcs[i].to));
      CU_ASSERT_DOUBLE_EQUAL (a->time, arcs[i].s1, 1e-12);
      CU_ASSERT_DOUBLE_EQUAL (a->child_time, arcs[i].c1, 1e-12);
      CU_ASSERT_DOUBLE_EQUAL (a->time2, arcs[i].s2, 1e-12);
      CU_ASSERT_DOUBLE_EQUAL (a->child_time2, arcs[i].c2, 1e-12);
    }
  /* the report: even's caller lines show self2 child2 and note the
   * other view where it differs; its callee lines self1 child1 */
  char *text = NULL;
  size_t size = 0;
  FILE *mem = open_memstream (&text, &size);
  CgGprofReport report = { .flat = TRUE, .graph = TRUE, .width = 80, .demangle = TRUE };
  CU_ASSERT_TRUE (cg_write_gprof (gp, &report, mem, NULL));
  fclose (mem);
  CU_ASSERT_PTR_NOT_NULL (strstr (text, "Times are exact, from 6 contexts, in seconds.\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (text, "granularity: exact times of 6 contexts, 22.00 seconds in all\n"));
  /* main has no callers: gprof's bare line */
  CU_ASSERT_PTR_NOT_NULL (strstr (text, "name\n                                                 <spontaneous>\n"
                                        "[1]     90.9    1.00   19.00                 main [1]\n"
                                        "               10.00    9.00       1/3           even [2]  (self2 2.00, child2 9.00)\n"));
  /* the biggest caller last, as in gprof */
  CU_ASSERT_PTR_NOT_NULL (strstr (text, "-\n                8.00    0.00       2/3           odd [3]\n"
                                        "                2.00    9.00       1/3           main [1]  (self1 10.00, child1 9.00)\n"
                                        "[2]     86.4   10.00    9.00       3         even [2]\n"
                                        "                5.00    0.00       3/3           leaf [4]\n"
                                        "                4.00    0.00       2/2           odd [3]  (self2 4.00, child2 8.00)\n-"));
  /* leaf has callers and started by itself: the spontaneous part counted */
  CU_ASSERT_PTR_NOT_NULL (strstr (text, "-\n                2.00    0.00                     <spontaneous>\n"
                                        "                5.00    0.00       3/3           even [2]\n"
                                        "[4]     31.8    7.00    0.00       3         leaf [4]\n-"));
  free (text);
}

/* Names as gprof prints them; the expected strings are c++filt's
 * (binutils), except the leading dots, which gprof's bfd_demangle sets
 * aside and c++filt on x86 does not. */
static void
test_demangle (void)
{
  if (!cg_demangle_available ())
    {
      CU_ASSERT_PTR_NULL (cg_demangle ("_ZN4work5weighEi"));
      return;
    }
  static const char *const cases[][2] = {
    { "_ZN4work5weighEi", "work::weigh(int)" },
    { "_ZN4work5weighEi@@VERS_1", "work::weigh(int)@@VERS_1" },
    { ".._ZN4work5weighEi", "..work::weigh(int)" },
    { "_ZNK4work6Square4areaEm", "work::Square::area(unsigned long) const" },
    { "_ZN12_GLOBAL__N_16Parser4itemEv.constprop.0", "(anonymous namespace)::Parser::item() [clone .constprop.0]" },
    { "_Z1fv.cold", "f() [clone .cold]" },
    { "_ZZ4mainENKUlmmE_clEmm",
      "main::{lambda(unsigned long, unsigned long)#1}::operator()(unsigned long, unsigned long) const" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *d = cg_demangle (cases[i][0]);
      CU_ASSERT_STRING_EQUAL (d ? d : "(null)", cases[i][1]);
    }
  /* C names, even ones that are C++ type codes, stay as they are */
  static const char *const plain[] = { "main", "i", "f", "_GLOBAL__sub_I_main", "scored.constprop.0", "" };
  for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
    CU_ASSERT_PTR_NULL (cg_demangle (plain[i]));
}

/* glibc 2.36's qsort is the merge sort cg_gprof_msort copies. */
static const guint *current_keys;

static gint
sloppy (gconstpointer a, gconstpointer b, gpointer data)
{
  const guint *key = data;
  guint x = *(const guint *) a, y = *(const guint *) b;
  /* inconsistent on purpose: "odd" keys are smaller than everything */
  if (key[x] % 2 && key[y] % 2)
    return -1;
  return (key[x] > key[y]) - (key[x] < key[y]);
}

static int
sloppy_qsort (const void *a, const void *b)
{
  return sloppy (a, b, (gpointer) current_keys);
}

static void
test_msort_is_glibc (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  for (guint round = 0; round < 200; round++)
    {
      guint n = g_rand_int_range (rand, 0, 100);
      g_autofree guint *key = g_new (guint, MAX (n, 1));
      g_autofree guint *a = g_new (guint, MAX (n, 1));
      g_autofree guint *b = g_new (guint, MAX (n, 1));
      for (guint i = 0; i < n; i++)
        {
          key[i] = g_rand_int_range (rand, 0, 10);
          a[i] = b[i] = i;
        }
      current_keys = key;
      qsort (a, n, sizeof *a, sloppy_qsort);
      cg_gprof_msort (b, n, sloppy, key);
      CU_ASSERT_EQUAL (memcmp (a, b, n * sizeof *a), 0);
    }
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "cycles match Tarjan", test_cycles_match_tarjan },
    { "propagation", test_propagation },
    { "merge sort is glibc's", test_msort_is_glibc },
    { "static arcs come back as gprof adds them", test_static_arcs },
    { "names demangled as gprof prints them", test_demangle },
    { "context results in gprof's tables", test_from_contexts },
    { NULL, NULL },
  };
  return cg_test_main ("gprof", cases);
}
