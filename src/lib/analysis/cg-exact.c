/* cg-exact.c — the Min_E walk. */
#include "config.h"

#include "cg-exact.h"

#include <math.h>

#include "cg-error.h"

static gboolean
close_enough (CgKind kind, CgValue a, CgValue b)
{
  if (kind == CG_KIND_INTEGER)
    return a.n == b.n;
  /* the tree sums per frame, the graph per line: same numbers, another
   * order of addition */
  return fabs (a.x - b.x) <= 1e-9 * MAX (fabs (a.x), fabs (b.x));
}

gboolean
cg_exact_applies (CgProfile *p, char **why)
{
  CgGraph *g = cg_profile_graph (p);
  CgTree *t = cg_profile_tree (p);
  if (t == NULL)
    {
      if (why)
        *why = g_strdup ("the profile has no call tree (method 'exact' needs whole stacks, such as folded "
                         "stacks record)");
      return FALSE;
    }
  guint nf = cg_graph_n_functions (g), ne = cg_graph_n_events (g), nx = cg_tree_n_frames (t);
  if (cg_tree_n_events (t) != ne)
    {
      if (why)
        *why = g_strdup ("the call tree and the graph have different events");
      return FALSE;
    }
  const CgKind *kinds = cg_graph_event_kinds (g);
  g_autofree CgValue *sum = g_new0 (CgValue, MAX ((gsize) nf * ne, 1));
  for (CgFrameId x = 0; x < nx; x++)
    {
      CgFunctionId f = cg_tree_function (t, x);
      if (f >= nf)
        {
          if (why)
            *why = g_strdup ("the call tree names a function the graph lacks");
          return FALSE;
        }
      /* an overflow here would overflow the graph's self sum as well */
      cg_values_add (kinds, &sum[(gsize) f * ne], cg_tree_self_const (t, x), ne);
    }
  for (CgFunctionId f = 0; f < nf; f++)
    for (guint e = 0; e < ne; e++)
      if (!close_enough (kinds[e], sum[(gsize) f * ne + e], cg_graph_self_const (g, f)[e]))
        {
          if (why)
            *why = g_strdup_printf ("the call tree does not hold all the %s of %s (profiles without stacks "
                                    "were merged with ones with stacks)",
                                    cg_graph_event_name (g, e), cg_graph_function_name (g, f));
          return FALSE;
        }
  return TRUE;
}

gboolean
cg_exact_held_events (CgProfile *p, gboolean *held)
{
  CgGraph *g = cg_profile_graph (p);
  CgTree *t = cg_profile_tree (p);
  guint nf = cg_graph_n_functions (g), ne = cg_graph_n_events (g);
  for (guint e = 0; e < ne; e++)
    held[e] = FALSE;
  if (t == NULL || cg_tree_n_events (t) != ne)
    return FALSE;
  const CgKind *kinds = cg_graph_event_kinds (g);
  g_autofree CgValue *sum = g_new0 (CgValue, MAX ((gsize) nf * ne, 1));
  for (CgFrameId x = 0; x < cg_tree_n_frames (t); x++)
    {
      CgFunctionId f = cg_tree_function (t, x);
      if (f >= nf)
        return FALSE;
      cg_values_add (kinds, &sum[(gsize) f * ne], cg_tree_self_const (t, x), ne);
    }
  for (guint e = 0; e < ne; e++)
    {
      held[e] = TRUE;
      for (CgFunctionId f = 0; f < nf && held[e]; f++)
        held[e] = close_enough (kinds[e], sum[(gsize) f * ne + e], cg_graph_self_const (g, f)[e]);
    }
  return TRUE;
}

static CgCosts *
overflow (GError **error)
{
  g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "a total exceeds the range of 64-bit counters");
  return NULL;
}

typedef struct {
  CgFrameId frame;
  guint next; /* index of the next child to visit */
} Visit;

