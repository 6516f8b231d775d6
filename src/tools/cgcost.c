/* cgcost — self and total costs per function and arc, by a chosen method.
 * See cgcost(1). */
#include "config.h"

#include "cg.h"

typedef struct {
  CgCliCommon common;
  char *method;
  char *event;
  gboolean arcs;
} Options;

typedef enum { FORMAT_XML, FORMAT_TEXT, FORMAT_TSV, FORMAT_FOLDED } Format;

typedef struct {
  CgProfile *profile;
  CgCosts *costs;
  guint event;
  gboolean arcs;
} Job;

static gboolean
write_tsv (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  (void) error;
  Job *job = data;
  cg_write_tsv (cg_profile_graph (job->profile), job->costs, job->event, job->arcs, stream);
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
  return cg_write_profile_text (job->profile, job->costs, job->event, stream, error);
}

static gboolean
write_xml (FILE *stream, const char *name, gpointer data, GError **error)
{
  Job *job = data;
  return cg_write_xml (job->profile, stream, name, error);
}

static gboolean
run (gpointer data, GError **error)
{
  Options *o = data;
  static const char *const formats[] = { "xml", "text", "tsv", "folded", NULL };
  guint format;
  CgMethod method = CG_METHOD_AUTO;
  if (!cg_cli_choose ("format", o->common.format, formats, &format, error))
    return FALSE;
  if (o->method && !cg_method_from_string (o->method, &method))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE,
                   "--method=%s: expected one of auto|measured|exact|gprof|decompose", o->method);
      return FALSE;
    }
  if (o->arcs && format != FORMAT_TSV)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "--arcs applies to --format=tsv only");
      return FALSE;
    }
  g_autoptr (CgProfile) profile = cg_cli_read_inputs (&o->common, error);
  if (profile == NULL)
    return FALSE;
  Job job = { profile, NULL, 0, o->arcs };
  if (!cg_cli_choose_event (cg_profile_graph (profile), o->event, &job.event, error))
    return FALSE;
  if (format == FORMAT_FOLDED)
    {
      /* the stacks themselves: no method is involved */
      if (cg_profile_tree (profile) == NULL)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED,
                       "--format=folded needs whole stacks, and this profile has no call tree "
                       "(read folded stacks, or data with stacks)");
          return FALSE;
        }
      return cg_cli_write (&o->common, write_folded, &job, error);
    }
  /* costs already in the input are reused when they were made by the
   * method asked for */
  job.costs = cg_method_ensure (profile, method, error);
  if (job.costs == NULL)
    return FALSE;
  if (format == FORMAT_TEXT && cg_profile_cycles (profile) == NULL)
    cg_profile_set_cycles (profile, cg_cycles_find (cg_profile_graph (profile), NULL, NULL));
  switch ((Format) format)
    {
    case FORMAT_TSV:
      return cg_cli_write (&o->common, write_tsv, &job, error);
    case FORMAT_TEXT:
      return cg_cli_write (&o->common, write_text, &job, error);
    case FORMAT_XML:
    default:
      return cg_cli_write (&o->common, write_xml, &job, error);
    }
}

int
main (int argc, char **argv)
{
  static Options options;
  static const GOptionEntry entries[] = {
    { "method", 'm', 0, G_OPTION_ARG_STRING, &options.method,
      "Cost method: auto (default), measured, exact, gprof or decompose", "METHOD" },
    { "event", 'e', 0, G_OPTION_ARG_STRING, &options.event,
      "Event to report in text and tsv (default: the first)", "NAME" },
    { "arcs", 'a', 0, G_OPTION_ARG_NONE, &options.arcs,
      "With --format=tsv: one row per arc (caller, callee, calls, inclusive)", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  static const CgCliSpec spec = {
    .parameters = "[FILE...]",
    .summary = "Compute self and total (inclusive) costs per function and per arc.",
    .description = "Methods: 'measured' sums callgrind's measured inclusive costs, exact under recursion thanks to\n"
                   "callgrind's recursion split; 'exact' applies Kaes's Min_E rule to a call tree (folded stacks);\n"
                   "'decompose' estimates arc-only data as gprof2dot does (linear decomposition inside cycles);\n"
                   "'auto' picks the best method the data allows: exact, measured, else decompose.\n"
                   "The tsv form is a fixed contract for scripts: function, calls, self, total.\n"
                   "The folded form writes the call tree's stacks for flame graphs.",
    .formats = "xml|text|tsv|folded",
    .entries = entries,
    .run = run,
  };
  return cg_cli_main (argc, argv, &spec, &options.common, &options);
}
