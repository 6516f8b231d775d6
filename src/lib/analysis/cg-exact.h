/* cg-exact.h — exact totals over a call tree: Kaes's Min_E rule.
 *
 * Kaes 2005, "Computing the call graph": with the call tree G_0 (frames x,
 * their functions N(x), self costs c_0(x)), the total cost of a frame is
 *     c(x) = c_0(x) + Σ_{children y} c(y),
 * and the total of a function f is
 *     c_t(f) = Σ c(x) over x ∈ Min_E([f]), the frames of f that have no
 *              ancestor frame of f,
 * which charges each unit of cost once to every distinct function on its
 * stack, however f recursed (design §3, "Exact total").  Arcs follow the
 * same rule: the cost of arc (g, f) is Σ c(x) over frames x of f whose
 * parent is a frame of g and that have no ancestor frame of f; so a
 * self-arc carries nothing, and c_t(f) is the sum of its incoming arcs'
 * costs plus the c(x) of its root frames.  The split of an arc's cost
 * into the callee's own part and its descendants' part (gprof's "self"
 * and "children" on arc lines) comes with it: the own part is Σ c_0 of
 * the frames of f inside the activations of f the arc entered.
 *
 * How: c(x) by one backward pass over the frames (parents precede
 * children); Min_E by one pre-order walk with an explicit stack and, per
 * function, a counter of its frames open on the current path (Kaes's
 * "hash of function names that occurred so far along the path"): a frame
 * is minimal when its function's counter is zero on entry.
 * O(|V| + |E|) time for a tree of |V| frames, O(|V|) memory; no C
 * recursion, so a million-frame stack is one loop.
 *
 * Values keep each event's kind: integer events stay exact integers
 * (checked, never wrapped), real events are summed as doubles.
 */
#pragma once

#include <glib.h>

#include "cg-cost.h"
#include "cg-graph.h"
#include "cg-profile.h"
#include "cg-tree.h"

G_BEGIN_DECLS

/* Whether @profile has a call tree that accounts for all of its graph's
 * self costs (per function and event; for real events to a relative
 * 1e-9), i.e. whether the exact method applies.  FALSE when there is no
 * tree, or when inputs without stacks were merged with ones with stacks.
 * When FALSE and @why is not NULL, *@why receives the reason (transfer
 * full).  O(|V| + functions × events). */
gboolean cg_exact_applies (CgProfile *profile, char **why);

/* Fills @held (one flag per event of @profile's graph) with whether
 * the call tree holds all of that event's self costs: an event of
 * stacks merged with a profile without them, such as perf samples with a
 * callgrind profile of the same program.  FALSE, all flags FALSE, when
 * there is no tree or it does not fit the graph.  O(|V| + functions ×
 * events). */
gboolean cg_exact_held_events (CgProfile *profile, gboolean *held);

/* Totals, arc costs and arc self/children splits of @profile by the
 * Min_E rule over its call tree (method CG_METHOD_EXACT; nothing is
 * marked estimated).  Returns a new result (transfer full).
 * Errors: CG_ERROR_UNSUPPORTED when cg_exact_applies() is FALSE (the
 * message says why), CG_ERROR_PARSE when the tree has a parent → child
 * step whose arc is missing from the graph (inconsistent XML),
 * CG_ERROR_OVERFLOW when an integer total exceeds 64 bits. */
CgCosts *cg_exact_compute (CgProfile *profile, GError **error);

/* The same for a @graph and a @tree built over its events and functions,
 * without the applicability check. */
CgCosts *cg_exact_from_tree (CgGraph *graph, CgTree *tree, GError **error);

G_END_DECLS
