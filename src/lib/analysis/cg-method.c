/* cg-method.c — method selection and dispatch. */
#include "config.h"

#include "cg-method.h"

#include "cg-decompose.h"
#include "cg-error.h"
#include "cg-exact.h"
#include "cg-gprof.h"
#include "cg-measured.h"
#include "cg-spivey.h"

gboolean
cg_method_resolve (CgProfile *p, CgMethod method, CgMethod *resolved, GError **error)
{
  CgGraph *g = cg_profile_graph (p);
  if (method != CG_METHOD_AUTO)
    {
      *resolved = method;
      return TRUE;
    }
  if (cg_profile_contexts (p) || cg_exact_applies (p, NULL))
    {
      *resolved = CG_METHOD_EXACT;
      return TRUE;
    }
  if (cg_graph_has_inclusive (g))
    {
      *resolved = CG_METHOD_MEASURED;
      return TRUE;
    }
  /* arc-only data: the estimate (design §3); always possible */
  (void) error;
  *resolved = CG_METHOD_DECOMPOSE;
  return TRUE;
}

CgCosts *
cg_method_compute (CgProfile *p, CgMethod method, GError **error)
{
  CgMethod m;
  if (!cg_method_resolve (p, method, &m, error))
    return NULL;
  switch (m)
    {
    case CG_METHOD_MEASURED:
      return cg_measured_compute (cg_profile_graph (p), error);
    case CG_METHOD_GPROF:
      return cg_gprof_compute (p, NULL, error);
    case CG_METHOD_EXACT:
      /* contexts (Spivey) or a call tree (Kaes's Min_E) */
      if (cg_profile_contexts (p))
        return cg_spivey_compute (p, error);
      return cg_exact_compute (p, error);
    case CG_METHOD_DECOMPOSE:
      return cg_decompose_compute (p, error);
    case CG_METHOD_AUTO:
    default:
      g_return_val_if_reached (NULL); /* resolved above */
    }
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
