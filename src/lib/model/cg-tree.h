/* cg-tree.h — the call tree G_0: frames with a function and a self cost.
 *
 * Kaes 2005: V is the set of call frames, (x, y) ∈ E when x called y, N(x)
 * the function of frame x and c_0(x) its self cost.  Sources that record
 * whole stacks (folded stacks, contexts) keep it because exact totals need
 * it; merging frames with the same function gives the graph (cg-graph.h).
 *
 * A tree here is a forest: frames whose parent is CG_NO_ID are roots.
 * Children of one frame have distinct functions, so a stack is one path.
 * Frames are dense indexes in creation order; a parent is always created
 * before its children (parent id < child id), which lets every walk be a
 * loop over the array instead of a recursion.
 *
 * Costs are vectors over the events of the graph the tree belongs to: the
 * tree shares the graph's schema (cg-events.h), which keeps its columns in
 * step when events are added or promoted.
 */
#pragma once

#include <glib.h>

#include "cg-graph.h"

G_BEGIN_DECLS

typedef struct _CgTree CgTree;
typedef guint32 CgFrameId;

/* A tree for the events of @graph (borrowed only to read them). */
CgTree *cg_tree_new (const CgGraph *graph);
void cg_tree_free (CgTree *tree);


guint cg_tree_n_frames (const CgTree *tree);
guint cg_tree_n_events (const CgTree *tree);

/* The child of @parent (CG_NO_ID: a root) whose function is @function,
 * created with zero cost when absent.  CG_NO_ID when 2^32-1 frames exist. */
CgFrameId cg_tree_ensure_child (CgTree *tree, CgFrameId parent, CgFunctionId function);

CgFrameId cg_tree_parent (const CgTree *tree, CgFrameId frame);
CgFunctionId cg_tree_function (const CgTree *tree, CgFrameId frame);

/* Self cost vector c_0 of @frame (n_events values; valid until a frame or
 * event is added). */
CgValue *cg_tree_self (CgTree *tree, CgFrameId frame);
const CgValue *cg_tree_self_const (const CgTree *tree, CgFrameId frame);

/* Children of @frame in creation order (array owned by the tree, valid
 * until a frame is added). */
const CgFrameId *cg_tree_children (CgTree *tree, CgFrameId frame, guint *n_children);

/* Replaces every frame's function f by @map[f] and merges sibling frames
 * that end up with the same function (costs summed, children merged).
 * Used when functions are merged (cycle collapse).  FALSE on overflow. */
gboolean cg_tree_remap_functions (CgTree **tree, const CgGraph *graph, const CgFunctionId *map);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgTree, cg_tree_free)

G_END_DECLS
