/* cg-cli.c — GOptionContext set-up and the error-to-exit-status mapping. */
#include "config.h"

#include "cg-cli.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cg-error.h"
#include "cg-input-warnings.h"
#include "cg-output.h"
#include "cg-progress-line.h"

int
cg_cli_exit_status (const GError *error)
{
  if (error == NULL)
    return 0;
  if (error->domain == G_OPTION_ERROR || (error->domain == CG_ERROR && error->code == CG_ERROR_USAGE))
    return 2;
  return 1;
}

gboolean
cg_cli_choose (const char *option, const char *given, const char *const *choices, guint *index,
               GError **error)
{
  if (given == NULL)
    {
      *index = 0;
      return TRUE;
    }
  for (guint i = 0; choices[i]; i++)
    if (strcmp (given, choices[i]) == 0)
      {
        *index = i;
        return TRUE;
      }
  g_autofree char *list = g_strjoinv ("|", (char **) choices);
  g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "--%s=%s: expected one of %s", option, given, list);
  return FALSE;
}

gboolean
cg_cli_choose_format (const char *given, const CgCliFormat *formats, const CgCliFormat **chosen, GError **error)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  for (const CgCliFormat *f = formats; f->name; f++)
    g_ptr_array_add (names, (gpointer) f->name);
  g_ptr_array_add (names, NULL);
  guint i;
  if (!cg_cli_choose ("format", given, (const char *const *) names->pdata, &i, error))
    return FALSE;
  *chosen = &formats[i];
  return TRUE;
}

gboolean
cg_cli_choose_method (const char *given, CgMethod *method, GError **error)
{
  *method = CG_METHOD_AUTO;
  if (given == NULL || cg_method_from_string (given, method))
    return TRUE;
  g_autofree char *names = cg_methods_names ();
  g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "--method=%s: expected %s", given, names);
  return FALSE;
}

gboolean
cg_cli_choose_event (CgGraph *g, const char *name, guint *event, GError **error)
{
  if (cg_graph_n_events (g) == 0)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED, "the profile has no events");
      return FALSE;
    }
  if (name == NULL)
    {
      *event = 0;
      return TRUE;
    }
  gint e = cg_graph_find_event (g, name);
  if (e < 0)
    {
      g_autoptr (GString) known = g_string_new (NULL);
      for (guint i = 0; i < cg_graph_n_events (g); i++)
        g_string_append_printf (known, "%s%s", i ? ", " : "", cg_graph_event_name (g, i));
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "--event=%s: the profile has no such event (it has %s)",
                   name, known->str);
      return FALSE;
    }
  *event = (guint) e;
  return TRUE;
}

static void
warn_to_stderr (const char *message, gpointer user_data)
{
  g_autofree char *line = g_strdup_printf ("%s: warning: %s", g_get_prgname (), message);
  cg_progress_line_message (user_data, line);
}

void
cg_cli_warn_costs (const CgCosts *costs)
{
  const char *w;
  for (guint i = 0; (w = cg_costs_warning (costs, i)) != NULL; i++)
    warn_to_stderr (w, NULL);
}

/* TRUE when a source of @profile (nullable) is in one of @formats. */
static gboolean
has_source_in (CgProfile *profile, const char *const *formats)
{
  for (guint i = 0; profile && i < cg_profile_n_sources (profile); i++)
    {
      const char *format = cg_profile_source (profile, i)->format;
      for (guint k = 0; format && formats[k]; k++)
        if (strcmp (format, formats[k]) == 0)
          return TRUE;
    }
  return FALSE;
}

static gboolean
in_list (const char *format, const char *const *formats)
{
  for (guint k = 0; formats[k]; k++)
    if (strcmp (format, formats[k]) == 0)
      return TRUE;
  return FALSE;
}

/* Whether an input of @read (CgInputRead, nullable) was read as one of
 * @formats (names of cg-formats.h's table). */
static gboolean
read_as (const GArray *read, const char *const *formats)
{
  for (guint i = 0; read && i < read->len; i++)
    if (in_list (g_array_index (read, CgInputRead, i).format, formats))
      return TRUE;
  return FALSE;
}

