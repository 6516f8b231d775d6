/* cgcost — self and total costs per function and arc, by a chosen method.
 * See cgcost(1). */
#include "config.h"

#include <string.h>

#include "cg.h"

/* gprof's options: -p/-P/-q/-Q take an attached spec (rewritten to the
 * long forms by main, as GOption cannot), the others a separate one */
typedef struct {
  char **flat, **no_flat, **graph, **no_graph;
  char **exclude, **include, **hide, **show, **delete_arcs, **time, **no_time;
  gboolean zeros;
  gint width;        /* -1: not given (gprof's index: 80; text: the terminal's) */
  gboolean demangle; /* the last of --demangle and --no-demangle says */
} GprofOptions;

typedef struct {
  CgCliCommon common;
  char *method;
  char *event;
  gboolean arcs;
  gboolean exactness;
  char *base;           /* --base: compare with this profile */
  gboolean strip;       /* text: C++ names without parameters and template arguments */
  CgDiffOptions diff;
  GprofOptions gprof;
} Options;

typedef struct {
  CgProfile *profile;
  CgCosts *costs;
  CgMethod method;
  guint event;
  gboolean arcs;
  gboolean demangle; /* text */
  gboolean exactness;
  gboolean brief;    /* text */
  gboolean strip;    /* text */
  gint width;        /* text: Options' */
} Job;

static gboolean
write_tsv (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  (void) error;
  Job *job = data;
  cg_write_tsv_full (cg_profile_graph (job->profile), job->costs, job->event, job->arcs, job->exactness, stream);
  return TRUE;
}

static gboolean
write_folded (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  (void) error;
  Job *job = data;
  cg_write_folded (cg_profile_graph (job->profile), cg_profile_tree (job->profile), job->event, stream);
  return TRUE;
}

static gboolean
write_text (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  Job *job = data;
  CgProfileTextOptions o = { job->event, job->demangle, job->strip, job->brief,
                             cg_cli_text_width (job->width, stream) };
  return cg_write_profile_text (job->profile, job->costs, &o, stream, error);
}

static gboolean
write_xml (FILE *stream, const char *name, gpointer data, GError **error)
{
  Job *job = data;
  return cg_write_xml (job->profile, stream, name, error);
}

static gboolean
ensure_costs (CgProfile *profile, gpointer data, GError **error)
{
  const Job *job = data;
  return cg_method_ensure (profile, job->method, error) != NULL;
}

/* Measured costs only read the graph, so they are summed while it is
 * written. */
static gboolean
write_xml_measuring (FILE *stream, const char *name, gpointer data, GError **error)
{
  Job *job = data;
  if (!cg_write_xml_deriving (job->profile, ensure_costs, job, stream, name, error))
    return FALSE;
  cg_cli_warn_costs (cg_profile_costs (job->profile));
  return TRUE;
}

typedef struct {
  CgGprof *gprof;
  CgGprofReport report;
} GprofJob;

/* gprof's layout is gprof's analysis of its own (run_gprof), not the
 * costs of a method: its job is a GprofJob */
static gboolean
write_gprof (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  GprofJob *job = data;
  return cg_write_gprof (job->gprof, &job->report, stream, error);
}

enum { STYLE_FLAT = 1, STYLE_GRAPH = 2 };

/* The specs of gprof's options, and which sections they ask for (gprof.c:
 * -p/-q print their section, -P/-Q without a spec suppress it, with one
 * they print it without the spec). */
