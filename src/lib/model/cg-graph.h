/* cg-graph.h — the call graph G_t: events, functions, arcs and their costs.
 *
 * Kaes 2005 ("Computing the call graph"): functions are the merged frames,
 * an arc (g, f) exists when g called f.  Everything lives in arrays owned by
 * the graph and addressed by index; names are interned once; freeing a
 * graph frees a few arrays, whatever its size.
 *
 * Identity: a function is (object, name).  callgrind's recursion levels and
 * caller contexts (fib'2, f'main) are folded by the readers before they
 * reach the graph, so the graph always describes source functions.
 *
 * Costs are vectors over the graph's events (see cg-value.h):
 *  - self: cost spent in the function itself (Kaes's c_i);
 *  - arc calls: call count, 64-bit;
 *  - arc inclusive (only where the source measured it, i.e. callgrind):
 *    the inclusive cost of the calls on this arc that entered the callee's
 *    outermost activation (calls that nest inside another activation of the
 *    callee are counted in calls but carry no inclusive cost, which is
 *    Kaes's Min_E rule applied to arcs);
 *  - spontaneous inclusive (same sources): the inclusive cost of the
 *    function's outermost activations that no profiled function called
 *    (callgrind's roots such as the program entry or a thread start).
 *   With these, a function's measured total is its spontaneous cost plus
 *   the inclusive costs of its incoming arcs from other functions.
 *
 * Ownership: every pointer returned is owned by the graph and stays valid
 * until the graph is freed, except cost-vector pointers, which are valid
 * until the next function, arc or event is added.
 */
#pragma once

#include <glib.h>

#include "cg-events.h"
#include "cg-value.h"

G_BEGIN_DECLS

typedef struct _CgGraph CgGraph;

typedef guint32 CgFunctionId;
typedef guint32 CgArcId;

#define CG_NO_ID G_MAXUINT32

/* The object of a process's root frame, named after its command (perf
 * script's comm, as stackcollapse-perf.pl roots a stack): no code of the
 * program's own. */
#define CG_OBJECT_PROCESS "[process]"

CgGraph *cg_graph_new (void);
void cg_graph_free (CgGraph *graph);

/* ---- strings ---- */

/* Interns @len bytes at @s (-1: NUL-terminated) and returns the stable
 * copy.  Bytes that are not valid UTF-8, and control characters (tab and
 * newline included), are replaced by "\xNN", so every name can be written
 * to XML and to tab-separated output unchanged. */
const char *cg_graph_intern (CgGraph *graph, const char *s, gssize len);

/* The id of the interned copy of @s (as cg_graph_intern): strings have
 * dense ids from 0 ("" is 0), in order of first interning.  For readers
 * that keep ids instead of pointers (4 bytes instead of 8, and no second
 * lookup when the string is used again). */
guint32 cg_graph_intern_id (CgGraph *graph, const char *s, gssize len);

/* For a reader that prepares strings on another thread: when the @len
 * bytes at @s are stored as they are (printable ASCII, nothing to
 * escape), their hash tag in *@tag and TRUE; else FALSE.  Reads no graph,
 * so any thread may call it. */
gboolean cg_graph_string_tag (const char *s, gsize len, guint32 *tag);

/* cg_graph_intern_id for bytes cg_graph_string_tag accepted, with the
 * @tag it gave: no scan and no hashing here. */
guint32 cg_graph_intern_tagged_id (CgGraph *graph, const char *s, gsize len, guint32 tag);

/* Starts loading where the string of @tag is looked for, for an intern
 * soon after: a reader that knows the tags of strings ahead overlaps
 * their cache misses. */
void cg_graph_prefetch_string (const CgGraph *graph, guint32 tag);

/* The interned string of @id (from cg_graph_intern_id). */
const char *cg_graph_string (const CgGraph *graph, guint32 id);

/* The number of strings interned: their ids are 0 (the empty string) to
 * one less. */
guint cg_graph_n_strings (const CgGraph *graph);

