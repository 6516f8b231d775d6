/* cg-write-profile.c — flat profile and call graph, columns sized to the
 * largest number so that nothing shifts, names last and fitted to the
 * width (cg-fit-line) so that no row wraps. */
#include "config.h"

#include "cg-write-profile.h"

#include <string.h>

#include "cg-names.h"
#include "cg-error.h"
#include "cg-fit-line.h"
#include "cg-method.h"
#include "cg-text.h"

typedef struct {
  CgProfile *profile;
  CgGraph *graph;
  const CgCosts *costs;
  CgCycles *cycles;
  guint event;
  CgNames *names;
  CgKind kind;       /* of totals */
  CgKind self_kind;  /* of self costs */
  gdouble all;       /* the profile's total, for percentages */
  gdouble scale;     /* of the event: stored value × scale = unit */
  int width;         /* of cost columns */
  int flat_calls;    /* width of the flat profile's calls column */
  int graph_calls;   /* width of the call graph's calls column (N/M, N+M) */
  guint *index;      /* per function: 1-based entry number in the call graph */
  GString *line;
  GString *scratch;
  GArray *pieces;    /* CgFitPiece: the name and marks of the row in line */
  gsize name_start;  /* where the row's name begins in line */
  guint fit;         /* columns a row fits in, 0: no limit */
  gboolean short_calls; /* calls to three digits (cg_append_count_short), to fit */
  const char *time_unit; /* the unit of a time event's columns, else NULL */
  gboolean brief; /* headings without explanations, no header lines */
  gboolean counted; /* the profile counts calls (sampled stacks do not) */
} Report;

/* Appends the count @n grouped in thousands, as costs are; to three
 * digits where the calls must be short to fit the width. */
static void
grouped (const Report *r, GString *s, guint64 n)
{
  if (r->short_calls)
    cg_append_count_short (s, n);
  else
    cg_value_append_human (s, CG_KIND_INTEGER, (CgValue) { .n = n }, 0);
}

/* Appends the count @n grouped in thousands, or nothing where the
 * profile counts no calls: sampled stacks (perf, folded) record calls
 * but not how many, and "0 calls" beside a function that ran says what
 * is not so. */
static void
calls_of (const Report *r, GString *s, guint64 n)
{
  if (r->counted)
    grouped (r, s, n);
}

/* Appends @v in the event's unit, grouped in thousands. */
static void
human (GString *s, CgKind kind, CgValue v, gdouble scale)
{
  CgValue u = cg_value_scaled (&kind, v, scale);
  cg_value_append_human (s, kind, u, kind == CG_KIND_REAL ? 2 : 0);
}

/* Appends @v right-aligned in the cost column. */
static void
column (Report *r, CgKind kind, CgValue v)
{
  g_autoptr (GString) t = g_string_new (NULL);
  human (t, kind, v, r->scale);
  g_string_append_printf (r->line, " %*s", r->width, t->str);
}

static gdouble
percent (Report *r, CgKind kind, CgValue v)
{
  return r->all > 0 ? 100.0 * cg_value_to_double (kind, v) / r->all : 0.0;
}

/* Records the bytes of r->line from @start on as a piece of the row's
 * name, for cg_fit_line. */
static void
piece (Report *r, gsize start, CgFitKind kind)
{
  if (r->line->len > start)
    g_array_append_val (r->pieces, ((CgFitPiece) { start, r->line->len, 0, kind }));
}

/* The row's name, last on it: its label (which may lose its middle), its
 * cycle (which may go: cgcycles lists it), its entry's number, and
 * @suffix (never cut: no reader can tell "[1]" from "[12]" cut). */
static void
name (Report *r, CgFunctionId f, gboolean with_index, const char *suffix)
{
  r->name_start = r->line->len;
  cg_names_append_label (r->names, r->line, f);
  piece (r, r->name_start, CG_FIT_NAME);
  gsize start = r->line->len;
  guint k = r->cycles ? cg_cycles_cycle_of (r->cycles, f) : 0;
  if (k)
    g_string_append_printf (r->line, " <cycle %u>", k);
  piece (r, start, CG_FIT_OPTIONAL);
  start = r->line->len;
  if (with_index && r->index[f])
    g_string_append_printf (r->line, " [%u]", r->index[f]);
  if (suffix)
    g_string_append (r->line, suffix);
  piece (r, start, CG_FIT_MARK);
}

