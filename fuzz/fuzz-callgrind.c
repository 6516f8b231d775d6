/* fuzz-callgrind.c — fuzz target: the callgrind reader and all downstream. */
#include "config.h"

#include "cg-read-callgrind.h"
#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cg_fuzz_run (cg_read_callgrind, data, size);
  return 0;
}
