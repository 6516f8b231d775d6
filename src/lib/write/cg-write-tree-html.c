/* cg-write-tree-html.c — the page around one JSON document. */
#include "config.h"

#include "cg-write-tree-html.h"

#include <string.h>

#include "cg-html-assets.h"
#include "cg-text.h"

/* Appends @text with the characters HTML gives a meaning escaped (GLib's
 * markup escaping serves HTML too). */
static void
append_html (GString *s, const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);
  g_string_append (s, escaped);
}

/* Appends @text as a JSON string.  '<', '>' and '&' are escaped too, so
 * the document can never end its <script> element early. */
static void
append_json_string (GString *s, const char *text)
{
  g_string_append_c (s, '"');
  for (const unsigned char *p = (const unsigned char *) text; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (s, "\\%c", *p);
      else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
        g_string_append_printf (s, "\\u%04x", *p);
      else
        g_string_append_c (s, (char) *p);
    }
  g_string_append_c (s, '"');
}

/* What the call of line @n carried in the base (*@b; FALSE where the
 * base has no such call): the same arc (matched by cg-diff.h), a root's
 * total, as in the text tree's change column. */
static gboolean
line_base (const CgTreeView *v, const CgDiff *d, CgNodeId n, CgValue *b)
{
  const CgDisplayTree *t = cg_tree_view_tree (v);
  CgArcId a = cg_display_tree_arc (t, n);
  *b = CG_VALUE_ZERO;
  if (a != CG_NO_ID)
    return cg_diff_base_arc (d, a, b);
  const CgDiffFunction *f = cg_diff_of_new (d, cg_display_tree_function (t, n));
  *b = f->base_total;
  return f->presence == CG_DIFF_BOTH;
}

/* Appends the base's value of each line (line_base), in the new
 * profile's stored units as the lines' values are (null where the base
 * has no such call), whether they need fractions and whether they are
 * exact: ',"base":[...],"baseReal":B,"baseExact":B'; where both profiles
 * were sampled, ',"noise":[...]', 1 for a line whose change lies within
 * the sampling noise (cg_diff_within_noise), as the text marks it "?".
 * @kind: the lines' values'. */
static void
append_base (GString *s, FILE *stream, const CgTreeView *v, const CgDiff *d, guint event, CgKind kind)
{
  CgGraph *g = cg_tree_view_graph (v);
  gdouble scale = cg_graph_event_scale (g, event);
  guint n_lines = cg_tree_view_n_lines (v);
  g_string_append (s, ",\n\"base\":[");
  for (guint i = 0; i < n_lines; i++)
    {
      CgValue b;
      gboolean has = line_base (v, d, cg_tree_view_line (v, i)->node, &b);
      if (i)
        g_string_append_c (s, ',');
      if (!has)
        g_string_append (s, "null");
      else if (cg_diff_kind (d) == CG_KIND_INTEGER)
        cg_value_append (s, CG_KIND_INTEGER, b);
      else /* reals are in the event's unit: back to stored units */
        cg_value_append (s, CG_KIND_REAL, (CgValue) { .x = scale > 0 ? b.x / scale : b.x });
      cg_flush_if_large (s, stream);
    }
  g_string_append_printf (s, "],\"baseReal\":%s,\"baseExact\":%s", cg_diff_kind (d) == CG_KIND_REAL ? "true" : "false",
                          cg_diff_is_exact (d) ? "true" : "false");
  if (!cg_diff_sampled (d))
    return;
  g_string_append (s, ",\n\"noise\":[");
  for (guint i = 0; i < n_lines; i++)
    {
      CgNodeId n = cg_tree_view_line (v, i)->node;
      CgValue b, now = cg_tree_view_value (v, n);
      if (cg_diff_kind (d) == CG_KIND_REAL)
        now = (CgValue) { .x = cg_value_to_double (kind, now) * scale };
      gboolean noise = line_base (v, d, n, &b) && cg_diff_within_noise (d, b, now);
      g_string_append (s, i ? (noise ? ",1" : ",0") : (noise ? "1" : "0"));
      if (i % 64 == 63)
        g_string_append_c (s, '\n');
      cg_flush_if_large (s, stream);
    }
  g_string_append_c (s, ']');
}

