/* cg-contexts.h — Spivey's contexts: histories of routines with the time
 * spent in each.
 *
 * Spivey 2004, "Tracking the execution context" and "Data structures for
 * fast profiling".  A context is a history s_1..s_n of functions with mark
 * bits m_1..m_n; it stands for the set of items s_{i-1}[s_i]s_{i+1} with
 * m_i set: s_i is active, its most recent activation was called from
 * s_{i-1} and is calling s_{i+1}; s_n is running.  Each function is marked
 * exactly once, at its last occurrence (the unmarked earlier entries only
 * keep the arcs of the marked ones around them), so the set of functions
 * in a history is the set of active functions.  Per context: its cost
 * vector (the time spent in it, over the graph's events), how often it was
 * entered, and how many direct recursive calls were made in it.
 *
 * Sources: amon.out (cg-read-amon.h) and cgtools XML (<contexts>).
 * Contexts with equal histories are one context: adding an existing
 * history returns it, so merging profiles sums.  Costs are kept in step
 * with the graph's events like the call tree's (they share its schema).
 * Analyses: cg-spivey.h.
 *
 * Memory: histories are packed in one array; a context costs 24 bytes
 * plus 5 bytes per entry plus its cost vector.  Lookup by history is
 * expected O(n).
 */
#pragma once

#include <glib.h>

#include "cg-graph.h"

G_BEGIN_DECLS

typedef struct _CgContexts CgContexts;
typedef guint32 CgContextId;

/* No contexts yet, for the events of @graph (borrowed to read them). */
CgContexts *cg_contexts_new (const CgGraph *graph);
void cg_contexts_free (CgContexts *contexts);


guint cg_contexts_n (const CgContexts *contexts);
guint cg_contexts_n_events (const CgContexts *contexts);

/* Checks that @functions/@marked (@len entries) is a history Spivey's
 * steps A1-A5 can produce: at least one entry, each function marked at
 * its last occurrence and only there, and s_{n-1} != s_n.  On failure
 * returns FALSE and points *@why at a static explanation. */
gboolean cg_contexts_check_history (const CgFunctionId *functions, const guint8 *marked, guint len,
                                    const char **why);

/* The context with this history (@marked[i] != 0: entry i is marked),
 * created with zero counts when absent.  The history must pass
 * cg_contexts_check_history.  CG_NO_ID when 2^32-1 contexts exist. */
CgContextId cg_contexts_ensure (CgContexts *contexts, const CgFunctionId *functions, const guint8 *marked,
                                guint len);

/* The history of @k: functions and marks (@len entries; owned by
 * @contexts, valid until a context is added). */
const CgFunctionId *cg_contexts_functions (const CgContexts *contexts, CgContextId k, guint *len);
const guint8 *cg_contexts_marks (const CgContexts *contexts, CgContextId k);

/* Cost vector of @k (n_events values; valid until a context or event is
 * added). */
CgValue *cg_contexts_cost (CgContexts *contexts, CgContextId k);
const CgValue *cg_contexts_cost_const (const CgContexts *contexts, CgContextId k);

guint64 cg_contexts_entries (const CgContexts *contexts, CgContextId k);
guint64 cg_contexts_recursive (const CgContexts *contexts, CgContextId k);
/* Adds to the entry and recursion counts; FALSE (nothing added) on
 * 64-bit overflow. */
gboolean cg_contexts_add_counts (CgContexts *contexts, CgContextId k, guint64 entries, guint64 recursive);

/* Replaces every function f by @map[f] (functions merged, as when a cycle
 * is collapsed): adjacent equal entries become one, marks are set again
 * at last occurrences, and contexts that become equal are summed.
 * @graph is the graph the new ids belong to.  FALSE on overflow. */
gboolean cg_contexts_remap_functions (CgContexts **contexts, const CgGraph *graph, const CgFunctionId *map);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgContexts, cg_contexts_free)

G_END_DECLS