/* ---- events ----
 * The graph owns the profile's event schema (cg-events.h); these read and
 * change it through the graph, which interns names as it interns all
 * strings (made safe for every output). */

/* The schema, for the call tree and contexts that share it (transfer none). */
CgEvents *cg_graph_events (const CgGraph *graph);

guint cg_graph_n_events (const CgGraph *graph);

/* Index of the event called @name, adding it when absent (every existing
 * cost vector gets a zero for it).  An existing integer event meeting a
 * real one becomes real (its values are converted).  Error
 * CG_ERROR_MISMATCH when @name exists with another unit. */
gboolean cg_graph_ensure_event (CgGraph *graph, const char *name, const char *unit, CgKind kind,
                                guint *index, GError **error);

/* Index of @name, or -1. */
gint cg_graph_find_event (const CgGraph *graph, const char *name);

const char *cg_graph_event_name (const CgGraph *graph, guint event);
const char *cg_graph_event_unit (const CgGraph *graph, guint event);
/* Long description ("Instruction Fetch"), or NULL. */
const char *cg_graph_event_description (const CgGraph *graph, guint event);
void cg_graph_set_event_description (CgGraph *graph, guint event, const char *description);
CgKind cg_graph_event_kind (const CgGraph *graph, guint event);
/* Stored values times the scale give the event's unit (default 1): gmon
 * time is kept in histogram ticks with scale 1/hz so that arithmetic
 * stays in ticks as gprof's does, and is shown in seconds. */
gdouble cg_graph_event_scale (const CgGraph *graph, guint event);
void cg_graph_set_event_scale (CgGraph *graph, guint event, gdouble scale);
/* The samples behind @event and the stored cost they carry
 * (cg_events_add_samples): 0 where no sampling reader added any. */
void cg_graph_add_event_samples (CgGraph *graph, guint event, guint64 samples, gdouble cost);
guint64 cg_graph_event_samples (const CgGraph *graph, guint event, gdouble *cost);
/* The kinds of all events, in event order (n_events entries). */
const CgKind *cg_graph_event_kinds (const CgGraph *graph);

/* A count of the changes made to the graph (functions, arcs, costs,
 * events, flags; the mutable accessors count as changes): derived data
 * remember it, so that data derived before a change are known stale
 * (cg_profile_costs, cg_profile_cycles). */
guint64 cg_graph_generation (const CgGraph *graph);

/* ---- functions ---- */

/* Function flags: pseudo functions made by analysis, not by the program. */
typedef enum {
  CG_FUNCTION_CYCLE = 1 << 0,  /* a collapsed cycle, "<cycle N>" */
  /* the measured inclusive costs of calls into this function may overlap:
   * it recursed in a callgrind profile taken without the recursion split
   * (--separate-recs=1), so its calls nest */
  CG_FUNCTION_NESTED = 1 << 1,
} CgFunctionFlags;

guint cg_graph_n_functions (const CgGraph *graph);

/* The function (@object, @name), created with zero costs when absent.
 * @object may be "" when unknown.  Strings are interned (see
 * cg_graph_intern).  Returns CG_NO_ID only when 2^32-1 functions exist. */
CgFunctionId cg_graph_ensure_function (CgGraph *graph, const char *object, const char *name);

/* cg_graph_ensure_function with the string ids of @object and @name
 * (cg_graph_intern_id). */
CgFunctionId cg_graph_ensure_function_ids (CgGraph *graph, guint32 object, guint32 name);

/* A new function (@object, @name) with zero costs, by string ids, without
 * looking for an existing one: for readers that know which functions they
 * made (one made twice would be two functions).  CG_NO_ID only when
 * 2^32-1 functions exist.  The graph's own index of functions, which
 * cg_graph_ensure_function and cg_graph_lookup_function use, is then
 * built only when one of those is called. */
CgFunctionId cg_graph_add_function_ids (CgGraph *graph, guint32 object, guint32 name);

