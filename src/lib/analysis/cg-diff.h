/* cg-diff.h — what changed between two profiles of one program.
 *
 * Both profiles are costed by the same method (cg_method_resolve_both:
 * the best both allow), then their functions are matched: first by
 * (object, name), then, among those left, by a key that ignores the
 * object's directory and the suffixes compilers add to clones
 * (".constprop.0", ".isra.0", ".part.0", ".cold", "[clone .xxx]"), where
 * exactly one function of each profile has the key (a key shared by
 * several functions of one profile matches nothing: merging them would
 * change the totals), and last, among those still left, by that name
 * alone, unique alike (two builds named apart: prog-O1, prog-O2); perf's
 * --split roots (comm-PID, comm-PID/TID) by the order of their numbers,
 * where a command has as many left in each.  Arcs match through their
 * ends.
 *
 * A difference is exact where both totals are (callgrind's recursion
 * split, Min_E over a call tree or contexts): a difference of exact
 * totals cannot move the wrong way under recursion, one of estimates can,
 * and is marked estimated.  Values are in one kind for both profiles:
 * integers in the event's stored unit where both are integers on one
 * scale and the base is not normalized, else reals in the event's unit.
 *
 * Complexity: O(|V| + |E|) of both profiles, plus sorting.
 */
#pragma once

#include <glib.h>

#include "cg-cost.h"
#include "cg-profile.h"

G_BEGIN_DECLS

typedef struct {
  /* match (object, name) as they are, without folding directories and
   * clone suffixes */
  gboolean exact_names;
  /* scale the base so that its total equals the new profile's (pprof's
   * -normalize): the difference then shows shares, not amounts */
  gboolean normalize;
} CgDiffOptions;

/**
 * CgDiffPresence:
 * @CG_DIFF_BOTH: the function is in both profiles.
 * @CG_DIFF_ADDED: only in the new profile.
 * @CG_DIFF_REMOVED: only in the base.
 */
typedef enum {
  CG_DIFF_BOTH,
  CG_DIFF_ADDED,
  CG_DIFF_REMOVED,
} CgDiffPresence;

/* One function of the difference.  Values absent from a profile are 0. */
typedef struct {
  CgFunctionId base;   /* in the base's graph, or CG_NO_ID */
  CgFunctionId new;    /* in the new profile's graph, or CG_NO_ID */
  CgDiffPresence presence;
  CgValue base_self, new_self, base_total, new_total; /* cg_diff_kind (), stored unit */
  gboolean estimated;  /* a total of either is estimated */
} CgDiffFunction;

typedef struct _CgDiff CgDiff;

/* The difference from @base (its @base_costs, event @base_event) to @new
 * (@new_costs, @new_event).  Borrows both profiles and results until
 * freed.  Errors: CG_ERROR_MISMATCH when the two events have different
 * units; CG_ERROR_OVERFLOW. */
CgDiff *cg_diff_new (CgProfile *base, const CgCosts *base_costs, guint base_event, CgProfile *new,
                     const CgCosts *new_costs, guint new_event, const CgDiffOptions *options, GError **error);
void cg_diff_free (CgDiff *diff);

/* The functions, by absolute change of total descending, then by label. */
guint cg_diff_n_functions (const CgDiff *diff);
const CgDiffFunction *cg_diff_function (const CgDiff *diff, guint i);
/* The row of @f of the new profile (never NULL for a valid id). */
const CgDiffFunction *cg_diff_of_new (const CgDiff *diff, CgFunctionId f);

/* The kind of every value, and the scale that turns them into the event's
 * unit. */
CgKind cg_diff_kind (const CgDiff *diff);
gdouble cg_diff_scale (const CgDiff *diff);

/* The profiles' totals (sums of self costs), the base's normalized. */
CgValue cg_diff_base_sum (const CgDiff *diff);
CgValue cg_diff_new_sum (const CgDiff *diff);

/* The cost the calls on the base's arc matching @arc of the new profile
 * carried, normalized like the rest; FALSE (and 0) when the base has no
 * such arc.  An arc from a perf process's root (CG_OBJECT_PROCESS), where
 * the base has no such root (a gmon.out), is the callee as a root: its
 * total in the base. */
gboolean cg_diff_base_arc (const CgDiff *diff, CgArcId arc, CgValue *value);

