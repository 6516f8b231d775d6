/* cg-decompose.h — estimated totals for arc-only data: gprof's propagation
 * outside cycles, Fonseca's linear decomposition inside them.
 *
 * Fonseca 2008 ("Propagating time inside recursive function cycles") as
 * gprof2dot implements it (research/gprof2dot.md §a, §c); the numbers are
 * gprof2dot's, the algorithm is not its code:
 *
 *  Weights.  Each arc (g, f) has a weight w, per event: the samples of the
 *   stacks in which g called f directly, counted per occurrence (data with
 *   a call tree, e.g. folded stacks: Σ c(x) over the tree edges (p, x)
 *   with N(p) = g, N(x) = f); else the measured inclusive cost of the calls
 *   (callgrind); else the call count (gmon.out).  Self-arcs take no part.
 *  Ratios.  An arc entering a cycle C from outside gets w / (Σ w of the
 *   arcs entering C); every other arc w / (Σ w of the callee's incoming
 *   arcs from other functions); where that sum is 0, 1 / (the number of
 *   those arcs) (gprof2dot: 1 each; see below).
 *  Outside cycles (Graham et al. 1982 §4): T(f) = self(f) + Σ over f's
 *   arcs of ratio × V(callee), where V is a function's total, or for a
 *   cycle member its whole cycle's total CT; that product is the arc's
 *   cost.
 *  A cycle C: CT = Σ over members of (self + the costs of their arcs that
 *   leave C).  For each member e called from outside C, with r_e = Σ of
 *   the ratios of those calls: rank the members by their shortest-path
 *   distance from e inside C (a plain BFS), keep the forward arcs
 *   (rank + 1), and propagate
 *       q(v) = r_e × (self(v) + leaving(v)) + Σ_{forward (v, u)} k × q(u),
 *       k = ratio(v, u) / Σ ratios of the forward arcs into u,
 *   from the deepest rank back to e; each member's total is Σ_e q_e(v), an
 *   in-cycle arc's cost Σ_e k × q_e(u).  Members of a cycle that no
 *   function outside calls get CT each (gprof2dot: 0; see below).
 *
 * Where this differs from gprof2dot, and why:
 *  - Nothing recurses and nothing is rescanned per cycle: components in
 *   topological order (cg-scc.h), one BFS and two passes per entry.  Time
 *   O(|V| + |E| + Σ_C entries(C) × (|C| + |E_C|)) however many cycles
 *   there are; the per-entry term is the definition itself (one DAG per
 *   entry).  gprof2dot adds O(#cycles × (|V| + |E|)) and a log factor,
 *   and stops with RecursionError a few hundred calls deep.
 *  - gprof2dot's issues #7 and #33: when every forward arc into a member u
 *   has weight 0, 0/0 = 1 gives each forward caller all of q(u), so the
 *   entry's share is counted more than once, and gprof2dot's consistency
 *   check (q_e(e) = r_e × CT within 0.1 %) aborts the run.  We compute
 *   what gprof2dot computes, apply the same check, and where it fails
 *   recompute that entry splitting such a q(u) equally among u's forward
 *   callers, which conserves the entry's share; elsewhere the numbers are
 *   gprof2dot's (within rounding: its sums run in hash-set order).
 *  - Where gprof2dot's totals cannot be (design §3; a reader of cgtools
 *   XML refuses them, cg-cost-check.h): members of a cycle that no
 *   function outside calls got 0, below their self costs, and get CT,
 *   gprof's bound for a cycle as a unit, marked estimated; a callee whose
 *   incoming arcs all weigh 0 was charged in full to each caller (0/0 =
 *   1), counted as often as it has callers and above the profile's total
 *   in a function calling two of them, and is shared equally.
 *  - Sums run in function and arc order, so results are the same to the
 *   bit on every run.
 *
 * Values are reals, in the events' stored units.  A total is marked
 * estimated unless the function calls no other function (then it is its
 * self cost, exactly); every arc but a self-arc is marked estimated.
 */
#pragma once

#include <glib.h>

#include "cg-cost.h"
#include "cg-graph.h"
#include "cg-profile.h"

G_BEGIN_DECLS

/**
 * CgWeights:
 * @CG_WEIGHTS_STACKS: samples of the stacks containing the call, from the
 *   call tree (gprof2dot's weight for sampled stacks: perf, collapse).
 * @CG_WEIGHTS_INCLUSIVE: measured inclusive cost of the calls (gprof2dot's
 *   weight for callgrind).
 * @CG_WEIGHTS_CALLS: call counts (gprof's and gprof2dot's weight for
 *   gprof data).
 */
typedef enum {
  CG_WEIGHTS_STACKS,
  CG_WEIGHTS_INCLUSIVE,
  CG_WEIGHTS_CALLS,
} CgWeights;

/* The weights gprof2dot would use for @profile: stacks when it has a
 * call tree that holds all its costs (cg_exact_applies), inclusive when
 * it has measured inclusive costs, calls otherwise. */
CgWeights cg_decompose_weights_for (CgProfile *profile);

/* The weight of every arc of @profile's graph per event (n_arcs ×
 * n_events, row per arc), from @source.  Transfer full (g_free). */
gdouble *cg_decompose_weights (CgProfile *profile, CgWeights source);

/* Totals and arc costs of @graph by the decomposition, with @weights as
 * cg_decompose_weights() returns them.  Returns a new result (method
 * CG_METHOD_DECOMPOSE, transfer full).  No errors on any graph; @error is
 * for symmetry with the other methods. */
CgCosts *cg_decompose_graph (CgGraph *graph, const gdouble *weights, GError **error);

/* cg_decompose_graph() of @profile's graph with its weights
 * (cg_decompose_weights_for). */
CgCosts *cg_decompose_compute (CgProfile *profile, GError **error);

G_END_DECLS
