/* fuzz-perf.c — fuzz target: the perf script reader (headers and frame
 * lines of every layout, with the options the input's size chooses) and
 * all downstream (the call tree it builds feeds the exact method). */
#include "config.h"

#include "cg-read-perf.h"
#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cg_fuzz_run (cg_read_perf, data, size);
  return 0;
}
