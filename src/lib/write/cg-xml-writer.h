/* cg-xml-writer.h — an XML document streamed to a stdio stream.
 *
 * libxml2's xmlTextWriter, indented by one space, with the first failure
 * latched: after it every call does nothing, and cg_xml_writer_finish
 * reports it once, naming the output.  What the cgtools XML writer and
 * cgtree's XML share.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

G_BEGIN_DECLS

typedef struct _CgXmlWriter CgXmlWriter;

/* Starts a UTF-8 document on @stream (named @name in messages).  libxml2
 * prints nothing until cg_xml_writer_finish: its messages are kept for
 * the error.  Error CG_ERROR_IO when libxml2 cannot make a writer. */
CgXmlWriter *cg_xml_writer_new (FILE *stream, const char *name, GError **error);

void cg_xml_writer_start (CgXmlWriter *w, const char *element);
void cg_xml_writer_end (CgXmlWriter *w);
/* An attribute of the element just started, escaped; none when @value is
 * NULL. */
void cg_xml_writer_attr (CgXmlWriter *w, const char *name, const char *value);
void cg_xml_writer_attr_uint (CgXmlWriter *w, const char *name, guint64 value);
/* @len bytes of text written as they are: the caller has escaped them. */
void cg_xml_writer_raw (CgXmlWriter *w, const char *text, gsize len);

/* Whether a call has failed (writing further is pointless). */
gboolean cg_xml_writer_failed (const CgXmlWriter *w);

/* Closes the open elements, flushes and frees @w.  Errors, in domain
 * CG_ERROR: CG_ERROR_CLOSED when the reader of a pipe went away,
 * CG_ERROR_IO for another write error or a failure of libxml2's. */
gboolean cg_xml_writer_finish (CgXmlWriter *w, GError **error);

/* Frees @w without closing the open elements: what was written stays
 * (some of it may), unterminated, so that no reader takes it for a whole
 * document.  For a writer whose content failed, not its output. */
void cg_xml_writer_abandon (CgXmlWriter *w);

G_END_DECLS
