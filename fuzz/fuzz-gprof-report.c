/* fuzz-gprof-report.c — fuzz target: the reader of gprof's printed
 * reports and all downstream (its profile feeds gprof's analysis and
 * every method, as cg_fuzz_run does for every reader). */
#include "config.h"

#include "cg-read-gprof-report.h"
#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cg_fuzz_run (cg_read_gprof_report, data, size);
  return 0;
}
