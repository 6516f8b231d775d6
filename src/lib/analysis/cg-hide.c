/* cg-hide.c — hidden functions eliminated one after another from a
 * working copy of the graph in doubles, then the rest copied out. */
#include "config.h"

#include "cg-hide.h"

#include <math.h>

#include "cg-error.h"

typedef struct {
  CgFunctionId caller, callee;
  gboolean dead;
  gdouble calls;
} Arc;

typedef struct {
  guint nf, ne;
  gboolean inclusive;
  gdouble *self, *spont; /* nf × ne */
  guint8 *has_spont;
  GArray *arcs;          /* Arc */
  GArray *incl;          /* gdouble, ne per arc */
  GHashTable *index;     /* (caller << 32 | callee) -> arc + 1 */
  GArray **in, **out;    /* per function: arc ids (dead ones skipped) */
} Work;

static gdouble *
arc_incl (Work *w, guint a)
{
  return &g_array_index (w->incl, gdouble, (gsize) a * w->ne);
}

static guint
ensure_arc (Work *w, CgFunctionId caller, CgFunctionId callee)
{
  guint64 key = (guint64) caller << 32 | callee;
  guint found = GPOINTER_TO_UINT (g_hash_table_lookup (w->index, &key));
  if (found)
    return found - 1;
  guint a = w->arcs->len;
  Arc arc = { caller, callee, FALSE, 0 };
  g_array_append_val (w->arcs, arc);
  g_array_set_size (w->incl, (gsize) (a + 1) * w->ne);
  guint64 *k = g_new (guint64, 1);
  *k = key;
  g_hash_table_insert (w->index, k, GUINT_TO_POINTER (a + 1));
  g_array_append_val (w->in[callee], a);
  g_array_append_val (w->out[caller], a);
  return a;
}

static void
work_load (Work *w, CgGraph *g)
{
  w->nf = cg_graph_n_functions (g);
  w->ne = cg_graph_n_events (g);
  w->inclusive = cg_graph_has_inclusive (g);
  const CgKind *kinds = cg_graph_event_kinds (g);
  gsize n = (gsize) MAX (w->nf, 1) * MAX (w->ne, 1);
  w->self = g_new0 (gdouble, n);
  w->spont = g_new0 (gdouble, n);
  w->has_spont = g_new0 (guint8, MAX (w->nf, 1));
  w->arcs = g_array_new (FALSE, FALSE, sizeof (Arc));
  w->incl = g_array_new (FALSE, TRUE, sizeof (gdouble));
  w->index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  w->in = g_new (GArray *, MAX (w->nf, 1));
  w->out = g_new (GArray *, MAX (w->nf, 1));
  for (CgFunctionId f = 0; f < w->nf; f++)
    {
      w->in[f] = g_array_new (FALSE, FALSE, sizeof (guint));
      w->out[f] = g_array_new (FALSE, FALSE, sizeof (guint));
      const CgValue *s = cg_graph_self_const (g, f), *sp = cg_graph_spontaneous (g, f);
      w->has_spont[f] = sp != NULL;
      for (guint e = 0; e < w->ne; e++)
        {
          w->self[(gsize) f * w->ne + e] = cg_value_to_double (kinds[e], s[e]);
          if (sp)
            w->spont[(gsize) f * w->ne + e] = cg_value_to_double (kinds[e], sp[e]);
        }
    }
  for (CgArcId a = 0; a < cg_graph_n_arcs (g); a++)
    {
      guint b = ensure_arc (w, cg_graph_arc_caller (g, a), cg_graph_arc_callee (g, a));
      g_array_index (w->arcs, Arc, b).calls += (gdouble) cg_graph_arc_calls (g, a);
      const CgValue *v = cg_graph_arc_inclusive_const (g, a);
      for (guint e = 0; e < w->ne; e++)
        arc_incl (w, b)[e] += cg_value_to_double (kinds[e], v[e]);
    }
}

static void
work_clear (Work *w)
{
  for (CgFunctionId f = 0; f < w->nf; f++)
    {
      g_array_unref (w->in[f]);
      g_array_unref (w->out[f]);
    }
  g_free (w->in);
  g_free (w->out);
  g_free (w->self);
  g_free (w->spont);
  g_free (w->has_spont);
  g_array_unref (w->arcs);
  g_array_unref (w->incl);
  g_hash_table_unref (w->index);
}

/* The live arcs of @list other than @h's calls to itself, as a new array. */
static GArray *
live (Work *w, GArray *list, CgFunctionId h)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < list->len; i++)
    {
      guint a = g_array_index (list, guint, i);
      Arc *arc = &g_array_index (w->arcs, Arc, a);
      if (!arc->dead && !(arc->caller == h && arc->callee == h))
        g_array_append_val (out, a);
    }
  return out;
}

