/* cg-xml-errors.h — private: keeps libxml2 from printing.
 *
 * libxml2 reports some errors (encoding conversion, output I/O) through
 * its generic error handler, which prints to stderr; the library must not
 * print.  A trap replaces that handler for the duration of one read or
 * write, collects the text, and puts the previous handler back.  The
 * handler is per thread in libxml2, so this is safe in threaded callers.
 */
#pragma once

#include <glib.h>
#include <libxml/xmlerror.h>

G_BEGIN_DECLS

typedef struct {
  xmlGenericErrorFunc saved_func;
  void *saved_context;
  GString *text; /* what libxml2 said meanwhile */
} CgXmlErrorTrap;

void cg_xml_error_trap_push (CgXmlErrorTrap *trap);

/* Restores the previous handler.  Returns the first line collected
 * (transfer full), or NULL when libxml2 said nothing. */
char *cg_xml_error_trap_pop (CgXmlErrorTrap *trap);

G_END_DECLS
