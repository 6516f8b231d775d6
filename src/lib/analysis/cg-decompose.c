/* cg-decompose.c — propagation by components in topological order, and
 * one BFS-ranked DAG per cycle entry. */
#include "config.h"

#include "cg-decompose.h"

#include <math.h>

#include "cg-csr.h"
#include "cg-exact.h"
#include "cg-scc.h"

#define NO_RANK G_MAXUINT32

/* gprof2dot's ratio(): n/d clamped to [0, 1], and 0/0 = 1 */
static inline gdouble
share (gdouble n, gdouble d)
{
  if (d == 0.0)
    return 1.0;
  gdouble r = n / d;
  return r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
}

CgWeights
cg_decompose_weights_for (CgProfile *p)
{
  if (cg_exact_applies (p, NULL))
    return CG_WEIGHTS_STACKS;
  if (cg_graph_has_inclusive (cg_profile_graph (p)))
    return CG_WEIGHTS_INCLUSIVE;
  return CG_WEIGHTS_CALLS;
}

gdouble *
cg_decompose_weights (CgProfile *p, CgWeights source)
{
  CgGraph *g = cg_profile_graph (p);
  guint na = cg_graph_n_arcs (g), ne = cg_graph_n_events (g);
  const CgKind *kinds = cg_graph_event_kinds (g);
  gdouble *w = g_new0 (gdouble, MAX ((gsize) na * ne, 1));
  CgTree *t = cg_profile_tree (p);
  if (source == CG_WEIGHTS_STACKS && t != NULL)
    {
      /* c(x) per frame, children before parents; then each tree edge
       * (p, x) adds c(x) to its arc: the samples of every stack through x */
      guint nx = cg_tree_n_frames (t);
      g_autofree gdouble *c = g_new (gdouble, MAX ((gsize) nx * ne, 1));
      for (CgFrameId x = 0; x < nx; x++)
        for (guint e = 0; e < ne; e++)
          c[(gsize) x * ne + e] = cg_value_to_double (kinds[e], cg_tree_self_const (t, x)[e]);
      for (CgFrameId x = nx; x-- > 0;)
        {
          CgFrameId up = cg_tree_parent (t, x);
          if (up == CG_NO_ID)
            continue;
          for (guint e = 0; e < ne; e++)
            c[(gsize) up * ne + e] += c[(gsize) x * ne + e];
        }
      for (CgFrameId x = 0; x < nx; x++)
        {
          CgFrameId up = cg_tree_parent (t, x);
          if (up == CG_NO_ID)
            continue;
          CgArcId a = cg_graph_lookup_arc (g, cg_tree_function (t, up), cg_tree_function (t, x));
          if (a == CG_NO_ID)
            continue; /* inconsistent input: the graph does not know this call */
          for (guint e = 0; e < ne; e++)
            w[(gsize) a * ne + e] += c[(gsize) x * ne + e];
        }
      return w;
    }
  for (CgArcId a = 0; a < na; a++)
    for (guint e = 0; e < ne; e++)
      w[(gsize) a * ne + e] = source == CG_WEIGHTS_INCLUSIVE
                                ? cg_value_to_double (kinds[e], cg_graph_arc_inclusive_const (g, a)[e])
                                : (gdouble) cg_graph_arc_calls (g, a);
  return w;
}

typedef struct {
  CgGraph *g;
  guint ne;
  CgScc *scc;
  const gdouble *w;   /* n_arcs × ne */
  gdouble *ratio;     /* n_arcs × ne */
  gdouble *self;      /* n_functions × ne */
  gdouble *total;     /* n_functions × ne: T(f); members: Σ over entries */
  gdouble *arc;       /* n_arcs × ne: cost carried */
  gdouble *whole;     /* n_components × ne: CT of a cycle */
  guint32 *local;     /* per function: its index in its cycle's member list */
  /* one cycle's arcs between distinct members, grouped by caller */
  GArray *adj_start;  /* guint32, n_members + 1 */
  GArray *adj_arc;    /* CgArcId */
  GArray *adj_to;     /* guint32 local index of the callee */
  /* per member of the cycle being decomposed */
  GArray *sub;        /* gdouble × ne: self + costs of arcs leaving the cycle */
  GArray *rank, *order, *fanin;  /* guint32 */
  GArray *entry;      /* gdouble × ne: r_e, when the member is entered */
  GArray *is_entry;   /* guint8 */
  GArray *cr, *q;     /* gdouble */
} Decomposer;

