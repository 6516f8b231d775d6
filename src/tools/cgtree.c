/* cgtree — Kaes's display tree of a call graph.  See cgtree(1). */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cg.h"

typedef struct {
  CgCliCommon common;
  char *method;
  char *event;
  gdouble threshold; /* < 0: the format's default */
  gdouble edge_threshold; /* dot's arrows; < 0: 0.1 */
  gint max_depth;
  char *focus;
  char **roots;
  char *sort;
  char *color;
  gboolean inverted;
  gboolean no_fold;
  gboolean no_demangle;
  gboolean startup;
  gboolean strip;
  gint width; /* < 0: the terminal's, unlimited in a pipe */
  char *base; /* --base: compare with this profile */
  CgDiffOptions diff;
  char *hide;
  char *ignore;
  gint top;
} Options;

typedef enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } Color;

typedef struct {
  CgProfile *profile;
  CgCosts *costs;
  CgDisplayTree *tree;
  Color color;
  gint width; /* Options.width */
  CgTreeTextOptions text;
  CgTreeHtmlOptions html;
  CgDotOptions dot;
  CgTreeXmlOptions xml;
  CgTreeSvgOptions svg;
} Job;

/* Colour on a terminal only: auto means the output is a terminal that is
 * not "dumb" and NO_COLOR (https://no-color.org) is unset or empty. */
static gboolean
wants_color (Color color, FILE *stream)
{
  if (color != COLOR_AUTO)
    return color == COLOR_ALWAYS;
  const char *no_color = g_getenv ("NO_COLOR");
  const char *term = g_getenv ("TERM");
  return isatty (fileno (stream)) && term && *term && strcmp (term, "dumb") != 0 && !(no_color && *no_color);
}

static gboolean
write_text (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  Job *job = data;
  job->text.color = wants_color (job->color, stream);
  job->text.width = cg_cli_text_width (job->width, stream);
  return cg_write_tree_text (job->profile, job->costs, job->tree, &job->text, stream, error);
}

static gboolean
write_html (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  Job *job = data;
  return cg_write_tree_html (job->profile, job->costs, job->tree, &job->html, stream, error);
}

static gboolean
write_svg (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  Job *job = data;
  return cg_write_tree_svg (job->profile, job->costs, job->tree, &job->svg, stream, error);
}

static gboolean
write_dot (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  Job *job = data;
  return cg_write_dot (job->profile, job->costs, job->tree, &job->dot, stream, error);
}

static gboolean
write_xml (FILE *stream, const char *name, gpointer data, GError **error)
{
  Job *job = data;
  return cg_write_tree_xml (job->profile, job->costs, job->tree, &job->xml, stream, name, error);
}

static const CgCliFormat formats[] = {
  { "text", "indented text for terminals and pipes", write_text },
  { "html", "one self-contained page with expand/collapse", write_html },
  { "svg", "a flame graph in one self-contained SVG file", write_svg },
  { "dot", "a Graphviz graph", write_dot },
  { "xml", "the tree's nodes for programs (formats/cgtree-xml.md)", write_xml },
  { NULL, NULL, NULL },
};

static gboolean G_GNUC_PRINTF (2, 3)
usage (GError **error, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  g_autofree char *message = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error_literal (error, CG_ERROR, CG_ERROR_USAGE, message);
  return FALSE;
}

/* The functions @pattern, an option's regular expression, matches; where
 * it matches none or is no regular expression (a C++ name with its
 * parameter list seldom is one that matches it), the functions it names
 * (cg_lookup_functions, all of them where several do).  NULL with a
 * usage error naming the closest names where there are none.  The
 * expression is not compiled to machine code (G_REGEX_OPTIMIZE): it
 * matches each name once, and PCRE2's JIT code reads memory that
 * valgrind's memcheck takes for uninitialised, which failed make
 * check-valgrind on every --focus, --root, --hide and --ignore. */
static GArray *
matching_ids (CgGraph *g, const char *option, const char *pattern, GError **error)
{
  g_autoptr (GError) local = NULL;
  g_autoptr (GRegex) regex = g_regex_new (pattern, 0, 0, &local);
  if (regex)
    {
      g_autoptr (GArray) match = cg_focus_match (g, regex, NULL);
      if (match->len > 0)
        return g_steal_pointer (&match);
    }
  GArray *named = cg_lookup_functions (g, option, pattern, TRUE, NULL);
  if (named)
    return named;
  g_autoptr (GString) message = g_string_new (NULL);
  if (regex)
    g_string_append_printf (message, "--%s=%s: no function matches", option, pattern);
  else
    g_string_append_printf (message, "--%s=%s: no function has that name, and it is no regular expression (%s)",
                            option, pattern, local->message);
  cg_lookup_append_closest (g, pattern, message);
  return usage (error, "%s", message->str), NULL;
}