/* An option of some input formats only, given where no input (nor the
 * base, nullable) is in one of them, would do nothing: a usage error
 * (CG_ERROR_USAGE) that names the first input and its format, rather
 * than a result that the user takes for the option's (cgmerge
 * --executable=prog callgrind.out.1 read the file as it would without).
 * --static-calls applies to cgtools XML made from gmon.out files too
 * (cg_read_finish scans their executable, --executable's if given);
 * otherwise --executable symbolises addresses as they are read, and
 * --split and --kernel shape perf samples so: these apply only to the
 * inputs read as their formats (@read, @base_read: CgInputRead), not to
 * cgtools XML made from them before; where some inputs are and others are
 * not, a warning names the first of the others. */
static gboolean
check_options_apply (const CgCliCommon *common, CgProfile *profile, const GArray *read, CgProfile *base,
                     const GArray *base_read, GError **error)
{
  static const char *const gmon[] = { "gmon", NULL }, *const gmon_amon[] = { "gmon", "amon", "gperftools", NULL },
                           *const gmon_amon_read[] = { "gmon.out", "amon.out", "gperftools", NULL },
                           *const gmon_read[] = { "gmon.out", NULL },
                           *const perf[] = { "perf.data", "perf script", NULL },
                           *const perf_sources[] = { "perf", "perf.data", NULL },
                           *const stacks[] = { "perf.data", "perf script", "folded stacks", NULL },
                           *const stacks_sources[] = { "perf", "perf.data", "folded", NULL };
  /* the static-call scan of cgtools XML made from gmon.out files */
  gboolean scan = common->static_calls && (has_source_in (profile, gmon) || has_source_in (base, gmon));
  const struct {
    gboolean given;
    const char *option, *inputs;
    const char *const *formats;
    gboolean as_read; /* judged by the formats the inputs were read as, not their sources */
    gboolean xml_too; /* and applies to cgtools XML as well */
    const char *const *sources; /* cgtools XML made from these was read with the option before */
    const char *earlier;
  } rules[] = {
    { common->executable != NULL, "--executable", "gmon.out, amon.out and gperftools inputs", gmon_amon_read, TRUE,
      scan, gmon_amon, "whose addresses were symbolised when it was made: give the option to the cgmerge that reads the"
      " gmon.out, amon.out or gperftools file" },
    { common->static_calls, "--static-calls", "gmon.out inputs", gmon, FALSE, FALSE, NULL, NULL },
    { common->symbols != NULL, "--symbols", "gmon.out inputs", gmon_read, TRUE, FALSE, gmon,
      "whose addresses were given to functions when it was made: give the option to the cgmerge that reads the"
      " gmon.out" },
    { common->split != NULL, "--split", "perf inputs (perf.data, perf script)", perf, TRUE, FALSE, perf_sources,
      "whose perf samples were read before: give the option to the cgmerge that reads the perf data" },
    { common->kernel != NULL, "--kernel", "perf inputs (perf.data, perf script) and folded stacks", stacks, TRUE,
      FALSE, stacks_sources, "whose samples were read before: give the option to the cgmerge that reads them" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    {
      if (!rules[i].given)
        continue;
      if (rules[i].as_read
              ? rules[i].xml_too || read_as (read, rules[i].formats) || read_as (base_read, rules[i].formats)
              : has_source_in (profile, rules[i].formats) || has_source_in (base, rules[i].formats))
        {
          for (guint k = 0; rules[i].as_read && read && k < read->len; k++)
            {
              const CgInputRead *r = &g_array_index (read, CgInputRead, k);
              if (!in_list (r->format, rules[i].formats)
                  && !(rules[i].xml_too && strcmp (r->format, "cgtools XML") == 0))
                {
                  g_autofree char *w = g_strdup_printf ("%s applies to %s: %s (%s) is read without it", rules[i].option,
                                                        rules[i].inputs, r->name, r->format);
                  warn_to_stderr (w, common->progress);
                  break;
                }
            }
          continue;
        }
      const CgInputRead *first = read && read->len > 0 ? &g_array_index (read, CgInputRead, 0) : NULL;
      const CgSource *source = cg_profile_n_sources (profile) > 0 ? cg_profile_source (profile, 0) : NULL;
      const char *path = first ? first->name : source && source->path ? source->path : "the input";
      const char *format = first ? first->format : source && source->format ? source->format : "no profile";
      /* cgtools XML of such inputs: the option was the earlier reading's */
      gboolean before = rules[i].sources && has_source_in (profile, rules[i].sources);
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "%s applies to %s, and no input is one (%s: %s%s%s)",
                   rules[i].option, rules[i].inputs, path, format, before ? ", " : "", before ? rules[i].earlier : "");
      return FALSE;
    }
  return TRUE;
}

static CgProfile *read_inputs (CgCliCommon *common, GArray *read, GError **error);

CgProfile *
cg_cli_read_inputs (CgCliCommon *common, GError **error)
{
  g_autoptr (GArray) read = cg_inputs_read_new ();
  g_autoptr (CgProfile) profile = read_inputs (common, read, error);
  if (profile == NULL || !check_options_apply (common, profile, read, NULL, NULL, error))
    return NULL;
  return g_steal_pointer (&profile);
}

static CgProfile *
read_inputs (CgCliCommon *common, GArray *read, GError **error)
{
  static const char *const splits[] = { "comm", "none", "pid", "tid", NULL };
  static const char *const kernels[] = { "keep", "drop", "annotate", NULL };
  static const char *const choices[] = { "gprof", "all", NULL };
  guint split, kernel, choice;
  if (!cg_cli_choose ("split", common->split, splits, &split, error)
      || !cg_cli_choose ("kernel", common->kernel, kernels, &kernel, error)
      || !cg_cli_choose ("symbols", common->symbols, choices, &choice, error))
    return NULL;
  if (common->input_format && cg_formats_lookup (common->input_format) == NULL)
    {
      g_autofree char *list = cg_formats_names ();
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE,
                   "--input-format=%s: expected one of %s (blanks written '-': folded-stacks), or the first"
                   " word of one",
                   common->input_format, list);
      return NULL;
    }
  g_autoptr (CgProfile) profile = cg_profile_new ();
  g_autoptr (CgSymbolsCache) symbols = cg_symbols_cache_new ();
  g_autoptr (CgElfCache) elf = cg_elf_cache_new ();
  /* the tool's options live as long as the tool: the line with them */
  CgCliCommon *tool = common;
  if (tool->progress == NULL && !common->quiet && isatty (STDERR_FILENO)
      && g_strcmp0 (g_getenv ("TERM"), "dumb") != 0)
    tool->progress = cg_progress_line_new (stderr);
  g_autoptr (CgInputWarnings) warnings = cg_input_warnings_new (tool->progress);
  CgReadOptions options = { .lenient = common->lenient, .warn = cg_input_warnings_warn, .warn_data = warnings,
                            .executable = common->executable, .symbols = symbols, .elf = elf,
                            .static_calls = common->static_calls, .input_format = common->input_format,
                            .inputs_read = read,
                            /* the choices' order is the enums' */
                            .split = (CgSplit) split, .kernel = (CgKernelFrames) kernel,
                            .symbol_choice = (CgSymbolChoice) choice, .symbols_chosen = common->symbols != NULL };
  if (tool->progress)
    {
      options.progress = cg_progress_line_read;
      options.progress_data = tool->progress;
    }
  gboolean ok = TRUE;
  guint n_files = common->files ? g_strv_length (common->files) : 0, n_empty = 0;
  /* one of several inputs may be empty, not all */
  options.n_skipped_empty = n_files > 1 ? &n_empty : NULL;
  if (n_files == 0 && isatty (STDIN_FILENO))
    {
      /* a profile is not typed in: waiting silently would look like a hang
       * (gzip refuses a terminal too); '-' still reads it */
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE,
                   "no input: give a profile FILE (callgrind.out.PID, gmon.out, amon.out, cgtools XML),"
                   " or pipe one in; '-' reads the terminal.  See --help");
      return NULL;
    }
  if (n_files == 0)
    ok = cg_read_file (profile, NULL, &options, error);
  for (guint i = 0; ok && i < n_files; i++)
    {
      cg_input_warnings_set_input (warnings, common->files[i]);
      ok = cg_read_file (profile, common->files[i], &options, error);
    }
  cg_input_warnings_set_input (warnings, NULL);
  if (ok && n_files > 1 && n_empty == n_files)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "all %u inputs are empty", n_files);
      ok = FALSE;
    }
  ok = ok && cg_read_finish (profile, &options, error);
  if (ok)
    cg_input_warnings_finish (warnings);
  /* what the tool does next (costs, a tree) may take as long */
  if (ok && tool->progress)
    cg_progress_line_phase (tool->progress, "computing");
  return ok ? g_steal_pointer (&profile) : NULL;
}