static gboolean
gprof_specs (const GprofOptions *g, CgGprofSpecs **out, guint *style, guint *user, gboolean *named,
             GError **error)
{
  g_autoptr (CgGprofSpecs) specs = cg_gprof_specs_new ();
  static const struct {
    char letter;
    gsize offset;
    guint style;
  } lists[] = {
    { 'p', G_STRUCT_OFFSET (GprofOptions, flat), STYLE_FLAT },
    { 'P', G_STRUCT_OFFSET (GprofOptions, no_flat), STYLE_FLAT },
    { 'q', G_STRUCT_OFFSET (GprofOptions, graph), STYLE_GRAPH },
    { 'Q', G_STRUCT_OFFSET (GprofOptions, no_graph), STYLE_GRAPH },
    { 'E', G_STRUCT_OFFSET (GprofOptions, exclude), 0 },
    { 'F', G_STRUCT_OFFSET (GprofOptions, include), 0 },
    { 'e', G_STRUCT_OFFSET (GprofOptions, hide), 0 },
    { 'f', G_STRUCT_OFFSET (GprofOptions, show), 0 },
    { 'k', G_STRUCT_OFFSET (GprofOptions, delete_arcs), 0 },
    { 'n', G_STRUCT_OFFSET (GprofOptions, time), 0 },
    { 'N', G_STRUCT_OFFSET (GprofOptions, no_time), 0 },
  };
  *style = *user = 0;
  *named = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
    {
      char **values = G_STRUCT_MEMBER (char **, g, lists[i].offset);
      for (guint j = 0; values && values[j]; j++)
        {
          const char *v = values[j];
          if (lists[i].style == 0 && *v == '\0')
            {
              g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "-%c needs a function spec", lists[i].letter);
              return FALSE;
            }
          if (*v != '\0')
            {
              cg_gprof_specs_add_option (specs, lists[i].letter, v);
              *named = TRUE;
            }
          *user |= lists[i].style;
          /* -P and -Q without a spec turn their section off */
          if ((lists[i].letter == 'P' || lists[i].letter == 'Q') && *v == '\0')
            *style &= ~lists[i].style;
          else
            *style |= lists[i].style;
        }
    }
  *out = g_steal_pointer (&specs);
  return TRUE;
}

static void
warn_to_stderr (const char *message, gpointer user_data)
{
  (void) user_data;
  fprintf (stderr, "%s: warning: %s\n", g_get_prgname (), message);
}

/* Warns of each name in gprof's function specs that no function's linker
 * name is: gprof ignores such a spec without a word, so that a C++
 * function given as people read it (HandleNextDocument) silently changed
 * nothing.  The warning names what the name means by cgtree(1)'s rule
 * (cg_lookup_functions) with its linker name, the one to give, or the
 * closest names.  FILE:FUNCTION, FILE:LINE and FILE forms (a single ':',
 * a '.') are gprof's own and not looked at. */
static void
warn_unmatched_specs (const GprofOptions *go, CgGraph *g)
{
  char **const lists[]
      = { go->flat, go->no_flat, go->graph, go->no_graph, go->exclude, go->include, go->hide, go->show,
          go->delete_arcs, go->time, go->no_time };
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    g_hash_table_add (names, (gpointer) cg_graph_function_name (g, f));
  g_autoptr (CgNames) shown = cg_names_new (g, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
    for (guint j = 0; lists[i] && lists[i][j]; j++)
      {
        g_auto (GStrv) parts = g_strsplit (lists[i][j], "/", 2);
        for (guint k = 0; parts[k]; k++)
          {
            const char *name = parts[k];
            const char *colon = strchr (name, ':');
            gboolean gprof_form = (colon && colon[1] != ':') || (!colon && strchr (name, '.'));
            if (*name == '\0' || gprof_form || g_hash_table_contains (names, name))
              continue;
            g_autoptr (GString) w = g_string_new (NULL);
            g_string_append_printf (w, "'%s' is no function's linker name, and gprof's specs match those only: the"
                                       " spec is ignored, as by gprof", name);
            g_autoptr (GArray) found = cg_lookup_functions (g, "spec", name, TRUE, NULL);
            if (found == NULL)
              cg_lookup_append_closest (g, name, w);
            else
              for (guint m = 0; m < MIN (found->len, 3u); m++)
                {
                  CgFunctionId f = g_array_index (found, CgFunctionId, m);
                  g_string_append_printf (w, "%s%s is %s", m ? "; " : "; give its linker name: ",
                                          cg_names_get (shown, f), cg_graph_function_name (g, f));
                }
            warn_to_stderr (w->str, NULL);
          }
      }
}

/* gprof's report of gprof's analysis, or (@exact) of the exact results
 * of a context profile in gprof's layout, as Spivey's aprof printed them
 * (cg_gprof_new_from_contexts). */
static gboolean
run_gprof (Options *o, CgProfile *profile, guint event, CgGprofSpecs *specs, guint style, guint user,
           gboolean exact, GError **error)
{
  CgHistogram *h = cg_profile_histogram (profile);
  /* a gprof report's histogram has a rate but no address ranges */
  gboolean has_histogram = h && (cg_histogram_n_ranges (h) > 0 || cg_histogram_rate (h) > 0);
  gboolean has_graph = (h && cg_histogram_call_graph (h)) || cg_graph_n_arcs (cg_profile_graph (profile)) > 0;
  if (h == NULL || exact)
    has_histogram = has_graph = TRUE; /* not gmon data: self costs stand for the histogram */
  if (style == 0)
    {
      style = (has_histogram ? STYLE_FLAT : 0) | (has_graph ? STYLE_GRAPH : 0);
      style &= ~user;
    }
  if ((style & STYLE_FLAT) && !has_histogram)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED, "the gmon.out data lack a histogram (no flat profile)");
      return FALSE;
    }
  if ((style & STYLE_GRAPH) && !has_graph)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED, "the gmon.out data lack call-graph records (no call graph)");
      return FALSE;
    }
  g_autoptr (CgGprof) gp = NULL;
  if (exact)
    {
      /* Spivey's four arc times: computed here unless the input has them */
      CgCosts *c = cg_profile_costs (profile);
      if (c == NULL || cg_costs_method (c) != CG_METHOD_EXACT || !cg_costs_has_arc_split2 (c))
        {
          c = cg_spivey_compute (profile, error);
          if (c == NULL)
            return FALSE;
          cg_profile_set_costs (profile, c);
        }
      gp = cg_gprof_new_from_contexts (profile, c, event, error);
      if (gp == NULL)
        return FALSE;
    }
  else
    {
      const char *uncounted = cg_gprof_uncounted_warning (cg_profile_graph (profile));
      if (uncounted)
        warn_to_stderr (uncounted, NULL);
      gp = cg_gprof_new (profile, event, specs);
    }
  /* what the times had taken out, which gprof's layout has no place for:
   * above it */
  g_autoptr (GString) notes = g_string_new (NULL);
  cg_append_source_notes (notes, profile);
  GprofJob job = { gp, { (style & STYLE_FLAT) != 0, (style & STYLE_GRAPH) != 0, o->gprof.zeros,
                         o->gprof.width > 0 ? (guint) o->gprof.width : 80, o->gprof.demangle, notes->str } };
  return cg_cli_write (&o->common, write_gprof, &job, error);
}