/* Moves each function @functions[i] (of @n) to the object @objects[i] (a
 * string id of @graph), keeping its costs, arcs and id, where (that
 * object, its name) is no other function, before or after the moves: a
 * reader that learns only later in a file that two functions of one name
 * in one object are two (callgrind's static functions of two source
 * files) names them apart.  @moved[i] (nullable) tells which moved.  One
 * pass over the graph's functions, however many move. */
void cg_graph_move_functions (CgGraph *graph, const CgFunctionId *functions, const guint32 *objects, guint n,
                              gboolean *moved);

/* The function (@object, @name) or CG_NO_ID. */
CgFunctionId cg_graph_lookup_function (const CgGraph *graph, const char *object, const char *name);

const char *cg_graph_function_name (const CgGraph *graph, CgFunctionId f);
const char *cg_graph_function_object (const CgGraph *graph, CgFunctionId f);
/* Source file and first line where known ("" and 0 otherwise). */
const char *cg_graph_function_file (const CgGraph *graph, CgFunctionId f);
/* The string ids of @f's name, object and file (0, the empty string, for
 * an unknown file): tables of strings index them, without hashing. */
guint32 cg_graph_function_name_id (const CgGraph *graph, CgFunctionId f);
guint32 cg_graph_function_object_id (const CgGraph *graph, CgFunctionId f);
guint32 cg_graph_function_file_id (const CgGraph *graph, CgFunctionId f);
guint32 cg_graph_function_line (const CgGraph *graph, CgFunctionId f);
/* Sets the file (and line, 0 = unknown) unless one is already known. */
void cg_graph_function_set_location (CgGraph *graph, CgFunctionId f, const char *file, guint32 line);
/* The same with the file's string id (0, the empty string: unknown). */
void cg_graph_function_set_location_id (CgGraph *graph, CgFunctionId f, guint32 file, guint32 line);
CgFunctionFlags cg_graph_function_flags (const CgGraph *graph, CgFunctionId f);
void cg_graph_function_set_flags (CgGraph *graph, CgFunctionId f, CgFunctionFlags flags);

/* TRUE when another function has the same name in another object; such
 * functions are shown as "name [object]". */
gboolean cg_graph_function_is_ambiguous (CgGraph *graph, CgFunctionId f);

/* Appends the function's label: its name, or "name [object]" when the
 * name is ambiguous. */
void cg_graph_append_label (CgGraph *graph, GString *out, CgFunctionId f);

/* Compares the labels of @a and @b (see cg_graph_append_label) as strcmp
 * would compare the strings, without building them. */
int cg_graph_compare_labels (CgGraph *graph, CgFunctionId a, CgFunctionId b);

/* Self cost vector (n_events values). */
CgValue *cg_graph_self (CgGraph *graph, CgFunctionId f);
const CgValue *cg_graph_self_const (const CgGraph *graph, CgFunctionId f);

/* Spontaneous inclusive vector, or NULL when @f has none (const form), or
 * allocated with zeros on first use (mutable form).  Few functions have
 * one, and only those take memory; a pointer from the mutable form is
 * valid until the next function gets one (besides the rule above). */
const CgValue *cg_graph_spontaneous (const CgGraph *graph, CgFunctionId f);
CgValue *cg_graph_spontaneous_mut (CgGraph *graph, CgFunctionId f);
/* Whether any function has a spontaneous vector (zeros included). */
gboolean cg_graph_has_spontaneous (const CgGraph *graph);

/* Sum of all self costs per event (the profile's 100 %), written to
 * @totals (n_events values).  FALSE on overflow. */
gboolean cg_graph_self_totals (const CgGraph *graph, CgValue *totals);

/* ---- arcs ---- */

guint cg_graph_n_arcs (const CgGraph *graph);

/* The arc @caller → @callee, created with zero calls and costs when
 * absent. */
CgArcId cg_graph_ensure_arc (CgGraph *graph, CgFunctionId caller, CgFunctionId callee);
CgArcId cg_graph_lookup_arc (const CgGraph *graph, CgFunctionId caller, CgFunctionId callee);

