/* fuzz-pstats.c — fuzz target: the reader of Python's profile statistics
 * (marshal's dict, through cg-marshal's scanner) and all downstream (its
 * measured inclusive costs feed the measured method and the cycles). */
#include "config.h"

#include "cg-read-pstats.h"
#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cg_fuzz_run (cg_read_pstats, data, size);
  return 0;
}