/* The functions --root names, or --focus matches; a usage error when
 * there are none, or when a --root names several. */
static GArray *
chosen_functions (CgGraph *g, const Options *o, GError **error)
{
  if (o->focus)
    return matching_ids (g, "focus", o->focus, error);
  g_autoptr (GArray) chosen = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  g_autofree guint8 *seen = g_new0 (guint8, MAX (cg_graph_n_functions (g), 1));
  for (guint i = 0; o->roots[i]; i++)
    {
      g_autoptr (GArray) match = cg_lookup_functions (g, "root", o->roots[i], FALSE, error);
      if (match == NULL)
        return NULL;
      for (guint j = 0; j < match->len; j++)
        {
          CgFunctionId f = g_array_index (match, CgFunctionId, j);
          if (!seen[f])
            g_array_append_val (chosen, f);
          seen[f] = 1;
        }
    }
  return g_steal_pointer (&chosen);
}

/* The display tree, or with @inverted the callers tree: from the hot
 * spots down their callers (its threshold and depth are the view's). */
static CgDisplayTree *
build_tree (CgProfile *profile, CgCosts *costs, const CgDisplayTreeOptions *tree_options, gboolean inverted,
            gdouble threshold, gint max_depth, GError **error)
{
  if (!inverted)
    {
      CgDisplayTreeOptions forward = *tree_options;
      forward.inverted = FALSE;
      return cg_display_tree_new_full (cg_profile_graph (profile), costs, &forward);
    }
  CgCallersTreeOptions callers = { tree_options->event, tree_options->roots, tree_options->n_roots, threshold,
                                   (guint) max_depth, 0, tree_options->skip };
  return cg_callers_tree_new (profile, costs, &callers, error);
}

/* The functions @regex (an option's value) matches, as flags per function
 * (transfer full), or NULL with a usage error. */
static guint8 *
matching (CgGraph *g, const char *option, const char *pattern, guint *n_matched, GError **error)
{
  g_autoptr (GArray) match = matching_ids (g, option, pattern, error);
  if (match == NULL)
    return NULL;
  guint8 *flags = g_new0 (guint8, MAX (cg_graph_n_functions (g), 1));
  for (guint i = 0; i < match->len; i++)
    flags[g_array_index (match, CgFunctionId, i)] = 1;
  *n_matched = match->len;
  return flags;
}

/* The largest self cost of a function of @g in @event, in percent of the
 * self costs' sum (0 for an empty profile). */
static gdouble
hottest_share (CgGraph *g, guint event)
{
  CgKind kind = cg_graph_event_kind (g, event);
  g_autofree CgValue *all = g_new0 (CgValue, MAX (cg_graph_n_events (g), 1));
  if (!cg_graph_self_totals (g, all) || cg_value_to_double (kind, all[event]) <= 0)
    return 0;
  gdouble top = 0;
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    top = MAX (top, cg_value_to_double (kind, cg_graph_self_const (g, f)[event]));
  return 100.0 * top / cg_value_to_double (kind, all[event]);
}

/* The total of @f in @event, in percent of the self costs' sum (0 for an
 * empty profile). */
static gdouble
root_share (CgGraph *g, const CgCosts *costs, guint event, CgFunctionId f)
{
  CgKind kind = cg_graph_event_kind (g, event);
  g_autofree CgValue *all = g_new0 (CgValue, MAX (cg_graph_n_events (g), 1));
  if (!cg_graph_self_totals (g, all) || cg_value_to_double (kind, all[event]) <= 0)
    return 0;
  return 100.0 * cg_value_to_double (cg_costs_kind (costs, event), cg_costs_total_const (costs, f)[event])
         / cg_value_to_double (kind, all[event]);
}

/* @whole with --hide and --ignore applied over its call tree (pprof's
 * filters; --hide over a call graph alone, cg-hide.h), and a sentence
 * saying what they did; --ignore is a usage error where the profile has
 * no call tree. */