static gboolean
write_callgrind (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  Job *job = data;
  CgCallgrindWriteOptions options = { warn_to_stderr, NULL, PACKAGE_STRING " (cgcost --format=callgrind)" };
  return cg_write_callgrind (job->profile, job->costs, &options, stream, error);
}

static const CgCliFormat formats[] = {
  { "xml", "cgtools XML with the costs, for cgtree", write_xml },
  { "text", "flat profile and call-graph profile for people", write_text },
  { "tsv", "tab-separated values for scripts: function, calls, self, total", write_tsv },
  { "gprof", "gprof -b's report, byte for byte for gmon.out data", write_gprof },
  { "callgrind", "a callgrind file for KCachegrind and callgrind_annotate", write_callgrind },
  { "folded", "the call tree's stacks for flame graphs", write_folded },
  { NULL, NULL, NULL },
};

typedef struct {
  CgDiff *diff;
  const char *base_name, *new_name;
  CgDiffTextOptions text; /* its width set on writing, from width */
  gint width;             /* Options': -1 for not given */
} DiffJob;

/* The text options of @job on @stream: the width a terminal's where
 * none was given. */
static const CgDiffTextOptions *
diff_text_options (DiffJob *job, FILE *stream)
{
  job->text.width = cg_cli_text_width (job->width, stream);
  return &job->text;
}

static gboolean
write_diff_text (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  DiffJob *job = data;
  return cg_write_diff_text (job->diff, job->base_name, job->new_name, diff_text_options (job, stream), stream, error);
}

static gboolean
write_diff_tsv (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  (void) error;
  DiffJob *job = data;
  cg_write_diff_tsv (job->diff, stream);
  return TRUE;
}

static gboolean
write_diff_folded (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  DiffJob *job = data;
  return cg_write_diff_folded (job->diff, stream, error);
}

static gboolean
write_diff_arcs_text (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  DiffJob *job = data;
  return cg_write_diff_arcs_text (job->diff, job->base_name, job->new_name, diff_text_options (job, stream), stream,
                                  error);
}

static gboolean
write_diff_arcs_tsv (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  (void) error;
  DiffJob *job = data;
  cg_write_diff_arcs_tsv (job->diff, stream);
  return TRUE;
}

/* --base: the difference from the base to the inputs, in the formats
 * that have a form for it */