/* Appends the JSON document of @v's lines (the page's script reads it,
 * see cgtree.js): event, unit and scale as shown, the functions' names,
 * self costs, master lines, cycles and their calls of themselves, the
 * estimated lines, the totals in all and which of them are estimated,
 * and the lines as quadruples. */
static void
append_data (GString *s, FILE *stream, const CgTreeView *v, const CgTreeHtmlOptions *o)
{
  CgGraph *g = cg_tree_view_graph (v);
  const CgCosts *costs = cg_tree_view_costs (v);
  const CgDisplayTree *t = cg_tree_view_tree (v);
  CgCycles *cycles = cg_tree_view_cycles (v);
  guint event = o->view.event, n_lines = cg_tree_view_n_lines (v);
  CgKind kind = cg_costs_kind (costs, event), self_kind = cg_graph_event_kind (g, event);
  gdouble scale = cg_graph_event_scale (g, event);
  gboolean inverted = cg_display_tree_is_inverted (t);
  /* times in s, ms, µs or ns: the page shows values × scale in unit */
  CgDisplayUnit unit = cg_display_unit (cg_graph_event_unit (g, event),
                                        cg_value_to_double (self_kind, cg_tree_view_all (v)) * scale);
  gboolean rescaled = unit.factor != 1.0;
  scale *= unit.factor;
  g_autofree guint32 *dense = NULL, *master = NULL;
  g_autofree CgFunctionId *functions = NULL;
  guint n_shown = cg_tree_view_shown_functions (v, &dense, &functions, &master);
  g_autoptr (GString) text = g_string_new (NULL);
  g_string_append_c (s, '{');
  g_string_append (s, "\"event\":");
  append_json_string (s, cg_graph_event_name (g, event));
  g_string_append (s, ",\"unit\":");
  append_json_string (s, unit.unit);
  g_string_append (s, ",\"scale\":");
  cg_value_append (s, CG_KIND_REAL, (CgValue) { .x = scale });
  CgValue unused_value;
  gboolean unused_estimated;
  gboolean given = n_lines > 0
                   && cg_display_tree_given_value (t, cg_tree_view_line (v, 0)->node, &unused_value, &unused_estimated);
  g_string_append_printf (s, ",\"real\":%s,\"realSelf\":%s,\"inverted\":%s,\"given\":%s,\"all\":",
                          kind == CG_KIND_REAL || scale != 1.0 || rescaled ? "true" : "false",
                          self_kind == CG_KIND_REAL || scale != 1.0 || rescaled ? "true" : "false", inverted ? "true" : "false",
                          given ? "true" : "false");
  cg_value_append (s, self_kind, cg_tree_view_all (v));
  g_string_append (s, ",\"threshold\":");
  cg_value_append (s, CG_KIND_REAL, (CgValue) { .x = o->view.threshold });
  g_string_append (s, ",\"slider\":");
  cg_value_append (s, CG_KIND_REAL, (CgValue) { .x = MAX (o->slider, o->view.threshold) });
  g_string_append (s, ",\n\"names\":[");
  for (guint i = 0; i < n_shown; i++)
    {
      g_string_truncate (text, 0);
      cg_names_append_label (cg_tree_view_names (v), text, functions[i]);
      if (i)
        g_string_append_c (s, ',');
      append_json_string (s, text->str);
      cg_flush_if_large (s, stream);
    }
  g_string_append (s, "],\n\"self\":[");
  for (guint i = 0; i < n_shown; i++)
    {
      if (i)
        g_string_append_c (s, ',');
      cg_value_append (s, self_kind, cg_graph_self_const (g, functions[i])[event]);
      cg_flush_if_large (s, stream);
    }
  g_string_append (s, "],\n\"master\":[");
  for (guint i = 0; i < n_shown; i++)
    {
      /* -1: the master node is not on the page */
      g_string_append_printf (s, i ? ",%" G_GINT64_FORMAT : "%" G_GINT64_FORMAT,
                              master[i] == G_MAXUINT32 ? (gint64) -1 : (gint64) master[i]);
      cg_flush_if_large (s, stream);
    }
  g_string_append (s, "],\n\"cycle\":[");
  for (guint i = 0; i < n_shown; i++)
    {
      guint k = cycles ? cg_cycles_cycle_of (cycles, functions[i]) : 0;
      g_string_append_printf (s, i ? ",%u" : "%u", k);
      cg_flush_if_large (s, stream);
    }
  g_string_append (s, "],\n\"estimated\":[");
  gboolean first = TRUE;
  for (guint i = 0; i < n_lines; i++)
    if (cg_tree_view_estimated (v, cg_tree_view_line (v, i)->node))
      {
        g_string_append_printf (s, first ? "%u" : ",%u", i);
        first = FALSE;
        cg_flush_if_large (s, stream);
      }
  /* lines, then totals, of the master nodes whose function costs more in
   * all than through their call: the page shows the total beside, as
   * the text does (cgtree.js inAllText) */
  g_string_append (s, "],\n\"inAll\":[");
  first = TRUE;
  for (guint i = 0; i < n_lines; i++)
    if (cg_tree_view_shows_total (v, cg_tree_view_line (v, i)->node))
      {
        g_string_append_printf (s, first ? "%u," : ",%u,", i);
        cg_value_append (s, kind, cg_tree_view_function_total (v, cg_tree_view_line (v, i)->node));
        first = FALSE;
        cg_flush_if_large (s, stream);
      }
  /* the lines among those whose function's total is estimated: "~" */
  g_string_append (s, "],\n\"inAllEstimated\":[");
  first = TRUE;
  for (guint i = 0; i < n_lines; i++)
    {
      CgNodeId node = cg_tree_view_line (v, i)->node;
      if (cg_tree_view_shows_total (v, node)
          && cg_costs_total_is_estimated (costs, cg_display_tree_function (t, node)))
        {
          g_string_append_printf (s, first ? "%u" : ",%u", i);
          first = FALSE;
          cg_flush_if_large (s, stream);
        }
    }
  g_string_append (s, "],\n\"nodes\":[");
  for (guint i = 0; i < n_lines; i++)
    {
      const CgTreeLine *line = cg_tree_view_line (v, i);
      CgArcId a = cg_display_tree_arc (t, line->node);
      g_string_append_printf (s, i ? ",%u," : "%u,", dense[cg_display_tree_function (t, line->node)]);
      cg_value_append (s, kind, cg_tree_view_value (v, line->node));
      g_string_append_printf (s, ",%" G_GUINT64_FORMAT ",%u", a == CG_NO_ID ? 0 : cg_graph_arc_calls (g, a),
                              line->n_children);
      if (i % 16 == 15)
        g_string_append_c (s, '\n');
      cg_flush_if_large (s, stream);
    }
  /* per function, its calls of itself: a master line's calls read N+M */
  g_string_append (s, "],\n\"selfCalls\":[");
  for (guint i = 0; i < n_shown; i++)
    {
      CgArcId self = cg_graph_lookup_arc (g, functions[i], functions[i]);
      g_string_append_printf (s, i ? ",%" G_GUINT64_FORMAT : "%" G_GUINT64_FORMAT,
                              self == CG_NO_ID ? 0 : cg_graph_arc_calls (g, self));
      cg_flush_if_large (s, stream);
    }
  g_string_append_c (s, ']');
  if (o->diff)
    append_base (s, stream, v, o->diff, event, kind);
  g_string_append_printf (s, ",\"noFold\":%s}", o->no_fold ? "true" : "false");
}

