/* cg-write-tree-svg.c — a flame graph of the view's lines: a layout pass
 * over the lines in depth-first order with a stack of open parents, then
 * one <g> per line (on one line of the file: tests and greps read it so). */
#include "config.h"

#include "cg-write-tree-svg.h"

#include <math.h>

#include "cg-cut-name.h"
#include "cg-html-assets.h"
#include "cg-text.h"

#define DEFAULT_WIDTH 1200
#define MIN_WIDTH 200
#define ROW 16         /* pixels per level; boxes are a pixel less, so levels part */
#define MARGIN 10      /* left and right */
#define FONT 12        /* px, monospace: the labels' widths are known */
#define CHAR_WIDTH 7.3 /* px of a monospace character at FONT (DejaVu Sans Mono: 7.22) */
#define HEADER_LINE 15 /* px between the lines of the header and legend */

typedef struct {
  gdouble x, w;    /* px, from the left edge of the drawing area */
  gdouble scale;   /* < 1 where the box is drawn narrower than its share */
  gdouble kids;    /* the shown children's summed percentages */
  guint level;     /* 0 is "all"; a line's is its depth + 1 */
} Box;

/* Appends @text as XML character data or attribute value: made valid
 * UTF-8 first (a name is bytes), '<', '>', '&', '"' and '\'' escaped, and
 * what XML 1.0 forbids even escaped (control characters, U+FFFE, U+FFFF)
 * replaced by U+FFFD. */
static void
append_xml (GString *s, const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  for (const char *p = valid; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      switch (c)
        {
        case '<': g_string_append (s, "&lt;"); break;
        case '>': g_string_append (s, "&gt;"); break;
        case '&': g_string_append (s, "&amp;"); break;
        case '"': g_string_append (s, "&quot;"); break;
        case '\'': g_string_append (s, "&apos;"); break;
        default:
          if (c < 0x20 || c == 0xfffe || c == 0xffff)
            g_string_append_unichar (s, 0xfffd);
          else
            g_string_append_len (s, p, g_utf8_next_char (p) - p);
        }
    }
}

/* FNV-1a: a hash that is the same on every run and machine, so a
 * function keeps its colour between two graphs. */
static guint32
name_hash (const char *name)
{
  guint32 h = 2166136261u;
  for (const unsigned char *p = (const unsigned char *) name; *p; p++)
    h = (h ^ *p) * 16777619u;
  return h;
}

/* The fill of a box: warm (red to yellow) for a function, purple for a
 * member of a cycle, each keyed on the name; a link's the same, paler. */
static void
append_fill (GString *s, const char *name, gboolean cycle, gboolean link)
{
  guint32 h = name_hash (name);
  gdouble a = (h & 0xffff) / 65535.0, b = (h >> 16) / 65535.0;
  int r, g, bl;
  if (cycle)
    r = 175 + (int) (45 * a), g = 95 + (int) (50 * b), bl = 200 + (int) (40 * a);
  else
    r = 205 + (int) (50 * b), g = (int) (200 * a), bl = (int) (50 * b);
  if (link) /* halfway to white */
    r = (r + 255) / 2, g = (g + 255) / 2, bl = (bl + 255) / 2;
  g_string_append_printf (s, "rgb(%d,%d,%d)", r, g, bl);
}

/* Appends @text wrapped at blanks into lines of at most @cols characters
 * as <text> elements from *@y down, advancing it. */
static void
append_wrapped (GString *s, const char *text, guint cols, gdouble *y, const char *klass)
{
  g_auto (GStrv) words = g_strsplit (text, " ", -1);
  g_autoptr (GString) line = g_string_new (NULL);
  for (guint i = 0;; i++)
    {
      gboolean end = words[i] == NULL;
      if (!end && *words[i] == '\0')
        continue;
      if (end || (line->len && g_utf8_strlen (line->str, -1) + 1 + g_utf8_strlen (words[i], -1) > cols))
        {
          if (line->len)
            {
              g_string_append_printf (s, "<text x=\"%d\" y=\"%.0f\" class=\"%s\">", MARGIN, *y, klass);
              append_xml (s, line->str);
              g_string_append (s, "</text>\n");
              *y += HEADER_LINE;
            }
          g_string_truncate (line, 0);
          if (end)
            break;
        }
      if (line->len)
        g_string_append_c (line, ' ');
      g_string_append (line, words[i]);
    }
}

