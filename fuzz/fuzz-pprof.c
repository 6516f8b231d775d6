/* fuzz-pprof.c — fuzz target: the pprof (profile.proto) reader and all
 * downstream (the call tree it builds feeds the exact method, collapse and
 * the decomposition). */
#include "config.h"

#include "cg-read-pprof.h"
#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cg_fuzz_run (cg_read_pprof, data, size);
  return 0;
}
