/* fuzz-callgrind.c — fuzz target: the callgrind reader and all downstream,
 * and a differential check of the lexer: the lines it reads ahead must
 * give what the reader gives reading every line itself, wherever the
 * blocks start. */
#include "config.h"

#include "cg-read-callgrind.h"
#include "fuzz-common.h"

static gboolean
read_in_pieces (CgProfile *p, CgInput *in, gsize piece, GError **error)
{
  return cg_read_callgrind_in_pieces (p, in, NULL, piece, error);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cg_fuzz_compare_splits ("fuzz-callgrind", read_in_pieces, data, size);
  cg_fuzz_run (cg_read_callgrind, data, size);
  return 0;
}
