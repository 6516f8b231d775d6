/* cg-write-dot.c — one pass over the functions, one over the arcs. */
#include "config.h"

#include "cg-write-dot.h"

#include <math.h>

#include "cg-names.h"
#include "cg-error.h"
#include "cg-text.h"

/* A colour from blue (0 %) through green and yellow to red (100 %).
 * The square root spreads the small percentages most functions have over
 * more of the scale, as gprof2dot's colour map does. */
static void
heat_color (gdouble pct, guint8 rgb[3])
{
  gdouble t = sqrt (CLAMP (pct, 0.0, 100.0) / 100.0);
  gdouble h = (1.0 - t) * 240.0, s = 0.75, v = 0.95;
  gdouble c = v * s, x = c * (1.0 - fabs (fmod (h / 60.0, 2.0) - 1.0)), m = v - c;
  gdouble r, g, b;
  if (h < 60)
    r = c, g = x, b = 0;
  else if (h < 120)
    r = x, g = c, b = 0;
  else if (h < 180)
    r = 0, g = c, b = x;
  else
    r = 0, g = x, b = c;
  rgb[0] = (guint8) lround ((r + m) * 255);
  rgb[1] = (guint8) lround ((g + m) * 255);
  rgb[2] = (guint8) lround ((b + m) * 255);
}

static void
append_color (GString *s, const char *attribute, gdouble pct)
{
  guint8 rgb[3];
  heat_color (pct, rgb);
  g_string_append_printf (s, "%s=\"#%02x%02x%02x\"", attribute, rgb[0], rgb[1], rgb[2]);
}

/* WCAG 2's relative luminance of an sRGB colour. */
static gdouble
luminance (const guint8 rgb[3])
{
  gdouble l[3];
  for (int i = 0; i < 3; i++)
    {
      gdouble c = rgb[i] / 255.0;
      l[i] = c <= 0.03928 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
    }
  return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
}

/* The heat colour of @pct darkened until its contrast with white is at
 * least 4.5:1: pale cyan and yellow labels vanish on a white page. */
static void
append_label_color (GString *s, gdouble pct)
{
  guint8 rgb[3];
  heat_color (pct, rgb);
  while ((1.0 + 0.05) / (luminance (rgb) + 0.05) < 4.5)
    for (int i = 0; i < 3; i++)
      rgb[i] = (guint8) (rgb[i] * 0.9);
  g_string_append_printf (s, "fontcolor=\"#%02x%02x%02x\"", rgb[0], rgb[1], rgb[2]);
}

/* The colour of a change, @ratio of the largest change (-1 to 1): white
 * to red for slower, white to blue for faster, as differential flame
 * graphs colour them. */
static void
append_change_color (GString *s, const char *attribute, gdouble ratio)
{
  gdouble t = sqrt (fabs (CLAMP (ratio, -1.0, 1.0)));
  guint8 fade = (guint8) lround (255 - 200 * t);
  if (ratio >= 0)
    g_string_append_printf (s, "%s=\"#ff%02x%02x\"", attribute, fade, fade);
  else
    g_string_append_printf (s, "%s=\"#%02x%02xff\"", attribute, fade, fade);
}

/* An arrow's colour for a change: as a box's, but never paler than a
 * line can be seen on white, and grey where the call's cost did not
 * change (white arrows left most of a diff's graph without lines). */
static void
append_edge_change_color (GString *s, gdouble ratio)
{
  if (fabs (ratio) < 0.01)
    {
      g_string_append (s, "color=\"#a0a0a0\"");
      return;
    }
  gdouble t = sqrt (fabs (CLAMP (ratio, -1.0, 1.0)));
  guint8 fade = (guint8) MIN (lround (255 - 200 * t), 0xb0);
  if (ratio > 0)
    g_string_append_printf (s, "color=\"#ff%02x%02x\"", fade, fade);
  else
    g_string_append_printf (s, "color=\"#%02x%02xff\"", fade, fade);
}

/* A function's change of total in the difference's unit (0 without a
 * base's), and the largest absolute change among the functions. */
static gdouble
function_change (const CgDiff *d, CgFunctionId f)
{
  const CgDiffFunction *r = cg_diff_of_new (d, f);
  return cg_diff_change (d, r->base_total, r->new_total);
}

/* Appends a change's line, "\n+1.23" or "\n-1.23": from @base to @now,
 * both in the difference's values, in the unit the labels show (@factor:
 * that unit per the event's), as the text tree's change column shows it,
 * on a box as on an arrow; "~" first where either is an estimate.
 * Returns the sign printed (0: it reads zero, and is coloured as none,
 * where a change of 1 µs in all, the largest, was the deepest blue). */
