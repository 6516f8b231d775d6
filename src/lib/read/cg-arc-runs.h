/* cg-arc-runs.h — private: arcs appended in runs of one caller, merged
 * once at the end.
 *
 * A reader whose arcs come grouped by caller (callgrind lists a context's
 * calls together; a cgtools document lists its arcs as the graph held
 * them, which is that order) finds a repeated arc of the run in a small
 * table, and appends every other arc without looking it up: the graph
 * never builds its arc index (4 bytes an arc, and a lookup a cache miss
 * or two each).  A caller's second run finds its first run's arcs too;
 * the same arc in a third run is appended again, and cg_arc_runs_merge
 * merges such repeats, looking only at the callers that had three runs
 * or more, or at every arc when the graph held arcs before.
 */
#pragma once

#include <glib.h>

#include "cg-graph.h"

G_BEGIN_DECLS

typedef struct _CgArcRuns CgArcRuns;

/* Runs of arcs appended to @graph (borrowed: it must outlive the runs). */
CgArcRuns *cg_arc_runs_new (CgGraph *graph);
void cg_arc_runs_free (CgArcRuns *runs);

/* Ends the current run: the arcs that come next start another, even if
 * their caller is the same. */
void cg_arc_runs_next (CgArcRuns *runs);

/* The arc @caller -> @callee in the current run: the one the run already
 * has, or a new one appended to the graph (zero calls and costs).  A run
 * holds the arcs of one caller: an arc of another ends it.  CG_NO_ID when
 * the graph can hold no more arcs. */
CgArcId cg_arc_runs_arc (CgArcRuns *runs, CgFunctionId caller, CgFunctionId callee);

/* Merges the arcs repeated across runs (cg_graph_merge_arcs, whose
 * @renumbered and errors these are) and starts afresh: the graph then
 * holds each caller and callee once. */
gboolean cg_arc_runs_merge (CgArcRuns *runs, CgArcId **renumbered, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgArcRuns, cg_arc_runs_free)

G_END_DECLS
