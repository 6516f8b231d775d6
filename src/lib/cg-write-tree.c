/* cg-write-tree.c — visibility by a worklist, printing by an explicit
 * depth-first stack. */
#include "config.h"

#include "cg-write-tree.h"

#include <string.h>

#include "cg-error.h"
#include "cg-write-profile.h"

/* Indentation stops here: deeper lines say how much deeper they are, so a
 * line never grows with depth and a million-deep recursion prints in
 * linear space. */
#define MAX_INDENT 64

typedef struct {
  CgGraph *graph;
  const CgCosts *costs;
  const CgDisplayTree *tree;
  CgCycles *cycles;
  guint event;
  CgKind kind;
  gdouble all;
} View;

/* The cost a node stands for: the arc's cost, or a root's total. */
static CgValue
node_value (const View *v, CgNodeId n)
{
  CgArcId a = cg_display_tree_arc (v->tree, n);
  if (a == CG_NO_ID)
    return cg_costs_total_const (v->costs, cg_display_tree_function (v->tree, n))[v->event];
  return cg_costs_arc_const (v->costs, a)[v->event];
}

static gboolean
node_estimated (const View *v, CgNodeId n)
{
  CgArcId a = cg_display_tree_arc (v->tree, n);
  if (a == CG_NO_ID)
    return cg_costs_total_is_estimated (v->costs, cg_display_tree_function (v->tree, n));
  return cg_costs_arc_is_estimated (v->costs, a);
}

static gdouble
percent (const View *v, CgKind kind, CgValue x)
{
  return v->all > 0 ? 100.0 * cg_value_to_double (kind, x) / v->all : 0.0;
}

static gint
by_value_then_name (gconstpointer a, gconstpointer b, gpointer data)
{
  const View *v = data;
  CgNodeId x = *(const CgNodeId *) a, y = *(const CgNodeId *) b;
  int c = cg_value_compare (v->kind, node_value (v, y), node_value (v, x));
  if (c != 0)
    return c;
  CgFunctionId fx = cg_display_tree_function (v->tree, x), fy = cg_display_tree_function (v->tree, y);
  c = strcmp (cg_graph_function_name (v->graph, fx), cg_graph_function_name (v->graph, fy));
  return c != 0 ? c : (x > y) - (x < y);
}

/* Marks the nodes to show: those that pass the options under shown
 * parents, plus the master nodes (and their ancestors) of shown links.
 * Each node is queued at most once, so this is O(nodes). */
static guint8 *
visible_nodes (const View *v, const CgTreeTextOptions *o)
{
  const CgDisplayTree *t = v->tree;
  guint nn = cg_display_tree_n_nodes (t);
  guint8 *visible = g_new0 (guint8, MAX (nn, 1));
  g_autofree guint *depth = g_new0 (guint, MAX (nn, 1));
  g_autoptr (GArray) queue = g_array_new (FALSE, FALSE, sizeof (CgNodeId));

#define PASSES(n) (percent (v, v->kind, node_value (v, (n))) >= o->threshold \
                   && (o->max_depth == 0 || depth[(n)] <= o->max_depth))
  for (guint i = 0; i < cg_display_tree_n_roots (t); i++)
    {
      CgNodeId r = cg_display_tree_root (t, i);
      depth[r] = 1;
      if (PASSES (r))
        {
          visible[r] = 1;
          g_array_append_val (queue, r);
        }
    }
  for (guint q = 0; q < queue->len; q++)
    {
      CgNodeId n = g_array_index (queue, CgNodeId, q);
      guint nc;
      const CgNodeId *children = cg_display_tree_children (t, n, &nc);
      for (guint i = 0; i < nc; i++)
        {
          CgNodeId c = children[i];
          depth[c] = depth[n] + 1;
          if (!visible[c] && PASSES (c))
            {
              visible[c] = 1;
              g_array_append_val (queue, c);
            }
        }
      if (cg_display_tree_is_master (t, n))
        continue;
      /* a shown link: show its master and the master's ancestors */
      for (CgNodeId m = cg_display_tree_master (t, cg_display_tree_function (t, n)); m != CG_NO_ID && !visible[m];
           m = cg_display_tree_parent (t, m))
        {
          visible[m] = 1;
          g_array_append_val (queue, m);
        }
    }
#undef PASSES
  return visible;
}

typedef struct {
  CgNodeId node;
  guint depth;   /* roots are 0 */
  gboolean last; /* the last shown child of its parent */
} Line;

/* The shown nodes in print order: depth first, children by value. */
static GArray *
print_order (const View *v, const guint8 *visible)
{
  const CgDisplayTree *t = v->tree;
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (Line));
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (Line));
  g_autoptr (GArray) kids = g_array_new (FALSE, FALSE, sizeof (CgNodeId));
  for (guint i = cg_display_tree_n_roots (t); i-- > 0;)
    {
      CgNodeId r = cg_display_tree_root (t, i);
      if (visible[r])
        g_array_append_val (stack, ((Line) { r, 0, TRUE }));
    }
  while (stack->len > 0)
    {
      Line line = g_array_index (stack, Line, stack->len - 1);
      g_array_set_size (stack, stack->len - 1);
      g_array_append_val (lines, line);
      if (!cg_display_tree_is_master (t, line.node))
        continue;
      guint nc;
      const CgNodeId *children = cg_display_tree_children (t, line.node, &nc);
      g_array_set_size (kids, 0);
      for (guint i = 0; i < nc; i++)
        if (visible[children[i]])
          g_array_append_val (kids, children[i]);
      g_array_sort_with_data (kids, by_value_then_name, (gpointer) v);
      for (guint i = kids->len; i-- > 0;)
        g_array_append_val (stack, ((Line) { g_array_index (kids, CgNodeId, i), line.depth + 1, i == kids->len - 1 }));
    }
  return lines;
}

