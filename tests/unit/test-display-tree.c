/* test-display-tree.c — Kaes's display tree: master nodes, links, and the
 * graphs where Kaes's rule alone would leave functions unreachable. */
#include "config.h"

#include <string.h>

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

/* @t written as text at @threshold (percent): a string to free, its
 * length in @len (nullable). */
static char *
render_text (Fixture *x, CgDisplayTree *t, double threshold, size_t *len)
{
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream (&buf, &n);
  CgTreeTextOptions o = { .view = { .threshold = threshold } };
  CU_ASSERT_TRUE (cg_write_tree_text (x->p, x->c, t, &o, f, NULL));
  fclose (f);
  if (len)
    *len = n;
  return buf;
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
  /* f is called from both; big has the larger total (Kaes's choice), but
   * the arc from small carries more of f, so the master node is under
   * small, and f's callees hang under the larger of f's two numbers */
  arc (&x, small, f, 9);
  arc (&x, big, f, 2);
  arc (&x, f, leaf, 5);
  g_autoptr (CgDisplayTree) t = build (&x);
  CU_ASSERT_EQUAL (cg_display_tree_n_roots (t), 1);
  CU_ASSERT_EQUAL (cg_display_tree_function (t, cg_display_tree_root (t, 0)), m);
  CU_ASSERT_EQUAL (parent_function (t, cg_display_tree_master (t, f)), small);
  /* one node per arc plus the root */
  CU_ASSERT_EQUAL (cg_display_tree_n_nodes (t), 1 + cg_graph_n_arcs (x.g));
  /* leaf hangs under f's master, and nowhere else */
  CU_ASSERT_EQUAL (cg_display_tree_parent (t, cg_display_tree_master (t, leaf)), cg_display_tree_master (t, f));
  guint n = 0;
  for (CgNodeId i = 0; i < cg_display_tree_node_bound (t); i++)
    n += cg_display_tree_function (t, i) == f;
  CU_ASSERT_EQUAL (n, 2);
  cg_profile_free (x.p);
}

/* Arcs that carry the same: the caller with the larger total, then the
 * later name. */
static void
test_tie_goes_to_larger_caller (void)
{
  Fixture x;
  fixture_init (&x);
  CgFunctionId m = add (&x, "main"), a = add (&x, "zeta"), b = add (&x, "beta"), f = add (&x, "f");
  cg_graph_spontaneous_mut (x.g, m)->n = 100;
  arc (&x, m, a, 30);
  arc (&x, m, b, 40);
  arc (&x, a, f, 1);
  arc (&x, b, f, 1);
  g_autoptr (CgDisplayTree) t = build (&x);
  CU_ASSERT_EQUAL (parent_function (t, cg_display_tree_master (t, f)), b);
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
  /* equal arcs, equal totals: the larger name */
  CU_ASSERT_EQUAL (parent_function (t, cg_display_tree_master (t, f)), b);
  cg_profile_free (x.p);
}

static void
test_stranded_and_rootless (void)
{
  Fixture x;
  fixture_init (&x);
  /* the arc into a that carries most is b's, and into b a's: the rule
   * alone reaches neither.  They are entered through z and y. */
  CgFunctionId m = add (&x, "main"), a = add (&x, "a"), b = add (&x, "b");
  CgFunctionId y = add (&x, "y"), z = add (&x, "z");
  cg_graph_spontaneous_mut (x.g, m)->n = 100;
  arc (&x, m, z, 10);
  arc (&x, m, y, 10);
  arc (&x, z, a, 4);
  arc (&x, y, b, 4);
  arc (&x, a, b, 6);
  arc (&x, b, a, 6);
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
   * first, under its only reached caller; the other follows the rule */
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
  size_t len = 0;
  char *buf = render_text (&x, t, 0.0, &len);
  guint lines = 0;
  for (size_t i = 0; i < len; i++)
    lines += buf[i] == '\n';
  CU_ASSERT_TRUE (lines > n);
  free (buf);
  /* folded (each function costs 1 of n, so each level loses 1e-4 %),
   * eight functions a line: no line longer than 64 levels of indentation
   * and eight names allow */
  for (guint i = 0; i < n; i++)
    cg_graph_self (x.g, i)->n = 1;
  buf = render_text (&x, t, 0.001, &len);
  lines = 0;
  size_t longest = 0, start = 0;
  for (size_t i = 0; i < len; i++)
    if (buf[i] == '\n')
      {
        lines++;
        longest = MAX (longest, i - start);
        start = i + 1;
      }
  CU_ASSERT_TRUE (lines > n / 8 && lines < n / 8 + 20);
  CU_ASSERT_TRUE (longest < 300);
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
  char *buf = render_text (&x, t, 1.0, NULL);
  /* f's master is under small, whose call carries most of it; the call
   * from big is a link below the threshold, hidden.  f's self (95) is
   * more than the call's 90, so its line says f's total beside.
   * Columns: incl%, self%, incl, self (as wide as their titles), calls
   * (at least as wide as their title); nothing folds: big loses 89.5 %
   * to its own cost, small 1 % (not less than the threshold) */
  CU_ASSERT_PTR_NOT_NULL (strstr (buf, "  incl%   self% incl Ir self Ir calls  function\n"
                                       " 100.00    0.00   1,000       0        main\n"
                                       "  90.00   89.50     900     895     1  |-big\n"
                                       "  10.00    1.00     100      10     1  `-small\n"
                                       "   9.00    9.50      90      95     1    `-f (9.50% in all)\n"));
  free (buf);
  cg_profile_free (x.p);
}


