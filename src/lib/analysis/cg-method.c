/* cg-method.c — the table of cost methods, selection and dispatch. */
#include "config.h"

#include "cg-method.h"

#include "cg-decompose.h"
#include "cg-error.h"
#include "cg-exact.h"
#include "cg-gprof.h"
#include "cg-measured.h"
#include "cg-spivey.h"

/* ---- the rows' parts ---- */

static gboolean
exact_preferred (CgProfile *p)
{
  return cg_profile_contexts (p) || cg_exact_applies (p, NULL);
}

static CgCosts *
exact_compute (CgProfile *p, GError **error)
{
  /* contexts (Spivey) or a call tree (Kaes's Min_E) */
  if (cg_profile_contexts (p))
    return cg_spivey_compute (p, error);
  return cg_exact_compute (p, error);
}

static const char *
exact_note (const CgCosts *costs)
{
  /* only Spivey's contexts give the second arc split */
  return cg_costs_has_arc_split2 (costs)
           ? "Spivey's contexts: every total is exact; an arc carries what the calls from the caller's most"
             " recent activation cost"
           : "Min_E over the call tree: every total is exact";
}

static gboolean
measured_preferred (CgProfile *p)
{
  return cg_graph_has_inclusive (cg_profile_graph (p));
}

/* The events of @held (no call measured them; a call tree holds all
 * their self costs: perf samples merged with a callgrind profile of the
 * same program) get Min_E over the tree in @c: without it such an
 * event's totals were the calls' nothing, below the self costs (lua
 * 5.4.4's luaV_execute: 23.5 ms of cpu-clock self, 0 total). */
static void
totals_from_tree (CgProfile *p, CgCosts *c, const gboolean *held)
{
  CgGraph *g = cg_profile_graph (p);
  guint ne = cg_graph_n_events (g), nf = cg_graph_n_functions (g), na = cg_graph_n_arcs (g);
  g_autoptr (CgCosts) x = cg_exact_from_tree (g, cg_profile_tree (p), NULL);
  if (x == NULL)
    return; /* an inconsistent tree: the exact method says why */
  for (guint e = 0; e < ne; e++)
    if (held[e])
      {
        for (CgFunctionId f = 0; f < nf; f++)
          cg_costs_total (c, f)[e] = cg_costs_total_const (x, f)[e];
        for (CgArcId a = 0; a < na; a++)
          cg_costs_arc (c, a)[e] = cg_costs_arc_const (x, a)[e];
      }
}

/* An event that neither a call nor a call tree measured (a gmon.out's
 * time merged with a callgrind profile, callgrind's --cacheuse events)
 * has its self costs for totals, as a flat profile alone does, with a
 * warning: its totals were the calls' nothing, below the self costs
 * (lua 5.4.4's luaV_execute: 20 ms of gprof's time, 0 total; 11 of its
 * functions' AcCost1 under --cacheuse=yes). */
static void
totals_from_self (CgGraph *g, CgCosts *c, const gboolean *measured)
{
  guint ne = cg_graph_n_events (g), nf = cg_graph_n_functions (g);
  const CgKind *kinds = cg_graph_event_kinds (g);
  g_autoptr (GString) names = g_string_new (NULL);
  for (guint e = 0; e < ne; e++)
    {
      gboolean raised = FALSE;
      for (CgFunctionId f = 0; f < nf && !measured[e]; f++)
        {
          CgValue *t = &cg_costs_total (c, f)[e];
          CgValue self = cg_graph_self_const (g, f)[e];
          if (cg_value_compare (kinds[e], *t, self) < 0)
            *t = self, raised = TRUE;
        }
      if (raised)
        g_string_append_printf (names, "%s%s", names->len ? ", " : "", cg_graph_event_name (g, e));
    }
  if (names->len == 0)
    return;
  g_autofree char *message = g_strdup_printf (
      "no call measured the cost of %s, nor does a call tree hold it (arc-only data such as a gmon.out's merged "
      "with callgrind's, or callgrind's --cacheuse events): those totals are self costs",
      names->str);
  cg_costs_add_warning (c, message);
}

/* callgrind's measured costs, each other event's from what holds it. */
static CgCosts *
measured_compute (CgProfile *p, GError **error)
{
  CgGraph *g = cg_profile_graph (p);
  g_autoptr (CgCosts) c = cg_measured_compute (g, error);
  if (c == NULL)
    return NULL;
  guint ne = cg_graph_n_events (g);
  g_autofree gboolean *held = g_new0 (gboolean, MAX (ne, 1));
  g_autofree gboolean *measured = g_new0 (gboolean, MAX (ne, 1));
  cg_exact_held_events (p, held);
  gboolean any = FALSE;
  for (guint e = 0; e < ne; e++)
    {
      measured[e] = cg_graph_arcs_carry (g, e);
      held[e] &= !measured[e];
      any |= held[e];
      measured[e] |= held[e];
    }
  if (any)
    totals_from_tree (p, c, held);
  totals_from_self (g, c, measured);
  return g_steal_pointer (&c);
}

