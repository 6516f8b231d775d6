/* cg-validate.c — test helper: validates XML files against a RELAX NG
 * schema with libxml2, like `xmllint --noout --relaxng`, without needing
 * libxml2-utils.  Exit 0 when every file is valid, 1 otherwise. */
#include "config.h"

#include <libxml/relaxng.h>
#include <stdio.h>

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: cg-validate SCHEMA.rng FILE.xml...\n");
      return 2;
    }
  xmlRelaxNGParserCtxtPtr pctx = xmlRelaxNGNewParserCtxt (argv[1]);
  xmlRelaxNGPtr schema = xmlRelaxNGParse (pctx);
  xmlRelaxNGFreeParserCtxt (pctx);
  if (schema == NULL)
    {
      fprintf (stderr, "cg-validate: %s: cannot parse the schema\n", argv[1]);
      return 2;
    }
  int status = 0;
  for (int i = 2; i < argc; i++)
    {
      xmlDocPtr doc = xmlReadFile (argv[i], NULL, XML_PARSE_NONET | XML_PARSE_HUGE);
      xmlRelaxNGValidCtxtPtr vctx = xmlRelaxNGNewValidCtxt (schema);
      int rc = doc ? xmlRelaxNGValidateDoc (vctx, doc) : -1;
      if (rc != 0)
        {
          fprintf (stderr, "cg-validate: %s: not valid\n", argv[i]);
          status = 1;
        }
      xmlRelaxNGFreeValidCtxt (vctx);
      xmlFreeDoc (doc);
    }
  xmlRelaxNGFree (schema);
  xmlCleanupParser ();
  return status;
}