/* A function's total printed as a cost (its percentage prints as the
 * call's) carries the unit of the columns, which scale a time profile's
 * seconds: "(90.01 µs in all)" under "incl µs", not "90.01 seconds" (a
 * 4-thread C++ program's profile said "(119.12 seconds in all)" beside
 * 119.11 in a column of milliseconds). */
static void
test_text_total_unit (void)
{
  Fixture x = { 0 };
  x.p = cg_profile_new ();
  x.g = cg_profile_graph (x.p);
  guint e;
  cg_graph_ensure_event (x.g, "cpu-time", "seconds", CG_KIND_INTEGER, &e, NULL);
  cg_graph_set_event_scale (x.g, e, 1e-9);
  cg_graph_set_has_inclusive (x.g, TRUE);
  CgFunctionId m = add (&x, "main"), big = add (&x, "big"), small = add (&x, "small"), f = add (&x, "f");
  /* 999 ms in all, so that f's total and call print alike as
   * percentages (9.00) and not as costs (89.92 and 89.91 ms): where both
   * print alike no total is shown */
  cg_graph_spontaneous_mut (x.g, m)->n = 999000000;
  arc (&x, m, big, 899100000);
  arc (&x, m, small, 99900000);
  arc (&x, small, f, 89910000);
  arc (&x, big, f, 9990); /* below the threshold */
  cg_graph_self (x.g, big)->n = 899090010;
  cg_graph_self (x.g, small)->n = 9990000;
  cg_graph_self (x.g, f)->n = 89919990;
  g_autoptr (CgDisplayTree) t = build (&x);
  char *buf = render_text (&x, t, 1.0, NULL);
  const char *line = strstr (buf, "`-f (");
  CU_ASSERT_PTR_NOT_NULL_FATAL (line);
  const char *unit = strstr (buf, "incl ");
  CU_ASSERT_PTR_NOT_NULL_FATAL (unit);
  g_autofree char *want = g_strdup_printf (" %.*s in all)\n", (int) strcspn (unit + 5, " "), unit + 5);
  CU_ASSERT_PTR_NOT_NULL (strstr (line, want));
  CU_ASSERT_PTR_NULL (strstr (buf, "seconds in all"));
  free (buf);
  cg_profile_free (x.p);
}

