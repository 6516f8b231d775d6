/* cg-write-tree-svg.h — the display tree as a flame graph, one SVG file.
 *
 * The tree the text and HTML views show (cg-tree-view.h: the same lines,
 * threshold, order and values), drawn as flame graphs are (Gregg): one box
 * per line, as wide as the line's incl share of the profile's total, each
 * line's children stacked on it, the roots on one box "all" at the bottom.
 * Each box's <title> (a tooltip) gives the function's label, incl and
 * self as percentages and in the event's unit, calls, and the text view's
 * marks: "~" for an estimate, "[n]" and "-> [n]" for a master and its
 * links, "<cycle N>", and where a link closes a recursion.  Colours are
 * warm, keyed on the name (the same on every run); links are pale with a
 * dashed outline, cycle members purple.
 *
 * A master node's children are its function's whole arcs, so together
 * they may carry more than the call on the master's line (its total
 * exceeds the call's; estimates may overlap too).  Such children are
 * drawn scaled into their parent's width, all by one factor, and their
 * subtrees with them; each scaled box's tooltip says at what scale, and
 * the legend how many were.  So a child never sticks out of its parent.
 *
 * The file is SVG 1.1 with no external reference (no fonts, no links);
 * names are made valid UTF-8 and XML-escaped.  An inline script (the
 * file reads the same without it) zooms to a clicked box, resets, and
 * searches names by regular expression, highlighting the matches and
 * printing their summed share (nested matches counted once).
 *
 * Complexity: O(lines + name lengths) after the view; the layout walks
 * the lines with an explicit stack, no recursion.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-display-tree.h"
#include "cg-profile.h"
#include "cg-tree-view.h"

G_BEGIN_DECLS

typedef struct {
  CgTreeViewOptions view; /* what is drawn */
  guint width;            /* the drawing's width in pixels; 0: 1200 */
  const char *scope;      /* nullable: a sentence saying what the tree covers */
} CgTreeSvgOptions;

/* Writes the flame graph of @tree (of @profile, with the totals of
 * @costs).  Write errors are left in the stream's error flag; FALSE
 * (CG_ERROR_OVERFLOW) when the profile's total exceeds 64 bits. */
gboolean cg_write_tree_svg (CgProfile *profile, const CgCosts *costs, const CgDisplayTree *tree,
                            const CgTreeSvgOptions *options, FILE *stream, GError **error);

G_END_DECLS