/* Whether the cost of the base's arc matching @arc of the new profile is
 * an estimate (FALSE where the base has no such arc; the callee's total,
 * as cg_diff_base_arc takes it). */
gboolean cg_diff_base_arc_is_estimated (const CgDiff *diff, CgArcId arc);

/* One arc of the difference: a caller/callee pair of the new profile, of
 * the base, or of both (the base's ends matched to the new one's by the
 * function matching, which is one to one, so arcs are too).  Values absent
 * from a profile are 0. */
typedef struct {
  CgArcId base;        /* in the base's graph, or CG_NO_ID */
  CgArcId new;         /* in the new profile's graph, or CG_NO_ID */
  /* the ends in each graph, CG_NO_ID where that profile lacks the function */
  CgFunctionId base_caller, base_callee, new_caller, new_callee;
  CgDiffPresence presence;
  guint64 base_calls, new_calls;
  CgValue base_cost, new_cost; /* the calls' inclusive cost, cg_diff_kind (), stored unit */
  gboolean estimated;  /* a cost of either is estimated */
} CgDiffArc;

/* Every arc of either profile, by absolute change of cost descending,
 * then by caller and callee label.  O(|E| log |E|).  (transfer full: an
 * array of CgDiffArc) */
GArray *cg_diff_arcs (const CgDiff *diff);

/* Whether every total of both results is exact, so every difference is. */
gboolean cg_diff_is_exact (const CgDiff *diff);
/* The factor the base was scaled by (1 without normalizing). */
gdouble cg_diff_base_factor (const CgDiff *diff);

/* Where the two events compared have different names (a gmon.out's
 * "time" against an amon.out's "cpu-time"; Xdebug's Time_(µs) against
 * Time_(10ns), the base brought to the new unit), what each view says of
 * it: "the base's time against the new profile's cpu-time, both in ms",
 * @unit being the unit the view shows the values in (its
 * cg_display_unit; NULL or "": the new event's unit; the same time as
 * the new event's is said in the event's words, "seconds"); else NULL.
 * (transfer full) */
char *cg_diff_events_note (const CgDiff *diff, const char *unit);

CgProfile *cg_diff_base (const CgDiff *diff);
CgProfile *cg_diff_new_profile (const CgDiff *diff);
/* The event compared, in the base's graph and in the new one's. */
guint cg_diff_base_event (const CgDiff *diff);
guint cg_diff_new_event (const CgDiff *diff);

/* Appends @f's change (new - base) as a signed decimal in the event's
 * unit ("-12", "3.5", "0"); @total: of its total, else of its self. */
void cg_diff_append_change (const CgDiff *diff, GString *out, const CgDiffFunction *f, gboolean total);

/* Sampling noise.  Where both profiles' events were sampled (perf,
 * gmon.out's histogram, folded stacks: cg_graph_event_samples), a cost c
 * of a profile of total T holds c/p of its T/p samples of cost p, a
 * binomial count whose variance is p·c·(1 - c/T) in cost (about its
 * square root in samples, Poisson's, for a small share; none for the
 * whole); the change's standard deviation is the square root of the two
 * profiles' variances added, in the event's unit.  That is the sampling's share of the noise only: a program's runs
 * also vary with the machine's load, which two profiles cannot show.
 * cg_diff_sampled: whether both were sampled; cg_diff_sample_cost: one
 * sample's cost in the event's unit, the base's (@base) normalized, or
 * the new profile's; cg_diff_noise: the standard deviation of the change
 * from @base to @new (values of cg_diff_kind, as the rows hold them), 0
 * where not sampled; cg_diff_within_noise: sampled, and the change at
 * most twice that (about 95% of the changes of a run against a run of
 * the same program lie within it). */
gboolean cg_diff_sampled (const CgDiff *diff);
gdouble cg_diff_sample_cost (const CgDiff *diff, gboolean base);
gdouble cg_diff_noise (const CgDiff *diff, CgValue base, CgValue new);
gboolean cg_diff_within_noise (const CgDiff *diff, CgValue base, CgValue new);

/* The change as a double in the event's unit. */
gdouble cg_diff_change (const CgDiff *diff, CgValue base, CgValue new);

/* The matching key of @name in @object when names are folded: the
 * object's file name, and the name without compiler clone suffixes.
 * (transfer full) */
char *cg_diff_key (const char *object, const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgDiff, cg_diff_free)

G_END_DECLS
