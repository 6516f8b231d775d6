/* cg-read-folded.h — reader for folded stacks ("a;b;c 123").
 *
 * The lingua franca of flame graphs (formats/folded.md): one sample set
 * per line, the frames root first separated by ';', then blanks and a
 * count.  Read as the dialects write it:
 *  - flamegraph.pl / stackcollapse-*.pl: the count is the number after
 *    the LAST blank, an integer or a decimal ("12", "12.5", "12."); frames
 *    may contain blanks ("process (1234);foo (bar.py:12)");
 *  - perf's stackcollapse script and "perf script | stackcollapse-perf":
 *    the same, with annotations such as "_[k]" kept as part of the name;
 *  - speedscope's import: exactly one space and an integer, a subset.
 * A frame's text is the function's name, verbatim (object unknown), so
 * folded → cgtools → folded gives the same lines.  Identical stacks are
 * summed.  Empty lines and lines starting with '#' are skipped.
 *
 * What is built (Kaes 2005, "Computing the call graph"): the call tree G_0
 * (one frame per distinct stack prefix, c_0 = the counts of the stacks
 * that end there) and the graph by merging frames of the same function:
 * V_t = {N(x)}, E_t = {(N(x), N(y)) | (x, y) ∈ E}, c_i(f) = Σ c_0(x) over
 * f's frames.  Folded stacks record no calls: every arc's call count is 0
 * (the exact method needs none; the decompose method weighs an arc by the
 * samples of the stacks that contain it, from the tree, as gprof2dot does).
 *
 * One event, "samples" (unit "samples"): INTEGER while every count is an
 * integer, REAL from the first decimal count on (earlier values are
 * converted; see cg_graph_ensure_event).
 *
 * Complexity: one pass, O(bytes); frames shared with the previous line's
 * stack are found without hashing, so sorted input (as every collapse tool
 * writes) costs one hash look-up per new frame only.  No recursion: a
 * million-frame stack is one long line and one loop.
 */
#pragma once

#include <glib.h>

#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* Adds the folded stacks read from @input to @profile (its call tree,
 * created when absent, and its graph).
 * Errors ("NAME:LINE: ..."): CG_ERROR_PARSE for a line that is not a stack
 * and a count (no count, empty frame, malformed number) unless
 * @options->lenient, which skips such lines and warns once with their
 * number and the first one; CG_ERROR_OVERFLOW when a 64-bit count sum
 * overflows or the tree would exceed 2^32 frames. */
gboolean cg_read_folded (CgProfile *profile, CgInput *input, const CgReadOptions *options,
                         GError **error);

/* Whether @line (@len bytes, without its newline) is a folded stack: text
 * without control characters, a non-empty stack, blanks, a count.  When
 * @complete is FALSE the line was cut by the detection window and cannot
 * show its count: it qualifies when it is such text and contains a ';'. */
gboolean cg_folded_line_matches (const char *line, gsize len, gboolean complete);

/* The row of cg-formats.h's table, for @data (@len bytes, @complete: the
 * whole input): text without control characters, whose first line that
 * is not blank or a '#' comment is a stack and a count
 * (cg_folded_line_matches), as are at least half of the lines the window
 * holds whole, one of them with two frames or more (a ';'): a file of
 * one-frame stacks only is not told from other "name number" text
 * (formats/folded.md, "Detection").  A last line cut by the window
 * counts when it is text with a ';'.  An input cg_callgrind_detect() or
 * cg_xml_detect() takes is not folded stacks. */
gboolean cg_folded_detect (const guint8 *data, gsize len, gboolean complete);

G_END_DECLS