static void
flush (Report *r, FILE *stream)
{
  if (r->pieces->len > 0)
    cg_fit_line (r->line, r->name_start, r->pieces, r->fit, g_get_charset (NULL) ? "\u2026" : "...");
  g_array_set_size (r->pieces, 0);
  g_string_append_c (r->line, '\n');
  fwrite (r->line->str, 1, r->line->len, stream);
  g_string_truncate (r->line, 0);
}

typedef struct {
  Report *r;
  gboolean by_self;
} Order;

static gint
compare_entries (gconstpointer a, gconstpointer b, gpointer data)
{
  const Order *o = data;
  Report *r = o->r;
  CgFunctionId x = *(const CgFunctionId *) a, y = *(const CgFunctionId *) b;
  int c;
  if (o->by_self)
    c = cg_value_compare (r->self_kind, cg_graph_self_const (r->graph, y)[r->event],
                          cg_graph_self_const (r->graph, x)[r->event]);
  else
    c = cg_value_compare (r->kind, cg_costs_total_const (r->costs, y)[r->event],
                          cg_costs_total_const (r->costs, x)[r->event]);
  if (c == 0)
    c = strcmp (cg_graph_function_name (r->graph, x), cg_graph_function_name (r->graph, y));
  return c != 0 ? c : (x > y) - (x < y);
}

/* A cost column's title, with the unit where it is a time's (the header
 * line says the others'), right-aligned in the column. */
static void
title (Report *r, const char *what)
{
  g_autofree char *t = r->time_unit ? g_strdup_printf ("%s %s", what, r->time_unit) : g_strdup (what);
  cg_append_padded (r->line, t, r->width);
}

static void
flat_profile (Report *r, GArray *functions, FILE *stream)
{
  g_string_append (r->line, r->brief ? "Flat profile:\n\n" : "Flat profile (functions by self cost):\n\n");
  g_string_append_printf (r->line, "%7s ", "%self");
  title (r, "self");
  g_string_append_printf (r->line, " %7s ", "%total");
  title (r, "total");
  g_string_append_printf (r->line, " %*s  function", r->flat_calls, "calls");
  flush (r, stream);
  for (guint i = 0; i < functions->len; i++)
    {
      CgFunctionId f = g_array_index (functions, CgFunctionId, i);
      CgValue self = cg_graph_self_const (r->graph, f)[r->event];
      CgValue total = cg_costs_total_const (r->costs, f)[r->event];
      gboolean estimated = cg_costs_total_is_estimated (r->costs, f);
      g_string_append_printf (r->line, "%7.2f", percent (r, r->self_kind, self));
      column (r, r->self_kind, self);
      g_string_append_printf (r->line, " %s%6.2f", estimated ? "~" : " ", percent (r, r->kind, total));
      column (r, r->kind, total);
      g_string_truncate (r->scratch, 0);
      calls_of (r, r->scratch, cg_graph_calls_received (r->graph, f));
      g_string_append_printf (r->line, " %*s  ", r->flat_calls, r->scratch->str);
      name (r, f, FALSE, NULL);
      flush (r, stream);
    }
}

/* One caller or callee line of a call-graph entry. */
static void
arc_line (Report *r, CgArcId a, CgFunctionId other, guint64 denominator, gboolean self_arc)
{
  g_string_append_printf (r->line, "%6s %7s", "", "");
  if (self_arc)
    g_string_append_printf (r->line, " %*s", r->width, "");
  else
    column (r, r->kind, cg_costs_arc_const (r->costs, a)[r->event]);
  g_string_append_printf (r->line, " %*s", r->width, "");
  g_autoptr (GString) calls = g_string_new (NULL);
  calls_of (r, calls, cg_graph_arc_calls (r->graph, a));
  if (!self_arc && r->counted)
    {
      g_string_append_c (calls, '/');
      grouped (r, calls, denominator);
    }
  g_string_append_printf (r->line, " %*s  ", r->graph_calls, calls->str);
  name (r, other, TRUE, self_arc ? " (recursive)" : NULL);
}

