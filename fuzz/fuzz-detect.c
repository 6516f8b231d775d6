/* fuzz-detect.c — fuzz target: the table of formats' detectors.
 *
 * Detection must not guess (cg-formats.h): an input is taken for a
 * format only when it parses as it.  Checked: when two rows or more
 * accept an input, the first of them (the one cg_read_input() picks)
 * must read it without error, or find it malformed only at a line past
 * the detection window, which no detector sees, and then
 * cg_read_input()'s message must say what else the input read as and
 * name the option that reads it so; an input only one row accepts is
 * that row's (its reader may still find it malformed further on).
 * Replayed by
 * `make check` over every format's seeds and regressions (replay.c), so
 * that every format's corpus meets every detector.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg-formats.h"
#include "cg-read.h"
#include "fuzz-common.h"

/* Whether @message ("fuzz:LINE: ...") names a line of @data (@size
 * bytes) that does not end inside the window of @len bytes the
 * detectors saw (@complete: they saw all). */
static gboolean
past_window (const uint8_t *data, size_t size, gsize len, gboolean complete, const char *message)
{
  if (complete || !g_str_has_prefix (message, "fuzz:") || !g_ascii_isdigit (message[5]))
    return FALSE;
  guint64 line = g_ascii_strtoull (message + 5, NULL, 10), n = 1;
  size_t end = 0;
  while (end < size && (data[end] != '\n' || n++ < line))
    end++;
  return end >= len;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  gsize len = MIN (size, (size_t) CG_FORMATS_DETECT_BYTES);
  gboolean complete = size < CG_FORMATS_DETECT_BYTES;
  guint n;
  const CgFormatInfo *formats = cg_formats (&n);
  const CgFormatInfo *first = NULL;
  GString *accepting = g_string_new (NULL);
  guint n_accepting = 0;
  for (guint i = 0; i < n; i++)
    if (formats[i].detect (data, len, complete))
      {
        g_string_append_printf (accepting, "%s'%s'", n_accepting ? ", " : "", formats[i].name);
        n_accepting++;
        if (first == NULL)
          first = &formats[i];
      }
  if (first != cg_formats_detect (data, len, complete))
    {
      fprintf (stderr, "detect: cg_formats_detect differs from the first accepting row\n");
      abort ();
    }
  if (n_accepting > 1)
    {
      g_autoptr (CgProfile) p = cg_profile_new ();
      g_autoptr (CgInput) in = cg_input_new_from_bytes ("fuzz", data, size);
      GError *error = NULL;
      if (!first->read (p, in, NULL, &error) && !past_window (data, size, len, complete, error->message))
        {
          fprintf (stderr, "detect: %s accept the input, and %s cannot read it: %s\n", accepting->str,
                   first->name, error->message);
          abort ();
        }
      if (error)
        {
          g_autoptr (CgProfile) p2 = cg_profile_new ();
          g_autoptr (CgInput) in2 = cg_input_new_from_bytes ("fuzz", data, size);
          g_autoptr (GError) said = NULL;
          if (cg_read_input (p2, in2, NULL, &said) || strstr (said->message, "too: if it is that, give --input-format=")
                                                          == NULL)
            {
              fprintf (stderr, "detect: %s accept the input, %s cannot read it past the window (%s), and the message"
                       " does not say what else it read as: %s\n", accepting->str, first->name, error->message,
                       said ? said->message : "(read)");
              abort ();
            }
          g_error_free (error);
        }
    }
  g_string_free (accepting, TRUE);
  return 0;
}
