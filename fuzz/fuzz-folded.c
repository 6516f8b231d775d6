/* fuzz-folded.c — fuzz target: the folded-stacks reader and all downstream
 * (the call tree it builds feeds the exact method, collapse and the
 * decomposition). */
#include "config.h"

#include "cg-read-folded.h"
#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cg_fuzz_run (cg_read_folded, data, size);
  return 0;
}