/* Sizes the calls columns to their longest entry (at least their title,
 * "calls"), so that millions of calls on both sides of an arc
 * ("14,801,619/14,801,619") leave the names in line, and a few calls
 * leave the names the room of a terminal's 80 columns (gprof's 17
 * columns left a C++ name 16 of them).  An arc's line reads its calls
 * over its callee's: as caller line of the callee's entry and as callee
 * line of the caller's. */
static void
calls_widths (Report *r)
{
  r->flat_calls = (int) strlen ("calls");
  r->graph_calls = (int) strlen ("calls");
  if (!r->counted)
    return;
  CgGraph *g = r->graph;
  g_autoptr (GString) s = g_string_new (NULL);
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    {
      g_string_truncate (s, 0);
      grouped (r, s, cg_graph_calls_received (g, f));
      r->flat_calls = MAX (r->flat_calls, (int) s->len);
      CgArcId self_arc = cg_graph_lookup_arc (g, f, f);
      if (self_arc != CG_NO_ID)
        {
          g_string_append_c (s, '+');
          grouped (r, s, cg_graph_arc_calls (g, self_arc));
        }
      r->graph_calls = MAX (r->graph_calls, (int) s->len);
    }
  for (CgArcId a = 0; a < cg_graph_n_arcs (g); a++)
    {
      g_string_truncate (s, 0);
      grouped (r, s, cg_graph_arc_calls (g, a));
      g_string_append_c (s, '/');
      grouped (r, s, cg_graph_calls_received (g, cg_graph_arc_callee (g, a)));
      r->graph_calls = MAX (r->graph_calls, (int) s->len);
    }
}

typedef struct {
  Report *r;
  gboolean callers; /* the other end is the arc's caller */
} ArcOrder;

/* Arcs by the cost they carried, then calls, then the other end's name:
 * gprof's order, callers increasing (the largest next to the function),
 * callees decreasing, where the arcs' own order (the order the profile
 * first made each call) put a root's 0.93 s callee between ones of
 * 0.32 s and 0.01 s, among two hundred. */
static gint
compare_arcs (gconstpointer a, gconstpointer b, gpointer data)
{
  const ArcOrder *o = data;
  Report *r = o->r;
  CgArcId x = *(const CgArcId *) a, y = *(const CgArcId *) b;
  int c = cg_value_compare (r->kind, cg_costs_arc_const (r->costs, x)[r->event],
                            cg_costs_arc_const (r->costs, y)[r->event]);
  if (c == 0)
    {
      guint64 cx = cg_graph_arc_calls (r->graph, x), cy = cg_graph_arc_calls (r->graph, y);
      c = (cx > cy) - (cx < cy);
    }
  if (!o->callers)
    c = -c;
  if (c == 0)
    {
      CgFunctionId fx = o->callers ? cg_graph_arc_caller (r->graph, x) : cg_graph_arc_callee (r->graph, x);
      CgFunctionId fy = o->callers ? cg_graph_arc_caller (r->graph, y) : cg_graph_arc_callee (r->graph, y);
      c = strcmp (cg_graph_function_name (r->graph, fx), cg_graph_function_name (r->graph, fy));
    }
  return c != 0 ? c : (x > y) - (x < y);
}

/* @n arcs from @arcs, in @callers' order (see compare_arcs). */
static void
sorted_arcs (Report *r, GArray *out, const CgArcId *arcs, guint n, gboolean callers)
{
  g_array_set_size (out, 0);
  g_array_append_vals (out, arcs, n);
  ArcOrder o = { r, callers };
  g_array_sort_with_data (out, compare_arcs, &o);
}