static gboolean
in_cycle (const Decomposer *d, CgFunctionId f)
{
  return d->scc->size[d->scc->component_of[f]] > 1;
}

/* What a call into @f carries per unit of ratio: f's total, or its
 * cycle's. */
static gdouble
value_of (const Decomposer *d, CgFunctionId f, guint e)
{
  guint32 k = d->scc->component_of[f];
  return d->scc->size[k] > 1 ? d->whole[(gsize) k * d->ne + e] : d->total[(gsize) f * d->ne + e];
}

static void
compute_ratios (Decomposer *d)
{
  CgGraph *g = d->g;
  guint nf = cg_graph_n_functions (g), na = cg_graph_n_arcs (g), ne = d->ne;
  const guint32 *comp = d->scc->component_of;
  g_autofree gdouble *fin = g_new0 (gdouble, MAX ((gsize) nf * ne, 1));
  g_autofree gdouble *cin = g_new0 (gdouble, MAX ((gsize) d->scc->n_components * ne, 1));
  /* the arcs into each function, and entering each cycle */
  g_autofree guint32 *nfin = g_new0 (guint32, MAX (nf, 1));
  g_autofree guint32 *ncin = g_new0 (guint32, MAX (d->scc->n_components, 1));
  for (CgArcId a = 0; a < na; a++)
    {
      CgFunctionId from = cg_graph_arc_caller (g, a), to = cg_graph_arc_callee (g, a);
      if (from == to)
        continue;
      gboolean entering = in_cycle (d, to) && comp[from] != comp[to];
      nfin[to]++;
      ncin[comp[to]] += entering;
      for (guint e = 0; e < ne; e++)
        {
          fin[(gsize) to * ne + e] += d->w[(gsize) a * ne + e];
          if (entering)
            cin[(gsize) comp[to] * ne + e] += d->w[(gsize) a * ne + e];
        }
    }
  for (CgArcId a = 0; a < na; a++)
    {
      CgFunctionId from = cg_graph_arc_caller (g, a), to = cg_graph_arc_callee (g, a);
      if (from == to)
        continue;
      gboolean entering = in_cycle (d, to) && comp[from] != comp[to];
      for (guint e = 0; e < ne; e++)
        {
          gdouble den = entering ? cin[(gsize) comp[to] * ne + e] : fin[(gsize) to * ne + e];
          /* where no call into it has weight (counts of 0), gprof2dot's
           * 0/0 = 1 gave each caller the callee's whole total, which then
           * counted as often as it has callers, above the profile's total
           * (two callers of a cycle of 20 of 22 Ir: their caller's 42):
           * the callers share it equally, as forward_share does inside a
           * cycle; one caller still takes all of it */
          d->ratio[(gsize) a * ne + e] = den == 0.0 ? 1.0 / (entering ? ncin[comp[to]] : nfin[to])
                                                    : share (d->w[(gsize) a * ne + e], den);
        }
    }
}

/* A function outside cycles: its self cost plus what its calls carry. */
static void
propagate_single (Decomposer *d, CgFunctionId f)
{
  guint ne = d->ne, n;
  gdouble *t = &d->total[(gsize) f * ne];
  for (guint e = 0; e < ne; e++)
    t[e] = d->self[(gsize) f * ne + e];
  const CgArcId *out = cg_graph_out_arcs (d->g, f, &n);
  for (guint i = 0; i < n; i++)
    {
      CgFunctionId to = cg_graph_arc_callee (d->g, out[i]);
      if (to == f)
        continue;
      for (guint e = 0; e < ne; e++)
        {
          gdouble v = d->ratio[(gsize) out[i] * ne + e] * value_of (d, to, e);
          d->arc[(gsize) out[i] * ne + e] = v;
          t[e] += v;
        }
    }
}

#define U32(array, i) g_array_index ((array), guint32, (i))
#define DBL(array, i) g_array_index ((array), gdouble, (i))

/* BFS ranks from member @s over the cycle's arcs; fills order (BFS order)
 * and fanin (forward arcs into each member).  Every member is reached:
 * the cycle is strongly connected. */
