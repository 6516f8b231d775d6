/* cg-write-summary.c — counts, event totals and one sorted table of self
 * costs, its columns as wide as the largest number they hold. */
#include "config.h"

#include "cg-write-summary.h"

#include <string.h>

#include "cg-error.h"
#include "cg-names.h"
#include "cg-text.h"

typedef struct {
  CgGraph *graph;
  guint event; /* the first: it orders the table */
  CgKind kind;
} SelfOrder;

static gint
by_self_then_label (gconstpointer a, gconstpointer b, gpointer data)
{
  const SelfOrder *o = data;
  CgFunctionId x = *(const CgFunctionId *) a, y = *(const CgFunctionId *) b;
  int c = cg_value_compare (o->kind, cg_graph_self_const (o->graph, y)[o->event],
                            cg_graph_self_const (o->graph, x)[o->event]);
  if (c == 0)
    c = cg_graph_compare_labels (o->graph, x, y);
  return c != 0 ? c : (x > y) - (x < y);
}

/* Appends @v of @event in the event's unit times @factor (a time's in
 * the unit cg_display_unit chose), thousands grouped. */
static void
human (GString *s, CgGraph *g, guint event, CgValue v, gdouble factor)
{
  CgKind kind = cg_graph_event_kind (g, event);
  CgValue u = cg_value_scaled (&kind, v, cg_graph_event_scale (g, event) * factor);
  cg_value_append_human (s, kind, u, kind == CG_KIND_REAL ? 2 : 0);
}

/* The title of @event's column in @buf: its name, and its unit where
 * that is a time's (the heading says the others'). */
static const char *
column_title (CgGraph *g, guint event, const CgDisplayUnit *unit, GString *buf)
{
  g_string_assign (buf, cg_graph_event_name (g, event));
  if (unit->unit != cg_graph_event_unit (g, event))
    g_string_append_printf (buf, " %s", unit->unit);
  return buf->str;
}

/* Appends "@n @one" or "@n @many", @n grouped in thousands. */
static void
count (GString *s, guint64 n, const char *one, const char *many)
{
  cg_value_append_human (s, CG_KIND_INTEGER, (CgValue) { .n = n }, 0);
  g_string_append_printf (s, " %s", n == 1 ? one : many);
}

/* The line of counts: functions, objects, arcs, calls, frames, contexts. */
static gboolean
append_counts (GString *s, CgProfile *p, GError **error)
{
  CgGraph *g = cg_profile_graph (p);
  guint nf = cg_graph_n_functions (g), na = cg_graph_n_arcs (g);
  g_autoptr (GHashTable) objects = g_hash_table_new (g_str_hash, g_str_equal);
  for (CgFunctionId f = 0; f < nf; f++)
    g_hash_table_add (objects, (gpointer) cg_graph_function_object (g, f));
  guint64 calls = 0;
  for (CgArcId a = 0; a < na; a++)
    if (!g_uint64_checked_add (&calls, calls, cg_graph_arc_calls (g, a)))
      {
        g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "the number of calls exceeds the range of 64-bit counters");
        return FALSE;
      }
  count (s, nf, "function", "functions");
  g_string_append (s, " in ");
  count (s, g_hash_table_size (objects), "object", "objects");
  g_string_append (s, "; ");
  count (s, na, "arc", "arcs");
  g_string_append (s, " carrying ");
  count (s, calls, "call", "calls");
  CgTree *tree = cg_profile_tree (p);
  if (tree)
    {
      g_string_append (s, "; a call tree of ");
      count (s, cg_tree_n_frames (tree), "frame", "frames");
    }
  CgContexts *contexts = cg_profile_contexts (p);
  if (contexts)
    {
      g_string_append (s, "; ");
      count (s, cg_contexts_n (contexts), "context", "contexts");
    }
  g_string_append (s, ".\n");
  return TRUE;
}