static void
call_graph (Report *r, GArray *functions, FILE *stream)
{
  g_string_append (r->line, r->brief ? "\nCall graph:\n\n"
                                     : "\nCall graph (callers above each function, callees below; the cost column of\n"
                                       "those lines is what the calls carried):\n\n");
  cg_fit_fold_lines (r->line, r->fit);
  g_string_append_printf (r->line, "%-6s %7s ", "index", "%total");
  title (r, "total");
  g_string_append_c (r->line, ' ');
  title (r, "self");
  g_string_append_printf (r->line, " %*s  name", r->graph_calls, "calls");
  flush (r, stream);
  CgGraph *g = r->graph;
  g_autoptr (GArray) arcs = g_array_new (FALSE, FALSE, sizeof (CgArcId));
  for (guint i = 0; i < functions->len; i++)
    {
      CgFunctionId f = g_array_index (functions, CgFunctionId, i);
      guint64 received = cg_graph_calls_received (g, f);
      guint n;
      const CgArcId *in = cg_graph_in_arcs (g, f, &n);
      /* activations nobody called (a thread's start routine) are a
       * caller too, with what they carried, beside any calls */
      const CgValue *sp = cg_graph_spontaneous (g, f);
      CgKind sp_kind = cg_graph_event_kind (g, r->event);
      gboolean spontaneous = sp && cg_value_compare (sp_kind, sp[r->event], (CgValue) { 0 }) != 0;
      if (spontaneous)
        {
          g_string_append_printf (r->line, "%6s %7s", "", "");
          column (r, sp_kind, sp[r->event]);
          g_string_append_printf (r->line, " %*s %*s  <spontaneous>", r->width, "", r->graph_calls, "");
          flush (r, stream);
        }
      else if (n == 0)
        {
          g_string_append_printf (r->line, "%6s %7s %*s %*s %*s  <spontaneous>", "", "", r->width, "",
                                  r->width, "", r->graph_calls, "");
          flush (r, stream);
        }
      sorted_arcs (r, arcs, in, n, TRUE);
      for (guint j = 0; j < arcs->len; j++)
        {
          CgArcId a = g_array_index (arcs, CgArcId, j);
          CgFunctionId caller = cg_graph_arc_caller (g, a);
          arc_line (r, a, caller, received, caller == f);
          flush (r, stream);
        }
      CgValue total = cg_costs_total_const (r->costs, f)[r->event];
      g_autofree char *entry = g_strdup_printf ("[%u]", r->index[f]);
      g_string_append_printf (r->line, "%-6s %s%6.2f", entry, cg_costs_total_is_estimated (r->costs, f) ? "~" : " ",
                              percent (r, r->kind, total));
      column (r, r->kind, total);
      column (r, r->self_kind, cg_graph_self_const (g, f)[r->event]);
      CgArcId self_arc = cg_graph_lookup_arc (g, f, f);
      g_autoptr (GString) calls = g_string_new (NULL);
      calls_of (r, calls, received);
      if (self_arc != CG_NO_ID && r->counted)
        {
          g_string_append_c (calls, '+');
          grouped (r, calls, cg_graph_arc_calls (g, self_arc));
        }
      g_string_append_printf (r->line, " %*s  ", r->graph_calls, calls->str);
      name (r, f, TRUE, NULL);
      flush (r, stream);
      const CgArcId *out = cg_graph_out_arcs (g, f, &n);
      sorted_arcs (r, arcs, out, n, FALSE);
      for (guint j = 0; j < arcs->len; j++)
        {
          CgArcId a = g_array_index (arcs, CgArcId, j);
          CgFunctionId callee = cg_graph_arc_callee (g, a);
          if (callee == f)
            continue; /* shown on the primary line as +N */
          arc_line (r, a, callee, cg_graph_calls_received (g, callee), FALSE);
          flush (r, stream);
        }
      g_string_append (r->line, "-----------------------------------------------");
      flush (r, stream);
    }
}

