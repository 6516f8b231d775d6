/* cg-collapse.c — building the quotient graph. */
#include "config.h"

#include "cg-collapse.h"

#include "cg-error.h"

static gboolean
overflow (GError **error)
{
  g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW,
               "collapsing a cycle: a cost exceeds the range of 64-bit counters");
  return FALSE;
}

gboolean
cg_collapse_cycles (CgProfile *p, GError **error)
{
  CgGraph *g = cg_profile_graph (p);
  if (cg_profile_cycles (p) == NULL)
    cg_profile_set_cycles (p, cg_cycles_find (g, NULL, NULL));
  CgCycles *cycles = cg_profile_cycles (p);
  guint nf = cg_graph_n_functions (g), na = cg_graph_n_arcs (g), ne = cg_graph_n_events (g);

  g_autoptr (CgGraph) q = cg_graph_new ();
  for (guint e = 0; e < ne; e++)
    {
      guint index;
      if (!cg_graph_ensure_event (q, cg_graph_event_name (g, e), cg_graph_event_unit (g, e),
                                  cg_graph_event_kind (g, e), &index, error))
        return FALSE;
      cg_graph_set_event_description (q, index, cg_graph_event_description (g, e));
      cg_graph_set_event_scale (q, index, cg_graph_event_scale (g, e));
    }
  cg_graph_set_has_inclusive (q, cg_graph_has_inclusive (g));
  const CgKind *kinds = cg_graph_event_kinds (q);

  /* functions in their order; a cycle takes the place of its head */
  g_autofree CgFunctionId *map = g_new (CgFunctionId, MAX (nf, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    {
      guint k = cg_cycles_cycle_of (cycles, f);
      if (k != 0 && cg_cycles_head (cycles, k) != f)
        continue;
      if (k == 0)
        {
          map[f] = cg_graph_ensure_function (q, cg_graph_function_object (g, f), cg_graph_function_name (g, f));
          cg_graph_function_set_location (q, map[f], cg_graph_function_file (g, f), cg_graph_function_line (g, f));
          cg_graph_function_set_flags (q, map[f], cg_graph_function_flags (g, f));
          continue;
        }
      g_autofree char *name = g_strdup_printf ("<cycle %u>", k);
      CgFunctionId c = cg_graph_ensure_function (q, "", name);
      cg_graph_function_set_flags (q, c, CG_FUNCTION_CYCLE);
      guint n;
      const CgFunctionId *members = cg_cycles_members (cycles, k, &n);
      for (guint i = 0; i < n; i++)
        map[members[i]] = c;
    }
  for (CgFunctionId f = 0; f < nf; f++)
    {
      if (!cg_values_add (kinds, cg_graph_self (q, map[f]), cg_graph_self_const (g, f), ne))
        return overflow (error);
      const CgValue *sp = cg_graph_spontaneous (g, f);
      if (sp && !cg_values_add (kinds, cg_graph_spontaneous_mut (q, map[f]), sp, ne))
        return overflow (error);
    }
  for (CgArcId a = 0; a < na; a++)
    {
      CgFunctionId caller = cg_graph_arc_caller (g, a), callee = cg_graph_arc_callee (g, a);
      CgFunctionId qc = map[caller], qe = map[callee];
      if (qc == qe && caller == callee && cg_cycles_cycle_of (cycles, caller) != 0)
        continue; /* a member's own recursion disappears inside the cycle */
      CgArcId b = cg_graph_ensure_arc (q, qc, qe);
      if (!cg_graph_arc_add_calls (q, b, cg_graph_arc_calls (g, a)))
        return overflow (error);
      /* arcs inside a cycle nest; only arcs between nodes keep inclusive */
      if (qc != qe && !cg_values_add (kinds, cg_graph_arc_inclusive (q, b), cg_graph_arc_inclusive_const (g, a), ne))
        return overflow (error);
    }

  g_autoptr (CgTree) tree = cg_profile_steal_tree (p);
  if (tree && !cg_tree_remap_functions (&tree, q, map))
    return overflow (error);
  g_autoptr (CgContexts) contexts = cg_profile_steal_contexts (p);
  if (contexts && !cg_contexts_remap_functions (&contexts, q, map))
    return overflow (error);
  cg_profile_replace_data (p, g_steal_pointer (&q), g_steal_pointer (&tree));
  if (contexts)
    cg_profile_set_contexts (p, g_steal_pointer (&contexts));
  return TRUE;
}
