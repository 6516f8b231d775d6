/* cg-measured.c — summing measured inclusive costs into totals. */
#include "config.h"

#include "cg-measured.h"

#include <string.h>

#include "cg-error.h"
#include "cg-scc.h"

static gboolean
overflow (GError **error)
{
  g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW,
               "a total exceeds the range of 64-bit counters");
  return FALSE;
}

/* A function's activations hold its self cost and, apart from one
 * another, its calls out of its cycle (calls into it cannot reach back),
 * so its total is at least their sum.  Other producers' measurements fall
 * below it (pyprof2calltree rounds each call's cost on its own: a leaf
 * called from several places gets a total below its self cost): such a
 * total is raised to the sum, marked estimated, and counted in one
 * warning.  What a function is raised by is added to its costliest call
 * from outside its cycle, marked estimated too, so that the calls into it
 * still add up to its total (callgrind_annotate's sum, in an export) and
 * its caller's bound includes it: functions are taken callees first
 * (components in Tarjan's order), so a raise travels up to the callers. */
static void
raise_to_lower_bounds (CgGraph *g, CgCosts *c, const CgScc *scc)
{
  guint nf = cg_graph_n_functions (g), ne = cg_graph_n_events (g);
  const CgKind *kinds = cg_graph_event_kinds (g);
  g_autofree gboolean *carried = g_new0 (gboolean, MAX (ne, 1));
  for (guint e = 0; e < ne; e++)
    carried[e] = cg_graph_arcs_carry (g, e); /* else no measurement to correct */
  g_autofree CgValue *bound = g_new0 (CgValue, MAX (ne, 1));
  g_autofree CgValue *raise = g_new0 (CgValue, MAX (ne, 1));
  /* the functions by component, callees' components first */
  g_autofree guint32 *start = g_new0 (guint32, scc->n_components + 1);
  g_autofree CgFunctionId *order = g_new (CgFunctionId, MAX (nf, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    start[scc->component_of[f] + 1]++;
  for (guint k = 0; k < scc->n_components; k++)
    start[k + 1] += start[k];
  for (CgFunctionId f = 0; f < nf; f++)
    order[start[scc->component_of[f]]++] = f;
  guint raised = 0;
  CgFunctionId example = CG_NO_ID;
  for (guint i = 0; i < nf; i++)
    {
      CgFunctionId f = order[i];
      memcpy (bound, cg_graph_self_const (g, f), ne * sizeof (CgValue));
      guint n_out, n_in;
      const CgArcId *out = cg_graph_out_arcs (g, f, &n_out);
      gboolean ok = TRUE;
      for (guint j = 0; j < n_out; j++)
        if (scc->component_of[cg_graph_arc_callee (g, out[j])] != scc->component_of[f])
          ok &= cg_values_add (kinds, bound, cg_costs_arc_const (c, out[j]), ne);
      if (!ok)
        continue; /* past 64 bits: no bound to trust */
      CgValue *t = cg_costs_total (c, f);
      gboolean low = FALSE;
      for (guint e = 0; e < ne; e++)
        {
          raise[e] = CG_VALUE_ZERO;
          if (!carried[e] || cg_value_compare (kinds[e], t[e], bound[e]) >= 0)
            continue;
          raise[e] = kinds[e] == CG_KIND_REAL ? (CgValue) { .x = bound[e].x - t[e].x }
                                              : (CgValue) { .n = bound[e].n - t[e].n };
          t[e] = bound[e];
          low = TRUE;
        }
      if (!low)
        continue;
      cg_costs_set_total_estimated (c, f, TRUE);
      raised++;
      example = MIN (example, f); /* the first by id, whatever the order */
      /* the costliest call from outside the cycle carries the raise */
      const CgArcId *in = cg_graph_in_arcs (g, f, &n_in);
      CgArcId best = CG_NO_ID;
      for (guint j = 0; j < n_in; j++)
        if (scc->component_of[cg_graph_arc_caller (g, in[j])] != scc->component_of[f]
            && (best == CG_NO_ID
                || cg_value_compare (kinds[0], cg_costs_arc_const (c, in[j])[0], cg_costs_arc_const (c, best)[0]) > 0))
          best = in[j];
      if (best != CG_NO_ID && cg_values_add (kinds, cg_costs_arc (c, best), raise, ne))
        cg_costs_set_arc_estimated (c, best, TRUE);
    }
  if (raised == 0)
    return;
  g_autofree char *message = g_strdup_printf (
      "%u function%s with a measured total below self cost plus calls out of the function's cycle (the first: %s),"
      " (other producers time or round each call apart): raised to that sum, marked estimated", raised, raised == 1 ? "" : "s",
      cg_graph_function_name (g, example));
  cg_costs_add_warning (c, message);
}

/* Whether @t, the sum of the calls into @f (and its spontaneous cost),
 * holds every activation of f: not where it falls below what one of
 * them holds for certain, its self cost or the calls from f to any one
 * callee (cProfile's calls of one caller to one callee never nest, and
 * lie in f's activations).  The run's first activation, which no
 * recorded call made (cProfile's exec of the script, which importlib
 * calls again inside it), is in no call into f, and holds the others. */
static gboolean
calls_hold_activations (CgGraph *g, CgFunctionId f, const CgValue *t)
{
  guint ne = cg_graph_n_events (g), n_out;
  const CgKind *kinds = cg_graph_event_kinds (g);
  const CgValue *self = cg_graph_self_const (g, f);
  const CgArcId *out = cg_graph_out_arcs (g, f, &n_out);
  for (guint e = 0; e < ne; e++)
    {
      if (cg_value_compare (kinds[e], t[e], self[e]) < 0)
        return FALSE;
      for (guint j = 0; j < n_out; j++)
        if (cg_graph_arc_callee (g, out[j]) != f
            && cg_value_compare (kinds[e], t[e], cg_graph_arc_inclusive_const (g, out[j])[e]) < 0)
          return FALSE;
    }
  return TRUE;
}

/* Raises each cycle's total in @ct (per component, events) to what its
 * members' activations hold for certain: their self costs and their calls
 * out of the cycle, which cannot reach back in and so never nest in one
 * another.  With consistent data that is what enters the cycle; a
 * producer that did not record the call that started the run (cProfile:
 * the top-level exec of a script, also called by importlib inside it,
 * is a cycle's member with no caller from outside) leaves the entries
 * short, and the cycle's total was 0.  FALSE on overflow. */
static gboolean
cycles_at_least_inside (CgGraph *g, const CgScc *scc, CgValue *ct)
{
  guint nf = cg_graph_n_functions (g), ne = cg_graph_n_events (g), nk = scc->n_components;
  const CgKind *kinds = cg_graph_event_kinds (g);
  g_autoptr (GArray) inside = g_array_new (FALSE, TRUE, sizeof (CgValue));
  g_array_set_size (inside, (gsize) nk * ne);
  CgValue *in = (CgValue *) inside->data;
  for (CgFunctionId f = 0; f < nf; f++)
    {
      guint32 k = scc->component_of[f];
      if (scc->size[k] > 1 && !cg_values_add (kinds, &in[(gsize) k * ne], cg_graph_self_const (g, f), ne))
        return FALSE;
    }
  for (CgArcId a = 0; a < cg_graph_n_arcs (g); a++)
    {
      guint32 k = scc->component_of[cg_graph_arc_caller (g, a)];
      if (scc->size[k] > 1 && scc->component_of[cg_graph_arc_callee (g, a)] != k
          && !cg_values_add (kinds, &in[(gsize) k * ne], cg_graph_arc_inclusive_const (g, a), ne))
        return FALSE;
    }
  for (gsize i = 0; i < (gsize) nk * ne; i++)
    if (cg_value_compare (kinds[i % ne], in[i], ct[i]) > 0)
      ct[i] = in[i];
  return TRUE;
}

/* How far above the profile's total a total of @event may lie from the
 * producer's rounding alone, in the event's stored units.  A producer
 * that times each call apart (Xdebug writes a block per call in units of
 * 10 ns) rounds each self cost and each call's inclusive cost it writes
 * to its unit, so the calls' costs can exceed the self costs they hold
 * by up to a unit per activation: Xdebug's {main} lay 624 units (0.04 %)
 * above a workload's 7,661 calls' self costs, on every profile.  Counts
 * (instructions, samples) are not rounded; nor are real-valued events. */
static gdouble
rounding_allowed (const CgGraph *g, guint event)
{
  if (cg_graph_event_kind (g, event) != CG_KIND_INTEGER
      || cg_time_unit_seconds (cg_graph_event_unit (g, event)) == 0)
    return 0;
  gdouble activations = cg_graph_n_functions (g); /* the roots' too */
  for (CgArcId a = 0; a < cg_graph_n_arcs (g); a++)
    activations += (gdouble) cg_graph_arc_calls (g, a);
  return activations;
}

CgFunctionId
cg_measured_above_all (const CgGraph *g, const CgCosts *c, guint event, guint *n_above, gdouble *percent)
{
  guint ne = cg_graph_n_events (g);
  *n_above = 0;
  *percent = 0;
  if (cg_costs_method (c) != CG_METHOD_MEASURED || event >= ne || event >= cg_costs_n_events (c))
    return CG_NO_ID;
  g_autofree CgValue *sums = g_new0 (CgValue, MAX (ne, 1));
  if (!cg_graph_self_totals (g, sums))
    return CG_NO_ID;
  gdouble all = cg_value_to_double (cg_graph_event_kinds (g)[event], sums[event]);
  if (all <= 0)
    return CG_NO_ID;
  CgKind kind = cg_costs_kind (c, event);
  gdouble allowed = rounding_allowed (g, event); /* stored units, as t and all */
  CgFunctionId worst = CG_NO_ID;
  gdouble most = 0;
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g) && f < cg_costs_n_functions (c); f++)
    {
      gdouble t = cg_value_to_double (kind, cg_costs_total_const (c, f)[event]);
      if (t <= all * (1 + 1e-9) + allowed) /* within the arithmetic's or the producer's rounding */
        continue;
      (*n_above)++;
      if (worst == CG_NO_ID || t > most)
        {
          worst = f;
          most = t;
        }
    }
  *percent = 100.0 * most / all;
  return worst;
}