gboolean
cg_write_profile_text (CgProfile *p, const CgCosts *costs, const CgProfileTextOptions *options, FILE *stream,
                       GError **error)
{
  guint event = options->event;
  gboolean brief = options->brief;
  CgGraph *g = cg_profile_graph (p);
  guint nf = cg_graph_n_functions (g);
  g_autofree CgValue *all = g_new0 (CgValue, MAX (cg_graph_n_events (g), 1));
  if (!cg_graph_self_totals (g, all))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "the total cost exceeds the range of 64-bit counters");
      return FALSE;
    }
  g_autoptr (CgNames) names = cg_names_new (g, options->demangle);
  if (options->strip)
    cg_names_set_strip (names);
  Report r = {
    .names = names,
    .profile = p,
    .graph = g,
    .costs = costs,
    .cycles = cg_profile_cycles (p),
    .event = event,
    .kind = cg_costs_kind (costs, event),
    .self_kind = cg_graph_event_kind (g, event),
    .all = cg_value_to_double (cg_graph_event_kind (g, event), all[event]),
    .scale = cg_graph_event_scale (g, event),
    .index = g_new0 (guint, MAX (nf, 1)),
    .line = g_string_new (NULL),
    .scratch = g_string_new (NULL),
    .pieces = g_array_new (FALSE, FALSE, sizeof (CgFitPiece)),
    .fit = options->width,
  };
  for (CgArcId a = 0; a < cg_graph_n_arcs (g) && !r.counted; a++)
    r.counted = cg_graph_arc_calls (g, a) > 0;
  CgDisplayUnit unit = cg_display_unit (cg_graph_event_unit (g, event), r.all * r.scale);
  r.scale *= unit.factor;
  if (unit.unit != cg_graph_event_unit (g, event))
    r.time_unit = unit.unit;

  /* entries: functions that cost something or were called */
  g_autoptr (GArray) functions = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  CgValue largest = CG_VALUE_ZERO;
  for (CgFunctionId f = 0; f < nf; f++)
    {
      CgValue total = cg_costs_total_const (costs, f)[event];
      CgValue self = cg_graph_self_const (g, f)[event];
      guint n;
      cg_graph_in_arcs (g, f, &n);
      if (cg_value_is_zero (r.kind, total) && cg_value_is_zero (r.self_kind, self) && n == 0)
        continue;
      g_array_append_val (functions, f);
      if (cg_value_compare (r.kind, total, largest) > 0)
        largest = total;
    }
  /* at a width, as cgtree's text: counts of 100 million or more
   * (callgrind's billions of Ir, 13 columns each) in a multiple of their
   * unit, and calls of millions to three digits, so that the numbers
   * leave the names room; the header keeps the exact total */
  gdouble header_scale = r.scale;
  const char *event_unit = NULL;
  CgDisplayUnit compact = cg_display_unit_compact (unit.unit, r.all * r.scale);
  if (r.fit > 0 && compact.factor != 1.0)
    {
      event_unit = unit.unit;
      r.scale *= compact.factor;
      r.time_unit = compact.unit;
    }
  g_autoptr (GString) t = g_string_new (NULL);
  human (t, r.kind, largest, r.scale);
  r.width = MAX ((int) t->len, 9);
  calls_widths (&r);
  if (r.fit > 0 && r.flat_calls > 7)
    {
      r.short_calls = TRUE;
      calls_widths (&r);
    }

  Order by_total = { &r, FALSE }, by_self = { &r, TRUE };
  g_array_sort_with_data (functions, compare_entries, &by_total);
  for (guint i = 0; i < functions->len; i++)
    r.index[g_array_index (functions, CgFunctionId, i)] = i + 1;

  if (!brief)
    {
      cg_append_sources (r.line, p, FALSE);
      g_string_append_printf (r.line, "Event: %s", cg_graph_event_name (g, event));
      if (cg_graph_event_description (g, event))
        g_string_append_printf (r.line, " (%s)", cg_graph_event_description (g, event));
      g_string_append (r.line, ", ");
      human (r.line, r.self_kind, all[event], header_scale);
      g_string_append_printf (r.line, " %s in all", unit.unit);
      cg_fit_fold_lines (r.line, r.fit);
      flush (&r, stream);
      cg_append_method_note (r.line, g, costs, event);
      if (!r.counted)
        g_string_append (r.line, cg_graph_n_arcs (g) > 0 ? "\nCalls: not counted (sampled stacks record calls, not"
                                                           " how many): the calls columns are empty"
                                                         : "\nCalls: none recorded: the calls columns are empty");
      g_string_append_c (r.line, '\n');
      cg_append_narrow_note (r.line, event_unit, r.time_unit, compact.factor, r.short_calls);
      cg_append_overlap_note (r.line, "Note: ", g, costs, event);
      cg_fit_fold_lines (r.line, r.fit);
      flush (&r, stream);
    }
  else
    {
      /* the table alone, but never times without what was taken out */
      cg_append_source_notes (r.line, p);
      cg_append_overlap_note (r.line, "Note: ", g, costs, event);
      if (r.line->len > 0)
        flush (&r, stream);
    }
  r.brief = brief;

  g_autoptr (GArray) flat = g_array_copy (functions);
  g_array_sort_with_data (flat, compare_entries, &by_self);
  flat_profile (&r, flat, stream);
  call_graph (&r, functions, stream);
  g_free (r.index);
  g_string_free (r.line, TRUE);
  g_string_free (r.scratch, TRUE);
  g_array_unref (r.pieces);
  return TRUE;
}
