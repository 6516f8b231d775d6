/* cgtree — Kaes's display tree of a call graph.  See cgtree(1). */
#include "config.h"

#include <stdlib.h>

#include "cg.h"

typedef struct {
  CgCliCommon common;
  char *method;
  char *event;
  gdouble threshold;
  gint max_depth;
} Options;

typedef struct {
  CgProfile *profile;
  CgCosts *costs;
  CgDisplayTree *tree;
  CgTreeTextOptions text;
} Job;

static gboolean
write_text (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  Job *job = data;
  return cg_write_tree_text (job->profile, job->costs, job->tree, &job->text, stream, error);
}

static gboolean
run (gpointer data, GError **error)
{
  Options *o = data;
  static const char *const formats[] = { "text", NULL };
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
  if (!(o->threshold >= 0 && o->threshold <= 100))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "--threshold=%g: expected a percentage from 0 to 100",
                   o->threshold);
      return FALSE;
    }
  if (o->max_depth < 0)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "--max-depth=%d: expected 0 (no limit) or more", o->max_depth);
      return FALSE;
    }
  g_autoptr (CgProfile) profile = cg_cli_read_inputs (&o->common, error);
  if (profile == NULL)
    return FALSE;
  Job job = { profile, NULL, NULL, { 0, o->threshold, (guint) o->max_depth } };
  CgGraph *g = cg_profile_graph (profile);
  if (!cg_cli_choose_event (g, o->event, &job.text.event, error))
    return FALSE;
  job.costs = cg_method_ensure (profile, method, error);
  if (job.costs == NULL)
    return FALSE;
  if (cg_profile_cycles (profile) == NULL)
    cg_profile_set_cycles (profile, cg_cycles_find (g, NULL, NULL));
  g_autoptr (CgDisplayTree) tree = cg_display_tree_new (g, job.costs, job.text.event);
  job.tree = tree;
  return cg_cli_write (&o->common, write_text, &job, error);
}

int
main (int argc, char **argv)
{
  static Options options = { .threshold = 1.0 };
  static const GOptionEntry entries[] = {
    { "threshold", 't', 0, G_OPTION_ARG_DOUBLE, &options.threshold,
      "Hide lines below PCT percent of the total (default 1; 0 shows all)", "PCT" },
    { "max-depth", 'd', 0, G_OPTION_ARG_INT, &options.max_depth, "Show at most N levels (default 0: all)", "N" },
    { "method", 'm', 0, G_OPTION_ARG_STRING, &options.method,
      "Cost method when the input has no costs (default auto)", "METHOD" },
    { "event", 'e', 0, G_OPTION_ARG_STRING, &options.event, "Event to show (default: the first)", "NAME" },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  static const CgCliSpec spec = {
    .parameters = "[FILE...]",
    .summary = "Show a call graph as Kaes's display tree: each function under each of its callers,\n"
               "its callees under the caller that costs most.",
    .description = "Reads cgtools XML or any profile cgmerge reads; computes costs when the input has none.",
    .formats = "text",
    .entries = entries,
    .run = run,
  };
  return cg_cli_main (argc, argv, &spec, &options.common, &options);
}
