/* cg-display-tree.c — expansion from the roots with a worklist, promotion
 * of stranded functions through a heap. */
#include "config.h"

#include "cg-display-tree.h"

#include <math.h>
#include <string.h>

#include "cg-csr.h"

typedef struct {
  CgFunctionId function;
  CgArcId arc;
  CgNodeId parent;
} NodeRec;

struct _CgDisplayTree {
  GArray *nodes;        /* NodeRec */
  CgNodeId *master;     /* per function */
  GArray *roots;        /* CgNodeId */
  guint32 *child_start; /* children CSR, n_nodes + 1 */
  CgNodeId *child_list;
  gboolean inverted;
};

typedef struct {
  CgGraph *graph;
  CgKind kind;
  guint32 *rank; /* per in-scope function: its place in Kaes's order */
} Order;

static int
compare_names (const Order *o, CgFunctionId a, CgFunctionId b)
{
  int c = strcmp (cg_graph_function_name (o->graph, a), cg_graph_function_name (o->graph, b));
  if (c == 0)
    c = strcmp (cg_graph_function_object (o->graph, a), cg_graph_function_object (o->graph, b));
  return c != 0 ? c : (a > b) - (a < b);
}

/* A function and its total as a sort key, sorted as one array: comparing
 * through the cost matrix would cost two cache misses a comparison on a
 * large graph. */
typedef struct {
  guint64 key;
  CgFunctionId f;
} Keyed;

/* A total as an unsigned integer in the same order, equal where
 * cg_value_compare() says equal: -0 and +0, and NaN (equal to all there)
 * taken as 0. */
static guint64
total_key (CgKind kind, CgValue v)
{
  if (kind == CG_KIND_INTEGER)
    return v.n;
  gdouble x = v.x == 0 || isnan (v.x) ? 0.0 : v.x;
  guint64 bits;
  memcpy (&bits, &x, sizeof bits);
  /* negative doubles order backwards as integers, and below the positive */
  return bits >> 63 ? ~bits : bits | G_GUINT64_CONSTANT (1) << 63;
}

/* Sorts @ks by key, equal keys kept in order: an LSD radix sort, a byte a
 * pass, skipping the bytes all keys share.  Linear, where a comparison
 * sort's n log n made the tree of a ten times larger profile twelve times
 * slower to build. */
static void
sort_by_key (Keyed *ks, guint n)
{
  g_autofree Keyed *spare = g_new (Keyed, MAX (n, 1));
  Keyed *from = ks, *to = spare;
  for (guint shift = 0; n > 0 && shift < 64; shift += 8)
    {
      gsize start[256] = { 0 };
      for (guint i = 0; i < n; i++)
        start[(from[i].key >> shift) & 0xff]++;
      if (start[(from[0].key >> shift) & 0xff] == n)
        continue;
      for (gsize d = 0, at = 0; d < 256; d++)
        {
          gsize count = start[d];
          start[d] = at;
          at += count;
        }
      for (guint i = 0; i < n; i++)
        to[start[(from[i].key >> shift) & 0xff]++] = from[i];
      Keyed *t = from;
      from = to;
      to = t;
    }
  if (from != ks)
    memcpy (ks, from, n * sizeof *ks);
}

static gint
by_names (gconstpointer a, gconstpointer b, gpointer data)
{
  const Keyed *x = a, *y = b;
  return compare_names (data, x->f, y->f);
}

/* Kaes's ordering of functions, ascending: by total, then name (then
 * object and index, so that the order is total). */
static void
sort_kaes_order (GArray *keyed, const Order *o)
{
  Keyed *ks = (Keyed *) keyed->data;
  sort_by_key (ks, keyed->len);
  for (guint i = 0, j; i < keyed->len; i = j)
    {
      for (j = i + 1; j < keyed->len && ks[j].key == ks[i].key;)
        j++;
      if (j - i > 1)
        g_qsort_with_data (ks + i, (gint) (j - i), sizeof *ks, by_names, (gpointer) o);
    }
}

/* Kaes's ordering through the ranks: the tree compares functions
 * millions of times (the best caller of each, the heap of stranded ones),
 * and a rank is one small array instead of two cost vectors and names. */
static inline int
compare_ranked (const Order *o, CgFunctionId a, CgFunctionId b)
{
  return (o->rank[a] > o->rank[b]) - (o->rank[a] < o->rank[b]);
}

