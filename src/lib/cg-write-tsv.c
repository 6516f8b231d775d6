/* cg-write-tsv.c — rows built as strings, sorted, printed. */
#include "config.h"

#include "cg-write-tsv.h"

#include <string.h>

typedef struct {
  char *key;      /* first column(s), for the tie-break */
  CgValue value;  /* the sort value (total or inclusive) */
  guint id;
} Row;

typedef struct {
  CgKind kind;
} SortData;

static gint
by_value_then_key (gconstpointer a, gconstpointer b, gpointer data)
{
  const Row *x = a, *y = b;
  const SortData *d = data;
  int c = cg_value_compare (d->kind, y->value, x->value);
  return c != 0 ? c : strcmp (x->key, y->key);
}

/* Appends a tab and @v in the event's unit (its scale applied). */
static void
append_value (GString *s, CgKind kind, CgValue v, gdouble scale)
{
  g_string_append_c (s, '\t');
  CgValue u = cg_value_scaled (&kind, v, scale);
  cg_value_append (s, kind, u);
}

void
cg_write_tsv (CgGraph *g, const CgCosts *c, guint event, gboolean arcs, FILE *stream)
{
  CgKind kind = cg_costs_kind (c, event);
  CgKind self_kind = cg_graph_event_kind (g, event);
  gdouble scale = cg_graph_event_scale (g, event);
  guint n = arcs ? cg_graph_n_arcs (g) : cg_graph_n_functions (g);
  g_autoptr (GArray) rows = g_array_sized_new (FALSE, FALSE, sizeof (Row), n);
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    {
      Row row = { NULL, CG_VALUE_ZERO, i };
      g_string_truncate (s, 0);
      if (arcs)
        {
          cg_graph_append_label (g, s, cg_graph_arc_caller (g, i));
          g_string_append_c (s, '\t');
          cg_graph_append_label (g, s, cg_graph_arc_callee (g, i));
          row.value = cg_costs_arc_const (c, i)[event];
        }
      else
        {
          cg_graph_append_label (g, s, i);
          row.value = cg_costs_total_const (c, i)[event];
        }
      row.key = g_strdup (s->str);
      g_array_append_val (rows, row);
    }
  SortData sd = { kind };
  g_array_sort_with_data (rows, by_value_then_key, &sd);

  /* Spivey's four arc times, where the method made them, are extra
   * columns at the end (design §1: columns are only ever added) */
  gboolean spivey = arcs && cg_costs_has_arc_split (c) && cg_costs_has_arc_split2 (c);
  fputs (arcs ? (spivey ? "caller\tcallee\tcalls\tinclusive\tself1\tchild1\tself2\tchild2\n"
                        : "caller\tcallee\tcalls\tinclusive\n")
              : "function\tcalls\tself\ttotal\n",
         stream);
  for (guint i = 0; i < rows->len; i++)
    {
      Row *row = &g_array_index (rows, Row, i);
      g_string_assign (s, row->key);
      if (arcs)
        {
          g_string_append_printf (s, "\t%" G_GUINT64_FORMAT, cg_graph_arc_calls (g, row->id));
          append_value (s, kind, row->value, scale);
          if (spivey)
            {
              append_value (s, kind, cg_costs_arc_self_const (c, row->id)[event], scale);
              append_value (s, kind, cg_costs_arc_children_const (c, row->id)[event], scale);
              append_value (s, kind, cg_costs_arc_self2_const (c, row->id)[event], scale);
              append_value (s, kind, cg_costs_arc_children2_const (c, row->id)[event], scale);
            }
        }
      else
        {
          g_string_append_printf (s, "\t%" G_GUINT64_FORMAT, cg_graph_calls_received (g, row->id));
          append_value (s, self_kind, cg_graph_self_const (g, row->id)[event], scale);
          append_value (s, kind, row->value, scale);
        }
      g_string_append_c (s, '\n');
      fwrite (s->str, 1, s->len, stream);
      g_free (row->key);
    }
  g_string_free (s, TRUE);
}
