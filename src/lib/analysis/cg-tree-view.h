/* cg-tree-view.h — the part of a display tree that is shown, in order.
 *
 * What the text, HTML and other views of cgtree share: which nodes pass
 * the threshold and the depth limit, in which order siblings come, the
 * value each node stands for, and the numbers that tie links to their
 * master nodes.
 *
 * A node's value is the cost the calls on its arc carried (the callee's
 * total that the calls from the parent line account for; inverted, the
 * part of the parent's total that the calls from this caller account
 * for), and a root's value is its function's total.  Percentages are of
 * the profile's total (the sum of all self costs of the event).
 *
 * Pruning hides nodes below the threshold and their subtrees (with a
 * difference from a base, those whose change is below it too), and with
 * a top of N lines, below the N-th largest value shown (a line's value is
 * at most its parent's where the numbers nest, so the N largest are a
 * tree; ties and the masters below add a few); but when a
 * shown link's master node would be hidden, the master and its ancestors
 * are shown anyway, so every link leads somewhere.  Each node is visited
 * a bounded number of times: O(n log n) for n nodes (sorting siblings),
 * no recursion.
 */
#pragma once

#include <glib.h>

#include "cg-diff.h"
#include "cg-display-tree.h"
#include "cg-names.h"
#include "cg-profile.h"

G_BEGIN_DECLS

/**
 * CgTreeSort:
 * @CG_TREE_SORT_TOTAL: by the node's value, largest first.
 * @CG_TREE_SORT_SELF: by the function's self cost, largest first.
 * @CG_TREE_SORT_CALLS: by the calls on the node's arc, most first.
 * @CG_TREE_SORT_NAME: by function name (demangled, when the view's names are).
 * Ties are broken by value, then name, so the order is total.
 */
typedef enum {
  CG_TREE_SORT_TOTAL,
  CG_TREE_SORT_SELF,
  CG_TREE_SORT_CALLS,
  CG_TREE_SORT_NAME,
} CgTreeSort;

typedef struct {
  guint event;
  gdouble threshold; /* percent of the profile's total; 0 shows everything */
  guint max_depth;   /* 0 = unlimited; roots are depth 1 */
  CgTreeSort sort;
  gboolean demangle; /* names as people read them (cg_demangle), not as the linker sees them */
  gboolean strip;    /* names without C++ parameters and template arguments (cg_names_set_strip) */
  guint top;         /* 0: no limit; else about this many lines: the largest (cgtree --top) */
  gboolean fold;     /* with top: the view joins chains (cg_tree_view_joins_next), a chain counts once */
  const CgDiff *diff; /* NULL, or the difference from a base (cgtree --base, a display tree's): a line
                         passes the threshold by its change too (cg_tree_view_change_percent) */
} CgTreeViewOptions;

/* One shown node.  Lines come in depth-first order: a line's shown
 * children follow it (with their subtrees) in sort order. */
typedef struct {
  CgNodeId node;
  guint depth;      /* roots are 0 */
  guint n_children; /* shown children */
  gboolean last;    /* the last shown child of its parent (or root) */
} CgTreeLine;

typedef struct _CgTreeView CgTreeView;

/* The view of @tree (built from @profile's graph with @costs).  Borrows
 * all three until freed.  Error CG_ERROR_OVERFLOW when the profile's
 * total exceeds 64 bits. */
CgTreeView *cg_tree_view_new (CgProfile *profile, const CgCosts *costs, const CgDisplayTree *tree,
                              const CgTreeViewOptions *options, GError **error);
void cg_tree_view_free (CgTreeView *view);

guint cg_tree_view_n_lines (const CgTreeView *view);
const CgTreeLine *cg_tree_view_line (const CgTreeView *view, guint i);

