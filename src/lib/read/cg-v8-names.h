/* cg-v8-names.h — the functions of a V8 CPU profile's nodes.
 *
 * A node's callFrame says where its code is: functionName (empty for an
 * anonymous function), url (the script; empty for V8's own nodes and
 * native code), lineNumber and columnNumber (0-based; -1 where there is
 * none).  Chrome DevTools tells functions apart by all four.  Here a
 * function is (object, name) (cg-graph.h): the name the functionName,
 * "(anonymous)" for an empty one, as DevTools shows it; the object the
 * url, or "URL@LINE" (1-based) for a function whose name the script has
 * at another line too, and for every anonymous function, so that two are
 * never one ("URL@LINE:COLUMN" where they share a line).  The file of the
 * function is the url, its line lineNumber + 1.  formats/v8.md,
 * "Functions".
 *
 * Ownership: a CgV8Names borrows the graph and the JSON nodes (the
 * parser's), which must outlive it.
 * Complexity: O(nodes) with a few hash look-ups per node.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "cg-graph.h"

G_BEGIN_DECLS

typedef struct _CgV8Names CgV8Names;

/* Reads the callFrame of each of @nodes (the profile's "nodes" array),
 * for functions in @graph; *@names receives the result (transfer full).
 * Errors: CG_ERROR_PARSE "NAME: nodes[I].callFrame...: ..." (@name: the
 * input's) for a node without a callFrame object, a functionName or url
 * that is not a string, a lineNumber or columnNumber that is not an
 * integer. */
gboolean cg_v8_names_new (CgGraph *graph, const char *name, JsonArray *nodes, CgV8Names **names, GError **error);

void cg_v8_names_free (CgV8Names *names);

/* The function of node @i (an index into the nodes array), added to the
 * graph when new (with its url and line as its location); CG_NO_ID when
 * the graph has 2^32-1 functions. */
CgFunctionId cg_v8_names_function (CgV8Names *names, guint i);

/* The functionName of node @i as the profile has it. */
const char *cg_v8_names_raw (const CgV8Names *names, guint i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgV8Names, cg_v8_names_free)

G_END_DECLS