/* Appends a new arc @caller → @callee with zero calls and costs without
 * looking for an existing one: for readers that find a caller's arcs
 * themselves while reading and call cg_graph_merge_arcs() at the end (the
 * index that cg_graph_ensure_arc keeps, 4 bytes an arc, is then never
 * built).  Until the merge the graph may hold several arcs with the same
 * caller and callee, which nothing but cg_graph_merge_arcs may see. */
CgArcId cg_graph_append_arc (CgGraph *graph, CgFunctionId caller, CgFunctionId callee);

/* Merges arcs with the same caller and callee into the earliest of them,
 * which keeps its place: calls and inclusive costs are summed, later arcs
 * removed and the arcs after them renumbered.  @repeated: NULL, or one
 * byte per function, nonzero where its arcs out may repeat: the arcs of
 * the other callers are then taken to be distinct, and not looked at (a
 * reader that appended them in one run, deduplicated, knows which).
 * @renumbered: NULL, or where to put, when arcs were removed, a new array
 * (g_free) of every arc's id after the merge by its id before (a removed
 * arc's is the one it went to), and NULL when no arc moved.
 * O(arcs + functions).  CG_ERROR_OVERFLOW when summed inclusive costs
 * exceed 64 bits (the graph is then merged all the same, that sum
 * excepted). */
gboolean cg_graph_merge_arcs (CgGraph *graph, const guint8 *repeated, CgArcId **renumbered, GError **error);

CgFunctionId cg_graph_arc_caller (const CgGraph *graph, CgArcId a);
CgFunctionId cg_graph_arc_callee (const CgGraph *graph, CgArcId a);
guint64 cg_graph_arc_calls (const CgGraph *graph, CgArcId a);
/* Adds @calls to the arc's call count.  FALSE when the sum of all calls in
 * the graph would exceed 64 bits, which keeps every per-function sum of
 * call counts exact. */
gboolean cg_graph_arc_add_calls (CgGraph *graph, CgArcId a, guint64 calls);

/* Measured inclusive vector of the arc (zeros when not measured). */
CgValue *cg_graph_arc_inclusive (CgGraph *graph, CgArcId a);
const CgValue *cg_graph_arc_inclusive_const (const CgGraph *graph, CgArcId a);

/* Whether the source measured inclusive costs (arcs and spontaneous). */
gboolean cg_graph_has_inclusive (const CgGraph *graph);
/* Whether some arc of @graph carries a nonzero inclusive cost in event
 * @e (< cg_graph_n_events): callgrind writes none of --cacheuse's events
 * on its calls= lines, and perf's samples measure no call at all, so such
 * an event's totals are no measurement (cost method measured). */
gboolean cg_graph_arcs_carry (const CgGraph *graph, guint e);
void cg_graph_set_has_inclusive (CgGraph *graph, gboolean has_inclusive);

/* ---- adjacency ----
 * Arcs leaving / entering @f, in arc order.  Built on first use after arcs
 * were added (O(|V|+|E|)); the array is owned by the graph and valid until
 * an arc or function is added. */
const CgArcId *cg_graph_out_arcs (CgGraph *graph, CgFunctionId f, guint *n_arcs);
const CgArcId *cg_graph_in_arcs (CgGraph *graph, CgFunctionId f, guint *n_arcs);

/* The far ends of those arcs, in the same order: the callees of
 * cg_graph_out_arcs (@graph, @f), the callers of cg_graph_in_arcs.  The
 * same as cg_graph_arc_callee (or _caller) of each, read along one array
 * instead of one arc record each (a cache miss apiece on a large graph);
 * owned and kept valid as the arcs' arrays. */
const CgFunctionId *cg_graph_out_callees (CgGraph *graph, CgFunctionId f, guint *n);
const CgFunctionId *cg_graph_in_callers (CgGraph *graph, CgFunctionId f, guint *n);

/* Calls @f received from other functions (self-arcs excluded): gprof's
 * "called" without the "+N" recursive part. */
guint64 cg_graph_calls_received (CgGraph *graph, CgFunctionId f);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgGraph, cg_graph_free)

G_END_DECLS