/* Says so where measured totals exceed the profile's total: on standard
 * error for every output, the tsv's too, whose rows say nothing. */
static void
warn_above_all (CgGraph *g, CgCosts *c)
{
  for (guint e = 0; e < cg_graph_n_events (g); e++)
    {
      guint n;
      gdouble pct;
      CgFunctionId f = cg_measured_above_all (g, c, e, &n, &pct);
      if (f == CG_NO_ID)
        continue;
      g_autofree char *message = g_strdup_printf (
          "measured totals of %s exceed the profile's total (its self costs): %s's is %.2f %% of it, and %u"
          " function%s in all above 100 %%: the file's inclusive costs of calls overlap, and such totals are the"
          " file's, not exact", cg_graph_event_name (g, e), cg_graph_function_name (g, f), pct, n, n == 1 ? "" : "s");
      cg_costs_add_warning (c, message);
      return; /* one event says it: the others' are alike */
    }
}

CgCosts *
cg_measured_compute (CgGraph *g, GError **error)
{
  if (!cg_graph_has_inclusive (g))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED,
                   "the profile has no measured inclusive costs (method 'measured' needs "
                   "callgrind data)");
      return NULL;
    }
  guint nf = cg_graph_n_functions (g), na = cg_graph_n_arcs (g), ne = cg_graph_n_events (g);
  const CgKind *kinds = cg_graph_event_kinds (g);
  g_autoptr (CgCosts) c = cg_costs_new (CG_METHOD_MEASURED, g);

  for (CgFunctionId f = 0; f < nf; f++)
    {
      const CgValue *sp = cg_graph_spontaneous (g, f);
      if (sp && !cg_values_add (kinds, cg_costs_total (c, f), sp, ne))
        return overflow (error), NULL;
    }
  for (CgArcId a = 0; a < na; a++)
    {
      CgFunctionId caller = cg_graph_arc_caller (g, a), callee = cg_graph_arc_callee (g, a);
      if (caller == callee)
        continue; /* nested by definition: carries nothing */
      const CgValue *inc = cg_graph_arc_inclusive_const (g, a);
      if (!cg_values_add (kinds, cg_costs_arc (c, a), inc, ne)
          || !cg_values_add (kinds, cg_costs_total (c, callee), inc, ne))
        return overflow (error), NULL;
    }

  /* Totals that may overlap: see the header.  The graph's cycles (over
   * all its arcs, as cgcycles finds them: the cycles cgcost prints are
   * these), and their exact whole totals. */
  g_autoptr (CgScc) scc = cg_scc_find (g, NULL, NULL);
  guint nk = scc->n_components;
  g_autoptr (GArray) cycle_total = g_array_new (FALSE, TRUE, sizeof (CgValue));
  g_array_set_size (cycle_total, (gsize) nk * ne);
  CgValue *ct = (CgValue *) cycle_total->data;
  for (CgFunctionId f = 0; f < nf; f++)
    {
      guint32 k = scc->component_of[f];
      const CgValue *sp = cg_graph_spontaneous (g, f);
      if (scc->size[k] > 1 && sp && !cg_values_add (kinds, &ct[(gsize) k * ne], sp, ne))
        return overflow (error), NULL;
    }
  for (CgArcId a = 0; a < na; a++)
    {
      guint32 kc = scc->component_of[cg_graph_arc_caller (g, a)];
      guint32 k = scc->component_of[cg_graph_arc_callee (g, a)];
      if (scc->size[k] > 1 && kc != k
          && !cg_values_add (kinds, &ct[(gsize) k * ne], cg_graph_arc_inclusive_const (g, a), ne))
        return overflow (error), NULL;
    }
  if (!cycles_at_least_inside (g, scc, ct))
    return overflow (error), NULL;
  g_autofree guint8 *suspect_cycle = g_new0 (guint8, MAX (nk, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    {
      guint32 k = scc->component_of[f];
      if (scc->size[k] <= 1)
        continue;
      CgValue *t = cg_costs_total (c, f);
      gboolean suspect = (cg_graph_function_flags (g, f) & CG_FUNCTION_NESTED) != 0;
      for (guint e = 0; e < ne && !suspect; e++)
        suspect = cg_value_compare (kinds[e], t[e], ct[(gsize) k * ne + e]) > 0;
      if (!suspect)
        continue;
      /* each activation of f lies in some call into f, so the calls'
       * sum bounds its total from above even where they nest, as the
       * cycle's total does: the lower of the two (cProfile's calls from
       * one caller never nest, so that a member called from one place
       * gets its exact total, pstats' cumtime: the visitors of Python's
       * ast.unparse, each its cycle's 335 ms before, 0.07 to 123 ms) */
      gboolean held = calls_hold_activations (g, f, t);
      for (guint e = 0; e < ne; e++)
        if (!held || cg_value_compare (kinds[e], t[e], ct[(gsize) k * ne + e]) > 0)
          t[e] = ct[(gsize) k * ne + e];
      cg_costs_set_total_estimated (c, f, TRUE);
      suspect_cycle[k] = 1;
    }
  /* an arc inside such a cycle sums calls that nest, each holding the
   * next: it carries no more than the cycle's total, which bounds its
   * callee's (gprof leaves these arcs blank) */
  for (CgArcId a = 0; a < na; a++)
    {
      guint32 k = scc->component_of[cg_graph_arc_callee (g, a)];
      if (!suspect_cycle[k] || scc->component_of[cg_graph_arc_caller (g, a)] != k)
        continue;
      cg_costs_set_arc_estimated (c, a, TRUE);
      CgValue *v = cg_costs_arc (c, a);
      for (guint e = 0; e < ne; e++)
        if (cg_value_compare (kinds[e], v[e], ct[(gsize) k * ne + e]) > 0)
          v[e] = ct[(gsize) k * ne + e];
    }
  raise_to_lower_bounds (g, c, scc);
  warn_above_all (g, c);
  return g_steal_pointer (&c);
}
