/* cg-scc.c — Tarjan's algorithm with explicit stacks. */
#include "config.h"

#include "cg-scc.h"

#define UNVISITED G_MAXUINT32

typedef struct {
  CgFunctionId f;
  guint next; /* arcs still to try: out[0 .. next) in reverse */
} Visit;

CgScc *
cg_scc_find (CgGraph *g, CgArcFilter filter, gpointer user_data)
{
  guint n = cg_graph_n_functions (g);
  g_autofree guint32 *index = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *low = g_new (guint32, MAX (n, 1));
  g_autofree guint8 *on_stack = g_new0 (guint8, MAX (n, 1));
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
      guint deg;
      cg_graph_out_arcs (g, root, &deg);
      g_array_append_val (visits, ((Visit) { root, deg }));
      index[root] = low[root] = counter++;
      g_array_append_val (stack, root);
      on_stack[root] = 1;

      while (visits->len > 0)
        {
          Visit *top = &g_array_index (visits, Visit, visits->len - 1);
          CgFunctionId v = top->f;
          if (top->next > 0)
            {
              const CgArcId *out = cg_graph_out_arcs (g, v, &deg);
              CgArcId a = out[--top->next];
              if (filter && !filter (g, a, user_data))
                continue;
              CgFunctionId w = cg_graph_arc_callee (g, a);
              if (index[w] == UNVISITED)
                {
                  index[w] = low[w] = counter++;
                  g_array_append_val (stack, w);
                  on_stack[w] = 1;
                  cg_graph_out_arcs (g, w, &deg);
                  g_array_append_val (visits, ((Visit) { w, deg }));
                }
              else if (on_stack[w] && index[w] < low[v])
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
                  on_stack[w] = 0;
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