typedef struct {
  CgProfile *profile;
  CgMethod method;
  const CgCosts *costs;
  GError *error;
} BaseCost;

static gpointer
cost_base (gpointer data)
{
  BaseCost *job = data;
  job->costs = cg_method_ensure (job->profile, job->method, &job->error);
  return NULL;
}

/* The base of --base, read on a thread of its own: its options are the
 * tool's, its inputs and progress line aside. */
typedef struct {
  CgCliCommon common;
  char *files[2];
  CgProfile *profile;
  GArray *read;
  GError *error;
} BaseRead;

static gpointer
read_base (gpointer data)
{
  BaseRead *r = data;
  r->profile = read_inputs (&r->common, r->read, &r->error);
  return NULL;
}

CgProfile *
cg_cli_read_inputs_and_base (CgCliCommon *common, const char *base_path, CgProfile **base, GError **error)
{
  g_autoptr (GArray) read = cg_inputs_read_new (), base_read = cg_inputs_read_new ();
  BaseRead r = { *common, { (char *) base_path, NULL }, NULL, base_read, NULL };
  r.common.files = r.files;
  /* two builds' gmon.out files: each read with its own executable */
  if (common->base_executable)
    r.common.executable = common->base_executable;
  r.common.progress = NULL; /* one progress line, the inputs' */
  r.common.quiet = TRUE;
  /* both from standard input cannot be read at once (nor at all) */
  gboolean parallel = strcmp (base_path, "-") != 0;
  cg_read_init ();
  GThread *thread = parallel ? g_thread_new ("cg-base", read_base, &r) : NULL;
  g_autoptr (GError) own = NULL;
  g_autoptr (CgProfile) profile = read_inputs (common, read, &own);
  if (thread)
    g_thread_join (thread);
  else if (profile)
    read_base (&r);
  g_autoptr (CgProfile) b = r.profile;
  g_autoptr (GError) base_error = r.error;
  /* the inputs' error first, as when they were read first */
  if (profile == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&own));
      return NULL;
    }
  if (b == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&base_error));
      return NULL;
    }
  /* an option need apply to the inputs or to the base only */
  if (!check_options_apply (common, profile, read, b, base_read, error))
    return NULL;
  static const char *const gmon_amon_read[] = { "gmon.out", "amon.out", "gperftools", NULL };
  if (common->base_executable && !read_as (base_read, gmon_amon_read))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE,
                   "--base-executable applies to a base that is a gmon.out, amon.out or gperftools file, and %s is %s",
                   base_path, base_read->len > 0 ? g_array_index (base_read, CgInputRead, 0).format : "none");
      return NULL;
    }
  *base = g_steal_pointer (&b);
  return g_steal_pointer (&profile);
}

