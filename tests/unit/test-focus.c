/* test-focus.c — Spivey's focused profile over a call tree, against a
 * hand-derived example and a brute-force Min_E on random trees. */
#include "config.h"

#include <string.h>

#include "cg-test.h"

static CgProfile *
tree_profile (guint n_functions, CgFunctionId *ids)
{
  CgProfile *p = cg_profile_new ();
  guint e;
  cg_profile_ensure_event (p, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL);
  for (guint i = 0; i < n_functions; i++)
    {
      char name[8];
      g_snprintf (name, sizeof name, "%c", 'a' + i);
      ids[i] = cg_graph_ensure_function (cg_profile_graph (p), "", name);
    }
  cg_profile_ensure_tree (p);
  return p;
}

static CgFrameId
frame (CgProfile *p, CgFrameId parent, CgFunctionId f, guint64 self)
{
  CgTree *t = cg_profile_tree (p);
  CgFrameId x = cg_tree_ensure_child (t, parent, f);
  cg_tree_self (t, x)->n += self;
  return x;
}

static CgFunctionId
find (CgGraph *g, const char *name)
{
  return cg_graph_lookup_function (g, cg_graph_intern (g, "", -1), cg_graph_intern (g, name, -1));
}

static guint64
arc_cost (CgProfile *focused, const char *from, const char *to)
{
  CgGraph *g = cg_profile_graph (focused);
  CgArcId a = cg_graph_lookup_arc (g, find (g, from), find (g, to));
  return a == CG_NO_ID ? G_MAXUINT64 : cg_costs_arc_const (cg_profile_costs (focused), a)[0].n;
}

static void
test_by_hand (void)
{
  /* a = main, b = a, c = f, d = g:  main(1) -> a(2) -> f(3) -> a(4) -> g(5),
   * and main -> g(6) */
  CgFunctionId id[4];
  g_autoptr (CgProfile) p = tree_profile (4, id);
  CgFrameId m = frame (p, CG_NO_ID, id[0], 1);
  CgFrameId a1 = frame (p, m, id[1], 2);
  CgFrameId f = frame (p, a1, id[2], 3);
  CgFrameId a2 = frame (p, f, id[1], 4);
  frame (p, a2, id[3], 5);
  frame (p, m, id[3], 6);
  guint8 chosen[4] = { 0, 1, 0, 0 };
  g_autoptr (CgProfile) q = cg_focus_tree (p, chosen, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (q);
  CgGraph *g = cg_profile_graph (q);
  CgCosts *c = cg_profile_costs (q);
  CU_ASSERT_EQUAL (cg_costs_method (c), CG_METHOD_EXACT);
  /* main is gone; the inner b counts inside the outer one; d's frame under
   * main is outside the focus */
  CU_ASSERT_EQUAL (find (g, "a"), CG_NO_ID);
  CU_ASSERT_EQUAL (cg_graph_n_functions (g), 3);
  CU_ASSERT_EQUAL (cg_test_total (g, c, "b"), 14);
  CU_ASSERT_EQUAL (cg_test_total (g, c, "c"), 12);
  CU_ASSERT_EQUAL (cg_test_total (g, c, "d"), 5);
  CU_ASSERT_EQUAL (arc_cost (q, "b", "c"), 12);
  CU_ASSERT_EQUAL (arc_cost (q, "c", "b"), 0);
  CU_ASSERT_EQUAL (arc_cost (q, "b", "d"), 5);
  CgValue all;
  CU_ASSERT_TRUE (cg_graph_self_totals (g, &all));
  CU_ASSERT_EQUAL (all.n, 14);
  CU_ASSERT_PTR_NOT_NULL (cg_profile_tree (q));
}

/* A context of @p with history @fs (marked where @marks has '1'),
 * @cost self cost of its running routine and @entries calls into it. */
static void
context (CgProfile *p, const CgFunctionId *fs, const char *marks, guint64 cost, guint64 entries)
{
  guint len = (guint) strlen (marks);
  guint8 m[8];
  for (guint i = 0; i < len; i++)
    m[i] = marks[i] == '1';
  CgContexts *cx = cg_profile_ensure_contexts (p);
  CgContextId k = cg_contexts_ensure (cx, fs, m, len);
  cg_contexts_cost (cx, k)->n += cost;
  cg_graph_self (cg_profile_graph (p), fs[len - 1])->n += cost;
  cg_contexts_add_counts (cx, k, entries, 0);
}

static void
test_contexts_by_hand (void)
{
  /* a = main, b = f, c = g, d = h: [a] 10, [a b] 20, [a b c] 30, [a d] 40,
   * and a b g b with the first b's entry kept unmarked, 50 */
  CgFunctionId id[4];
  g_autoptr (CgProfile) p = tree_profile (4, id);
  context (p, (CgFunctionId[]) { id[0] }, "1", 10, 0);
  context (p, (CgFunctionId[]) { id[0], id[1] }, "11", 20, 1);
  context (p, (CgFunctionId[]) { id[0], id[1], id[2] }, "111", 30, 2);
  context (p, (CgFunctionId[]) { id[0], id[3] }, "11", 40, 1);
  context (p, (CgFunctionId[]) { id[0], id[1], id[2], id[1] }, "1011", 50, 1);
  guint8 chosen[4] = { 0, 1, 0, 0 };
  g_autoptr (CgProfile) q = cg_focus_contexts (p, chosen, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (q);
  CgGraph *g = cg_profile_graph (q);
  CgCosts *c = cg_profile_costs (q);
  CU_ASSERT_EQUAL (cg_costs_method (c), CG_METHOD_EXACT);
  /* the contexts where b is active, from b on: [b] 20, [b c] 30, [(b) c b] 50 */
  CU_ASSERT_EQUAL (cg_contexts_n (cg_profile_contexts (q)), 3);
  CU_ASSERT_EQUAL (find (g, "a"), CG_NO_ID);
  CU_ASSERT_EQUAL (find (g, "d"), CG_NO_ID);
  CU_ASSERT_EQUAL (cg_test_total (g, c, "b"), 100);
  CU_ASSERT_EQUAL (cg_test_total (g, c, "c"), 80);
  CU_ASSERT_EQUAL (cg_graph_self_const (g, find (g, "b"))->n, 70);
  CU_ASSERT_EQUAL (cg_graph_self_const (g, find (g, "c"))->n, 30);
  /* the calls into b from a are outside; those from c into b and from b
   * into c are kept */
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, cg_graph_lookup_arc (g, find (g, "b"), find (g, "c"))), 2);
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, cg_graph_lookup_arc (g, find (g, "c"), find (g, "b"))), 1);
  CgValue all;
  CU_ASSERT_TRUE (cg_graph_self_totals (g, &all));
  CU_ASSERT_EQUAL (all.n, 100);
  /* the whole profile's total of b is the same: every context where it
   * is active is in the focus, whole */
  g_autoptr (CgCosts) whole = cg_method_compute (p, CG_METHOD_EXACT, NULL);
  CU_ASSERT_EQUAL (cg_test_total (cg_profile_graph (p), whole, "b"), 100);
}

