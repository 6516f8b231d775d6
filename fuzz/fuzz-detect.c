/* fuzz-detect.c — fuzz target: the table of formats' detectors.
 *
 * Detection must not guess (cg-formats.h): an input is taken for a
 * format only when it parses as it.  Checked: when two rows or more
 * accept an input, the first of them (the one cg_read_input() picks)
 * must read it without error; an input only one row accepts is that
 * row's (its reader may still find it malformed further on).  Replayed by
 * `make check` over every format's seeds and regressions (replay.c), so
 * that every format's corpus meets every detector.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cg-formats.h"
#include "fuzz-common.h"

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
      if (!first->read (p, in, NULL, &error))
        {
          fprintf (stderr, "detect: %s accept the input, and %s cannot read it: %s\n", accepting->str,
                   first->name, error->message);
          abort ();
        }
    }
  g_string_free (accepting, TRUE);
  return 0;
}