gboolean
cg_write_summary_text (CgProfile *p, gboolean demangle, gboolean brief, FILE *stream, GError **error)
{
  CgGraph *g = cg_profile_graph (p);
  guint ne = cg_graph_n_events (g), nf = cg_graph_n_functions (g);
  g_autofree CgValue *all = g_new0 (CgValue, MAX (ne, 1));
  if (!cg_graph_self_totals (g, all))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "the total cost exceeds the range of 64-bit counters");
      return FALSE;
    }
  g_autofree CgDisplayUnit *unit = g_new (CgDisplayUnit, MAX (ne, 1));
  for (guint e = 0; e < ne; e++)
    unit[e] = cg_display_unit (cg_graph_event_unit (g, e), cg_value_to_double (cg_graph_event_kind (g, e), all[e])
                                                               * cg_graph_event_scale (g, e));
  g_autoptr (GString) s = g_string_new (NULL);
  cg_append_sources (s, p, TRUE);
  if (!append_counts (s, p, error))
    return FALSE;
  for (guint e = 0; e < ne; e++)
    {
      g_string_append_printf (s, "Event %s", cg_graph_event_name (g, e));
      if (cg_graph_event_description (g, e))
        g_string_append_printf (s, " (%s)", cg_graph_event_description (g, e));
      g_string_append (s, ": ");
      human (s, g, e, all[e], unit[e].factor);
      g_string_append_printf (s, " %s in all\n", unit[e].unit);
    }
  if (brief)
    g_string_truncate (s, 0);
  if (ne == 0 || nf == 0)
    {
      fwrite (s->str, 1, s->len, stream);
      return TRUE;
    }

  /* a column per event, as wide as its total (no self cost exceeds it)
   * and its title */
  g_autofree int *width = g_new (int, ne);
  g_autoptr (GString) t = g_string_new (NULL);
  for (guint e = 0; e < ne; e++)
    {
      g_string_truncate (t, 0);
      human (t, g, e, all[e], unit[e].factor);
      int len = (int) t->len;
      width[e] = MAX (len, (int) g_utf8_strlen (column_title (g, e, &unit[e], t), -1));
    }
  g_autoptr (GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (CgFunctionId), nf);
  guint64 most_calls = 0;
  for (CgFunctionId f = 0; f < nf; f++)
    {
      g_array_append_val (order, f);
      most_calls = MAX (most_calls, cg_graph_calls_received (g, f));
    }
  SelfOrder by = { g, 0, cg_graph_event_kind (g, 0) };
  g_array_sort_with_data (order, by_self_then_label, &by);
  g_string_truncate (t, 0);
  count (t, most_calls, "", "");
  int calls_width = MAX (5, (int) t->len - 1);
  gdouble whole = cg_value_to_double (by.kind, all[0]);

  if (!brief)
    g_string_append_printf (s, "\nSelf cost by function (ordered by %s):\n\n", cg_graph_event_name (g, 0));
  g_string_append_printf (s, "%7s", "%self");
  for (guint e = 0; e < ne; e++)
    {
      g_string_append_c (s, ' ');
      cg_append_padded (s, column_title (g, e, &unit[e], t), width[e]);
    }
  g_string_append_printf (s, " %*s  function\n", calls_width, "calls");
  fwrite (s->str, 1, s->len, stream);
  g_autoptr (CgNames) names = cg_names_new (g, demangle);
  for (guint i = 0; i < nf; i++)
    {
      CgFunctionId f = g_array_index (order, CgFunctionId, i);
      const CgValue *self = cg_graph_self_const (g, f);
      g_string_truncate (s, 0);
      g_string_append_printf (s, "%7.2f", whole > 0 ? 100.0 * cg_value_to_double (by.kind, self[0]) / whole : 0.0);
      for (guint e = 0; e < ne; e++)
        {
          g_string_truncate (t, 0);
          human (t, g, e, self[e], unit[e].factor);
          g_string_append_printf (s, " %*s", width[e], t->str);
        }
      g_string_truncate (t, 0);
      cg_value_append_human (t, CG_KIND_INTEGER, (CgValue) { .n = cg_graph_calls_received (g, f) }, 0);
      g_string_append_printf (s, " %*s  ", calls_width, t->str);
      cg_names_append_label (names, s, f);
      g_string_append_c (s, '\n');
      fwrite (s->str, 1, s->len, stream);
    }
  return TRUE;
}
