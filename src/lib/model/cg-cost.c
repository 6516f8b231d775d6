/* cg-cost.c — storage of a method's result. */
#include "config.h"

#include "cg-cost.h"

#include <string.h>

#include "cg-matrix.h"

struct _CgCosts {
  CgMethod method;
  GArray *kinds;           /* CgKind per event */
  CgMatrix totals;         /* n_functions × n_events */
  CgMatrix arcs;           /* n_arcs × n_events */
  CgMatrix arc_self;       /* same shape, values == NULL until used */
  CgMatrix arc_children;
  CgMatrix arc_self2;      /* Spivey's second split, values == NULL until used */
  CgMatrix arc_children2;
  guint8 *total_estimated; /* per function */
  guint8 *arc_estimated;   /* per arc */
  GPtrArray *warnings;     /* char *, NULL until the first */
};

static gboolean
method_is_exact (CgMethod method)
{
  return method == CG_METHOD_MEASURED || method == CG_METHOD_EXACT;
}

CgCosts *
cg_costs_new (CgMethod method, const CgGraph *graph)
{
  g_return_val_if_fail (method != CG_METHOD_AUTO, NULL);
  CgCosts *c = g_new0 (CgCosts, 1);
  guint ne = cg_graph_n_events (graph);
  guint nf = cg_graph_n_functions (graph), na = cg_graph_n_arcs (graph);
  c->method = method;
  c->kinds = g_array_sized_new (FALSE, FALSE, sizeof (CgKind), ne);
  for (guint e = 0; e < ne; e++)
    {
      CgKind k = method_is_exact (method) ? cg_graph_event_kind (graph, e) : CG_KIND_REAL;
      g_array_append_val (c->kinds, k);
    }
  cg_matrix_init (&c->totals, ne);
  cg_matrix_set_rows (&c->totals, nf);
  cg_matrix_init (&c->arcs, ne);
  cg_matrix_set_rows (&c->arcs, na);
  c->total_estimated = g_new0 (guint8, MAX (nf, 1));
  c->arc_estimated = g_new0 (guint8, MAX (na, 1));
  return c;
}

void
cg_costs_free (CgCosts *c)
{
  if (c == NULL)
    return;
  g_array_unref (c->kinds);
  cg_matrix_clear (&c->totals);
  cg_matrix_clear (&c->arcs);
  cg_matrix_clear (&c->arc_self);
  cg_matrix_clear (&c->arc_children);
  cg_matrix_clear (&c->arc_self2);
  cg_matrix_clear (&c->arc_children2);
  g_free (c->total_estimated);
  g_free (c->arc_estimated);
  if (c->warnings)
    g_ptr_array_unref (c->warnings);
  g_free (c);
}

void
cg_costs_add_warning (CgCosts *c, const char *message)
{
  if (c->warnings == NULL)
    c->warnings = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (c->warnings, g_strdup (message));
}

const char *
cg_costs_warning (const CgCosts *c, guint i)
{
  return c->warnings && i < c->warnings->len ? g_ptr_array_index (c->warnings, i) : NULL;
}

CgMethod
cg_costs_method (const CgCosts *c)
{
  return c->method;
}

guint
cg_costs_n_functions (const CgCosts *c)
{
  return c->totals.rows;
}

guint
cg_costs_n_arcs (const CgCosts *c)
{
  return c->arcs.rows;
}

guint
cg_costs_n_events (const CgCosts *c)
{
  return c->kinds->len;
}

CgKind
cg_costs_kind (const CgCosts *c, guint e)
{
  return g_array_index (c->kinds, CgKind, e);
}

const CgKind *
cg_costs_kinds (const CgCosts *c)
{
  return (const CgKind *) c->kinds->data;
}

CgValue *
cg_costs_total (CgCosts *c, CgFunctionId f)
{
  g_assert (f < c->totals.rows);
  return cg_matrix_row (&c->totals, f);
}

