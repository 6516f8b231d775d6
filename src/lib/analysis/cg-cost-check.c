/* cg-cost-check.c — the bounds of design §3's definitions on a result. */
#include "config.h"

#include "cg-cost-check.h"

#include "cg-method.h"

struct _CgCostCheck {
  CgProfile *profile;
  CgGraph *graph;
  const CgCosts *costs;
  guint n_events;
  CgValue *all;       /* the profile's total per event (graph kinds) */
  gboolean all_known; /* FALSE where the sum passed 64 bits: no upper bound */
  gdouble *slack;     /* per event: what reals may round, in stored units */
  CgCosts *measured;  /* the measured method's own result, once asked for */
  gboolean measured_tried;
};

CgCostCheck *
cg_cost_check_new (CgProfile *profile, const CgCosts *costs)
{
  CgCostCheck *k = g_new0 (CgCostCheck, 1);
  k->profile = profile;
  k->graph = cg_profile_graph (profile);
  k->costs = costs;
  k->n_events = MIN (cg_costs_n_events (costs), cg_graph_n_events (k->graph));
  k->all = g_new0 (CgValue, MAX (cg_graph_n_events (k->graph), 1));
  k->all_known = cg_graph_self_totals (k->graph, k->all);
  k->slack = g_new0 (gdouble, MAX (k->n_events, 1));
  const CgKind *kinds = cg_graph_event_kinds (k->graph);
  for (guint e = 0; e < k->n_events; e++)
    k->slack[e] = 1e-9 * cg_value_to_double (kinds[e], k->all[e]);
  return k;
}

void
cg_cost_check_free (CgCostCheck *k)
{
  if (k == NULL)
    return;
  cg_costs_free (k->measured);
  g_free (k->all);
  g_free (k->slack);
  g_free (k);
}

/* Whether @a (of kind @ka) lies above @b (of kind @kb) by more than
 * @slack: exactly where both count, in doubles where either is real. */
static gboolean
above (CgKind ka, CgValue a, CgKind kb, CgValue b, gdouble slack)
{
  if (ka == CG_KIND_INTEGER && kb == CG_KIND_INTEGER)
    return a.n > b.n;
  return cg_value_to_double (ka, a) > cg_value_to_double (kb, b) + slack;
}

static gboolean
negative (CgKind kind, CgValue v)
{
  return kind == CG_KIND_REAL && v.x < 0;
}

/* The measured method's result for the same data, or NULL where it does
 * not apply. */
static const CgCosts *
measured (CgCostCheck *k)
{
  if (!k->measured_tried)
    {
      k->measured_tried = TRUE;
      k->measured = cg_method_info (CG_METHOD_MEASURED)->compute (k->profile, NULL);
    }
  return k->measured;
}

/* "NAME's total" or "NAME's total of EVENT" (the event named where there
 * are several), then ", VALUE," */
static void
append_what (CgCostCheck *k, GString *s, const char *what, guint e, CgKind kind, CgValue v)
{
  g_string_append (s, what);
  if (cg_graph_n_events (k->graph) > 1)
    g_string_append_printf (s, " of %s", cg_graph_event_name (k->graph, e));
  g_string_append (s, ", ");
  cg_value_append (s, kind, v);
  g_string_append (s, ",");
}

static char *
say_negative (CgCostCheck *k, const char *what, guint e, CgKind kind, CgValue v)
{
  GString *s = g_string_new (NULL);
  append_what (k, s, what, e, kind, v);
  g_string_append (s, " is negative: expected a cost of at least 0");
  return g_string_free (s, FALSE);
}

/* "WHAT, V, is BELOW|above BOUND_NAME, B: expected at least|most that" */
static char *
say_bound (CgCostCheck *k, const char *what, guint e, CgKind kind, CgValue v, gboolean below,
           const char *bound_name, CgKind bound_kind, CgValue bound, const char *why)
{
  GString *s = g_string_new (NULL);
  append_what (k, s, what, e, kind, v);
  g_string_append_printf (s, " is %s %s, ", below ? "below" : "above", bound_name);
  cg_value_append (s, bound_kind, bound);
  g_string_append_printf (s, ": expected at %s that (%s)", below ? "least" : "most", why);
  return g_string_free (s, FALSE);
}

