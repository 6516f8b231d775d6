/* cg-tree-view.c — visibility by a worklist, order by an explicit
 * depth-first stack. */
#include "config.h"

#include "cg-tree-view.h"

#include <math.h>
#include <string.h>

#include "cg-names.h"
#include "cg-error.h"

struct _CgTreeView {
  CgProfile *profile;
  CgGraph *graph;
  const CgCosts *costs;
  const CgDisplayTree *tree;
  CgTreeViewOptions options;
  CgKind kind;      /* of the costs for the event */
  CgKind self_kind; /* of the graph's self costs for the event */
  CgValue all;
  gdouble all_double;
  GArray *lines;    /* CgTreeLine */
  guint *number;    /* per function: link number, 0 none */
  CgNames *names;   /* as shown */
  gboolean has_calls;
};

CgValue
cg_tree_view_value (const CgTreeView *v, CgNodeId n)
{
  CgValue given;
  gboolean estimated;
  if (cg_display_tree_given_value (v->tree, n, &given, &estimated))
    return given;
  CgArcId a = cg_display_tree_arc (v->tree, n);
  if (a == CG_NO_ID)
    return cg_costs_total_const (v->costs, cg_display_tree_function (v->tree, n))[v->options.event];
  return cg_costs_arc_const (v->costs, a)[v->options.event];
}

CgValue
cg_tree_view_function_total (const CgTreeView *v, CgNodeId n)
{
  return cg_costs_total_const (v->costs, cg_display_tree_function (v->tree, n))[v->options.event];
}

gboolean
cg_tree_view_shows_total (const CgTreeView *v, CgNodeId n)
{
  CgValue given;
  gboolean estimated;
  /* a given tree's lines are shares of their parent's: they nest */
  if (cg_display_tree_arc (v->tree, n) == CG_NO_ID || !cg_display_tree_is_master (v->tree, n)
      || cg_display_tree_given_value (v->tree, n, &given, &estimated))
    return FALSE;
  return cg_value_compare (v->kind, cg_tree_view_function_total (v, n), cg_tree_view_value (v, n)) > 0;
}

gboolean
cg_tree_view_estimated (const CgTreeView *v, CgNodeId n)
{
  CgValue given;
  gboolean estimated;
  if (cg_display_tree_given_value (v->tree, n, &given, &estimated))
    return estimated;
  CgArcId a = cg_display_tree_arc (v->tree, n);
  if (a == CG_NO_ID)
    return cg_costs_total_is_estimated (v->costs, cg_display_tree_function (v->tree, n));
  return cg_costs_arc_is_estimated (v->costs, a);
}

gdouble
cg_tree_view_percent (const CgTreeView *v, CgKind kind, CgValue x)
{
  return v->all_double > 0 ? 100.0 * cg_value_to_double (kind, x) / v->all_double : 0.0;
}

gdouble
cg_tree_view_node_percent (const CgTreeView *v, CgNodeId n)
{
  return cg_tree_view_percent (v, v->kind, cg_tree_view_value (v, n));
}

gdouble
cg_tree_view_self_percent (const CgTreeView *v, CgFunctionId f)
{
  return cg_tree_view_percent (v, v->self_kind, cg_graph_self_const (v->graph, f)[v->options.event]);
}

gboolean
cg_tree_view_base_value (const CgTreeView *v, const CgDiff *d, CgNodeId n, CgValue *base)
{
  CgArcId a = cg_display_tree_arc (v->tree, n);
  if (a != CG_NO_ID)
    return cg_diff_base_arc (d, a, base);
  const CgDiffFunction *f = cg_diff_of_new (d, cg_display_tree_function (v->tree, n));
  *base = f->base_total;
  return f->presence == CG_DIFF_BOTH;
}

