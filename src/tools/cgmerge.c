/* cgmerge — read profiles in any supported format and write their sum as
 * cgtools XML.  See cgmerge(1). */
#include "config.h"

#include "cg.h"

typedef struct {
  CgCliCommon common;
  gboolean no_demangle;
} Options;

typedef struct {
  CgProfile *profile;
  gboolean demangle;
  gboolean brief;
} Job;

static gboolean
write_xml (FILE *stream, const char *name, gpointer data, GError **error)
{
  Job *job = data;
  return cg_write_xml (job->profile, stream, name, error);
}

static gboolean
write_text (FILE *stream, const char *name, gpointer data, GError **error)
{
  Job *job = data;
  (void) name;
  return cg_write_summary_text (job->profile, job->demangle, job->brief, stream, error);
}

static const CgCliFormat formats[] = {
  { "xml", "cgtools XML, for the next stage", write_xml },
  { "text", "what the sum holds: sources, events, functions, arcs", write_text },
  { NULL, NULL, NULL },
};

static gboolean
run (gpointer data, GError **error)
{
  Options *o = data;
  const CgCliFormat *format;
  if (!cg_cli_choose_format (o->common.format, formats, &format, error))
    return FALSE;
  g_autoptr (CgProfile) profile = cg_cli_read_inputs (&o->common, error);
  if (profile == NULL)
    return FALSE;
  Job job = { profile, !o->no_demangle, o->common.brief };
  return cg_cli_write (&o->common, format->write, &job, error);
}

int
main (int argc, char **argv)
{
  static Options options;
  static const GOptionEntry entries[] = {
    { "no-demangle", 0, 0, G_OPTION_ARG_NONE, &options.no_demangle,
      "Text: print C++ and Rust names as the linker sees them, not demangled", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  static const CgCliSpec spec = {
    .parameters = "[FILE...]",
    .summary = "Read call-graph profiles (callgrind, gmon.out, amon.out, cgtools XML) and\n"
               "write their sum as cgtools XML or as text.",
    .description = "The format of each FILE is told from its content; no FILE or '-' reads\n"
                   "standard input.  Functions are identified by (object, name); costs and call\n"
                   "counts are summed.  gmon.out files are read with the symbols of the executable\n"
                   "(--executable), as gprof reads them.",
    .formats = formats,
    .input_formats = TRUE,
    .entries = entries,
    .run = run,
  };
  return cg_cli_main (argc, argv, &spec, &options.common, &options);
}