static void
rank_members (Decomposer *d, guint m, guint32 s)
{
  for (guint i = 0; i < m; i++)
    {
      U32 (d->rank, i) = NO_RANK;
      U32 (d->fanin, i) = 0;
    }
  U32 (d->rank, s) = 0;
  U32 (d->order, 0) = s;
  guint head = 0, tail = 1;
  while (head < tail)
    {
      guint32 u = U32 (d->order, head++);
      for (guint32 j = U32 (d->adj_start, u); j < U32 (d->adj_start, u + 1); j++)
        {
          guint32 v = U32 (d->adj_to, j);
          if (U32 (d->rank, v) == NO_RANK)
            {
              U32 (d->rank, v) = U32 (d->rank, u) + 1;
              U32 (d->order, tail++) = v;
            }
          if (U32 (d->rank, v) == U32 (d->rank, u) + 1)
            U32 (d->fanin, v)++;
        }
    }
  g_assert (tail == m);
}

/* The forward arc u → v's share of v's partial: gprof2dot's, or (when
 * @conserve and no forward arc into v has weight) an equal split. */
static inline gdouble
forward_share (Decomposer *d, gdouble ratio, guint32 v, gboolean conserve)
{
  gdouble cr = DBL (d->cr, v);
  if (conserve && cr == 0.0)
    return 1.0 / U32 (d->fanin, v);
  return share (ratio, cr);
}

/* q_e(v) for every member, deepest rank first, for event @e and entry
 * share @r.  Returns q_e(entry). */
static gdouble
partials (Decomposer *d, guint m, guint e, gdouble r, gboolean conserve)
{
  guint ne = d->ne;
  for (guint i = m; i-- > 0;)
    {
      guint32 u = U32 (d->order, i);
      gdouble p = r * DBL (d->sub, (gsize) u * ne + e);
      for (guint32 j = U32 (d->adj_start, u); j < U32 (d->adj_start, u + 1); j++)
        {
          guint32 v = U32 (d->adj_to, j);
          if (U32 (d->rank, v) == U32 (d->rank, u) + 1)
            p += forward_share (d, d->ratio[(gsize) U32 (d->adj_arc, j) * ne + e], v, conserve) * DBL (d->q, v);
        }
      DBL (d->q, u) = p;
    }
  return DBL (d->q, U32 (d->order, 0));
}

/* Sizes the scratch arrays for a cycle of @m members. */
static void
size_scratch (Decomposer *d, guint m)
{
  guint ne = d->ne;
  g_array_set_size (d->adj_start, m + 1);
  g_array_set_size (d->adj_arc, 0);
  g_array_set_size (d->adj_to, 0);
  g_array_set_size (d->sub, (gsize) m * ne);
  g_array_set_size (d->entry, (gsize) m * ne);
  g_array_set_size (d->is_entry, m);
  g_array_set_size (d->rank, m);
  g_array_set_size (d->order, m);
  g_array_set_size (d->fanin, m);
  g_array_set_size (d->cr, m);
  g_array_set_size (d->q, m);
}

/* Member @i (function @f) of cycle @k: its arcs inside the cycle into the
 * local adjacency, its cost with what its calls out of the cycle carry
 * (sub) added to the cycle's @whole, and the ratios of the calls that
 * enter it from outside (its entry row). */
static void
gather_member (Decomposer *d, guint32 k, guint i, CgFunctionId f, gdouble *whole)
{
  CgGraph *g = d->g;
  guint ne = d->ne, n;
  const guint32 *comp = d->scc->component_of;
  gdouble *sub = &DBL (d->sub, (gsize) i * ne);
  for (guint e = 0; e < ne; e++)
    sub[e] = d->self[(gsize) f * ne + e];
  U32 (d->adj_start, i) = d->adj_arc->len;
  const CgArcId *out = cg_graph_out_arcs (g, f, &n);
  for (guint j = 0; j < n; j++)
    {
      CgFunctionId to = cg_graph_arc_callee (g, out[j]);
      if (to == f)
        continue;
      if (comp[to] == k)
        {
          g_array_append_val (d->adj_arc, out[j]);
          g_array_append_val (d->adj_to, d->local[to]);
          continue;
        }
      for (guint e = 0; e < ne; e++)
        {
          gdouble v = d->ratio[(gsize) out[j] * ne + e] * value_of (d, to, e);
          d->arc[(gsize) out[j] * ne + e] = v;
          sub[e] += v;
        }
    }
  for (guint e = 0; e < ne; e++)
    whole[e] += sub[e];

  /* r_e: the ratios of the calls from outside the cycle */
  gdouble *r = &DBL (d->entry, (gsize) i * ne);
  guint8 entered = 0;
  for (guint e = 0; e < ne; e++)
    r[e] = 0.0;
  const CgArcId *in = cg_graph_in_arcs (g, f, &n);
  for (guint j = 0; j < n; j++)
    if (comp[cg_graph_arc_caller (g, in[j])] != k)
      {
        entered = 1;
        for (guint e = 0; e < ne; e++)
          r[e] += d->ratio[(gsize) in[j] * ne + e];
      }
  g_array_index (d->is_entry, guint8, i) = entered;
}

