/* cg-write-tree-xml.h — the display tree as XML, for programs.
 *
 * The document (formats/cgtree-xml.md, schema formats/cgtree.rng) holds
 * what cgtree's text view shows, unfolded: the shown nodes in depth-first
 * order as a flat list in which a parent comes before its children (so a
 * million-deep tree needs no nesting), each with its parent, function,
 * calls, value and whether it is the function's master node or a link;
 * and the functions they show, with their self cost, total, cycle and
 * master node.  One event; values in its stored units (the event's scale
 * converts them).  Names are the linker's, as in every format for
 * programs.  Nodes and functions are written as rows (tab-separated
 * lines), as cgtools XML writes its large sections.
 *
 * Complexity: O(nodes + functions) after the view (cg-tree-view.h).
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-display-tree.h"
#include "cg-profile.h"
#include "cg-tree-view.h"

G_BEGIN_DECLS

typedef struct {
  CgTreeViewOptions view; /* which nodes, in which order */
  const char *scope;      /* nullable: a sentence saying what the tree covers */
} CgTreeXmlOptions;

/* Writes @tree of @profile, with the totals of @costs, to @stream (named
 * @name in messages).  Errors (CG_ERROR): CG_ERROR_OVERFLOW when the
 * profile's total exceeds 64 bits; CG_ERROR_IO or CG_ERROR_CLOSED when
 * writing fails (cg_xml_writer_finish). */
gboolean cg_write_tree_xml (CgProfile *profile, const CgCosts *costs, const CgDisplayTree *tree,
                            const CgTreeXmlOptions *options, FILE *stream, const char *name, GError **error);

G_END_DECLS