gdouble
cg_tree_view_change_percent (const CgTreeView *v, CgNodeId n)
{
  const CgDiff *d = v->options.diff;
  CgValue base;
  /* a callers tree's lines are shares of a root's self cost, not calls:
   * no change of theirs is defined */
  if (d == NULL || v->all_double <= 0 || cg_display_tree_is_inverted (v->tree)
      || !cg_tree_view_base_value (v, d, n, &base))
    return 0;
  CgValue now = cg_tree_view_value (v, n);
  if (cg_diff_kind (d) == CG_KIND_INTEGER)
    return 100.0 * ((gdouble) MAX (now.n, base.n) - (gdouble) MIN (now.n, base.n)) / v->all_double;
  /* the difference's reals are in the event's unit (seconds), the
   * view's values as the graph stores them */
  gdouble scale = cg_graph_event_scale (v->graph, v->options.event);
  scale = scale > 0 ? scale : 1.0;
  return 100.0 * fabs (cg_value_to_double (v->kind, now) * scale - base.x) / (v->all_double * scale);
}

/* ---- sibling order ---- */

static int
compare_names (const CgTreeView *v, CgNodeId x, CgNodeId y)
{
  CgFunctionId fx = cg_display_tree_function (v->tree, x), fy = cg_display_tree_function (v->tree, y);
  int c = strcmp (cg_names_get (v->names, fx), cg_names_get (v->names, fy));
  if (c == 0)
    c = strcmp (cg_graph_function_object (v->graph, fx), cg_graph_function_object (v->graph, fy));
  return c != 0 ? c : (x > y) - (x < y);
}

static guint64
node_calls (const CgTreeView *v, CgNodeId n)
{
  CgArcId a = cg_display_tree_arc (v->tree, n);
  return a == CG_NO_ID ? 0 : cg_graph_arc_calls (v->graph, a);
}

static gint
sibling_order (gconstpointer a, gconstpointer b, gpointer data)
{
  const CgTreeView *v = data;
  CgNodeId x = *(const CgNodeId *) a, y = *(const CgNodeId *) b;
  int c = 0;
  switch (v->options.sort)
    {
    case CG_TREE_SORT_NAME:
      return compare_names (v, x, y);
    case CG_TREE_SORT_SELF:
      c = cg_value_compare (v->self_kind,
                            cg_graph_self_const (v->graph, cg_display_tree_function (v->tree, y))[v->options.event],
                            cg_graph_self_const (v->graph, cg_display_tree_function (v->tree, x))[v->options.event]);
      break;
    case CG_TREE_SORT_CALLS:
      {
        guint64 cx = node_calls (v, x), cy = node_calls (v, y);
        c = (cy > cx) - (cy < cx);
      }
      break;
    case CG_TREE_SORT_TOTAL:
    default:
      break;
    }
  if (c == 0)
    c = cg_value_compare (v->kind, cg_tree_view_value (v, y), cg_tree_view_value (v, x));
  return c != 0 ? c : compare_names (v, x, y);
}

/* ---- visibility ---- */

static gint
compare_down (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return (x < y) - (x > y);
}

/* Marks the nodes to show: those that pass the options under shown
 * parents, plus the master nodes (and their ancestors) of shown links.
 * Each node is queued at most once, so this is O(shown nodes); the
 * arrays by node are allocated zeroed, so pages no shown node touches
 * cost nothing. */