/* Lays the lines out: per line its box; the largest level in *@levels.
 * A line's children, where their shares sum to more than the line's,
 * are scaled into its width by one factor (and their subtrees by it
 * too); the number of lines so drawn in *@n_scaled. */
static Box *
layout (const CgTreeView *v, gdouble width, guint *levels, guint *n_scaled)
{
  guint n = cg_tree_view_n_lines (v);
  Box *boxes = g_new0 (Box, (gsize) n + 1); /* the last: "all" */
  Box *all = &boxes[n];
  *all = (Box) { 0, width, 1.0, 0, 0 };
  *levels = 0;
  *n_scaled = 0;
  /* stack[d]: the open line at depth d - 1, stack[0] "all" */
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (stack, n);
  /* first the children's sums */
  for (guint i = 0; i < n; i++)
    {
      const CgTreeLine *line = cg_tree_view_line (v, i);
      g_array_set_size (stack, line->depth + 1);
      boxes[g_array_index (stack, guint, line->depth)].kids += cg_tree_view_node_percent (v, line->node);
      g_array_append_val (stack, i);
    }
  /* then the places: cursor[d], the next free x on the box at depth d */
  g_autoptr (GArray) cursor = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_array_set_size (stack, 1);
  g_array_append_val (cursor, all->x);
  for (guint i = 0; i < n; i++)
    {
      const CgTreeLine *line = cg_tree_view_line (v, i);
      g_array_set_size (stack, line->depth + 1);
      g_array_set_size (cursor, line->depth + 1);
      guint up = g_array_index (stack, guint, line->depth);
      const Box *parent = &boxes[up];
      gdouble parent_pct = up == n ? 100.0 : cg_tree_view_node_percent (v, cg_tree_view_line (v, up)->node);
      gdouble fit = parent->kids > parent_pct && parent->kids > 0 ? parent_pct / parent->kids : 1.0;
      Box *b = &boxes[i];
      b->scale = parent->scale * fit;
      b->w = cg_tree_view_node_percent (v, line->node) / 100.0 * width * b->scale;
      b->x = g_array_index (cursor, gdouble, line->depth);
      b->level = line->depth + 1;
      g_array_index (cursor, gdouble, line->depth) += b->w;
      if (b->scale < 1.0)
        (*n_scaled)++;
      *levels = MAX (*levels, b->level);
      g_array_append_val (stack, i);
      g_array_append_val (cursor, b->x);
    }
  return boxes;
}

typedef struct {
  const CgTreeView *view;
  CgGraph *graph;
  const CgDisplayTree *tree;
  CgCycles *cycles;
  guint event;
  CgKind kind, self_kind;
  gdouble scale; /* stored value × scale = the shown unit */
  const char *unit;
  GString *text; /* scratch */
} Writer;

/* "12.34% (1,234 Ir)" */
static void
append_share (Writer *w, GString *out, CgKind kind, CgValue value)
{
  g_string_append_printf (out, "%.2f%% (", cg_tree_view_percent (w->view, kind, value));
  cg_append_cost_human (out, kind, value, w->scale);
  g_string_append_printf (out, " %s)", w->unit);
}

/* The tooltip of line @i (plain text, lines parted by '\n'), whose
 * function's label is @label; @recursion: a link to a function open
 * below it. */
