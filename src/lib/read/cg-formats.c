/* cg-formats.c — the table of input formats (cg-formats.h). */
#include "config.h"

#include "cg-formats.h"

#include <string.h>

#include "cg-read-amon.h"
#include "cg-read-callgrind.h"
#include "cg-read-folded.h"
#include "cg-read-gmon.h"
#include "cg-read-gperftools.h"
#include "cg-read-gprof-report.h"
#include "cg-read-perf-data.h"
#include "cg-read-perf.h"
#include "cg-read-pprof.h"
#include "cg-read-pstats.h"
#include "cg-read-v8.h"
#include "cg-read-xml.h"
#include "cg-v8-detect.h"

/* Binary formats with a magic number first; text formats after, the
 * stricter before the looser (folded stacks, whose lines are the least
 * particular, after the others); last pprof's protocol buffers, binary
 * without a magic number, told by their structure alone, and so tried
 * only on what every other detector refused. */
static const CgFormatInfo formats[] = {
  { "amon.out", "an amon.out", "context profiles written by libamon(3)", cg_amon_detect, cg_read_amon, NULL },
  { "gmon.out", "a gmon.out", "profiles of programs built with gcc -pg, read with their executable (--executable)",
    cg_gmon_detect, cg_read_gmon_tagged, cg_read_gmon_bsd },
  { "perf.data", "a perf.data", "perf record's files, read through perf script (perf must be installed)",
    cg_perf_data_detect, cg_read_perf_data, NULL },
  { "gperftools", "a gperftools CPU profile", "gperftools' CPU profiler's files (CPUPROFILE=prof.out with libprofiler),"
    " read with the files its maps name", cg_gperftools_detect, cg_read_gperftools, NULL },
  { "pstats", "a Python profile (pstats)", "Python's cProfile and profile modules' statistics files (python3 -m cProfile"
    " -o FILE), read as pstats loads them", cg_pstats_detect, cg_read_pstats, NULL },
  { "callgrind", "a callgrind profile", "valgrind --tool=callgrind's profiles, and other producers' in its format",
    cg_callgrind_detect, cg_read_callgrind, NULL },
  { "cgtools XML", "cgtools XML", "the interchange between cgtools' stages", cg_xml_detect, cg_read_xml_into, NULL },
  { "V8 cpuprofile", "a V8 CPU profile", "V8's CPU profiles (JSON), as node --cpu-prof and Chrome DevTools' Save profile"
    " write it", cg_v8_detect, cg_read_v8, NULL },
  { "gprof report", "a gprof report", "the text GNU gprof prints (flat profile, call graph, or both), with or without -b",
    cg_gprof_report_detect, cg_read_gprof_report, NULL },
  { "perf script", "perf script output", "the samples and call chains perf script prints (perf record -g)",
    cg_perf_detect, cg_read_perf, NULL },
  { "folded stacks", "folded stacks", "one stack and a count per line, as flame-graph tools write them",
    cg_folded_detect, cg_read_folded, NULL },
  { "pprof", "a pprof profile", "pprof's profile.proto, as Go's runtime/pprof, go test -cpuprofile and gperftools'"
    " pprof write it", cg_pprof_detect, cg_read_pprof, NULL },
};

const CgFormatInfo *
cg_formats (guint *n_formats)
{
  *n_formats = G_N_ELEMENTS (formats);
  return formats;
}

const CgFormatInfo *
cg_formats_detect (const guint8 *data, gsize len, gboolean complete)
{
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (formats[i].detect (data, len, complete))
      return &formats[i];
  return NULL;
}

/* Whether @given names @name, blanks written '-' or '_', in any case. */
static gboolean
names (const char *given, const char *name, gsize n)
{
  if (strlen (given) != n)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (name[i] == ' ' ? given[i] != '-' && given[i] != '_' && given[i] != ' '
                       : g_ascii_tolower (given[i]) != g_ascii_tolower (name[i]))
      return FALSE;
  return TRUE;
}

const CgFormatInfo *
cg_formats_lookup (const char *name)
{
  const CgFormatInfo *found = NULL;
  guint by_word = 0;
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      if (names (name, formats[i].name, strlen (formats[i].name)))
        return &formats[i];
      const char *blank = strchr (formats[i].name, ' ');
      if (blank && names (name, formats[i].name, (gsize) (blank - formats[i].name)))
        found = &formats[i], by_word++;
    }
  return by_word == 1 ? found : NULL;
}

char *
cg_formats_option_name (const CgFormatInfo *format)
{
  char *s = g_strdup (format->name);
  g_strdelimit (s, " ", '-');
  return s;
}

static char *
join (gsize field, const char *last_separator)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      if (i > 0)
        g_string_append (s, i + 1 == G_N_ELEMENTS (formats) ? last_separator : ", ");
      g_string_append (s, G_STRUCT_MEMBER (const char *, &formats[i], field));
    }
  return g_string_free (s, FALSE);
}

char *
cg_formats_nouns (void)
{
  return join (G_STRUCT_OFFSET (CgFormatInfo, noun), " or ");
}

char *
cg_formats_names (void)
{
  return join (G_STRUCT_OFFSET (CgFormatInfo, name), ", ");
}
