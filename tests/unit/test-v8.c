/* test-v8.c — V8 CPU profiles: the samples' times (cg-v8-times.h) worked
 * out by hand, detection (cg-v8-detect.h) on V8's shape and on JSON of
 * other shapes, the checks before json-glib (cg-json-lex.h), and the reader on a
 * recursion 100,000 deep (the tree walk and Min_E without recursion). */
#include "config.h"

#include <string.h>

#include "cg-json-lex.h"
#include "cg-read-v8.h"
#include "cg-test.h"
#include "cg-v8-detect.h"
#include "cg-v8-times.h"

static void
test_times (void)
{
  /* times 10, 20, 40, 45, 35 (out of order), 65; end 100: in time order
   * 10 lasts 10, 20 15, 35 5, 40 5, 45 20, 65 35 (us) */
  const gint64 deltas[] = { 10, 10, 20, 5, -10, 30 };
  const guint64 want[] = { 10000, 15000, 5000, 20000, 5000, 35000 };
  guint64 ns[G_N_ELEMENTS (deltas)];
  GError *error = NULL;
  CU_ASSERT_TRUE (cg_v8_sample_times ("t", deltas, G_N_ELEMENTS (deltas), 0, 100, ns, &error));
  for (guint i = 0; i < G_N_ELEMENTS (deltas); i++)
    CU_ASSERT_EQUAL (ns[i], want[i]);
  /* samples of one time: all but the last stand for 0 */
  const gint64 same[] = { 5, 0, 0 };
  CU_ASSERT_TRUE (cg_v8_sample_times ("t", same, 3, 0, 9, ns, &error));
  CU_ASSERT_EQUAL (ns[0], 0);
  CU_ASSERT_EQUAL (ns[1], 0);
  CU_ASSERT_EQUAL (ns[2], 4000);
  /* a sample after endTime */
  const gint64 late[] = { 5, 6 };
  CU_ASSERT_FALSE (cg_v8_sample_times ("t", late, 2, 0, 10, ns, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "t: timeDeltas[1]: the sample's time (11 us");
  g_clear_error (&error);
  /* times past 64 bits */
  const gint64 huge[] = { G_MAXINT64, 1 };
  CU_ASSERT_FALSE (cg_v8_sample_times ("t", huge, 2, 0, G_MAXINT64, ns, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_OVERFLOW, "timeDeltas[1]");
  g_clear_error (&error);
  /* a duration past 64 bits in ns */
  const gint64 long_one[] = { 0 };
  CU_ASSERT_FALSE (cg_v8_sample_times ("t", long_one, 1, G_MININT64 / 2, G_MAXINT64 / 2, ns, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_OVERFLOW, "nanoseconds");
  g_clear_error (&error);
}

static gboolean
detect (const char *text, gboolean complete)
{
  return cg_v8_detect ((const guint8 *) text, strlen (text), complete);
}

static void
test_detect (void)
{
  /* V8's shape: nodes first, their callFrame shows it, cut anywhere */
  const char *v8 = "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\"}}],"
                   "\"startTime\":0,\"endTime\":1,\"samples\":[],\"timeDeltas\":[]}";
  CU_ASSERT_TRUE (detect (v8, TRUE));
  for (gsize cut = strlen ("{\"nodes\":[{\"id\":1,\"callFrame\""); cut < strlen (v8); cut++)
    {
      g_autofree char *head = g_strndup (v8, cut);
      CU_ASSERT_TRUE (detect (head, FALSE));
    }
  CU_ASSERT_TRUE (detect ("\xEF\xBB\xBF {\n  \"nodes\": [],\n  \"samples\": [1]\n}", TRUE));
  CU_ASSERT_TRUE (detect ("{\"samples\":[],\"nodes\":[]}", TRUE));
  /* before the window shows callFrame, samples or timeDeltas: not yet */
  CU_ASSERT_FALSE (detect ("{\"nodes\":[{\"id\":1,", FALSE));
  /* other JSON: a trace (a ProfileChunk's cpuProfile nests its nodes), an
   * array, nodes elsewhere, a string that merely says "callFrame" */
  CU_ASSERT_FALSE (detect ("{\"traceEvents\":[{\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[{\"callFrame\":{}}],"
                           "\"samples\":[]}}}}]}", TRUE));
  CU_ASSERT_FALSE (detect ("[{\"nodes\":[{\"callFrame\":{}}]}]", TRUE));
  CU_ASSERT_FALSE (detect ("{\"x\":{\"nodes\":[{\"callFrame\":{}}],\"samples\":[]}}", TRUE));
  CU_ASSERT_FALSE (detect ("{\"nodes\":[\"callFrame\"]}", TRUE));
  CU_ASSERT_FALSE (detect ("{\"nodes\":[{\"callFrame\":{}}]} trailing", TRUE));
  CU_ASSERT_FALSE (detect ("{\"nodes\" [{\"callFrame\":{}}]}", TRUE));
  CU_ASSERT_FALSE (detect ("{\"nodes\":[{\"callFrame\":{\"a\":tru}}]}", TRUE));
  CU_ASSERT_FALSE (detect ("{\"nodes\":[{\"callFrame\":\"\\q\"}]}", TRUE));
  CU_ASSERT_FALSE (detect ("main;a 1\nmain;b 2\n", TRUE));
  CU_ASSERT_FALSE (detect ("", TRUE));
  /* deeper than V8 nests, inside the window */
  GString *deep = g_string_new ("{\"nodes\":[{\"callFrame\":{}}],\"x\":");
  for (int i = 0; i < 20; i++)
    g_string_append_c (deep, '[');
  CU_ASSERT_FALSE (detect (deep->str, FALSE));
  g_string_free (deep, TRUE);
}

static void
test_depth (void)
{
  guint64 line = 0, column = 0;
  CU_ASSERT_EQUAL (cg_json_lex_check ("{\"a\":[[1]]}", 11, 3, &line, &column), CG_JSON_LEX_OK);
  CU_ASSERT_EQUAL (cg_json_lex_check ("{\"a\":\n [[1]]}", 13, 2, &line, &column), CG_JSON_LEX_DEEP);
  CU_ASSERT_EQUAL (line, 2);
  CU_ASSERT_EQUAL (column, 3);
  /* brackets in strings, escaped quotes among them, do not count */
  const char *quoted = "{\"a\\\"[[[\":\"]]][[[\"}";
  CU_ASSERT_EQUAL (cg_json_lex_check (quoted, strlen (quoted), 1, &line, &column), CG_JSON_LEX_OK);
}

/* json-glib 1.6 reads 99999999999999999999 as -1 and 9223372036854775808
 * as its negative, without an error: each integer outside a gint64 is a
 * fault, where it begins; the extremes a gint64 holds, numbers with a
 * fraction or an exponent (json-glib's doubles), digits in strings and
 * leading zeros are not. */
static void
test_integers (void)
{
  static const struct {
    const char *text;
    CgJsonLex want;
    guint64 column;
  } cases[] = {
    { "[9223372036854775807,-9223372036854775808]", CG_JSON_LEX_OK, 0 },
    { "[1,9223372036854775808]", CG_JSON_LEX_INTEGER, 4 },
    { "[-9223372036854775809]", CG_JSON_LEX_INTEGER, 2 },
    { "{\"a\": 99999999999999999999}", CG_JSON_LEX_INTEGER, 7 },
    { "[18446744073709551617]", CG_JSON_LEX_INTEGER, 2 },
    { "[99999999999999999999.5,1e99999999999999999999,2E-99999999999999999999]", CG_JSON_LEX_OK, 0 },
    { "[\"99999999999999999999\",\"\\\"99999999999999999999\"]", CG_JSON_LEX_OK, 0 },
    { "[00000000000000000000000000001,-]", CG_JSON_LEX_OK, 0 },
  };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint64 line = 0, column = 0;
      CgJsonLex got = cg_json_lex_check (cases[i].text, strlen (cases[i].text), 64, &line, &column);
      CU_ASSERT_EQUAL (got, cases[i].want);
      if (got != cases[i].want)
        printf ("\n%s: %d, want %d\n", cases[i].text, got, cases[i].want);
      if (cases[i].want != CG_JSON_LEX_OK)
        {
          CU_ASSERT_EQUAL (line, 1);
          CU_ASSERT_EQUAL (column, cases[i].column);
        }
    }
}

/* One function f recursing 100,000 deep, a sample at each of the three
 * deepest levels and one at the top: f's total is the four samples once
 * each (Min_E), whatever the depth. */
static void
test_deep_recursion (void)
{
  const guint depth = 100000;
  GString *s = g_string_new ("{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\"},"
                             "\"children\":[2]}");
  for (guint id = 2; id <= depth + 1; id++)
    {
      g_string_append_printf (s, ",{\"id\":%u,\"callFrame\":{\"functionName\":\"f\",\"url\":\"r.js\","
                              "\"lineNumber\":0,\"columnNumber\":0}", id);
      if (id <= depth)
        g_string_append_printf (s, ",\"children\":[%u]", id + 1);
      g_string_append_c (s, '}');
    }
  g_string_append_printf (s, "],\"startTime\":0,\"endTime\":100,\"samples\":[%u,%u,%u,2],"
                          "\"timeDeltas\":[10,10,10,10]}", depth + 1, depth, depth - 1);
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string (s->str, &error);
  g_string_free (s, TRUE);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CU_ASSERT_PTR_NULL (error);
  CgGraph *g = cg_profile_graph (p);
  CU_ASSERT_EQUAL (cg_graph_n_functions (g), 1);
  CU_ASSERT_EQUAL (cg_tree_n_frames (cg_profile_tree (p)), depth);
  CgFunctionId f = cg_graph_lookup_function (g, "r.js", "f");
  CU_ASSERT_NOT_EQUAL_FATAL (f, CG_NO_ID);
  CgCosts *costs = cg_method_ensure (p, CG_METHOD_EXACT, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (costs);
  guint wall = (guint) cg_graph_find_event (g, "wall");
  /* times 10, 20, 30, 40; end 100: 10 + 10 + 10 + 60 us */
  CU_ASSERT_EQUAL (cg_costs_total (costs, f)[wall].n, 90000);
  CU_ASSERT_EQUAL (cg_graph_self (g, f)[wall].n, 90000);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "sample times", test_times },
    { "detection", test_detect },
    { "nesting depth", test_depth },
    { "integers past 64 bits", test_integers },
    { "recursion 100,000 deep", test_deep_recursion },
    { NULL, NULL },
  };
  return cg_test_main ("v8", cases);
}
