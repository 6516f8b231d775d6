/* cg-write-tree.c — lines of a tree view, with chains folded, columns
 * sized to the largest number, and tree art kept per printed depth. */
#include "config.h"

#include "cg-write-tree.h"

#include <math.h>

#include <string.h>

#include "cg-error.h"
#include "cg-fit-line.h"
#include "cg-text.h"

/* Indentation stops here: deeper lines say how much deeper they are, so a
 * line never grows with depth and a million-deep recursion prints in
 * linear space. */
#define MAX_INDENT 64

/* A joined line holds at most this many functions, so that lines stay
 * bounded however long a chain is; a longer chain goes on below. */
#define MAX_FOLD 8

/* what follows a link where a recursion closes; the short form where the
 * line does not fit its width */
#define RECURSION_LONG " (recursion: its cost is in the lines above)"
#define RECURSION_SHORT " (recursion)"

/* ANSI SGR sequences */
#define SGR_RESET "\033[0m"
#define SGR_BOLD "\033[1m"
#define SGR_DIM "\033[2m"
#define SGR_RED "\033[31m"
#define SGR_YELLOW "\033[33m"
#define SGR_MAGENTA "\033[35m"
#define SGR_CYAN "\033[36m"

typedef struct {
  const CgTreeView *view;
  const CgTreeTextOptions *o;
  CgGraph *graph;
  const CgDisplayTree *tree;
  CgCycles *cycles;
  guint event;
  CgKind kind, self_kind;
  gdouble scale;     /* stored value × scale = the shown unit */
  const char *unit;  /* the shown unit (cg_display_unit) */
  int cost_width;
  int calls_width; /* 0: no calls column */
  gdouble compact_factor; /* of the event's unit to the columns' (event_unit) */
  gboolean short_calls; /* calls to three digits (cg_append_count_short) */
  const char *event_unit; /* where the columns show a multiple of it, else NULL */
  guint max_indent; /* MAX_INDENT, less where lines must fit a width */
  GString *line;
  GString *scratch;
} Writer;

static void
color (Writer *w, const char *sgr)
{
  if (w->o->color)
    g_string_append (w->line, sgr);
}

/* Heat of a percentage, for the colour of its column. */
static const char *
heat (gdouble pct)
{
  return pct >= 20 ? SGR_BOLD SGR_RED : pct >= 5 ? SGR_RED : pct >= 1 ? SGR_YELLOW : SGR_DIM;
}

#define SGR_BLUE "\033[34m"

/* The change column's width: a sign, and where both profiles were
 * sampled a mark of noise after the number. */
static int
change_width (const Writer *w)
{
  return w->cost_width + 1 + (cg_diff_sampled (w->o->diff) ? 1 : 0);
}

/* The change column of the line at node @n: "+1,234" (slower, red),
 * "-56" (faster, blue), "new" where the base had no such call; a change
 * within the sampling noise (cg_diff_within_noise) reads "+8?", dim, as
 * cgcost's text marks such functions, where it was red as any other. */
static void
change_column (Writer *w, CgNodeId n)
{
  const CgDiff *d = w->o->diff;
  CgValue base, now = cg_tree_view_value (w->view, n);
  g_string_truncate (w->scratch, 0);
  int change = 0;
  if (!cg_tree_view_base_value (w->view, d, n, &base))
    g_string_append (w->scratch, "new");
  else
    {
      /* the difference's reals are in the event's unit (seconds), the
       * lines' values stored and shown in w->unit (ms for a profile of
       * under a second): the change in the lines' unit */
      gdouble event_scale = cg_graph_event_scale (w->graph, w->event);
      gdouble factor = event_scale > 0 ? w->scale / event_scale : 1.0;
      if (cg_diff_kind (d) == CG_KIND_REAL)
        now = (CgValue) { .x = cg_value_to_double (w->kind, now) * event_scale };
      /* coloured by the sign printed: a change that reads "+0.00" is
       * no change, whatever rounding left of it */
      change = cg_append_change_human (w->scratch, cg_diff_kind (d), base, now, cg_diff_scale (d) * factor);
      if (cg_diff_within_noise (d, base, now))
        change = 0;
    }
  if (cg_diff_sampled (d))
    g_string_append_c (w->scratch, change == 0 && strcmp (w->scratch->str, "new") != 0 ? '?' : ' ');
  g_string_append_c (w->line, ' ');
  color (w, change > 0 ? SGR_RED : change < 0 ? SGR_BLUE : SGR_DIM);
  g_string_append_printf (w->line, "%*s", change_width (w), w->scratch->str);
  color (w, SGR_RESET);
}