static guint8 *
visible_nodes (const CgTreeView *v)
{
  const CgDisplayTree *t = v->tree;
  const CgTreeViewOptions *o = &v->options;
  guint bound = cg_display_tree_node_bound (t);
  guint8 *visible = g_new0 (guint8, MAX (bound, 1));
  g_autofree guint *depth = g_new0 (guint, MAX (bound, 1)); /* of shown nodes, roots 1 */
  g_autoptr (GArray) queue = g_array_new (FALSE, FALSE, sizeof (CgNodeId));

  /* with a base, a line passes by its change too: xz 5.4's 4-thread
   * profile against its 1-thread one hid main's line (0.38 %, 18.27 s
   * less than the base's 18.35 s), the largest change of the run */
#define PASSES(n, d)                                                                                           \
  (MAX (cg_tree_view_node_percent (v, (n)), cg_tree_view_change_percent (v, (n))) >= o->threshold            \
   && (o->max_depth == 0 || (d) <= o->max_depth))
  for (guint i = 0; i < cg_display_tree_n_roots (t); i++)
    {
      CgNodeId r = cg_display_tree_root (t, i);
      if (PASSES (r, 1))
        {
          visible[r] = 1;
          depth[r] = 1;
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
          if (!visible[c] && cg_display_tree_has_node (t, c) && PASSES (c, depth[n] + 1))
            {
              visible[c] = 1;
              depth[c] = depth[n] + 1;
              g_array_append_val (queue, c);
            }
        }
      if (cg_display_tree_is_master (t, n))
        continue;
      /* a shown link: show its master and the master's ancestors, then
       * number their depths down from the shown one above them */
      guint first = queue->len;
      CgNodeId m = cg_display_tree_master (t, cg_display_tree_function (t, n));
      for (; m != CG_NO_ID && !visible[m]; m = cg_display_tree_parent (t, m))
        {
          visible[m] = 1;
          g_array_append_val (queue, m);
        }
      guint above = m == CG_NO_ID ? 0 : depth[m];
      for (guint i = queue->len; i-- > first;)
        depth[g_array_index (queue, CgNodeId, i)] = ++above;
    }
#undef PASSES
  return visible;
}

/* Per visible node, the least percentage on the path from its root to
 * it, itself included (unset for the others).  Each node's value is
 * found once: a walk up stops at an ancestor already known, and fills in
 * the path on the way down, without recursion. */
static gdouble *
path_least (const CgTreeView *v, const guint8 *visible)
{
  const CgDisplayTree *t = v->tree;
  guint bound = cg_display_tree_node_bound (t);
  gdouble *least = g_new (gdouble, MAX (bound, 1));
  g_autofree guint8 *known = g_new0 (guint8, MAX (bound, 1));
  g_autoptr (GArray) up = g_array_new (FALSE, FALSE, sizeof (CgNodeId));
  for (CgNodeId n = 0; n < bound; n++)
    {
      if (!visible[n] || known[n])
        continue;
      g_array_set_size (up, 0);
      for (CgNodeId m = n; m != CG_NO_ID && !known[m]; m = cg_display_tree_parent (t, m))
        g_array_append_val (up, m);
      for (guint i = up->len; i-- > 0;)
        {
          CgNodeId m = g_array_index (up, CgNodeId, i), p = cg_display_tree_parent (t, m);
          gdouble pct = cg_tree_view_node_percent (v, m);
          least[m] = p == CG_NO_ID ? pct : MIN (pct, least[p]);
          known[m] = 1;
        }
    }
  return least;
}

/* The shown nodes in order: depth first, siblings sorted. */
static void
order_lines (CgTreeView *v, const guint8 *visible)
{
  const CgDisplayTree *t = v->tree;
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (CgTreeLine));
  g_autoptr (GArray) kids = g_array_new (FALSE, FALSE, sizeof (CgNodeId));
  for (guint i = 0; i < cg_display_tree_n_roots (t); i++)
    {
      CgNodeId r = cg_display_tree_root (t, i);
      if (visible[r])
        g_array_append_val (kids, r);
    }
  g_array_sort_with_data (kids, sibling_order, v);
  for (guint i = kids->len; i-- > 0;)
    g_array_append_val (stack, ((CgTreeLine) { g_array_index (kids, CgNodeId, i), 0, 0, i == kids->len - 1 }));
  while (stack->len > 0)
    {
      CgTreeLine line = g_array_index (stack, CgTreeLine, stack->len - 1);
      g_array_set_size (stack, stack->len - 1);
      g_array_set_size (kids, 0);
      if (cg_display_tree_is_master (t, line.node))
        {
          guint nc;
          const CgNodeId *children = cg_display_tree_children (t, line.node, &nc);
          for (guint i = 0; i < nc; i++)
            if (visible[children[i]])
              g_array_append_val (kids, children[i]);
          g_array_sort_with_data (kids, sibling_order, v);
        }
      line.n_children = kids->len;
      g_array_append_val (v->lines, line);
      for (guint i = kids->len; i-- > 0;)
        g_array_append_val (stack, ((CgTreeLine) { g_array_index (kids, CgNodeId, i), line.depth + 1, 0,
                                                   i == kids->len - 1 }));
    }
}