static gboolean
run_diff (Options *o, const CgCliFormat *format, CgMethod method, GError **error)
{
  CgCliWriteFunc write = format->write == write_text     ? write_diff_text
                         : format->write == write_tsv    ? write_diff_tsv
                         : format->write == write_folded ? write_diff_folded
                                                         : NULL;
  if (write == NULL || (o->arcs && write == write_diff_folded))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE,
                   "--base applies to --format=text, tsv and folded (with --arcs: text and tsv)");
      return FALSE;
    }
  g_autoptr (CgProfile) base = NULL;
  g_autoptr (CgProfile) profile = cg_cli_read_inputs_and_base (&o->common, o->base, &base, error);
  if (profile == NULL)
    return FALSE;
  g_autoptr (CgDiff) diff = cg_cli_diff (&o->common, o->base, profile, method, o->event, &o->diff, &base, error);
  if (diff == NULL)
    return FALSE;
  guint n = o->common.files ? g_strv_length (o->common.files) : 0;
  g_autofree char *new_name = n == 0 ? g_strdup ("<stdin>") : n == 1 ? g_strdup (o->common.files[0])
                                                                      : g_strjoinv (" + ", o->common.files);
  DiffJob job = { diff, o->base, new_name, { o->gprof.demangle, o->strip, 0 }, o->gprof.width };
  if (o->arcs)
    write = write == write_diff_text ? write_diff_arcs_text : write_diff_arcs_tsv;
  return cg_cli_write (&o->common, write, &job, error);
}

static gboolean
run (gpointer data, GError **error)
{
  Options *o = data;
  const CgCliFormat *format;
  CgMethod method;
  if (!cg_cli_choose_format (o->common.format, formats, &format, error)
      || !cg_cli_choose_method (o->method, &method, error))
    return FALSE;
  if (o->arcs && format->write != write_tsv && !o->base)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "--arcs applies to --format=tsv only");
      return FALSE;
    }
  if (o->exactness && format->write != write_tsv)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "--exactness applies to --format=tsv only");
      return FALSE;
    }
  if (o->gprof.width < -1)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "--width=%d: expected 0 (no limit) or a number of columns",
                   o->gprof.width);
      return FALSE;
    }
  if (o->strip && format->write != write_text)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "--strip applies to --format=text only");
      return FALSE;
    }
  if ((o->diff.normalize || o->diff.exact_names || o->common.base_executable) && !o->base)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "--%s applies with --base only",
                   o->diff.normalize ? "normalize" : o->diff.exact_names ? "exact-names" : "base-executable");
      return FALSE;
    }
  g_autoptr (CgGprofSpecs) specs = NULL;
  guint style, user;
  gboolean named;
  if (!gprof_specs (&o->gprof, &specs, &style, &user, &named, error))
    return FALSE;
  if (format->write == write_gprof && method != CG_METHOD_AUTO && method != CG_METHOD_GPROF && method != CG_METHOD_EXACT)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE,
                   "--format=gprof prints gprof's analysis, or the exact one of context profiles: use "
                   "--method=gprof, exact or auto");
      return FALSE;
    }
  if (o->base)
    return run_diff (o, format, method, error);
  g_autoptr (CgProfile) profile = cg_cli_read_inputs (&o->common, error);
  if (profile == NULL)
    return FALSE;
  if (named)
    warn_unmatched_specs (&o->gprof, cg_profile_graph (profile));
  Job job = { profile, NULL, method, 0, o->arcs, o->gprof.demangle, o->exactness, o->common.brief, o->strip,
              o->gprof.width };
  if (!cg_cli_choose_event (cg_profile_graph (profile), o->event, &job.event, error))
    return FALSE;
  if (format->write == write_gprof)
    {
      /* context profiles: their exact results (auto picks them) */
      gboolean exact = method == CG_METHOD_EXACT || (method == CG_METHOD_AUTO && cg_profile_contexts (profile));
      if (exact && cg_profile_contexts (profile) == NULL)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED,
                       "--format=gprof --method=exact needs a context profile (amon.out): only its arcs have "
                       "Spivey's two views");
          return FALSE;
        }
      if (exact && named)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_USAGE,
                       "gprof's function specs steer its propagation and apply to --method=gprof; the exact "
                       "results of a context profile take none");
          return FALSE;
        }
      return run_gprof (o, profile, job.event, specs, style, user, exact, error);
    }
  if (format->write == write_folded)
    {
      /* the stacks themselves: no method is involved */
      if (cg_profile_tree (profile) == NULL)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED,
                       "--format=folded needs whole stacks, and this profile has no call tree "
                       "(read folded stacks, or data with stacks)");
          return FALSE;
        }
      return cg_cli_write (&o->common, format->write, &job, error);
    }
  CgMethod resolved;
  if (!cg_method_resolve (profile, method, &resolved, error))
    return FALSE;
  if (resolved == CG_METHOD_GPROF)
    {
      /* gprof's options change its propagation: computed here with them */
      CgCosts *c = cg_gprof_compute (profile, specs, error);
      if (c == NULL)
        return FALSE;
      cg_profile_set_costs (profile, c);
    }
  /* measured costs are summed while the graph is written out; what the
   * method refuses (a graph without inclusive costs) is refused here,
   * before any output, so that only an overflow of its sums can end the
   * document early */
  if (format->write == write_xml && resolved == CG_METHOD_MEASURED && cg_graph_has_inclusive (cg_profile_graph (profile)))
    return cg_cli_write (&o->common, write_xml_measuring, &job, error);
  /* costs already in the input are reused when they were made by the
   * method asked for */
  job.costs = cg_method_ensure (profile, method, error);
  if (job.costs == NULL)
    return FALSE;
  cg_cli_warn_costs (job.costs);
  if (format->write == write_text && cg_profile_cycles (profile) == NULL)
    cg_profile_set_cycles (profile, cg_cycles_find (cg_profile_graph (profile), NULL, NULL));
  return cg_cli_write (&o->common, format->write, &job, error);
}

