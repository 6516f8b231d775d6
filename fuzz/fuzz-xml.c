/* fuzz-xml.c — fuzz target: the cgtools XML reader and all downstream. */
#include "config.h"

#include "cg-read-xml.h"
#include "fuzz-common.h"

static gboolean
read_xml (CgProfile *p, CgInput *in, const CgReadOptions *options, GError **error)
{
  return cg_read_xml (p, in, TRUE, options, error);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cg_fuzz_run (read_xml, data, size);
  return 0;
}