char *
cg_cost_check_total (CgCostCheck *k, CgFunctionId f)
{
  const CgKind *graph_kinds = cg_graph_event_kinds (k->graph), *kinds = cg_costs_kinds (k->costs);
  const CgValue *t = cg_costs_total_const (k->costs, f), *self = cg_graph_self_const (k->graph, f);
  gboolean is_measured = cg_costs_method (k->costs) == CG_METHOD_MEASURED;
  for (guint e = 0; e < k->n_events; e++)
    {
      /* the message is made only where it is needed: a document holds
       * millions of totals */
      g_autofree char *what = NULL;
      if (negative (kinds[e], t[e]))
        {
          what = g_strdup_printf ("%s's total", cg_graph_function_name (k->graph, f));
          return say_negative (k, what, e, kinds[e], t[e]);
        }
      gboolean low = above (graph_kinds[e], self[e], kinds[e], t[e], k->slack[e]);
      gboolean high = k->all_known && above (kinds[e], t[e], graph_kinds[e], k->all[e], k->slack[e]);
      if ((low || high) && is_measured && measured (k))
        {
          /* the method's own value of the file's overlapping measurements */
          CgValue own = cg_costs_total_const (k->measured, f)[e];
          CgKind own_kind = cg_costs_kind (k->measured, e);
          low &= above (own_kind, own, kinds[e], t[e], k->slack[e]);
          high &= above (kinds[e], t[e], own_kind, own, k->slack[e]);
        }
      if (low || high)
        what = g_strdup_printf ("%s's total", cg_graph_function_name (k->graph, f));
      if (low)
        return say_bound (k, what, e, kinds[e], t[e], TRUE, "its self cost", graph_kinds[e], self[e],
                          "a total holds the function's own cost");
      if (high)
        return say_bound (k, what, e, kinds[e], t[e], FALSE, "the profile's total", graph_kinds[e], k->all[e],
                          "the sum of the self costs, which no function's total exceeds");
    }
  return NULL;
}

char *
cg_cost_check_arc (CgCostCheck *k, CgArcId a)
{
  const CgKind *kinds = cg_costs_kinds (k->costs);
  CgFunctionId caller = cg_graph_arc_caller (k->graph, a), callee = cg_graph_arc_callee (k->graph, a);
  const CgValue *v = cg_costs_arc_const (k->costs, a), *t = cg_costs_total_const (k->costs, caller);
  const CgValue *parts[] = { v, cg_costs_arc_self_const (k->costs, a), cg_costs_arc_children_const (k->costs, a),
                             cg_costs_arc_self2_const (k->costs, a), cg_costs_arc_children2_const (k->costs, a) };
  static const char *const part_names[] = { "cost", "self cost", "children's cost", "self2 cost",
                                            "children2 cost" };
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    for (guint e = 0; parts[i] && e < k->n_events; e++)
      if (negative (kinds[e], parts[i][e]))
        {
          g_autofree char *what = g_strdup_printf ("the arc %s -> %s's %s", cg_graph_function_name (k->graph, caller),
                                                   cg_graph_function_name (k->graph, callee), part_names[i]);
          return say_negative (k, what, e, kinds[e], parts[i][e]);
        }
  for (guint e = 0; e < k->n_events; e++)
    {
      gboolean high = above (kinds[e], v[e], kinds[e], t[e], k->slack[e]);
      if (high && cg_costs_method (k->costs) == CG_METHOD_MEASURED && measured (k))
        high = above (kinds[e], v[e], cg_costs_kind (k->measured, e), cg_costs_arc_const (k->measured, a)[e],
                      k->slack[e]);
      if (high)
        {
          const char *caller_name = cg_graph_function_name (k->graph, caller);
          g_autofree char *what = g_strdup_printf ("the arc %s -> %s's cost", caller_name,
                                                   cg_graph_function_name (k->graph, callee));
          g_autofree char *bound = g_strdup_printf ("%s's total", caller_name);
          return say_bound (k, what, e, kinds[e], v[e], FALSE, bound, kinds[e], t[e],
                            "the calls lie in the caller's activations");
        }
    }
  return NULL;
}