const CgValue *
cg_costs_total_const (const CgCosts *c, CgFunctionId f)
{
  g_assert (f < c->totals.rows);
  return cg_matrix_row (&c->totals, f);
}

CgValue *
cg_costs_arc (CgCosts *c, CgArcId a)
{
  g_assert (a < c->arcs.rows);
  return cg_matrix_row (&c->arcs, a);
}

const CgValue *
cg_costs_arc_const (const CgCosts *c, CgArcId a)
{
  g_assert (a < c->arcs.rows);
  return cg_matrix_row (&c->arcs, a);
}

gboolean
cg_costs_has_arc_split (const CgCosts *c)
{
  return c->arc_self.values != NULL;
}

/* An arc split (self and children) is allocated, both halves at once,
 * when first written; before that its rows read as NULL. */
static CgValue *
split_row (CgCosts *c, CgMatrix *self, CgMatrix *children, CgMatrix *want, CgArcId a)
{
  g_assert (a < c->arcs.rows);
  if (self->values == NULL)
    {
      cg_matrix_init (self, c->arcs.cols);
      cg_matrix_set_rows (self, c->arcs.rows);
      cg_matrix_init (children, c->arcs.cols);
      cg_matrix_set_rows (children, c->arcs.rows);
    }
  return cg_matrix_row (want, a);
}

static const CgValue *
split_row_const (const CgCosts *c, const CgMatrix *m, CgArcId a)
{
  g_assert (a < c->arcs.rows);
  return m->values ? cg_matrix_row (m, a) : NULL;
}

CgValue *
cg_costs_arc_self (CgCosts *c, CgArcId a)
{
  return split_row (c, &c->arc_self, &c->arc_children, &c->arc_self, a);
}

CgValue *
cg_costs_arc_children (CgCosts *c, CgArcId a)
{
  return split_row (c, &c->arc_self, &c->arc_children, &c->arc_children, a);
}

const CgValue *
cg_costs_arc_self_const (const CgCosts *c, CgArcId a)
{
  return split_row_const (c, &c->arc_self, a);
}

const CgValue *
cg_costs_arc_children_const (const CgCosts *c, CgArcId a)
{
  return split_row_const (c, &c->arc_children, a);
}

gboolean
cg_costs_has_arc_split2 (const CgCosts *c)
{
  return c->arc_self2.values != NULL;
}

CgValue *
cg_costs_arc_self2 (CgCosts *c, CgArcId a)
{
  return split_row (c, &c->arc_self2, &c->arc_children2, &c->arc_self2, a);
}

CgValue *
cg_costs_arc_children2 (CgCosts *c, CgArcId a)
{
  return split_row (c, &c->arc_self2, &c->arc_children2, &c->arc_children2, a);
}

const CgValue *
cg_costs_arc_self2_const (const CgCosts *c, CgArcId a)
{
  return split_row_const (c, &c->arc_self2, a);
}

const CgValue *
cg_costs_arc_children2_const (const CgCosts *c, CgArcId a)
{
  return split_row_const (c, &c->arc_children2, a);
}

gboolean
cg_costs_total_is_estimated (const CgCosts *c, CgFunctionId f)
{
  g_assert (f < c->totals.rows);
  return c->total_estimated[f];
}

void
cg_costs_set_total_estimated (CgCosts *c, CgFunctionId f, gboolean estimated)
{
  g_assert (f < c->totals.rows);
  c->total_estimated[f] = estimated != FALSE;
}

gboolean
cg_costs_arc_is_estimated (const CgCosts *c, CgArcId a)
{
  g_assert (a < c->arcs.rows);
  return c->arc_estimated[a];
}

void
cg_costs_set_arc_estimated (CgCosts *c, CgArcId a, gboolean estimated)
{
  g_assert (a < c->arcs.rows);
  c->arc_estimated[a] = estimated != FALSE;
}

gboolean
cg_costs_any_estimated (const CgCosts *c)
{
  return memchr (c->total_estimated, 1, c->totals.rows) != NULL;
}
