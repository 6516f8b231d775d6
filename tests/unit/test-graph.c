/* test-graph.c — the graph core: identity, interning, events, arcs. */
#include "config.h"

#include "cg-test.h"

static void
test_function_identity (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  CgFunctionId a = cg_graph_ensure_function (g, "libc.so", "mmap");
  CgFunctionId b = cg_graph_ensure_function (g, "ld.so", "mmap");
  CgFunctionId c = cg_graph_ensure_function (g, "libc.so", "mmap");
  CU_ASSERT_NOT_EQUAL (a, b);
  CU_ASSERT_EQUAL (a, c);
  CU_ASSERT_EQUAL (cg_graph_n_functions (g), 2);
  CU_ASSERT_EQUAL (cg_graph_lookup_function (g, "ld.so", "mmap"), b);
  CU_ASSERT_EQUAL (cg_graph_lookup_function (g, "ld.so", "munmap"), CG_NO_ID);
  /* ambiguous names carry their object */
  CgFunctionId m = cg_graph_ensure_function (g, "prog", "main");
  g_autoptr (GString) s = g_string_new (NULL);
  cg_graph_append_label (g, s, b);
  CU_ASSERT_STRING_EQUAL (s->str, "mmap [ld.so]");
  g_string_truncate (s, 0);
  cg_graph_append_label (g, s, m);
  CU_ASSERT_STRING_EQUAL (s->str, "main");
}

static void
test_sanitized_names (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  const char *bad = cg_graph_intern (g, "a\tb\xff" "c\n", -1);
  CU_ASSERT_STRING_EQUAL (bad, "a\\x09b\\xFFc\\x0A");
  const char *utf8 = cg_graph_intern (g, "caf\xc3\xa9", -1);
  CU_ASSERT_STRING_EQUAL (utf8, "caf\xc3\xa9"); /* valid UTF-8 stays */
  CU_ASSERT_PTR_EQUAL (cg_graph_intern (g, "caf\xc3\xa9", -1), utf8);
  /* a length-limited name is cut, not read past */
  CU_ASSERT_STRING_EQUAL (cg_graph_intern (g, "abcdef", 3), "abc");
}

static void
test_events_grow_and_promote (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  guint ir, dr, again;
  CU_ASSERT_TRUE (cg_graph_ensure_event (g, "Ir", "Ir", CG_KIND_INTEGER, &ir, NULL));
  CgFunctionId f = cg_graph_ensure_function (g, "", "f");
  CgFunctionId h = cg_graph_ensure_function (g, "", "h");
  CgArcId a = cg_graph_ensure_arc (g, f, h);
  cg_graph_self (g, f)[ir].n = 10;
  cg_graph_self (g, h)[ir].n = 20;
  cg_graph_arc_inclusive (g, a)[ir].n = 20;
  /* a second event: old values stay, new ones are zero */
  CU_ASSERT_TRUE (cg_graph_ensure_event (g, "Dr", "Dr", CG_KIND_INTEGER, &dr, NULL));
  CU_ASSERT_EQUAL (dr, 1);
  CU_ASSERT_EQUAL (cg_graph_self (g, f)[ir].n, 10);
  CU_ASSERT_EQUAL (cg_graph_self (g, h)[ir].n, 20);
  CU_ASSERT_EQUAL (cg_graph_self (g, h)[dr].n, 0);
  CU_ASSERT_EQUAL (cg_graph_arc_inclusive (g, a)[ir].n, 20);
  /* an integer event meeting real values becomes real */
  CU_ASSERT_TRUE (cg_graph_ensure_event (g, "Ir", "Ir", CG_KIND_REAL, &again, NULL));
  CU_ASSERT_EQUAL (again, ir);
  CU_ASSERT_EQUAL (cg_graph_event_kind (g, ir), CG_KIND_REAL);
  CU_ASSERT_EQUAL (cg_graph_self (g, h)[ir].x, 20.0);
  CU_ASSERT_EQUAL (cg_graph_arc_inclusive (g, a)[ir].x, 20.0);
  CU_ASSERT_EQUAL (cg_graph_event_kind (g, dr), CG_KIND_INTEGER);
  /* the same name in another unit cannot be merged */
  GError *error = NULL;
  CU_ASSERT_FALSE (cg_graph_ensure_event (g, "Ir", "seconds", CG_KIND_REAL, &again, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_MISMATCH, "Ir");
  g_clear_error (&error);
}

static void
test_arcs_and_adjacency (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  CgFunctionId f[4];
  for (int i = 0; i < 4; i++)
    {
      char name[8];
      g_snprintf (name, sizeof name, "f%d", i);
      f[i] = cg_graph_ensure_function (g, "", name);
    }
  CgArcId a01 = cg_graph_ensure_arc (g, f[0], f[1]);
  CgArcId a02 = cg_graph_ensure_arc (g, f[0], f[2]);
  CgArcId a21 = cg_graph_ensure_arc (g, f[2], f[1]);
  CgArcId a11 = cg_graph_ensure_arc (g, f[1], f[1]);
  CU_ASSERT_EQUAL (cg_graph_ensure_arc (g, f[0], f[1]), a01);
  CU_ASSERT_TRUE (cg_graph_arc_add_calls (g, a01, 5));
  CU_ASSERT_TRUE (cg_graph_arc_add_calls (g, a21, 2));
  CU_ASSERT_TRUE (cg_graph_arc_add_calls (g, a11, 100));
  guint n;
  const CgArcId *out = cg_graph_out_arcs (g, f[0], &n);
  CU_ASSERT_EQUAL (n, 2);
  CU_ASSERT_EQUAL (out[0], a01);
  CU_ASSERT_EQUAL (out[1], a02);
  const CgArcId *in = cg_graph_in_arcs (g, f[1], &n);
  CU_ASSERT_EQUAL (n, 3);
  CU_ASSERT_EQUAL (in[0], a01);
  CU_ASSERT_EQUAL (in[1], a21);
  CU_ASSERT_EQUAL (in[2], a11);
  /* calls received leave out the self-arc */
  CU_ASSERT_EQUAL (cg_graph_calls_received (g, f[1]), 7);
  /* adjacency follows later additions */
  CgArcId a31 = cg_graph_ensure_arc (g, f[3], f[1]);
  cg_graph_in_arcs (g, f[1], &n);
  CU_ASSERT_EQUAL (n, 4);
  CU_ASSERT_EQUAL (cg_graph_arc_caller (g, a31), f[3]);
  /* the sum of all calls must fit in 64 bits */
  CU_ASSERT_FALSE (cg_graph_arc_add_calls (g, a02, G_MAXUINT64));
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, a02), 0);
}

