/* cg-write-cycles.c — per-cycle sums in one pass over the arcs. */
#include "config.h"

#include "cg-write-cycles.h"

#include <string.h>

#include "cg-names.h"
#include "cg-error.h"
#include "cg-fit-line.h"
#include "cg-spivey.h"
#include "cg-text.h"

typedef struct {
  CgValue self;
  CgValue total;     /* spontaneous + inclusive entering */
  CgValue held;      /* self + inclusive leaving: what cg-measured.c takes where entries fall short */
  guint64 entered;   /* calls from outside */
  guint64 inside;    /* calls between different members */
  guint arcs_in, arcs_inside; /* the arcs of those calls */
} CycleSums;

typedef struct {
  CgGraph *graph;
  guint event;
  CgKind kind;
} MemberOrder;

static gint
by_self_then_name (gconstpointer a, gconstpointer b, gpointer data)
{
  const MemberOrder *o = data;
  CgFunctionId x = *(const CgFunctionId *) a, y = *(const CgFunctionId *) b;
  int c = cg_value_compare (o->kind, cg_graph_self_const (o->graph, y)[o->event],
                            cg_graph_self_const (o->graph, x)[o->event]);
  if (c == 0)
    c = strcmp (cg_graph_function_name (o->graph, x), cg_graph_function_name (o->graph, y));
  return c;
}

static void
append_cost (GString *s, CgKind kind, CgValue v, gdouble scale, const char *unit)
{
  CgValue u = cg_value_scaled (&kind, v, scale);
  cg_value_append_human (s, kind, u, 2);
  g_string_append_printf (s, " %s", unit);
}

static void
append_percent (GString *s, CgKind kind, CgValue v, CgValue all)
{
  gdouble d = cg_value_to_double (kind, all);
  g_string_append_printf (s, " (%.2f%%)", d > 0 ? 100.0 * cg_value_to_double (kind, v) / d : 0.0);
}

/* One line per member of @sorted: its self cost in the unit of the
 * cycle's line above, right-aligned in a column as wide as the widest
 * (costs of several magnitudes, 20.00 beside 0.00 ms in GNU make's
 * $(call) cycle, left the names ragged), then its name. */
static void
append_members (GString *s, CgNames *names, CgGraph *g, const GArray *sorted, CgKind kind, guint event,
                gdouble scale, guint fit)
{
  g_autoptr (GArray) pieces = g_array_new (FALSE, FALSE, sizeof (CgFitPiece));
  g_autoptr (GPtrArray) costs = g_ptr_array_new_full (sorted->len, g_free);
  gsize width = 0;
  for (guint i = 0; i < sorted->len; i++)
    {
      GString *c = g_string_new (NULL);
      CgKind k = kind;
      CgFunctionId f = g_array_index (sorted, CgFunctionId, i);
      CgValue v = cg_value_scaled (&k, cg_graph_self_const (g, f)[event], scale);
      cg_value_append_human (c, k, v, 2);
      width = MAX (width, c->len); /* digits, commas and a point: bytes are columns */
      g_ptr_array_add (costs, g_string_free (c, FALSE));
    }
  g_autoptr (GString) row = g_string_new (NULL);
  for (guint i = 0; i < sorted->len; i++)
    {
      const char *c = g_ptr_array_index (costs, i);
      g_string_printf (row, "    %*s  ", (int) width, c);
      gsize start = row->len;
      cg_names_append_label (names, row, g_array_index (sorted, CgFunctionId, i));
      g_array_set_size (pieces, 0);
      g_array_append_val (pieces, ((CgFitPiece) { start, row->len, 0, CG_FIT_NAME }));
      cg_fit_line (row, start, pieces, fit, g_get_charset (NULL) ? "\u2026" : "...");
      g_string_append_printf (s, "%s\n", row->str);
    }
}

