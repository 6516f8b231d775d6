/* cg-xml-writer.c — xmlTextWriter over fwrite, keeping the errno of a
 * failed write so that a closed pipe can be told from a full disk. */
#include "config.h"

#include "cg-xml-writer.h"

#include <errno.h>
#include <libxml/xmlwriter.h>

#include "cg-error.h"
#include "cg-value.h"
#include "cg-xml-errors.h"

struct _CgXmlWriter {
  xmlTextWriterPtr w;
  FILE *stream;
  char *name;
  gboolean failed;
  int write_errno; /* of the failed fwrite; 0 when libxml2 failed */
  CgXmlErrorTrap trap;
};

static int
write_cb (void *context, const char *data, int len)
{
  CgXmlWriter *w = context;
  if (len > 0 && fwrite (data, 1, (size_t) len, w->stream) != (size_t) len)
    {
      w->write_errno = errno ? errno : EIO;
      return -1;
    }
  return len;
}

static void
check (CgXmlWriter *w, int rc)
{
  if (rc < 0)
    w->failed = TRUE;
}

CgXmlWriter *
cg_xml_writer_new (FILE *stream, const char *name, GError **error)
{
  CgXmlWriter *w = g_new0 (CgXmlWriter, 1);
  w->stream = stream;
  w->name = g_strdup (name);
  cg_xml_error_trap_push (&w->trap);
  xmlOutputBufferPtr out = xmlOutputBufferCreateIO (write_cb, NULL, w, NULL);
  w->w = out ? xmlNewTextWriter (out) : NULL;
  if (w->w == NULL)
    {
      if (out)
        xmlOutputBufferClose (out);
      g_free (cg_xml_error_trap_pop (&w->trap));
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: cannot create the XML writer", name);
      g_free (w->name);
      g_free (w);
      return NULL;
    }
  check (w, xmlTextWriterSetIndent (w->w, 1));
  check (w, xmlTextWriterSetIndentString (w->w, BAD_CAST " "));
  if (!w->failed)
    check (w, xmlTextWriterStartDocument (w->w, NULL, "UTF-8", NULL));
  return w;
}

void
cg_xml_writer_start (CgXmlWriter *w, const char *element)
{
  if (!w->failed)
    check (w, xmlTextWriterStartElement (w->w, BAD_CAST element));
}

void
cg_xml_writer_end (CgXmlWriter *w)
{
  if (!w->failed)
    check (w, xmlTextWriterEndElement (w->w));
}

void
cg_xml_writer_attr (CgXmlWriter *w, const char *name, const char *value)
{
  if (!w->failed && value != NULL)
    check (w, xmlTextWriterWriteAttribute (w->w, BAD_CAST name, BAD_CAST value));
}

void
cg_xml_writer_attr_uint (CgXmlWriter *w, const char *name, guint64 value)
{
  char buf[CG_UINT_DIGITS + 1];
  *cg_uint_put (buf, value) = '\0';
  cg_xml_writer_attr (w, name, buf);
}

/* Raw text longer than this goes to the stream straight: through libxml2
 * it would be copied into its buffer and handed on 4000 bytes at a time. */
#define RAW_DIRECT 4096

void
cg_xml_writer_raw (CgXmlWriter *w, const char *text, gsize len)
{
  g_return_if_fail (len <= G_MAXINT);
  if (w->failed)
    return;
  if (len <= RAW_DIRECT)
    {
      check (w, xmlTextWriterWriteRawLen (w->w, BAD_CAST text, (int) len));
      return;
    }
  /* the first byte through the writer closes a start tag before it; what
   * the writer holds goes out before the rest */
  check (w, xmlTextWriterWriteRawLen (w->w, BAD_CAST text, 1));
  if (!w->failed)
    check (w, xmlTextWriterFlush (w->w));
  if (!w->failed && write_cb (w, text + 1, (int) (len - 1)) < 0)
    w->failed = TRUE;
}

gboolean
cg_xml_writer_failed (const CgXmlWriter *w)
{
  return w->failed;
}

void
cg_xml_writer_abandon (CgXmlWriter *w)
{
  w->failed = TRUE;
  cg_xml_writer_finish (w, NULL);
}

gboolean
cg_xml_writer_finish (CgXmlWriter *w, GError **error)
{
  if (!w->failed)
    check (w, xmlTextWriterEndDocument (w->w));
  if (!w->failed)
    check (w, xmlTextWriterFlush (w->w));
  xmlFreeTextWriter (w->w); /* also closes the output buffer */
  g_autofree char *generic = cg_xml_error_trap_pop (&w->trap);
  gboolean ok = !w->failed;
  if (!ok && w->write_errno)
    g_set_error (error, CG_ERROR, w->write_errno == EPIPE ? CG_ERROR_CLOSED : CG_ERROR_IO, "%s: write error: %s",
                 w->name, g_strerror (w->write_errno));
  else if (!ok)
    g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: cannot write XML: %s", w->name,
                 generic ? generic : "libxml2 failed");
  g_free (w->name);
  g_free (w);
  return ok;
}