CgTreeView *
cg_tree_view_new (CgProfile *p, const CgCosts *costs, const CgDisplayTree *t, const CgTreeViewOptions *o,
                  GError **error)
{
  CgGraph *g = cg_profile_graph (p);
  g_autofree CgValue *all = g_new0 (CgValue, MAX (cg_graph_n_events (g), 1));
  if (!cg_graph_self_totals (g, all))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "the total cost exceeds the range of 64-bit counters");
      return NULL;
    }
  CgTreeView *v = g_new0 (CgTreeView, 1);
  v->profile = p;
  v->graph = g;
  v->costs = costs;
  v->tree = t;
  v->options = *o;
  v->kind = cg_costs_kind (costs, o->event);
  v->self_kind = cg_graph_event_kind (g, o->event);
  v->all = all[o->event];
  v->all_double = cg_value_to_double (v->self_kind, v->all);
  v->lines = g_array_new (FALSE, FALSE, sizeof (CgTreeLine));
  v->names = cg_names_new (g, o->demangle);
  cg_names_set_short (v->names);
  if (o->strip)
    cg_names_set_strip (v->names);
  for (CgArcId a = 0; a < cg_graph_n_arcs (g) && !v->has_calls; a++)
    v->has_calls = cg_graph_arc_calls (g, a) > 0;

  g_autofree guint8 *visible = visible_nodes (v);
  if (o->top > 0)
    {
      /* the N-th largest value a line can be shown at becomes the
       * threshold: the least on its way from its root, as a line shows
       * only under lines that pass too (a master's callees can carry
       * more than the call on its line: ninja's do_syscall_64 at 41.6 %
       * under a 27.1 % line made --top=5 show three) */
      g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (gdouble));
      g_autofree gdouble *least = path_least (v, visible);
      for (CgNodeId n = 0; n < cg_display_tree_node_bound (t); n++)
        if (visible[n])
          g_array_append_val (values, least[n]);
      if (values->len > o->top)
        {
          g_array_sort (values, compare_down);
          /* a chain that the view joins on one line is one line: take in
           * more values until the lines shown are N (yaml-cpp's parser,
           * eight calls deep at 49.75 %, made --top=8 show two lines);
           * a few rounds, each linear */
          guint k = o->top;
          for (guint round = 0; round < 16; round++)
            {
              v->options.threshold = MAX (o->threshold, g_array_index (values, gdouble, k - 1));
              g_free (visible);
              visible = visible_nodes (v);
              if (!o->fold || k >= values->len)
                break;
              g_array_set_size (v->lines, 0);
              order_lines (v, visible);
              guint shown = v->lines->len;
              for (guint i = 0, head = 0; i + 1 < v->lines->len; i++)
                if (cg_tree_view_joins_next (v, head, i, o->threshold))
                  shown--;
                else
                  head = i + 1;
              g_array_set_size (v->lines, 0);
              if (shown >= o->top)
                break;
              k = MIN (values->len, k + (o->top - shown));
            }
        }
    }
  order_lines (v, visible);

  /* number, in line order, the masters that shown links point to */
  guint nf = cg_graph_n_functions (g);
  g_autofree guint8 *linked = g_new0 (guint8, MAX (nf, 1));
  v->number = g_new0 (guint, MAX (nf, 1));
  for (guint i = 0; i < v->lines->len; i++)
    {
      CgNodeId n = g_array_index (v->lines, CgTreeLine, i).node;
      if (!cg_display_tree_is_master (t, n))
        linked[cg_display_tree_function (t, n)] = 1;
    }
  guint next = 1;
  for (guint i = 0; i < v->lines->len; i++)
    {
      CgNodeId n = g_array_index (v->lines, CgTreeLine, i).node;
      CgFunctionId f = cg_display_tree_function (t, n);
      if (cg_display_tree_is_master (t, n) && linked[f])
        v->number[f] = next++;
    }
  return v;
}

void
cg_tree_view_free (CgTreeView *v)
{
  if (v == NULL)
    return;
  g_array_unref (v->lines);
  g_free (v->number);
  cg_names_free (v->names);
  g_free (v);
}