gboolean
cg_write_tree_html (CgProfile *p, const CgCosts *costs, const CgDisplayTree *t, const CgTreeHtmlOptions *o,
                    FILE *stream, GError **error)
{
  g_autoptr (CgTreeView) v = cg_tree_view_new (p, costs, t, &o->view, error);
  if (v == NULL)
    return FALSE;
  /* the other direction, for the page's toggle: callers of a display
   * tree, callees of a callers tree */
  g_autoptr (CgTreeView) other = NULL;
  if (o->other)
    {
      CgTreeViewOptions view = o->view;
      view.threshold = o->other_threshold;
      other = cg_tree_view_new (p, costs, o->other, &view, error);
      if (other == NULL)
        return FALSE;
    }
  CgGraph *g = cg_profile_graph (p);
  guint event = o->view.event;
  CgKind self_kind = cg_graph_event_kind (g, event);
  gboolean inverted = cg_display_tree_is_inverted (t);
  CgDisplayUnit unit = cg_display_unit (cg_graph_event_unit (g, event),
                                        cg_value_to_double (self_kind, cg_tree_view_all (v))
                                          * cg_graph_event_scale (g, event));
  gdouble scale = cg_graph_event_scale (g, event) * unit.factor;

  g_autoptr (GString) s = g_string_new (NULL);
  g_autoptr (GString) text = g_string_new (NULL);
  const char *title = cg_profile_title (p);
  g_string_append (s, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>cgtree: ");
  append_html (s, title);
  g_string_append (s, "</title>\n<style>\n");
  g_string_append (s, cg_html_css);
  g_string_append (s, "</style>\n</head>\n<body>\n<header>\n<h1>");
  g_string_append (s, inverted ? "Callers tree" : "Display tree");
  g_string_append (s, " <span>");
  append_html (s, title);
  g_string_append (s, "</span></h1>\n<p class=\"note\">");
  g_string_printf (text, "Event %s: ", cg_graph_event_name (g, event));
  cg_append_cost_human (text, self_kind, cg_tree_view_all (v), scale);
  g_string_append_printf (text, " %s in all.  ", unit.unit);
  cg_append_method_note (text, g, costs, event);
  g_string_append (text, ".");
  append_html (s, text->str);
  if (o->scope)
    {
      g_string_append (s, "<br>");
      append_html (s, o->scope);
    }
  /* what a reader of the times must know (libamon's cost taken out) */
  for (int side = 0; side < 2; side++)
    {
      if (side == 0 && !o->diff)
        continue;
      g_autoptr (GPtrArray) notes = cg_source_notes (side == 0 ? cg_diff_base (o->diff) : p);
      for (guint i = 0; i < notes->len; i++)
        {
          g_string_append (s, "<br>");
          append_html (s, g_ptr_array_index (notes, i));
        }
    }
  for (int side = 0; side < 2; side++)
    {
      CgProfile *q = side == 0 ? (o->diff ? cg_diff_base (o->diff) : NULL) : p;
      const CgCosts *c = side == 0 ? (q ? cg_profile_costs (q) : NULL) : costs;
      g_autofree char *overlap = c ? cg_overlap_note (cg_profile_graph (q), c, side == 0 ? cg_diff_base_event (o->diff)
                                                                                      : event)
                                   : NULL;
      if (overlap == NULL)
        continue;
      g_string_append (s, side == 0 ? "<br>Note (base): " : o->diff ? "<br>Note (new): " : "<br>Note: ");
      append_html (s, overlap);
    }
  if (!o->brief)
    g_string_append (s, "<br>");
  if (!o->brief)
    append_html (s, inverted ? "Callers tree: the functions with the most self cost first; under each, its callers,"
                             " each line with the part of the root's self cost that came through it (~: estimated"
                             " in proportion to the calls' costs, where the profile has no call tree); calls of"
                             " the arc."
                           : "Each line: the cost the calls from the parent line carried (a root: its total),"
                             " the function's self cost, calls.  A function's callees are listed once, under the"
                             " call that carries most of it, with its total (\"in all\") where that is more than"
                             " the call's; its other lines link there.");
  if (o->diff)
    {
      g_string_append (s, "<br>");
      g_string_truncate (text, 0);
      g_string_append (text, "Change: the line's incl less what the same call carried in the base (a root: its total"
                             " less the base's), slower red, faster blue, \"new\" where the base has no such call; ");
      g_string_append (text, cg_diff_is_exact (o->diff) && !cg_append_diff_overlap_notes (NULL, o->diff)
                                ? "exact, as both profiles' totals are"
                                                        : "a difference of estimates where a line is marked ~");
      if (cg_diff_base_factor (o->diff) != 1.0)
        g_string_append_printf (text, "; the base scaled by %.6g to the new total (--normalize)",
                                cg_diff_base_factor (o->diff));
      g_autofree char *events = cg_diff_events_note (o->diff, unit.unit);
      if (events)
        g_string_append_printf (text, "; %s", events);
      g_string_append (text, ".  Callees are placed as the new profile places them.");
      append_html (s, text->str);
    }
  g_string_append (s, "</p>\n<div class=\"controls\">\n"
                      "<label>Search <input id=\"q\" type=\"search\" placeholder=\"function name (press /)\""
                      " autocomplete=\"off\" spellcheck=\"false\"></label>\n"
                      "<button id=\"prev\" type=\"button\" title=\"previous match (N)\">&#x2191;</button>"
                      "<button id=\"next\" type=\"button\" title=\"next match (n, Enter)\">&#x2193;</button>"
                      "<span id=\"hits\"></span>\n"
                      "<label>Threshold <input id=\"th\" type=\"range\" min=\"0\" max=\"100\" step=\"1\">"
                      " <output id=\"thv\" for=\"th\"></output></label>\n"
                      "<button id=\"collapse\" type=\"button\">Collapse all</button>\n"
                      "<button id=\"dir\" type=\"button\" title=\"the tree of the other direction\">"
                      "Show callers</button>\n"
                      "</div>\n<div class=\"cols row\" aria-hidden=\"true\">"
                      "<span class=\"num pct\">incl%</span><span class=\"num self\">self%</span>"
                      "<span class=\"num abs\">incl ");
  append_html (s, unit.unit);
  g_string_append (s, "</span><span class=\"num absself\">self ");
  append_html (s, unit.unit);
  g_string_append (s, "</span><span class=\"num calls\">calls</span>");
  if (o->diff)
    {
      g_string_append (s, "<span class=\"num chg\">change ");
      append_html (s, unit.unit);
      g_string_append (s, "</span>");
    }
  g_string_append (s, "<span class=\"bar\"></span>"
                      "<span class=\"tree\">function</span>");
  g_string_append (s, "</div>\n</header>\n<div id=\"tree\" role=\"tree\" tabindex=\"0\" aria-label=\"");
  g_string_append (s, inverted ? "callers tree" : "call tree");
  g_string_append (s, "\"></div>\n");
  if (!o->brief)
    g_string_append (s, "<p id=\"help\">Keys: &#x2191; &#x2193; move, &#x2192; expand, &#x2190; collapse,"
                        " * expand the children, Enter follow a link, Backspace back, / search,"
                        " n N next and previous match.</p>\n");
  g_string_append (s, "<pre id=\"selftest\"></pre>\n"
                      "<script id=\"cg-data\" type=\"application/json\">");

  append_data (s, stream, v, o);
  if (other)
    {
      g_string_append (s, "</script>\n<script id=\"cg-other\" type=\"application/json\">");
      CgTreeHtmlOptions other_options = *o;
      other_options.view.threshold = o->other_threshold;
      other_options.diff = NULL; /* a callers line is a share of a root's self cost, not a call's */
      append_data (s, stream, other, &other_options);
    }
  g_string_append (s, "</script>\n<script>\n");
  g_string_append (s, cg_html_js);
  g_string_append (s, "</script>\n</body>\n</html>\n");
  fwrite (s->str, 1, s->len, stream);
  return TRUE;
}
