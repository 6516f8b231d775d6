/* cg-write-tree.h — the display tree as indented text.
 *
 * Each line is one node f_g: the cost the calls from g carried (for a root,
 * f's total) as a percentage of the whole profile, f's self cost as a
 * percentage (on master nodes, where f's callees are), the calls on the
 * arc, and f indented under g.  A master node that other nodes link to is
 * numbered "[n]"; the links read "-> [n]".
 *
 * Indentation stops at 64 levels; deeper lines carry "(+N)", their depth
 * beyond it, so the output stays linear in the number of lines.
 *
 * Pruning (--threshold, --max-depth) hides nodes and their subtrees; but
 * when a shown link's master node would be hidden, the master and its
 * ancestors are shown anyway, so every "-> [n]" leads somewhere.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-display-tree.h"
#include "cg-profile.h"

G_BEGIN_DECLS

typedef struct {
  guint event;
  gdouble threshold; /* percent of the profile's total; 0 shows everything */
  guint max_depth;   /* 0 = unlimited; roots are depth 1 */
} CgTreeTextOptions;

/* Writes @tree of @profile with the totals of @costs.  Write errors are
 * left in the stream's error flag; FALSE on 64-bit overflow of the
 * profile's total. */
gboolean cg_write_tree_text (CgProfile *profile, const CgCosts *costs, const CgDisplayTree *tree,
                             const CgTreeTextOptions *options, FILE *stream, GError **error);

G_END_DECLS