/* Whether lines show the self cost beside its percentage: not in a
 * difference fitted to a width, whose change column would leave the
 * names too few columns to tell them apart (at 80 columns callgrind's
 * numbers took 60, and Lua's luaD_pcall and luaD_precall both read
 * "luaD…all"); self% says the same share. */
static gboolean
self_cost_column (const CgTreeTextOptions *o)
{
  return !(o->diff && o->width > 0);
}

static void
cost_column (Writer *w, CgKind kind, CgValue v)
{
  g_string_truncate (w->scratch, 0);
  cg_append_cost_human (w->scratch, kind, v, w->scale);
  g_string_append_printf (w->line, " %*s", w->cost_width, w->scratch->str);
}

static void
append_calls (Writer *w, GString *out, guint64 calls)
{
  if (w->short_calls)
    cg_append_count_short (out, calls);
  else
    cg_value_append_human (out, CG_KIND_INTEGER, (CgValue) { .n = calls }, 0);
}

/* The calls of @n's arc, grouped in thousands as costs are; on the line
 * where a self-recursive function's callees are, "N+M" as in gprof's
 * call graph: N calls on the arc, M the function's calls of itself. */
static void
calls_text (Writer *w, CgNodeId n, GString *out)
{
  CgArcId a = cg_display_tree_arc (w->tree, n);
  if (a == CG_NO_ID)
    return;
  append_calls (w, out, cg_graph_arc_calls (w->graph, a));
  CgFunctionId f = cg_display_tree_function (w->tree, n);
  if (cg_display_tree_is_inverted (w->tree) || !cg_display_tree_is_master (w->tree, n))
    return;
  CgArcId self = cg_graph_lookup_arc (w->graph, f, f);
  if (self == CG_NO_ID || cg_graph_arc_calls (w->graph, self) == 0)
    return;
  g_string_append_c (out, '+');
  append_calls (w, out, cg_graph_arc_calls (w->graph, self));
}

/* Records the bytes of w->line from @start to its end as a piece of the
 * line's function @function, for cg_fit_line. */
static void
add_piece (GArray *pieces, gsize start, GString *line, guint function, CgFitKind kind)
{
  if (line->len > start)
    g_array_append_val (pieces, ((CgFitPiece) { start, line->len, function, kind }));
}

/* One function of a line, the line's @k-th: its label, cycle and link
 * marks, recorded in @pieces. */
static void
append_function (Writer *w, CgNodeId n, GArray *pieces, guint k)
{
  CgFunctionId f = cg_display_tree_function (w->tree, n);
  gboolean master = cg_display_tree_is_master (w->tree, n);
  gsize start = w->line->len;
  if (master)
    color (w, SGR_BOLD);
  cg_names_append_label (cg_tree_view_names (w->view), w->line, f);
  if (master)
    color (w, SGR_RESET);
  add_piece (pieces, start, w->line, k, CG_FIT_NAME);
  start = w->line->len;
  guint cycle = w->cycles ? cg_cycles_cycle_of (w->cycles, f) : 0;
  if (cycle)
    {
      color (w, SGR_MAGENTA);
      g_string_append_printf (w->line, " <cycle %u>", cycle);
      color (w, SGR_RESET);
    }
  add_piece (pieces, start, w->line, k, CG_FIT_OPTIONAL);
  start = w->line->len;
  guint number = cg_tree_view_link_number (w->view, f);
  if (number)
    {
      color (w, SGR_CYAN);
      g_string_append_printf (w->line, master ? " [%u]" : " -> [%u]", number);
      color (w, SGR_RESET);
    }
  add_piece (pieces, start, w->line, k, CG_FIT_MARK);
  start = w->line->len;
  /* the function's children are its whole arcs: its total beside the
   * call's says what contains them (and its self cost); as a cost where
   * the two percentages print alike, and not at all where the cost
   * prints as the incl column does (62,323,169 of 62,323,170 calls):
   * the line's numbers then contain its children as they stand */
  if (cg_tree_view_shows_total (w->view, n))
    {
      CgValue total = cg_tree_view_function_total (w->view, n);
      const char *estimated = cg_costs_total_is_estimated (cg_tree_view_costs (w->view), f) ? "~" : "";
      g_autofree char *all = g_strdup_printf ("%.2f", cg_tree_view_percent (w->view, w->kind, total));
      g_autofree char *call = g_strdup_printf ("%.2f", cg_tree_view_node_percent (w->view, n));
      if (strcmp (all, call) != 0)
        g_string_append_printf (w->line, " (%s%s%% in all)", estimated, all);
      else
        {
          g_autoptr (GString) cost = g_string_new (NULL), incl = g_string_new (NULL);
          cg_append_cost_human (cost, w->kind, total, w->scale);
          cg_append_cost_human (incl, w->kind, cg_tree_view_value (w->view, n), w->scale);
          if (strcmp (cost->str, incl->str) != 0)
            g_string_append_printf (w->line, " (%s%s %s in all)", estimated, cost->str, w->unit);
        }
    }
  add_piece (pieces, start, w->line, k, CG_FIT_ASIDE);
}