gboolean
cg_write_cycles_text (CgGraph *g, const CgCycles *cycles, guint event, gboolean demangle, gboolean brief,
                      guint width, FILE *stream, GError **error)
{
  guint nc = cg_cycles_count (cycles);
  CgKind kind = cg_graph_event_kind (g, event);
  const char *unit = cg_graph_event_unit (g, event); /* and scale: as shown (cg_display_unit) */
  gdouble scale = cg_graph_event_scale (g, event);
  g_autofree CycleSums *sums = g_new0 (CycleSums, nc + 1);
  g_autoptr (CgNames) names = cg_names_new (g, demangle);
  gboolean ok = TRUE;
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    {
      guint k = cg_cycles_cycle_of (cycles, f);
      if (k == 0)
        continue;
      ok &= cg_value_add (kind, &sums[k].self, cg_graph_self_const (g, f)[event]);
      ok &= cg_value_add (kind, &sums[k].held, cg_graph_self_const (g, f)[event]);
      const CgValue *sp = cg_graph_spontaneous (g, f);
      if (sp)
        ok &= cg_value_add (kind, &sums[k].total, sp[event]);
    }
  for (CgArcId a = 0; a < cg_graph_n_arcs (g); a++)
    {
      CgFunctionId caller = cg_graph_arc_caller (g, a), callee = cg_graph_arc_callee (g, a);
      guint kc = cg_cycles_cycle_of (cycles, caller), k = cg_cycles_cycle_of (cycles, callee);
      if (kc != 0 && kc != k)
        ok &= cg_value_add (kind, &sums[kc].held, cg_graph_arc_inclusive_const (g, a)[event]);
      if (k == 0 || caller == callee)
        continue;
      /* call counts cannot overflow: their sum over the graph fits */
      if (kc == k)
        {
          sums[k].inside += cg_graph_arc_calls (g, a);
          sums[k].arcs_inside++;
        }
      else
        {
          sums[k].entered += cg_graph_arc_calls (g, a);
          sums[k].arcs_in++;
          ok &= cg_value_add (kind, &sums[k].total, cg_graph_arc_inclusive_const (g, a)[event]);
        }
    }
  if (!ok)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "a cycle's cost exceeds the range of 64-bit counters");
      return FALSE;
    }

  /* the cycle's total as cgcost's measured method takes it: no less than
   * its members' self costs and calls out of it (a run's entry that the
   * producer did not record as a call) */
  for (guint k = 1; k <= nc; k++)
    if (cg_value_compare (kind, sums[k].held, sums[k].total) > 0)
      sums[k].total = sums[k].held;
  g_autofree CgValue *all = g_new0 (CgValue, MAX (cg_graph_n_events (g), 1));
  if (!cg_graph_self_totals (g, all))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "the total cost exceeds the range of 64-bit counters");
      return FALSE;
    }
  CgDisplayUnit shown = cg_display_unit (unit, cg_value_to_double (kind, all[event]) * scale);
  unit = shown.unit;
  scale *= shown.factor;
  g_autoptr (GString) s = g_string_new (NULL);
  g_string_append_printf (s, "%u cycle%s%s\n", nc, nc == 1 ? "" : "s",
                          brief ? "" : " (strongly connected components of more than one function)");
  MemberOrder order = { g, event, kind };
  for (guint k = 1; k <= nc; k++)
    {
      guint n;
      const CgFunctionId *members = cg_cycles_members (cycles, k, &n);
      g_string_append_printf (s, "\n<cycle %u>: %u members, self ", k, n);
      append_cost (s, kind, sums[k].self, scale, unit);
      append_percent (s, kind, sums[k].self, all[event]);
      if (cg_graph_has_inclusive (g))
        {
          g_string_append (s, ", total ");
          append_cost (s, kind, sums[k].total, scale, unit);
          append_percent (s, kind, sums[k].total, all[event]);
        }
      if (sums[k].entered == 0 && sums[k].inside == 0)
        /* sampled stacks (perf, folded) count no calls: "entered 0
         * times" would say the cycle never ran */
        g_string_append_printf (s, "\n  entered through %u arc%s from outside, %u arc%s between members"
                                   " (no call counts: sampled stacks)\n",
                                sums[k].arcs_in, sums[k].arcs_in == 1 ? "" : "s", sums[k].arcs_inside,
                                sums[k].arcs_inside == 1 ? "" : "s");
      else
        {
          g_string_append (s, "\n  entered ");
          cg_value_append_human (s, CG_KIND_INTEGER, (CgValue) { .n = sums[k].entered }, 0);
          g_string_append_printf (s, " time%s from outside, ", sums[k].entered == 1 ? "" : "s");
          cg_value_append_human (s, CG_KIND_INTEGER, (CgValue) { .n = sums[k].inside }, 0);
          g_string_append_printf (s, " call%s between members\n", sums[k].inside == 1 ? "" : "s");
        }
      g_autoptr (GArray) sorted = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
      g_array_append_vals (sorted, members, n);
      g_array_sort_with_data (sorted, by_self_then_name, &order);
      cg_fit_fold_lines (s, width);
      append_members (s, names, g, sorted, kind, event, scale, width);
      fwrite (s->str, 1, s->len, stream);
      g_string_truncate (s, 0);
    }
  cg_fit_fold_lines (s, width);
  fwrite (s->str, 1, s->len, stream);
  return TRUE;
}