/* The base's one event of time where the new profile's event @new_event
 * is a time under another name, else -1.  Profilers name their clocks
 * differently (gmon.out's "time", amon.out's "cpu-time", perf's
 * "cpu-clock" in ns, Xdebug's "Time_(10ns)" or, before 3.2,
 * "Time_(µs)"), and a second of either is a second of the program's run:
 * a user comparing a gprof run with a libamon or perf run, or two Xdebug
 * versions' runs, expects them compared (cg_diff_new brings the units
 * together), and the views say which two events were. */
static gint
same_time_event (CgGraph *bg, CgGraph *ng, guint new_event)
{
  if (cg_time_unit_seconds (cg_graph_event_unit (ng, new_event)) == 0)
    return -1;
  gint found = -1;
  for (guint e = 0; e < cg_graph_n_events (bg); e++)
    if (cg_time_unit_seconds (cg_graph_event_unit (bg, e)) > 0)
      {
        if (found >= 0)
          return -1; /* which one would be a guess */
        found = (gint) e;
      }
  return found;
}

CgDiff *
cg_cli_diff (const CgCliCommon *common, const char *base_path, CgProfile *profile, CgMethod method,
             const char *event_name, const CgDiffOptions *options, CgProfile **base, GError **error)
{
  CgCliCommon one = *common;
  char *files[] = { (char *) base_path, NULL };
  one.files = files;
  g_autoptr (CgProfile) b = *base ? g_steal_pointer (base) : cg_cli_read_inputs (&one, error);
  if (b == NULL)
    return NULL;
  CgGraph *ng = cg_profile_graph (profile), *bg = cg_profile_graph (b);
  guint new_event, base_event;
  if (!cg_cli_choose_event (ng, event_name, &new_event, error))
    return NULL;
  gint e = cg_graph_find_event (bg, cg_graph_event_name (ng, new_event));
  if (e < 0)
    e = same_time_event (bg, ng, new_event);
  if (e < 0)
    {
      /* the units too: two profilers' events of one name are rare, and
       * "seconds against samples" says why no other event would do */
      gboolean any = cg_graph_n_events (bg) > 0;
      g_set_error (error, CG_ERROR, CG_ERROR_MISMATCH,
                   "%s: the base has no event %s (in %s) to compare with (it has %s%s%s%s%s)", base_path,
                   cg_graph_event_name (ng, new_event), cg_graph_event_unit (ng, new_event),
                   any ? cg_graph_event_name (bg, 0) : "none", any ? " in " : "",
                   any ? cg_graph_event_unit (bg, 0) : "", cg_graph_n_events (bg) > 1 ? ", ..." : "",
                   any && strcmp (cg_graph_event_unit (bg, 0), cg_graph_event_unit (ng, new_event)) != 0
                       ? ": profiles in different units cannot be compared" : "");
      return NULL;
    }
  base_event = (guint) e;
  CgMethod both;
  if (!cg_method_resolve_both (b, profile, method, &both, error))
    return NULL;
  /* the two costings are independent: the base's on a thread */
  BaseCost job = { b, both, NULL, NULL };
  GThread *thread = g_thread_new ("cg-base-costs", cost_base, &job);
  g_autoptr (GError) own = NULL;
  const CgCosts *nc = cg_method_ensure (profile, both, &own);
  g_thread_join (thread);
  const CgCosts *bc = job.costs;
  if (bc == NULL)
    {
      g_propagate_error (error, job.error);
      return NULL;
    }
  if (nc == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&own));
      return NULL;
    }
  CgDiff *d = cg_diff_new (b, bc, base_event, profile, nc, new_event, options, error);
  if (d == NULL)
    {
      g_prefix_error (error, "%s: ", base_path);
      return NULL;
    }
  *base = g_steal_pointer (&b);
  return d;
}