/* Whether line @i's only shown child (line i + 1) joins the row that
 * line @head starts (cg_tree_view_joins_next). */
static gboolean
folds_into_next (Writer *w, guint head, guint i)
{
  return !w->o->no_fold && cg_tree_view_joins_next (w->view, head, i, w->o->view.threshold);
}

static void
write_header (Writer *w, const CgCosts *costs, const GString *notes, FILE *stream)
{
  const CgTreeView *v = w->view;
  CgGraph *g = w->graph;
  gboolean inverted = cg_display_tree_is_inverted (w->tree);
  g_autoptr (GString) s = g_string_new (NULL);
  if (w->o->brief)
    {
      /* the table alone, but never times without what was taken out */
      g_string_append_len (s, notes->str, (gssize) notes->len);
      goto titles;
    }
  g_string_append_printf (s, "%s: event %s, ",
                          cg_display_tree_is_given (w->tree) ? "Callers tree"
                          : inverted                         ? "Callers tree (Kaes)"
                                                             : "Display tree (Kaes)",
                          cg_graph_event_name (g, w->event));
  if (w->event_unit)
    {
      cg_append_cost_human (s, w->self_kind, cg_tree_view_all (v), w->scale / w->compact_factor);
      g_string_append_printf (s, " %s in all.\n", w->event_unit);
    }
  else
    {
      cg_append_cost_human (s, w->self_kind, cg_tree_view_all (v), w->scale);
      g_string_append_printf (s, " %s in all.\n", w->unit);
    }
  if (w->o->scope)
    g_string_append_printf (s, "%s\n", w->o->scope);
  cg_append_method_note (s, g, costs, w->event);
  if (cg_display_tree_is_given (w->tree))
    g_string_append (s, ".\nThe functions with the most self cost first.  incl: of a root, its self cost;"
                        " below it, the part of the root's cost that came through this caller (recursion followed"
                        " to its outermost caller; \"~\": estimated in proportion to the calls' costs, the profile"
                        " having no call tree).\nself: the root's own cost.  calls: on the arc from this caller.\n");
  else if (inverted)
    g_string_append (s, ".\nincl: of a root, its total; below it, the part of the line above's total that the calls"
                        " from this caller carried.  self: the function's own cost.\nEach function's callers appear"
                        " under one of its callees, marked [n]; its other appearances read -> [n].\n");
  else
    g_string_append_printf (s, ".\nincl: the cost the calls from the parent line carried (of a root: its total).  self: the"
                        " function's own cost.\nEach function's callees appear under the call that carries most of it,"
                        " marked [n] (\"in all\": its total, where it exceeds the call's%s); its other appearances read"
                        " -> [n].\n",
                            w->o->width > 0 ? ", left out where the width would cut the name short" : "");
  g_string_append_len (s, notes->str, (gssize) notes->len);
  gdouble threshold = w->o->view.threshold;
  if (threshold > 0)
    {
      g_string_append_printf (s, "Lines below %g%% are hidden", threshold);
      if (w->o->view.diff && !inverted)
        g_string_append_printf (s, " unless they changed by %g%% or more", threshold);
      if (!w->o->no_fold)
        g_string_append_printf (s, "; \"%s\" joins a chain of calls that loses less than %g%% on the way",
                                inverted ? "f < g" : "f > g", threshold);
      g_string_append (s, ".\n");
    }
  cg_append_narrow_note (s, w->event_unit, w->unit, w->compact_factor, w->short_calls);
  if (w->o->diff)
    g_string_append_printf (s, "change: the line's incl less what the same call carried in the base (a root: its"
                               " total less the base's), slower in red, faster in blue; %s.\n",
                            cg_diff_is_exact (w->o->diff) && !cg_append_diff_overlap_notes (NULL, w->o->diff)
                              ? "exact, as both profiles' totals are"
                                                          : "\"~\" lines are estimates in either profile");
  if (w->o->diff && !self_cost_column (w->o))
    g_string_append (s, "The self cost shows as self% alone, to leave the names room; --width=0 shows it too.\n");
  if (w->o->diff && cg_diff_sampled (w->o->diff))
    {
      cg_append_diff_samples (s, w->o->diff);
      g_string_append (s, "A line's change within twice the square root of its samples is within the"
                          " sampling noise: no sure change, marked \"?\" (as cgcost --base --format=text marks"
                          " such functions). Runs also vary with the machine's load, which two profiles cannot"
                          " show.\n");
    }
  if (w->o->diff)
    {
      /* not g_autofree: the goto to titles below would skip its start */
      char *events = cg_diff_events_note (w->o->diff, w->unit);
      if (events)
        g_string_append_printf (s, "Compared: %s.\n", events);
      g_free (events);
    }
  g_string_append_c (s, '\n');
  cg_fit_fold_lines (s, w->o->width);
titles:;
  g_autofree char *incl = g_strdup_printf ("incl %s", w->unit);
  g_autofree char *self = g_strdup_printf ("self %s", w->unit);
  g_string_append_printf (s, "%7s %7s ", "incl%", "self%");
  cg_append_padded (s, incl, w->cost_width);
  if (w->o->diff)
    g_string_append_printf (s, " %*s", change_width (w), "change");
  if (self_cost_column (w->o))
    {
      g_string_append_c (s, ' ');
      cg_append_padded (s, self, w->cost_width);
    }
  if (w->calls_width)
    g_string_append_printf (s, " %*s", w->calls_width, "calls");
  g_string_append (s, "  function\n");
  fwrite (s->str, 1, s->len, stream);
}

