/* fuzz-amon.c — fuzz target: the amon.out reader (libamon's context
 * profiles) and all downstream, where context profiles take their own
 * paths: exact totals over contexts, Spivey's four arc times, the
 * traversed cycles, collapsing cycles that carry contexts. */
#include "config.h"

#include "cg-read-amon.h"
#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cg_fuzz_run (cg_read_amon, data, size);
  return 0;
}
