/* cg-callers-tree.c — nodes made largest first from a heap; each holds,
 * until expanded, the stack positions its share of self cost sits at. */
#include "config.h"

#include "cg-callers-tree.h"

#include <math.h>
#include <string.h>

#include "cg-contexts.h"
#include "cg-error.h"
#include "cg-tree.h"

#define DEFAULT_MAX_NODES 200000

/* A place on a stack carrying part of a root's self cost: a frame of the
 * call tree, or position @pos of context @k's history (k << 32 | pos). */
typedef struct {
  guint64 at;
  CgValue w; /* of the graph's self kind for the event */
} Item;

typedef struct {
  CgGraph *g;
  CgTree *tree;         /* nullable */
  CgContexts *contexts; /* nullable: used when there is no tree */
  const CgCosts *costs;
  const CgCallersTreeOptions *o;
  guint event;
  CgKind self_kind, kind;
  gdouble min_value;
  guint max_nodes;
  GArray *nodes;        /* CgGivenNode */
  GArray *depth;        /* guint, per node */
  GPtrArray *items;     /* per node: GArray of Item until expanded, or NULL */
  GArray *heap;         /* Pending */
  guint8 *on_path;      /* per function, during one expansion */
  guint32 *group;       /* per function: index into the groups, G_MAXUINT32 none */
} Build;

typedef struct {
  gdouble value;
  CgNodeId node;
} Pending;

static void
heap_push (GArray *heap, Pending p)
{
  g_array_append_val (heap, p);
  Pending *h = (Pending *) heap->data;
  for (guint i = heap->len - 1; i > 0;)
    {
      guint up = (i - 1) / 2;
      if (h[up].value >= h[i].value)
        break;
      Pending t = h[up];
      h[up] = h[i];
      h[i] = t;
      i = up;
    }
}

static Pending
heap_pop (GArray *heap)
{
  Pending *h = (Pending *) heap->data;
  Pending top = h[0];
  h[0] = h[heap->len - 1];
  g_array_set_size (heap, heap->len - 1);
  h = (Pending *) heap->data;
  for (guint i = 0, len = heap->len;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;
      if (l < len && h[l].value > h[m].value)
        m = l;
      if (r < len && h[r].value > h[m].value)
        m = r;
      if (m == i)
        break;
      Pending t = h[m];
      h[m] = h[i];
      h[i] = t;
      i = m;
    }
  return top;
}

/* ---- stack positions ---- */

static CgFunctionId
item_function (const Build *b, guint64 at)
{
  if (b->tree)
    return cg_tree_function (b->tree, (CgFrameId) at);
  guint len;
  const CgFunctionId *history = cg_contexts_functions (b->contexts, (CgContextId) (at >> 32), &len);
  return history[at & G_MAXUINT32];
}

/* The position of the caller of @at's activation, or G_MAXUINT64 at the
 * bottom of the stack. */
static guint64
item_parent (const Build *b, guint64 at)
{
  if (b->tree)
    {
      CgFrameId p = cg_tree_parent (b->tree, (CgFrameId) at);
      return p == CG_NO_ID ? G_MAXUINT64 : p;
    }
  return (at & G_MAXUINT32) == 0 ? G_MAXUINT64 : at - 1;
}

/* ---- nodes ---- */

/* @v (of the self kind) in the costs' kind. */
static CgValue
as_costs_kind (const Build *b, CgValue v)
{
  if (b->kind == b->self_kind)
    return v;
  return (CgValue) { .x = cg_value_to_double (b->self_kind, v) };
}

static gdouble
value_double (const Build *b, CgValue v)
{
  return cg_value_to_double (b->kind, v);
}