/* ---- a binary max-heap of ranks ----
 * It holds ranks, not functions: comparing two entries is then comparing
 * two integers in the heap itself, where comparing functions would look
 * up two ranks at random places on every step down a large heap. */

static void
heap_push (GArray *heap, guint32 rank)
{
  g_array_append_val (heap, rank);
  guint32 *h = (guint32 *) heap->data;
  for (guint i = heap->len - 1; i > 0;)
    {
      guint parent = (i - 1) / 2;
      if (h[parent] >= h[i])
        break;
      guint32 t = h[parent];
      h[parent] = h[i];
      h[i] = t;
      i = parent;
    }
}

static guint32
heap_pop (GArray *heap)
{
  guint32 *h = (guint32 *) heap->data;
  guint32 top = h[0];
  h[0] = h[heap->len - 1];
  g_array_set_size (heap, heap->len - 1);
  guint len = heap->len;
  for (guint i = 0;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;
      if (l < len && h[l] > h[m])
        m = l;
      if (r < len && h[r] > h[m])
        m = r;
      if (m == i)
        break;
      guint32 t = h[m];
      h[m] = h[i];
      h[i] = t;
      i = m;
    }
  return top;
}

/* ---- building ---- */

static CgNodeId
add_node (CgDisplayTree *t, CgFunctionId f, CgArcId a, CgNodeId parent)
{
  NodeRec rec = { f, a, parent };
  g_array_append_val (t->nodes, rec);
  return t->nodes->len - 1;
}

/* The direction of the tree: arcs to a function's parents in the tree
 * (its callers, or its callees when inverted) and to its children. */
typedef struct {
  CgGraph *graph;
  gboolean inverted;
} Direction;

static const CgArcId *
down_arcs (const Direction *d, CgFunctionId f, guint *n)
{
  return d->inverted ? cg_graph_in_arcs (d->graph, f, n) : cg_graph_out_arcs (d->graph, f, n);
}

/* A function's parents in the tree, one per arc to them (the parent
 * side). */
static const CgFunctionId *
uppers (const Direction *d, CgFunctionId f, guint *n)
{
  return d->inverted ? cg_graph_out_callees (d->graph, f, n) : cg_graph_in_callers (d->graph, f, n);
}

/* A function's children in the tree, one per down_arcs arc, in order. */
static const CgFunctionId *
lowers (const Direction *d, CgFunctionId f, guint *n)
{
  return d->inverted ? cg_graph_in_callers (d->graph, f, n) : cg_graph_out_callees (d->graph, f, n);
}

/* Marks the functions reachable from @roots going down (breadth first). */
static guint8 *
reachable_from (const Direction *d, const CgFunctionId *roots, guint n_roots, guint nf)
{
  guint8 *seen = g_new0 (guint8, MAX (nf, 1));
  g_autoptr (GArray) queue = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  for (guint i = 0; i < n_roots; i++)
    if (!seen[roots[i]])
      {
        seen[roots[i]] = 1;
        g_array_append_val (queue, roots[i]);
      }
  for (guint q = 0; q < queue->len; q++)
    {
      guint n;
      const CgFunctionId *down = lowers (d, g_array_index (queue, CgFunctionId, q), &n);
      for (guint i = 0; i < n; i++)
        {
          CgFunctionId f = down[i];
          if (!seen[f])
            {
              seen[f] = 1;
              g_array_append_val (queue, f);
            }
        }
    }
  return seen;
}

CgDisplayTree *
cg_display_tree_new (CgGraph *graph, const CgCosts *costs, guint event)
{
  CgDisplayTreeOptions options = { .event = event };
  return cg_display_tree_new_full (graph, costs, &options);
}

