/* cg-write-tree.h — the display tree as indented text.
 *
 * One line per shown node (see cg-tree-view.h for what is shown): the
 * node's value as a percentage of the profile's total (what the calls from
 * the parent line carried; a root's total), the function's self cost as a
 * percentage (on master nodes, where its callees are), both again in the
 * event's unit, the calls on the arc, and the function indented under its
 * parent.  A master node that shown links point to is numbered "[n]"; the
 * links read "-> [n]".  Cycle members are marked "<cycle N>", estimated
 * values "~".
 *
 * Folding: with a threshold, a line whose only shown child carries all but
 * less than the threshold of its cost, and whose child's own cost is below
 * the threshold too, is joined with that child into one line "f > g"
 * ("f < g" in a callers tree: f is called by g): nothing worth showing is
 * lost between them, and the long single-call chains of real programs
 * (start-up code, wrappers, dispatch layers) no longer push the rest of
 * the tree off the screen.  A joined line shows the first arc's cost and
 * calls and the summed self costs of its functions; it holds at most
 * eight functions, a longer chain continuing on the line below.
 *
 * With a difference (CgTreeTextOptions.diff), a "change" column follows
 * incl: the line's incl less what the same call (the same caller and
 * callee, matched as cg-diff.h matches them) carried in the base; a root's
 * total less its total in the base.
 *
 * Indentation stops at 64 levels; deeper lines carry "(+N)", their depth
 * beyond it, so the output stays linear in the number of lines.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-diff.h"
#include "cg-display-tree.h"
#include "cg-profile.h"
#include "cg-tree-view.h"

G_BEGIN_DECLS

typedef struct {
  CgTreeViewOptions view;
  gboolean color;    /* ANSI colours (for a terminal) */
  gboolean no_fold;  /* one line per node, even in single-child chains */
  const char *scope; /* nullable: a sentence saying what the tree covers */
  gboolean brief;    /* the column titles and the lines, without the lines that explain them */
  guint width;       /* columns a line fits in, long names cut in the middle ("…"); 0: no limit */
  /* nullable: --base, the difference from a base profile whose new side is
   * this tree's profile: a column of each line's change, slower in red,
   * faster in blue */
  const CgDiff *diff;
} CgTreeTextOptions;

/* Writes @tree of @profile with the totals of @costs.  Write errors are
 * left in the stream's error flag; FALSE (CG_ERROR_OVERFLOW) on 64-bit
 * overflow of the profile's total. */
gboolean cg_write_tree_text (CgProfile *profile, const CgCosts *costs, const CgDisplayTree *tree,
                             const CgTreeTextOptions *options, FILE *stream, GError **error);

G_END_DECLS