/* ---- random trees against brute force ---- */

static void
test_random_trees (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (5);
  for (guint round = 0; round < 300; round++)
    {
      guint nf = g_rand_int_range (r, 1, 6), want_frames = g_rand_int_range (r, 1, 60);
      CgFunctionId id[6];
      g_autoptr (CgProfile) p = tree_profile (nf, id);
      CgTree *t = cg_profile_tree (p);
      for (guint i = 0; i < want_frames; i++)
        {
          guint n = cg_tree_n_frames (t);
          CgFrameId parent = n == 0 || g_rand_int_range (r, 0, 5) == 0 ? CG_NO_ID : (CgFrameId) g_rand_int_range (r, 0, n);
          frame (p, parent, id[g_rand_int_range (r, 0, nf)], g_rand_int_range (r, 0, 10));
        }
      guint8 chosen[6] = { 0 };
      for (guint i = 0; i < nf; i++)
        chosen[i] = g_rand_int_range (r, 0, 3) == 0;
      g_autoptr (CgProfile) q = cg_focus_tree (p, chosen, NULL);
      CU_ASSERT_PTR_NOT_NULL_FATAL (q);
      CgGraph *g = cg_profile_graph (q);
      const CgCosts *c = cg_profile_costs (q);

      /* brute force over the original frames */
      guint nx = cg_tree_n_frames (t);
      guint64 total[6] = { 0 }, arc[6][6] = { { 0 } }, all = 0;
      gboolean has_arc[6][6] = { { FALSE } };
      for (CgFrameId x = 0; x < nx; x++)
        {
          gboolean focused = FALSE;
          for (CgFrameId y = x; y != CG_NO_ID && !focused; y = cg_tree_parent (t, y))
            focused = chosen[cg_tree_function (t, y)];
          if (!focused)
            continue;
          all += cg_tree_self_const (t, x)->n;
          guint64 inclusive = 0;
          for (CgFrameId z = 0; z < nx; z++)
            for (CgFrameId y = z; y != CG_NO_ID; y = cg_tree_parent (t, y))
              if (y == x)
                {
                  inclusive += cg_tree_self_const (t, z)->n;
                  break;
                }
          /* an ancestor inside the focus with the same function hides x;
           * the focus starts at the outermost chosen frame */
          CgFunctionId f = cg_tree_function (t, x);
          gboolean counted = TRUE;
          for (CgFrameId y = cg_tree_parent (t, x); y != CG_NO_ID; y = cg_tree_parent (t, y))
            {
              gboolean y_focused = FALSE;
              for (CgFrameId z = y; z != CG_NO_ID && !y_focused; z = cg_tree_parent (t, z))
                y_focused = chosen[cg_tree_function (t, z)];
              if (!y_focused)
                break;
              counted &= cg_tree_function (t, y) != f;
            }
          CgFrameId parent = cg_tree_parent (t, x);
          gboolean parent_focused = FALSE;
          for (CgFrameId z = parent; z != CG_NO_ID && !parent_focused; z = cg_tree_parent (t, z))
            parent_focused = chosen[cg_tree_function (t, z)];
          if (parent_focused)
            has_arc[cg_tree_function (t, parent)][f] = TRUE;
          if (!counted)
            continue;
          total[f] += inclusive;
          if (parent_focused)
            arc[cg_tree_function (t, parent)][f] += inclusive;
        }
      CgValue sum = CG_VALUE_ZERO;
      CU_ASSERT_TRUE (cg_graph_self_totals (g, &sum));
      CU_ASSERT_EQUAL (sum.n, all);
      guint n_arcs = 0;
      for (guint i = 0; i < nf; i++)
        {
          char name[8];
          g_snprintf (name, sizeof name, "%c", 'a' + i);
          CgFunctionId h = find (g, name);
          if (h == CG_NO_ID)
            {
              CU_ASSERT_EQUAL (total[i], 0);
              continue;
            }
          CU_ASSERT_EQUAL (cg_costs_total_const (c, h)[0].n, total[i]);
          for (guint j = 0; j < nf; j++)
            {
              char to[8];
              g_snprintf (to, sizeof to, "%c", 'a' + j);
              CgFunctionId k = find (g, to);
              CgArcId a = k == CG_NO_ID ? CG_NO_ID : cg_graph_lookup_arc (g, h, k);
              CU_ASSERT_EQUAL (a != CG_NO_ID, has_arc[i][j]);
              if (a != CG_NO_ID)
                CU_ASSERT_EQUAL (cg_costs_arc_const (c, a)[0].n, arc[i][j]);
              n_arcs += has_arc[i][j];
            }
        }
      CU_ASSERT_EQUAL (cg_graph_n_arcs (g), n_arcs);
    }
}

static void
test_match (void)
{
  CgFunctionId id[3];
  g_autoptr (CgProfile) p = tree_profile (3, id);
  CgGraph *g = cg_profile_graph (p);
  cg_graph_ensure_function (g, "libx.so", "a");
  g_autoptr (GRegex) re = g_regex_new ("^[ab]$", 0, 0, NULL);
  g_autoptr (GArray) m = cg_focus_match (g, re, NULL);
  CU_ASSERT_EQUAL (m->len, 3); /* a, b and a [libx.so] */
  g_autoptr (GArray) exact = cg_focus_match (g, NULL, "a [libx.so]");
  CU_ASSERT_EQUAL_FATAL (exact->len, 1);
  CU_ASSERT_STRING_EQUAL (cg_graph_function_object (g, g_array_index (exact, CgFunctionId, 0)), "libx.so");
  g_autoptr (GArray) none = cg_focus_match (g, NULL, "zz");
  CU_ASSERT_EQUAL (none->len, 0);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "a focused profile by hand", test_by_hand },
    { "random trees against brute-force Min_E", test_random_trees },
    { "choosing functions by regex and by name", test_match },
    { "contexts by hand", test_contexts_by_hand },
    { NULL, NULL },
  };
  return cg_test_main ("focus", cases);
}