guint
cg_tree_view_n_lines (const CgTreeView *v)
{
  return v->lines->len;
}

const CgTreeLine *
cg_tree_view_line (const CgTreeView *v, guint i)
{
  return &g_array_index (v->lines, CgTreeLine, i);
}

CgNames *
cg_tree_view_names (const CgTreeView *v)
{
  return v->names;
}

CgGraph *
cg_tree_view_graph (const CgTreeView *v)
{
  return v->graph;
}

const CgCosts *
cg_tree_view_costs (const CgTreeView *v)
{
  return v->costs;
}

const CgDisplayTree *
cg_tree_view_tree (const CgTreeView *v)
{
  return v->tree;
}

CgCycles *
cg_tree_view_cycles (const CgTreeView *v)
{
  return cg_profile_cycles (v->profile);
}

gboolean
cg_tree_view_joins_next (const CgTreeView *v, guint head, guint i, gdouble threshold)
{
  if (threshold <= 0 || i + 1 >= v->lines->len || head > i)
    return FALSE;
  const CgTreeLine *line = &g_array_index (v->lines, CgTreeLine, i);
  if (line->n_children != 1)
    return FALSE;
  const CgTreeLine *next = &g_array_index (v->lines, CgTreeLine, i + 1);
  /* a joined line shows one incl, the first call's: what it joins must
   * nest in it, and a function's total ("in all") can only close it,
   * after the last name, where it contains what follows */
  if (cg_tree_view_shows_total (v, line->node)
      || cg_value_compare (v->kind, cg_tree_view_value (v, next->node), cg_tree_view_value (v, line->node)) > 0)
    return FALSE;
  CgNodeId first = g_array_index (v->lines, CgTreeLine, head).node;
  if (cg_tree_view_shows_total (v, next->node)
      && cg_value_compare (v->kind, cg_tree_view_function_total (v, next->node), cg_tree_view_value (v, first)) <= 0)
    return FALSE;
  /* a function whose own cost is worth showing keeps its line */
  if (cg_display_tree_shows_self (v->tree, next->node)
      && cg_tree_view_self_percent (v, cg_display_tree_function (v->tree, next->node)) >= threshold)
    return FALSE;
  return cg_tree_view_node_percent (v, line->node) - cg_tree_view_node_percent (v, next->node) < threshold;
}

const CgTreeViewOptions *
cg_tree_view_options (const CgTreeView *v)
{
  return &v->options;
}

CgValue
cg_tree_view_all (const CgTreeView *v)
{
  return v->all;
}

guint
cg_tree_view_link_number (const CgTreeView *v, CgFunctionId f)
{
  return v->number[f];
}

gboolean
cg_tree_view_has_calls (const CgTreeView *v)
{
  return v->has_calls;
}

guint
cg_tree_view_shown_functions (const CgTreeView *v, guint32 **dense_out, CgFunctionId **functions_out,
                              guint32 **master_out)
{
  const CgDisplayTree *t = v->tree;
  guint nf = cg_graph_n_functions (v->graph), n_lines = cg_tree_view_n_lines (v);
  guint32 *dense = g_new (guint32, MAX (nf, 1));
  memset (dense, 0xff, MAX (nf, 1) * sizeof *dense);
  GArray *functions = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  GArray *master = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < n_lines; i++)
    {
      CgNodeId n = cg_tree_view_line (v, i)->node;
      CgFunctionId f = cg_display_tree_function (t, n);
      if (dense[f] == G_MAXUINT32)
        {
          guint32 none = G_MAXUINT32;
          dense[f] = functions->len;
          g_array_append_val (functions, f);
          g_array_append_val (master, none);
        }
      if (cg_display_tree_is_master (t, n))
        g_array_index (master, guint32, dense[f]) = i;
    }
  guint n = functions->len;
  *dense_out = dense;
  *functions_out = (CgFunctionId *) g_array_free (functions, FALSE);
  *master_out = (guint32 *) g_array_free (master, FALSE);
  return n;
}