CgCosts *
cg_exact_from_tree (CgGraph *g, CgTree *t, GError **error)
{
  guint nf = cg_graph_n_functions (g), ne = cg_graph_n_events (g), nx = cg_tree_n_frames (t);
  const CgKind *kinds = cg_graph_event_kinds (g);
  g_autoptr (CgCosts) c = cg_costs_new (CG_METHOD_EXACT, g);
  gsize rows = MAX ((gsize) nx * ne, 1);

  /* c(x), children before parents: ids grow from parent to child */
  g_autofree CgValue *inclusive = g_new (CgValue, rows);
  for (CgFrameId x = 0; x < nx; x++)
    for (guint e = 0; e < ne; e++)
      inclusive[(gsize) x * ne + e] = cg_tree_self_const (t, x)[e];
  for (CgFrameId x = nx; x-- > 0;)
    {
      CgFrameId p = cg_tree_parent (t, x);
      if (p != CG_NO_ID
          && !cg_values_add (kinds, &inclusive[(gsize) p * ne], &inclusive[(gsize) x * ne], ne))
        return overflow (error);
    }

  /* Min_E: a pre-order walk; open[f] counts f's frames on the path, and
   * entered[f] is the arc that entered f's outermost open frame (CG_NO_ID
   * for a root), which gets the self costs of all of f's frames inside */
  g_autofree guint32 *open = g_new0 (guint32, MAX (nf, 1));
  g_autofree CgArcId *entered = g_new (CgArcId, MAX (nf, 1));
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (Visit));
  for (CgFrameId root = 0; root < nx; root++)
    {
      if (cg_tree_parent (t, root) != CG_NO_ID)
        continue;
      Visit v = { root, 0 };
      g_array_append_val (stack, v);
      gboolean entering = TRUE;
      while (stack->len > 0)
        {
          Visit *top = &g_array_index (stack, Visit, stack->len - 1);
          CgFrameId x = top->frame;
          CgFunctionId f = cg_tree_function (t, x);
          if (entering)
            {
              if (open[f] == 0)
                {
                  const CgValue *cx = &inclusive[(gsize) x * ne];
                  if (!cg_values_add (kinds, cg_costs_total (c, f), cx, ne))
                    return overflow (error);
                  entered[f] = CG_NO_ID;
                  CgFrameId p = cg_tree_parent (t, x);
                  if (p != CG_NO_ID)
                    {
                      CgArcId a = cg_graph_lookup_arc (g, cg_tree_function (t, p), f);
                      if (a == CG_NO_ID)
                        {
                          g_set_error (error, CG_ERROR, CG_ERROR_PARSE,
                                       "the call tree has a call %s → %s that the graph lacks",
                                       cg_graph_function_name (g, cg_tree_function (t, p)),
                                       cg_graph_function_name (g, f));
                          return NULL;
                        }
                      if (!cg_values_add (kinds, cg_costs_arc (c, a), cx, ne))
                        return overflow (error);
                      entered[f] = a;
                    }
                }
              if (entered[f] != CG_NO_ID
                  && !cg_values_add (kinds, cg_costs_arc_self (c, entered[f]), cg_tree_self_const (t, x), ne))
                return overflow (error);
              open[f]++;
            }
          guint n;
          const CgFrameId *children = cg_tree_children (t, x, &n);
          if (top->next < n)
            {
              Visit child = { children[top->next++], 0 };
              g_array_append_val (stack, child); /* may move top */
              entering = TRUE;
            }
          else
            {
              open[f]--;
              g_array_set_size (stack, stack->len - 1);
              entering = FALSE;
            }
        }
    }

  /* children = carried − own; never negative, as own ⊆ carried */
  guint na = cg_graph_n_arcs (g);
  for (CgArcId a = 0; a < na; a++)
    {
      const CgValue *all = cg_costs_arc_const (c, a);
      CgValue *own = cg_costs_arc_self (c, a);
      CgValue *rest = cg_costs_arc_children (c, a);
      for (guint e = 0; e < ne; e++)
        {
          if (kinds[e] == CG_KIND_INTEGER)
            rest[e].n = all[e].n - own[e].n;
          else
            rest[e].x = MAX (all[e].x - own[e].x, 0.0); /* the two sums round apart */
        }
    }
  return g_steal_pointer (&c);
}

CgCosts *
cg_exact_compute (CgProfile *p, GError **error)
{
  g_autofree char *why = NULL;
  if (!cg_exact_applies (p, &why))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED, "%s", why);
      return NULL;
    }
  return cg_exact_from_tree (cg_profile_graph (p), cg_profile_tree (p), error);
}
