/* cg-write-folded.h — a call tree as folded stacks, for flame graphs.
 *
 * The format cg-read-folded.h reads and flamegraph.pl, inferno, speedscope
 * and gprof2dot (-f collapse) take: one line per frame with a self cost,
 * the names from the root down joined by ';', a blank, the cost.  Frames
 * come in a depth-first walk with siblings in bytewise name order, so the
 * output is stable; a leaf frame whose cost is zero in every event is
 * written too (a "stack 0" line read back), but not one whose cost is
 * zero in @event only (a stack only another event sampled).  What a flame graph shows as a frame's
 * width is then that frame's c(x) (Kaes), and the merged per-function
 * widths are the exact totals.
 *
 * Names: the function's label (cg_graph_append_label), with ';' replaced
 * by ':' as stackcollapse-perf.pl does, since ';' separates frames.
 * Values: plain decimals in the event's unit (its scale applied).
 *
 * O(output size): each line repeats its stack, which is the format; the
 * walk uses an explicit stack and one path buffer, so a million-frame
 * stack is written in one pass.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-graph.h"
#include "cg-tree.h"

G_BEGIN_DECLS

/* Writes @tree (over @graph's functions and events) as folded stacks of
 * @event to @stream.  Write errors are left in the stream's error flag. */
void cg_write_folded (CgGraph *graph, CgTree *tree, guint event, FILE *stream);

G_END_DECLS