static int
append_change (GString *label, const CgDiff *d, CgValue base, CgValue now, gdouble factor, gboolean estimated)
{
  g_string_append_c (label, '\n');
  if (estimated)
    g_string_append_c (label, '~');
  CgKind kind = cg_diff_kind (d);
  gdouble change = cg_diff_change (d, base, now);
  if (kind == CG_KIND_INTEGER && factor == 1.0)
    {
      /* counts as counts, not "+1.05893e+07" */
      CgDiffFunction both = { 0 };
      both.base_total = base;
      both.new_total = now;
      g_string_append (label, change > 0 ? "+" : "");
      cg_diff_append_change (d, label, &both, TRUE);
      return change > 0 ? 1 : change < 0 ? -1 : 0;
    }
  return cg_append_change_human (label, kind, base, now, cg_diff_scale (d) * factor);
}

/* Appends @text inside a dot string: quotes and backslashes escaped,
 * newlines as dot's centred line breaks. */
static void
append_escaped (GString *s, const char *text)
{
  for (const char *p = text; *p; p++)
    {
      if (*p == '\n')
        {
          g_string_append (s, "\\n");
          continue;
        }
      if (*p == '"' || *p == '\\')
        g_string_append_c (s, '\\');
      g_string_append_c (s, *p);
    }
}

/* A box this many characters wide at most (Graphviz sizes boxes to their
 * text: one 1,500-character C++ name made a picture 8,693 pixels wide). */
#define LABEL_WIDTH 40

/* Appends @name (a function's label) to @out in lines of at most
 * LABEL_WIDTH characters, broken after "::", ", " or a blank where one
 * lies in the second half of a line, else at the width; an object in
 * brackets that ends the label (" [libc.so.6]": the name is ambiguous or
 * an address) goes on a line of its own. */
static void
wrap_label (GString *out, const char *name)
{
  const char *object = g_str_has_suffix (name, "]") ? g_strrstr (name, " [") : NULL;
  const char *end = object ? object : name + strlen (name);
  const char *p = name;
  while (end - p > LABEL_WIDTH)
    {
      const char *cut = NULL;
      for (const char *q = p + LABEL_WIDTH / 2; q < p + LABEL_WIDTH; q++)
        if ((q[0] == ':' && q[1] == ':') || (q[0] == ',' && q[1] == ' ') || q[0] == ' ')
          cut = q;
      if (cut == NULL)
        cut = p + LABEL_WIDTH;
      else
        cut += cut[0] == ':' ? 2 : 1 + (cut[0] == ',');
      /* never inside a UTF-8 sequence */
      while (cut > p && ((guchar) *cut & 0xc0) == 0x80)
        cut--;
      g_string_append_len (out, p, cut - p);
      g_string_append_c (out, '\n');
      p = cut;
      while (*p == ' ')
        p++;
    }
  g_string_append_len (out, p, end - p);
  if (object)
    {
      g_string_append_c (out, '\n');
      g_string_append (out, object + 1);
    }
}

gboolean
cg_write_dot (CgProfile *p, const CgCosts *costs, const CgDisplayTree *tree, const CgDotOptions *o, FILE *stream,
              GError **error)
{
  CgGraph *g = cg_profile_graph (p);
  CgCycles *cycles = cg_profile_cycles (p);
  guint event = o->event, nf = cg_graph_n_functions (g);
  g_autofree CgValue *all = g_new0 (CgValue, MAX (cg_graph_n_events (g), 1));
  if (!cg_graph_self_totals (g, all))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "the total cost exceeds the range of 64-bit counters");
      return FALSE;
    }
  CgKind kind = cg_costs_kind (costs, event), self_kind = cg_graph_event_kind (g, event);
  g_autoptr (CgNames) names = cg_names_new (g, o->demangle);
  cg_names_set_short (names);
  if (o->strip)
    cg_names_set_strip (names);
  gdouble scale = cg_graph_event_scale (g, event);
  gdouble total = cg_value_to_double (self_kind, all[event]);
  CgDisplayUnit unit = cg_display_unit (cg_graph_event_unit (g, event), total * scale);
  scale *= unit.factor;