static const char *
measured_note (const CgCosts *costs)
{
  return cg_costs_any_estimated (costs)
           ? "measured inclusive costs, as the producer timed the calls; \"~\" marks totals of cycle members,"
             " bounds where the calls' times overlap in the recursion: the calls into them, or their whole"
             " cycle's"
           : "measured inclusive costs, as the producer timed the calls, recursion apart: every total is exact";
}

static gboolean
decompose_preferred (CgProfile *p)
{
  (void) p; /* arc-only data: the estimate (design §3); always possible */
  return TRUE;
}

static const char *
decompose_note (const CgCosts *costs)
{
  (void) costs;
  return "gprof2dot's estimate: propagation by call weights, linear decomposition inside cycles; \"~\" marks"
         " estimated totals";
}

static CgCosts *
gprof_compute (CgProfile *p, GError **error)
{
  return cg_gprof_compute (p, NULL, error);
}

static const char *
gprof_note (const CgCosts *costs)
{
  (void) costs;
  return "gprof's propagation by call counts: totals are estimates, cycles are units";
}

/* In the order auto tries them: the exact methods first, the estimate
 * any graph allows last; gprof's own is asked for by name only. */
static const CgMethodInfo methods[] = {
  { CG_METHOD_EXACT, "exact", "Kaes's Min_E rule over a call tree, or Spivey's contexts: exact totals",
    exact_preferred, exact_compute, exact_note },
  { CG_METHOD_MEASURED, "measured", "callgrind's measured inclusive costs, exact with its recursion split",
    measured_preferred, measured_compute, measured_note },
  { CG_METHOD_DECOMPOSE, "decompose", "gprof2dot's estimate for arc-only data: linear decomposition in cycles",
    decompose_preferred, cg_decompose_compute, decompose_note },
  { CG_METHOD_GPROF, "gprof", "gprof's propagation by call counts, cycles as units (estimates)",
    NULL, gprof_compute, gprof_note },
};

const CgMethodInfo *
cg_methods (guint *n_methods)
{
  *n_methods = G_N_ELEMENTS (methods);
  return methods;
}

const CgMethodInfo *
cg_method_info (CgMethod method)
{
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    if (methods[i].method == method)
      return &methods[i];
  return NULL;
}

const char *
cg_method_to_string (CgMethod method)
{
  const CgMethodInfo *info = cg_method_info (method);
  return info ? info->name : "auto";
}

gboolean
cg_method_from_string (const char *name, CgMethod *method)
{
  if (g_strcmp0 (name, "auto") == 0)
    {
      *method = CG_METHOD_AUTO;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    if (g_strcmp0 (name, methods[i].name) == 0)
      {
        *method = methods[i].method;
        return TRUE;
      }
  return FALSE;
}

char *
cg_methods_names (void)
{
  GString *s = g_string_new ("auto");
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    g_string_append_printf (s, "%s%s", i + 1 == G_N_ELEMENTS (methods) ? " or " : ", ", methods[i].name);
  return g_string_free (s, FALSE);
}

/* ---- choosing and running ---- */

gboolean
cg_method_resolve (CgProfile *p, CgMethod method, CgMethod *resolved, GError **error)
{
  if (method != CG_METHOD_AUTO)
    {
      *resolved = method;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    if (methods[i].preferred && methods[i].preferred (p))
      {
        *resolved = methods[i].method;
        return TRUE;
      }
  g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED, "no cost method applies to this profile");
  return FALSE;
}

gboolean
cg_method_resolve_both (CgProfile *base, CgProfile *new, CgMethod method, CgMethod *resolved, GError **error)
{
  if (method != CG_METHOD_AUTO)
    {
      *resolved = method;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    if (methods[i].preferred && methods[i].preferred (base) && methods[i].preferred (new))
      {
        *resolved = methods[i].method;
        return TRUE;
      }
  g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED, "no cost method applies to both profiles");
  return FALSE;
}

CgCosts *
cg_method_compute (CgProfile *p, CgMethod method, GError **error)
{
  CgMethod m;
  if (!cg_method_resolve (p, method, &m, error))
    return NULL;
  return cg_method_info (m)->compute (p, error);
}

CgCosts *
cg_method_ensure (CgProfile *p, CgMethod method, GError **error)
{
  CgCosts *have = cg_profile_costs (p);
  if (have && (method == CG_METHOD_AUTO || cg_costs_method (have) == method))
    return have;
  CgCosts *c = cg_method_compute (p, method, error);
  if (c == NULL)
    return NULL;
  cg_profile_set_costs (p, c);
  return c;
}