CgDisplayTree *
cg_display_tree_new_full (CgGraph *graph, const CgCosts *costs, const CgDisplayTreeOptions *options)
{
  guint event = options->event;
  Order o = { graph, cg_costs_kind (costs, event), NULL };
  Direction d = { graph, options->inverted };
  guint nf = cg_graph_n_functions (graph);
  CgDisplayTree *t = g_new0 (CgDisplayTree, 1);
  t->inverted = options->inverted;
  t->nodes = g_array_new (FALSE, FALSE, sizeof (NodeRec));
  t->roots = g_array_new (FALSE, FALSE, sizeof (CgNodeId));
  t->master = g_new (CgNodeId, MAX (nf, 1));

  /* with given roots, only what they reach is in the tree, and masters
   * are chosen among the callers in it */
  gboolean rooted = options->roots != NULL;
  g_autofree guint8 *in_scope = rooted ? reachable_from (&d, options->roots, options->n_roots, nf) : NULL;
#define IN_SCOPE(f) (!rooted || in_scope[(f)])

  /* Kaes's master caller of each function, and its roots */
  g_autofree CgFunctionId *best_caller = g_new (CgFunctionId, MAX (nf, 1));
  /* for stranded functions: the node under the best caller reached so far */
  g_autofree CgNodeId *best_node = g_new (CgNodeId, MAX (nf, 1));
  g_autofree CgFunctionId *best_node_caller = g_new (CgFunctionId, MAX (nf, 1));
  g_autofree guint8 *in_heap = g_new0 (guint8, MAX (nf, 1));
  g_autoptr (GArray) keyed = g_array_sized_new (FALSE, FALSE, sizeof (Keyed), nf);
  for (CgFunctionId f = 0; f < nf; f++)
    if (IN_SCOPE (f))
      {
        Keyed k = { total_key (o.kind, cg_costs_total_const (costs, f)[event]), f };
        g_array_append_val (keyed, k);
      }
  /* ranks in Kaes's order (sort_kaes_order); then the display order of roots,
   * largest total first and by name among equal totals: the sorted runs
   * of equal totals taken from the last, each in name order */
  sort_kaes_order (keyed, &o);
  guint n_in_scope = keyed->len;
  const Keyed *ks = (const Keyed *) keyed->data;
  g_autofree guint32 *rank = g_new (guint32, MAX (nf, 1));
  g_autofree CgFunctionId *by_rank = g_new (CgFunctionId, MAX (n_in_scope, 1));
  o.rank = rank;
  for (guint i = 0; i < n_in_scope; i++)
    {
      rank[ks[i].f] = i;
      by_rank[i] = ks[i].f;
    }
  g_autoptr (GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (CgFunctionId), n_in_scope);
  for (guint j = n_in_scope; j > 0;)
    {
      guint i = j - 1;
      while (i > 0 && ks[i - 1].key == ks[j - 1].key)
        i--;
      for (guint k = i; k < j; k++)
        g_array_append_val (order, ks[k].f);
      j = i;
    }
  g_clear_pointer (&keyed, g_array_unref);
  for (CgFunctionId f = 0; f < nf; f++)
    {
      t->master[f] = best_node[f] = CG_NO_ID;
      best_caller[f] = CG_NO_ID;
      if (!IN_SCOPE (f))
        continue;
      guint n;
      const CgFunctionId *up = uppers (&d, f, &n);
      for (guint i = 0; i < n; i++)
        {
          CgFunctionId g = up[i];
          if (g != f && IN_SCOPE (g)
              && (best_caller[f] == CG_NO_ID || compare_ranked (&o, g, best_caller[f]) > 0))
            best_caller[f] = g;
        }
    }

  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (CgNodeId));
  g_autoptr (GArray) heap = g_array_new (FALSE, FALSE, sizeof (guint32));
  /* the roots first, largest first; then stranded functions */
  g_autofree guint8 *is_root = g_new0 (guint8, MAX (nf, 1));
  for (guint i = 0; rooted && i < options->n_roots; i++)
    is_root[options->roots[i]] = 1;
  for (guint i = 0; i < n_in_scope; i++)
    {
      CgFunctionId f = g_array_index (order, CgFunctionId, i);
      if (rooted ? !is_root[f] : best_caller[f] != CG_NO_ID)
        continue;
      CgNodeId n = add_node (t, f, CG_NO_ID, CG_NO_ID);
      t->master[f] = n;
      g_array_append_val (t->roots, n);
    }
  for (guint i = t->roots->len; i-- > 0;)
    g_array_append_val (stack, g_array_index (t->roots, CgNodeId, i));

  guint next_unplaced = 0;
  for (;;)
    {
      while (stack->len > 0)
        {
          CgNodeId m = g_array_index (stack, CgNodeId, stack->len - 1);
          g_array_set_size (stack, stack->len - 1);
          CgFunctionId g = g_array_index (t->nodes, NodeRec, m).function;
          guint n;
          const CgArcId *down = down_arcs (&d, g, &n);
          const CgFunctionId *below = lowers (&d, g, &n);
          /* push in reverse so that children are expanded in arc order */
          guint first_new = stack->len;
          for (guint i = 0; i < n; i++)
            {
              CgFunctionId f = below[i];
              CgNodeId node = add_node (t, f, down[i], m);
              if (t->master[f] != CG_NO_ID)
                continue;
              if (best_caller[f] == g)
                {
                  t->master[f] = node;
                  g_array_append_val (stack, node);
                  continue;
                }
              if (best_node[f] == CG_NO_ID || compare_ranked (&o, g, best_node_caller[f]) > 0)
                {
                  best_node[f] = node;
                  best_node_caller[f] = g;
                }
              if (!in_heap[f])
                {
                  in_heap[f] = 1;
                  heap_push (heap, rank[f]);
                }
            }
          for (guint i = first_new, j = stack->len; i + 1 < j; i++, j--)
            {
              CgNodeId tmp = g_array_index (stack, CgNodeId, i);
              g_array_index (stack, CgNodeId, i) = g_array_index (stack, CgNodeId, j - 1);
              g_array_index (stack, CgNodeId, j - 1) = tmp;
            }
        }
      /* stranded: the master caller was never reached */
      CgFunctionId f = CG_NO_ID;
      while (heap->len > 0 && f == CG_NO_ID)
        {
          CgFunctionId c = by_rank[heap_pop (heap)];
          if (t->master[c] == CG_NO_ID)
            f = c;
        }
      if (f != CG_NO_ID)
        {
          t->master[f] = best_node[f];
          g_array_append_val (stack, best_node[f]);
          continue;
        }
      /* unreachable from every root: the largest becomes a root (with
       * given roots everything in scope is reachable, so this never
       * happens) */
      while (next_unplaced < n_in_scope
             && t->master[g_array_index (order, CgFunctionId, next_unplaced)] != CG_NO_ID)
        next_unplaced++;
      if (next_unplaced == n_in_scope)
        break;
      f = g_array_index (order, CgFunctionId, next_unplaced);
      CgNodeId n = add_node (t, f, CG_NO_ID, CG_NO_ID);
      t->master[f] = n;
      g_array_append_val (t->roots, n);
      g_array_append_val (stack, n);
    }
