/* cg-write-dot.h — the call graph as a Graphviz graph.
 *
 * The functions of a display tree (all of them, or those reachable from
 * its given roots) whose total reaches the node threshold, and the arcs
 * between them whose cost reaches the edge threshold, as a `dot` digraph
 * (two thresholds, as gprof2dot has: its defaults are 0.5 % and 0.1 %);
 * a box that no drawn arrow reaches or leaves is left out unless its
 * function is a root of the tree, so that no box floats alone: a box per
 * function labelled with its name, its total and self cost as percentages
 * and the calls it received; an arrow per arc labelled with the cost the
 * calls carried and their number.  Boxes and arrows are coloured by cost
 * from blue (cold) to red (hot), as gprof2dot colours them, and arrows are
 * thicker the more they carry; an arrow's label is its colour darkened
 * until it reads on white (a contrast of 4.5:1 at least, WCAG's AA).  Self-calls are drawn as loops with their
 * count.  The threshold is what keeps a large program's graph small
 * enough for `dot` to lay out.
 *
 * Complexity: O(|V| + |E|).
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-diff.h"
#include "cg-display-tree.h"
#include "cg-profile.h"

G_BEGIN_DECLS

typedef struct {
  guint event;
  gdouble threshold;      /* percent of the profile's total for boxes */
  gdouble edge_threshold; /* for arrows */
  const char *scope; /* nullable: a sentence for the graph's label */
  gboolean demangle; /* names as people read them (cg_demangle) */
  gboolean brief;    /* no label explaining the graph */
  gboolean strip;    /* names without C++ parameters and template arguments (cg_names_set_strip) */
  /* nullable: --base, colour by change instead of by cost: slower red,
   * faster blue, the deeper the larger the change; labels add it */
  const CgDiff *diff;
} CgDotOptions;

/* Writes the graph of @tree's functions with the costs of @costs.  Write
 * errors are left in the stream's error flag; FALSE (CG_ERROR_OVERFLOW)
 * when the profile's total exceeds 64 bits. */
gboolean cg_write_dot (CgProfile *profile, const CgCosts *costs, const CgDisplayTree *tree,
                       const CgDotOptions *options, FILE *stream, GError **error);

G_END_DECLS
