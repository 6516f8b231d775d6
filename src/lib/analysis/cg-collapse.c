/* cg-collapse.c — building the quotient graph. */
#include "config.h"

#include "cg-collapse.h"

#include "cg-error.h"

static gboolean
overflow (GError **error, const CgCycles *cycles)
{
  g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s: a cost exceeds the range of 64-bit counters",
               cycles ? "collapsing a cycle" : "merging functions");
  return FALSE;
}

/* @q gets @g's events, as they are described, with their samples (what
 * a difference's noise is reckoned from, cg-diff: merging perf's inlined
 * frames and collapsing cycles lost them, and diffs said nothing of
 * noise). */
static gboolean
copy_events (const CgGraph *g, CgGraph *q, GError **error)
{
  for (guint e = 0; e < cg_graph_n_events (g); e++)
    {
      guint index;
      if (!cg_graph_ensure_event (q, cg_graph_event_name (g, e), cg_graph_event_unit (g, e),
                                  cg_graph_event_kind (g, e), &index, error))
        return FALSE;
      cg_graph_set_event_description (q, index, cg_graph_event_description (g, e));
      cg_graph_set_event_scale (q, index, cg_graph_event_scale (g, e));
      gdouble sampled;
      guint64 samples = cg_graph_event_samples (g, e, &sampled);
      if (samples > 0)
        cg_graph_add_event_samples (q, index, samples, sampled);
    }
  cg_graph_set_has_inclusive (q, cg_graph_has_inclusive (g));
  return TRUE;
}

/* Function @f of @g as a function of @q, with its location and flags. */
static CgFunctionId
copy_function (const CgGraph *g, CgGraph *q, CgFunctionId f)
{
  CgFunctionId c = cg_graph_ensure_function (q, cg_graph_function_object (g, f), cg_graph_function_name (g, f));
  cg_graph_function_set_location (q, c, cg_graph_function_file (g, f), cg_graph_function_line (g, f));
  cg_graph_function_set_flags (q, c, cg_graph_function_flags (g, f));
  return c;
}

/* The data of @p moved into *@q (taken over on success), each function
 * f of the old graph onto @map[f] of *@q: self costs, spontaneous costs and arcs summed, the call
 * tree and contexts remapped.  With @cycles (collapsing them), a member's
 * own self-arc disappears inside its cycle, and arcs between members of
 * one cycle keep no inclusive cost (such calls nest). */
static gboolean
move_data (CgProfile *p, CgGraph **qp, const CgFunctionId *map, const CgCycles *cycles, GError **error)
{
  const CgGraph *g = cg_profile_graph (p);
  CgGraph *q = *qp;
  guint nf = cg_graph_n_functions (g), na = cg_graph_n_arcs (g), ne = cg_graph_n_events (g);
  const CgKind *kinds = cg_graph_event_kinds (q);
  for (CgFunctionId f = 0; f < nf; f++)
    {
      if (!cg_values_add (kinds, cg_graph_self (q, map[f]), cg_graph_self_const (g, f), ne))
        return overflow (error, cycles);
      const CgValue *sp = cg_graph_spontaneous (g, f);
      if (sp && !cg_values_add (kinds, cg_graph_spontaneous_mut (q, map[f]), sp, ne))
        return overflow (error, cycles);
    }
  for (CgArcId a = 0; a < na; a++)
    {
      CgFunctionId caller = cg_graph_arc_caller (g, a), callee = cg_graph_arc_callee (g, a);
      CgFunctionId qc = map[caller], qe = map[callee];
      if (cycles && qc == qe && caller == callee && cg_cycles_cycle_of (cycles, caller) != 0)
        continue; /* a member's own recursion disappears inside the cycle */
      CgArcId b = cg_graph_ensure_arc (q, qc, qe);
      if (!cg_graph_arc_add_calls (q, b, cg_graph_arc_calls (g, a)))
        return overflow (error, cycles);
      /* arcs inside a cycle nest; only arcs between nodes keep inclusive */
      if ((!cycles || qc != qe)
          && !cg_values_add (kinds, cg_graph_arc_inclusive (q, b), cg_graph_arc_inclusive_const (g, a), ne))
        return overflow (error, cycles);
    }

  g_autoptr (CgTree) tree = cg_profile_steal_tree (p);
  if (tree && !cg_tree_remap_functions (&tree, q, map))
    return overflow (error, cycles);
  g_autoptr (CgContexts) contexts = cg_profile_steal_contexts (p);
  if (contexts && !cg_contexts_remap_functions (&contexts, q, map))
    return overflow (error, cycles);
  cg_profile_replace_data (p, g_steal_pointer (qp), g_steal_pointer (&tree));
  if (contexts)
    cg_profile_set_contexts (p, g_steal_pointer (&contexts));
  return TRUE;
}

gboolean
cg_collapse_cycles (CgProfile *p, GError **error)
{
  CgGraph *g = cg_profile_graph (p);
  if (cg_profile_cycles (p) == NULL)
    cg_profile_set_cycles (p, cg_cycles_find (g, NULL, NULL));
  CgCycles *cycles = cg_profile_cycles (p);
  guint nf = cg_graph_n_functions (g);

  g_autoptr (CgGraph) q = cg_graph_new ();
  if (!copy_events (g, q, error))
    return FALSE;

  /* functions in their order; a cycle takes the place of its head */
  g_autofree CgFunctionId *map = g_new (CgFunctionId, MAX (nf, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    {
      guint k = cg_cycles_cycle_of (cycles, f);
      if (k != 0 && cg_cycles_head (cycles, k) != f)
        continue;
      if (k == 0)
        {
          map[f] = copy_function (g, q, f);
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
  return move_data (p, &q, map, cycles, error);
}

gboolean
cg_merge_functions (CgProfile *p, const CgFunctionId *into, GError **error)
{
  const CgGraph *g = cg_profile_graph (p);
  guint nf = cg_graph_n_functions (g);
  g_autoptr (CgGraph) q = cg_graph_new ();
  if (!copy_events (g, q, error))
    return FALSE;
  g_autofree CgFunctionId *map = g_new (CgFunctionId, MAX (nf, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    if (into[f] == f)
      map[f] = copy_function (g, q, f);
  for (CgFunctionId f = 0; f < nf; f++)
    if (into[f] != f)
      map[f] = map[into[f]];
  return move_data (p, &q, map, NULL, error);
}
