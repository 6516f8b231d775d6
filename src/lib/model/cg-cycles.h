/* cg-cycles.h — the numbered cycles of a call graph.
 *
 * A cycle is a strongly connected component with more than one member; a
 * function that only calls itself is self-recursive, not a cycle (gprof,
 * Graham et al. 1982 §4).  Cycles are numbered as GNU gprof numbers them:
 * in the order of their heads' function indexes (gprof's cycle_link walks
 * symbols in address order; readers that have addresses create functions
 * in that order).
 */
#pragma once

#include <glib.h>

#include "cg-graph.h"
#include "cg-scc.h"

G_BEGIN_DECLS

typedef struct _CgCycles CgCycles;

/* The cycles of @graph over the arcs @filter accepts (NULL: all arcs). */
CgCycles *cg_cycles_find (CgGraph *graph, CgArcFilter filter, gpointer user_data);

/* An empty set for a graph of @n_functions, to be filled by
 * cg_cycles_add (used when reading cycles from XML). */
CgCycles *cg_cycles_new (guint n_functions);

/* Adds cycle number count+1 with @head and @members (@n >= 2, distinct,
 * in no other cycle, all < n_functions).  Error CG_ERROR_PARSE otherwise. */
gboolean cg_cycles_add (CgCycles *cycles, CgFunctionId head, const CgFunctionId *members, guint n,
                        GError **error);

void cg_cycles_free (CgCycles *cycles);

guint cg_cycles_count (const CgCycles *cycles);
guint cg_cycles_n_functions (const CgCycles *cycles);

/* The cycle number (1-based) of @f, or 0 when @f is in no cycle. */
guint cg_cycles_cycle_of (const CgCycles *cycles, CgFunctionId f);

/* Members of cycle @number in function-index order (owned by @cycles). */
const CgFunctionId *cg_cycles_members (const CgCycles *cycles, guint number, guint *n_members);
CgFunctionId cg_cycles_head (const CgCycles *cycles, guint number);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgCycles, cg_cycles_free)

G_END_DECLS
