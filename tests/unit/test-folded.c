/* test-folded.c — folded stacks in and out: the dialects, what is built
 * (tree, Kaes's merge), bad lines, and the round trip. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cg-test.h"

static CgFunctionId
lookup (CgProfile *p, const char *name)
{
  return cg_graph_lookup_function (cg_profile_graph (p), "", name);
}

static CgValue
self_of (CgProfile *p, const char *name)
{
  CgFunctionId f = lookup (p, name);
  CU_ASSERT_NOT_EQUAL_FATAL (f, CG_NO_ID);
  return cg_graph_self (cg_profile_graph (p), f)[0];
}

static void
test_merge_builds_tree_and_graph (void)
{
  /* Kaes: V_t = functions of the frames, E_t = their caller→callee
   * pairs, c_i = Σ c_0; identical stacks are summed; calls are 0 */
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string ("main;a;b 5\nmain;a 3\nmain;c;a;b 2\nmain;a;b 1\n", &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CgGraph *g = cg_profile_graph (p);
  CgTree *t = cg_profile_tree (p);
  CU_ASSERT_PTR_NOT_NULL_FATAL (t);
  CU_ASSERT_EQUAL (cg_graph_n_events (g), 1);
  CU_ASSERT_STRING_EQUAL (cg_graph_event_name (g, 0), "samples");
  CU_ASSERT_EQUAL (cg_graph_event_kind (g, 0), CG_KIND_INTEGER);
  CU_ASSERT_EQUAL (cg_tree_n_frames (t), 6); /* main, a, b, c, a, b */
  CU_ASSERT_EQUAL (cg_graph_n_functions (g), 4);
  CU_ASSERT_EQUAL (cg_graph_n_arcs (g), 4); /* main→a, a→b, main→c, c→a */
  CU_ASSERT_EQUAL (self_of (p, "b").n, 8);
  CU_ASSERT_EQUAL (self_of (p, "a").n, 3);
  CU_ASSERT_EQUAL (self_of (p, "main").n, 0);
  for (CgArcId a = 0; a < cg_graph_n_arcs (g); a++)
    CU_ASSERT_EQUAL (cg_graph_arc_calls (g, a), 0);
  CU_ASSERT_STRING_EQUAL (cg_profile_source (p, 0)->format, "folded");
}

