/* cg-scc.c — Tarjan's algorithm with explicit stacks. */
#include "config.h"

#include "cg-scc.h"

/* A function's DFS number while it is on Tarjan's stack; two marks
 * outside the numbers for before (UNVISITED) and after (DONE).  DONE is
 * above every number, so "index[w] < low[v]" is false for a function
 * already placed in a component: no on-stack flag is needed (Pearce's
 * observation), and trying a callee reads one number. */
#define UNVISITED G_MAXUINT32
#define DONE (G_MAXUINT32 - 1)

typedef struct {
  CgFunctionId f;
  guint next; /* callees still to try: targets[start[f] .. next) in reverse */
} Visit;

/* The callees of each function's accepted arcs, in arc order, as
 * compressed rows: the depth-first search then reads one array of ids
 * instead of an arc record per step (a cache miss each on a large graph),
 * and the graph's own adjacency (both directions, twice the memory) is
 * not needed.  One pass over the arcs to count, one to fill. */
static void
callee_rows (CgGraph *g, CgArcFilter filter, gpointer user_data, guint32 **start_out, guint32 **targets_out)
{
  guint n = cg_graph_n_functions (g), na = cg_graph_n_arcs (g);
  guint32 *start = g_new0 (guint32, (gsize) n + 1);
  g_autofree guint8 *keep = filter ? g_new (guint8, MAX (na, 1)) : NULL;
  for (CgArcId a = 0; a < na; a++)
    {
      if (filter && !(keep[a] = filter (g, a, user_data) != FALSE))
        continue;
      start[cg_graph_arc_caller (g, a) + 1]++;
    }
  for (guint v = 0; v < n; v++)
    start[v + 1] += start[v];
  guint32 total = start[n];
  guint32 *targets = g_new (guint32, MAX (total, 1));
  /* fill each row from its end, arcs taken last to first, so start[]
   * ends where it began */
  for (CgArcId a = na; a-- > 0;)
    {
      if (filter && !keep[a])
        continue;
      CgFunctionId caller = cg_graph_arc_caller (g, a);
      targets[--start[caller + 1]] = cg_graph_arc_callee (g, a);
    }
  /* start[v + 1] now holds where row v starts: shift back */
  for (guint v = 0; v < n; v++)
    start[v] = start[v + 1];
  start[n] = total;
  *start_out = start;
  *targets_out = targets;
}

CgScc *
cg_scc_find (CgGraph *g, CgArcFilter filter, gpointer user_data)
{
  guint n = cg_graph_n_functions (g);
  g_autofree guint32 *index = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *low = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *start = NULL, *targets = NULL;
  callee_rows (g, filter, user_data, &start, &targets);
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  g_autoptr (GArray) visits = g_array_new (FALSE, FALSE, sizeof (Visit));
  g_autoptr (GArray) heads = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  g_autoptr (GArray) sizes = g_array_new (FALSE, FALSE, sizeof (guint32));
  CgScc *scc = g_new0 (CgScc, 1);
  scc->component_of = g_new (guint32, MAX (n, 1));
  guint32 counter = 0;

  for (CgFunctionId f = 0; f < n; f++)
    index[f] = UNVISITED;

  for (CgFunctionId root = 0; root < n; root++)
    {
      if (index[root] != UNVISITED)
        continue;
      g_array_append_val (visits, ((Visit) { root, start[root + 1] }));
      index[root] = low[root] = counter++;
      g_array_append_val (stack, root);

      while (visits->len > 0)
        {
          Visit *top = &g_array_index (visits, Visit, visits->len - 1);
          CgFunctionId v = top->f;
          if (top->next > start[v])
            {
              CgFunctionId w = targets[--top->next];
              if (index[w] == UNVISITED)
                {
                  index[w] = low[w] = counter++;
                  g_array_append_val (stack, w);
                  g_array_append_val (visits, ((Visit) { w, start[w + 1] }));
                }
              else if (index[w] < low[v])
                low[v] = index[w];
              continue;
            }
          g_array_set_size (visits, visits->len - 1);
          if (low[v] == index[v])
            {
              guint32 component = heads->len, size = 0;
              CgFunctionId w;
              do
                {
                  w = g_array_index (stack, CgFunctionId, stack->len - 1);
                  g_array_set_size (stack, stack->len - 1);
                  index[w] = DONE;
                  scc->component_of[w] = component;
                  size++;
                }
              while (w != v);
              g_array_append_val (heads, v);
              g_array_append_val (sizes, size);
            }
          if (visits->len > 0)
            {
              CgFunctionId parent = g_array_index (visits, Visit, visits->len - 1).f;
              if (low[v] < low[parent])
                low[parent] = low[v];
            }
        }
    }
  scc->n_components = heads->len;
  scc->head = (CgFunctionId *) g_array_free (g_steal_pointer (&heads), FALSE);
  scc->size = (guint32 *) g_array_free (g_steal_pointer (&sizes), FALSE);
  return scc;
}

void
cg_scc_free (CgScc *scc)
{
  if (scc == NULL)
    return;
  g_free (scc->component_of);
  g_free (scc->head);
  g_free (scc->size);
  g_free (scc);
}
