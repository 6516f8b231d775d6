/* fuzz-xml.c — fuzz target: the cgtools XML reader and all downstream,
 * and a differential check of its worker: rows applied on the second
 * thread, handed over in blocks of any size, must give what applying them
 * on the parsing thread gives (a difference aborts, so libFuzzer keeps
 * it). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg-read-xml.h"
#include "fuzz-common.h"

static gboolean
read_xml (CgProfile *p, CgInput *in, const CgReadOptions *options, GError **error)
{
  return cg_read_xml (p, in, TRUE, options, error);
}

/* What reading @data with @block gives: the profile's XML, or the error. */
static char *
outcome (const uint8_t *data, size_t size, gsize block)
{
  g_autoptr (CgProfile) p = cg_profile_new ();
  g_autoptr (CgInput) in = cg_input_new_from_bytes ("fuzz", data, size);
  GError *error = NULL;
  if (!cg_read_xml_in_blocks (p, in, TRUE, block, &error))
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
  g_autofree char *inline_rows = outcome (data, size, 0);
  g_autofree char *worker = outcome (data, size, G_MAXSIZE);
  g_autofree char *blocks = outcome (data, size, 1 + size % 61);
  if (strcmp (inline_rows, worker) != 0 || strcmp (inline_rows, blocks) != 0)
    {
      fprintf (stderr, "fuzz-xml: rows on the worker differ\ninline:\n%s\nworker:\n%s\nblocks:\n%s\n", inline_rows,
               worker, blocks);
      abort ();
    }
  cg_fuzz_run (read_xml, data, size);
  return 0;
}
