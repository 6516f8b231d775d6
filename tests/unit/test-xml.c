/* test-xml.c — cgtools XML: what is written reads back the same, merging
 * sums, derived data survive a stage, broken documents are refused. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cg-test.h"

static const char callgrind_text[] =
  "creator: callgrind-3.19.0\n"
  "events: Ir Dr\n"
  "ob=/bin/p\n"
  "fl=p.c\n"
  "fn=main\n"
  "1 3 1\n"
  "cfn=fib\n"
  "calls=1 7\n"
  "2 40 4\n"
  "cob=/lib/libc.so\n"
  "cfn=puts\n"
  "calls=1 1\n"
  "3 5\n"
  "fn=fib\n"
  "7 10 2\n"
  "cfn=fib'2\n"
  "calls=4 7\n"
  "8 30 2\n"
  "fn=fib'2\n"
  "7 30 2\n"
  "ob=/lib/libc.so\n"
  "fn=puts\n"
  "1 5\n"
  "totals: 48 5\n";

static char *
to_xml (CgProfile *p)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  GError *error = NULL;
  CU_ASSERT_TRUE (cg_write_xml (p, f, "memory", &error));
  fclose (f);
  return buf;
}

static char *
to_tsv (CgProfile *p)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  CgCosts *c = cg_method_ensure (p, CG_METHOD_AUTO, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  cg_write_tsv (cg_profile_graph (p), c, 0, FALSE, f);
  cg_write_tsv (cg_profile_graph (p), c, 1, TRUE, f);
  fclose (f);
  return buf;
}

static void
test_round_trip (void)
{
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string (callgrind_text, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  cg_profile_set_cycles (p, cg_cycles_find (cg_profile_graph (p), NULL, NULL));
  CU_ASSERT_PTR_NOT_NULL (cg_method_ensure (p, CG_METHOD_MEASURED, &error));
  g_autofree char *xml = to_xml (p);
  g_autoptr (CgProfile) q = cg_test_read_string (xml, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (q);
  /* derived data came along */
  CU_ASSERT_PTR_NOT_NULL (cg_profile_cycles (q));
  CU_ASSERT_PTR_NOT_NULL (cg_profile_costs (q));
  g_autofree char *again = to_xml (q);
  CU_ASSERT_STRING_EQUAL (xml, again);
  CgGraph *g = cg_profile_graph (q);
  CgFunctionId fib = cg_graph_lookup_function (g, "/bin/p", "fib");
  CU_ASSERT_EQUAL (cg_graph_self (g, fib)[1].n, 4);
  CU_ASSERT_EQUAL (cg_costs_total (cg_profile_costs (q), fib)[0].n, 40);
  CU_ASSERT_STRING_EQUAL (cg_profile_source (q, 0)->format, "callgrind");
}

static void
test_merge_sums_and_commutes (void)
{
  GError *error = NULL;
  g_autoptr (CgProfile) one = cg_test_read_string (callgrind_text, &error);
  g_autofree char *xml = to_xml (one);
  char *a = cg_test_temp_file (callgrind_text, -1);
  char *b = cg_test_temp_file (xml, -1);
  g_autoptr (CgProfile) ab = cg_profile_new ();
  g_autoptr (CgProfile) ba = cg_profile_new ();
  CU_ASSERT_TRUE (cg_read_file (ab, a, NULL, &error));
  CU_ASSERT_TRUE (cg_read_file (ab, b, NULL, &error));
  CU_ASSERT_TRUE (cg_read_file (ba, b, NULL, &error));
  CU_ASSERT_TRUE (cg_read_file (ba, a, NULL, &error));
  CgGraph *g = cg_profile_graph (ab);
  CgFunctionId fib = cg_graph_lookup_function (g, "/bin/p", "fib");
  CU_ASSERT_EQUAL (cg_graph_self (g, fib)[0].n, 80);
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, cg_graph_lookup_arc (g, fib, fib)), 8);
  g_autofree char *t1 = to_tsv (ab);
  g_autofree char *t2 = to_tsv (ba);
  CU_ASSERT_STRING_EQUAL (t1, t2);
  CU_ASSERT_PTR_NOT_NULL (strstr (t1, "fib\t2\t80\t80\n"));
  cg_test_remove (a);
  cg_test_remove (b);
}