gboolean
cg_write_tree_text (CgProfile *p, const CgCosts *costs, const CgDisplayTree *t, const CgTreeTextOptions *o,
                    FILE *stream, GError **error)
{
  g_autoptr (CgTreeView) v = cg_tree_view_new (p, costs, t, &o->view, error);
  if (v == NULL)
    return FALSE;
  CgGraph *g = cg_profile_graph (p);
  guint event = o->view.event;
  g_autoptr (GString) line = g_string_new (NULL);
  g_autoptr (GString) scratch = g_string_new (NULL);
  Writer w = { v, o, g, t, cg_profile_cycles (p), event, cg_costs_kind (costs, event), cg_graph_event_kind (g, event),
               cg_graph_event_scale (g, event), NULL, 0, 0, 1.0, FALSE, NULL, MAX_INDENT, line, scratch };
  CgDisplayUnit unit = cg_display_unit (cg_graph_event_unit (g, event),
                                        cg_value_to_double (w.self_kind, cg_tree_view_all (v)) * w.scale);
  w.scale *= unit.factor;
  w.unit = unit.unit;
  /* at a width, counts of 10 million or more (callgrind's billions of
   * Ir: 13 columns each) show in a multiple of their unit, and long call
   * counts to three digits, so that the numbers leave the names room;
   * without a width (a pipe, a file) they stay whole */
  if (o->width > 0)
    {
      CgDisplayUnit compact
          = cg_display_unit_compact (w.unit, cg_value_to_double (w.self_kind, cg_tree_view_all (v)) * w.scale);
      if (compact.factor != 1.0)
        {
          w.event_unit = w.unit;
          w.compact_factor = compact.factor;
          w.scale *= compact.factor;
          w.unit = compact.unit;
        }
    }

  /* columns as wide as the profile's total (no value exceeds it, except
   * overlapping estimates) and the largest call count */
  cg_append_cost_human (scratch, w.self_kind, cg_tree_view_all (v), w.scale);
  w.cost_width = MAX (w.cost_width, (int) scratch->len);
  /* and their titles, which carry the unit */
  w.cost_width = MAX (w.cost_width, (int) g_utf8_strlen (w.unit, -1) + 5);
  guint n_lines = cg_tree_view_n_lines (v);
  for (guint i = 0; i < n_lines; i++)
    {
      CgNodeId n = cg_tree_view_line (v, i)->node;
      g_string_truncate (scratch, 0);
      calls_text (&w, n, scratch);
      w.calls_width = MAX (w.calls_width, (int) scratch->len);
      g_string_truncate (scratch, 0);
      cg_append_cost_human (scratch, w.kind, cg_tree_view_value (v, n), w.scale);
      w.cost_width = MAX (w.cost_width, (int) scratch->len);
    }
  if (o->width > 0 && w.calls_width > 7)
    {
      w.short_calls = TRUE;
      w.calls_width = 0;
      for (guint i = 0; i < n_lines; i++)
        {
          g_string_truncate (scratch, 0);
          calls_text (&w, cg_tree_view_line (v, i)->node, scratch);
          w.calls_width = MAX (w.calls_width, (int) scratch->len);
        }
    }
  w.calls_width = cg_tree_view_has_calls (v) ? MAX (5, w.calls_width) : 0;
  /* in a width, the tree art leaves 24 columns to the names: deeper
   * lines say how much deeper they are, as past MAX_INDENT */
  w.max_indent = MAX_INDENT;
  if (o->width > 0)
    {
      int numbers = 7 + 1 + 7 + (self_cost_column (o) ? 2 : 1) * (1 + w.cost_width) + (o->diff ? 2 + w.cost_width : 0)
                    + (w.calls_width ? 1 + w.calls_width : 0) + 2;
      int art = ((int) o->width - numbers - 24) / 2;
      w.max_indent = (guint) CLAMP (art, 4, MAX_INDENT);
    }
  /* what a reader of the times must know (the sources' notes) */
  g_autoptr (GString) notes = g_string_new (NULL);
  if (o->diff)
    cg_append_source_notes (notes, cg_diff_base (o->diff));
  cg_append_source_notes (notes, p);
  if (o->diff)
    cg_append_diff_overlap_notes (notes, o->diff);
  else
    cg_append_overlap_note (notes, "Note: ", w.graph, costs, w.event);
  write_header (&w, costs, notes, stream);

  /* shift[d]: nodes folded away above the lines of (unfolded) depth d on
   * the current path; not_last[d]: the printed ancestor at depth d has
   * later siblings, so its branch continues ("|") past this line */
  g_autoptr (GArray) shift = g_array_new (FALSE, TRUE, sizeof (guint));
  g_autoptr (GArray) not_last = g_array_new (FALSE, TRUE, sizeof (gboolean));
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (CgTreeLine));
  g_autoptr (GArray) pieces = g_array_new (FALSE, FALSE, sizeof (CgFitPiece));
  g_autofree guint32 *open = g_new0 (guint32, MAX (cg_graph_n_functions (g), 1));
  g_array_set_size (shift, 1);
  for (guint i = 0; i < n_lines;)
    {
      const CgTreeLine *first = cg_tree_view_line (v, i);
      guint j = i;
      while (j - i + 1 < MAX_FOLD && folds_into_next (&w, i, j))
        j++;
      const CgTreeLine *end = cg_tree_view_line (v, j);
      guint depth = first->depth - g_array_index (shift, guint, first->depth);
      if (shift->len <= end->depth + 1)
        g_array_set_size (shift, end->depth + 2);
      g_array_index (shift, guint, end->depth + 1) = g_array_index (shift, guint, first->depth) + (j - i);

      CgNodeId n = first->node;
      gdouble pct = cg_tree_view_node_percent (v, n);
      CgValue self = CG_VALUE_ZERO;
      gboolean any_master = FALSE;
      for (guint k = i; k <= j; k++)
        {
          CgNodeId m = cg_tree_view_line (v, k)->node;
          if (!cg_display_tree_shows_self (t, m))
            continue;
          any_master = TRUE;
          /* self costs never overflow: the profile's total is their sum */
          cg_value_add (w.self_kind, &self, cg_graph_self_const (g, cg_display_tree_function (t, m))[event]);
        }

      /* a joined line is an estimate where any of its calls is */
      gboolean estimated = FALSE;
      for (guint k = i; k <= j; k++)
        estimated |= cg_tree_view_estimated (v, cg_tree_view_line (v, k)->node);
      g_string_truncate (line, 0);
      color (&w, heat (pct));
      g_string_append_printf (line, "%s%6.2f", estimated ? "~" : " ", pct);
      color (&w, SGR_RESET);
      if (any_master)
        g_string_append_printf (line, " %7.2f", cg_tree_view_percent (v, w.self_kind, self));
      else
        g_string_append_printf (line, " %7s", "");
      cost_column (&w, w.kind, cg_tree_view_value (v, n));
      if (o->diff)
        change_column (&w, n);
      if (!self_cost_column (o))
        ;
      else if (any_master)
        cost_column (&w, w.self_kind, self);
      else
        g_string_append_printf (line, " %*s", w.cost_width, "");
      if (w.calls_width)
        {
          g_string_truncate (scratch, 0);
          calls_text (&w, n, scratch);
          g_string_append_printf (line, " %*s", w.calls_width, scratch->str);
        }
      g_string_append (line, "  ");

      if (not_last->len <= depth)
        g_array_set_size (not_last, depth + 1);
      g_array_index (not_last, gboolean, depth) = !first->last;
      color (&w, SGR_DIM);
      for (guint d = 1; d < MIN (depth, w.max_indent); d++)
        g_string_append (line, g_array_index (not_last, gboolean, d) ? "| " : "  ");
      if (depth >= w.max_indent)
        g_string_append_printf (line, "(+%u) ", depth - w.max_indent + 1);
      if (depth > 0)
        g_string_append (line, first->last ? "`-" : "|-");
      color (&w, SGR_RESET);
      gsize names = line->len;
      /* the functions open on the path to this line: a link to one of
       * them is where a recursion closes */
      while (path->len > 0 && g_array_index (path, CgTreeLine, path->len - 1).depth >= first->depth)
        {
          open[cg_display_tree_function (t, g_array_index (path, CgTreeLine, path->len - 1).node)]--;
          g_array_set_size (path, path->len - 1);
        }
      g_array_set_size (pieces, 0);
      gsize recursion_at = 0;
      for (guint k = i; k <= j; k++)
        {
          if (k > i)
            {
              gsize start = line->len;
              g_string_append (line, cg_display_tree_is_inverted (t) ? " < " : " > ");
              add_piece (pieces, start, line, k - i, CG_FIT_SEPARATOR);
            }
          CgNodeId node = cg_tree_view_line (v, k)->node;
          append_function (&w, node, pieces, k - i);
          CgFunctionId f = cg_display_tree_function (t, node);
          if (!cg_display_tree_is_master (t, node) && open[f] > 0)
            {
              /* a mark, whole: below, its short form where it does not fit */
              recursion_at = line->len;
              g_string_append (line, RECURSION_LONG);
              add_piece (pieces, recursion_at, line, k - i, CG_FIT_MARK);
            }
          open[f]++;
          g_array_append_val (path, *cg_tree_view_line (v, k));
        }
      /* the explanation, cut as a name, read "(re…ve)" at 80 columns on
       * Lua's profile: where the line is too wide, "(recursion)" (the
       * link closes a recursion, the last piece of its line) */
      CgFitPiece *last = pieces->len ? &g_array_index (pieces, CgFitPiece, pieces->len - 1) : NULL;
      if (recursion_at && last && last->start == recursion_at && o->width > 0
          && cg_fit_visible_width (line->str) > o->width)
        {
          g_string_truncate (line, recursion_at);
          g_string_append (line, RECURSION_SHORT);
          last->end = line->len;
        }
      cg_fit_line (line, names, pieces, o->width, g_get_charset (NULL) ? "\u2026" : "...");
      g_string_append_c (line, '\n');
      fwrite (line->str, 1, line->len, stream);
      i = j + 1;
    }
  return TRUE;
}