static void
test_self_totals_overflow (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  guint e;
  cg_graph_ensure_event (g, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL);
  cg_graph_self (g, cg_graph_ensure_function (g, "", "a"))[e].n = G_MAXUINT64;
  CgValue t[1];
  CU_ASSERT_TRUE (cg_graph_self_totals (g, t));
  cg_graph_self (g, cg_graph_ensure_function (g, "", "b"))[e].n = 1;
  CU_ASSERT_FALSE (cg_graph_self_totals (g, t));
}

/* Labels compare exactly as strcmp compares the printed strings, also for
 * names with blanks and brackets and names in several objects. */
static void
test_label_order (void)
{
  static const char alphabet[] = " [a]b";
  g_autoptr (CgGraph) g = cg_graph_new ();
  GRand *rand = g_rand_new_with_seed (11);
  for (int i = 0; i < 300; i++)
    {
      char name[8], object[4];
      int n = g_rand_int_range (rand, 1, 6);
      for (int k = 0; k < n; k++)
        name[k] = alphabet[g_rand_int_range (rand, 0, 5)];
      name[n] = '\0';
      g_snprintf (object, sizeof object, "o%d", g_rand_int_range (rand, 0, 3));
      cg_graph_ensure_function (g, object, name);
    }
  guint nf = cg_graph_n_functions (g);
  for (CgFunctionId a = 0; a < nf; a++)
    for (CgFunctionId b = 0; b < nf; b++)
      {
        g_autoptr (GString) x = g_string_new (NULL);
        g_autoptr (GString) y = g_string_new (NULL);
        cg_graph_append_label (g, x, a);
        cg_graph_append_label (g, y, b);
        int want = strcmp (x->str, y->str), got = cg_graph_compare_labels (g, a, b);
        CU_ASSERT_EQUAL ((want > 0) - (want < 0), (got > 0) - (got < 0));
      }
  g_rand_free (rand);
}

static void
test_tree (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  guint e;
  cg_graph_ensure_event (g, "samples", "samples", CG_KIND_INTEGER, &e, NULL);
  CgFunctionId a = cg_graph_ensure_function (g, "", "a"), b = cg_graph_ensure_function (g, "", "b");
  CgFunctionId c = cg_graph_ensure_function (g, "", "c");
  g_autoptr (CgTree) t = cg_tree_new (g);
  CgFrameId ra = cg_tree_ensure_child (t, CG_NO_ID, a);
  CgFrameId rb = cg_tree_ensure_child (t, ra, b);
  CgFrameId rbc = cg_tree_ensure_child (t, rb, c);
  CgFrameId rbcb = cg_tree_ensure_child (t, rbc, b);
  CU_ASSERT_EQUAL (cg_tree_ensure_child (t, ra, b), rb);
  CU_ASSERT_EQUAL (cg_tree_parent (t, rbcb), rbc);
  cg_tree_self (t, rbc)->n = 3;
  cg_tree_self (t, rbcb)->n = 4;
  guint n;
  const CgFrameId *kids = cg_tree_children (t, ra, &n);
  CU_ASSERT_EQUAL (n, 1);
  CU_ASSERT_EQUAL (kids[0], rb);
  /* merging b and c into one function folds c's frame into b's, and the
   * b under it into the same frame: costs add up */
  CgFunctionId map[3] = { a, b, b };
  CU_ASSERT_TRUE (cg_tree_remap_functions (&t, g, map));
  CU_ASSERT_EQUAL (cg_tree_n_frames (t), 2);
  CU_ASSERT_EQUAL (cg_tree_self (t, 1)->n, 7);
  /* events added to the graph reach the tree */
  guint e2;
  cg_graph_ensure_event (g, "bytes", "bytes", CG_KIND_REAL, &e2, NULL);
  cg_tree_sync_events (t, g);
  CU_ASSERT_EQUAL (cg_tree_n_events (t), 2);
  CU_ASSERT_EQUAL (cg_tree_self (t, 1)[0].n, 7);
  CU_ASSERT_EQUAL (cg_tree_self (t, 1)[1].x, 0.0);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "functions are (object, name)", test_function_identity },
    { "names are made safe for XML and tsv", test_sanitized_names },
    { "events grow and promote in place", test_events_grow_and_promote },
    { "arcs and adjacency", test_arcs_and_adjacency },
    { "self totals detect overflow", test_self_totals_overflow },
    { "labels compare as their printed strings", test_label_order },
    { "call tree", test_tree },
    { NULL, NULL },
  };
  return cg_test_main ("graph", cases);
}