static CgProfile *
filter_profile (CgProfile *whole, const Options *o, guint event, char **note, GError **error)
{
  CgGraph *g = cg_profile_graph (whole);
  gboolean graph_only = cg_profile_tree (whole) == NULL;
  if (graph_only && o->ignore)
    return usage (error,
                  "--ignore needs a call tree (folded stacks, perf script, a cgtools XML file with one): a call graph"
                  " (callgrind, gmon.out, amon.out) does not say which samples ran through a function"),
           NULL;
  guint n_hidden = 0, n_ignored = 0;
  g_autofree guint8 *hide = o->hide ? matching (g, "hide", o->hide, &n_hidden, error) : NULL;
  if (o->hide && hide == NULL)
    return NULL;
  g_autofree guint8 *ignore = o->ignore ? matching (g, "ignore", o->ignore, &n_ignored, error) : NULL;
  if (o->ignore && ignore == NULL)
    return NULL;
  CgProfile *filtered = graph_only ? cg_hide_graph (whole, hide, error) : cg_filter_tree (whole, hide, ignore, error);
  if (filtered == NULL)
    return NULL;
  g_autoptr (GString) s = g_string_new (NULL);
  if (o->hide)
    g_string_append_printf (s, "Hidden: %u function%s matching '%s', %s cost charged to %s callers%s.", n_hidden,
                            n_hidden == 1 ? "" : "s", o->hide, n_hidden == 1 ? "its" : "their",
                            n_hidden == 1 ? "its" : "their",
                            !graph_only ? ""
                            : cg_graph_has_inclusive (g)
                                ? " in proportion to what each caller's calls carried (a call graph does not say which"
                                  " caller ran which part: the calls moved and the self cost taken over are"
                                  " estimates; totals stay as measured)"
                                : " in proportion to their calls (a call graph does not say which caller ran which"
                                  " part: the calls moved and the self cost taken over are estimates)");
  if (o->ignore)
    {
      g_autofree CgValue *all = g_new0 (CgValue, cg_graph_n_events (g));
      g_autofree CgValue *left = g_new0 (CgValue, cg_graph_n_events (g));
      cg_graph_self_totals (g, all);
      cg_graph_self_totals (cg_profile_graph (filtered), left);
      CgKind kind = cg_graph_event_kind (g, event);
      gdouble a = cg_value_to_double (kind, all[event]), b = cg_value_to_double (kind, left[event]);
      g_string_append_printf (s, "%sIgnored: %u function%s matching '%s' and all %s called, %.2f%% of the profile.",
                              s->len ? "  " : "", n_ignored, n_ignored == 1 ? "" : "s", o->ignore,
                              n_ignored == 1 ? "it" : "they", a > 0 ? 100.0 * (a - b) / a : 0.0);
    }
  *note = g_string_free (g_steal_pointer (&s), FALSE);
  return filtered;
}

/* Of the functions --focus chose on a call graph alone, the outermost:
 * largest total first, each one a root unless an earlier root reaches
 * it, so that the tree is not several roots linking into each other (a
 * recursive parser's expr, term and factor).  O(|V| + |E|). */
static void
outermost_only (CgGraph *g, const CgCosts *costs, guint event, GArray *chosen)
{
  typedef struct {
    gdouble total;
    CgFunctionId f;
  } ByTotal;
  g_autoptr (GArray) order = g_array_new (FALSE, FALSE, sizeof (ByTotal));
  CgKind kind = cg_costs_kind (costs, event);
  for (guint i = 0; i < chosen->len; i++)
    {
      CgFunctionId f = g_array_index (chosen, CgFunctionId, i);
      ByTotal b = { cg_value_to_double (kind, cg_costs_total_const (costs, f)[event]), f };
      g_array_append_val (order, b);
    }
  /* stable: equal totals keep the match order (the graph's) */
  for (guint i = 1; i < order->len; i++)
    for (guint j = i; j > 0 && g_array_index (order, ByTotal, j - 1).total < g_array_index (order, ByTotal, j).total;
         j--)
      {
        ByTotal t = g_array_index (order, ByTotal, j);
        g_array_index (order, ByTotal, j) = g_array_index (order, ByTotal, j - 1);
        g_array_index (order, ByTotal, j - 1) = t;
      }
  g_autofree guint8 *reached = g_new0 (guint8, MAX (cg_graph_n_functions (g), 1));
  g_autoptr (GArray) queue = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  g_array_set_size (chosen, 0);
  for (guint i = 0; i < order->len; i++)
    {
      CgFunctionId f = g_array_index (order, ByTotal, i).f;
      if (reached[f])
        continue;
      g_array_append_val (chosen, f);
      reached[f] = 1;
      g_array_set_size (queue, 0);
      g_array_append_val (queue, f);
      for (guint q = 0; q < queue->len; q++)
        {
          guint n;
          const CgFunctionId *down = cg_graph_out_callees (g, g_array_index (queue, CgFunctionId, q), &n);
          for (guint k = 0; k < n; k++)
            if (!reached[down[k]])
              {
                reached[down[k]] = 1;
                g_array_append_val (queue, down[k]);
              }
        }
    }
}

