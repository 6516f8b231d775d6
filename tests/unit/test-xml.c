/* test-xml.c — cgtools XML: what is written reads back the same, merging
 * sums, derived data survive a stage, broken documents are refused. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cg-read-xml.h"
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
  CU_ASSERT_EQUAL (cg_graph_self_const (g, fib)[1].n, 4);
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

/* A document may list an arc more than once, in its caller's run or in
 * another: the copies merge into the first, whose place they keep, and
 * the document's later arc ids (its arc costs) point at the merged arc.
 * Read into a graph that has arcs already, every arc may repeat. */
/* Object and file names with markup and quotes (written as raw text,
 * not through libxml2's writer) read back as they were. */
static void
test_table_names_escaped (void)
{
  static const char text[] = "events: Ir\nob=/o/\"q\" & <x>\nfl=/s/'a' \"&amp;\" <b>.c\nfn=f\n1 2\n";
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string (text, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  g_autofree char *xml = to_xml (p);
  CU_ASSERT_PTR_NOT_NULL (strstr (xml, "name=\"/o/&quot;q&quot; &amp; &lt;x&gt;\""));
  g_autoptr (CgProfile) q = cg_test_read_string (xml, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (q);
  CgGraph *g = cg_profile_graph (q);
  CgFunctionId f = cg_graph_lookup_function (g, "/o/\"q\" & <x>", "f");
  CU_ASSERT_NOT_EQUAL_FATAL (f, CG_NO_ID);
  CU_ASSERT_STRING_EQUAL (cg_graph_function_file (g, f), "/s/'a' \"&amp;\" <b>.c");
}

static void
test_repeated_arcs_merge (void)
{
  static const char doc[] =
    "<?xml version=\"1.0\"?>\n<cgtools version=\"2\"><events><event name=\"Ir\" unit=\"Ir\" kind=\"integer\"/>"
    "</events><objects><object id=\"0\" name=\"o\"/></objects><files/><functions><function-rows>\nf\t0\t\t\t10\ng\t0\t\t\t20\nh\t0\t\t\t30\n</function-rows>"
    "</functions>\n<arcs inclusive=\"yes\"><arc-rows>\n"
    "0\t1\t1\t10\n0\t2\t2\t20\n0\t1\t4\t40\n1\t2\t8\t80\n0\t2\t16\t160\n2\t0\t32\t320\n"
    "0\t1\t64\t640\n0\t0\t128\t1280\n2\t0\t256\t2560\n"
    "</arc-rows></arcs>\n"
    "<costs method=\"exact\"><total-rows>20\n20\n30\n</total-rows>\n"
    "<arc-cost-rows>1\n2\n3\n4\n5\n6\n7\n8\n9\n</arc-cost-rows></costs></cgtools>\n";
  /* arcs, in order, with their calls: f->g twice in f's first run and
   * again in its third, f->h in its first two, h->f in both of h's */
  static const struct {
    const char *caller, *callee;
    guint64 calls, inclusive;
  } want[] = { { "f", "g", 69, 690 }, { "f", "h", 18, 180 }, { "g", "h", 8, 80 },
               { "h", "f", 288, 2880 }, { "f", "f", 128, 1280 } };
  char *path = cg_test_temp_file (doc, -1);
  for (guint times = 1; times <= 2; times++)
    {
      g_autoptr (CgProfile) p = cg_profile_new ();
      GError *error = NULL;
      for (guint i = 0; i < times; i++)
        CU_ASSERT_TRUE_FATAL (cg_read_file (p, path, NULL, &error));
      CgGraph *g = cg_profile_graph (p);
      CU_ASSERT_EQUAL_FATAL (cg_graph_n_arcs (g), G_N_ELEMENTS (want));
      for (CgArcId a = 0; a < G_N_ELEMENTS (want); a++)
        {
          CU_ASSERT_STRING_EQUAL (cg_graph_function_name (g, cg_graph_arc_caller (g, a)), want[a].caller);
          CU_ASSERT_STRING_EQUAL (cg_graph_function_name (g, cg_graph_arc_callee (g, a)), want[a].callee);
          CU_ASSERT_EQUAL (cg_graph_arc_calls (g, a), times * want[a].calls);
          CU_ASSERT_EQUAL (cg_graph_arc_inclusive (g, a)[0].n, times * want[a].inclusive);
        }
    }
  /* read once, the costs it carries: the last row of a repeated arc is
   * what its merged arc holds */
  g_autoptr (CgProfile) p = cg_profile_new ();
  CU_ASSERT_TRUE_FATAL (cg_read_file (p, path, NULL, NULL));
  CgCosts *costs = cg_profile_costs (p);
  CU_ASSERT_PTR_NOT_NULL_FATAL (costs);
  static const guint64 arc_cost[] = { 7, 5, 4, 9, 8 };
  for (CgArcId a = 0; a < G_N_ELEMENTS (arc_cost); a++)
    CU_ASSERT_EQUAL (cg_costs_arc (costs, a)[0].n, arc_cost[a]);
  cg_test_remove (path);
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
  /* the arc-cost row: value, self, children */
  CU_ASSERT_PTR_NOT_NULL (strstr (xml, "\n50\t40\t10\n"));
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
    { "another document", "<?xml version=\"1.0\"?>\n<html/>\n", CG_ERROR_FORMAT, ":1: unknown input format" },
    { "a future version", "<?xml version=\"1.0\"?>\n<cgtools version=\"3\"/>\n", CG_ERROR_UNSUPPORTED, "version 3" },
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
    { "a row naming no function",
      "<?xml version=\"1.0\"?>\n<cgtools version=\"2\"><events/><objects><object id=\"0\" name=\"\"/></objects>\n"
      "<files/><functions><function-rows>\nf\t0\ng\t0\n</function-rows></functions>\n<arcs inclusive=\"no\"><arc-rows>\n"
      "0\t1\n1\t2\n</arc-rows></arcs></cgtools>\n",
      CG_ERROR_PARSE, ":9: <arc callee=\"2\">: no such item (2 defined)" },
    { "a row with a bad count",
      "<?xml version=\"1.0\"?>\n<cgtools version=\"2\"><events/><objects><object id=\"0\" name=\"\"/></objects>\n"
      "<files/><functions><function-rows>f\t0\ng\t0\n</function-rows></functions>\n<arcs inclusive=\"no\"><arc-rows>\n"
      "\n0\t1\t12x\n</arc-rows></arcs></cgtools>\n",
      CG_ERROR_PARSE, ":8: <arc calls=\"12x\">: not a call count" },
    { "a function row without its object",
      "<?xml version=\"1.0\"?>\n<cgtools version=\"2\"><events/><objects/><files/><functions><function-rows>f\n"
      "</function-rows></functions><arcs inclusive=\"no\"/></cgtools>\n",
      CG_ERROR_PARSE, ":2: <function> lacks the object attribute" },
    { "unknown flags",
      "<?xml version=\"1.0\"?>\n<cgtools version=\"2\"><events/><objects><object id=\"0\" name=\"\"/></objects>\n"
      "<files/><functions><function-rows>f\t0\t\t\t\t\tcycle hot\n</function-rows></functions><arcs inclusive=\"no\"/></cgtools>\n",
      CG_ERROR_PARSE, "flags 'cycle hot'" },
    { "more total rows than functions",
      "<?xml version=\"1.0\"?>\n<cgtools version=\"2\"><events><event name=\"Ir\" unit=\"Ir\" kind=\"integer\"/></events><objects><object id=\"0\" name=\"\"/></objects>\n"
      "<files/><functions><function-rows>f\t0\n</function-rows></functions><arcs inclusive=\"no\"/>\n"
      "<costs method=\"exact\"><total-rows>0\n0\n</total-rows></costs></cgtools>\n",
      CG_ERROR_PARSE, "row 1: no such item (1 defined)" },
    { "a bad estimate mark",
      "<?xml version=\"1.0\"?>\n<cgtools version=\"2\"><events/><objects><object id=\"0\" name=\"\"/></objects>\n"
      "<files/><functions><function-rows>f\t0\n</function-rows></functions><arcs inclusive=\"no\"/>\n"
      "<costs method=\"exact\"><total-rows>0\tyes\n</total-rows></costs></cgtools>\n",
      CG_ERROR_PARSE, "'yes' where an estimate's mark" },
    { "an element inside rows",
      "<?xml version=\"1.0\"?>\n<cgtools version=\"2\"><events/><objects><object id=\"0\" name=\"\"/></objects>\n"
      "<files/><functions><function-rows>f\t0\n<function id=\"1\" name=\"g\" object=\"0\"/></function-rows></functions>"
      "<arcs inclusive=\"no\"/></cgtools>\n",
      CG_ERROR_PARSE, "unexpected element <function> in <function-rows>" },
    { "text beside rows",
      "<?xml version=\"1.0\"?>\n<cgtools version=\"2\"><events/><objects><object id=\"0\" name=\"\"/></objects>\n"
      "<files/><functions>f\t0\n</functions><arcs inclusive=\"no\"/></cgtools>\n",
      CG_ERROR_PARSE, "unexpected text" },
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

/* One profile with every item kind in both forms: elements (version 1)
 * and rows (version 2), rows split by a comment and written with blank
 * lines and without a last newline.  Both must read as the same profile. */
static const char v1_document[] =
  "<?xml version=\"1.0\"?>\n<cgtools version=\"1\">\n"
  " <events><event name=\"Ir\" unit=\"Ir\" kind=\"integer\"/><event name=\"t\" unit=\"s\" kind=\"real\"/></events>\n"
  " <objects><object id=\"0\" name=\"/bin/p\"/></objects>\n"
  " <files><file id=\"0\" name=\"p.c\"/></files>\n"
  " <functions>\n"
  "  <function id=\"0\" name=\"main\" object=\"0\" file=\"0\" line=\"3\" self=\"5 0.25\" spontaneous=\"40\"/>\n"
  "  <function id=\"1\" name=\"a&lt;int&gt; &amp; b\" object=\"0\" self=\"10\" nested=\"yes\"/>\n"
  "  <function id=\"2\" name=\"\" object=\"0\" kind=\"cycle\" nested=\"yes\" self=\"100 1.5\"/>\n"
  " </functions>\n"
  " <arcs inclusive=\"yes\">\n"
  "  <arc id=\"0\" caller=\"0\" callee=\"1\" calls=\"3\" inclusive=\"35\"/>\n"
  "  <arc id=\"1\" caller=\"1\" callee=\"2\" inclusive=\"0 1.5\"/>\n"
  "  <arc id=\"2\" caller=\"1\" callee=\"1\" calls=\"7\"/>\n"
  " </arcs>\n"
  " <tree><frame id=\"0\" function=\"0\" self=\"5\"/><frame id=\"1\" parent=\"0\" function=\"1\"/></tree>\n"
  " <costs method=\"exact\">\n"
  "  <total function=\"0\" value=\"40 1.75\"/><total function=\"1\" value=\"10 1.5\"/>"
  "<total function=\"2\" value=\"100 1.5\" estimated=\"yes\"/>\n"
  "  <arc-cost arc=\"0\" value=\"35\" self=\"10\" children=\"25\" estimated=\"yes\"/>\n"
  "  <arc-cost arc=\"1\" value=\"0 1.5\" self2=\"1\"/>\n"
  " </costs>\n"
  "</cgtools>\n";

static const char v2_document[] =
  "<?xml version=\"1.0\"?>\n<cgtools version=\"2\">\n"
  " <events><event name=\"Ir\" unit=\"Ir\" kind=\"integer\"/><event name=\"t\" unit=\"s\" kind=\"real\"/></events>\n"
  " <objects><object id=\"0\" name=\"/bin/p\"/></objects>\n"
  " <files><file id=\"0\" name=\"p.c\"/></files>\n"
  " <functions><function-rows>\nmain\t0\t0\t3\t5 0.25\t40\n\n"
  "a&lt;int&gt; &amp; b\t0<!-- a comment splits the text -->\t\t\t10\t\tnested\n</function-rows>"
  "<function-rows>\t0\t\t\t100 1.5\t\tcycle nested</function-rows></functions>\n"
  " <arcs inclusive=\"yes\"><arc-rows>0\t1\t3\t35\n1\t2\t\t0 1.5\n</arc-rows><arc-rows/><arc-rows>1\t1\t7\n</arc-rows></arcs>\n"
  " <tree><frame-rows>\t0\t5\n0\t1\n</frame-rows></tree>\n"
  " <costs method=\"exact\"><total-rows>40 1.75\n10 1.5\n100 1.5\t~\n</total-rows>\n"
  "  <arc-cost-rows>35\t10\t25\t\t\t~\n0 1.5\t\t\t1\n</arc-cost-rows></costs>\n"
  "</cgtools>\n";

static void
test_references_in_attributes (void)
{
  /* libxml2 hands an attribute's ampersand over as "&#38;", however the
   * document wrote it; the other references come replaced */
  static const char text[] =
    "<?xml version=\"1.0\"?>\n<cgtools version=\"1\" xmlns:x=\"urn:x\">\n"
    " <events x:note=\"ignored\"><event name=\"Ir\" unit=\"Ir\" kind=\"integer\"/></events>\n"
    " <objects><object id=\"0\" name=\"lib &#38;&#x26;&amp; &lt;1&gt; &quot;&apos;\"/></objects>\n"
    " <files/>\n"
    " <functions><function id=\"0\" name=\"a&amp;b&#38;#38;\" object=\"0\" self=\"2\"/></functions>\n"
    " <arcs inclusive=\"no\"/>\n"
    "</cgtools>\n";
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string (text, &error);
  if (p == NULL)
    fprintf (stderr, "\n  %s\n", error->message);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CgGraph *g = cg_profile_graph (p);
  CU_ASSERT_EQUAL_FATAL (cg_graph_n_functions (g), 1);
  CU_ASSERT_STRING_EQUAL (cg_graph_function_object (g, 0), "lib &&& <1> \"'");
  CU_ASSERT_STRING_EQUAL (cg_graph_function_name (g, 0), "a&b&#38;");
  CU_ASSERT_EQUAL (cg_graph_self (g, 0)[0].n, 2);
}

static void
test_versions_read_alike (void)
{
  GError *error = NULL;
  g_autoptr (CgProfile) one = cg_test_read_string (v1_document, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (one);
  g_autoptr (CgProfile) two = cg_test_read_string (v2_document, &error);
  if (two == NULL)
    fprintf (stderr, "\n  %s\n", error->message);
  CU_ASSERT_PTR_NOT_NULL_FATAL (two);
  g_autofree char *x1 = to_xml (one);
  g_autofree char *x2 = to_xml (two);
  CU_ASSERT_STRING_EQUAL (x1, x2);
  /* and the values are those of the documents, not merely alike */
  CgGraph *g = cg_profile_graph (two);
  CU_ASSERT_EQUAL (cg_graph_n_functions (g), 3);
  CgFunctionId ab = cg_graph_lookup_function (g, "/bin/p", "a<int> & b");
  CU_ASSERT_EQUAL_FATAL (ab, 1);
  CU_ASSERT_EQUAL (cg_graph_function_flags (g, 1), CG_FUNCTION_NESTED);
  CU_ASSERT_EQUAL (cg_graph_function_flags (g, 2), CG_FUNCTION_CYCLE | CG_FUNCTION_NESTED);
  CU_ASSERT_STRING_EQUAL (cg_graph_function_name (g, 2), "");
  CU_ASSERT_EQUAL (cg_graph_function_line (g, 0), 3);
  CU_ASSERT_EQUAL (cg_graph_self_const (g, 0)[1].x, 0.25);
  CU_ASSERT_EQUAL (cg_graph_spontaneous (g, 0)[0].n, 40);
  CU_ASSERT_EQUAL (cg_graph_n_arcs (g), 3);
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, 2), 7);
  CU_ASSERT_EQUAL (cg_graph_arc_inclusive_const (g, 1)[1].x, 1.5);
  CgCosts *c = cg_profile_costs (two);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  CU_ASSERT_TRUE (cg_costs_total_is_estimated (c, 2));
  CU_ASSERT_FALSE (cg_costs_total_is_estimated (c, 1));
  CU_ASSERT_EQUAL (cg_costs_total (c, 0)[1].x, 1.75);
  CU_ASSERT_TRUE (cg_costs_arc_is_estimated (c, 0));
  CU_ASSERT_EQUAL (cg_costs_arc_children (c, 0)[0].n, 25);
  CU_ASSERT_EQUAL (cg_costs_arc_self2 (c, 1)[0].n, 1);
  CU_ASSERT_EQUAL (cg_tree_n_frames (cg_profile_tree (two)), 2);
  CU_ASSERT_EQUAL (cg_tree_parent (cg_profile_tree (two), 1), 0);
  /* what is written is version 2 with rows, and escapes the name */
  CU_ASSERT_PTR_NOT_NULL (strstr (x2, "<cgtools version=\"2\">"));
  CU_ASSERT_PTR_NOT_NULL (strstr (x2, "\na&lt;int&gt; &amp; b\t0\t\t\t10\t\tnested\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (x2, "<arc-cost-rows>\n35\t10\t25\t\t\t~\n0 1.5\t\t\t1\n0\n</arc-cost-rows>"));
}

/* A profile of 12,000 functions and arcs, with costs: its rows fill
 * several elements of about 64 KiB. */
static CgProfile *
large_profile (void)
{
  g_autoptr (GString) folded = g_string_new (NULL);
  for (guint i = 0; i < 6000; i++)
    g_string_append_printf (folded, "main;caller_%u;callee_%u %u\n", i, i % 4000, i % 97);
  GError *error = NULL;
  CgProfile *p = cg_test_read_string (folded->str, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cg_method_ensure (p, CG_METHOD_AUTO, &error));
  return p;
}

/* Checks that each <@element> but a section's last ends with the first
 * row that brings its text (from the newline after the tag) to 64 KiB,
 * and the last holds less; returns how many there are. */
static guint
check_rows_elements (const char *xml, const char *element)
{
  g_autofree char *open = g_strdup_printf ("<%s>", element), *close = g_strdup_printf ("</%s>", element);
  guint n = 0;
  for (const char *p = strstr (xml, open); p != NULL; n++)
    {
      const char *text = p + strlen (open), *end = strstr (text, close);
      CU_ASSERT_PTR_NOT_NULL_FATAL (end);
      gsize len = (gsize) (end - text);
      const char *after = end + strlen (close);
      while (g_ascii_isspace (*after))
        after++;
      gboolean last = !g_str_has_prefix (after, open);
      /* the row before the last one ended short of 64 KiB */
      const char *last_row = g_strrstr_len (text, (gssize) len - 1, "\n");
      CU_ASSERT_PTR_NOT_NULL_FATAL (last_row);
      gboolean ends_right = last ? len < 64 * 1024 : len >= 64 * 1024 && (gsize) (last_row + 1 - text) < 64 * 1024;
      CU_ASSERT (ends_right);
      p = last ? strstr (after, open) : after;
    }
  return n;
}

/* Rows are formatted a chunk at a time on other threads while this one
 * writes them: the document is whole and in order (it reads back to
 * itself), its elements end where one thread would end them, and a
 * stream that fills up mid-way is an error, not a hang or a short
 * document reported as written. */
static void
test_large_rows_written_alike (void)
{
  g_autoptr (CgProfile) p = large_profile ();
  g_autofree char *xml = to_xml (p);
  CU_ASSERT (check_rows_elements (xml, "function-rows") >= 3);
  CU_ASSERT (check_rows_elements (xml, "arc-rows") >= 2);
  CU_ASSERT (check_rows_elements (xml, "arc-cost-rows") >= 2);
  CU_ASSERT (check_rows_elements (xml, "total-rows") >= 1);

  /* function rows of 15 bytes ("f0000001\t0\t\t\t1\n"): 4,369 of them
   * and the newline before bring an element to 64 KiB exactly (stacks of
   * two frames, each function calling itself: one-frame stacks alone are
   * not taken for folded stacks) */
  g_autoptr (GString) folded = g_string_new (NULL);
  for (guint i = 0; i < 10000; i++)
    g_string_append_printf (folded, "f%07u;f%07u 1\n", i, i);
  GError *error = NULL;
  g_autoptr (CgProfile) even = cg_test_read_string (folded->str, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (even);
  g_autofree char *even_xml = to_xml (even);
  CU_ASSERT_PTR_NOT_NULL (strstr (even_xml, "<function-rows>\nf0000000\t0\t\t\t1\n"));
  CU_ASSERT_EQUAL (check_rows_elements (even_xml, "function-rows"), 3);
  g_autoptr (CgProfile) back = cg_test_read_string (xml, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (back);
  g_autofree char *again = to_xml (back);
  CU_ASSERT_STRING_EQUAL (again, xml);
  /* a full disk after the first few elements */
  static char small[200 * 1024];
  for (gsize room = 1000; room <= sizeof small; room *= 4)
    {
      FILE *f = fmemopen (small, room, "w");
      CU_ASSERT_PTR_NOT_NULL_FATAL (f);
      CU_ASSERT_FALSE (cg_write_xml (p, f, "small", &error));
      CG_ASSERT_ERROR (error, CG_ERROR_IO, "small: write error");
      g_clear_error (&error);
      fclose (f);
    }
}

/* A random profile's XML with all that rows carry: functions (names that
 * need escaping), arcs, a call tree, cycles, costs. */
static char *
random_document (GRand *rand)
{
  static const char *const names[] = { "main", "a<b>", "f&g", "h", "r", "x\"y" };
  g_autoptr (GString) folded = g_string_new (NULL);
  for (guint i = 0, n = (guint) g_rand_int_range (rand, 1, 40); i < n; i++)
    {
      for (guint d = 0, depth = (guint) g_rand_int_range (rand, 1, 9); d < depth; d++)
        g_string_append_printf (folded, "%s%s", d ? ";" : "",
                                names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))]);
      g_string_append_printf (folded, " %d\n", g_rand_int_range (rand, 0, 1000));
    }
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string (folded->str, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  cg_profile_set_cycles (p, cg_cycles_find (cg_profile_graph (p), NULL, NULL));
  CU_ASSERT_PTR_NOT_NULL_FATAL (cg_method_ensure (p, CG_METHOD_AUTO, &error));
  return to_xml (p);
}

/* @doc damaged at random: a comment that splits a text node (or a tag),
 * an element where none belongs, a byte changed, a byte dropped, or the
 * end cut off. */
static void
damage (GRand *rand, GString *doc)
{
  static const char bytes[] = "\t\n0~<&x9 -";
  gsize at = (gsize) g_rand_int_range (rand, 0, (gint32) doc->len);
  switch (g_rand_int_range (rand, 0, 5))
    {
    case 0:
      g_string_insert (doc, (gssize) at, "<!-- c -->");
      break;
    case 4:
      g_string_insert (doc, (gssize) at, "\n<x/>");
      break;
    case 1:
      doc->str[at] = bytes[g_rand_int_range (rand, 0, sizeof bytes - 1)];
      break;
    case 2:
      g_string_erase (doc, (gssize) at, 1);
      break;
    default:
      g_string_truncate (doc, at);
      break;
    }
}

/* What reading @doc with @block gives: its XML written again, or the
 * error. */
static char *
outcome (const GString *doc, gsize block)
{
  g_autoptr (CgProfile) p = cg_profile_new ();
  g_autoptr (CgInput) in = cg_input_new_from_bytes ("doc", (const guint8 *) doc->str, doc->len);
  GError *error = NULL;
  if (!cg_read_xml_in_blocks (p, in, TRUE, block, &error))
    {
      char *message = g_strdup_printf ("error %d: %s", error->code, error->message);
      g_error_free (error);
      return message;
    }
  return to_xml (p);
}

/* Rows applied on the worker thread, handed over in blocks of any size
 * (mid-row, mid-line, one byte), give what applying them in the parsing
 * thread gives: the same profile, or the same first error at the same
 * line, on 300 random documents, most of them damaged. */
static void
test_blocks_read_alike (void)
{
  static const gsize blocks[] = { 1, 5, 64, 4096, G_MAXSIZE };
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  guint broken = 0;
  for (guint doc_i = 0; doc_i < 300; doc_i++)
    {
      g_autofree char *xml = random_document (rand);
      g_autoptr (GString) doc = g_string_new (xml);
      for (guint k = 0, n = doc_i % 4; k < n && doc->len > 0; k++)
        damage (rand, doc);
      g_autofree char *want = outcome (doc, 0);
      broken += g_str_has_prefix (want, "error");
      for (guint i = 0; i < G_N_ELEMENTS (blocks); i++)
        {
          g_autofree char *have = outcome (doc, blocks[i]);
          if (strcmp (have, want) != 0)
            fprintf (stderr, "\n  document %u, blocks of %zu:\n%s\n  want:\n%s\n", doc_i, blocks[i], have, want);
          CU_ASSERT_STRING_EQUAL (have, want);
        }
      if (doc_i % 4 == 0)
        CU_ASSERT_FALSE (g_str_has_prefix (want, "error"));
    }
  /* the damage reached the rows often enough to matter */
  CU_ASSERT_TRUE (broken >= 120 && broken < 225);
}

/* Function rows have their names hashed a few rows ahead of reading
 * them: many rows, names plain and not (markup, UTF-8), blank rows among
 * them, and any block size read back every name where it was. */
static void
test_function_names_read_ahead (void)
{
  g_autoptr (GString) folded = g_string_new (NULL);
  for (guint i = 0; i < 70; i++)
    g_string_append_printf (folded, "main;%s%u 1\n", i % 3 == 0 ? "a<b>&" : i % 5 == 0 ? "f\xc3\xbc" : "fn_", i);
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string (folded->str, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  g_autofree char *xml = to_xml (p);
  /* a blank row after every fourth function row */
  const char *rows = strstr (xml, "<function-rows>"), *end = rows ? strstr (rows, "</function-rows>") : NULL;
  CU_ASSERT_PTR_NOT_NULL_FATAL (end);
  g_autoptr (GString) doc = g_string_new_len (xml, rows - xml);
  guint n = 0;
  for (const char *c = rows; c < end; c++)
    {
      g_string_append_c (doc, *c);
      if (*c == '\n' && c > strchr (rows, '\n') && ++n % 4 == 0)
        g_string_append_c (doc, '\n');
    }
  g_string_append (doc, end);
  CU_ASSERT_TRUE (n >= 70);
  static const gsize blocks[] = { 1, 7, 64, 300, G_MAXSIZE };
  for (guint i = 0; i < G_N_ELEMENTS (blocks); i++)
    {
      g_autofree char *have = outcome (doc, blocks[i]);
      CU_ASSERT_STRING_EQUAL (have, xml);
    }
}

/* @doc with every arc row given all four columns and a fifth, which the
 * reader ignores: no arc row is then in the form the reader takes in one
 * pass (lex_arc_row), so each is cut into fields and read as any item. */
static GString *
arcs_field_by_field (const char *doc)
{
  GString *out = g_string_new (NULL);
  const char *p = doc, *open;
  while ((open = strstr (p, "<arc-rows>")) != NULL)
    {
      const char *text = open + strlen ("<arc-rows>"), *close = strstr (text, "</arc-rows>");
      CU_ASSERT_PTR_NOT_NULL_FATAL (close);
      g_string_append_len (out, p, text - p);
      for (const char *line = text; line < close;)
        {
          const char *nl = memchr (line, '\n', (gsize) (close - line)), *end = nl ? nl : close;
          if (end > line)
            {
              guint tabs = 0;
              for (const char *q = line; q < end; q++)
                tabs += *q == '\t';
              g_string_append_len (out, line, end - line);
              for (; tabs < 3; tabs++)
                g_string_append_c (out, '\t');
              g_string_append (out, "\tz");
            }
          if (nl)
            g_string_append_c (out, '\n');
          line = nl ? nl + 1 : close;
        }
      p = close;
    }
  g_string_append (out, p);
  return out;
}

/* Arc rows read in one pass when in the writer's form give what cutting
 * them into fields gives: on 100 random documents, and on rows at the
 * edges of that form (each read, or refused with the same error, alike). */
static void
test_arc_rows_read_alike (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);
  for (guint doc_i = 0; doc_i < 100; doc_i++)
    {
      g_autofree char *xml = random_document (rand);
      g_autoptr (GString) doc = g_string_new (xml);
      g_autoptr (GString) slow = arcs_field_by_field (doc->str);
      g_autofree char *want = outcome (slow, G_MAXSIZE), *have = outcome (doc, G_MAXSIZE);
      CU_ASSERT_FALSE (g_str_has_prefix (have, "error"));
      CU_ASSERT_STRING_EQUAL (have, want);
    }
  static const char *const rows[] = {
    "0\t1",        "0\t1\t\t5",       "0\t1\t7",           "00\t01\t007\t0005",   "0\t1\t5\t6 ",
    "0\t1\t5\t6  7", "0\t1\t5\t12345678901234567890", "0\t1\t99999999999999999999", "0\t1\t5\t99999999999999999999",
    "0\t9\t1",     "0\t1\t1\t1 2",    "0\t1\tx",           "\t1",                 "0\t1\t\t",
    "0\t1\t5\t7\t", "-1\t1",        "0\t1\t5\t18446744073709551615\n0\t1\t1\t1", "0 \t1", "0\t1\t5\t7x",
  };
  g_autoptr (CgProfile) two = cg_test_read_string ("f;g 3\n", NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (two);
  g_autofree char *base = to_xml (two);
  const char *open = strstr (base, "<arc-rows>\n"), *close = strstr (base, "</arc-rows>");
  CU_ASSERT_FATAL (open != NULL && close != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autoptr (GString) doc = g_string_new_len (base, open + strlen ("<arc-rows>\n") - base);
      g_string_append_printf (doc, "%s\n%s", rows[i], close);
      g_autoptr (GString) slow = arcs_field_by_field (doc->str);
      g_autofree char *want = outcome (slow, G_MAXSIZE), *have = outcome (doc, G_MAXSIZE);
      if (strcmp (have, want) != 0)
        fprintf (stderr, "\n  row '%s':\n%s\n  want:\n%s\n", rows[i], have, want);
      CU_ASSERT_STRING_EQUAL (have, want);
    }
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "written XML reads back identically", test_round_trip },
    { "merging sums and commutes", test_merge_sums_and_commutes },
    { "events merge by name", test_events_merge_by_name },
    { "arcs a document repeats merge into the first", test_repeated_arcs_merge },
    { "object and file names with markup read back", test_table_names_escaped },
    { "a call tree survives XML", test_tree_round_trip },
    { "event scales and arc splits survive XML", test_scale_and_arc_split },
    { "broken documents give clear errors", test_broken_documents },
    { "references in attributes read as what they stand for", test_references_in_attributes },
    { "version 1 elements and version 2 rows read alike", test_versions_read_alike },
    { "rows read on a worker thread read alike", test_blocks_read_alike },
    { "function rows' names hashed ahead read back", test_function_names_read_ahead },
    { "arc rows read in one pass or by fields alike", test_arc_rows_read_alike },
    { "large rows formatted on other threads", test_large_rows_written_alike },
    { NULL, NULL },
  };
  return cg_test_main ("xml", cases);
}
