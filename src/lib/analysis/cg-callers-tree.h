/* cg-callers-tree.h — who made the hot spots' cost: a callers tree.
 *
 * The view perf report --no-children, pprof -peek and speedscope's
 * sandwich open with: the roots are the functions with the most self cost
 * (c_i, Kaes's notation), largest first; under a root f, its callers g,
 * each with the part of f's self cost spent in calls from g; under g, its
 * callers h with the part of that part that came through h -> g -> f; and
 * so on.  Every line is a share of its parent's, so the numbers nest.
 *
 * Where the profile has a call tree (folded stacks, perf) or contexts
 * (amon.out, Spivey), the shares are exact: a unit of self cost is
 * followed up its own stack.  Recursion is followed to its outermost
 * caller: a function already on the line's path is passed over, so a
 * recursive function's callers are those from outside the recursion (and
 * even < odd < main for mutual recursion).  Where the profile has only a
 * call graph (callgrind, gmon.out), the shares are estimated: a line's
 * value is divided among the callers of its function not on its path in
 * proportion to the cost of their calls (their arcs' inclusive costs, or
 * call counts where the arcs carry no cost), gprof's average-time
 * assumption; such lines are marked estimated.
 *
 * A node stands for a path root <- ... <- caller; its arc is the arc
 * (caller, callee) where the caller called the callee directly, CG_NO_ID
 * where recursion was passed over in between or for a root.  The tree is
 * built largest node first and stops at a number of nodes: O(N log N)
 * time for N nodes made, plus, with a call tree, the frames' stack walks
 * (each unit of self cost walks up its stack once per line it is on).
 * No recursion.
 */
#pragma once

#include <glib.h>

#include "cg-display-tree.h"
#include "cg-profile.h"

G_BEGIN_DECLS

typedef struct {
  guint event;
  const CgFunctionId *roots; /* nullable: the roots; default every function with self cost */
  guint n_roots;
  gdouble min_percent;       /* lines below this percent of the profile's total are not made */
  guint max_depth;           /* 0: no limit; roots are depth 1 */
  guint max_nodes;           /* 0: 200,000 */
  const guint8 *skip;        /* nullable, per function: never a caller line (start-up code) */
} CgCallersTreeOptions;

/* The callers tree of @profile with @costs (whose method says whether
 * the profile's call tree or contexts are to be used: exact costs use
 * them).  The tree is inverted and of given nodes
 * (cg_display_tree_new_given), values of @costs' kind for the event; it
 * borrows @profile's graph.  Error CG_ERROR_OVERFLOW when the profile's
 * total exceeds 64 bits. */
CgDisplayTree *cg_callers_tree_new (CgProfile *profile, const CgCosts *costs, const CgCallersTreeOptions *options,
                                    GError **error);

/* Whether cg_callers_tree_new's shares are exact for @profile (it has a
 * call tree or contexts) rather than estimated from its arcs. */
gboolean cg_callers_tree_exact (CgProfile *profile);

G_END_DECLS
