/* cg-read-options.c — readers' warnings and errors. */
#include "config.h"

#include "cg-read-options.h"

#include <stdarg.h>
#include <string.h>

static void
clear_input_read (gpointer data)
{
  g_free (((CgInputRead *) data)->name);
}

GArray *
cg_inputs_read_new (void)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (CgInputRead));
  g_array_set_clear_func (a, clear_input_read);
  return a;
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
cg_read_failv (GError **error, CgError code, const char *name, CgPositionKind kind, guint64 position,
               const char *format, va_list ap)
{
  g_autofree char *msg = g_strdup_vprintf (format, ap);
  if (kind == CG_AT_OFFSET)
    g_set_error (error, CG_ERROR, code, "%s: offset %" G_GUINT64_FORMAT ": %s", name, position, msg);
  else
    g_set_error (error, CG_ERROR, code, "%s:%" G_GUINT64_FORMAT ": %s", name, position, msg);
  return FALSE;
}

gboolean
cg_read_fail (GError **error, CgError code, const char *name, CgPositionKind kind, guint64 position,
              const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  cg_read_failv (error, code, name, kind, position, format, ap);
  va_end (ap);
  return FALSE;
}

gboolean
cg_read_first_line (const guint8 *data, gsize len, gboolean data_complete, const char **line, gsize *line_len,
                    gboolean *complete)
{
  const guint8 *p = data, *end = data + len;
  if (len >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;
  while (p < end)
    {
      const guint8 *nl = memchr (p, '\n', (gsize) (end - p));
      const guint8 *eol = nl ? nl : end;
      const guint8 *q = p;
      while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
        q++;
      if (q < eol && *q != '#')
        {
          *line = (const char *) p;
          *line_len = (gsize) (eol - p);
          *complete = nl != NULL || data_complete;
          return TRUE;
        }
      p = nl ? nl + 1 : end;
    }
  return FALSE;
}