static void
tooltip (Writer *w, GString *out, guint i, const char *label, const Box *box, gboolean recursion)
{
  const CgTreeView *v = w->view;
  CgNodeId n = cg_tree_view_line (v, i)->node;
  CgFunctionId f = cg_display_tree_function (w->tree, n);
  gboolean master = cg_display_tree_is_master (w->tree, n);
  /* the label alone on the first line: the script reads it */
  g_string_append (out, label);
  guint cycle = w->cycles ? cg_cycles_cycle_of (w->cycles, f) : 0;
  guint number = cg_tree_view_link_number (v, f);
  if (cycle || number)
    g_string_append_c (out, '\n');
  if (cycle)
    g_string_append_printf (out, "<cycle %u>%s", cycle, number ? " " : "");
  if (number)
    g_string_append_printf (out, master ? "[%u]" : "-> [%u]", number);
  g_string_append (out, "\nincl: ");
  if (cg_tree_view_estimated (v, n))
    g_string_append_c (out, '~');
  append_share (w, out, w->kind, cg_tree_view_value (v, n));
  if (cg_tree_view_shows_total (v, n))
    {
      g_string_append_printf (out, "; in all: %s",
                              cg_costs_total_is_estimated (cg_tree_view_costs (v), f) ? "~" : "");
      append_share (w, out, w->kind, cg_tree_view_function_total (v, n));
    }
  if (cg_display_tree_shows_self (w->tree, n))
    {
      g_string_append (out, "\nself: ");
      append_share (w, out, w->self_kind, cg_graph_self_const (w->graph, f)[w->event]);
    }
  CgArcId a = cg_display_tree_arc (w->tree, n);
  if (a != CG_NO_ID && cg_tree_view_has_calls (v))
    {
      g_string_append_printf (out, "\ncalls: %" G_GUINT64_FORMAT, cg_graph_arc_calls (w->graph, a));
      CgArcId self = cg_graph_lookup_arc (w->graph, f, f);
      if (master && !cg_display_tree_is_inverted (w->tree) && self != CG_NO_ID && cg_graph_arc_calls (w->graph, self))
        g_string_append_printf (out, "+%" G_GUINT64_FORMAT, cg_graph_arc_calls (w->graph, self));
    }
  if (!master)
    g_string_append (out, cg_display_tree_is_inverted (w->tree)
                            ? "\na link: its callers are drawn on its box marked with its number"
                            : "\na link: its callees are drawn on its box marked with its number");
  if (recursion)
    g_string_append (out, " (recursion: its cost is in the boxes below)");
  if (box->scale < 1.0)
    g_string_append_printf (out, "\ndrawn at %.4f%% of its share, to fit on the box below it: a function's callees"
                                 " are its whole calls, which may carry more than the call its box stands for",
                            100.0 * box->scale);
}

/* One line's box: <g><title/><rect/><text/></g> on one line of the file. */
static void
append_box (Writer *w, GString *s, guint i, const Box *b, gdouble y, gboolean recursion)
{
  const CgTreeView *v = w->view;
  CgNodeId n = cg_tree_view_line (v, i)->node;
  CgFunctionId f = cg_display_tree_function (w->tree, n);
  gboolean link = !cg_display_tree_is_master (w->tree, n);
  gboolean cycle = w->cycles && cg_cycles_cycle_of (w->cycles, f);
  gboolean estimated = cg_tree_view_estimated (v, n);
  g_string_truncate (w->text, 0);
  cg_names_append_label (cg_tree_view_names (v), w->text, f);
  g_autofree char *label = g_strdup (w->text->str);
  g_string_append_printf (s, "<g class=\"f%s%s%s\"><title>", link ? " link" : "", cycle ? " cycle" : "",
                          estimated ? " est" : "");
  g_string_truncate (w->text, 0);
  tooltip (w, w->text, i, label, b, recursion);
  /* the tooltip's lines as character references: one box, one line */
  g_auto (GStrv) parts = g_strsplit (w->text->str, "\n", -1);
  for (guint k = 0; parts[k]; k++)
    {
      if (k)
        g_string_append (s, "&#10;");
      append_xml (s, parts[k]);
    }
  g_string_append_printf (s, "</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" fill=\"", MARGIN + b->x,
                          y, b->w, ROW - 1);
  append_fill (s, label, cycle, link);
  g_string_append (s, "\"/>");
  /* the label: the name cut to the box (cg_cut_name keeps the function's
   * own name longest), "~" before an estimate's */
  glong room = (glong) floor ((b->w - 4) / CHAR_WIDTH) - (estimated ? 1 : 0);
  g_string_append_printf (s, "<text x=\"%.2f\" y=\"%.0f\">", MARGIN + b->x + 3, y + FONT - 1);
  g_autofree char *valid = g_utf8_make_valid (label, -1);
  glong cols = g_utf8_strlen (valid, -1);
  /* a name cut to less than five characters ("…d") says nothing */
  if (room >= cols || room >= 5)
    {
      g_autoptr (GString) cut = g_string_new (estimated ? "~" : "");
      cg_cut_name (cut, valid, (gsize) cols, (gsize) room, "\u2026");
      append_xml (s, cut->str);
    }
  /* empty where no room: the script fills it when it zooms */
  g_string_append (s, "</text></g>\n");
}

