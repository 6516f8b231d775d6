/* cg-cost-check.h — what no cost method can give: the bounds that the
 * definitions of design §3 put on a result, checked one item at a time
 * where a result is read rather than computed (cgtools XML's <costs>,
 * which cgcost writes and cgtree and the differences read back).
 *
 * A function's total c_t(f) holds its self cost and lies within the
 * profile's total (the sum of the self costs: every unit of cost is
 * charged at most once to a function, by Min_E, Spivey's contexts,
 * gprof's propagation and the decomposition alike).  An arc (g, f)
 * carries a part of the calls from g, which lie in g's activations, so
 * at most g's total.  No cost is negative.  Reals (estimates) are allowed
 * the arithmetic's rounding, 1e-9 of the profile's total.
 *
 * The measured method is the one exception: it sums the inclusive costs
 * the producer measured, and where those overlap (calls timed in one
 * another or on several threads at once) its totals are the file's and
 * may break these bounds (cg-measured.h says how and warns).  A measured
 * value that breaks one is accepted where the measured method computes no
 * less of the same file's data (a value of its own), as a stored result
 * is then what cgcost wrote.
 *
 * Linear in the profile for the set-up (its self totals), constant per
 * item; the measured method's own result, where asked for, is computed
 * once, linear too.
 */
#pragma once

#include <glib.h>

#include "cg-cost.h"
#include "cg-profile.h"

G_BEGIN_DECLS

typedef struct _CgCostCheck CgCostCheck;

/* A check of @costs (its values as they are when each item is checked)
 * against @profile, whose graph @costs describes (transfer none: both
 * must outlive the check).  Reads the profile's self totals now. */
CgCostCheck *cg_cost_check_new (CgProfile *profile, const CgCosts *costs);
void cg_cost_check_free (CgCostCheck *check);

/* NULL where function @f's total in the costs can be, else what it is
 * and what was expected, for people ("main's total of Ir, 55246846, is
 * above the profile's total, 12248083 (the sum of the self costs):
 * expected at most that"; transfer full). */
char *cg_cost_check_total (CgCostCheck *check, CgFunctionId f);

/* The same for arc @a's cost and its split into self and children (both
 * of them), whose caller's total must be in the costs already. */
char *cg_cost_check_arc (CgCostCheck *check, CgArcId a);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgCostCheck, cg_cost_check_free)

G_END_DECLS
