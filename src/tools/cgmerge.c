/* cgmerge — read profiles in any supported format and write their sum as
 * cgtools XML.  See cgmerge(1). */
#include "config.h"

#include "cg.h"

typedef struct {
  CgCliCommon common;
} Options;

static gboolean
write_xml (FILE *stream, const char *name, gpointer data, GError **error)
{
  return cg_write_xml (data, stream, name, error);
}

static gboolean
run (gpointer data, GError **error)
{
  Options *o = data;
  static const char *const formats[] = { "xml", NULL };
  guint format;
  if (!cg_cli_choose ("format", o->common.format, formats, &format, error))
    return FALSE;
  g_autoptr (CgProfile) profile = cg_cli_read_inputs (&o->common, error);
  if (profile == NULL)
    return FALSE;
  return cg_cli_write (&o->common, write_xml, profile, error);
}

int
main (int argc, char **argv)
{
  static Options options;
  static const GOptionEntry entries[] = {
    { "executable", 'e', 0, G_OPTION_ARG_FILENAME, &options.common.executable,
      "gmon.out inputs: the profiled executable (default: a.out), also for old BSD gmon.out files; "
      "amon.out inputs: names the routines it left unnamed",
      "EXE" },
    { "static-calls", 'c', 0, G_OPTION_ARG_NONE, &options.common.static_calls,
      "gmon.out inputs: add the calls found in the executable's code (gprof -c), with count 0", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  static const CgCliSpec spec = {
    .parameters = "[FILE...]",
    .summary = "Read call-graph profiles (callgrind, gmon.out, amon.out, cgtools XML) and write their sum as cgtools XML.",
    .description = "The format of each FILE is told from its content; no FILE or '-' reads standard input.\n"
                   "Functions are identified by (object, name); costs and call counts are summed.\n"
                   "gmon.out files are read with the symbols of the executable (-e), as gprof reads them.",
    .formats = "xml",
    .entries = entries,
    .run = run,
  };
  return cg_cli_main (argc, argv, &spec, &options.common, &options);
}
