/* cg-write-tree-html.h — the display tree as one self-contained page.
 *
 * A single HTML file with its style sheet and script inline: no network
 * access, no external fonts, so it opens in any browser, offline, and can
 * be mailed or archived as it is.  The page shows the tree with
 * expand/collapse, search, a threshold slider, costs as bars, links that
 * jump to their master node, and keyboard navigation (see cgtree(1)).
 *
 * The tree travels as one JSON document: names interned once, per
 * function its self cost and total, and the shown nodes in depth-first
 * order as a flat array of quadruples (function, value, calls, shown
 * children), so the page stays small (a few bytes per node) and builds
 * DOM rows only for the nodes a reader opens.  Values are in the event's
 * stored units; the page applies the event's scale.
 *
 * Complexity: O(nodes + functions) after the view (cg-tree-view.h).
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
  CgTreeViewOptions view; /* what goes into the page */
  gdouble slider;         /* the threshold slider's first position, percent */
  const char *scope;      /* nullable: a sentence saying what the tree covers */
  gboolean brief;         /* without the sentences that explain the lines and the keys */
  gboolean no_fold;       /* one row per node, also in single-call chains */
  const CgDisplayTree *other; /* nullable: the tree of the other direction, for the page's callers toggle */
  gdouble other_threshold;    /* the lines of @other that go into the page (percent) */
  /* nullable: --base, the difference whose new side is the page's
   * profile: each line of the tree (not of @other) gets a change column,
   * its value less what the same call carried in the base (a root's
   * total less the base's), slower red and faster blue */
  const CgDiff *diff;
} CgTreeHtmlOptions;

/* Writes the page.  Write errors are left in the stream's error flag;
 * FALSE (CG_ERROR_OVERFLOW) when the profile's total exceeds 64 bits. */
gboolean cg_write_tree_html (CgProfile *profile, const CgCosts *costs, const CgDisplayTree *tree,
                             const CgTreeHtmlOptions *options, FILE *stream, GError **error);

G_END_DECLS
