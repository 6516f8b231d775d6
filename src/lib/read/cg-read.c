/* cg-read.c — format detection and dispatch to the readers. */
#include "config.h"

#include "cg-read.h"

#include <stdarg.h>
#include <string.h>

#include "cg-error.h"
#include "cg-read-amon.h"
#include "cg-read-callgrind.h"
#include "cg-read-gmon.h"
#include "cg-read-folded.h"
#include "cg-read-xml.h"

#define DETECT_BYTES 4096

const char *
cg_format_to_string (CgFormat format)
{
  switch (format)
    {
    case CG_FORMAT_XML:
      return "cgtools XML";
    case CG_FORMAT_CALLGRIND:
      return "callgrind";
    case CG_FORMAT_AMON:
      return "amon.out";
    case CG_FORMAT_GMON:
      return "gmon.out";
    case CG_FORMAT_FOLDED:
      return "folded stacks";
    case CG_FORMAT_UNKNOWN:
    default:
      return "unknown";
    }
}

static gboolean
starts_with (const guint8 *p, const guint8 *end, const char *prefix)
{
  gsize n = strlen (prefix);
  return (gsize) (end - p) >= n && memcmp (p, prefix, n) == 0;
}

CgFormat
cg_format_detect (const guint8 *data, gsize len)
{
  static const char *const callgrind_keys[] = {
    "version:", "creator:", "pid:", "cmd:", "part:", "desc:", "positions:", "events:",
    "event:", "thread:", "ob=", "fl=", "fn=",
  };
  const guint8 *p = data, *end = data + len;
  if (cg_amon_detect (data, len))
    return CG_FORMAT_AMON;
  if (starts_with (p, end, "gmon"))
    return CG_FORMAT_GMON;
  if (starts_with (p, end, "\xEF\xBB\xBF"))
    p += 3;
  if (starts_with (p, end, "# callgrind format"))
    return CG_FORMAT_CALLGRIND;
  while (p < end && g_ascii_isspace (*p))
    p++;
  if (starts_with (p, end, "<?xml") || starts_with (p, end, "<cgtools"))
    return CG_FORMAT_XML;
  /* the first line that is not a comment decides */
  while (p < end)
    {
      const guint8 *nl = memchr (p, '\n', (gsize) (end - p));
      const guint8 *eol = nl ? nl : end;
      const guint8 *q = p;
      while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
        q++;
      if (q < eol && *q != '#')
        {
          for (guint i = 0; i < G_N_ELEMENTS (callgrind_keys); i++)
            if (starts_with (q, eol, callgrind_keys[i]))
              return CG_FORMAT_CALLGRIND;
          /* a line cut by the window (deep stacks make long lines) cannot
           * show its count */
          if (cg_folded_line_matches ((const char *) p, (gsize) (eol - p), nl != NULL || len < DETECT_BYTES))
            return CG_FORMAT_FOLDED;
          return CG_FORMAT_UNKNOWN;
        }
      p = nl ? nl + 1 : end;
    }
  return CG_FORMAT_UNKNOWN;
}

gboolean
cg_read_input (CgProfile *profile, CgInput *in, const CgReadOptions *options, GError **error)
{
  const guint8 *head;
  gsize len;
  if (!cg_input_peek (in, DETECT_BYTES, &head, &len, error))
    return FALSE;
  if (len == 0 && options && options->n_skipped_empty)
    {
      cg_read_warn (options, "%s: empty input, skipped", cg_input_name (in));
      (*options->n_skipped_empty)++;
      return TRUE;
    }
  if (len == 0)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s: empty input", cg_input_name (in));
      return FALSE;
    }
  gboolean was_empty = cg_graph_n_functions (cg_profile_graph (profile)) == 0
                       && cg_profile_n_sources (profile) == 0;
  gboolean ok;
  switch (cg_format_detect (head, len))
    {
    case CG_FORMAT_CALLGRIND:
      ok = cg_read_callgrind (profile, in, options, error);
      break;
    case CG_FORMAT_XML:
      ok = cg_read_xml (profile, in, was_empty, options, error);
      break;
    case CG_FORMAT_AMON:
      ok = cg_read_amon (profile, in, options, error);
      break;
    case CG_FORMAT_GMON:
      ok = cg_read_gmon (profile, in, FALSE, options, error);
      break;
    case CG_FORMAT_FOLDED:
      ok = cg_read_folded (profile, in, options, error);
      break;
    case CG_FORMAT_UNKNOWN:
    default:
      /* old BSD gmon.out files have no magic: tried only when the user
       * named the executable they belong to */
      if (options && options->executable)
        {
          ok = cg_read_gmon (profile, in, TRUE, options, error);
          break;
        }
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT,
                   "%s:1: unknown input format (expected a callgrind profile, a gmon.out, an amon.out, folded stacks or cgtools XML)",
                   cg_input_name (in));
      return FALSE;
    }
  if (ok && !was_empty)
    {
      /* derived data describe the data before this input */
      cg_profile_set_cycles (profile, NULL);
      cg_profile_set_costs (profile, NULL);
    }
  return ok;
}

gboolean
cg_read_file (CgProfile *profile, const char *path, const CgReadOptions *options, GError **error)
{
  g_autoptr (CgInput) in = cg_input_open (path, error);
  if (in == NULL)
    return FALSE;
  if (options)
    cg_input_set_progress (in, options->progress, options->progress_data);
  return cg_read_input (profile, in, options, error);
}

void
cg_read_warn (const CgReadOptions *options, const char *format, ...)
{
  if (options == NULL || options->warn == NULL)
    return;
  va_list ap;
  va_start (ap, format);
  g_autofree char *msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  options->warn (msg, options->warn_data);
}

gboolean
cg_read_finish (CgProfile *profile, const CgReadOptions *options, GError **error)
{
  /* gprof scans for static calls only when its inputs held call-graph
   * records: with none it prints no call graph at all */
  if (options == NULL || !options->static_calls || cg_graph_n_arcs (cg_profile_graph (profile)) == 0)
    return TRUE;
  for (guint i = 0; i < cg_profile_n_sources (profile); i++)
    {
      const CgSource *s = cg_profile_source (profile, i);
      if (s->format == NULL || strcmp (s->format, "gmon") != 0)
        continue;
      /* cgtools XML made from gmon.out files names their executable */
      CgReadOptions o = *options;
      if (o.executable == NULL)
        o.executable = s->command;
      return cg_read_gmon_static_calls (profile, &o, error);
    }
  return TRUE;
}