static void
test_inverted (void)
{
  Fixture x;
  fixture_init (&x);
  CgFunctionId m = add (&x, "main"), a = add (&x, "a"), b = add (&x, "b"), leaf = add (&x, "leaf");
  cg_graph_spontaneous_mut (x.g, m)->n = 100;
  arc (&x, m, a, 60);
  arc (&x, m, b, 30);
  arc (&x, a, leaf, 10);
  arc (&x, b, leaf, 20);
  x.c = cg_method_ensure (x.p, CG_METHOD_MEASURED, NULL);
  CgDisplayTreeOptions o = { .event = 0, .inverted = TRUE };
  g_autoptr (CgDisplayTree) t = cg_display_tree_new_full (x.g, x.c, &o);
  CU_ASSERT_TRUE (cg_display_tree_is_inverted (t));
  /* leaf calls nobody: the only root; its children are its callers */
  CU_ASSERT_EQUAL (cg_display_tree_n_roots (t), 1);
  CgNodeId r = cg_display_tree_root (t, 0);
  CU_ASSERT_EQUAL (cg_display_tree_function (t, r), leaf);
  guint n;
  const CgNodeId *kids = cg_display_tree_children (t, r, &n);
  CU_ASSERT_EQUAL_FATAL (n, 2);
  CU_ASSERT_EQUAL (cg_display_tree_function (t, kids[0]), a);
  CU_ASSERT_EQUAL (cg_graph_arc_callee (x.g, cg_display_tree_arc (t, kids[0])), leaf);
  CU_ASSERT_EQUAL (cg_display_tree_function (t, kids[1]), b);
  /* main's callees (its parents here) are a (total 60) and b (30): its
   * callers are listed under a */
  CU_ASSERT_EQUAL (parent_function (t, cg_display_tree_master (t, m)), a);
  CU_ASSERT_EQUAL (cg_display_tree_n_nodes (t), 1 + cg_graph_n_arcs (x.g));
  cg_profile_free (x.p);
}

static void
test_given_roots (void)
{
  Fixture x;
  fixture_init (&x);
  CgFunctionId m = add (&x, "main"), a = add (&x, "a"), b = add (&x, "b"), f = add (&x, "f"), g = add (&x, "g");
  cg_graph_spontaneous_mut (x.g, m)->n = 100;
  arc (&x, m, a, 20);
  arc (&x, m, b, 70);
  arc (&x, a, f, 10);
  arc (&x, b, f, 10);
  arc (&x, f, g, 5);
  arc (&x, g, a, 1); /* a cycle back to the root */
  x.c = cg_method_ensure (x.p, CG_METHOD_MEASURED, NULL);
  CgFunctionId roots[] = { a };
  CgDisplayTreeOptions o = { .event = 0, .roots = roots, .n_roots = 1 };
  g_autoptr (CgDisplayTree) t = cg_display_tree_new_full (x.g, x.c, &o);
  CU_ASSERT_EQUAL (cg_display_tree_n_roots (t), 1);
  CU_ASSERT_EQUAL (cg_display_tree_function (t, cg_display_tree_root (t, 0)), a);
  /* b has the larger total but a's tree does not reach it */
  CU_ASSERT_EQUAL (parent_function (t, cg_display_tree_master (t, f)), a);
  CU_ASSERT_EQUAL (cg_display_tree_master (t, m), CG_NO_ID);
  CU_ASSERT_EQUAL (cg_display_tree_master (t, b), CG_NO_ID);
  /* the root stays the root although g calls it; g -> a is a link */
  CU_ASSERT_EQUAL (cg_display_tree_parent (t, cg_display_tree_master (t, a)), CG_NO_ID);
  CU_ASSERT_EQUAL (cg_display_tree_n_nodes (t), 4); /* a, a->f, f->g, g->a */
  cg_profile_free (x.p);
}

/* Start-up code (the loader's entry, _start, __libc_start_main) is
 * passed over: main becomes the root; the loader's own work beside it.
 * Labels for cgtree's views: an address without its zeros and with its
 * object, objects by file name unless two share one. */