gboolean
cg_cli_write (CgCliCommon *common, CgCliWriteFunc write, gpointer data, GError **error)
{
  gboolean to_stdout = common->output == NULL || strcmp (common->output, "-") == 0;
  /* output on the terminal itself: the line would mix with it */
  if (common->progress && to_stdout && isatty (STDOUT_FILENO))
    g_clear_pointer ((CgProgressLine **) &common->progress, cg_progress_line_free);
  if (common->progress)
    cg_progress_line_writing (common->progress, to_stdout ? "<stdout>" : common->output, -1);
  g_autoptr (CgOutput) out = cg_output_open (common->output, error);
  if (out == NULL)
    return FALSE;
  FILE *stream = cg_output_stream (out);
  if (common->progress)
    cg_progress_line_writing (common->progress, cg_output_name (out), fileno (stream));
  gboolean ok = write (stream, cg_output_name (out), data, error) && cg_output_commit (out, error);
  g_clear_pointer ((CgProgressLine **) &common->progress, cg_progress_line_free);
  return ok;
}

/* Whether short option @c of @entries (NULL-terminated) takes a value. */
static gboolean
takes_value (const GOptionEntry *entries, char c)
{
  for (const GOptionEntry *e = entries; e && e->long_name; e++)
    if (e->short_name == c)
      return e->arg != G_OPTION_ARG_NONE && !(e->flags & (G_OPTION_FLAG_NO_ARG | G_OPTION_FLAG_OPTIONAL_ARG));
  return FALSE;
}