/* One sentence: what part of the profile the tree shows, and how. */
static char *
scope_note (const Options *o, CgProfile *whole, CgProfile *focused, guint event, guint n_chosen)
{
  g_autoptr (GString) s = g_string_new (NULL);
  if (o->focus && focused)
    {
      CgGraph *g = cg_profile_graph (whole);
      g_autofree CgValue *all = g_new0 (CgValue, cg_graph_n_events (g));
      g_autofree CgValue *part = g_new0 (CgValue, cg_graph_n_events (g));
      cg_graph_self_totals (g, all);
      cg_graph_self_totals (cg_profile_graph (focused), part);
      CgKind kind = cg_graph_event_kind (g, event);
      gdouble a = cg_value_to_double (kind, all[event]), b = cg_value_to_double (kind, part[event]);
      g_string_append_printf (s, "Focus: %u function%s matching '%s' and %s descendants, costs recomputed over"
                                 " the %s (Spivey): %.2f%% of the profile's ",
                              n_chosen, n_chosen == 1 ? "" : "s", o->focus, n_chosen == 1 ? "its" : "their",
                              cg_profile_tree (whole) ? "call tree" : "contexts", a > 0 ? 100.0 * b / a : 0.0);
      /* in the unit the tree's header and columns show */
      gdouble scale = cg_graph_event_scale (g, event);
      CgDisplayUnit unit = cg_display_unit (cg_graph_event_unit (g, event), a * scale);
      cg_append_cost_human (s, kind, all[event], scale * unit.factor);
      g_string_append_printf (s, " %s; percentages below are of the focus.", unit.unit);
    }
  else if (o->focus)
    g_string_append_printf (s, "Focus: %u function%s matching '%s' and what %s.  The profile has no call tree,"
                               " so costs are the whole profile's: a line's cost may include calls made outside"
                               " the focus.",
                            n_chosen, n_chosen == 1 ? "" : "s", o->focus,
                            o->inverted ? (n_chosen == 1 ? "calls it" : "calls them")
                                        : (n_chosen == 1 ? "it calls" : "they call"));
  else if (o->roots)
    {
      g_autofree char *names = g_strjoinv (", ", o->roots);
      g_string_append_printf (s, "Rooted at %s: the tree of what %s, with the whole profile's costs.", names,
                              o->inverted ? "calls it" : "it calls");
    }
  return s->len ? g_string_free (g_steal_pointer (&s), FALSE) : NULL;
}

/* One sentence naming the start-up code the tree passed over, or NULL
 * when none was in the tree's way (a --root below it); with @tree NULL,
 * every function marked (folded out of a call tree: cg_fold_tree). */
static char *
startup_note (CgGraph *g, const guint8 *startup, const CgDisplayTree *tree)
{
  g_autoptr (CgNames) names = cg_names_new (g, TRUE);
  cg_names_set_short (names);
  g_autoptr (GString) s = g_string_new (NULL);
  guint n = 0;
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    if (startup[f] && (tree == NULL || cg_display_tree_master (tree, f) == CG_NO_ID))
      {
        if (n < 4)
          {
            g_string_append (s, n ? ", " : "");
            cg_names_append_label (names, s, f);
          }
        n++;
      }
  if (n == 0)
    return NULL;
  if (n > 4)
    g_string_append_printf (s, " and %u more", n - 4);
  return g_strdup_printf ("Start-up code (%s) is folded: what it calls are roots (--startup shows it).", s->str);
}

/* --hide and --ignore applied to the base (*@base, replaced), as
 * filter_profile applies them to the profile, which checked the
 * patterns: one that matches nothing in the base leaves it as it is. */
static gboolean
filter_base (CgProfile **base, const Options *o, GError **error)
{
  CgGraph *g = cg_profile_graph (*base);
  guint n = 0;
  g_autofree guint8 *hide = o->hide ? matching (g, "hide", o->hide, &n, NULL) : NULL;
  g_autofree guint8 *ignore = o->ignore && cg_profile_tree (*base) ? matching (g, "ignore", o->ignore, &n, NULL) : NULL;
  if (hide == NULL && ignore == NULL)
    return TRUE;
  CgProfile *filtered = cg_profile_tree (*base) ? cg_filter_tree (*base, hide, ignore, error)
                                                : cg_hide_graph (*base, hide, error);
  if (filtered == NULL)
    return FALSE;
  cg_profile_free (*base);
  *base = filtered;
  return TRUE;
}

