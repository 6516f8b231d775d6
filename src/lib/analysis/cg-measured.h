/* cg-measured.h — totals from measured inclusive costs (callgrind).
 *
 * Design §3 "Measured inclusive".  callgrind measures the inclusive cost
 * of every call and, by default (--separate-recs=2), names each function's
 * outermost activation plain "f" and deeper ones "f'2".  The callgrind
 * reader keeps, per arc, only the inclusive cost of calls that entered the
 * callee's outermost activation, and per function the cost of outermost
 * activations nobody called (spontaneous).  Such activations never nest,
 * so
 *     c_t(f) = spontaneous(f) + Σ_{g ≠ f} inclusive(g → f)
 * is exact: it is Kaes's Min_E total without needing the call tree.
 *
 * A cycle among such arcs is no sign of trouble: f may call g at one time
 * and g call f at another, neither nested in the other.  Calls nest only
 * when a function is entered while active, which the split prevents.
 * When a profile was taken without the split (--separate-recs=1; the
 * reader flags such functions CG_FUNCTION_NESTED) calls inside a cycle
 * nest and their inclusive costs overlap.  A cycle's own total (what
 * enters it, plus its members' spontaneous costs; or, where a producer
 * left the run's entry unrecorded and that falls short, its members' self
 * costs plus their calls out of it, which never nest) is still exact, and no
 * member's true total can exceed it; nor can the sum of the calls into
 * it, each of its activations lying in one of them.  So a flagged member,
 * or one whose sum exceeds its cycle's total, gets the lower of the two,
 * marked estimated (cProfile's calls of one caller to one callee never
 * nest, so that pyprof2calltree's members called from one place get
 * pstats' exact cumulative times); the cycle's total, as in gprof's
 * "cycle as a whole", where the sum falls below one of the member's own
 * calls out or its self cost (an activation that no recorded call made,
 * the run's first); an arc between members of such a cycle,
 * whose calls nest too, carries at most that total, marked estimated.
 * Everything else stays exact.  The cycles are the graph's, over all its
 * arcs (cg_cycles_find's), so that the cycles cgcost marks estimated are
 * the ones cgcycles lists: their whole totals are exact all the same, as
 * no call from outside a cycle into it nests in another.
 *
 * A function's total is at least its self cost plus its calls out of its
 * cycle (disjoint parts of its activations).  Other producers' files fall
 * below that (pyprof2calltree rounds each call's cost on its own, so a
 * leaf called from several places gets a total below its self cost):
 * such a total is raised to that sum, marked estimated, and counted in
 * one warning (cg_costs_warning).  Events that no arc carries (callgrind's
 * --cacheuse events) are left as they are.
 * O(|V| + |E| · events).
 */
#pragma once

#include <glib.h>

#include "cg-cost.h"
#include "cg-graph.h"

G_BEGIN_DECLS

/* Totals and arc costs of @graph by the measured method.  Errors:
 * CG_ERROR_UNSUPPORTED when the graph has no measured inclusive costs,
 * CG_ERROR_OVERFLOW when a 64-bit total would overflow. */
CgCosts *cg_measured_compute (CgGraph *graph, GError **error);

/* Where measured totals of @event in @costs (computed for @graph) exceed
 * the profile's total of it, its functions' self costs summed (what the
 * views call "in all", 100 %): the function with the largest (the
 * lowest id of equals), with its total as a percentage of the profile's
 * in *@percent and how many exceed it in *@n_above; else CG_NO_ID.  A
 * file whose inclusive costs of calls overlap does so (a producer that
 * times calls running in one another or on several threads at once, or
 * time that no function's self cost holds: a JRuby profile's root at
 * 219 %), and no total of it is then exact.  A total of a time event
 * (integer, in a unit of time) above it by no more than one unit per call
 * and per function is the producer's rounding of each call's times, not
 * counted.  Never with the other
 * methods, whose totals are parts of the self costs: CG_NO_ID for them.
 * O(|V|). */
CgFunctionId cg_measured_above_all (const CgGraph *graph, const CgCosts *costs, guint event, guint *n_above,
                                    gdouble *percent);

G_END_DECLS
