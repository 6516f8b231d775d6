/* cg-gprof.h — gprof's call-graph analysis (Graham, Kessler and McKusick
 * 1982 §4, as GNU gprof 2.40 implements it in cg_arcs.c and cg_dfn.c).
 *
 * Self time per function comes from the histogram; arcs carry call
 * counts.  gprof then
 *  1. numbers the graph depth-first (roots in function order, each
 *     function's callees in reverse order of first appearance) and gloms
 *     every function between a node and a back edge to it into one cycle
 *     (the same components as Tarjan's algorithm; the head is the member
 *     the search entered first); cycles are numbered in function order of
 *     their heads;
 *  2. hands, top-down, each function a print flag and a propagation
 *     fraction from its callers (the -f/-F/-e/-E/-n/-N option tables);
 *  3. propagates, bottom-up, each callee's self time plus its
 *     descendants' time to its callers in proportion to their call counts
 *     (the average-time assumption); a cycle acts as one node whose self
 *     time is its members' sum; calls inside a cycle and self-recursive
 *     calls carry nothing and are shown as "+N";
 *  4. sorts functions and cycles by propagated time (glibc's merge sort
 *     with gprof's inconsistent comparator, reproduced step by step so
 *     that tie-breaks come out the same) and numbers them.
 * Everything is IEEE double in histogram ticks and summed in gprof's
 * order, so printed values equal gprof's to the last digit.
 *
 * Complexity: O(|V| + |E|) plus the sorts, O((|V| + cycles) log |V|);
 * no recursion (explicit stacks).
 *
 * Ownership: a CgGprof refers to the graph it was computed on, which must
 * outlive it and not change.
 */
#pragma once

#include <glib.h>

#include "cg-cost.h"
#include "cg-profile.h"

G_BEGIN_DECLS

/* gprof's symbol tables (sym_ids.h): each option adds a spec to some. */
typedef enum {
  CG_GPROF_INCL_GRAPH,
  CG_GPROF_EXCL_GRAPH,
  CG_GPROF_INCL_ARCS,
  CG_GPROF_EXCL_ARCS,
  CG_GPROF_INCL_FLAT,
  CG_GPROF_EXCL_FLAT,
  CG_GPROF_INCL_TIME,
  CG_GPROF_EXCL_TIME,
  CG_GPROF_N_TABLES,
} CgGprofTable;

typedef struct _CgGprofSpecs CgGprofSpecs;

/* Specs with gprof's default exclusions (mcount and friends, from the
 * flat profile, the call graph and time propagation). */
CgGprofSpecs *cg_gprof_specs_new (void);
void cg_gprof_specs_free (CgGprofSpecs *specs);

/* Adds @spec to @table.  A spec is gprof's FILE:FUNCTION, FILE:LINE,
 * FUNCTION, FILE (when it contains a dot) or LINE (digits); the arc
 * tables take FROM/TO with either side possibly empty (= any).  Files and
 * lines match only functions whose source location is known. */
void cg_gprof_specs_add (CgGprofSpecs *specs, CgGprofTable table, const char *spec);

/* What gprof's option letter @option with @spec does (e, E, f, F, k, n,
 * N, p, P, q, Q), as gprof.c dispatches them.  FALSE for other letters. */
gboolean cg_gprof_specs_add_option (CgGprofSpecs *specs, char option, const char *spec);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgGprofSpecs, cg_gprof_specs_free)

/* One function or cycle of the analysis (gprof's Sym.cg and hist). */
typedef struct {
  guint64 ncalls;     /* calls received, self-recursive ones excluded */
  guint64 self_calls; /* self-recursive calls (functions); calls between
                       * members (cycles) */
  gdouble time;       /* self ticks (0 when excluded from the flat profile) */
  gdouble child_time; /* ticks handed up from callees, unscaled */
  gdouble prop_self;  /* time × fraction: what the call graph prints */
  gdouble prop_child;
  gdouble fract;      /* propagation fraction */
  gboolean print;     /* has a call-graph entry */
  guint cycle;        /* 1-based cycle number, 0 = none */
  guint index;        /* 1-based position in the call graph */
  /* context data (cg_gprof_new_from_contexts): the time of the
   * function's activations that no function of the profile called (it
   * heads the history), its own and its callees'; 0 otherwise */
  gdouble spont_self;
  gdouble spont_child;
} CgGprofEntry;

/* One arc (gprof's Arc): ticks it carries, scaled by the caller's
 * fraction. */
typedef struct {
  gdouble time;
  gdouble child_time;
  gboolean kept;      /* FALSE when removed by an arc spec (-k, -q/-Q FROM/TO) */
  guint64 calls;      /* the calls gprof counts: the arc's, or 0 for an arc
                       * that only -c's code scan added (or brought back
                       * after an arc spec deleted it) */
  /* the arc seen from the callee: for context data Spivey's self_2 and
   * child_2 (time and child_time are self_1 and child_1); for gmon data
   * equal to time and child_time */
  gdouble time2;
  gdouble child_time2;
} CgGprofArc;

typedef struct _CgGprof CgGprof;

/* Whether gprof's cmp_total (cg_arcs.c), among functions of equal total
 * time, puts @name with the names it numbers last: those beginning with
 * '_'.  A name holding a parameter list is a C++ name demangled (a gprof
 * report printed without --no-demangle, callgrind's names), whose
 * linker's name, the one gprof compared, begins with _Z. */