/* Splices the start-up code under root frames out of *@profile's call
 * tree (cg_fold_tree), replacing it; *@note (nullable) says what was
 * folded, or stays NULL.  A profile without a call tree is left as it
 * is. */
static gboolean
fold_startup (CgProfile **profile, char **note, GError **error)
{
  if (cg_profile_tree (*profile) == NULL)
    return TRUE;
  guint n_folded = 0;
  CgGraph *g = cg_profile_graph (*profile);
  g_autofree guint8 *fold = cg_startup_functions (g, &n_folded);
  if (n_folded == 0)
    return TRUE;
  if (note)
    *note = startup_note (g, fold, NULL);
  CgProfile *folded = cg_fold_tree (*profile, fold, error);
  if (folded == NULL)
    return FALSE;
  cg_profile_free (*profile);
  *profile = folded;
  return TRUE;
}

static gboolean
run (gpointer data, GError **error)
{
  Options *o = data;
  static const char *const sorts[] = { "total", "self", "calls", "name", NULL };
  static const char *const colors[] = { "auto", "always", "never", NULL };
  const CgCliFormat *format;
  guint sort, color;
  CgMethod method;
  if (!cg_cli_choose_format (o->common.format, formats, &format, error)
      || !cg_cli_choose ("sort", o->sort, sorts, &sort, error)
      || !cg_cli_choose ("color", o->color, colors, &color, error)
      || !cg_cli_choose_method (o->method, &method, error))
    return FALSE;
  /* -1, the initial value, stands for "not given" */
  gboolean threshold_given = o->threshold != -1;
  if (threshold_given && !(o->threshold >= 0 && o->threshold <= 100))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "--threshold=%g: expected a percentage from 0 to 100",
                   o->threshold);
      return FALSE;
    }
  if (o->width < -1)
    return usage (error, "--width=%d: expected 0 (no limit) or a number of columns", o->width);
  if (o->max_depth < 0)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "--max-depth=%d: expected 0 (no limit) or more", o->max_depth);
      return FALSE;
    }
  if (o->focus && o->roots)
    return usage (error, "%s", "--focus and --root exclude each other");
  /* the whole tree goes into a page, whose slider hides lines there, and
   * to programs */
  gdouble threshold = threshold_given                                             ? o->threshold
                      : format->write == write_html || format->write == write_xml ? 0.0
                      : format->write == write_dot                                ? 0.5
                      : format->write == write_svg                                ? 0.1
                                                                                  : 1.0;
  /* dot's arrows, as gprof2dot's: 0.1 % by default, never above the boxes' */
  if (o->edge_threshold != -1 && !(o->edge_threshold >= 0 && o->edge_threshold <= 100))
    return usage (error, "--edge-threshold=%g: expected a percentage from 0 to 100", o->edge_threshold);
  gdouble edge_threshold = o->edge_threshold != -1 ? o->edge_threshold : MIN (0.1, threshold);

  if ((o->diff.normalize || o->diff.exact_names || o->common.base_executable) && !o->base)
    return usage (error, "--%s applies with --base only",
                  o->diff.normalize ? "normalize" : o->diff.exact_names ? "exact-names" : "base-executable");
  if (o->base && ((format->write != write_text && format->write != write_dot && format->write != write_html)
                  || o->inverted || o->focus))
    return usage (error, "%s",
                  "--base applies to the text tree, the dot graph and the page (not with --inverted or --focus)");
  /* --base: both read at once, costed by one method, the tree of the new
   * profile */
  g_autoptr (CgProfile) base = NULL;
  g_autoptr (CgProfile) whole = o->base ? cg_cli_read_inputs_and_base (&o->common, o->base, &base, error)
                                        : cg_cli_read_inputs (&o->common, error);
  if (whole == NULL)
    return FALSE;
  guint event;
  if (!cg_cli_choose_event (cg_profile_graph (whole), o->event, &event, error))
    return FALSE;
  if (o->top < 0)
    return usage (error, "--top=%d: expected 0 (no limit) or more", o->top);
  /* --hide and --ignore, on the base too, before the two are compared:
   * the difference keeps the function ids of the profiles it compared,
   * and filtering after it left those of a profile freed (a crash, or
   * other functions' changes on the lines) */
  g_autofree char *filter_note = NULL;
  if (o->hide || o->ignore)
    {
      CgProfile *filtered = filter_profile (whole, o, event, &filter_note, error);
      if (filtered == NULL)
        return FALSE;
      cg_profile_free (whole);
      whole = filtered;
      if (base && !filter_base (&base, o, error))
        return FALSE;
    }
  /* start-up code under a root frame (perf's --split: a thread's
   * clone3 > start_thread, a process's _start > __libc_start_main) is
   * spliced out of the call tree, so that each root keeps its own
   * subtree; the display tree's skip, a rule over the call graph, would
   * leave the roots empty and make the start routine one root for all.
   * The base's too, before the two are compared: the difference is
   * between the profiles the tree shows (the calls from each root line) */
  g_autofree char *startup_text = NULL;
  if (!o->startup && !o->roots)
    {
      if (!fold_startup (&whole, &startup_text, error))
        return FALSE;
      if (base && !fold_startup (&base, NULL, error))
        return FALSE;
    }
  /* perf's --split=pid or tid, here or in the cgmerge that made the
   * XML: a root per process or thread, whose subtree holds its own costs
   * only, where the call graph joined the threads' calls of one routine
   * under one root (not where the tree starts at chosen functions, which
   * then have no such roots, nor in the callers tree, whose hot spots are
   * each function's in all threads, with a line per thread's root above
   * it) */
  if (!o->base && !o->focus && !o->roots && !o->inverted && cg_tree_roots_are_split (whole))
    {
      CgProfile *split = cg_split_roots (whole, error);
      if (split == NULL)
        return FALSE;
      cg_profile_free (whole);
      whole = split;
    }
  g_autoptr (CgDiff) diff = NULL;
  if (o->base)
    {
      diff = cg_cli_diff (&o->common, o->base, whole, method, o->event, &o->diff, &base, error);
      if (diff == NULL)
        return FALSE;
      method = cg_costs_method (cg_profile_costs (whole));
    }

  g_autoptr (GArray) chosen = NULL;
  g_autoptr (CgProfile) focused = NULL;
  if (o->focus || o->roots)
    {
      chosen = chosen_functions (cg_profile_graph (whole), o, error);
      if (chosen == NULL)
        return FALSE;
    }
  if (o->focus && (cg_profile_tree (whole) || cg_profile_contexts (whole)))
    {
      CgGraph *wg = cg_profile_graph (whole);
      g_autofree guint8 *flags = g_new0 (guint8, MAX (cg_graph_n_functions (wg), 1));
      for (guint i = 0; i < chosen->len; i++)
        flags[g_array_index (chosen, CgFunctionId, i)] = 1;
      focused = cg_profile_tree (whole) ? cg_focus_tree (whole, flags, error) : cg_focus_contexts (whole, flags, error);
      if (focused == NULL)
        return FALSE;
    }
  CgProfile *profile = focused ? focused : whole;
  CgGraph *g = cg_profile_graph (profile);
  CgCosts *costs = focused ? cg_profile_costs (focused) : cg_method_ensure (profile, method, error);
  if (costs == NULL)
    return FALSE;
  cg_cli_warn_costs (costs);
  if (cg_profile_cycles (profile) == NULL)
    cg_profile_set_cycles (profile, cg_cycles_find (g, NULL, NULL));

  /* on a call graph alone, --focus starts at the outermost matches */
  guint n_matched = chosen ? chosen->len : 0;
  if (o->focus && !focused)
    outermost_only (g, costs, event, chosen);

  CgDisplayTreeOptions tree_options = { .event = event, .inverted = o->inverted };
  if (chosen && !focused)
    {
      tree_options.roots = (const CgFunctionId *) chosen->data;
      tree_options.n_roots = chosen->len;
    }
  /* start-up code above main folds into the roots, unless asked for or
   * where the tree starts at chosen roots */
  guint n_startup = 0;
  g_autofree guint8 *startup = o->startup || tree_options.roots ? NULL : cg_startup_functions (g, &n_startup);
  tree_options.skip = n_startup ? startup : NULL;
  /* a flat profile's callers tree, where no function has the default
   * threshold's share of the self cost, showed no line at all */
  g_autofree char *flat_note = NULL;
  if (o->inverted && !threshold_given && threshold > 0)
    {
      gdouble top = hottest_share (g, event);
      if (top > 0 && top < threshold)
        {
          flat_note = g_strdup_printf ("No function has %g%% of the self cost: the lines from %.3g%%, the hottest"
                                       " one's share, are shown.",
                                       threshold, top);
          threshold = top * (1 - 1e-9);
        }
    }
  /* a --root below the default threshold showed the titles and no line:
   * the lines from the threshold's share of the largest root's total */
  if (tree_options.roots && !o->inverted && !threshold_given && threshold > 0)
    {
      gdouble top = 0;
      for (guint i = 0; i < tree_options.n_roots; i++)
        top = MAX (top, root_share (g, costs, event, tree_options.roots[i]));
      if (top > 0 && top < threshold)
        {
          flat_note = g_strdup_printf ("The root%s %.3g%% of the profile, under the %g%% threshold: the lines"
                                       " from %.3g%% (%g%% of %s) are shown.",
                                       tree_options.n_roots == 1 ? " carries" : "s carry at most", top, threshold,
                                       threshold * top / 100, threshold,
                                       tree_options.n_roots == 1 ? "the root's cost" : "the largest root's");
          threshold = threshold * top / 100 * (1 - 1e-9);
        }
    }
  g_autoptr (CgDisplayTree) tree = build_tree (profile, costs, &tree_options, o->inverted, threshold, o->max_depth, error);
  if (tree == NULL)
    return FALSE;
  /* the page toggles to the other direction: both trees travel in it */
  g_autoptr (CgDisplayTree) other = NULL;
  gdouble other_threshold = threshold;
  if (format->write == write_html)
    {
      /* a callers tree of every path is many times the display tree's
       * size: the page's holds the lines from 0.1 % (or --threshold) */
      other_threshold = o->inverted ? threshold : MAX (threshold, 0.1);
      /* in a flat profile no function's self cost reaches 0.1 %: the
       * callers tree then starts from the hottest, not from nothing */
      if (!o->inverted)
        other_threshold = MIN (other_threshold, MAX (threshold, hottest_share (g, event) * (1 - 1e-9)));
      other = build_tree (profile, costs, &tree_options, !o->inverted, other_threshold, o->max_depth, error);
      if (other == NULL)
        return FALSE;
    }
  g_autofree char *scope = scope_note (o, whole, focused, event, n_matched);
  if (o->focus && !focused && chosen->len < n_matched)
    {
      g_autoptr (CgNames) names = cg_names_new (g, !o->no_demangle);
      cg_names_set_short (names);
      g_autoptr (GString) s = g_string_new (scope);
      g_string_append (s, "  The tree starts at the outermost of them, which reach the others: ");
      for (guint i = 0; i < chosen->len; i++)
        {
          g_string_append (s, i ? ", " : "");
          cg_names_append_label (names, s, g_array_index (chosen, CgFunctionId, i));
        }
      g_string_append_c (s, '.');
      g_free (scope);
      scope = g_string_free (g_steal_pointer (&s), FALSE);
    }
  if (filter_note)
    {
      char *both = scope ? g_strconcat (filter_note, "\n", scope, NULL) : g_strdup (filter_note);
      g_free (scope);
      scope = both;
    }
  if (flat_note)
    {
      char *both = scope ? g_strconcat (scope, "\n", flat_note, NULL) : g_strdup (flat_note);
      g_free (scope);
      scope = both;
    }
  if (o->top > 0)
    {
      char *both = g_strdup_printf ("%s%sAbout the %d largest lines only (--top).", scope ? scope : "",
                                    scope ? "\n" : "", o->top);
      g_free (scope);
      scope = both;
    }
  if (n_startup && startup_text == NULL)
    startup_text = startup_note (g, startup, tree);
  if (startup_text)
    {
      char *both = scope ? g_strconcat (scope, "\n", startup_text, NULL) : g_strdup (startup_text);
      g_free (scope);
      scope = both;
    }

  CgTreeViewOptions view = { event, threshold, (guint) o->max_depth, (CgTreeSort) sort, !o->no_demangle, o->strip,
                             (guint) o->top, !o->no_fold, diff };
  gboolean brief = o->common.brief;
  Job job = { profile, costs, tree, (Color) color, o->width, { view, FALSE, o->no_fold, scope, brief, 0, diff },
              { view, threshold_given ? threshold : 1.0, scope, brief, o->no_fold, other, other_threshold, diff },
              { event, threshold, edge_threshold, scope, !o->no_demangle, brief, o->strip, diff }, { view, scope },
              { view, o->width > 0 ? (guint) o->width : 0, scope } };
  return cg_cli_write (&o->common, format->write, &job, error);
}

