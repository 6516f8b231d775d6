/* cg-write-xml.h — cgtools XML out, streamed with xmlTextWriter.
 *
 * The document (formats/cgtools-xml.md, schema formats/cgtools.rng) holds
 * everything a profile has: sources, events, objects, files, functions,
 * arcs, and where present the call tree, the cycles and a method's costs.
 * Written element by element, never built as a tree in memory.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-profile.h"
#include "cg-xml-writer.h"

G_BEGIN_DECLS

/* Writes @profile to @stream (named @name in messages).
 * Error CG_ERROR_IO when writing fails. */
gboolean cg_write_xml (CgProfile *profile, FILE *stream, const char *name, GError **error);

/* Computes what the sections after the graph hold — sets @profile's
 * cycles or costs — and only reads the rest of @profile.  FALSE with
 * @error set on failure. */
typedef gboolean (*CgWriteXmlDerive) (CgProfile *profile, gpointer data, GError **error);

/* As cg_write_xml, with @derive run on a thread of its own while the
 * sources, events, objects, files, functions, arcs, call tree and
 * contexts are written: a filter's computation then overlaps its output,
 * and the next filter's reading of it.  Its error ends the document
 * where it is and is this function's (output already written stays: a
 * caller that must not leave it writes to a temporary file).  Without a
 * thread, @derive runs first. */
gboolean cg_write_xml_deriving (CgProfile *profile, CgWriteXmlDerive derive, gpointer data, FILE *stream,
                                const char *name, GError **error);

/* What cgtree's XML shares with this document: a <source> element per
 * source of @profile, and the attributes of an <event> element (name,
 * unit, kind, description, scale when not 1) for @event of @graph, inside
 * the element the caller has started. */
void cg_write_xml_sources (CgXmlWriter *w, CgProfile *profile);
void cg_write_xml_event_attributes (CgXmlWriter *w, CgGraph *graph, guint event);

G_END_DECLS