gboolean cg_gprof_name_sorts_last (const char *name);

/* Runs gprof's analysis of @event of @profile's graph with @specs
 * (NULL: the defaults).  Uses the profile's histogram (cg-histogram.h)
 * for the sampling rate and the total; without one, the total is the sum
 * of self costs and the rate 1 / the event's scale (values print in the
 * event's unit). */
CgGprof *cg_gprof_new (CgProfile *profile, guint event, const CgGprofSpecs *specs);
void cg_gprof_free (CgGprof *gprof);

/* gprof's tables filled with exact results instead of gprof's
 * propagation, as Spivey's aprof printed its context profiles in gprof's
 * layout (Spivey 2004, "Presenting the results"): per function its self
 * time and exact total (children = total - self) from @costs, which
 * cg_spivey_compute made from @profile's contexts; per arc self_1/child_1
 * (the outgoing arc of the caller's most recent activation) as time and
 * child_time, self_2/child_2 (the incoming arc of the callee's) as time2
 * and child_time2; calls from the graph (entries, direct recursion as
 * self-calls); no cycles (exact totals need no lumping); the time of
 * activations that head their history as spont_self/spont_child; the
 * flat and call-graph 100 % the sum of self times.  Values of @event in
 * its unit (the rate is 1/scale).  Errors: CG_ERROR_UNSUPPORTED when
 * @profile has no contexts or @costs lacks Spivey's splits. */
CgGprof *cg_gprof_new_from_contexts (CgProfile *profile, const CgCosts *costs, guint event, GError **error);

/* Whether @gprof holds exact context results (above), and from how many
 * contexts. */
gboolean cg_gprof_is_exact (const CgGprof *gprof);
guint cg_gprof_n_contexts (const CgGprof *gprof);

CgGraph *cg_gprof_graph (const CgGprof *gprof);
guint cg_gprof_n_cycles (const CgGprof *gprof);
/* Entry @i: functions 0 .. n_functions-1, then cycle N at
 * n_functions + N - 1. */
const CgGprofEntry *cg_gprof_entry (const CgGprof *gprof, guint i);
const CgGprofArc *cg_gprof_arc (const CgGprof *gprof, CgArcId a);
/* The kept arcs leaving / entering @f, in gprof's list order (reverse
 * order of first appearance); self-arcs included. */
const CgArcId *cg_gprof_children (const CgGprof *gprof, CgFunctionId f, guint *n);
const CgArcId *cg_gprof_parents (const CgGprof *gprof, CgFunctionId f, guint *n);
/* Members of cycle @number in gprof's list order (head first). */
const CgFunctionId *cg_gprof_members (const CgGprof *gprof, guint number, guint *n);
/* Entries in call-graph order (cmp_total), n_functions + n_cycles. */
const guint *cg_gprof_order (const CgGprof *gprof);

/* Whether @f is in @table (after matching the specs), and whether the
 * table matched anything at all (gprof treats an unmatched table as
 * empty). */
gboolean cg_gprof_in_table (const CgGprof *gprof, CgGprofTable table, CgFunctionId f);
gboolean cg_gprof_table_used (const CgGprof *gprof, CgGprofTable table);

/* The flat profile's 100 % (all samples minus those credited to
 * functions excluded from it) and the call graph's (propagated self
 * time), in ticks; the rate in samples per second. */
gdouble cg_gprof_total_time (const CgGprof *gprof);
gdouble cg_gprof_print_time (const CgGprof *gprof);
gdouble cg_gprof_rate (const CgGprof *gprof);
/* The event analysed, and the histogram's granularity in bytes per bin
 * as gprof prints it (0 without a histogram). */
guint cg_gprof_event (const CgGprof *gprof);
guint64 cg_gprof_granularity (const CgGprof *gprof);
/* Whether the event analysed is the profile's histogram's (gmon.out, a
 * gprof report: cg-histogram.h), so that each value is a sample as gprof
 * counts them; FALSE for other sources (perf's periods in ns, folded
 * stacks' counts, callgrind's events) and for exact results. */
gboolean cg_gprof_has_histogram (const CgGprof *gprof);

/* Sorts @n entries of @items with @compare exactly as glibc 2.36's qsort
 * does (its top-down merge sort), which matters when @compare is not a
 * consistent order (gprof's cmp_total).  Recursion depth log2(n). */
void cg_gprof_msort (guint *items, gsize n, GCompareDataFunc compare, gpointer data);

/* The gprof method as a CgCosts (cg-method.h): for every event, totals
 * prop_self + prop_child and arc costs time + child_time (split into
 * self and children), in the event's stored unit; totals with
 * propagated children and all arcs are marked estimated.  @specs
 * nullable. */
CgCosts *cg_gprof_compute (CgProfile *profile, const CgGprofSpecs *specs, GError **error);

/* A warning (static text) where @graph has arcs but no call counts
 * (sampled stacks: perf, folded), whose gprof analysis propagates
 * nothing, so that every total is the function's self cost; NULL
 * otherwise.  cg_gprof_compute adds it to its costs' warnings. */
const char *cg_gprof_uncounted_warning (CgGraph *graph);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgGprof, cg_gprof_free)

G_END_DECLS