/* @argv with each value attached to a short option (-t0, -qoFILE), which
 * getopt accepts and GOption does not, split off into its own argument
 * (-t 0, -qo FILE); options end at "--".  The strings are @argv's. */
static GPtrArray *
split_attached (int argc, char **argv, const GOptionEntry *common, const GOptionEntry *own)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  gboolean options_end = FALSE;
  for (int i = 0; i < argc; i++)
    {
      const char *a = argv[i];
      options_end |= strcmp (a, "--") == 0;
      gsize j = 1; /* in a cluster of short options, the first that takes a value */
      gboolean cluster = i > 0 && !options_end && a[0] == '-' && a[1] != '-' && a[1] != '\0';
      while (cluster && a[j] && !takes_value (common, a[j]) && !takes_value (own, a[j]))
        j++;
      if (cluster && a[j] && a[j + 1])
        {
          g_ptr_array_add (out, g_strndup (a, j + 1));
          g_ptr_array_add (out, g_strdup (a + j + 1));
        }
      else
        g_ptr_array_add (out, g_strdup (a));
    }
  g_ptr_array_add (out, NULL);
  return out;
}

/* --help's width: a terminal's, and what a mail or a man page holds. */
#define HELP_WIDTH 80

/* Appends @text's words to @out, folding at @width columns and indenting
 * the lines after the first by @indent; @col is where @text begins. */
static void
fold_words (GString *out, const char *text, gsize col, gsize indent, gsize width)
{
  g_auto (GStrv) words = g_strsplit (text, " ", -1);
  gboolean first = TRUE;
  for (guint i = 0; words[i]; i++)
    {
      if (*words[i] == '\0')
        continue;
      gsize len = (gsize) g_utf8_strlen (words[i], -1);
      if (!first && col + 1 + len > width)
        {
          g_string_append_c (out, '\n');
          g_string_append_printf (out, "%*s", (int) indent, "");
          col = indent;
        }
      else if (!first)
        {
          g_string_append_c (out, ' ');
          col++;
        }
      g_string_append (out, words[i]);
      col += len;
      first = FALSE;
    }
}

