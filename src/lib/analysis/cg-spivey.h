/* cg-spivey.h — exact costs and traversed cycles from Spivey's contexts.
 *
 * Spivey 2004, "Presenting the results".  Each context's cost (time) is
 * charged:
 *  - as self cost to its running routine s_n (the graph's self costs,
 *    which the readers fill);
 *  - to the total of every distinct function of its history, once each
 *    (the history holds exactly the active functions; this is the exact
 *    total of Kaes's Min_E rule);
 *  - for each marked entry s_i (the item s_{i-1}[s_i]s_{i+1}):
 *      to the arc s_i -> s_{i+1} (the outgoing arc of s_i's most recent
 *      activation) as self_1 when s_{i+1} is the running routine, else as
 *      child_1;
 *      to the arc s_{i-1} -> s_i (its incoming arc) as self_2 when s_i is
 *      the running routine, else as child_2.
 * An arc's cost (cg_costs_arc) is self_1 + child_1, split in
 * cg_costs_arc_self/_children; self_2/child_2 are the second split.  The
 * two agree unless the program recursed mutually.
 *
 * Traversed cycles ("cycles actually traversed during execution", same
 * section: "states where the running routine P also appears as an
 * unmarked entry earlier in the history"): where the running routine s_n
 * occurs earlier, last at s_j, the call that entered the context closed
 * the cycle of the distinct functions of s_j..s_{n-1}.  That earlier
 * entry is s_n's most recent activation, marked until the call and so
 * never dropped by A4, and every function activated since has an entry
 * after it, so the set is exact.  A cycle's traversals are the entries
 * of the contexts whose running routine closes it; only such cycles are
 * listed.  Its cost is that of every context in which it is open, once
 * per context: a function that recurs at s_i with an earlier entry s_j
 * opened a cycle; A4 may have dropped some of its members between the
 * two (they recur after s_i), so it is every listed cycle holding all of
 * s_j..s_{i-1} whose members all occur at s_j or after.
 *
 * Complexity: O(total history length) for costs, the same times the
 * history length for cycles.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-cost.h"
#include "cg-profile.h"

G_BEGIN_DECLS

/* Costs of method CG_METHOD_EXACT from the profile's contexts (arcs the
 * contexts imply but the graph lacks are added to the graph with no
 * calls).  Errors: CG_ERROR_UNSUPPORTED without contexts,
 * CG_ERROR_OVERFLOW. */
CgCosts *cg_spivey_compute (CgProfile *profile, GError **error);

/* The contexts' costs as calls into outermost activations, for formats
 * whose arcs must add up to their callees' totals (callgrind's; Spivey's
 * arcs are per most recent activation, and into a cycle they add up to
 * more): each context's cost goes, for every distinct function g of its
 * history, to the arc from the entry before g's first entry (before its
 * marked one when the graph lacks that arc), or to g's spontaneous cost
 * when g starts the history.  So a function's total is its spontaneous
 * cost plus its incoming arcs', and a self-arc carries nothing.  Fills
 * @arcs (n_arcs × n_events) and @spontaneous (n_functions × n_events;
 * nullable, for a caller that derives it from the totals), which the
 * caller zeroes, in the graph's event kinds.  Errors:
 * CG_ERROR_UNSUPPORTED without contexts, CG_ERROR_OVERFLOW. */
gboolean cg_spivey_entering (CgProfile *profile, CgValue *arcs, CgValue *spontaneous, GError **error);

typedef struct {
  CgFunctionId *members;  /* sorted by function id */
  guint n_members;
  CgValue *cost;          /* n_events values: contexts in which it is open */
  guint64 traversals;     /* calls that closed it (> 0 unless counts were zeroed) */
} CgTraversedCycle;

/* The cycles traversed in the profile's contexts, by cost (the first
 * event) descending, then traversals, then members.  A GArray of
 * CgTraversedCycle that frees its members (transfer full).  Errors:
 * CG_ERROR_UNSUPPORTED without contexts, CG_ERROR_OVERFLOW. */
GArray *cg_spivey_traversed_cycles (CgProfile *profile, GError **error);

G_END_DECLS