/* The legend's swatch and its words, at (*@x, @y), advancing *@x. */
static void
append_key (GString *s, gdouble *x, gdouble y, const char *fill, const char *klass, const char *words)
{
  g_string_append_printf (s, "<rect x=\"%.0f\" y=\"%.0f\" width=\"24\" height=\"11\" fill=\"%s\" class=\"%s\"/>", *x,
                          y - 10, fill, klass);
  g_string_append_printf (s, "<text x=\"%.0f\" y=\"%.0f\" class=\"note\">", *x + 30, y);
  append_xml (s, words);
  g_string_append (s, "</text>\n");
  *x += 30 + CHAR_WIDTH * g_utf8_strlen (words, -1) + 18;
}

/* What "~" means, by where the estimates come from. */
static const char *
estimate_note (const CgCosts *costs, const CgDisplayTree *tree)
{
  if (cg_display_tree_is_given (tree))
    return "~ before a name: its share is estimated, in proportion to the calls' costs (the profile has no call"
           " tree to say which caller ran which part).";
  if (cg_costs_method (costs) == CG_METHOD_MEASURED)
    return "~ before a name: the total of a cycle member, which callgrind measured without its recursion split: a"
           " bound (the calls into it, or its whole cycle's), not exact.";
  return "~ before a name: its incl is an estimate, the callee's time shared out among its callers in proportion"
         " to their calls (gprof's average-time assumption), not measured.";
}