/* The share of the cycle's @whole cost (event @e) that entered at the
 * member ranked first (rank_members), flowing back along the arcs one
 * rank deeper: adds to the members' totals and to those arcs (Fonseca's
 * linear decomposition; gprof2dot's numbers). */
static void
decompose_entry (Decomposer *d, const guint32 *members, guint m, guint s, guint e, gdouble whole)
{
  guint ne = d->ne;
  gdouble r = DBL (d->entry, (gsize) s * ne + e);
  /* forward in-flow of every member */
  for (guint i = 0; i < m; i++)
    DBL (d->cr, i) = 0.0;
  for (guint i = 0; i < m; i++)
    {
      guint32 u = U32 (d->order, i);
      for (guint32 j = U32 (d->adj_start, u); j < U32 (d->adj_start, u + 1); j++)
        {
          guint32 v = U32 (d->adj_to, j);
          if (U32 (d->rank, v) == U32 (d->rank, u) + 1)
            DBL (d->cr, v) += d->ratio[(gsize) U32 (d->adj_arc, j) * ne + e];
        }
    }
  gdouble top = partials (d, m, e, r, FALSE);
  /* gprof2dot's own checks (its issues #7, #33): the entry's partial is
   * the largest, and is its share of the cycle */
  gdouble largest = 0.0;
  for (guint i = 0; i < m; i++)
    largest = MAX (largest, DBL (d->q, i));
  gboolean conserve = !(fabs (top - largest) <= 1e-7 * largest && fabs (r * whole - top) <= 0.001 * r * whole);
  if (conserve)
    partials (d, m, e, r, TRUE);
  for (guint i = 0; i < m; i++)
    {
      guint32 u = U32 (d->order, i);
      d->total[(gsize) members[u] * ne + e] += DBL (d->q, u);
      for (guint32 j = U32 (d->adj_start, u); j < U32 (d->adj_start, u + 1); j++)
        {
          guint32 v = U32 (d->adj_to, j);
          if (U32 (d->rank, v) != U32 (d->rank, u) + 1)
            continue;
          CgArcId a = U32 (d->adj_arc, j);
          d->arc[(gsize) a * ne + e] += forward_share (d, d->ratio[(gsize) a * ne + e], v, conserve) * DBL (d->q, v);
        }
    }
}

/* Decomposes cycle @k with members @members (@m of them): each member
 * called from outside passes its share of the cycle's cost back
 * through the members ranked from it. */
static void
propagate_cycle (Decomposer *d, guint32 k, const guint32 *members, guint m)
{
  guint ne = d->ne;
  for (guint i = 0; i < m; i++)
    d->local[members[i]] = i;
  size_scratch (d, m);
  gdouble *whole = &d->whole[(gsize) k * ne];
  for (guint e = 0; e < ne; e++)
    whole[e] = 0.0;
  for (guint i = 0; i < m; i++)
    gather_member (d, k, i, members[i], whole);
  U32 (d->adj_start, m) = d->adj_arc->len;

  for (guint i = 0; i < m; i++)
    for (guint e = 0; e < ne; e++)
      d->total[(gsize) members[i] * ne + e] = 0.0;
  gboolean entered = FALSE;
  for (guint s = 0; s < m; s++)
    {
      if (!g_array_index (d->is_entry, guint8, s))
        continue;
      entered = TRUE;
      rank_members (d, m, s);
      for (guint e = 0; e < ne; e++)
        decompose_entry (d, members, m, s, e, whole[e]);
    }
  /* a cycle that no call enters (its members' runs started inside it:
   * a program's main in a cycle, a stack's root frame) has no entry to
   * decompose from, and gprof2dot leaves its members' totals 0, below
   * their self costs: each gets the cycle's whole cost, the bound that
   * gprof's cycle as a unit gives */
  if (!entered)
    for (guint i = 0; i < m; i++)
      for (guint e = 0; e < ne; e++)
        d->total[(gsize) members[i] * ne + e] = whole[e];
}