#undef IN_SCOPE

  /* children lists: node ids are in creation order, parents first */
  cg_csr_build (t->nodes->data, sizeof (NodeRec), G_STRUCT_OFFSET (NodeRec, parent), t->nodes->len,
                t->nodes->len, &t->child_start, &t->child_list);
  return t;
}

void
cg_display_tree_free (CgDisplayTree *t)
{
  if (t == NULL)
    return;
  g_array_unref (t->nodes);
  g_array_unref (t->roots);
  g_free (t->master);
  g_free (t->child_start);
  g_free (t->child_list);
  g_free (t);
}

guint
cg_display_tree_n_nodes (const CgDisplayTree *t)
{
  return t->nodes->len;
}

gboolean
cg_display_tree_is_inverted (const CgDisplayTree *t)
{
  return t->inverted;
}

guint
cg_display_tree_n_roots (const CgDisplayTree *t)
{
  return t->roots->len;
}

CgNodeId
cg_display_tree_root (const CgDisplayTree *t, guint i)
{
  return g_array_index (t->roots, CgNodeId, i);
}

CgFunctionId
cg_display_tree_function (const CgDisplayTree *t, CgNodeId node)
{
  return g_array_index (t->nodes, NodeRec, node).function;
}

CgArcId
cg_display_tree_arc (const CgDisplayTree *t, CgNodeId node)
{
  return g_array_index (t->nodes, NodeRec, node).arc;
}

CgNodeId
cg_display_tree_parent (const CgDisplayTree *t, CgNodeId node)
{
  return g_array_index (t->nodes, NodeRec, node).parent;
}

CgNodeId
cg_display_tree_master (const CgDisplayTree *t, CgFunctionId f)
{
  return t->master[f];
}

gboolean
cg_display_tree_is_master (const CgDisplayTree *t, CgNodeId node)
{
  return t->master[cg_display_tree_function (t, node)] == node;
}

const CgNodeId *
cg_display_tree_children (const CgDisplayTree *t, CgNodeId node, guint *n_children)
{
  *n_children = t->child_start[node + 1] - t->child_start[node];
  return t->child_list + t->child_start[node];
}