int
main (int argc, char **argv)
{
  static Options options = { .threshold = -1, .edge_threshold = -1, .width = -1 };
  static const GOptionEntry entries[] = {
    { "threshold", 't', 0, G_OPTION_ARG_DOUBLE, &options.threshold,
      "Hide lines below PCT percent of the total (default 1; dot: 0.5; svg: 0.1; html: 0, with a slider; xml: 0;"
      " 0 shows all)",
      "PCT" },
    { "edge-threshold", 0, 0, G_OPTION_ARG_DOUBLE, &options.edge_threshold,
      "dot: hide arrows below PCT percent of the total (default 0.1; boxes no arrow reaches go, roots aside)",
      "PCT" },
    { "max-depth", 'd', 0, G_OPTION_ARG_INT, &options.max_depth, "Show at most N levels (default 0: all)", "N" },
    { "focus", 0, 0, G_OPTION_ARG_STRING, &options.focus,
      "Only the functions matching REGEX and their descendants, costs recomputed where the data has a call tree",
      "REGEX" },
    { "root", 'r', 0, G_OPTION_ARG_STRING_ARRAY, &options.roots,
      "Start the tree at FUNC (repeatable); costs of the whole profile", "FUNC" },
    { "base", 0, 0, G_OPTION_ARG_FILENAME, &options.base,
      "Text and html: a column of what changed since the profile FILE (the base), slower red, faster blue; dot: "
      "colours by change", "FILE" },
    { "base-executable", 0, 0, G_OPTION_ARG_FILENAME, &options.common.base_executable,
      "With --base: the executable of a gmon.out or amon.out base, another build's (default: --executable's)", "EXE" },
    { "normalize", 0, 0, G_OPTION_ARG_NONE, &options.diff.normalize,
      "With --base: scale the base to the new profile's total", NULL },
    { "exact-names", 0, 0, G_OPTION_ARG_NONE, &options.diff.exact_names,
      "With --base: match functions as they are, not without directories and clone suffixes", NULL },
    { "inverted", 'i', 0, G_OPTION_ARG_NONE, &options.inverted,
      "Callers tree: the functions with most self cost, under each its callers with their share", NULL },
    { "sort", 's', 0, G_OPTION_ARG_STRING, &options.sort,
      "Order of siblings: total (default), self, calls or name", "KEY" },
    { "color", 0, 0, G_OPTION_ARG_STRING, &options.color,
      "Colours in text: auto (default: on a terminal, unless NO_COLOR), always or never", "WHEN" },
    { "no-fold", 0, 0, G_OPTION_ARG_NONE, &options.no_fold,
      "Text: one line per node, also in single-call chains", NULL },
    { "hide", 0, 0, G_OPTION_ARG_STRING, &options.hide,
      "Pass over the functions matching REGEX, their cost charged to their callers (needs a call tree)", "REGEX" },
    { "ignore", 0, 0, G_OPTION_ARG_STRING, &options.ignore,
      "Drop the functions matching REGEX and all they called (needs a call tree)", "REGEX" },
    { "top", 0, 0, G_OPTION_ARG_INT, &options.top, "Show about the N largest lines only (default 0: no limit)",
      "N" },
    { "startup", 0, 0, G_OPTION_ARG_NONE, &options.startup,
      "Show the start-up code above main (the loader's entry, _start, __libc_start_main)", NULL },
    { "no-demangle", 0, 0, G_OPTION_ARG_NONE, &options.no_demangle,
      "Print C++ and Rust names as the linker sees them, not demangled", NULL },
    { "strip", 0, 0, G_OPTION_ARG_NONE, &options.strip,
      "C++ names without parameter lists and template arguments (gprof2dot -s)", NULL },
    { "width", 'w', 0, G_OPTION_ARG_INT, &options.width,
      "Text: fit lines in N columns, cutting long names in the middle (default: the terminal's width;"
      " 0 or a pipe: no limit); svg: the drawing's width in pixels (default 1200)", "N" },
    { "method", 'm', 0, G_OPTION_ARG_STRING, &options.method,
      "Cost method when the input has no costs (default auto)", "METHOD" },
    { "event", 'e', 0, G_OPTION_ARG_STRING, &options.event, "Event to show (default: the first)", "NAME" },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  static const CgCliSpec spec = {
    .parameters = "[FILE...]",
    .summary = "Show a call graph as Kaes's display tree: each function under each of its\n"
               "callers, its callees under the caller that costs most.",
    .description = "Reads cgtools XML or any profile cgmerge reads; computes costs when the input\n"
                   "has none.",
    .formats = formats,
    .methods = TRUE,
    .entries = entries,
    .run = run,
  };
  int status = cg_cli_main (argc, argv, &spec, &options.common, &options);
  g_free (options.method);
  g_free (options.event);
  g_free (options.focus);
  g_free (options.hide);
  g_free (options.ignore);
  g_strfreev (options.roots);
  g_free (options.sort);
  g_free (options.color);
  return status;
}