/* The lines above the drawing: title, method, scope, notes, legend. */
/* Their height in *@height. */
static GString *
header (Writer *w, CgProfile *p, const CgCosts *costs, const CgTreeSvgOptions *o, gdouble width, guint n_scaled,
        gboolean any_estimated, gboolean any_link, gboolean any_cycle, gdouble *height)
{
  GString *s = g_string_new (NULL);
  guint cols = (guint) MAX (20.0, (width - 2 * MARGIN) / CHAR_WIDTH);
  gdouble y = 20;
  gboolean inverted = cg_display_tree_is_inverted (w->tree);
  g_autoptr (GString) t = g_string_new (NULL);
  g_string_append_printf (t, "%s of %s: event %s, ", inverted ? "Callers tree" : "Display tree", cg_profile_title (p),
                          cg_graph_event_name (w->graph, w->event));
  cg_append_cost_human (t, w->self_kind, cg_tree_view_all (w->view), w->scale);
  g_string_append_printf (t, " %s in all", w->unit);
  /* a command line may be long: wrapped as the notes, in the title's
   * wider characters (14 px bold for 12 px) */
  append_wrapped (s, t->str, cols * 12 / 14, &y, "title");
  y += 3;
  g_string_truncate (t, 0);
  cg_append_method_note (t, w->graph, costs, w->event);
  g_string_append (t, ".");
  append_wrapped (s, t->str, cols, &y, "note");
  if (o->scope)
    {
      g_auto (GStrv) lines = g_strsplit (o->scope, "\n", -1);
      for (guint i = 0; lines[i]; i++)
        append_wrapped (s, lines[i], cols, &y, "note");
    }
  g_autoptr (GPtrArray) notes = cg_source_notes (p);
  for (guint i = 0; i < notes->len; i++)
    append_wrapped (s, g_ptr_array_index (notes, i), cols, &y, "note");
  g_autofree char *overlap = cg_overlap_note (w->graph, costs, w->event);
  if (overlap)
    {
      g_autofree char *note = g_strconcat ("Note: ", overlap, NULL);
      append_wrapped (s, note, cols, &y, "note");
    }
  g_string_truncate (t, 0);
  g_string_append (t, inverted ? "Root at the bottom: the functions with the most self cost, each box's callers on it."
                               : "Root at the bottom, each box's callees on it.");
  g_string_append (t, "  A box's width: its incl share of the profile (what the calls from the box below carried;"
                      " a root: its total).");
  if (o->view.threshold > 0)
    g_string_append_printf (t, "  Boxes below %g%% are left out.", o->view.threshold);
  append_wrapped (s, t->str, cols, &y, "note");
  if (any_estimated)
    append_wrapped (s, estimate_note (costs, w->tree), cols, &y, "note");
  if (n_scaled)
    {
      g_string_truncate (t, 0);
      g_string_append_printf (t, "%u box%s drawn narrower than %s share: where a function's callees carry more than"
                                 " the call below them (its total exceeds the call's, or estimates overlap), they"
                                 " are scaled into it; the tooltip says by how much.",
                              n_scaled, n_scaled == 1 ? "" : "es", n_scaled == 1 ? "its" : "their");
      append_wrapped (s, t->str, cols, &y, "note");
    }
  /* the keys, on one line */
  y += 4;
  gdouble x = MARGIN;
  append_key (s, &x, y, "rgb(230,120,20)", "key", "a function (colour by name)");
  if (any_link)
    append_key (s, &x, y, "rgb(242,187,137)", "key link",
                inverted ? "a link: its callers are on its box [n]" : "a link: its callees are on its box [n]");
  if (any_cycle)
    append_key (s, &x, y, "rgb(195,120,220)", "key", "a member of a cycle");
  y += HEADER_LINE;
  g_string_append_printf (s, "<text x=\"%d\" y=\"%.0f\" id=\"hint\" class=\"note\"> </text>\n", MARGIN, y);
  *height = y + 6;
  return s;
}