static CgNodeId
add_node (Build *b, CgFunctionId f, CgNodeId parent, CgArcId arc, CgValue value, gboolean estimated, GArray *items)
{
  CgNodeId n = b->nodes->len;
  CgGivenNode node = { f, parent, arc, value, estimated };
  g_array_append_val (b->nodes, node);
  guint depth = parent == CG_NO_ID ? 1 : g_array_index (b->depth, guint, parent) + 1;
  g_array_append_val (b->depth, depth);
  g_ptr_array_add (b->items, items);
  if (b->o->max_depth == 0 || depth < b->o->max_depth)
    heap_push (b->heap, (Pending) { value_double (b, value), n });
  else if (items)
    {
      g_array_unref (items);
      g_ptr_array_index (b->items, n) = NULL;
    }
  return n;
}

/* Marks (@flag 1) or clears (0) the functions on @n's path. */
static void
mark_path (Build *b, CgNodeId n, guint8 flag)
{
  for (; n != CG_NO_ID; n = g_array_index (b->nodes, CgGivenNode, n).parent)
    b->on_path[g_array_index (b->nodes, CgGivenNode, n).function] = flag;
}

typedef struct {
  CgFunctionId f;
  CgValue w;
  GArray *items; /* Item, exact only */
  gboolean estimated;
} Group;

/* The children of @n with a call tree or contexts: each item moves to its
 * caller's position, passing over functions on the path, and the items
 * are grouped by the caller's function. */
static void
group_exact (Build *b, CgNodeId n, GArray *groups)
{
  GArray *items = g_ptr_array_index (b->items, n);
  for (guint i = 0; items && i < items->len; i++)
    {
      Item it = g_array_index (items, Item, i);
      guint64 p = item_parent (b, it.at);
      while (p != G_MAXUINT64 && b->on_path[item_function (b, p)])
        p = item_parent (b, p);
      if (p == G_MAXUINT64)
        continue;
      CgFunctionId g = item_function (b, p);
      if (b->o->skip && b->o->skip[g])
        continue;
      if (b->group[g] == G_MAXUINT32)
        {
          b->group[g] = groups->len;
          Group fresh = { g, CG_VALUE_ZERO, g_array_new (FALSE, FALSE, sizeof (Item)), FALSE };
          g_array_append_val (groups, fresh);
        }
      Group *gr = &g_array_index (groups, Group, b->group[g]);
      /* parts of one root's self cost: never above the profile's total */
      cg_value_add (b->self_kind, &gr->w, it.w);
      Item up = { p, it.w };
      g_array_append_val (gr->items, up);
    }
}

/* The children of @n with only arcs: its value divided among the callers
 * of its function off its path, by the cost of their calls (or their
 * counts where no arc carries cost). */
static void
group_estimated (Build *b, CgNodeId n, GArray *groups)
{
  const CgGivenNode *node = &g_array_index (b->nodes, CgGivenNode, n);
  CgFunctionId f = node->function;
  gdouble value = value_double (b, node->value);
  guint na;
  const CgArcId *arcs = cg_graph_in_arcs (b->g, f, &na);
  const CgFunctionId *callers = cg_graph_in_callers (b->g, f, &na);
  gdouble by_cost = 0, by_calls = 0;
  for (guint i = 0; i < na; i++)
    if (!b->on_path[callers[i]] && !(b->o->skip && b->o->skip[callers[i]]))
      {
        by_cost += fmax (0.0, value_double (b, cg_costs_arc_const (b->costs, arcs[i])[b->event]));
        by_calls += (gdouble) cg_graph_arc_calls (b->g, arcs[i]);
      }
  gboolean use_cost = by_cost > 0;
  gdouble sum = use_cost ? by_cost : by_calls;
  if (sum <= 0)
    return;
  /* one caller off the path: all of the line came through it */
  guint eligible = 0;
  for (guint i = 0; i < na; i++)
    eligible += !b->on_path[callers[i]] && !(b->o->skip && b->o->skip[callers[i]]);
  for (guint i = 0; i < na; i++)
    {
      CgFunctionId g = callers[i];
      if (b->on_path[g] || (b->o->skip && b->o->skip[g]))
        continue;
      gdouble w = use_cost ? fmax (0.0, value_double (b, cg_costs_arc_const (b->costs, arcs[i])[b->event]))
                           : (gdouble) cg_graph_arc_calls (b->g, arcs[i]);
      gdouble share = value * w / sum;
      /* integers floored, so that the shares never add up to more */
      CgValue v = b->kind == CG_KIND_INTEGER ? (CgValue) { .n = (guint64) floor (share) } : (CgValue) { .x = share };
      if (eligible == 1)
        v = node->value;
      Group gr = { g, v, NULL, node->estimated || eligible > 1 };
      g_array_append_val (groups, gr);
    }
}