static void
test_startup_and_labels (void)
{
  Fixture x;
  fixture_init (&x);
  CgFunctionId entry = cg_graph_ensure_function (x.g, "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
                                                 "0x000000000001ab70");
  CgFunctionId dl = cg_graph_ensure_function (x.g, "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", "_dl_start");
  CgFunctionId start = cg_graph_ensure_function (x.g, "/a/prog", "_start");
  CgFunctionId libc = cg_graph_ensure_function (x.g, "/usr/lib/libc.so.6", "__libc_start_main@@GLIBC_2.34");
  CgFunctionId m = cg_graph_ensure_function (x.g, "/a/prog", "main");
  CgFunctionId f = cg_graph_ensure_function (x.g, "/a/lib.so", "f");
  CgFunctionId g = cg_graph_ensure_function (x.g, "/b/lib.so", "g");
  /* an address in another object than the loader is no entry */
  CgFunctionId other = cg_graph_ensure_function (x.g, "/a/prog", "0x0000000000401000");
  cg_graph_spontaneous_mut (x.g, entry)->n = 100;
  arc (&x, entry, dl, 5);
  arc (&x, entry, start, 95);
  arc (&x, start, libc, 95);
  arc (&x, libc, m, 94);
  arc (&x, m, f, 50);
  arc (&x, m, g, 40);
  arc (&x, m, other, 1);
  guint n_found;
  g_autofree guint8 *startup = cg_startup_functions (x.g, &n_found);
  CU_ASSERT_EQUAL (n_found, 3);
  CU_ASSERT_TRUE (startup[entry] && startup[start] && startup[libc]);
  CU_ASSERT_FALSE (startup[m] || startup[dl] || startup[other]);

  x.c = cg_method_ensure (x.p, CG_METHOD_MEASURED, NULL);
  CgDisplayTreeOptions o = { .event = 0, .skip = startup };
  g_autoptr (CgDisplayTree) t = cg_display_tree_new_full (x.g, x.c, &o);
  CU_ASSERT_EQUAL_FATAL (cg_display_tree_n_roots (t), 2);
  CU_ASSERT_EQUAL (cg_display_tree_function (t, cg_display_tree_root (t, 0)), m);
  CU_ASSERT_EQUAL (cg_display_tree_function (t, cg_display_tree_root (t, 1)), dl);
  CU_ASSERT_EQUAL (cg_display_tree_master (t, entry), CG_NO_ID);
  CU_ASSERT_EQUAL (cg_display_tree_n_nodes (t), 5); /* main, _dl_start, f, g, 0x401000 */

  g_autoptr (CgNames) names = cg_names_new (x.g, TRUE);
  g_autoptr (GString) s = g_string_new (NULL);
  /* the reports keep the address whole, and give its object too */
  cg_names_append_label (names, s, entry);
  CU_ASSERT_STRING_EQUAL (s->str, "0x000000000001ab70 [ld-linux-x86-64.so.2]");
  cg_names_set_short (names);
  g_string_truncate (s, 0);
  cg_names_append_label (names, s, entry);
  CU_ASSERT_STRING_EQUAL (s->str, "0x1ab70 [ld-linux-x86-64.so.2]");
  g_string_truncate (s, 0);
  cg_names_append_label (names, s, other);
  CU_ASSERT_STRING_EQUAL (s->str, "0x401000 [prog]");
  CU_ASSERT_STRING_EQUAL (cg_names_object (names, m), "prog");
  CU_ASSERT_STRING_EQUAL (cg_names_object (names, f), "/a/lib.so");
  CU_ASSERT_STRING_EQUAL (cg_names_object (names, g), "/b/lib.so");
  cg_profile_free (x.p);
}

/* ---- random graphs against a brute-force master rule ---- */

static int
kaes_compare (CgGraph *g, const CgCosts *c, CgFunctionId a, CgFunctionId b)
{
  guint64 ta = cg_costs_total_const (c, a)[0].n, tb = cg_costs_total_const (c, b)[0].n;
  if (ta != tb)
    return ta < tb ? -1 : 1;
  int d = strcmp (cg_graph_function_name (g, a), cg_graph_function_name (g, b));
  return d != 0 ? d : (a > b) - (a < b);
}

/* A random graph: @nf functions with names from a small alphabet (so
 * that names tie), arcs forward only when @dag, random costs. */
