/* cg-display-tree.c — masters placed down the chains of master callers
 * with a worklist, stranded functions promoted through a heap.  The
 * builder is five steps (cg_display_tree_new_full): rank the functions,
 * choose each one's master caller, place the roots and what hangs below
 * them, place the stranded, count the nodes. */
#include "config.h"

#include "cg-display-tree.h"

#include <math.h>
#include <string.h>

#include "cg-csr.h"

/* The tree is implicit in its masters: the node of arc a is a child of
 * the master node of a's caller (callee, inverted), and a master's
 * children are its function's arcs.  So it takes memory per function, not
 * per arc, and building it never visits an arc whose caller's master is
 * already known. */
struct _CgDisplayTree {
  CgGraph *graph;   /* not owned */
  gboolean inverted;
  guint n_arcs;     /* node ids below it are arc ids; roots' ids follow */
  guint n_nodes;
  CgNodeId *master; /* per function; CG_NO_ID when not in the tree */
  GArray *roots;    /* CgFunctionId, in display order */
  /* a tree of given nodes (cg_display_tree_new_given): every node its
   * own, node ids index these; NULL otherwise */
  CgGivenNode *nodes;
  guint32 *kid_start; /* children by parent, compressed rows */
  CgNodeId *kids;
  GArray *root_nodes; /* CgNodeId, in the given order */
};

typedef struct {
  CgGraph *graph;
  CgKind kind;
  guint32 *rank; /* per in-scope function: its place in Kaes's order */
} Order;

/* A function and its name, for ordering functions of equal total: the
 * names are fetched once, where comparisons fetching them would wait for
 * three dependent cache misses each. */
typedef struct {
  const char *name;
  CgFunctionId f;
} Named;

