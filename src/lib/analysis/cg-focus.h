/* cg-focus.h — the profile of chosen functions and their descendants.
 *
 * Spivey 2004, end of "Presenting the results": "accumulating data from
 * only those profiling states where one of the specified routines is
 * active" gives a profile of just those routines and their descendants.
 * With a call tree (folded stacks, contexts) that is exact: keep the
 * frames that run under a frame of a chosen function (the frame itself
 * included), merge them into a forest whose roots are the outermost
 * chosen frames, and compute every total over it by Kaes's Min_E rule (a
 * frame counts for its function when no ancestor frame has the same
 * function; an arc (g, f) carries the frames of f that have no ancestor
 * frame of f and whose parent is a frame of g).  Costs outside the chosen
 * functions vanish; percentages are then of the focus's total.
 *
 * A call graph alone cannot say which part of a callee's cost was spent
 * under one caller rather than another, so without a tree the focus is
 * only a restriction: cgtree starts the display tree at the chosen
 * functions (cg_display_tree_new_full with roots) and keeps the whole
 * profile's costs.
 *
 * Complexity: O(frames + functions) plus the regex matches; no recursion.
 */
#pragma once

#include <glib.h>

#include "cg-profile.h"

G_BEGIN_DECLS

/* The functions of @graph whose name, or whose label "name [object]",
 * as the linker sees it or demangled (cg_names_new), or as cgtree's
 * views show it (cg_names_set_short: 0x1ab70 [ld-linux-x86-64.so.2]), matches
 * @regex (or equals @name when @regex is NULL), in index order.
 * Returns a new array of CgFunctionId (transfer full), possibly empty. */
GArray *cg_focus_match (CgGraph *graph, const GRegex *regex, const char *name);

/* A new profile (transfer full) holding the part of @profile's call tree
 * that runs under the functions marked in @chosen (one flag per function
 * of @profile's graph), its call graph (arcs without call counts, which a
 * tree does not record), and costs by Kaes's Min_E rule (method exact).
 * @profile must have a call tree.  Error CG_ERROR_OVERFLOW when a total
 * exceeds 64 bits. */
CgProfile *cg_focus_tree (CgProfile *profile, const guint8 *chosen, GError **error);

/* The same for a profile of Spivey's contexts: the contexts in which a
 * chosen function is active, each history cut to start at its first
 * chosen entry (the functions before it are not under a chosen one), with
 * their costs, entries and recursive calls (entries on the arc into a
 * chosen routine that starts the history came from outside and go), the
 * call graph they imply, and costs from them (method exact, Spivey's
 * rules, cg_spivey_compute).  @profile must have contexts.  Error
 * CG_ERROR_OVERFLOW when a cost exceeds 64 bits. */
CgProfile *cg_focus_contexts (CgProfile *profile, const guint8 *chosen, GError **error);

/* A new profile (transfer full) of @profile's call tree with the frames
 * of the functions marked in @hide (nullable, one flag per function)
 * passed over, their self cost charged to the frame that called them
 * (pprof's --hide; a hidden frame with no caller gives its callees the
 * place of roots, and its own cost is dropped), and every frame of the
 * functions marked in @ignore (nullable) dropped with all it called
 * (pprof's --ignore: the samples through them).  Costs by Kaes's Min_E
 * rule (method exact) over the tree that is left.  @profile must have a
 * call tree.  Errors: CG_ERROR_OVERFLOW. */
CgProfile *cg_filter_tree (CgProfile *profile, const guint8 *hide, const guint8 *ignore, GError **error);

/* cg_filter_tree with @fold as @hide, but a frame without a caller is
 * kept: the frames of the @fold functions (start-up code, cg-startup.h)
 * that run under another frame are passed over, so that a root frame of
 * perf's --split (a thread, COMM-PID/TID) gets what the start-up code
 * under it called (the thread's start routine, main) as its own child,
 * not one call graph function that every thread shares.  A top frame of
 * @fold stays, with every @fold frame under it passed over: start-up code
 * without a root above it is left to the display tree's skip.  @profile
 * must have a call tree.  Errors: CG_ERROR_OVERFLOW. */
CgProfile *cg_fold_tree (CgProfile *profile, const guint8 *fold, GError **error);

/* A new profile (transfer full) in which each root frame of @profile's
 * call tree keeps its subtree's functions as its own: a function under
 * two roots becomes two functions of the same object and name (made
 * apart, cg_graph_add_function_ids), each with the costs of its root's
 * frames only, so that the display tree of perf's --split=pid or tid
 * (a root per process or thread, COMM-PID/TID) holds in each root's
 * subtree that root's costs alone; over the merged call graph a worker
 * routine that several threads run had its callees, with every thread's
 * costs, under one thread's root.  Costs by Kaes's Min_E rule (method
 * exact) over the tree, unchanged, as is the profile's total; a
 * function's total is its root's part.  Functions are then no longer
 * known by (object, name): look them up before.  @profile must have a
 * call tree.  Errors: CG_ERROR_OVERFLOW. */
CgProfile *cg_split_roots (CgProfile *profile, GError **error);

/* Whether @profile has a call tree whose every root frame is a process's
 * or thread's of perf's --split=pid or tid (cg_split_root_parse): read
 * from the profile, so that cgtree knows them in cgtools XML made by
 * "cgmerge --split=tid", where its own --split applies to perf inputs
 * only. */
gboolean cg_tree_roots_are_split (CgProfile *profile);

G_END_DECLS