gboolean
cg_write_tree_svg (CgProfile *p, const CgCosts *costs, const CgDisplayTree *t, const CgTreeSvgOptions *o,
                   FILE *stream, GError **error)
{
  g_autoptr (CgTreeView) v = cg_tree_view_new (p, costs, t, &o->view, error);
  if (v == NULL)
    return FALSE;
  CgGraph *g = cg_profile_graph (p);
  guint event = o->view.event;
  g_autoptr (GString) scratch = g_string_new (NULL);
  Writer w = { v, g, t, cg_profile_cycles (p), event, cg_costs_kind (costs, event), cg_graph_event_kind (g, event),
               cg_graph_event_scale (g, event), NULL, scratch };
  CgDisplayUnit unit = cg_display_unit (cg_graph_event_unit (g, event),
                                        cg_value_to_double (w.self_kind, cg_tree_view_all (v)) * w.scale);
  w.scale *= unit.factor;
  w.unit = unit.unit;

  gdouble total_width = MAX (o->width ? o->width : DEFAULT_WIDTH, MIN_WIDTH);
  gdouble width = total_width - 2 * MARGIN;
  guint levels, n_scaled;
  guint n = cg_tree_view_n_lines (v);
  g_autofree Box *boxes = layout (v, width, &levels, &n_scaled);
  gboolean any_estimated = FALSE, any_link = FALSE, any_cycle = FALSE;
  for (guint i = 0; i < n; i++)
    {
      CgNodeId node = cg_tree_view_line (v, i)->node;
      any_estimated |= cg_tree_view_estimated (v, node);
      any_link |= !cg_display_tree_is_master (t, node);
      any_cycle |= w.cycles && cg_cycles_cycle_of (w.cycles, cg_display_tree_function (t, node));
    }
  gdouble top;
  g_autoptr (GString) head
      = header (&w, p, costs, o, total_width, n_scaled, any_estimated, any_link, any_cycle, &top);
  gdouble bottom = top + (levels + 1) * ROW; /* the bottom edge of the "all" box */
  gdouble height = bottom + MARGIN;

  g_autoptr (GString) s = g_string_new (NULL);
  g_string_append_printf (s, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
                             "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\""
                             " height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" onload=\"cgInit(evt)\">\n",
                          total_width, height, total_width, height);
  g_string_append (s, "<style type=\"text/css\"><![CDATA[\n");
  g_string_append (s, cg_html_svg_css);
  g_string_append (s, "]]></style>\n");
  g_string_append (s, "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" class=\"background\"/>\n");
  g_string_append_len (s, head->str, (gssize) head->len);
  g_string_append_printf (s, "<g id=\"frames\" class=\"frames\">\n");
  /* "all", under the roots */
  g_string_truncate (scratch, 0);
  g_string_append_printf (scratch, "all: %s ", cg_graph_event_name (g, event));
  cg_append_cost_human (scratch, w.self_kind, cg_tree_view_all (v), w.scale);
  g_string_append_printf (scratch, " %s, 100%%", w.unit);
  g_string_append (s, "<g class=\"f all\"><title>");
  append_xml (s, scratch->str);
  g_string_append_printf (s, "</title><rect x=\"%d\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" fill=\"rgb(210,210,210)\"/>"
                             "<text x=\"%d\" y=\"%.0f\">all</text></g>\n",
                          MARGIN, bottom - ROW, width, ROW - 1, MARGIN + 3, bottom - ROW + FONT - 1);

  /* the functions open on the path to a line: a link to one of them
   * closes a recursion (as the text view marks it) */
  g_autofree guint32 *open = g_new0 (guint32, MAX (cg_graph_n_functions (g), 1));
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  for (guint i = 0; i < n; i++)
    {
      const CgTreeLine *line = cg_tree_view_line (v, i);
      while (path->len > line->depth)
        {
          open[g_array_index (path, CgFunctionId, path->len - 1)]--;
          g_array_set_size (path, path->len - 1);
        }
      CgFunctionId f = cg_display_tree_function (t, line->node);
      gboolean recursion = !cg_display_tree_is_master (t, line->node) && open[f] > 0;
      append_box (&w, s, i, &boxes[i], bottom - (boxes[i].level + 1) * ROW, recursion);
      open[f]++;
      g_array_append_val (path, f);
      cg_flush_if_large (s, stream);
    }
  g_string_append (s, "</g>\n");
  /* the script's data: each line's incl share (the "all" box last), for
   * the search's sum */
  g_string_append (s, "<script type=\"text/ecmascript\"><![CDATA[\nvar cgShare = [");
  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (s, i ? ",%.6g" : "%.6g", cg_tree_view_node_percent (v, cg_tree_view_line (v, i)->node));
      if (i % 16 == 15)
        g_string_append_c (s, '\n');
      cg_flush_if_large (s, stream);
    }
  g_string_append_printf (s, "];\nvar cgLayout = { row: %d, bottom: %.0f, left: %d, width: %.2f, charWidth: %g };\n",
                          ROW, bottom, MARGIN, width, CHAR_WIDTH);
  g_string_append (s, cg_html_svg_js);
  g_string_append (s, "]]></script>\n</svg>\n");
  fwrite (s->str, 1, s->len, stream);
  return TRUE;
}
