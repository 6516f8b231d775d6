/* cg-tree.c — frames in arrays, children found through a pair index. */
#include "config.h"

#include "cg-tree.h"

#include "cg-csr.h"
#include "cg-matrix.h"
#include "cg-pair-map.h"

typedef struct {
  CgFrameId parent;
  CgFunctionId function;
} FrameRec;

struct _CgTree {
  GArray *frames;      /* FrameRec */
  CgMatrix self;       /* n_frames × n_events */
  CgEvents *events;    /* the graph's schema, shared: keeps the matrix in step */
  CgPairMap *child_index; /* (parent + 1, function) -> frame; parent 0 = root */
  guint32 *child_start;   /* children CSR cache */
  CgFrameId *child_list;
  guint children_frames;  /* n_frames when the cache was built */
};

/* The child index's key of frame @x: (parent + 1, function). */
static void
child_key (gconstpointer data, guint32 x, guint32 *a, guint32 *b)
{
  const CgTree *t = data;
  const FrameRec *rec = &g_array_index (t->frames, FrameRec, x);
  *a = rec->parent == CG_NO_ID ? 0 : rec->parent + 1;
  *b = rec->function;
}

CgTree *
cg_tree_new (const CgGraph *graph)
{
  CgTree *t = g_new0 (CgTree, 1);
  t->frames = g_array_new (FALSE, FALSE, sizeof (FrameRec));
  cg_matrix_init (&t->self, 0);
  t->child_index = cg_pair_map_new (child_key, t);
  t->children_frames = G_MAXUINT;
  t->events = cg_events_ref (cg_graph_events (graph));
  while (t->self.cols < cg_events_n (t->events))
    cg_matrix_add_column (&t->self);
  cg_events_attach (t->events, &t->self);
  return t;
}

void
cg_tree_free (CgTree *t)
{
  if (t == NULL)
    return;
  g_array_unref (t->frames);
  cg_matrix_clear (&t->self);
  cg_events_detach (t->events, &t->self);
  cg_events_unref (t->events);
  cg_pair_map_free (t->child_index);
  g_free (t->child_start);
  g_free (t->child_list);
  g_free (t);
}

guint
cg_tree_n_frames (const CgTree *t)
{
  return t->frames->len;
}

guint
cg_tree_n_events (const CgTree *t)
{
  return cg_events_n (t->events);
}

CgFrameId
cg_tree_ensure_child (CgTree *t, CgFrameId parent, CgFunctionId function)
{
  guint32 key = parent == CG_NO_ID ? 0 : parent + 1;
  guint32 next = t->frames->len;
  if (next >= CG_NO_ID - 1)
    return CG_NO_ID;
  CgFrameId x = cg_pair_map_insert (t->child_index, key, function, next);
  if (x == next)
    {
      FrameRec rec = { parent, function };
      g_array_append_val (t->frames, rec);
      cg_matrix_set_rows (&t->self, t->frames->len);
    }
  return x;
}

CgFrameId
cg_tree_parent (const CgTree *t, CgFrameId frame)
{
  return g_array_index (t->frames, FrameRec, frame).parent;
}

CgFunctionId
cg_tree_function (const CgTree *t, CgFrameId frame)
{
  return g_array_index (t->frames, FrameRec, frame).function;
}

CgValue *
cg_tree_self (CgTree *t, CgFrameId frame)
{
  g_assert (frame < t->frames->len);
  return cg_matrix_row (&t->self, frame);
}

const CgValue *
cg_tree_self_const (const CgTree *t, CgFrameId frame)
{
  g_assert (frame < t->frames->len);
  return cg_matrix_row (&t->self, frame);
}

const CgFrameId *
cg_tree_children (CgTree *t, CgFrameId frame, guint *n_children)
{
  guint n = t->frames->len;
  if (t->children_frames != n)
    {
      cg_csr_build (t->frames->data, sizeof (FrameRec), G_STRUCT_OFFSET (FrameRec, parent), n, n,
                    &t->child_start, &t->child_list);
      t->children_frames = n;
    }
  *n_children = t->child_start[frame + 1] - t->child_start[frame];
  return t->child_list + t->child_start[frame];
}

gboolean
cg_tree_remap_functions (CgTree **tree, const CgGraph *graph, const CgFunctionId *map)
{
  CgTree *old = *tree;
  g_autoptr (CgTree) t = cg_tree_new (graph);
  guint n = old->frames->len, ne = cg_events_n (old->events);
  g_autofree CgFrameId *new_id = g_new (CgFrameId, MAX (n, 1));
  /* parents precede children, so one forward pass maps every frame */
  for (CgFrameId x = 0; x < n; x++)
    {
      CgFrameId p = cg_tree_parent (old, x);
      CgFunctionId f = map[cg_tree_function (old, x)];
      CgFrameId np = p == CG_NO_ID ? CG_NO_ID : new_id[p];
      /* a frame whose function equals its (new) parent's merges into it:
       * the direct recursion that collapsing a cycle creates */
      if (np != CG_NO_ID && cg_tree_function (t, np) == f)
        new_id[x] = np;
      else
        new_id[x] = cg_tree_ensure_child (t, np, f);
      if (!cg_values_add (cg_events_kinds (old->events), cg_tree_self (t, new_id[x]),
                          cg_tree_self_const (old, x), ne))
        return FALSE;
    }
  cg_tree_free (old);
  *tree = g_steal_pointer (&t);
  return TRUE;
}