gboolean
cg_write_tree_text (CgProfile *p, const CgCosts *costs, const CgDisplayTree *t,
                    const CgTreeTextOptions *o, FILE *stream, GError **error)
{
  CgGraph *g = cg_profile_graph (p);
  g_autofree CgValue *all = g_new0 (CgValue, MAX (cg_graph_n_events (g), 1));
  if (!cg_graph_self_totals (g, all))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "the total cost exceeds the range of 64-bit counters");
      return FALSE;
    }
  CgKind self_kind = cg_graph_event_kind (g, o->event);
  View v = { g, costs, t, cg_profile_cycles (p), o->event, cg_costs_kind (costs, o->event),
             cg_value_to_double (self_kind, all[o->event]) };
  guint nf = cg_graph_n_functions (g);
  g_autofree guint8 *visible = visible_nodes (&v, o);
  g_autoptr (GArray) lines = print_order (&v, visible);

  /* number, in print order, the masters that shown links point to */
  g_autofree guint8 *linked = g_new0 (guint8, MAX (nf, 1));
  g_autofree guint *number = g_new0 (guint, MAX (nf, 1));
  for (guint i = 0; i < lines->len; i++)
    {
      CgNodeId n = g_array_index (lines, Line, i).node;
      if (!cg_display_tree_is_master (t, n))
        linked[cg_display_tree_function (t, n)] = 1;
    }
  guint next_number = 1;
  for (guint i = 0; i < lines->len; i++)
    {
      CgNodeId n = g_array_index (lines, Line, i).node;
      CgFunctionId f = cg_display_tree_function (t, n);
      if (cg_display_tree_is_master (t, n) && linked[f])
        number[f] = next_number++;
    }

  g_autoptr (GString) s = g_string_new (NULL);
  g_string_append_printf (s, "Display tree (Kaes): event %s, ", cg_graph_event_name (g, o->event));
  CgKind unit_kind = self_kind;
  CgValue in_unit = cg_value_scaled (&unit_kind, all[o->event], cg_graph_event_scale (g, o->event));
  cg_value_append_human (s, unit_kind, in_unit, unit_kind == CG_KIND_REAL ? 2 : 0);
  g_string_append_printf (s, " %s in all.\n", cg_graph_event_unit (g, o->event));
  cg_append_method_note (s, costs);
  g_string_append (s, ".\nincl%: cost carried by the calls from the parent line (of a root: its total);"
                      " self%: the function's own cost.\nEach function's callees appear under one of its"
                      " callers, marked [n]; its other appearances read -> [n].\n");
  if (o->threshold > 0)
    g_string_append_printf (s, "Lines below %g%% are hidden.\n", o->threshold);
  g_string_append_printf (s, "\n%8s %7s %12s  function\n", "incl%", "self%", "calls");
  fwrite (s->str, 1, s->len, stream);

  /* not_last[d]: the line's ancestor at depth d has later siblings, so
   * its branch continues ("|") past this line */
  g_autoptr (GArray) not_last = g_array_new (FALSE, TRUE, sizeof (gboolean));
  for (guint i = 0; i < lines->len; i++)
    {
      Line line = g_array_index (lines, Line, i);
      CgNodeId n = line.node;
      CgFunctionId f = cg_display_tree_function (t, n);
      gboolean master = cg_display_tree_is_master (t, n);
      CgArcId a = cg_display_tree_arc (t, n);

      g_string_truncate (s, 0);
      g_string_append_printf (s, "%s%7.2f", node_estimated (&v, n) ? "~" : " ",
                              percent (&v, v.kind, node_value (&v, n)));
      if (master)
        g_string_append_printf (s, " %7.2f", percent (&v, self_kind, cg_graph_self_const (g, f)[o->event]));
      else
        g_string_append_printf (s, " %7s", "");
      if (a != CG_NO_ID)
        g_string_append_printf (s, " %12" G_GUINT64_FORMAT "  ", cg_graph_arc_calls (g, a));
      else
        g_string_append_printf (s, " %12s  ", "");
      if (not_last->len <= line.depth)
        g_array_set_size (not_last, line.depth + 1);
      g_array_index (not_last, gboolean, line.depth) = !line.last;
      for (guint d = 1; d < MIN (line.depth, MAX_INDENT); d++)
        g_string_append (s, g_array_index (not_last, gboolean, d) ? "|   " : "    ");
      if (line.depth >= MAX_INDENT)
        g_string_append_printf (s, "(+%u) ", line.depth - MAX_INDENT + 1);
      if (line.depth > 0)
        g_string_append (s, line.last ? "`-- " : "|-- ");
      cg_graph_append_label (g, s, f);
      guint k = v.cycles ? cg_cycles_cycle_of (v.cycles, f) : 0;
      if (k)
        g_string_append_printf (s, " <cycle %u>", k);
      if (number[f])
        g_string_append_printf (s, master ? " [%u]" : " -> [%u]", number[f]);
      g_string_append_c (s, '\n');
      fwrite (s->str, 1, s->len, stream);
    }
  return TRUE;
}