gboolean
cg_write_traversed_cycles_text (CgProfile *p, guint event, gboolean demangle, gboolean brief, guint width,
                                FILE *stream, GError **error)
{
  g_autoptr (GArray) cycles = cg_spivey_traversed_cycles (p, error);
  if (cycles == NULL)
    return FALSE;
  CgGraph *g = cg_profile_graph (p);
  CgKind kind = cg_graph_event_kind (g, event);
  gdouble scale = cg_graph_event_scale (g, event);
  g_autofree CgValue *all = g_new0 (CgValue, MAX (cg_graph_n_events (g), 1));
  if (!cg_graph_self_totals (g, all))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "a cost exceeds the range of 64-bit counters");
      return FALSE;
    }
  g_autoptr (CgNames) names = cg_names_new (g, demangle);
  gdouble whole = cg_value_to_double (kind, all[event]);
  CgDisplayUnit shown = cg_display_unit (cg_graph_event_unit (g, event), whole * scale);
  scale *= shown.factor;
  g_autoptr (GString) s = g_string_new (NULL);
  g_autoptr (GArray) pieces = g_array_new (FALSE, FALSE, sizeof (CgFitPiece));
  g_string_append_printf (s, "\n%u cycle%s traversed%s\n", cycles->len, cycles->len == 1 ? "" : "s",
                          brief ? "" : " (from the contexts: calls that re-entered an active function)");
  if (!brief)
    cg_append_source_notes (s, p);
  cg_fit_fold_lines (s, width);
  for (guint i = 0; i < cycles->len; i++)
    {
      CgTraversedCycle *c = &g_array_index (cycles, CgTraversedCycle, i);
      CgKind k = kind;
      CgValue v = cg_value_scaled (&k, c->cost[event], scale);
      g_string_append (s, "\n  ");
      cg_value_append_human (s, k, v, k == CG_KIND_REAL ? 2 : 0);
      g_string_append_printf (s, " %s (%.2f%%) inside, closed ", shown.unit,
                              whole > 0 ? 100.0 * cg_value_to_double (kind, c->cost[event]) / whole : 0.0);
      cg_value_append_human (s, CG_KIND_INTEGER, (CgValue) { .n = c->traversals }, 0);
      g_string_append_printf (s, " time%s: ", c->traversals == 1 ? "" : "s");
      /* the line alone is fitted, a chain of its members */
      gsize line = (gsize) (strrchr (s->str, '\n') - s->str) + 1;
      g_autoptr (GString) row = g_string_new (s->str + line);
      gsize from = row->len;
      g_array_set_size (pieces, 0);
      for (guint j = 0; j < c->n_members; j++)
        {
          gsize start = row->len;
          if (j)
            {
              g_string_append (row, ", ");
              g_array_append_val (pieces, ((CgFitPiece) { start, row->len, j, CG_FIT_SEPARATOR }));
              start = row->len;
            }
          cg_names_append_label (names, row, c->members[j]);
          g_array_append_val (pieces, ((CgFitPiece) { start, row->len, j, CG_FIT_NAME }));
        }
      cg_fit_line (row, from, pieces, width, g_get_charset (NULL) ? "\u2026" : "...");
      g_string_truncate (s, line);
      g_string_append (s, row->str);
      g_string_append_c (s, '\n');
    }
  fwrite (s->str, 1, s->len, stream);
  return TRUE;
}
