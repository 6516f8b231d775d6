/* cg-write-tsv.c — rows built as strings, sorted, printed. */
#include "config.h"

#include "cg-write-tsv.h"

#include <string.h>

typedef struct {
  CgGraph *graph;
  const CgCosts *costs;
  guint event;
  CgKind kind;
  gboolean arcs;
} Sort;

/* By value (total or arc cost) descending, then by label(s) as strcmp
 * orders the printed columns. */
static gint
compare_rows (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const Sort *s = data;
  guint a = *(const guint *) pa, b = *(const guint *) pb;
  CgValue va = s->arcs ? cg_costs_arc_const (s->costs, a)[s->event] : cg_costs_total_const (s->costs, a)[s->event];
  CgValue vb = s->arcs ? cg_costs_arc_const (s->costs, b)[s->event] : cg_costs_total_const (s->costs, b)[s->event];
  int c = cg_value_compare (s->kind, vb, va);
  if (c != 0)
    return c;
  if (!s->arcs)
    return cg_graph_compare_labels (s->graph, a, b);
  /* the tab between caller and callee sorts before any label byte */
  c = cg_graph_compare_labels (s->graph, cg_graph_arc_caller (s->graph, a), cg_graph_arc_caller (s->graph, b));
  return c != 0 ? c : cg_graph_compare_labels (s->graph, cg_graph_arc_callee (s->graph, a), cg_graph_arc_callee (s->graph, b));
}

/* Appends a tab and @v in the event's unit (its scale applied). */
static void
append_value (GString *s, CgKind kind, CgValue v, gdouble scale)
{
  g_string_append_c (s, '\t');
  cg_value_append_scaled (s, kind, v, scale);
}

void
cg_write_tsv (CgGraph *g, const CgCosts *c, guint event, gboolean arcs, FILE *stream)
{
  cg_write_tsv_full (g, c, event, arcs, FALSE, stream);
}

void
cg_write_tsv_full (CgGraph *g, const CgCosts *c, guint event, gboolean arcs, gboolean exactness, FILE *stream)
{
  Sort sort = { g, c, event, cg_costs_kind (c, event), arcs };
  CgKind self_kind = cg_graph_event_kind (g, event);
  gdouble scale = cg_graph_event_scale (g, event);
  guint n = arcs ? cg_graph_n_arcs (g) : cg_graph_n_functions (g);
  g_autoptr (GArray) rows = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  for (guint i = 0; i < n; i++)
    g_array_append_val (rows, i);
  g_array_sort_with_data (rows, compare_rows, &sort);

  /* Spivey's four arc times, where the method made them, are extra
   * columns at the end (design §1: columns are only ever added) */
  gboolean spivey = arcs && cg_costs_has_arc_split (c) && cg_costs_has_arc_split2 (c);
  fputs (arcs ? (spivey ? "caller\tcallee\tcalls\tinclusive\tself1\tchild1\tself2\tchild2"
                        : "caller\tcallee\tcalls\tinclusive")
              : "function\tcalls\tself\ttotal",
         stream);
  fputs (exactness ? "\texactness\n" : "\n", stream);
  g_autoptr (GString) s = g_string_new (NULL);
  for (guint i = 0; i < rows->len; i++)
    {
      guint id = g_array_index (rows, guint, i);
      g_string_truncate (s, 0);
      if (arcs)
        {
          cg_graph_append_label (g, s, cg_graph_arc_caller (g, id));
          g_string_append_c (s, '\t');
          cg_graph_append_label (g, s, cg_graph_arc_callee (g, id));
          g_string_append_printf (s, "\t%" G_GUINT64_FORMAT, cg_graph_arc_calls (g, id));
          append_value (s, sort.kind, cg_costs_arc_const (c, id)[event], scale);
          if (spivey)
            {
              append_value (s, sort.kind, cg_costs_arc_self_const (c, id)[event], scale);
              append_value (s, sort.kind, cg_costs_arc_children_const (c, id)[event], scale);
              append_value (s, sort.kind, cg_costs_arc_self2_const (c, id)[event], scale);
              append_value (s, sort.kind, cg_costs_arc_children2_const (c, id)[event], scale);
            }
        }
      else
        {
          cg_graph_append_label (g, s, id);
          g_string_append_printf (s, "\t%" G_GUINT64_FORMAT, cg_graph_calls_received (g, id));
          append_value (s, self_kind, cg_graph_self_const (g, id)[event], scale);
          append_value (s, sort.kind, cg_costs_total_const (c, id)[event], scale);
        }
      if (exactness)
        g_string_append (s, (arcs ? cg_costs_arc_is_estimated (c, id) : cg_costs_total_is_estimated (c, id))
                                ? "\testimated" : "\texact");
      g_string_append_c (s, '\n');
      fwrite (s->str, 1, s->len, stream);
    }
}
