/* fuzz-xml.c — fuzz target: the cgtools XML reader and all downstream,
 * and a differential check of its worker: rows applied on the second
 * thread, handed over in blocks of any size, must give what applying them
 * on the parsing thread gives. */
#include "config.h"

#include "cg-read-xml.h"
#include "fuzz-common.h"

static gboolean
read_xml (CgProfile *p, CgInput *in, const CgReadOptions *options, GError **error)
{
  return cg_read_xml (p, in, TRUE, options, error);
}

static gboolean
read_in_blocks (CgProfile *p, CgInput *in, gsize block, GError **error)
{
  return cg_read_xml_in_blocks (p, in, TRUE, block, error);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  cg_fuzz_compare_splits ("fuzz-xml", read_in_blocks, data, size);
  cg_fuzz_run (read_xml, data, size);
  return 0;
}
