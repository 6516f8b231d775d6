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

/* What cgtree's XML shares with this document: a <source> element per
 * source of @profile, and the attributes of an <event> element (name,
 * unit, kind, description, scale when not 1) for @event of @graph, inside
 * the element the caller has started. */
void cg_write_xml_sources (CgXmlWriter *w, CgProfile *profile);
void cg_write_xml_event_attributes (CgXmlWriter *w, CgGraph *graph, guint event);

G_END_DECLS
