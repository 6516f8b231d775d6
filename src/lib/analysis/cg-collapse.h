/* cg-collapse.h — each cycle replaced by one function "<cycle N>".
 *
 * gprof's view of recursion (Graham et al. 1982 §4): the members of a
 * cycle act as one node whose self cost is theirs summed, whose callers
 * are the arcs entering the cycle and whose callees are the arcs leaving
 * it.  Calls between different members become the cycle's self-arc (its
 * "+N" in gprof); members' own self-arcs are dropped with them.  Measured
 * inclusive costs of arcs entering a cycle are kept: such calls never
 * nest, so they stay exact.  A call tree, when present, is remapped the
 * same way.  The result has no cycles left.  O(|V| + |E| + frames).
 */
#pragma once

#include <glib.h>

#include "cg-profile.h"

G_BEGIN_DECLS

/* Replaces the data of @profile by its collapsed form, using its cycles
 * (found first when absent).  Derived data are dropped.  Error
 * CG_ERROR_OVERFLOW when merged costs exceed 64 bits. */
gboolean cg_collapse_cycles (CgProfile *profile, GError **error);

/* Replaces the data of @profile by the same data with some functions
 * merged: function f becomes function @into[f] (n_functions entries;
 * @into[f] == f for a function kept, and a function merged into another
 * is merged into one that is kept).  Self and spontaneous costs, calls
 * and inclusive costs are summed, an arc between two merged functions
 * becomes a self-arc, the call tree's sibling frames that become one
 * function are merged; the kept functions keep their order, location
 * and flags.  Derived data are dropped.  Error CG_ERROR_OVERFLOW when
 * merged costs exceed 64 bits.  O(|V| + |E| + frames). */
gboolean cg_merge_functions (CgProfile *profile, const CgFunctionId *into, GError **error);

G_END_DECLS