guint
cg_cli_text_width (gint width, FILE *stream)
{
  if (width >= 0)
    return (guint) width;
  if (!isatty (fileno (stream)))
    return 0;
  struct winsize ws;
  if (ioctl (fileno (stream), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return ws.ws_col;
  const char *columns = g_getenv ("COLUMNS");
  guint64 n;
  if (columns && g_ascii_string_to_unsigned (columns, 10, 1, 10000, &n, NULL))
    return (guint) n;
  return 80;
}

GString *
cg_cli_fold_help (const char *help, gsize width)
{
  GString *out = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (help, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      const char *line = lines[i];
      if (i > 0)
        g_string_append_c (out, '\n');
      if ((gsize) g_utf8_strlen (line, -1) <= width)
        {
          g_string_append (out, line);
          continue;
        }
      gsize lead = strspn (line, " ");
      /* an indented line of two columns (an option, a format): its
       * description goes on in its own column, after the run of blanks
       * that ends the name */
      const char *gap = lead > 0 ? strstr (line + lead, "  ") : NULL;
      gsize start = gap ? (gsize) (gap - line) + strspn (gap, " ") : lead;
      gsize indent = start < width / 2 ? start : lead + 4;
      g_string_append_len (out, line, (gssize) start);
      fold_words (out, line + start, start, indent, width);
    }
  return out;
}

/* Ends the process as a write to a closed pipe ends a filter that does not
 * catch SIGPIPE (status 128 + 13 in a shell), so that a pipeline's status
 * tells "the reader stopped" from "the data was bad".  Returns only when
 * SIGPIPE is blocked, as a write would have. */
static void
end_by_sigpipe (void)
{
  fflush (stderr);
  signal (SIGPIPE, SIG_DFL);
  raise (SIGPIPE);
}

int
cg_cli_main (int argc, char **argv, const CgCliSpec *spec, CgCliCommon *common, gpointer options)
{
  /* the character set only (numbers stay in the C locale): where it is
   * UTF-8, a cut name's mark is "…", one column where "..." takes three */
  setlocale (LC_CTYPE, "");
  g_autoptr (GString) format_names = g_string_new (NULL);
  for (const CgCliFormat *f = spec->formats; f->name; f++)
    g_string_append_printf (format_names, "%s%s", f == spec->formats ? "" : "|", f->name);
  g_autofree char *format_help = g_strdup_printf ("Output format: %s (default %s)", format_names->str,
                                                  spec->formats->name);
  /* the short options that all four tools share; a tool's own short
   * options mean one thing across the tools too (the table in cgcost(1)),
   * and --quiet has no short form, since -q is gprof's call graph */
  GOptionEntry common_entries[] = {
    { "help", 'h', 0, G_OPTION_ARG_NONE, &common->help, "Show this help", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &common->output,
      "Write to FILE (atomically) instead of standard output", "FILE" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &common->format, format_help, "FORMAT" },
    { "brief", 'b', 0, G_OPTION_ARG_NONE, &common->brief,
      "Views: the table alone, without the lines that explain it (gprof -b)", NULL },
    { "executable", 0, 0, G_OPTION_ARG_FILENAME, &common->executable,
      "gmon.out inputs: the profiled executable (default a.out, as gprof); amon.out inputs: names the routines"
      " it left unnamed; gperftools inputs: read in place of the mapped file of its name (else the program's)",
      "EXE" },
    { "static-calls", 'c', 0, G_OPTION_ARG_NONE, &common->static_calls,
      "gmon.out inputs: add the calls found in the executable's code, with count 0 (gprof -c)", NULL },
    { "symbols", 0, 0, G_OPTION_ARG_STRING, &common->symbols,
      "gmon.out inputs: which symbols are functions: gprof's choice (the default), or all, gcc's clones and"
      " split parts (NAME.isra.0, NAME.part.0, NAME.cold) among them",
      "gprof|all" },
    { "lenient", 0, 0, G_OPTION_ARG_NONE, &common->lenient,
      "Warn about inconsistent input (totals that do not add up, unknown lines) instead of failing",
      NULL },
    { "split", 0, 0, G_OPTION_ARG_STRING, &common->split,
      "perf samples: a root frame per command (comm, the default), per process (pid), per thread (tid), or none",
      "none|comm|pid|tid" },
    { "kernel", 0, 0, G_OPTION_ARG_STRING, &common->kernel,
      "perf samples and folded stacks: keep kernel frames (the default), drop them, or keep them named NAME_[k] (annotate)",
      "keep|drop|annotate" },
    { "input-format", 0, 0, G_OPTION_ARG_STRING, &common->input_format,
      "Read every input as this format (folded-stacks, perf-script, callgrind...), not the one told from its"
      " first bytes",
      "NAME" },
    { "quiet", 0, 0, G_OPTION_ARG_NONE, &common->quiet, "Show no progress line on a terminal", NULL },
    { "version", 'V', 0, G_OPTION_ARG_NONE, &common->version, "Print the version and exit", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &common->files, NULL, NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  /* a closed pipe is seen as a write error, so that a temporary file is
   * removed and nothing half-done is left; the tool then ends by SIGPIPE
   * all the same (below), as cat(1) does */
  signal (SIGPIPE, SIG_IGN);
  g_autofree char *prgname = g_path_get_basename (argv[0]);
  g_set_prgname (prgname);

  g_autoptr (GOptionContext) ctx = g_option_context_new (spec->parameters);
  /* --help is ours, to fold its lines into 80 columns */
  g_option_context_set_help_enabled (ctx, FALSE);
  g_option_context_set_summary (ctx, spec->summary);
  g_autoptr (GString) description = g_string_new (spec->description);
  g_string_append (description, "\n\nOutput formats (--format):\n");
  for (const CgCliFormat *f = spec->formats; f->name; f++)
    g_string_append_printf (description, "  %-14s %s\n", f->name, f->summary);
  g_string_truncate (description, description->len - 1);
  if (spec->methods)
    {
      guint n;
      const CgMethodInfo *methods = cg_methods (&n);
      g_string_append (description, "\n\nCost methods (--method; auto, the default, takes the first the data allow):\n");
      for (guint i = 0; i < n; i++)
        g_string_append_printf (description, "  %-14s %s%s\n", methods[i].name, methods[i].summary,
                                methods[i].preferred ? "" : " (by name only)");
      g_string_truncate (description, description->len - 1);
    }
  if (spec->input_formats)
    {
      guint n;
      const CgFormatInfo *formats = cg_formats (&n);
      g_string_append (description, "\n\nInput formats, told from the content, plain or gzip/xz/zstd/bzip2 (cgmerge(1)):\n");
      for (guint i = 0; i < n; i++)
        g_string_append_printf (description, "  %-14s %s\n", formats[i].name, formats[i].summary);
      g_string_truncate (description, description->len - 1);
    }
  g_option_context_set_description (ctx, description->str);
  /* a tool's own short option wins (cgcost's -q is gprof's) */
  for (GOptionEntry *e = common_entries; e->long_name; e++)
    for (const GOptionEntry *own = spec->entries; own && own->long_name && e->short_name; own++)
      if (own->short_name == e->short_name)
        e->short_name = 0;
  /* callbacks get the tool's options */
  GOptionGroup *main_group = g_option_group_new (NULL, NULL, NULL, options, NULL);
  g_option_group_add_entries (main_group, common_entries);
  if (spec->entries)
    g_option_group_add_entries (main_group, spec->entries);
  g_option_context_set_main_group (ctx, main_group);

  g_autoptr (GPtrArray) args = split_attached (argc, argv, common_entries, spec->entries);
  /* GOption rearranges the array it is given: keep ours to free it */
  g_autofree char **view = g_memdup2 (args->pdata, args->len * sizeof (char *));
  int n_args = (int) args->len - 1;
  GError *error = NULL;
  int status = 0;
  gboolean closed = FALSE;
  if (!g_option_context_parse (ctx, &n_args, &view, &error))
    {
      fprintf (stderr, "%s: %s\nTry '%s --help' for more information.\n", g_get_prgname (),
               error->message, g_get_prgname ());
      status = 2;
    }
  else if (common->help)
    {
      g_autofree char *help = g_option_context_get_help (ctx, TRUE, NULL);
      g_autoptr (GString) folded = cg_cli_fold_help (help, HELP_WIDTH);
      fputs (folded->str, stdout);
    }
  else if (common->version)
    printf ("%s (%s)\n", g_get_prgname (), PACKAGE_STRING);
  else if (!spec->run (options, &error))
    {
      g_clear_pointer ((CgProgressLine **) &common->progress, cg_progress_line_free);
      closed = g_error_matches (error, CG_ERROR, CG_ERROR_CLOSED);
      if (!closed)
        fprintf (stderr, "%s: %s\n", g_get_prgname (), error->message);
      status = cg_cli_exit_status (error);
    }
  g_clear_pointer ((CgProgressLine **) &common->progress, cg_progress_line_free);
  g_clear_error (&error);
  g_clear_pointer (&common->output, g_free);
  g_clear_pointer (&common->format, g_free);
  g_clear_pointer (&common->files, g_strfreev);
  g_clear_pointer (&common->executable, g_free);
  g_clear_pointer (&common->base_executable, g_free);
  g_clear_pointer (&common->split, g_free);
  g_clear_pointer (&common->kernel, g_free);
  g_clear_pointer (&common->symbols, g_free);
  g_clear_pointer (&common->input_format, g_free);
  int lost = ferror (stdout) ? cg_output_lost_errno (stdout) : EIO;
  errno = 0;
  if (fclose (stdout) != 0 && status == 0)
    {
      int e = errno ? errno : lost;
      closed = e == EPIPE;
      if (!closed)
        fprintf (stderr, "%s: <stdout>: write error: %s\n", g_get_prgname (), g_strerror (e));
      status = 1;
    }
  if (closed)
    end_by_sigpipe ();
  return status;
}
