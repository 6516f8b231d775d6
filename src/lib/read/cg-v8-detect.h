/* cg-v8-detect.h — telling V8's CPU profiles (.cpuprofile JSON) from
 * other inputs by their first bytes (formats/v8.md, "Detection").
 *
 * V8's inspector writes the profile as one JSON object whose first member
 * is "nodes", an array of node objects ({"id":1,"callFrame":{...},...});
 * "samples" and "timeDeltas" follow all the nodes, far past the window of
 * a real profile.  So the window is scanned as a JSON prefix (strings with
 * their escapes, numbers, literals, nesting), and what it shows of the
 * top-level object decides.
 *
 * Complexity: one pass over the window, no allocation, no recursion.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The row of cg-formats.h's table: TRUE when @data (@len bytes, after an
 * optional UTF-8 byte order mark; @complete: the whole input) is JSON as
 * far as it goes (or a whole JSON value, nothing but blanks after it),
 * its top-level value an object with a member "nodes", and the window
 * shows a member "samples" or "timeDeltas" of that object, or a member
 * "callFrame" of an object in the "nodes" array (V8's node, which no
 * other format has).  A complete input that stops inside the JSON is
 * taken, so that the reader names the line and column where it ends.
 * Text no stricter row takes and no looser one (folded stacks) may. */
gboolean cg_v8_detect (const guint8 *data, gsize len, gboolean complete);

G_END_DECLS