/* Hands @h's costs to its callers (see the header) and kills its arcs. */
static void
eliminate (Work *w, CgFunctionId h)
{
  g_autoptr (GArray) ins = live (w, w->in[h], h);
  g_autoptr (GArray) outs = live (w, w->out[h], h);
  guint ne = w->ne;
  /* per event, what entered h: its callers' calls and its spontaneous part */
  g_autofree gdouble *entered = g_new0 (gdouble, MAX (ne, 1));
  gdouble calls_in = 0;
  for (guint i = 0; i < ins->len; i++)
    {
      guint a = g_array_index (ins, guint, i);
      calls_in += g_array_index (w->arcs, Arc, a).calls;
      for (guint e = 0; e < ne; e++)
        entered[e] += arc_incl (w, a)[e];
    }
  for (guint e = 0; e < ne; e++)
    entered[e] += w->spont[(gsize) h * ne + e];
  g_autofree gdouble *share = g_new0 (gdouble, MAX (ne, 1));
  for (guint i = 0; i < ins->len; i++)
    {
      guint a = g_array_index (ins, guint, i);
      Arc in = g_array_index (w->arcs, Arc, a);
      /* by measured cost where the graph has it, else by calls */
      gdouble by_calls = calls_in > 0 ? in.calls / calls_in : 1.0 / ins->len;
      for (guint e = 0; e < ne; e++)
        share[e] = w->inclusive && entered[e] > 0 ? arc_incl (w, a)[e] / entered[e] : by_calls;
      for (guint e = 0; e < ne; e++)
        w->self[(gsize) in.caller * ne + e] += share[e] * w->self[(gsize) h * ne + e];
      for (guint j = 0; j < outs->len; j++)
        {
          guint b = g_array_index (outs, guint, j);
          Arc out = g_array_index (w->arcs, Arc, b);
          guint c = ensure_arc (w, in.caller, out.callee);
          g_array_index (w->arcs, Arc, c).calls += by_calls * out.calls;
          for (guint e = 0; e < ne; e++)
            arc_incl (w, c)[e] += share[e] * arc_incl (w, b)[e];
        }
    }
  /* what no caller entered: the callees are entered from nowhere */
  for (guint e = 0; e < ne && w->inclusive; e++)
    {
      gdouble sp = w->spont[(gsize) h * ne + e];
      if (sp <= 0 || entered[e] <= 0)
        continue;
      for (guint j = 0; j < outs->len; j++)
        {
          guint b = g_array_index (outs, guint, j);
          CgFunctionId x = g_array_index (w->arcs, Arc, b).callee;
          w->spont[(gsize) x * ne + e] += sp / entered[e] * arc_incl (w, b)[e];
          w->has_spont[x] = 1;
        }
    }
  for (guint i = 0; i < w->in[h]->len; i++)
    g_array_index (w->arcs, Arc, g_array_index (w->in[h], guint, i)).dead = TRUE;
  for (guint i = 0; i < w->out[h]->len; i++)
    g_array_index (w->arcs, Arc, g_array_index (w->out[h], guint, i)).dead = TRUE;
}

/* @x in @kind, rounded to a unit for integers; FALSE past 64 bits. */
static gboolean
to_value (CgKind kind, gdouble x, CgValue *v)
{
  if (kind == CG_KIND_REAL)
    {
      *v = (CgValue) { .x = x };
      return TRUE;
    }
  x = round (MAX (x, 0.0));
  if (x >= 18446744073709551616.0)
    return FALSE;
  *v = (CgValue) { .n = (guint64) x };
  return TRUE;
}

static gboolean
copy_out (Work *w, CgGraph *from, const guint8 *hide, CgGraph *g, GError **error)
{
  const CgKind *kinds = cg_graph_event_kinds (from);
  g_autofree CgFunctionId *to = g_new (CgFunctionId, MAX (w->nf, 1));
  gboolean ok = TRUE;
  for (CgFunctionId f = 0; f < w->nf; f++)
    {
      to[f] = CG_NO_ID;
      if (hide[f])
        continue;
      CgFunctionId h = cg_graph_ensure_function (g, cg_graph_function_object (from, f), cg_graph_function_name (from, f));
      cg_graph_function_set_location (g, h, cg_graph_function_file (from, f), cg_graph_function_line (from, f));
      cg_graph_function_set_flags (g, h, cg_graph_function_flags (from, f) & CG_FUNCTION_NESTED);
      to[f] = h;
      for (guint e = 0; e < w->ne; e++)
        ok &= to_value (kinds[e], w->self[(gsize) f * w->ne + e], &cg_graph_self (g, h)[e]);
      for (guint e = 0; w->has_spont[f] && e < w->ne; e++)
        ok &= to_value (kinds[e], w->spont[(gsize) f * w->ne + e], &cg_graph_spontaneous_mut (g, h)[e]);
    }
  for (guint a = 0; a < w->arcs->len; a++)
    {
      Arc arc = g_array_index (w->arcs, Arc, a);
      if (arc.dead || to[arc.caller] == CG_NO_ID || to[arc.callee] == CG_NO_ID)
        continue;
      CgArcId b = cg_graph_ensure_arc (g, to[arc.caller], to[arc.callee]);
      ok &= cg_graph_arc_add_calls (g, b, (guint64) round (MAX (arc.calls, 0.0)));
      for (guint e = 0; e < w->ne; e++)
        ok &= to_value (kinds[e], arc_incl (w, a)[e], &cg_graph_arc_inclusive (g, b)[e]);
    }
  cg_graph_set_has_inclusive (g, w->inclusive);
  if (!ok)
    g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "a cost exceeds the range of 64-bit counters");
  return ok;
}

CgProfile *
cg_hide_graph (CgProfile *profile, const guint8 *hide, GError **error)
{
  CgGraph *from = cg_profile_graph (profile);
  g_autoptr (CgProfile) out = cg_profile_new_like (profile, error);
  if (out == NULL)
    return NULL;
  CgGraph *g = cg_profile_graph (out);
  Work w = { 0 };
  work_load (&w, from);
  for (CgFunctionId h = 0; h < w.nf; h++)
    if (hide[h])
      eliminate (&w, h);
  gboolean ok = copy_out (&w, from, hide, g, error);
  work_clear (&w);
  return ok ? g_steal_pointer (&out) : NULL;
}