static void
expand (Build *b, CgNodeId n, GArray *groups)
{
  const gboolean exact = b->tree || b->contexts;
  CgFunctionId f = g_array_index (b->nodes, CgGivenNode, n).function;
  mark_path (b, n, 1);
  g_array_set_size (groups, 0);
  if (exact)
    group_exact (b, n, groups);
  else
    group_estimated (b, n, groups);
  mark_path (b, n, 0);
  GArray *items = g_ptr_array_index (b->items, n);
  if (items)
    g_array_unref (items);
  g_ptr_array_index (b->items, n) = NULL;
  for (guint i = 0; i < groups->len; i++)
    {
      Group *gr = &g_array_index (groups, Group, i);
      if (exact)
        b->group[gr->f] = G_MAXUINT32;
      CgValue v = exact ? as_costs_kind (b, gr->w) : gr->w;
      if (value_double (b, v) <= 0 || value_double (b, v) < b->min_value || b->nodes->len >= b->max_nodes)
        {
          if (gr->items)
            g_array_unref (gr->items);
          continue;
        }
      add_node (b, gr->f, n, cg_graph_lookup_arc (b->g, gr->f, f), v, gr->estimated, gr->items);
    }
}

/* Per function, its self cost's places on the stacks: the frames (or
 * contexts) whose own cost it is. */
static GArray **
places_of_self_cost (Build *b)
{
  guint nf = cg_graph_n_functions (b->g);
  GArray **places = g_new0 (GArray *, MAX (nf, 1));
  guint n = b->tree ? cg_tree_n_frames (b->tree) : cg_contexts_n (b->contexts);
  for (guint i = 0; i < n; i++)
    {
      Item it;
      if (b->tree)
        it = (Item) { i, cg_tree_self_const (b->tree, i)[b->event] };
      else
        {
          guint len;
          cg_contexts_functions (b->contexts, i, &len);
          if (len == 0)
            continue;
          it = (Item) { (guint64) i << 32 | (len - 1), cg_contexts_cost_const (b->contexts, i)[b->event] };
        }
      if (cg_value_to_double (b->self_kind, it.w) <= 0)
        continue;
      CgFunctionId f = item_function (b, it.at);
      if (places[f] == NULL)
        places[f] = g_array_new (FALSE, FALSE, sizeof (Item));
      g_array_append_val (places[f], it);
    }
  return places;
}

typedef struct {
  CgFunctionId f;
  CgValue self;
  const char *name;
  CgKind kind;
} Root;

static gint
by_self (gconstpointer a, gconstpointer c)
{
  const Root *x = a, *y = c;
  int d = cg_value_compare (x->kind, y->self, x->self);
  if (d == 0)
    d = strcmp (x->name, y->name);
  return d != 0 ? d : (x->f > y->f) - (x->f < y->f);
}

/* The roots: given, or every function with self cost (start-up code
 * aside), most self cost first. */
