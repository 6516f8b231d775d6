/* test-display-tree.c — Kaes's display tree: master nodes, links, and the
 * graphs where Kaes's rule alone would leave functions unreachable. */
#include "config.h"

#include "cg-test.h"

/* A graph with measured costs given directly: totals[] per function. */
typedef struct {
  CgProfile *p;
  CgGraph *g;
  CgCosts *c;
} Fixture;

static CgFunctionId
add (Fixture *x, const char *name)
{
  return cg_graph_ensure_function (x->g, "", name);
}

static void
fixture_init (Fixture *x)
{
  x->p = cg_profile_new ();
  x->g = cg_profile_graph (x->p);
  guint e;
  cg_graph_ensure_event (x->g, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL);
  cg_graph_set_has_inclusive (x->g, TRUE);
}

static CgArcId
arc (Fixture *x, CgFunctionId from, CgFunctionId to, guint64 inclusive)
{
  CgArcId a = cg_graph_ensure_arc (x->g, from, to);
  cg_graph_arc_add_calls (x->g, a, 1);
  cg_graph_arc_inclusive (x->g, a)->n = inclusive;
  return a;
}

static CgDisplayTree *
build (Fixture *x)
{
  x->c = cg_method_ensure (x->p, CG_METHOD_MEASURED, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (x->c);
  return cg_display_tree_new (x->g, x->c, 0);
}

static CgFunctionId
parent_function (CgDisplayTree *t, CgNodeId n)
{
  CgNodeId p = cg_display_tree_parent (t, n);
  return p == CG_NO_ID ? CG_NO_ID : cg_display_tree_function (t, p);
}

static void
test_master_under_costliest_caller (void)
{
  Fixture x;
  fixture_init (&x);
  CgFunctionId m = add (&x, "main"), big = add (&x, "big"), small = add (&x, "small"), f = add (&x, "f");
  CgFunctionId leaf = add (&x, "leaf");
  cg_graph_spontaneous_mut (x.g, m)->n = 100;
  arc (&x, m, big, 80);
  arc (&x, m, small, 10);
  /* f is called from both; the arc from small carries more of f, but big
   * has the larger total, so the master node is under big (Kaes) */
  arc (&x, small, f, 9);
  arc (&x, big, f, 2);
  arc (&x, f, leaf, 5);
  g_autoptr (CgDisplayTree) t = build (&x);
  CU_ASSERT_EQUAL (cg_display_tree_n_roots (t), 1);
  CU_ASSERT_EQUAL (cg_display_tree_function (t, cg_display_tree_root (t, 0)), m);
  CU_ASSERT_EQUAL (parent_function (t, cg_display_tree_master (t, f)), big);
  /* one node per arc plus the root */
  CU_ASSERT_EQUAL (cg_display_tree_n_nodes (t), 1 + cg_graph_n_arcs (x.g));
  /* leaf hangs under f's master, and nowhere else */
  CU_ASSERT_EQUAL (cg_display_tree_parent (t, cg_display_tree_master (t, leaf)), cg_display_tree_master (t, f));
  guint n = 0;
  for (CgNodeId i = 0; i < cg_display_tree_n_nodes (t); i++)
    n += cg_display_tree_function (t, i) == f;
  CU_ASSERT_EQUAL (n, 2);
  cg_profile_free (x.p);
}

static void
test_tie_goes_to_later_name (void)
{
  Fixture x;
  fixture_init (&x);
  CgFunctionId m = add (&x, "main"), a = add (&x, "alpha"), b = add (&x, "beta"), f = add (&x, "f");
  cg_graph_spontaneous_mut (x.g, m)->n = 100;
  arc (&x, m, a, 40);
  arc (&x, m, b, 40);
  arc (&x, a, f, 1);
  arc (&x, b, f, 1);
  g_autoptr (CgDisplayTree) t = build (&x);
  /* max over (c_t(g), g): equal totals, so the larger name */
  CU_ASSERT_EQUAL (parent_function (t, cg_display_tree_master (t, f)), b);
  cg_profile_free (x.p);
}

static void
test_stranded_and_rootless (void)
{
  Fixture x;
  fixture_init (&x);
  /* a's costliest caller is b and b's is a: Kaes's rule alone reaches
   * neither.  They are entered through z and y. */
  CgFunctionId m = add (&x, "main"), a = add (&x, "a"), b = add (&x, "b");
  CgFunctionId y = add (&x, "y"), z = add (&x, "z");
  cg_graph_spontaneous_mut (x.g, m)->n = 100;
  arc (&x, m, z, 10);
  arc (&x, m, y, 10);
  arc (&x, z, a, 10);
  arc (&x, y, b, 10);
  arc (&x, a, b, 5);
  arc (&x, b, a, 5);
  /* and a cycle that nothing calls */
  CgFunctionId p = add (&x, "p"), q = add (&x, "q");
  arc (&x, p, q, 3);
  arc (&x, q, p, 4);
  g_autoptr (CgDisplayTree) t = build (&x);
  for (CgFunctionId f = 0; f < cg_graph_n_functions (x.g); f++)
    {
      CgNodeId master = cg_display_tree_master (t, f);
      CU_ASSERT_NOT_EQUAL_FATAL (master, CG_NO_ID);
      CU_ASSERT_EQUAL (cg_display_tree_function (t, master), f);
      /* every master is reachable from a root through masters */
      CgNodeId n = master;
      while (cg_display_tree_parent (t, n) != CG_NO_ID)
        {
          n = cg_display_tree_parent (t, n);
          CU_ASSERT_TRUE (cg_display_tree_is_master (t, n));
        }
    }
  /* of the stranded pair the larger (by name, as totals tie) is placed
   * first, under its only reached caller; the other follows Kaes's rule */
  CU_ASSERT_EQUAL (parent_function (t, cg_display_tree_master (t, b)), y);
  CU_ASSERT_EQUAL (parent_function (t, cg_display_tree_master (t, a)), b);
  /* main, and the larger of the unreachable p and q, are roots */
  CU_ASSERT_EQUAL (cg_display_tree_n_roots (t), 2);
  CU_ASSERT_EQUAL (cg_display_tree_function (t, cg_display_tree_root (t, 1)), p);
  CU_ASSERT_EQUAL (parent_function (t, cg_display_tree_master (t, q)), p);
  CU_ASSERT_EQUAL (cg_display_tree_n_nodes (t), 2 + cg_graph_n_arcs (x.g));
  cg_profile_free (x.p);
}

static void
test_million_deep (void)
{
  Fixture x;
  fixture_init (&x);
  const guint n = 1000000;
  for (guint i = 0; i < n; i++)
    {
      char name[16];
      g_snprintf (name, sizeof name, "f%u", i);
      add (&x, name);
    }
  cg_graph_spontaneous_mut (x.g, 0)->n = n;
  for (guint i = 0; i + 1 < n; i++)
    arc (&x, i, i + 1, n - i - 1);
  g_autoptr (CgDisplayTree) t = build (&x);
  CU_ASSERT_EQUAL (cg_display_tree_n_nodes (t), n);
  CU_ASSERT_EQUAL (cg_display_tree_function (t, cg_display_tree_master (t, n - 1)), n - 1);
  /* and its text, with no depth limit */
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  CgTreeTextOptions o = { .view = { .threshold = 0.0 } };
  CU_ASSERT_TRUE (cg_write_tree_text (x.p, x.c, t, &o, f, NULL));
  fclose (f);
  guint lines = 0;
  for (size_t i = 0; i < len; i++)
    lines += buf[i] == '\n';
  CU_ASSERT_TRUE (lines > n);
  free (buf);
  cg_profile_free (x.p);
}

static void
test_text_links_and_threshold (void)
{
  Fixture x;
  fixture_init (&x);
  CgFunctionId m = add (&x, "main"), big = add (&x, "big"), small = add (&x, "small"), f = add (&x, "f");
  cg_graph_spontaneous_mut (x.g, m)->n = 1000;
  arc (&x, m, big, 900);
  arc (&x, m, small, 100);
  arc (&x, small, f, 90);
  arc (&x, big, f, 5); /* the master, below a 1% threshold */
  cg_graph_self (x.g, big)->n = 895;
  cg_graph_self (x.g, small)->n = 10;
  cg_graph_self (x.g, f)->n = 95;
  g_autoptr (CgDisplayTree) t = build (&x);
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&buf, &len);
  CgTreeTextOptions o = { .view = { .threshold = 1.0 } };
  CU_ASSERT_TRUE (cg_write_tree_text (x.p, x.c, t, &o, out, NULL));
  fclose (out);
  /* the link under small is shown, so its master under big is too;
   * columns: incl%, self%, incl, self (as wide as the total, 1,000),
   * calls (at least as wide as their title); nothing folds: big loses
   * 89.5 % to its own cost, small 1 % (not less than the threshold) */
  CU_ASSERT_PTR_NOT_NULL (strstr (buf, "  incl%   self%  incl  self calls  function\n"
                                       " 100.00    0.00 1,000     0        main\n"
                                       "  90.00   89.50   900   895     1  |-big\n"
                                       "   0.50    9.50     5    95     1  | `-f [1]\n"
                                       "  10.00    1.00   100    10     1  `-small\n"
                                       "   9.00            90           1    `-f -> [1]\n"));
  free (buf);
  cg_profile_free (x.p);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "the master node is under the costliest caller", test_master_under_costliest_caller },
    { "ties go to the later name", test_tie_goes_to_later_name },
    { "stranded functions and rootless cycles are placed", test_stranded_and_rootless },
    { "a million-deep chain", test_million_deep },
    { "text: links lead to shown masters", test_text_links_and_threshold },
    { NULL, NULL },
  };
  return cg_test_main ("display-tree", cases);
}