CgCosts *
cg_decompose_graph (CgGraph *g, const gdouble *weights, GError **error)
{
  (void) error;
  guint nf = cg_graph_n_functions (g), na = cg_graph_n_arcs (g), ne = cg_graph_n_events (g);
  const CgKind *kinds = cg_graph_event_kinds (g);
  Decomposer d = {
    .g = g,
    .ne = ne,
    .scc = cg_scc_find (g, NULL, NULL),
    .w = weights,
    .ratio = g_new0 (gdouble, MAX ((gsize) na * ne, 1)),
    .self = g_new (gdouble, MAX ((gsize) nf * ne, 1)),
    .total = g_new0 (gdouble, MAX ((gsize) nf * ne, 1)),
    .arc = g_new0 (gdouble, MAX ((gsize) na * ne, 1)),
    .local = g_new (guint32, MAX (nf, 1)),
    .adj_start = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .adj_arc = g_array_new (FALSE, FALSE, sizeof (CgArcId)),
    .adj_to = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .sub = g_array_new (FALSE, FALSE, sizeof (gdouble)),
    .rank = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .order = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .fanin = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .entry = g_array_new (FALSE, FALSE, sizeof (gdouble)),
    .is_entry = g_array_new (FALSE, FALSE, sizeof (guint8)),
    .cr = g_array_new (FALSE, FALSE, sizeof (gdouble)),
    .q = g_array_new (FALSE, FALSE, sizeof (gdouble)),
  };
  guint nk = d.scc->n_components;
  d.whole = g_new0 (gdouble, MAX ((gsize) nk * ne, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    for (guint e = 0; e < ne; e++)
      d.self[(gsize) f * ne + e] = cg_value_to_double (kinds[e], cg_graph_self_const (g, f)[e]);
  compute_ratios (&d);

  /* components are numbered callees first: each is done before its callers */
  g_autofree guint32 *start = NULL, *members = NULL;
  cg_csr_build (d.scc->component_of, sizeof (guint32), 0, nf, nk, &start, &members);
  for (guint32 k = 0; k < nk; k++)
    {
      if (d.scc->size[k] == 1)
        propagate_single (&d, members[start[k]]);
      else
        propagate_cycle (&d, k, members + start[k], start[k + 1] - start[k]);
    }

  CgCosts *c = cg_costs_new (CG_METHOD_DECOMPOSE, g);
  for (CgFunctionId f = 0; f < nf; f++)
    {
      CgValue *t = cg_costs_total (c, f);
      for (guint e = 0; e < ne; e++)
        t[e].x = d.total[(gsize) f * ne + e];
      /* exact only when nothing was propagated into it */
      guint n;
      const CgArcId *out = cg_graph_out_arcs (g, f, &n);
      gboolean calls_others = FALSE;
      for (guint i = 0; i < n && !calls_others; i++)
        calls_others = cg_graph_arc_callee (g, out[i]) != f;
      cg_costs_set_total_estimated (c, f, calls_others);
    }
  for (CgArcId a = 0; a < na; a++)
    {
      CgValue *v = cg_costs_arc (c, a);
      for (guint e = 0; e < ne; e++)
        v[e].x = d.arc[(gsize) a * ne + e];
      cg_costs_set_arc_estimated (c, a, cg_graph_arc_caller (g, a) != cg_graph_arc_callee (g, a));
    }

  cg_scc_free (d.scc);
  g_free (d.ratio);
  g_free (d.self);
  g_free (d.total);
  g_free (d.arc);
  g_free (d.whole);
  g_free (d.local);
  g_array_unref (d.adj_start);
  g_array_unref (d.adj_arc);
  g_array_unref (d.adj_to);
  g_array_unref (d.sub);
  g_array_unref (d.rank);
  g_array_unref (d.order);
  g_array_unref (d.fanin);
  g_array_unref (d.entry);
  g_array_unref (d.is_entry);
  g_array_unref (d.cr);
  g_array_unref (d.q);
  return c;
}

CgCosts *
cg_decompose_compute (CgProfile *p, GError **error)
{
  g_autofree gdouble *w = cg_decompose_weights (p, cg_decompose_weights_for (p));
  return cg_decompose_graph (cg_profile_graph (p), w, error);
}
