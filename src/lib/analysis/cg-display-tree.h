/* cg-display-tree.h — Kaes's display tree of a call graph.
 *
 * Kaes 2005, "Displaying the call graph as a tree": for each arc (g, f)
 * there is one node f_g under g; one of f's nodes, its master node m(f),
 * has f's callees as children, the others are links to it.  Kaes puts
 * m(f) under the caller with the largest (c_t(g), name of g); here m(f)
 * goes under the caller whose arc into f carries most (ties: the larger
 * c_t(g), then the later name), so that the call on a master's line
 * carries as much of f as any call does: Kaes's rule hung callees worth
 * 33 % under a call worth 0.09 % (DESIGN §3).  Functions without callers
 * (self-calls aside) are roots.
 *
 * The rule assumes every caller's master is reachable from a root.
 * With cycles and ties (or estimated totals) the "master caller" relation
 * can itself loop, leaving functions unreachable.  The builder therefore
 * expands from the roots, and when it runs out it promotes, among the
 * functions that already have nodes, the one with the largest total to a
 * master under its best placed caller; functions no root reaches at all
 * (a graph that is one big cycle) become extra roots.  Every function has
 * exactly one master node; the tree has |roots| + |arcs| nodes.
 *
 * A node's id is the id of the arc it stands for; the roots' ids follow
 * the arcs'.  The tree keeps only each function's master, so it takes
 * memory per function, and its graph must outlive it unchanged.
 *
 * Two variations use the same rule on another graph:
 *  - given roots (cgtree --root, --focus on graph-only data): the tree of
 *    the functions reachable from them, masters chosen among reachable
 *    callers only; other functions have no node;
 *  - inverted (cgtree --inverted): the rule applied to the transposed
 *    graph, so a node's children are the function's callers — a tree of
 *    "who calls this".  A node still stands for one arc (g, f); its
 *    function is then the caller g.
 *
 * Complexity: O(|V| + |E|) time when Kaes's rule places every function
 * (O(|V|) after the graph's adjacency and the ranking), O((|V| + |E|)
 * log |V|) at worst; O(|V|) memory; no recursion (worklists and a heap).
 */
#pragma once

#include <glib.h>

#include "cg-cost.h"
#include "cg-graph.h"

G_BEGIN_DECLS

typedef struct _CgDisplayTree CgDisplayTree;
typedef guint32 CgNodeId;

typedef struct {
  guint event;                /* whose totals decide master nodes */
  gboolean inverted;          /* children are callers instead of callees */
  const CgFunctionId *roots;  /* nullable: the functions to start from */
  guint n_roots;
  /* nullable, per function: functions the tree passes over, given roots
   * aside (cgtree folds start-up code so): they get no node, and a
   * function their calls carry more of than any other caller's becomes a
   * root */
  const guint8 *skip;
} CgDisplayTreeOptions;

/* Builds the display tree of @graph with the totals of @costs for
 * @event deciding master nodes.  The tree refers to @graph, which must
 * outlive it and not change.  Never fails. */
CgDisplayTree *cg_display_tree_new (CgGraph *graph, const CgCosts *costs, guint event);

/* The same with @options (roots given, or inverted).  Roots must be
 * distinct function ids of @graph.  Never fails. */
CgDisplayTree *cg_display_tree_new_full (CgGraph *graph, const CgCosts *costs,
                                         const CgDisplayTreeOptions *options);
void cg_display_tree_free (CgDisplayTree *tree);

/* One node of a tree built elsewhere (cg-callers-tree.h): its function,
 * its parent (an earlier node, or CG_NO_ID for a root), the arc it
 * stands for (CG_NO_ID for a root), and its value, of the costs' kind
 * for the event, estimated or not. */
typedef struct {
  CgFunctionId function;
  CgNodeId parent;
  CgArcId arc;
  CgValue value;
  gboolean estimated;
} CgGivenNode;

/* A tree of @nodes as given (copied): every node has its own children
 * (every node is a master, none a link), roots in the order given, a
 * function's master its first node.  Never fails. */
CgDisplayTree *cg_display_tree_new_given (CgGraph *graph, gboolean inverted, const CgGivenNode *nodes,
                                          guint n_nodes);
/* Whether @tree is of given nodes (cg_display_tree_new_given). */
gboolean cg_display_tree_is_given (const CgDisplayTree *tree);
/* A given tree's value of @node (TRUE), or FALSE for a tree by the master
 * rule, whose values are its arcs' (cg-tree-view.h). */
gboolean cg_display_tree_given_value (const CgDisplayTree *tree, CgNodeId node, CgValue *value,
                                      gboolean *estimated);
/* Whether @node's line shows its function's self cost: a master node's
 * does; in a given tree only a root's, the lines below it being shares
 * of the root's cost. */
gboolean cg_display_tree_shows_self (const CgDisplayTree *tree, CgNodeId node);

guint cg_display_tree_n_nodes (const CgDisplayTree *tree);
/* Every node id is below this (arcs plus roots): the size of an array
 * indexed by node.  With given roots some ids below it are no node. */
guint cg_display_tree_node_bound (const CgDisplayTree *tree);
gboolean cg_display_tree_has_node (const CgDisplayTree *tree, CgNodeId node);
gboolean cg_display_tree_is_inverted (const CgDisplayTree *tree);

/* Roots in order of decreasing total, then name. */
guint cg_display_tree_n_roots (const CgDisplayTree *tree);
CgNodeId cg_display_tree_root (const CgDisplayTree *tree, guint i);

CgFunctionId cg_display_tree_function (const CgDisplayTree *tree, CgNodeId node);
/* The arc (g, f) the node stands for; CG_NO_ID for a root. */
CgArcId cg_display_tree_arc (const CgDisplayTree *tree, CgNodeId node);
/* The master node of the node's parent function; CG_NO_ID for a root. */
CgNodeId cg_display_tree_parent (const CgDisplayTree *tree, CgNodeId node);
/* The master node of @f; CG_NO_ID when @f is not in the tree (not
 * reachable from the given roots). */
CgNodeId cg_display_tree_master (const CgDisplayTree *tree, CgFunctionId f);
gboolean cg_display_tree_is_master (const CgDisplayTree *tree, CgNodeId node);

/* Children of a master node, in arc order (links have none): the ids of
 * its function's arcs, owned by the graph (its adjacency).  An arc into
 * a function the tree passes over (CgDisplayTreeOptions.skip) is in the
 * list but is no node: cg_display_tree_has_node says which are. */
const CgNodeId *cg_display_tree_children (const CgDisplayTree *tree, CgNodeId node,
                                          guint *n_children);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgDisplayTree, cg_display_tree_free)

G_END_DECLS
