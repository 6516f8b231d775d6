/* cg-read-xml.h — cgtools XML in, streamed through libxml2's SAX2 push parser.
 *
 * Reads a document written by cg_write_xml() (schema formats/cgtools.rng)
 * and adds its data to a profile: events by name, functions by (object,
 * name), arcs by (caller, callee), frames by path, costs summed.  So
 * cgmerge merges its own XML like any other input, and merging is
 * associative and commutative.  O(size of the document); the document is
 * never held in memory as a tree.  The rows (the bulk) are applied on a
 * second thread while the parser goes on (cg-worker.h).
 */
#pragma once

#include <glib.h>

#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* Adds the document on @input to @profile.  With @keep_derived (the
 * profile was empty), the document's cycles and costs are kept too.
 * Errors: CG_ERROR_PARSE ("NAME:LINE: ...") for XML that is not well formed
 * or does not follow the schema, CG_ERROR_MISMATCH for events that cannot
 * be merged, CG_ERROR_OVERFLOW, CG_ERROR_IO. */
gboolean cg_read_xml (CgProfile *profile, CgInput *input, gboolean keep_derived,
                      const CgReadOptions *options, GError **error);

/* The row of cg-formats.h's table: a <cgtools> root element, after a
 * byte order mark and a prolog (white space, the XML declaration,
 * comments, processing instructions, a document type declaration) that
 * ends in @data, and its start tag whole and well formed: other XML is no
 * profile; and cg_read_xml()
 * keeping the derived data only when @profile was empty, since they
 * would describe other data otherwise. */
gboolean cg_xml_detect (const guint8 *data, gsize len, gboolean complete);
gboolean cg_read_xml_into (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error);

/* cg_read_xml(), with the rows applied on a second thread, handed over at
 * the end of each rows element and every @block bytes within one; with
 * @block 0, applied by the parsing thread at the end of each rows element.
 * All give the same profile or the same error (the first in the
 * document): tests and the fuzz target compare them. */
gboolean cg_read_xml_in_blocks (CgProfile *profile, CgInput *input, gboolean keep_derived, gsize block,
                                GError **error);

G_END_DECLS