#define PCT(k, v) (total > 0 ? 100.0 * cg_value_to_double ((k), (v)) / total : 0.0)

  g_autoptr (GString) s = g_string_new (NULL);
  g_autoptr (GString) label = g_string_new (NULL);
  g_string_append_printf (label, "cgtree: event %s, ", cg_graph_event_name (g, event));
  cg_append_cost_human (label, self_kind, all[event], scale);
  g_string_append_printf (label, " %s in all", unit.unit);
  if (o->threshold > 0 || o->edge_threshold > 0)
    g_string_append_printf (label, "; functions below %g%% and calls below %g%% hidden", o->threshold,
                            o->edge_threshold);
  g_string_append (label, ".\n");
  if (o->scope)
    g_string_append_printf (label, "%s\n", o->scope);
  cg_append_method_note (label, g, costs, event);
  /* what a reader of the times must know (libamon's cost taken out) */
  g_autoptr (GString) notes = g_string_new (NULL);
  if (o->diff)
    cg_append_source_notes (notes, cg_diff_base (o->diff));
  cg_append_source_notes (notes, p);
  if (o->diff)
    cg_append_diff_overlap_notes (notes, o->diff);
  else
    cg_append_overlap_note (notes, "Note: ", g, costs, event);
  if (notes->len > 0)
    {
      g_string_truncate (notes, notes->len - 1);
      g_string_append_printf (label, "\n%s", notes->str);
    }
  /* brief: no label, but never times without what was taken out */
  if (o->brief)
    g_string_assign (label, notes->str);
  if (o->diff)
    g_string_append_printf (label, "\nColours and the last numbers: the change since the base in %s (red slower,"
                                   " blue faster)%s", unit.unit,
                            !cg_diff_is_exact (o->diff)
                              ? "; \"~\" before a change: a difference of estimates, in either profile"
                            : cg_append_diff_overlap_notes (NULL, o->diff) ? "" /* the notes say why not */
                                                                          : ", exact");
  g_autofree char *events = o->diff ? cg_diff_events_note (o->diff, unit.unit) : NULL;
  if (events)
    g_string_append_printf (label, "; %s", events);
  g_string_append (s, "digraph cgtree {\n  graph [");
  if (label->len > 0)
    {
      g_string_append (s, "label=\"");
      append_escaped (s, label->str);
      g_string_append (s, "\", labelloc=t, ");
    }
  g_string_append (s, "fontname=\"Helvetica\", fontsize=12, ranksep=0.3, nodesep=0.2];\n"
                      "  node [shape=box, style=filled, fontname=\"Helvetica\", fontsize=10];\n"
                      "  edge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.6];\n");
  fwrite (s->str, 1, s->len, stream);

  /* the difference's reals are in the event's unit (seconds), the labels
   * in the unit shown (ms for a profile of under a second) */
  gdouble event_scale = cg_graph_event_scale (g, event);
  gdouble factor = event_scale > 0 ? scale / event_scale : 1.0;
  gdouble largest = 0;
  for (CgFunctionId f = 0; o->diff && f < nf; f++)
    largest = MAX (largest, fabs (function_change (o->diff, f)));
  /* boxes above the node threshold; arrows between them above the edge
   * threshold; then the boxes no arrow touches go, roots aside */
  g_autofree guint8 *shown = g_new0 (guint8, MAX (nf, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    shown[f] = cg_display_tree_master (tree, f) != CG_NO_ID
               && PCT (kind, cg_costs_total_const (costs, f)[event]) >= o->threshold;
  guint na = cg_graph_n_arcs (g);
  g_autofree guint8 *drawn = g_new0 (guint8, MAX (na, 1));
  g_autofree guint8 *touched = g_new0 (guint8, MAX (nf, 1));
  for (CgArcId a = 0; a < na; a++)
    {
      CgFunctionId from = cg_graph_arc_caller (g, a), to = cg_graph_arc_callee (g, a);
      if (!shown[from] || !shown[to])
        continue;
      if (from == to)
        drawn[a] = cg_graph_arc_calls (g, a) > 0;
      else if (PCT (kind, cg_costs_arc_const (costs, a)[event]) >= o->edge_threshold)
        drawn[a] = touched[from] = touched[to] = 1;
    }
  for (CgFunctionId f = 0; f < nf; f++)
    {
      if (!shown[f])
        continue;
      CgNodeId m = cg_display_tree_master (tree, f);
      gboolean root = cg_display_tree_parent (tree, m) == CG_NO_ID;
      if (!touched[f] && !root)
        {
          shown[f] = 0;
          continue;
        }
      gdouble pct = PCT (kind, cg_costs_total_const (costs, f)[event]);
      g_string_truncate (label, 0);
      g_string_truncate (s, 0);
      cg_names_append_label (names, s, f);
      wrap_label (label, s->str);
      guint k = cycles ? cg_cycles_cycle_of (cycles, f) : 0;
      if (k)
        g_string_append_printf (label, " <cycle %u>", k);
      g_string_append_printf (label, "\n%s%.2f%%\n(%.2f%%)", cg_costs_total_is_estimated (costs, f) ? "~" : "", pct,
                              PCT (self_kind, cg_graph_self_const (g, f)[event]));
      guint64 calls = cg_graph_calls_received (g, f);
      if (calls)
        {
          g_string_append_c (label, '\n');
          cg_value_append_human (label, CG_KIND_INTEGER, (CgValue) { .n = calls }, 0);
          g_string_append (label, "×");
        }
      int sign = 0;
      if (o->diff)
        {
          const CgDiffFunction *r = cg_diff_of_new (o->diff, f);
          sign = append_change (label, o->diff, r->base_total, r->new_total, factor, r->estimated);
        }
      g_string_truncate (s, 0);
      g_string_append_printf (s, "  f%u [label=\"", f);
      append_escaped (s, label->str);
      g_string_append (s, "\", ");
      if (o->diff)
        {
          append_change_color (s, "fillcolor", largest > 0 && sign != 0 ? function_change (o->diff, f) / largest : 0);
          g_string_append (s, ", fontcolor=\"#000000\"];\n");
          fwrite (s->str, 1, s->len, stream);
          continue;
        }
      append_color (s, "fillcolor", pct);
      /* dark text on light colours, by the colour's luma */
      guint8 rgb[3];
      heat_color (pct, rgb);
      gdouble luma = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
      g_string_append_printf (s, ", fontcolor=\"%s\"];\n", luma < 140 ? "#ffffff" : "#000000");
      fwrite (s->str, 1, s->len, stream);
    }

  for (CgArcId a = 0; a < na; a++)
    {
      CgFunctionId from = cg_graph_arc_caller (g, a), to = cg_graph_arc_callee (g, a);
      if (!drawn[a] || !shown[from] || !shown[to])
        continue;
      guint64 calls = cg_graph_arc_calls (g, a);
      g_string_truncate (s, 0);
      if (from == to)
        {
          /* recursion carries no cost of its own: the loop shows the count */
          if (calls)
            g_string_append_printf (s, "  f%u -> f%u [label=\"%" G_GUINT64_FORMAT "×\", color=\"#808080\"];\n",
                                    from, to, calls);
          fwrite (s->str, 1, s->len, stream);
          continue;
        }
      CgValue v = cg_costs_arc_const (costs, a)[event];
      gdouble pct = PCT (kind, v);
      g_string_truncate (label, 0);
      g_string_append_printf (label, "%s%.2f%%\n", cg_costs_arc_is_estimated (costs, a) ? "~" : "", pct);
      cg_append_cost_human (label, kind, v, scale);
      if (calls)
        {
          g_string_append_c (label, '\n');
          cg_value_append_human (label, CG_KIND_INTEGER, (CgValue) { .n = calls }, 0);
          g_string_append (label, "×");
        }
      CgValue base;
      gdouble ratio = 0;
      if (o->diff)
        {
          gboolean had = cg_diff_base_arc (o->diff, a, &base);
          CgValue now = cg_diff_kind (o->diff) == CG_KIND_REAL
                          ? (CgValue) { .x = cg_value_to_double (kind, v) * event_scale }
                          : v;
          if (!had)
            base = CG_VALUE_ZERO;
          gdouble change = cg_diff_change (o->diff, base, now);
          if (append_change (label, o->diff, base, now, factor,
                             cg_costs_arc_is_estimated (costs, a) || cg_diff_base_arc_is_estimated (o->diff, a))
              != 0)
            ratio = largest > 0 ? change / largest : 0;
        }
      g_string_append_printf (s, "  f%u -> f%u [label=\"", from, to);
      append_escaped (s, label->str);
      g_string_append (s, "\", ");
      if (o->diff)
        {
          append_edge_change_color (s, ratio);
          g_string_append (s, ", fontcolor=\"#000000\"");
        }
      else
        {
          append_color (s, "color", pct);
          g_string_append (s, ", ");
          append_label_color (s, pct);
        }
      g_string_append_printf (s, ", penwidth=%.2f];\n", 1.0 + 3.0 * sqrt (CLAMP (pct, 0.0, 100.0) / 100.0));
      fwrite (s->str, 1, s->len, stream);
    }
#undef PCT
  fputs ("}\n", stream);
  return TRUE;
}
