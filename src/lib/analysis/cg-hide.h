/* cg-hide.h — pprof's --hide over a call graph alone.
 *
 * A call graph (callgrind's arcs with measured inclusive costs, gmon.out's
 * call counts, amon.out's arcs) does not say which caller a function's
 * cost ran under, so hiding a function h charges its self cost, and
 * moves its calls, to its callers in proportion to what each caller's
 * calls into h carried (the measured inclusive cost, per event; by call
 * counts where the graph has none), the average-cost assumption of gprof
 * (Graham et al., §4).  The part of h that no caller entered (its
 * spontaneous cost: a program's entry) goes as in pprof: its own cost is
 * dropped and its callees become roots for the calls it made.  Calls of
 * h to itself carry nothing and go.  Hidden functions are taken one after
 * another, so a chain of them hands its costs up to the first caller kept.
 *
 * What stays exact: a kept function's measured total, the calls into it
 * being moved whole; what is estimated: how a moved call's cost is split
 * among the callers (the arcs), and the self cost a caller takes over.
 * Cost: O(Σ over hidden h of in-degree × out-degree) besides the copy.
 */
#pragma once

#include <glib.h>

#include "cg-profile.h"

G_BEGIN_DECLS

/* A new profile (transfer full) with @profile's sources, events and call
 * graph less the functions flagged in @hide (one byte per function of
 * @profile's graph), their costs charged as above; no call tree, contexts
 * or costs (a stage computes those it needs).  Integer events are rounded
 * to the nearest unit once at the end.  Errors: CG_ERROR_OVERFLOW when a
 * cost exceeds 64 bits. */
CgProfile *cg_hide_graph (CgProfile *profile, const guint8 *hide, GError **error);

G_END_DECLS
