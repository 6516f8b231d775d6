/* cgcycles — find, number and optionally collapse the cycles (strongly
 * connected components) of a call graph.  See cgcycles(1). */
#include "config.h"

#include "cg.h"

typedef struct {
  CgCliCommon common;
  gboolean collapse;
  char *event;
  gboolean no_demangle;
  gint width; /* -1: not given (the terminal's) */
} Options;

typedef struct {
  CgProfile *profile;
  guint event;
  gboolean demangle;
  gboolean brief;
  gboolean collapsed; /* the cycles are nodes <cycle N> already */
  gint width;
} Job;

static gboolean
find_cycles (CgProfile *profile, gpointer data, GError **error)
{
  (void) data;
  (void) error;
  cg_profile_set_cycles (profile, cg_cycles_find (cg_profile_graph (profile), NULL, NULL));
  return TRUE;
}

/* Uncollapsed, the cycles are found while the graph is written: finding
 * them does not change it. */
static gboolean
write_xml (FILE *stream, const char *name, gpointer data, GError **error)
{
  Job *job = data;
  if (job->collapsed)
    return cg_write_xml (job->profile, stream, name, error);
  return cg_write_xml_deriving (job->profile, find_cycles, NULL, stream, name, error);
}

static gboolean
write_text (FILE *stream, const char *name, gpointer data, GError **error)
{
  (void) name;
  Job *job = data;
  guint width = cg_cli_text_width (job->width, stream);
  if (!cg_write_cycles_text (cg_profile_graph (job->profile), cg_profile_cycles (job->profile), job->event,
                             job->demangle, job->brief, width, stream, error))
    return FALSE;
  /* contexts also tell which cycles the run actually went round */
  return cg_profile_contexts (job->profile) == NULL
         || cg_write_traversed_cycles_text (job->profile, job->event, job->demangle, job->brief, width, stream,
                                            error);
}

static const CgCliFormat formats[] = {
  { "xml", "cgtools XML with the cycles (or with each collapsed into <cycle N>)", write_xml },
  { "text", "the list of cycles, and for context profiles those the run went round", write_text },
  { NULL, NULL, NULL },
};

static gboolean
run (gpointer data, GError **error)
{
  Options *o = data;
  const CgCliFormat *format;
  if (!cg_cli_choose_format (o->common.format, formats, &format, error))
    return FALSE;
  if (o->width < -1)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "--width=%d: expected 0 (no limit) or a number of columns",
                   o->width);
      return FALSE;
    }
  g_autoptr (CgProfile) profile = cg_cli_read_inputs (&o->common, error);
  if (profile == NULL)
    return FALSE;
  CgGraph *g = cg_profile_graph (profile);
  Job job = { profile, 0, !o->no_demangle, o->common.brief, FALSE, o->width };
  /* what the input says of costs and cycles is replaced */
  cg_profile_set_costs (profile, NULL);
  cg_profile_set_cycles (profile, NULL);
  if (format->write == write_text)
    {
      /* the list of cycles, which --collapse would turn into nodes */
      cg_profile_set_cycles (profile, cg_cycles_find (g, NULL, NULL));
      if (!cg_cli_choose_event (g, o->event, &job.event, error))
        return FALSE;
    }
  else if (o->collapse)
    {
      if (!cg_collapse_cycles (profile, error))
        return FALSE;
      job.collapsed = TRUE;
    }
  return cg_cli_write (&o->common, format->write, &job, error);
}

int
main (int argc, char **argv)
{
  static Options options = { .width = -1 };
  static const GOptionEntry entries[] = {
    { "collapse", 0, 0, G_OPTION_ARG_NONE, &options.collapse,
      "Replace each cycle by one function <cycle N> (gprof's view)", NULL },
    { "event", 'e', 0, G_OPTION_ARG_STRING, &options.event, "Event for the text form (default: the first)",
      "NAME" },
    { "no-demangle", 0, 0, G_OPTION_ARG_NONE, &options.no_demangle,
      "Text: print C++ and Rust names as the linker sees them, not demangled", NULL },
    { "width", 'w', 0, G_OPTION_ARG_INT, &options.width,
      "Text: fit lines in N columns, cutting long names in the middle (default: the terminal's width; 0 or a"
      " pipe: no limit)", "N" },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  static const CgCliSpec spec = {
    .parameters = "[FILE...]",
    .summary = "Find the cycles (strongly connected components) of a call graph and number\n"
               "them as gprof does.",
    .description = "Reads cgtools XML or any profile cgmerge reads; writes the profile with its\n"
                   "cycles.  "
                   "A function that only calls itself is self-recursive, not a cycle.",
    .formats = formats,
    .entries = entries,
    .run = run,
  };
  return cg_cli_main (argc, argv, &spec, &options.common, &options);
}
