/* fuzz-gperftools.c — fuzz target: the gperftools CPU profile reader (its
 * header, records and maps text; the files the maps name are opened, so
 * the seeds name none that exist but [vdso]) and all downstream. */
#include "config.h"

#include "cg-read-gperftools.h"
#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cg_fuzz_run (cg_read_gperftools, data, size);
  return 0;
}