/* --demangle and --no-demangle: the last one given wins, as in gprof */
static gboolean
set_demangle (const gchar *option_name, const gchar *value, gpointer data, GError **error)
{
  (void) value;
  (void) error;
  Options *o = data;
  o->gprof.demangle = strcmp (option_name, "--no-demangle") != 0;
  return TRUE;
}

int
main (int argc, char **argv)
{
  static Options options = { .gprof.demangle = TRUE, .gprof.width = -1 };
  static const GOptionEntry entries[] = {
    { "method", 'm', 0, G_OPTION_ARG_STRING, &options.method,
      "Cost method (see the list below; default auto)", "METHOD" },
    { "event", 'e', 0, G_OPTION_ARG_STRING, &options.event,
      "Event to report in text and tsv (default: the first)", "NAME" },
    { "base", 0, 0, G_OPTION_ARG_FILENAME, &options.base,
      "Compare with the profile FILE (the base): text, tsv and folded show what changed", "FILE" },
    { "base-executable", 0, 0, G_OPTION_ARG_FILENAME, &options.common.base_executable,
      "With --base: the executable of a gmon.out or amon.out base, another build's (default: --executable's)", "EXE" },
    { "normalize", 0, 0, G_OPTION_ARG_NONE, &options.diff.normalize,
      "With --base: scale the base to the new profile's total", NULL },
    { "exact-names", 0, 0, G_OPTION_ARG_NONE, &options.diff.exact_names,
      "With --base: match functions by (object, name) as they are, not by file name and without clone suffixes", NULL },
    { "arcs", 'a', 0, G_OPTION_ARG_NONE, &options.arcs,
      "With --format=tsv (and with --base, text): one row per arc (caller, callee, calls, inclusive)", NULL },
    { "exactness", 0, 0, G_OPTION_ARG_NONE, &options.exactness,
      "With --format=tsv: a last column, exactness, saying 'exact' or 'estimated' per row", NULL },
    /* gprof's long name of -c (--static-calls, common to the four tools) */
    { "static-call-graph", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &options.common.static_calls, NULL, NULL },
    /* gprof's options, with gprof's meanings (see cgcost(1)) */
    { "flat-profile", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &options.gprof.flat,
      "gprof -p[SPEC]: print the flat profile (only SPEC)", "SPEC" },
    { "no-flat-profile", 'P', 0, G_OPTION_ARG_STRING_ARRAY, &options.gprof.no_flat,
      "gprof -P[SPEC]: no flat profile (or one without SPEC)", "SPEC" },
    { "graph", 'q', 0, G_OPTION_ARG_STRING_ARRAY, &options.gprof.graph,
      "gprof -q[SPEC]: print the call graph (only SPEC and below, or only FROM/TO arcs)", "SPEC" },
    { "no-graph", 'Q', 0, G_OPTION_ARG_STRING_ARRAY, &options.gprof.no_graph,
      "gprof -Q[SPEC]: no call graph (or one without SPEC, or without FROM/TO arcs)", "SPEC" },
    { "exclude", 'E', 0, G_OPTION_ARG_STRING_ARRAY, &options.gprof.exclude,
      "gprof -E: hide SPEC in the call graph and drop its time from propagation", "SPEC" },
    { "include", 'F', 0, G_OPTION_ARG_STRING_ARRAY, &options.gprof.include,
      "gprof -F: call graph and propagated time of SPEC and its descendants only", "SPEC" },
    { "hide-entry", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options.gprof.hide,
      "gprof -e: hide SPEC's call-graph entry (its time still propagates)", "SPEC" },
    { "show-entry", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options.gprof.show,
      "gprof -f: call-graph entries of SPEC and its descendants only", "SPEC" },
    { "delete-arcs", 'k', 0, G_OPTION_ARG_STRING_ARRAY, &options.gprof.delete_arcs,
      "gprof -k: delete the arcs FROM/TO before the analysis", "FROM/TO" },
    { "time", 'n', 0, G_OPTION_ARG_STRING_ARRAY, &options.gprof.time,
      "gprof -n: propagate only the time of SPEC", "SPEC" },
    { "no-time", 'N', 0, G_OPTION_ARG_STRING_ARRAY, &options.gprof.no_time,
      "gprof -N: do not propagate the time of SPEC", "SPEC" },
    { "display-unused-functions", 'z', 0, G_OPTION_ARG_NONE, &options.gprof.zeros,
      "gprof -z: also list functions never called and without time", NULL },
    { "width", 'w', 0, G_OPTION_ARG_INT, &options.gprof.width,
      "Text: fit rows in N columns, cutting long names in the middle (default: the terminal's width; 0 or a"
      " pipe: no limit); gprof: gprof -w, the index's width (default 80)", "N" },
    { "strip", 0, 0, G_OPTION_ARG_NONE, &options.strip,
      "Text: C++ names without parameter lists and template arguments (gprof2dot -s)", NULL },
    { "demangle", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, set_demangle,
      "text and gprof: print C++ and Rust names demangled (the default; tsv never does)", NULL },
    { "no-demangle", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, set_demangle,
      "text and gprof: print names as the linker sees them", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  static const CgCliSpec spec = {
    .parameters = "[FILE...]",
    .summary = "Compute self and total (inclusive) costs per function and per arc.",
    .description = "The tsv form is a fixed contract for scripts: function, calls, self, total (cgcost(1)).\n"
                   "Short options mean the same in the four tools (the table in cgcost(1)).",
    .formats = formats,
    .methods = TRUE,
    .entries = entries,
    .run = run,
  };
  /* gprof's optional specs are attached (-pSPEC, -bpSPEC, --graph=SPEC)
   * and never the next argument: give GOption the long form with an '=',
   * after the flags clustered before it (-b, -z, -c) */
  static const char *const letters = "pPqQ";
  static const char *const long_forms[] = { "--flat-profile=", "--no-flat-profile=", "--graph=", "--no-graph=" };
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  gboolean options_end = FALSE;
  for (int i = 0; i < argc; i++)
    {
      const char *a = argv[i];
      options_end |= strcmp (a, "--") == 0;
      gboolean short_form = i > 0 && !options_end && a[0] == '-' && a[1] != '-';
      gsize flags = short_form ? strspn (a + 1, "bzc") : 0;
      const char *letter = short_form && a[1 + flags] ? strchr (letters, a[1 + flags]) : NULL;
      if (letter)
        {
          if (flags)
            g_ptr_array_add (args, g_strndup (a, flags + 1));
          g_ptr_array_add (args, g_strconcat (long_forms[letter - letters], a + 2 + flags, NULL));
          continue;
        }
      for (guint k = 0; k < G_N_ELEMENTS (long_forms) && i > 0 && !options_end && !letter; k++)
        if (strncmp (a, long_forms[k], strlen (long_forms[k]) - 1) == 0 && a[strlen (long_forms[k]) - 1] == '\0')
          letter = long_forms[k];
      g_ptr_array_add (args, letter ? g_strdup (letter) : g_strdup (a));
    }
  g_ptr_array_add (args, NULL);
  /* GOption rearranges the array it is given: keep ours to free it */
  g_autofree char **view = g_memdup2 (args->pdata, args->len * sizeof (char *));
  return cg_cli_main ((int) args->len - 1, view, &spec, &options.common, &options);
}