static void
random_graph (Fixture *x, GRand *r, guint nf, gboolean dag)
{
  fixture_init (x);
  for (guint i = 0; i < nf; i++)
    {
      char name[16];
      g_snprintf (name, sizeof name, "f%u", g_rand_int_range (r, 0, nf));
      /* distinct functions: the object tells them apart */
      char object[16];
      g_snprintf (object, sizeof object, "o%u", i);
      cg_graph_ensure_function (x->g, object, name);
      if (g_rand_int_range (r, 0, 3) == 0)
        cg_graph_spontaneous_mut (x->g, i)->n = g_rand_int_range (r, 0, 8);
    }
  guint na = g_rand_int_range (r, 0, 3 * nf);
  for (guint k = 0; k < na; k++)
    {
      guint a = g_rand_int_range (r, 0, nf), b = g_rand_int_range (r, 0, nf);
      if (dag && a >= b)
        continue;
      arc (x, a, b, g_rand_int_range (r, 0, 6));
    }
  x->c = cg_method_ensure (x->p, CG_METHOD_MEASURED, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (x->c);
}

/* Structure every display tree has, whatever the graph: one master per
 * function in scope, masters hang under masters, one node per root and
 * per arc leaving a function in scope. */
static void
check_structure (CgGraph *g, CgDisplayTree *t, const guint8 *in_scope, gboolean inverted)
{
  guint nf = cg_graph_n_functions (g), expected = cg_display_tree_n_roots (t);
  for (CgFunctionId f = 0; f < nf; f++)
    {
      CgNodeId m = cg_display_tree_master (t, f);
      CU_ASSERT_EQUAL (m != CG_NO_ID, in_scope[f] != 0);
      if (m == CG_NO_ID)
        continue;
      CU_ASSERT_EQUAL (cg_display_tree_function (t, m), f);
      for (CgNodeId n = cg_display_tree_parent (t, m); n != CG_NO_ID; n = cg_display_tree_parent (t, n))
        CU_ASSERT_TRUE (cg_display_tree_is_master (t, n));
      guint n;
      (inverted ? cg_graph_in_arcs : cg_graph_out_arcs) (g, f, &n);
      expected += n;
    }
  CU_ASSERT_EQUAL (cg_display_tree_n_nodes (t), expected);
  guint n_nodes = 0;
  for (CgNodeId n = 0; n < cg_display_tree_node_bound (t); n++)
    {
      if (!cg_display_tree_has_node (t, n))
        continue;
      n_nodes++;
      guint nc;
      const CgNodeId *children = cg_display_tree_children (t, n, &nc);
      if (!cg_display_tree_is_master (t, n))
        CU_ASSERT_EQUAL (nc, 0);
      for (guint i = 0; i < nc; i++)
        CU_ASSERT_EQUAL (cg_display_tree_parent (t, children[i]), n);
      CgArcId a = cg_display_tree_arc (t, n);
      if (a == CG_NO_ID)
        continue;
      /* a node's id is its arc's */
      CU_ASSERT_EQUAL (a, n);
      /* a node stands for an arc between its parent's function and its own */
      CgFunctionId up = cg_display_tree_function (t, cg_display_tree_parent (t, n));
      CgFunctionId down = cg_display_tree_function (t, n);
      CU_ASSERT_EQUAL (inverted ? cg_graph_arc_callee (g, a) : cg_graph_arc_caller (g, a), up);
      CU_ASSERT_EQUAL (inverted ? cg_graph_arc_caller (g, a) : cg_graph_arc_callee (g, a), down);
    }
  CU_ASSERT_EQUAL (n_nodes, expected);
}

static void
test_random_graphs (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (6);
  for (guint round = 0; round < 300; round++)
    {
      Fixture x;
      gboolean dag = round % 2 == 0, inverted = round % 3 == 1, rooted = round % 5 >= 3;
      guint nf = g_rand_int_range (r, 1, 30);
      random_graph (&x, r, nf, dag);
      g_autofree guint8 *in_scope = g_new0 (guint8, nf);
      CgFunctionId root = g_rand_int_range (r, 0, nf);
      CgDisplayTreeOptions o = { .event = 0, .inverted = inverted };
      if (rooted)
        {
          o.roots = &root;
          o.n_roots = 1;
          /* brute force reachability: relax until nothing changes */
          in_scope[root] = 1;
          for (gboolean changed = TRUE; changed;)
            {
              changed = FALSE;
              for (CgArcId a = 0; a < cg_graph_n_arcs (x.g); a++)
                {
                  CgFunctionId from = cg_graph_arc_caller (x.g, a), to = cg_graph_arc_callee (x.g, a);
                  if (inverted)
                    {
                      CgFunctionId tmp = from;
                      from = to;
                      to = tmp;
                    }
                  if (in_scope[from] && !in_scope[to])
                    in_scope[to] = changed = TRUE;
                }
            }
        }
      else
        memset (in_scope, 1, nf);
      g_autoptr (CgDisplayTree) t = cg_display_tree_new_full (x.g, x.c, &o);
      check_structure (x.g, t, in_scope, inverted);
      if (dag && !rooted)
        for (CgFunctionId f = 0; f < nf; f++)
          {
            /* on a DAG, the rule alone places everything: the master is
             * under the caller whose arc carries most, then by (total,
             * name), or a root where the spontaneous cost is more */
            CgFunctionId best = CG_NO_ID;
            guint64 best_value = 0;
            for (CgArcId a = 0; a < cg_graph_n_arcs (x.g); a++)
              {
                CgFunctionId from = cg_graph_arc_caller (x.g, a), to = cg_graph_arc_callee (x.g, a);
                CgFunctionId parent = inverted ? to : from, child = inverted ? from : to;
                guint64 value = cg_costs_arc_const (x.c, a)[0].n;
                if (child == f
                    && (best == CG_NO_ID || value > best_value
                        || (value == best_value && kaes_compare (x.g, x.c, parent, best) > 0)))
                  {
                    best = parent;
                    best_value = value;
                  }
              }
            /* unless what nobody called carried more: a root */
            const CgValue *sp = cg_graph_spontaneous (x.g, f);
            if (!inverted && sp && sp[0].n > best_value)
              best = CG_NO_ID;
            CU_ASSERT_EQUAL (parent_function (t, cg_display_tree_master (t, f)), best);
          }
      cg_profile_free (x.p);
    }
}

/* Roots (here every function: there are no arcs) come largest total
 * first, by name among equal totals (then object, then index), for
 * integer totals that differ in any byte and for real ones, -0 and +0
 * equal: brute force on random sets full of ties. */
static void
test_root_order (void)
{
  static const guint64 integers[] = { 0, 1, 255, 256, 65536, G_GUINT64_CONSTANT (1) << 40,
                                      G_GUINT64_CONSTANT (0x0100000000000001), G_MAXUINT64 };
  static const gdouble reals[] = { 0.0, -0.0, 1e-300, 0.25, 0.5, 3.0, 1e10, -2.0 };
  g_autoptr (GRand) r = g_rand_new_with_seed (11);
  for (guint round = 0; round < 200; round++)
    {
      CgKind kind = round % 2 ? CG_KIND_REAL : CG_KIND_INTEGER;
      g_autoptr (CgProfile) p = cg_profile_new ();
      CgGraph *g = cg_profile_graph (p);
      guint e;
      cg_graph_ensure_event (g, "t", "s", kind, &e, NULL);
      cg_graph_set_has_inclusive (g, TRUE);
      guint nf = g_rand_int_range (r, 1, 60);
      for (guint i = 0; i < nf; i++)
        {
          char name[8], object[8];
          g_snprintf (name, sizeof name, "f%d", g_rand_int_range (r, 0, 5));
          g_snprintf (object, sizeof object, "o%d", g_rand_int_range (r, 0, 3));
          CgFunctionId f = cg_graph_ensure_function (g, object, name);
          guint k = g_rand_int_range (r, 0, 8);
          /* with no arcs, a measured total is what was spontaneous */
          if (kind == CG_KIND_REAL)
            cg_graph_self (g, f)->x = cg_graph_spontaneous_mut (g, f)->x = reals[k];
          else
            cg_graph_self (g, f)->n = cg_graph_spontaneous_mut (g, f)->n = integers[k];
        }
      CgCosts *c = cg_method_ensure (p, CG_METHOD_MEASURED, NULL);
      CU_ASSERT_PTR_NOT_NULL_FATAL (c);
      g_autoptr (CgDisplayTree) t = cg_display_tree_new (g, c, 0);
      CU_ASSERT_EQUAL_FATAL (cg_display_tree_n_roots (t), cg_graph_n_functions (g));
      for (guint i = 1; i < cg_display_tree_n_roots (t); i++)
        {
          CgFunctionId a = cg_display_tree_function (t, cg_display_tree_root (t, i - 1));
          CgFunctionId b = cg_display_tree_function (t, cg_display_tree_root (t, i));
          CgValue ta = cg_costs_total_const (c, a)[0], tb = cg_costs_total_const (c, b)[0];
          int by_total = kind == CG_KIND_REAL ? (ta.x > tb.x) - (ta.x < tb.x) : (ta.n > tb.n) - (ta.n < tb.n);
          int by_name = strcmp (cg_graph_function_name (g, a), cg_graph_function_name (g, b));
          if (by_name == 0)
            by_name = strcmp (cg_graph_function_object (g, a), cg_graph_function_object (g, b));
          if (by_name == 0)
            by_name = (a > b) - (a < b);
          CU_ASSERT_TRUE (by_total > 0 || (by_total == 0 && by_name < 0));
        }
    }
}

/* The view shows what passes the threshold under shown parents, plus
 * the masters of shown links and their ancestors, nothing else. */
static void
test_random_views (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (66);
  for (guint round = 0; round < 200; round++)
    {
      Fixture x;
      guint nf = g_rand_int_range (r, 1, 25);
      random_graph (&x, r, nf, round % 2 == 0);
      for (CgFunctionId f = 0; f < nf; f++)
        cg_graph_self (x.g, f)->n = g_rand_int_range (r, 0, 10);
      g_autoptr (CgDisplayTree) t = cg_display_tree_new (x.g, x.c, 0);
      CgTreeViewOptions o = { .threshold = g_rand_int_range (r, 0, 4) * 10.0,
                              .max_depth = g_rand_int_range (r, 0, 4),
                              .sort = (CgTreeSort) g_rand_int_range (r, 0, 4) };
      g_autoptr (CgTreeView) v = cg_tree_view_new (x.p, x.c, t, &o, NULL);
      CU_ASSERT_PTR_NOT_NULL_FATAL (v);
      guint nn = cg_display_tree_node_bound (t);
      g_autofree guint8 *shown = g_new0 (guint8, nn);
      g_autofree guint8 *forced = g_new0 (guint8, nn);
      for (guint i = 0; i < cg_tree_view_n_lines (v); i++)
        {
          const CgTreeLine *line = cg_tree_view_line (v, i);
          CU_ASSERT_FALSE (shown[line->node]);
          shown[line->node] = 1;
          /* children follow their parent, in the parent's count */
          CgNodeId p = cg_display_tree_parent (t, line->node);
          CU_ASSERT_TRUE (p == CG_NO_ID || shown[p]);
          CU_ASSERT_EQUAL (line->depth == 0, p == CG_NO_ID);
        }
      for (guint i = 0; i < cg_tree_view_n_lines (v); i++)
        {
          CgNodeId n = cg_tree_view_line (v, i)->node;
          if (cg_display_tree_is_master (t, n))
            continue;
          for (CgNodeId m = cg_display_tree_master (t, cg_display_tree_function (t, n)); m != CG_NO_ID;
               m = cg_display_tree_parent (t, m))
            {
              CU_ASSERT_TRUE (shown[m]);
              forced[m] = 1;
            }
          CU_ASSERT_TRUE (cg_tree_view_link_number (v, cg_display_tree_function (t, n)) > 0);
        }
      for (CgNodeId n = 0; n < nn; n++)
        {
          CU_ASSERT_EQUAL_FATAL (cg_display_tree_has_node (t, n), TRUE); /* no given roots */
          guint depth = 1;
          for (CgNodeId p = cg_display_tree_parent (t, n); p != CG_NO_ID; p = cg_display_tree_parent (t, p))
            depth++;
          CgNodeId p = cg_display_tree_parent (t, n);
          gboolean passes = cg_tree_view_node_percent (v, n) >= o.threshold
                            && (o.max_depth == 0 || depth <= o.max_depth) && (p == CG_NO_ID || shown[p]);
          CU_ASSERT_EQUAL (shown[n] != 0, passes || forced[n]);
        }
      cg_profile_free (x.p);
    }
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "the master node is under the call that carries most", test_master_under_costliest_caller },
    { "ties go to the larger caller", test_tie_goes_to_larger_caller },
    { "ties go to the later name", test_tie_goes_to_later_name },
    { "stranded functions and rootless cycles are placed", test_stranded_and_rootless },
    { "a million-deep chain", test_million_deep },
    { "text: links lead to shown masters", test_text_links_and_threshold },
    { "text: a total printed as a cost has the columns' unit", test_text_total_unit },
    { "inverted: callers under the costliest callee", test_inverted },
    { "given roots: only what they reach", test_given_roots },
    { "start-up code passed over, short labels", test_startup_and_labels },
    { "random graphs: structure, and the master rule on DAGs", test_random_graphs },
    { "roots in Kaes's order, integer and real totals", test_root_order },
    { "random views: threshold, depth and forced masters", test_random_views },
    { NULL, NULL },
  };
  return cg_test_main ("display-tree", cases);
}
