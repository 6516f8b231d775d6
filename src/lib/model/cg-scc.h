/* cg-scc.h — strongly connected components of the call graph.
 *
 * Tarjan 1972, iterative (an explicit stack: graph depth is decided by the
 * data, and a million-deep chain must work).  O(|V| + |E|).
 *
 * The visiting order is gprof's (binutils cg_dfn.c), so that the component
 * "heads" and the topological numbering agree with GNU gprof: roots are
 * tried in function-index order, and a function's callees in reverse arc
 * order (gprof prepends each new arc to its lists).  Tarjan's root of a
 * component is its first-visited member, which is gprof's cycle head.
 */
#pragma once

#include <glib.h>

#include "cg-graph.h"

G_BEGIN_DECLS

/* Decides whether an arc takes part; NULL filter = every arc. */
typedef gboolean (*CgArcFilter) (CgGraph *graph, CgArcId arc, gpointer user_data);

typedef struct {
  guint n_components;
  /* per function: its component, numbered in the order Tarjan completes
   * them, which is a topological order with callees first */
  guint32 *component_of;
  /* per component: its head (first-visited member) and its size */
  CgFunctionId *head;
  guint32 *size;
} CgScc;

/* Components of @graph restricted to the arcs @filter accepts.
 * Returns a newly allocated result; free with cg_scc_free. */
CgScc *cg_scc_find (CgGraph *graph, CgArcFilter filter, gpointer user_data);
void cg_scc_free (CgScc *scc);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgScc, cg_scc_free)

G_END_DECLS
