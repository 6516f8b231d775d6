/* fuzz-callgrind.c — fuzz target: the callgrind reader and all downstream,
 * and a differential check of the lexer: the lines it reads ahead must
 * give what the reader gives reading every line itself, wherever the
 * blocks start (a difference aborts, so libFuzzer keeps it). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg-read-callgrind.h"
#include "fuzz-common.h"

/* What reading @data with the lexer's @piece gives: the profile's XML, or
 * the error. */
static char *
outcome (const uint8_t *data, size_t size, gsize piece)
{
  g_autoptr (CgProfile) p = cg_profile_new ();
  g_autoptr (CgInput) in = cg_input_new_from_bytes ("fuzz", data, size);
  GError *error = NULL;
  if (!cg_read_callgrind_in_pieces (p, in, NULL, piece, &error))
    {
      char *message = g_strdup_printf ("error %d: %s", error->code, error->message);
      g_error_free (error);
      return message;
    }
  char *xml = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&xml, &len);
  if (f == NULL)
    abort ();
  gboolean ok = cg_write_xml (p, f, "fuzz", NULL);
  fclose (f);
  char *copy = g_strdup (ok ? xml : "unwritable");
  free (xml);
  return copy;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *read = outcome (data, size, 0);
  g_autofree char *lexed = outcome (data, size, G_MAXSIZE);
  g_autofree char *pieces = outcome (data, size, 1 + size % 61);
  if (strcmp (read, lexed) != 0 || strcmp (read, pieces) != 0)
    {
      fprintf (stderr, "fuzz-callgrind: lexed lines differ from lines read\nread:\n%s\nlexed:\n%s\npieces:\n%s\n", read,
               lexed, pieces);
      abort ();
    }
  cg_fuzz_run (cg_read_callgrind, data, size);
  return 0;
}
