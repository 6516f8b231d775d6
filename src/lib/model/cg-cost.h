/* cg-cost.h — the result of a cost method: totals per function and arc.
 *
 * A method (cg-method.h) turns a profile into, per function, its total
 * (inclusive) cost c_t(f) and, per arc (g, f), the part of f's total that
 * the calls from g carried; self costs stay those of the graph.  Each
 * value says whether it is exact or estimated, and the result says which
 * method produced it.
 *
 * Values are vectors over the graph's events.  Exact methods keep each
 * event's kind; estimating methods (gprof, decompose) produce reals, so
 * a result has kinds of its own (the kinds of its values, not a copy of
 * the schema's).  A result describes the graph as it was when it was
 * stored in the profile (cg_profile_set_costs), which refuses it once the
 * graph has changed.
 */
#pragma once

#include <glib.h>

#include "cg-graph.h"

G_BEGIN_DECLS

/**
 * CgMethod:
 * @CG_METHOD_AUTO: the best the data allows (resolved before computing).
 * @CG_METHOD_MEASURED: callgrind's measured inclusive costs with its
 *   recursion split (design §3 "Measured inclusive").
 * @CG_METHOD_EXACT: Kaes's Min_E rule over a call tree or contexts.
 * @CG_METHOD_GPROF: gprof's propagation, cycles as units.
 * @CG_METHOD_DECOMPOSE: gprof2dot's linear decomposition inside cycles.
 *
 * The methods themselves (names, rules, computation) are the table of
 * cg-method.h; the results record which row made them.
 */
typedef enum {
  CG_METHOD_AUTO,
  CG_METHOD_MEASURED,
  CG_METHOD_EXACT,
  CG_METHOD_GPROF,
  CG_METHOD_DECOMPOSE,
} CgMethod;


typedef struct _CgCosts CgCosts;

/* Zero totals for @n_functions functions and @n_arcs arcs over the events
 * of @graph; @method must not be CG_METHOD_AUTO. */
CgCosts *cg_costs_new (CgMethod method, const CgGraph *graph);
void cg_costs_free (CgCosts *costs);

CgMethod cg_costs_method (const CgCosts *costs);
guint cg_costs_n_functions (const CgCosts *costs);
guint cg_costs_n_arcs (const CgCosts *costs);
guint cg_costs_n_events (const CgCosts *costs);
CgKind cg_costs_kind (const CgCosts *costs, guint event);
const CgKind *cg_costs_kinds (const CgCosts *costs);

/* Total vector of function @f (n_events values). */
CgValue *cg_costs_total (CgCosts *costs, CgFunctionId f);
const CgValue *cg_costs_total_const (const CgCosts *costs, CgFunctionId f);
/* Cost vector carried by arc @a. */
CgValue *cg_costs_arc (CgCosts *costs, CgArcId a);
const CgValue *cg_costs_arc_const (const CgCosts *costs, CgArcId a);

/* Optional split of an arc's cost into the part spent in the callee
 * itself and the part spent in the callee's descendants (gprof's "self"
 * and "children" columns on arc lines; Spivey's self_1 and child_1).
 * cg_costs_arc_self() and cg_costs_arc_children() allocate the split on
 * first use (zeros); the _const forms return NULL when there is none. */
gboolean cg_costs_has_arc_split (const CgCosts *costs);
CgValue *cg_costs_arc_self (CgCosts *costs, CgArcId a);
CgValue *cg_costs_arc_children (CgCosts *costs, CgArcId a);
const CgValue *cg_costs_arc_self_const (const CgCosts *costs, CgArcId a);
const CgValue *cg_costs_arc_children_const (const CgCosts *costs, CgArcId a);

/* Optional second split, Spivey's self_2 and child_2 (Spivey 2004,
 * "Presenting the results"): the same arc's time seen as the incoming arc
 * of the callee's most recent activation, where the first split is the
 * outgoing arc of the caller's.  They differ only under mutual recursion.
 * Same allocation rules as the first split. */
gboolean cg_costs_has_arc_split2 (const CgCosts *costs);
CgValue *cg_costs_arc_self2 (CgCosts *costs, CgArcId a);
CgValue *cg_costs_arc_children2 (CgCosts *costs, CgArcId a);
const CgValue *cg_costs_arc_self2_const (const CgCosts *costs, CgArcId a);
const CgValue *cg_costs_arc_children2_const (const CgCosts *costs, CgArcId a);

gboolean cg_costs_total_is_estimated (const CgCosts *costs, CgFunctionId f);
void cg_costs_set_total_estimated (CgCosts *costs, CgFunctionId f, gboolean estimated);
gboolean cg_costs_arc_is_estimated (const CgCosts *costs, CgArcId a);
void cg_costs_set_arc_estimated (CgCosts *costs, CgArcId a, gboolean estimated);

/* What the method found wrong with its data and made right (a message
 * for people, without the program's name): added by the method,
 * printed by the tools.  cg_costs_warning gives the @i-th (from 0), or
 * NULL past the last; the string is owned by @costs. */
void cg_costs_add_warning (CgCosts *costs, const char *message);
const char *cg_costs_warning (const CgCosts *costs, guint i);

/* TRUE when any function total is estimated. */
gboolean cg_costs_any_estimated (const CgCosts *costs);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgCosts, cg_costs_free)

G_END_DECLS
