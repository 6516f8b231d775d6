/* cg-json-depth.h — how deep a JSON text nests, before json-glib sees it.
 *
 * json-glib's parser descends one C call per '[' or '{' (json-glib 1.6:
 * json_parse_value), so a document nested a million deep ends the
 * process on a full stack instead of an error.  A reader that hands
 * json-glib another's bytes checks them here first: one pass, skipping
 * strings, counting brackets.  Brackets that do not match are left to
 * json-glib, which names them.
 *
 * Complexity: O(bytes), no allocation.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when the JSON text @data (@len bytes) nests no deeper than @max
 * arrays and objects; else FALSE, with *@line and *@column (1-based, the
 * column in bytes, as json-glib counts) where the bracket that passes
 * @max is. */
gboolean cg_json_depth_within (const char *data, gsize len, guint max, guint64 *line, guint64 *column);

G_END_DECLS