static void
test_dialects (void)
{
  /* blanks inside frames, tabs and several blanks before the count,
   * trailing blanks, CRLF, comments and empty lines, stackcollapse-perf's "_[k]",
   * py-spy's "name (file:line)", a count of 0 */
  static const char text[] = "# perf script | stackcollapse-perf.pl\n"
                             "\n"
                             "python3 (1234);<module> (app.py:10);work (app.py:3) 7\n"
                             "swapper;secondary_startup_64_[k];cpu_idle_[k]\t12\r\n"
                             "a b;c d   4   \n"
                             "zero;leaf 0\n";
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string (text, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CU_ASSERT_EQUAL (self_of (p, "work (app.py:3)").n, 7);
  /* the kernel's function, its annotation not part of its name */
  CgFunctionId idle = cg_graph_lookup_function (cg_profile_graph (p), "[kernel.kallsyms]", "cpu_idle");
  CU_ASSERT_NOT_EQUAL_FATAL (idle, CG_NO_ID);
  CU_ASSERT_EQUAL (cg_graph_self (cg_profile_graph (p), idle)[0].n, 12);
  CU_ASSERT_EQUAL (self_of (p, "c d").n, 4);
  CU_ASSERT_NOT_EQUAL (lookup (p, "a b"), CG_NO_ID);
  CU_ASSERT_NOT_EQUAL (lookup (p, "python3 (1234)"), CG_NO_ID);
  CU_ASSERT_EQUAL (self_of (p, "leaf").n, 0);
}

static void
test_decimal_counts (void)
{
  /* integers first, then decimals: the event turns real and keeps the
   * earlier values; "12." is a decimal as flamegraph.pl reads it */
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string ("a;b 3\na;c 2.5\na;b 12.\n", &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CgGraph *g = cg_profile_graph (p);
  CU_ASSERT_EQUAL (cg_graph_event_kind (g, 0), CG_KIND_REAL);
  CU_ASSERT_DOUBLE_EQUAL (self_of (p, "b").x, 15.0, 0);
  CU_ASSERT_DOUBLE_EQUAL (self_of (p, "c").x, 2.5, 0);
  g_autoptr (CgCosts) c = cg_method_compute (p, CG_METHOD_AUTO, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  CU_ASSERT_EQUAL (cg_costs_method (c), CG_METHOD_EXACT);
  CU_ASSERT_DOUBLE_EQUAL (cg_costs_total (c, lookup (p, "a"))->x, 17.5, 0);
}

typedef struct {
  const char *text;
  int code;
  const char *fragment;
} BadCase;

static void
test_bad_lines (void)
{
  static const BadCase cases[] = {
    { "a;b 1\na;b\n", CG_ERROR_PARSE, ":2: not a folded stack (frame;frame;... COUNT): no count at the end" },
    { "a;b 1\n\na;;b 2\n", CG_ERROR_PARSE, ":3: not a folded stack (frame;frame;... COUNT): empty frame name" },
    { "a;b 1\n;a 2\n", CG_ERROR_PARSE, ":2: not a folded stack (frame;frame;... COUNT): empty frame name" },
    { "a;b 1\na; 2\n", CG_ERROR_PARSE, ":2: not a folded stack (frame;frame;... COUNT): empty frame name" },
    { "a;b 1\na;b 1.2.3\n", CG_ERROR_PARSE, ":2: not a folded stack (frame;frame;... COUNT): malformed count" },
    { "a;b 1\n42\n", CG_ERROR_PARSE, ":2: not a folded stack (frame;frame;... COUNT): no stack before the count" },
    { "a;b 1\na;b7\n", CG_ERROR_PARSE, ":2: not a folded stack (frame;frame;... COUNT): no blank between" },
    { "a;b 1\na;b .\n", CG_ERROR_PARSE, ":2: not a folded stack (frame;frame;... COUNT): malformed count" },
    { "a;b 1\na;b 18446744073709551616\n", CG_ERROR_OVERFLOW, ":2: a count exceeds" },
    { "a 18446744073709551615\nb;a 1\n", CG_ERROR_OVERFLOW, ":2: a count exceeds" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GError *error = NULL;
      g_autoptr (CgProfile) p = cg_test_read_string (cases[i].text, &error);
      CU_ASSERT_PTR_NULL (p);
      CG_ASSERT_ERROR (error, cases[i].code, cases[i].fragment);
      g_clear_error (&error);
    }
}

static void
collect (const char *message, gpointer data)
{
  g_ptr_array_add (data, g_strdup (message));
}

static void
test_lenient (void)
{
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  CgReadOptions options = { .lenient = TRUE, .warn = collect, .warn_data = warnings };
  /* a decimal count too long to read (past the 400 characters of any
   * double's plain digits) is skipped without making the event real */
  g_autofree char *zeros = g_strnfill (420, '0');
  g_autofree char *text = g_strdup_printf ("a;b 1\nbroken\na;b 2\na;;c 3\nx;y 4\nz 1.%s\n", zeros);
  char *path = cg_test_temp_file (text, -1);
  g_autoptr (CgProfile) p = cg_profile_new ();
  GError *error = NULL;
  CU_ASSERT_TRUE (cg_read_file (p, path, &options, &error));
  CU_ASSERT_EQUAL (self_of (p, "b").n, 3);
  CU_ASSERT_EQUAL (self_of (p, "y").n, 4);
  CU_ASSERT_EQUAL (cg_graph_event_kind (cg_profile_graph (p), 0), CG_KIND_INTEGER);
  CU_ASSERT_EQUAL_FATAL (warnings->len, 1);
  const char *w = g_ptr_array_index (warnings, 0);
  CU_ASSERT_PTR_NOT_NULL (strstr (w, "skipped 3 lines that are not folded stacks (the first, line 2: no count"));
  cg_test_remove (path);
}

/* the name of the format detected in the whole input @text, or "unknown" */
static const char *
detected (const char *text, gsize len, gboolean complete)
{
  const CgFormatInfo *format = cg_formats_detect ((const guint8 *) text, len, complete);
  return format ? format->name : "unknown";
}

static void
test_detection (void)
{
  CU_ASSERT_STRING_EQUAL (detected ("a;b 1\n", 6, TRUE), "folded stacks");
  CU_ASSERT_STRING_EQUAL (detected ("# comment\nmain;f 12.5\n", 22, TRUE), "folded stacks");
  CU_ASSERT_STRING_EQUAL (detected ("a;b 1\r\nc 2\r\n", 12, TRUE), "folded stacks");
  /* stacks of one frame alone are any "name number" text (formats/folded.md) */
  CU_ASSERT_STRING_EQUAL (detected ("# comment\nmain 12.5\n", 20, TRUE), "unknown");
  CU_ASSERT_STRING_EQUAL (detected ("foo 12\n", 7, TRUE), "unknown");
  /* the first line and most lines must be stacks: a Java hprof file's first
   * line ends in a number */
  static const char hprof[] = "JAVA PROFILE 1.0.1, created Tue Nov 24 10:11:12 2026\n\n"
                              "This file contains the following types of records:\n\nTHREAD START\n";
  CU_ASSERT_STRING_EQUAL (detected (hprof, sizeof hprof - 1, TRUE), "unknown");
  CU_ASSERT_STRING_EQUAL (detected ("x\na;b 1\n", 8, TRUE), "unknown");
  CU_ASSERT_STRING_EQUAL (detected ("a;b 1\nx\ny\n", 11, TRUE), "unknown");
  CU_ASSERT_STRING_EQUAL (detected ("a;b 1\nx\n", 8, TRUE), "folded stacks");
  CU_ASSERT_STRING_EQUAL (detected ("hello world\n", 12, TRUE), "unknown");
  CU_ASSERT_STRING_EQUAL (detected ("events: Ir 1\n", 13, TRUE), "callgrind");
  CU_ASSERT_STRING_EQUAL (detected ("a\001;b 1\n", 7, TRUE), "unknown");
  /* a first line longer than the detection window: a deep stack */
  GString *deep = g_string_new (NULL);
  while (deep->len < 10000)
    g_string_append (deep, "frame;");
  g_string_append (deep, "leaf 1\n");
  CU_ASSERT_STRING_EQUAL (detected (deep->str, 4096, FALSE), "folded stacks");
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string (deep->str, &error);
  CU_ASSERT_PTR_NOT_NULL (p);
  g_string_free (deep, TRUE);
}

static int
compare_strings (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The lines of @text sorted. */
static char *
sorted_lines (const char *text)
{
  char **lines = g_strsplit (text, "\n", -1);
  guint n = g_strv_length (lines);
  if (n > 0 && lines[n - 1][0] == '\0')
    {
      g_free (lines[n - 1]);
      lines[--n] = NULL;
    }
  qsort (lines, n, sizeof (char *), compare_strings);
  char *joined = g_strjoinv ("\n", lines);
  g_strfreev (lines);
  return joined;
}

static char *
write_folded (CgProfile *p)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  cg_write_folded (cg_profile_graph (p), cg_profile_tree (p), 0, f);
  fclose (f);
  return buf;
}

static void
test_round_trip (void)
{
  /* folded → cgtools → folded gives the same lines, after sorting;
   * through XML as well */
  static const char text[] = "main;parse;expr;term;expr;term 120\n"
                             "main;parse;expr 3\n"
                             "python3 (12);f (x.py:1);g_[k] 5\n"
                             "main 1\n"
                             "main;parse;expr;term;factor 0\n"
                             "other 2.5\n";
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string (text, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  g_autofree char *out = write_folded (p);
  g_autofree char *want = sorted_lines (text);
  g_autofree char *got = sorted_lines (out);
  CU_ASSERT_STRING_EQUAL (got, want);

  char *xml = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&xml, &len);
  CU_ASSERT_TRUE (cg_write_xml (p, f, "memory", &error));
  fclose (f);
  g_autoptr (CgProfile) q = cg_test_read_string (xml, &error);
  free (xml);
  CU_ASSERT_PTR_NOT_NULL_FATAL (q);
  g_autofree char *out2 = write_folded (q);
  CU_ASSERT_STRING_EQUAL (out2, out);
}

static void
test_writer_names (void)
{
  /* a ';' in a name cannot be written as is: ':' as stackcollapse does;
   * children come in name order; frames without cost but with children
   * are not lines */
  g_autoptr (CgProfile) p = cg_profile_new ();
  guint e;
  cg_profile_ensure_event (p, "time", "seconds", CG_KIND_INTEGER, &e, NULL);
  CgGraph *g = cg_profile_graph (p);
  CgTree *t = cg_profile_ensure_tree (p);
  CgFunctionId m = cg_graph_ensure_function (g, "", "main");
  CgFunctionId odd = cg_graph_ensure_function (g, "", "odd;name");
  CgFunctionId z = cg_graph_ensure_function (g, "", "z");
  CgFrameId x = cg_tree_ensure_child (t, CG_NO_ID, m);
  cg_tree_self (t, cg_tree_ensure_child (t, x, z))->n = 2;
  cg_tree_self (t, cg_tree_ensure_child (t, x, odd))->n = 1;
  cg_graph_set_event_scale (g, 0, 0.5);
  g_autofree char *out = write_folded (p);
  CU_ASSERT_STRING_EQUAL (out, "main;odd:name 0.5\nmain;z 1\n");
}

static void
test_merging_two_files (void)
{
  char *one = cg_test_temp_file ("a;b 1\n", -1), *two = cg_test_temp_file ("a;b 2\na;c 5\n", -1);
  g_autoptr (CgProfile) p = cg_profile_new ();
  GError *error = NULL;
  CU_ASSERT_TRUE (cg_read_file (p, one, NULL, &error));
  CU_ASSERT_TRUE (cg_read_file (p, two, NULL, &error));
  CU_ASSERT_EQUAL (cg_tree_n_frames (cg_profile_tree (p)), 3);
  CU_ASSERT_EQUAL (self_of (p, "b").n, 3);
  CU_ASSERT_EQUAL (cg_profile_n_sources (p), 2);
  cg_test_remove (one);
  cg_test_remove (two);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "merge builds tree and graph", test_merge_builds_tree_and_graph },
    { "dialects", test_dialects },
    { "decimal counts", test_decimal_counts },
    { "bad lines", test_bad_lines },
    { "lenient", test_lenient },
    { "detection", test_detection },
    { "round trip", test_round_trip },
    { "writer names", test_writer_names },
    { "merging two files", test_merging_two_files },
    { NULL, NULL },
  };
  return cg_test_main ("folded", cases);
}
