/* cg-xml-errors.c — a generic-error handler that collects instead of
 * printing. */
#include "config.h"

#include "cg-xml-errors.h"

#include <libxml/globals.h>
#include <stdarg.h>
#include <string.h>

static void
collect (void *context, const char *format, ...)
{
  CgXmlErrorTrap *trap = context;
  va_list ap;
  va_start (ap, format);
  g_string_append_vprintf (trap->text, format, ap);
  va_end (ap);
}

void
cg_xml_error_trap_push (CgXmlErrorTrap *trap)
{
  trap->saved_func = xmlGenericError;
  trap->saved_context = xmlGenericErrorContext;
  trap->text = g_string_new (NULL);
  xmlSetGenericErrorFunc (trap, collect);
}

char *
cg_xml_error_trap_pop (CgXmlErrorTrap *trap)
{
  xmlSetGenericErrorFunc (trap->saved_context, trap->saved_func);
  GString *text = g_steal_pointer (&trap->text);
  g_strstrip (text->str);
  char *nl = strchr (text->str, '\n');
  if (nl)
    *nl = '\0';
  if (text->str[0] == '\0')
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}