static GArray *
choose_roots (const Build *b)
{
  GArray *roots = g_array_new (FALSE, FALSE, sizeof (Root));
  guint nf = cg_graph_n_functions (b->g);
  for (guint i = 0; i < (b->o->roots ? b->o->n_roots : nf); i++)
    {
      CgFunctionId f = b->o->roots ? b->o->roots[i] : i;
      CgValue self = cg_graph_self_const (b->g, f)[b->event];
      if (!b->o->roots && (cg_value_to_double (b->self_kind, self) <= 0 || (b->o->skip && b->o->skip[f])))
        continue;
      Root r = { f, self, cg_graph_function_name (b->g, f), b->self_kind };
      g_array_append_val (roots, r);
    }
  if (!b->o->roots)
    g_array_sort (roots, by_self);
  return roots;
}

gboolean
cg_callers_tree_exact (CgProfile *profile)
{
  return cg_profile_tree (profile) != NULL || cg_profile_contexts (profile) != NULL;
}

CgDisplayTree *
cg_callers_tree_new (CgProfile *profile, const CgCosts *costs, const CgCallersTreeOptions *o, GError **error)
{
  CgGraph *g = cg_profile_graph (profile);
  guint nf = cg_graph_n_functions (g);
  g_autofree CgValue *all = g_new0 (CgValue, MAX (cg_graph_n_events (g), 1));
  if (!cg_graph_self_totals (g, all))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "the total cost exceeds the range of 64-bit counters");
      return NULL;
    }
  Build b = {
    .g = g,
    .tree = cg_profile_tree (profile),
    .contexts = cg_profile_tree (profile) ? NULL : cg_profile_contexts (profile),
    .costs = costs,
    .o = o,
    .event = o->event,
    .self_kind = cg_graph_event_kind (g, o->event),
    .kind = cg_costs_kind (costs, o->event),
    .max_nodes = o->max_nodes ? o->max_nodes : DEFAULT_MAX_NODES,
  };
  b.min_value = o->min_percent / 100.0 * cg_value_to_double (b.self_kind, all[o->event]);
  b.nodes = g_array_new (FALSE, FALSE, sizeof (CgGivenNode));
  b.depth = g_array_new (FALSE, FALSE, sizeof (guint));
  b.items = g_ptr_array_new ();
  b.heap = g_array_new (FALSE, FALSE, sizeof (Pending));
  b.on_path = g_new0 (guint8, MAX (nf, 1));
  b.group = g_new (guint32, MAX (nf, 1));
  memset (b.group, 0xff, MAX (nf, 1) * sizeof *b.group);

  gboolean exact = b.tree || b.contexts;
  GArray **places = exact ? places_of_self_cost (&b) : NULL;
  g_autoptr (GArray) roots = choose_roots (&b);
  for (guint i = 0; i < roots->len && b.nodes->len < b.max_nodes; i++)
    {
      const Root *r = &g_array_index (roots, Root, i);
      /* a root is a line even below the minimum when it was asked for */
      if (!o->roots && cg_value_to_double (b.self_kind, r->self) < b.min_value)
        continue;
      GArray *items = places ? places[r->f] : NULL;
      if (places)
        places[r->f] = NULL;
      add_node (&b, r->f, CG_NO_ID, CG_NO_ID, as_costs_kind (&b, r->self), FALSE, items);
    }
  g_autoptr (GArray) groups = g_array_new (FALSE, FALSE, sizeof (Group));
  while (b.heap->len > 0 && b.nodes->len < b.max_nodes)
    expand (&b, heap_pop (b.heap).node, groups);

  for (guint i = 0; places && i < nf; i++)
    if (places[i])
      g_array_unref (places[i]);
  g_free (places);
  for (guint i = 0; i < b.items->len; i++)
    if (g_ptr_array_index (b.items, i))
      g_array_unref (g_ptr_array_index (b.items, i));
  CgDisplayTree *t = cg_display_tree_new_given (g, TRUE, (const CgGivenNode *) b.nodes->data, b.nodes->len);
  g_array_unref (b.nodes);
  g_array_unref (b.depth);
  g_ptr_array_unref (b.items);
  g_array_unref (b.heap);
  g_free (b.on_path);
  g_free (b.group);
  return t;
}