CgGraph *cg_tree_view_graph (const CgTreeView *view);
/* The functions' names as the view shows them (CgTreeViewOptions.demangle). */
CgNames *cg_tree_view_names (const CgTreeView *view);
const CgCosts *cg_tree_view_costs (const CgTreeView *view);
const CgDisplayTree *cg_tree_view_tree (const CgTreeView *view);
/* The profile's cycles, or NULL. */
CgCycles *cg_tree_view_cycles (const CgTreeView *view);
const CgTreeViewOptions *cg_tree_view_options (const CgTreeView *view);

/* Whether line @i's only shown child (line i + 1) joins the row that
 * line @head (at most @i) starts, "f > g", in a view that joins chains
 * at @threshold (percent; 0: none): it nests in line @i's cost, line @i
 * shows no total of its function, its own self cost is under
 * @threshold, the two lines' costs differ by less than @threshold, and
 * where it shows its function's total ("in all"), that total is above
 * the row's cost (line @head's, which the row shows): "main > … > g
 * (93.33% in all)" on a row of 95.35 % read as a total below its cost. */
gboolean cg_tree_view_joins_next (const CgTreeView *view, guint head, guint i, gdouble threshold);

/* The profile's total for the event (the 100 %), of the event's kind. */
CgValue cg_tree_view_all (const CgTreeView *view);

/* The value of @node (of the costs' kind for the event) and whether it
 * is an estimate. */
CgValue cg_tree_view_value (const CgTreeView *view, CgNodeId node);
gboolean cg_tree_view_estimated (const CgTreeView *view, CgNodeId node);

/* TRUE when @node is a master node whose function costs more in all
 * than the calls on its arc carried: the function's children (its
 * callees, or its callers when inverted) are its whole arcs, so they may
 * exceed the line's value, and so may its self cost; a view then shows
 * the function's total beside the call's, the number that contains them. */
gboolean cg_tree_view_shows_total (const CgTreeView *view, CgNodeId node);
/* The total of @node's function, of the costs' kind. */
CgValue cg_tree_view_function_total (const CgTreeView *view, CgNodeId node);

/* @value (of @kind) as a percentage of the profile's total (0 when the
 * total is 0). */
gdouble cg_tree_view_percent (const CgTreeView *view, CgKind kind, CgValue value);
gdouble cg_tree_view_node_percent (const CgTreeView *view, CgNodeId node);
gdouble cg_tree_view_self_percent (const CgTreeView *view, CgFunctionId f);

/* The base's value of @node in @diff, of the difference's kind: what the
 * same call (the same caller and callee) carried in the base, or of a
 * root, its function's total there.  FALSE (and 0) where the base has
 * no such call. */
gboolean cg_tree_view_base_value (const CgTreeView *view, const CgDiff *diff, CgNodeId node, CgValue *base);
/* The change of @node's value from the base's (options.diff), unsigned,
 * as a percentage of the profile's total; 0 without a diff, in a callers
 * tree, or where the base has no such call (the line is new: its value
 * is its change). */
gdouble cg_tree_view_change_percent (const CgTreeView *view, CgNodeId node);

/* The number of @f's master node when a shown link points to it (1, 2,
 * ... in line order), else 0. */
guint cg_tree_view_link_number (const CgTreeView *view, CgFunctionId f);

/* TRUE when some arc of the graph has calls (sources without call
 * counts, like sampled stacks, make the calls column meaningless). */
gboolean cg_tree_view_has_calls (const CgTreeView *view);

/* The functions the view's lines show, numbered densely in the order
 * they first appear (the tables of the HTML and XML views), each as
 * three arrays (transfer full, g_free): *@dense, of the graph's function
 * count, a function's number or G_MAXUINT32 when not shown; *@functions,
 * of the count returned, the function of each number; *@master, of the
 * same count, the line of each one's master node, or G_MAXUINT32 when
 * that node is not shown. */
guint cg_tree_view_shown_functions (const CgTreeView *view, guint32 **dense, CgFunctionId **functions,
                                    guint32 **master);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgTreeView, cg_tree_view_free)

G_END_DECLS
