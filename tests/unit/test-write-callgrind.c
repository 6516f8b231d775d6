/* test-write-callgrind.c — callgrind output read back by our reader:
 * random executions (whose graphs are what callgrind itself would
 * record) and arbitrary random graphs must come back as the same graph,
 * unless the writer said why not; profiles without the recursion split
 * keep their nested marks; estimates come back rounded. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cg-test.h"

#define NE 2

typedef struct {
  guint count;
  GString *messages;
} Warnings;

static void
collect (const char *message, gpointer data)
{
  Warnings *w = data;
  w->count++;
  g_string_append_printf (w->messages, "%s\n", message);
}

/* Writes @p with its measured costs and reads the file back. */
static CgProfile *
round_trip (CgProfile *p, Warnings *w, char **text)
{
  CgCosts *c = cg_method_ensure (p, CG_METHOD_MEASURED, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  CgCallgrindWriteOptions o = { collect, w, "test" };
  CU_ASSERT_TRUE (cg_write_callgrind (p, c, &o, f, NULL));
  fclose (f);
  g_autoptr (GError) error = NULL;
  CgProfile *q = cg_test_read_string (buf, &error);
  if (q == NULL)
    fprintf (stderr, "read back: %s\n%s\n", error->message, buf);
  CU_ASSERT_PTR_NOT_NULL (q);
  if (text)
    *text = buf;
  else
    free (buf);
  return q;
}

static gboolean
same_values (const CgValue *a, const CgValue *b, guint n)
{
  for (guint e = 0; e < n; e++)
    if ((a ? a[e].n : 0) != (b ? b[e].n : 0))
      return FALSE;
  return TRUE;
}

/* The same functions (by object and name), self, spontaneous, arcs with
 * calls and inclusive costs, and the same measured totals. */
static gboolean
same_graph (CgProfile *p, CgProfile *q)
{
  CgGraph *a = cg_profile_graph (p), *b = cg_profile_graph (q);
  guint ne = cg_graph_n_events (a);
  if (cg_graph_n_functions (a) != cg_graph_n_functions (b) || cg_graph_n_arcs (a) != cg_graph_n_arcs (b)
      || cg_graph_n_events (b) != ne)
    return FALSE;
  g_autofree CgFunctionId *map = g_new (CgFunctionId, cg_graph_n_functions (a) + 1);
  for (CgFunctionId f = 0; f < cg_graph_n_functions (a); f++)
    {
      map[f] = cg_graph_lookup_function (b, cg_graph_intern (b, cg_graph_function_object (a, f), -1),
                                         cg_graph_intern (b, cg_graph_function_name (a, f), -1));
      if (map[f] == CG_NO_ID || !same_values (cg_graph_self_const (a, f), cg_graph_self_const (b, map[f]), ne)
          || !same_values (cg_graph_spontaneous (a, f), cg_graph_spontaneous (b, map[f]), ne)
          || cg_graph_function_flags (a, f) != cg_graph_function_flags (b, map[f]))
        return FALSE;
    }
  CgCosts *ca = cg_method_ensure (p, CG_METHOD_MEASURED, NULL), *cb = cg_method_ensure (q, CG_METHOD_MEASURED, NULL);
  for (CgArcId x = 0; x < cg_graph_n_arcs (a); x++)
    {
      /* arcs between members of a cycle whose calls nest carry estimates,
       * which the writer fits to the members' totals (for
       * callgrind_annotate's sums): estimated again, not the same */
      gboolean estimated = cg_costs_arc_is_estimated (ca, x);
      CgArcId y = cg_graph_lookup_arc (b, map[cg_graph_arc_caller (a, x)], map[cg_graph_arc_callee (a, x)]);
      /* an arc of no counted calls comes back with the calls the format
       * needs to carry its cost (callgrind_annotate reads calls=0 as
       * self cost) */
      gboolean uncounted = cg_graph_arc_calls (a, x) == 0;
      if (y == CG_NO_ID || (!uncounted && cg_graph_arc_calls (a, x) != cg_graph_arc_calls (b, y))
          || (estimated ? !cg_costs_arc_is_estimated (cb, y)
                        : !same_values (cg_graph_arc_inclusive_const (a, x), cg_graph_arc_inclusive_const (b, y), ne)))
        return FALSE;
    }
  for (CgFunctionId f = 0; f < cg_graph_n_functions (a); f++)
    if (!same_values (cg_costs_total_const (ca, f), cg_costs_total_const (cb, map[f]), ne)
        || cg_costs_total_is_estimated (ca, f) != cg_costs_total_is_estimated (cb, map[f]))
      return FALSE;
  return TRUE;
}

static CgProfile *
empty_profile (void)
{
  CgProfile *p = cg_profile_new ();
  guint e;
  cg_profile_ensure_event (p, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL);
  cg_profile_ensure_event (p, "Dr", "Dr", CG_KIND_INTEGER, &e, NULL);
  cg_graph_set_has_inclusive (cg_profile_graph (p), TRUE);
  return p;
}

/* A function of a small random set: names repeat across objects, files
 * are sometimes unknown. */
static CgFunctionId
random_function (CgGraph *g, GRand *r, guint n)
{
  static const char *const objects[] = { "/bin/prog", "/lib/libc.so.6", "" };
  static const char *const files[] = { "prog.c", "", "(weird) file.c" };
  char name[32];
  guint i = g_rand_int_range (r, 0, n);
  g_snprintf (name, sizeof name, i % 3 == 0 ? "(f%u)" : "f%u", i / 2);
  CgFunctionId f = cg_graph_ensure_function (g, objects[i % 3], name);
  cg_graph_function_set_location (g, f, files[i % 3], i);
  return f;
}

/* ---- random executions, recorded as callgrind records them ---- */

typedef struct {
  CgFunctionId function;
  gint parent;
  guint64 self[NE];
  guint64 inclusive[NE];
} Activation;

static void
record (CgProfile *p, GArray *acts)
{
  CgGraph *g = cg_profile_graph (p);
  for (guint i = acts->len; i-- > 0;)
    {
      Activation *x = &g_array_index (acts, Activation, i);
      for (guint e = 0; e < NE; e++)
        x->inclusive[e] += x->self[e];
      if (x->parent >= 0)
        for (guint e = 0; e < NE; e++)
          g_array_index (acts, Activation, x->parent).inclusive[e] += x->inclusive[e];
    }
  for (guint i = 0; i < acts->len; i++)
    {
      Activation *x = &g_array_index (acts, Activation, i);
      for (guint e = 0; e < NE; e++)
        cg_graph_self (g, x->function)[e].n += x->self[e];
      gboolean outermost = TRUE;
      for (gint y = x->parent; y >= 0; y = g_array_index (acts, Activation, y).parent)
        outermost &= g_array_index (acts, Activation, y).function != x->function;
      if (x->parent < 0)
        {
          for (guint e = 0; e < NE; e++)
            cg_graph_spontaneous_mut (g, x->function)[e].n += x->inclusive[e];
          continue;
        }
      CgFunctionId caller = g_array_index (acts, Activation, x->parent).function;
      CgArcId a = cg_graph_ensure_arc (g, caller, x->function);
      cg_graph_arc_add_calls (g, a, 1);
      if (outermost)
        for (guint e = 0; e < NE; e++)
          cg_graph_arc_inclusive (g, a)[e].n += x->inclusive[e];
    }
}

static void
test_random_executions (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (31);
  for (guint round = 0; round < 300; round++)
    {
      g_autoptr (CgProfile) p = empty_profile ();
      CgGraph *g = cg_profile_graph (p);
      g_autoptr (GArray) acts = g_array_new (FALSE, TRUE, sizeof (Activation));
      guint n = g_rand_int_range (r, 1, 80), nf = g_rand_int_range (r, 1, 12);
      for (guint i = 0; i < n; i++)
        {
          Activation x = { random_function (g, r, nf), -1, { 0 }, { 0 } };
          /* a few roots (threads, dumps), mostly calls */
          if (i > 0 && g_rand_int_range (r, 0, 8) != 0)
            x.parent = g_rand_int_range (r, MAX (0, (gint) i - 6), i);
          x.self[0] = g_rand_int_range (r, 0, 1000);
          x.self[1] = g_rand_int_range (r, 0, 3);
          g_array_append_val (acts, x);
        }
      record (p, acts);
      Warnings w = { 0, g_string_new (NULL) };
      g_autoptr (CgProfile) q = round_trip (p, &w, NULL);
      CU_ASSERT_EQUAL (w.count, 0);
      CU_ASSERT_TRUE (q && same_graph (p, q));
      g_string_free (w.messages, TRUE);
    }
}

/* ---- arbitrary graphs: the same graph back, or a warning ---- */

static void
test_random_graphs (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (32);
  guint exact = 0;
  for (guint round = 0; round < 300; round++)
    {
      g_autoptr (CgProfile) p = empty_profile ();
      CgGraph *g = cg_profile_graph (p);
      guint nf = g_rand_int_range (r, 1, 10);
      for (guint i = 0, n = g_rand_int_range (r, 1, 12); i < n; i++)
        {
          CgFunctionId f = random_function (g, r, nf);
          cg_graph_self (g, f)[0].n += g_rand_int_range (r, 0, 50);
          if (g_rand_int_range (r, 0, 3) == 0)
            cg_graph_spontaneous_mut (g, f)[0].n += g_rand_int_range (r, 0, 200);
        }
      for (guint i = 0, n = g_rand_int_range (r, 0, 15); i < n; i++)
        {
          CgFunctionId a = random_function (g, r, nf), b = random_function (g, r, nf);
          CgArcId x = cg_graph_ensure_arc (g, a, b);
          cg_graph_arc_add_calls (g, x, g_rand_int_range (r, 0, 4));
          if (a != b)
            cg_graph_arc_inclusive (g, x)[0].n += g_rand_int_range (r, 0, 100);
        }
      Warnings w = { 0, g_string_new (NULL) };
      g_autoptr (CgProfile) q = round_trip (p, &w, NULL);
      CU_ASSERT_PTR_NOT_NULL (q);
      if (w.count == 0)
        {
          CU_ASSERT_TRUE (q && same_graph (p, q));
          exact++;
        }
      else
        CU_ASSERT_TRUE (strstr (w.messages->str, "cannot express") != NULL
                        || strstr (w.messages->str, "written with more than was measured") != NULL);
      g_string_free (w.messages, TRUE);
    }
  /* both branches are taken (about a third of these graphs, drawn with no
   * regard for how a program runs, fit callgrind's format) */
  CU_ASSERT_TRUE (exact > 50 && exact < 300);
}

/* ---- without the recursion split ---- */

static const char nested_profile[] =
  "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\nevents: Ir\n"
  "fn=main\n1 10\ncfn=a\ncalls=1 1\n1 100\n"
  "fn=a\n1 20\ncfn=b\ncalls=2 1\n1 80\ncfn=a\ncalls=1 1\n1 50\n"
  "fn=b\n1 30\ncfn=a\ncalls=1 1\n1 60\n"
  "totals: 60\n";

static void
test_nested_marks_survive (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string (nested_profile, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CgGraph *g = cg_profile_graph (p);
  guint nested = 0;
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    nested += (cg_graph_function_flags (g, f) & CG_FUNCTION_NESTED) != 0;
  CU_ASSERT_EQUAL (nested, 2);
  Warnings w = { 0, g_string_new (NULL) };
  char *text = NULL;
  g_autoptr (CgProfile) q = round_trip (p, &w, &text);
  CU_ASSERT_EQUAL (w.count, 0);
  CU_ASSERT_TRUE (q && same_graph (p, q));
  /* no "'2" name, or the reader would take the file for a split one */
  CU_ASSERT_PTR_NULL (strstr (text, "'2"));
  free (text);
  g_string_free (w.messages, TRUE);
}

/* ---- a called function that was also started spontaneously ---- */

static void
test_called_and_spontaneous (void)
{
  g_autoptr (CgProfile) p = empty_profile ();
  CgGraph *g = cg_profile_graph (p);
  CgFunctionId m = cg_graph_ensure_function (g, "", "main"), t = cg_graph_ensure_function (g, "", "worker");
  CgFunctionId leaf = cg_graph_ensure_function (g, "", "leaf");
  cg_graph_self (g, m)[0].n = 5;
  cg_graph_self (g, t)[0].n = 30;
  cg_graph_self (g, leaf)[0].n = 40;
  CgArcId a = cg_graph_ensure_arc (g, m, t), b = cg_graph_ensure_arc (g, t, leaf);
  cg_graph_arc_add_calls (g, a, 1);
  cg_graph_arc_add_calls (g, b, 2);
  /* main ran worker once (10 + 20 of leaf); worker also ran as a thread
   * (20 + 20 of leaf) */
  cg_graph_arc_inclusive (g, a)[0].n = 30;
  cg_graph_arc_inclusive (g, b)[0].n = 40;
  cg_graph_spontaneous_mut (g, m)[0].n = 35;
  cg_graph_spontaneous_mut (g, t)[0].n = 40;
  Warnings w = { 0, g_string_new (NULL) };
  char *text = NULL;
  g_autoptr (CgProfile) q = round_trip (p, &w, &text);
  CU_ASSERT_EQUAL (w.count, 0);
  CU_ASSERT_TRUE (q && same_graph (p, q));
  CU_ASSERT_PTR_NOT_NULL (strstr (text, "worker'<spontaneous>"));
  CU_ASSERT_EQUAL (cg_test_total (cg_profile_graph (q), cg_profile_costs (q) ? cg_profile_costs (q)
                                  : cg_method_ensure (q, CG_METHOD_MEASURED, NULL), "worker"), 70);
  free (text);
  g_string_free (w.messages, TRUE);
}

/* ---- one name, two objects: two ids ---- */

static void
test_one_id_per_function (void)
{
  /* KCachegrind binds an fn= id to one function: "(below main)" of the
   * program and of libc, and strlen in both, need an id each (one id
   * showed (below main) at 188.90%, called twice) */
  g_autoptr (CgProfile) p = empty_profile ();
  CgGraph *g = cg_profile_graph (p);
  const char *const objects[] = { "/bin/prog", "/lib/libc.so.6" };
  for (guint i = 0; i < 2; i++)
    {
      CgFunctionId below = cg_graph_ensure_function (g, objects[i], "(below main)");
      CgFunctionId s = cg_graph_ensure_function (g, objects[i], "strlen");
      cg_graph_self (g, s)[0].n = 7 + i;
      cg_graph_self (g, below)[0].n = 1;
      CgArcId a = cg_graph_ensure_arc (g, below, s);
      cg_graph_arc_add_calls (g, a, 1);
      cg_graph_arc_inclusive (g, a)[0].n = 7 + i;
      cg_graph_spontaneous_mut (g, below)[0].n = 8 + i;
    }
  Warnings w = { 0, g_string_new (NULL) };
  char *text = NULL;
  g_autoptr (CgProfile) q = round_trip (p, &w, &text);
  CU_ASSERT_EQUAL (w.count, 0);
  CU_ASSERT_TRUE (q && same_graph (p, q));
  guint definitions = 0, strlens = 0;
  for (const char *t = text; (t = strstr (t, "fn=(")) != NULL; t++)
    {
      const char *name = strchr (t, ')') + 1;
      definitions += g_str_has_prefix (name, " (below main)\n");
      strlens += g_str_has_prefix (name, " strlen\n");
    }
  CU_ASSERT_EQUAL (definitions, 2);
  CU_ASSERT_EQUAL (strlens, 2);
  free (text);
  g_string_free (w.messages, TRUE);
}

/* ---- estimates: rounded, and said so ---- */

/* gprof's estimates for main (@main_total) and f; the warnings written */
static void
write_estimates (gdouble main_total, Warnings *w, char **buf)
{
  g_autoptr (CgProfile) p = empty_profile ();
  CgGraph *g = cg_profile_graph (p);
  CgFunctionId m = cg_graph_ensure_function (g, "", "main"), f = cg_graph_ensure_function (g, "", "f");
  cg_graph_self (g, m)[0].n = 1;
  cg_graph_self (g, f)[0].n = 2;
  CgArcId a = cg_graph_ensure_arc (g, m, f);
  cg_graph_arc_add_calls (g, a, 3);
  g_autoptr (CgCosts) c = cg_costs_new (CG_METHOD_GPROF, g);
  cg_costs_total (c, m)[0].x = main_total;
  cg_costs_total (c, f)[0].x = 2.0;
  cg_costs_arc (c, a)[0].x = 2.0;
  size_t len = 0;
  FILE *out = open_memstream (buf, &len);
  CgCallgrindWriteOptions o = { collect, w, NULL };
  CU_ASSERT_TRUE (cg_write_callgrind (p, c, &o, out, NULL));
  fclose (out);
}

static void
test_estimates_rounded (void)
{
  char *buf = NULL;
  Warnings w = { 0, g_string_new (NULL) };
  write_estimates (3.25, &w, &buf);
  CU_ASSERT_PTR_NOT_NULL (strstr (w.messages->str, "rounded"));
  g_autoptr (CgProfile) q = cg_test_read_string (buf, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (q);
  CgCosts *cq = cg_method_ensure (q, CG_METHOD_MEASURED, NULL);
  CU_ASSERT_EQUAL (cg_test_total (cg_profile_graph (q), cq, "main"), 3);
  CU_ASSERT_EQUAL (cg_test_total (cg_profile_graph (q), cq, "f"), 2);
  free (buf);
  g_string_free (w.messages, TRUE);
}

/* whole numbers, though of a real kind, need no rounding and no warning */
static void
test_whole_estimates_silent (void)
{
  char *buf = NULL;
  Warnings w = { 0, g_string_new (NULL) };
  write_estimates (3.0, &w, &buf);
  CU_ASSERT_EQUAL (w.count, 0);
  CU_ASSERT_PTR_NULL (strstr (w.messages->str, "rounded"));
  free (buf);
  g_string_free (w.messages, TRUE);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "random executions come back as the same graph", test_random_executions },
    { "arbitrary graphs come back the same, or a warning says why not", test_random_graphs },
    { "nested marks (--separate-recs=1) survive", test_nested_marks_survive },
    { "called and spontaneous: a context of its own", test_called_and_spontaneous },
    { "one name in two objects: an id each", test_one_id_per_function },
    { "estimates come back rounded, with a warning", test_estimates_rounded },
    { "whole estimates need no warning", test_whole_estimates_silent },
    { NULL, NULL },
  };
  return cg_test_main ("write-callgrind", cases);
}
