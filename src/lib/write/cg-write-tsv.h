/* cg-write-tsv.h — the tab-separated form of a cost result, for scripts.
 *
 * A fixed contract (design §1): never change a column's meaning, only add
 * columns at the end.
 *   functions: "function<TAB>calls<TAB>self<TAB>total", then one row per
 *     function sorted by total descending, then by the function column
 *     (bytewise); calls = calls received from other functions; self and
 *     total as plain decimals in the event's unit; the function column is
 *     the name, or "name [object]" where the name is ambiguous.
 *   arcs: "caller<TAB>callee<TAB>calls<TAB>inclusive", one row per arc,
 *     sorted by inclusive descending, then caller, then callee; Spivey's
 *     four arc times after them where the method made them.
 *   exactness (opt-in, cgcost --exactness): one more column at the end,
 *     "exactness", each row's "exact" or "estimated" (the total, or the
 *     arc's cost: cg_costs_total_is_estimated, cg_costs_arc_is_estimated).
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-cost.h"
#include "cg-graph.h"

G_BEGIN_DECLS

/* Writes the function table (or with @arcs the arc table) of @costs for
 * @event to @stream.  Write errors are left in the stream's error flag. */
void cg_write_tsv (CgGraph *graph, const CgCosts *costs, guint event, gboolean arcs, FILE *stream);

/* cg_write_tsv, with @exactness the "exactness" column at the end. */
void cg_write_tsv_full (CgGraph *graph, const CgCosts *costs, guint event, gboolean arcs, gboolean exactness,
                        FILE *stream);

G_END_DECLS