static gint
by_names (gconstpointer a, gconstpointer b, gpointer data)
{
  const Named *x = a, *y = b;
  const Order *o = data;
  int c = strcmp (x->name, y->name);
  if (c == 0)
    c = strcmp (cg_graph_function_object (o->graph, x->f), cg_graph_function_object (o->graph, y->f));
  return c != 0 ? c : (x->f > y->f) - (x->f < y->f);
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

/* Tied functions' names are loaded this many entries ahead of their
 * comparison (sort_kaes_order). */
#define NAMES_AHEAD 16

/* Kaes's ordering of functions, ascending: by total, then name (then
 * object and index, so that the order is total). */
static void
sort_kaes_order (GArray *keyed, const Order *o)
{
  Keyed *ks = (Keyed *) keyed->data;
  sort_by_key (ks, keyed->len);
  /* every name in function order first: the functions, their names'
   * ids and the names themselves mostly lie in that order, so this
   * streams, where fetching them in the order of totals would wait for a
   * cache miss at each step */
  guint nf = cg_graph_n_functions (o->graph);
  g_autofree const char **name_of = g_new (const char *, MAX (nf, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    name_of[f] = cg_graph_function_name (o->graph, f);
  g_autoptr (GArray) run = g_array_new (FALSE, FALSE, sizeof (Named));
  guint n = keyed->len, ahead = 0;
  for (guint i = 0, j; i < n; i = j)
    {
      /* the names of tied functions NAMES_AHEAD entries on start to load,
       * and where to find the names of those twice as far: taken in the
       * order of totals, each is a cache miss, which this overlaps */
      for (; ahead < MIN (i + NAMES_AHEAD, n); ahead++)
        {
          if (ahead + NAMES_AHEAD < n)
            __builtin_prefetch (&name_of[ks[ahead + NAMES_AHEAD].f]);
          if ((ahead > 0 && ks[ahead - 1].key == ks[ahead].key) || (ahead + 1 < n && ks[ahead + 1].key == ks[ahead].key))
            __builtin_prefetch (name_of[ks[ahead].f]);
        }
      for (j = i + 1; j < n && ks[j].key == ks[i].key;)
        j++;
      if (j - i == 1)
        continue;
      g_array_set_size (run, j - i);
      Named *named = (Named *) run->data;
      for (guint k = i; k < j; k++)
        named[k - i] = (Named) { name_of[ks[k].f], ks[k].f };
      g_array_sort_with_data (run, by_names, (gpointer) o);
      for (guint k = i; k < j; k++)
        ks[k].f = named[k - i].f;
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

static const CgArcId *
up_arcs (const Direction *d, CgFunctionId f, guint *n)
{
  return d->inverted ? cg_graph_out_arcs (d->graph, f, n) : cg_graph_in_arcs (d->graph, f, n);
}

/* A function's parents in the tree, one per up_arcs arc, in order. */
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

/* What placing masters needs: each function's master caller, as the arc
 * from it and as the functions it is the master caller of. */
typedef struct {
  CgDisplayTree *t;
  const CgArcId *best_arc; /* per function; CG_NO_ID for none */
  const guint32 *kid_start; /* functions by master caller, compressed rows */
  const CgFunctionId *kids;
} Placing;

/* Places the masters of everything whose chain of master callers leads
 * to the functions placed[@first..] (already given masters): the node
 * under the master caller's master, breadth first.  Appends them to
 * @placed. */
static void
place_below (const Placing *p, GArray *placed, guint first)
{
  for (guint q = first; q < placed->len; q++)
    {
      CgFunctionId g = g_array_index (placed, CgFunctionId, q);
      for (guint k = p->kid_start[g]; k < p->kid_start[g + 1]; k++)
        {
          CgFunctionId f = p->kids[k];
          /* a given root has its master already */
          if (p->t->master[f] != CG_NO_ID)
            continue;
          p->t->master[f] = p->best_arc[f];
          g_array_append_val (placed, f);
        }
    }
}

static void
add_root (CgDisplayTree *t, CgFunctionId f, GArray *placed)
{
  t->master[f] = t->n_arcs + t->roots->len;
  g_array_append_val (t->roots, f);
  g_array_append_val (placed, f);
}

CgDisplayTree *
cg_display_tree_new (CgGraph *graph, const CgCosts *costs, guint event)
{
  CgDisplayTreeOptions options = { .event = event };
  return cg_display_tree_new_full (graph, costs, &options);
}

/* ---- the builder's steps ---- */

/* What the steps share: the tree being built, the direction, the scope
 * (NULL: every function) and Kaes's ranks. */
typedef struct {
  CgDisplayTree *t;
  Direction d;
  const CgCosts *costs;
  guint event;
  guint nf;
  const guint8 *in_scope; /* nullable */
  const guint8 *skip;     /* nullable: the functions passed over */
  Order o;
  guint n_in_scope;
  CgFunctionId *by_rank;  /* rank -> function */
  GArray *order;          /* CgFunctionId: display order of roots */
  CgArcId *best_arc;      /* per function: the arc from its master caller */
  CgFunctionId *best_caller;
  GArray *placed;         /* CgFunctionId, in the order their masters were set */
} Build;

static inline gboolean
in_scope (const Build *b, CgFunctionId f)
{
  return b->in_scope == NULL || b->in_scope[f];
}

/* Step 1: ranks in Kaes's order (sort_kaes_order: total, then name), and
 * the display order of roots, largest total first and by name among
 * equal totals: the sorted runs of equal totals taken from the last, each
 * in name order. */
static void
rank_functions (Build *b)
{
  g_autoptr (GArray) keyed = g_array_sized_new (FALSE, FALSE, sizeof (Keyed), b->nf);
  for (CgFunctionId f = 0; f < b->nf; f++)
    if (in_scope (b, f))
      {
        Keyed k = { total_key (b->o.kind, cg_costs_total_const (b->costs, f)[b->event]), f };
        g_array_append_val (keyed, k);
      }
  sort_kaes_order (keyed, &b->o);
  b->n_in_scope = keyed->len;
  const Keyed *ks = (const Keyed *) keyed->data;
  b->by_rank = g_new (CgFunctionId, MAX (b->n_in_scope, 1));
  for (guint i = 0; i < b->n_in_scope; i++)
    {
      b->o.rank[ks[i].f] = i;
      b->by_rank[i] = ks[i].f;
    }
  b->order = g_array_sized_new (FALSE, FALSE, sizeof (CgFunctionId), b->n_in_scope);
  for (guint j = b->n_in_scope; j > 0;)
    {
      guint i = j - 1;
      while (i > 0 && ks[i - 1].key == ks[j - 1].key)
        i--;
      for (guint k = i; k < j; k++)
        g_array_append_val (b->order, ks[k].f);
      j = i;
    }
}

/* Whether arc @a from @g (its value's key @key) beats the best so far:
 * the arc that carries more, then the caller larger in Kaes's order. */
static inline gboolean
better_caller (const Build *b, guint64 key, CgFunctionId g, guint64 best_key, CgFunctionId best)
{
  if (best == CG_NO_ID || key != best_key)
    return best == CG_NO_ID || key > best_key;
  return compare_ranked (&b->o, g, best) > 0;
}

static inline guint64
arc_key (const Build *b, CgArcId a)
{
  return total_key (b->o.kind, cg_costs_arc_const (b->costs, a)[b->event]);
}

/* Step 2: each function's master caller, the caller (itself aside) whose
 * arc into it carries most (ties: the caller's total, then its name), or
 * none where its spontaneous cost (cg_graph_spontaneous), or what the
 * calls from functions passed over carry, is more.
 * Kaes takes the caller with the largest total, whatever its arc carries;
 * that hung a function's callees under a call worth 0.09 % with a 33 %
 * child, where this rule keeps the numbers nested wherever arcs do. */
static void
choose_master_callers (Build *b)
{
  b->best_arc = g_new (CgArcId, MAX (b->nf, 1));
  b->best_caller = g_new (CgFunctionId, MAX (b->nf, 1));
  for (CgFunctionId f = 0; f < b->nf; f++)
    {
      b->best_arc[f] = b->best_caller[f] = CG_NO_ID;
      if (!in_scope (b, f))
        continue;
      guint n;
      const CgFunctionId *up = uppers (&b->d, f, &n);
      const CgArcId *arcs = up_arcs (&b->d, f, &n);
      guint64 best_key = 0;
      CgValue from_skipped = CG_VALUE_ZERO;
      for (guint i = 0; i < n; i++)
        {
          CgFunctionId g = up[i];
          if (g != f && b->skip && b->skip[g] && !in_scope (b, g))
            cg_value_add (b->o.kind, &from_skipped, cg_costs_arc_const (b->costs, arcs[i])[b->event]);
          if (g == f || !in_scope (b, g))
            continue;
          guint64 key = arc_key (b, arcs[i]);
          if (better_caller (b, key, g, best_key, b->best_caller[f]))
            {
              b->best_caller[f] = g;
              b->best_arc[f] = arcs[i];
              best_key = key;
            }
        }
      /* activations nobody called (a thread's start routine, the
       * program's entry) are a caller too: where they carry more than
       * any call, the function is a root, so that a thread's work never
       * hangs under the one call that the program also made of it */
      const CgValue *sp = b->t->inverted ? NULL : cg_graph_spontaneous (b->t->graph, f);
      if (sp && b->best_caller[f] != CG_NO_ID && total_key (b->o.kind, sp[b->event]) > best_key)
        b->best_caller[f] = b->best_arc[f] = CG_NO_ID;
      /* so are the callers passed over (start-up code): main, called by
       * __libc_start_call_main in all but one sample whose unwinding
       * ended in an [unknown] frame, is a root, not a child of the call
       * worth 0.07 % that perf report's caller graph hides */
      if (b->best_caller[f] != CG_NO_ID && total_key (b->o.kind, from_skipped) > best_key)
        b->best_caller[f] = b->best_arc[f] = CG_NO_ID;
    }
}

/* Step 3: the roots, largest first (the given ones, or the functions
 * without a master caller), then what the master callers place below
 * them. */
static void
place_roots (Build *b, const Placing *p, const CgDisplayTreeOptions *options)
{
  g_autofree guint8 *is_root = g_new0 (guint8, MAX (b->nf, 1));
  gboolean rooted = options->roots != NULL;
  for (guint i = 0; rooted && i < options->n_roots; i++)
    is_root[options->roots[i]] = 1;
  for (guint i = 0; i < b->n_in_scope; i++)
    {
      CgFunctionId f = g_array_index (b->order, CgFunctionId, i);
      if (rooted ? is_root[f] : b->best_caller[f] == CG_NO_ID)
        add_root (b->t, f, b->placed);
    }
  place_below (p, b->placed, 0);
}

/* The master caller of stranded @f among the callers already placed, by
 * the same rule as choose_master_callers. */
static CgArcId
best_placed_arc (const Build *b, CgFunctionId f)
{
  guint n;
  const CgFunctionId *up = uppers (&b->d, f, &n);
  const CgArcId *arcs = up_arcs (&b->d, f, &n);
  CgFunctionId best = CG_NO_ID;
  CgArcId from_best = CG_NO_ID;
  guint64 best_key = 0;
  for (guint k = 0; k < n; k++)
    {
      if (up[k] == f || b->t->master[up[k]] == CG_NO_ID)
        continue;
      guint64 key = arc_key (b, arcs[k]);
      if (better_caller (b, key, up[k], best_key, best))
        {
          best = up[k];
          from_best = arcs[k];
          best_key = key;
        }
    }
  return from_best;
}

/* Step 4: stranded functions, whose chain of master callers loops: of
 * those with a caller placed, the largest in Kaes's order goes under its
 * best placed caller, and what it leads to follows; when none has, the
 * largest left (of a cycle nothing calls) becomes a root.  The heap holds
 * the stranded functions that have a placed caller, by rank; each enters
 * it once. */
static void
place_stranded (Build *b, const Placing *p)
{
  CgDisplayTree *t = b->t;
  if (b->placed->len >= b->n_in_scope)
    return;
  g_autoptr (GArray) heap = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree guint8 *in_heap = g_new0 (guint8, MAX (b->nf, 1));
  for (guint i = 0; i < b->n_in_scope; i++)
    {
      CgFunctionId f = b->by_rank[i];
      guint n;
      const CgFunctionId *up = uppers (&b->d, f, &n);
      for (guint k = 0; t->master[f] == CG_NO_ID && k < n && !in_heap[f]; k++)
        if (t->master[up[k]] != CG_NO_ID)
          {
            in_heap[f] = 1;
            heap_push (heap, i);
          }
    }
  for (guint next_unplaced = 0; b->placed->len < b->n_in_scope;)
    {
      guint first = b->placed->len;
      CgFunctionId f = CG_NO_ID;
      while (heap->len > 0 && f == CG_NO_ID)
        {
          CgFunctionId c = b->by_rank[heap_pop (heap)];
          if (t->master[c] == CG_NO_ID)
            f = c;
        }
      if (f != CG_NO_ID)
        {
          t->master[f] = best_placed_arc (b, f);
          g_array_append_val (b->placed, f);
        }
      else
        {
          /* with given roots everything in scope is reachable, so this
           * never happens */
          while (t->master[g_array_index (b->order, CgFunctionId, next_unplaced)] != CG_NO_ID)
            next_unplaced++;
          add_root (t, g_array_index (b->order, CgFunctionId, next_unplaced), b->placed);
        }
      place_below (p, b->placed, first);
      for (guint q = first; q < b->placed->len; q++)
        {
          guint n;
          const CgFunctionId *down = lowers (&b->d, g_array_index (b->placed, CgFunctionId, q), &n);
          for (guint k = 0; k < n; k++)
            if (t->master[down[k]] == CG_NO_ID && !in_heap[down[k]])
              {
                in_heap[down[k]] = 1;
                heap_push (heap, b->o.rank[down[k]]);
              }
        }
    }
}

/* Step 5: a node per root and per arc leaving a function in the tree. */
static guint
count_nodes (const Build *b)
{
  guint n_nodes = b->t->roots->len;
  for (guint i = 0; i < b->placed->len; i++)
    {
      guint n;
      const CgFunctionId *down = lowers (&b->d, g_array_index (b->placed, CgFunctionId, i), &n);
      if (b->in_scope == NULL)
        n_nodes += n;
      else
        for (guint k = 0; k < n; k++)
          n_nodes += b->in_scope[down[k]];
    }
  return n_nodes;
}

static CgDisplayTree *
tree_alloc (CgGraph *graph, gboolean inverted)
{
  guint nf = cg_graph_n_functions (graph);
  CgDisplayTree *t = g_new0 (CgDisplayTree, 1);
  t->graph = graph;
  t->inverted = inverted;
  t->n_arcs = cg_graph_n_arcs (graph);
  t->roots = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  t->master = g_new (CgNodeId, MAX (nf, 1));
  memset (t->master, 0xff, MAX (nf, 1) * sizeof *t->master);
  return t;
}

CgDisplayTree *
cg_display_tree_new_full (CgGraph *graph, const CgCosts *costs, const CgDisplayTreeOptions *options)
{
  guint nf = cg_graph_n_functions (graph);
  g_autofree guint32 *rank = g_new (guint32, MAX (nf, 1));
  Build b = {
    .t = tree_alloc (graph, options->inverted),
    .d = { graph, options->inverted },
    .costs = costs,
    .event = options->event,
    .nf = nf,
    .o = { graph, cg_costs_kind (costs, options->event), rank },
  };
  /* with given roots, only what they reach is in the tree, and masters
   * are chosen among the callers in it; skipped functions are out */
  g_autofree guint8 *scope = options->roots ? reachable_from (&b.d, options->roots, options->n_roots, nf) : NULL;
  if (options->skip)
    {
      if (scope == NULL)
        {
          scope = g_malloc (MAX (nf, 1));
          memset (scope, 1, MAX (nf, 1));
        }
      for (CgFunctionId f = 0; f < nf; f++)
        scope[f] &= !options->skip[f];
      for (guint i = 0; options->roots && i < options->n_roots; i++)
        scope[options->roots[i]] = 1;
    }
  b.in_scope = scope;
  b.skip = options->skip;

  rank_functions (&b);
  choose_master_callers (&b);
  g_autofree guint32 *kid_start = NULL;
  g_autofree CgFunctionId *kids = NULL;
  cg_csr_build (b.best_caller, sizeof *b.best_caller, 0, nf, nf, &kid_start, &kids);
  Placing p = { b.t, b.best_arc, kid_start, kids };
  b.placed = g_array_sized_new (FALSE, FALSE, sizeof (CgFunctionId), b.n_in_scope);
  place_roots (&b, &p, options);
  place_stranded (&b, &p);
  b.t->n_nodes = count_nodes (&b);

  g_free (b.by_rank);
  g_array_unref (b.order);
  g_free (b.best_arc);
  g_free (b.best_caller);
  g_array_unref (b.placed);
  return b.t;
}

CgDisplayTree *
cg_display_tree_new_given (CgGraph *graph, gboolean inverted, const CgGivenNode *nodes, guint n_nodes)
{
  CgDisplayTree *t = tree_alloc (graph, inverted);
  t->nodes = g_memdup2 (nodes, MAX (n_nodes, 1) * sizeof *nodes);
  t->n_nodes = n_nodes;
  t->root_nodes = g_array_new (FALSE, FALSE, sizeof (CgNodeId));
  g_autofree CgNodeId *parents = g_new (CgNodeId, MAX (n_nodes, 1));
  for (CgNodeId n = 0; n < n_nodes; n++)
    {
      /* parents say which row; a root goes into a row past the nodes' */
      parents[n] = nodes[n].parent == CG_NO_ID ? n_nodes : nodes[n].parent;
      if (nodes[n].parent == CG_NO_ID)
        g_array_append_val (t->root_nodes, n);
      if (t->master[nodes[n].function] == CG_NO_ID)
        t->master[nodes[n].function] = n;
    }
  cg_csr_build (parents, sizeof *parents, 0, n_nodes, n_nodes + 1, &t->kid_start, &t->kids);
  return t;
}

gboolean
cg_display_tree_is_given (const CgDisplayTree *t)
{
  return t->nodes != NULL;
}

gboolean
cg_display_tree_given_value (const CgDisplayTree *t, CgNodeId node, CgValue *value, gboolean *estimated)
{
  if (t->nodes == NULL)
    return FALSE;
  *value = t->nodes[node].value;
  *estimated = t->nodes[node].estimated;
  return TRUE;
}

gboolean
cg_display_tree_shows_self (const CgDisplayTree *t, CgNodeId node)
{
  if (t->nodes)
    return t->nodes[node].parent == CG_NO_ID;
  return cg_display_tree_is_master (t, node);
}

void
cg_display_tree_free (CgDisplayTree *t)
{
  if (t == NULL)
    return;
  g_free (t->nodes);
  g_free (t->kid_start);
  g_free (t->kids);
  if (t->root_nodes)
    g_array_unref (t->root_nodes);
  g_array_unref (t->roots);
  g_free (t->master);
  g_free (t);
}

guint
cg_display_tree_n_nodes (const CgDisplayTree *t)
{
  return t->n_nodes;
}

guint
cg_display_tree_node_bound (const CgDisplayTree *t)
{
  if (t->nodes)
    return t->n_nodes;
  return t->n_arcs + t->roots->len;
}

gboolean
cg_display_tree_is_inverted (const CgDisplayTree *t)
{
  return t->inverted;
}

guint
cg_display_tree_n_roots (const CgDisplayTree *t)
{
  if (t->nodes)
    return t->root_nodes->len;
  return t->roots->len;
}

CgNodeId
cg_display_tree_root (const CgDisplayTree *t, guint i)
{
  if (t->nodes)
    return g_array_index (t->root_nodes, CgNodeId, i);
  return t->n_arcs + i;
}

/* The function whose master an arc node hangs under. */
static CgFunctionId
upper_function (const CgDisplayTree *t, CgArcId a)
{
  return t->inverted ? cg_graph_arc_callee (t->graph, a) : cg_graph_arc_caller (t->graph, a);
}

gboolean
cg_display_tree_has_node (const CgDisplayTree *t, CgNodeId node)
{
  if (t->nodes)
    return node < t->n_nodes;
  if (node >= t->n_arcs)
    return node - t->n_arcs < t->roots->len;
  return t->master[upper_function (t, node)] != CG_NO_ID
         && t->master[cg_display_tree_function (t, node)] != CG_NO_ID;
}

CgFunctionId
cg_display_tree_function (const CgDisplayTree *t, CgNodeId node)
{
  if (t->nodes)
    return t->nodes[node].function;
  if (node >= t->n_arcs)
    return g_array_index (t->roots, CgFunctionId, node - t->n_arcs);
  return t->inverted ? cg_graph_arc_caller (t->graph, node) : cg_graph_arc_callee (t->graph, node);
}

CgArcId
cg_display_tree_arc (const CgDisplayTree *t, CgNodeId node)
{
  if (t->nodes)
    return t->nodes[node].arc;
  return node >= t->n_arcs ? CG_NO_ID : node;
}

CgNodeId
cg_display_tree_parent (const CgDisplayTree *t, CgNodeId node)
{
  if (t->nodes)
    return t->nodes[node].parent;
  return node >= t->n_arcs ? CG_NO_ID : t->master[upper_function (t, node)];
}

CgNodeId
cg_display_tree_master (const CgDisplayTree *t, CgFunctionId f)
{
  return t->master[f];
}

gboolean
cg_display_tree_is_master (const CgDisplayTree *t, CgNodeId node)
{
  if (t->nodes)
    return TRUE;
  return t->master[cg_display_tree_function (t, node)] == node;
}

const CgNodeId *
cg_display_tree_children (const CgDisplayTree *t, CgNodeId node, guint *n_children)
{
  *n_children = 0;
  if (t->nodes)
    {
      *n_children = t->kid_start[node + 1] - t->kid_start[node];
      return t->kids + t->kid_start[node];
    }
  if (!cg_display_tree_is_master (t, node))
    return NULL;
  Direction d = { t->graph, t->inverted };
  /* a node's id is its arc's */
  return down_arcs (&d, cg_display_tree_function (t, node), n_children);
}
