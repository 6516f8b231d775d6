/* fuzz-v8.c — fuzz target: the V8 CPU profile reader (.cpuprofile JSON,
 * through json-glib) and all downstream (the call tree it builds feeds the
 * exact method, collapse and the decomposition). */
#include "config.h"

#include "cg-read-v8.h"
#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cg_fuzz_run (cg_read_v8, data, size);
  return 0;
}