static void
test_events_merge_by_name (void)
{
  /* a profile with events "Dr Ir" merges column by name, not position */
  static const char other[] = "events: Dr Ir\nob=/bin/p\nfn=fib\n1 1 100\ntotals: 1 100\n";
  GError *error = NULL;
  char *a = cg_test_temp_file (callgrind_text, -1), *b = cg_test_temp_file (other, -1);
  g_autoptr (CgProfile) p = cg_profile_new ();
  CU_ASSERT_TRUE (cg_read_file (p, a, NULL, &error));
  CU_ASSERT_TRUE (cg_read_file (p, b, NULL, &error));
  CgGraph *g = cg_profile_graph (p);
  CgFunctionId fib = cg_graph_lookup_function (g, "/bin/p", "fib");
  CU_ASSERT_EQUAL (cg_graph_self (g, fib)[cg_graph_find_event (g, "Ir")].n, 140);
  CU_ASSERT_EQUAL (cg_graph_self (g, fib)[cg_graph_find_event (g, "Dr")].n, 5);
  cg_test_remove (a);
  cg_test_remove (b);
}

static void
test_tree_round_trip (void)
{
  g_autoptr (CgProfile) p = cg_profile_new ();
  CgGraph *g = cg_profile_graph (p);
  guint e;
  cg_profile_ensure_event (p, "samples", "samples", CG_KIND_REAL, &e, NULL);
  CgTree *t = cg_profile_ensure_tree (p);
  CgFunctionId a = cg_graph_ensure_function (g, "", "a"), b = cg_graph_ensure_function (g, "", "b");
  CgFrameId x = cg_tree_ensure_child (t, CG_NO_ID, a);
  CgFrameId y = cg_tree_ensure_child (t, x, b);
  cg_tree_self (t, y)->x = 2.5;
  cg_profile_add_source (p, "folded", "f.folded", NULL, NULL);
  g_autofree char *xml = to_xml (p);
  GError *error = NULL;
  g_autoptr (CgProfile) q = cg_test_read_string (xml, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (q);
  CgTree *u = cg_profile_tree (q);
  CU_ASSERT_PTR_NOT_NULL_FATAL (u);
  CU_ASSERT_EQUAL (cg_tree_n_frames (u), 2);
  CU_ASSERT_EQUAL (cg_tree_parent (u, 1), 0);
  CU_ASSERT_EQUAL (cg_tree_self (u, 1)->x, 2.5);
}

static void
test_scale_and_arc_split (void)
{
  /* time kept in ticks of 1/100 s: XML keeps the scale, tsv shows seconds */
  g_autoptr (CgProfile) p = cg_profile_new ();
  CgGraph *g = cg_profile_graph (p);
  guint e;
  cg_profile_ensure_event (p, "time", "seconds", CG_KIND_REAL, &e, NULL);
  cg_graph_set_event_scale (g, e, 0.01);
  CgFunctionId a = cg_graph_ensure_function (g, "", "a"), b = cg_graph_ensure_function (g, "", "b");
  cg_graph_self (g, a)->x = 150.0;
  cg_graph_self (g, b)->x = 50.0;
  CgArcId ab = cg_graph_ensure_arc (g, a, b);
  cg_graph_arc_add_calls (g, ab, 3);
  CgCosts *c = cg_costs_new (CG_METHOD_GPROF, g);
  cg_costs_total (c, a)->x = 200.0;
  cg_costs_total (c, b)->x = 50.0;
  cg_costs_arc (c, ab)->x = 50.0;
  cg_costs_arc_self (c, ab)->x = 40.0;
  cg_costs_arc_children (c, ab)->x = 10.0;
  cg_profile_set_costs (p, c);
  g_autofree char *xml = to_xml (p);
  CU_ASSERT_PTR_NOT_NULL (strstr (xml, "scale=\"0.01\""));
  CU_ASSERT_PTR_NOT_NULL (strstr (xml, "self=\"40\" children=\"10\""));
  GError *error = NULL;
  g_autoptr (CgProfile) q = cg_test_read_string (xml, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (q);
  CU_ASSERT_EQUAL (cg_graph_event_scale (cg_profile_graph (q), 0), 0.01);
  CgCosts *d = cg_profile_costs (q);
  CU_ASSERT_EQUAL (cg_costs_arc_self (d, 0)->x, 40.0);
  CU_ASSERT_EQUAL (cg_costs_arc_children (d, 0)->x, 10.0);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  cg_write_tsv (cg_profile_graph (q), d, 0, FALSE, f);
  fclose (f);
  CU_ASSERT_STRING_EQUAL (buf, "function\tcalls\tself\ttotal\na\t0\t1.5\t2\nb\t3\t0.5\t0.5\n");
  free (buf);
  /* a profile with another scale for the same event cannot be merged */
  char *path = cg_test_temp_file (xml, -1);
  g_autofree char *other = g_strdup (xml);
  char *at = strstr (other, "scale=\"0.01\"");
  memcpy (at, "scale=\"0.02\"", 12);
  char *path2 = cg_test_temp_file (other, -1);
  g_autoptr (CgProfile) m = cg_profile_new ();
  CU_ASSERT_TRUE (cg_read_file (m, path, NULL, &error));
  CU_ASSERT_FALSE (cg_read_file (m, path2, NULL, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_MISMATCH, "scale");
  g_clear_error (&error);
  cg_test_remove (path);
  cg_test_remove (path2);
}

static void
test_broken_documents (void)
{
  static const struct {
    const char *what;
    const char *text;
    int code;
    const char *fragment;
  } cases[] = {
    { "not well formed", "<?xml version=\"1.0\"?>\n<cgtools version=\"1\">\n<events>\n</cgtools>\n", CG_ERROR_PARSE, ":4:" },
    { "another document", "<?xml version=\"1.0\"?>\n<html/>\n", CG_ERROR_PARSE, "not <cgtools>" },
    { "a future version", "<?xml version=\"1.0\"?>\n<cgtools version=\"2\"/>\n", CG_ERROR_UNSUPPORTED, "version 2" },
    { "sections missing", "<?xml version=\"1.0\"?>\n<cgtools version=\"1\"/>\n", CG_ERROR_TRUNCATED, "<arcs>" },
    { "truncated", "<?xml version=\"1.0\"?>\n<cgtools version=\"1\">\n<events>\n", CG_ERROR_PARSE, NULL },
    { "an arc to no function",
      "<?xml version=\"1.0\"?>\n<cgtools version=\"1\"><events/><objects/><files/><functions/>\n"
      "<arcs inclusive=\"no\"><arc id=\"0\" caller=\"0\" callee=\"1\"/></arcs></cgtools>\n",
      CG_ERROR_PARSE, ":3: <arc caller=\"0\">: no such item" },
    { "ids out of order",
      "<?xml version=\"1.0\"?>\n<cgtools version=\"1\"><events/><objects><object id=\"1\" name=\"x\"/></objects>\n"
      "<files/><functions/><arcs inclusive=\"no\"/></cgtools>\n",
      CG_ERROR_PARSE, "expected id 0" },
    { "too many costs",
      "<?xml version=\"1.0\"?>\n<cgtools version=\"1\"><events><event name=\"Ir\" unit=\"Ir\" kind=\"integer\"/></events>\n"
      "<objects><object id=\"0\" name=\"\"/></objects><files/>\n"
      "<functions><function id=\"0\" name=\"f\" object=\"0\" self=\"1 2\"/></functions><arcs inclusive=\"no\"/></cgtools>\n",
      CG_ERROR_PARSE, ":4: <function self=\"1 2\">" },
    { "sections out of order",
      "<?xml version=\"1.0\"?>\n<cgtools version=\"1\"><objects/><events/></cgtools>\n", CG_ERROR_PARSE, "out of place" },
    { "text where none belongs",
      "<?xml version=\"1.0\"?>\n<cgtools version=\"1\">hello<events/></cgtools>\n", CG_ERROR_PARSE, "unexpected text" },
    { "an external entity",
      "<?xml version=\"1.0\"?>\n<!DOCTYPE cgtools [<!ENTITY x SYSTEM \"/etc/passwd\">]>\n"
      "<cgtools version=\"1\"><events><event name=\"&x;\" unit=\"u\" kind=\"integer\"/></events></cgtools>\n",
      CG_ERROR_PARSE, NULL },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GError *error = NULL;
      CgProfile *p = cg_test_read_string (cases[i].text, &error);
      if (p)
        fprintf (stderr, "\n  accepted: %s\n", cases[i].what);
      CU_ASSERT_PTR_NULL (p);
      cg_profile_free (p);
      CG_ASSERT_ERROR (error, cases[i].code, cases[i].fragment);
      g_clear_error (&error);
    }
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "written XML reads back identically", test_round_trip },
    { "merging sums and commutes", test_merge_sums_and_commutes },
    { "events merge by name", test_events_merge_by_name },
    { "a call tree survives XML", test_tree_round_trip },
    { "event scales and arc splits survive XML", test_scale_and_arc_split },
    { "broken documents give clear errors", test_broken_documents },
    { NULL, NULL },
  };
  return cg_test_main ("xml", cases);
}
