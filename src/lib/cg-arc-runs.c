/* cg-arc-runs.c — the run's arcs by callee in an open-addressing table
 * that a new run empties by changing its serial, not by clearing it. */
#include "config.h"

#include "cg-arc-runs.h"

#include <string.h>

/* An arc of the current run, by callee. */
typedef struct {
  CgFunctionId callee;
  CgArcId arc;
  guint32 run; /* the slot is empty unless this is the runs' serial */
} RunArc;

struct _CgArcRuns {
  CgGraph *graph;
  gboolean had_arcs;  /* the graph held arcs before: any caller may repeat */
  RunArc *slots;      /* 2^bits slots */
  guint bits;
  guint count;        /* arcs in the current run */
  guint32 run;        /* the current run's serial */
  CgFunctionId caller;
  /* per function: how many runs appended arcs of it as caller, 0, 1 or 2
   * (two or more): only the arcs of the last may repeat */
  GByteArray *runs_of;
};

CgArcRuns *
cg_arc_runs_new (CgGraph *graph)
{
  CgArcRuns *x = g_new0 (CgArcRuns, 1);
  x->graph = graph;
  x->had_arcs = cg_graph_n_arcs (graph) > 0;
  x->bits = 6;
  x->slots = g_new0 (RunArc, (gsize) 1 << x->bits);
  x->run = 1;
  x->caller = CG_NO_ID;
  x->runs_of = g_byte_array_new ();
  return x;
}

void
cg_arc_runs_free (CgArcRuns *x)
{
  if (x == NULL)
    return;
  g_free (x->slots);
  g_byte_array_unref (x->runs_of);
  g_free (x);
}

void
cg_arc_runs_next (CgArcRuns *x)
{
  x->count = 0;
  x->caller = CG_NO_ID;
  if (++x->run == 0)
    {
      memset (x->slots, 0, sizeof (RunArc) << x->bits);
      x->run = 1;
    }
}

static inline gsize
home (const CgArcRuns *x, CgFunctionId callee)
{
  return (gsize) ((guint32) (callee * 0x9E3779B1u) >> (32 - x->bits));
}

static void
grow (CgArcRuns *x)
{
  RunArc *old = x->slots;
  gsize n = (gsize) 1 << x->bits;
  x->bits++;
  x->slots = g_new0 (RunArc, (gsize) 1 << x->bits);
  gsize mask = ((gsize) 1 << x->bits) - 1;
  for (gsize i = 0; i < n; i++)
    if (old[i].run == x->run)
      {
        gsize j = home (x, old[i].callee);
        while (x->slots[j].run == x->run)
          j = (j + 1) & mask;
        x->slots[j] = old[i];
      }
  g_free (old);
}

/* Sizes runs_of to the functions there are, the new ones at 0. */
static void
size_runs_of (CgArcRuns *x)
{
  guint had = x->runs_of->len;
  g_byte_array_set_size (x->runs_of, cg_graph_n_functions (x->graph));
  if (x->runs_of->len > had) /* no data, NULL, while empty */
    memset (x->runs_of->data + had, 0, x->runs_of->len - had);
}

CgArcId
cg_arc_runs_arc (CgArcRuns *x, CgFunctionId caller, CgFunctionId callee)
{
  if (caller != x->caller && x->count > 0)
    cg_arc_runs_next (x);
  gsize mask = ((gsize) 1 << x->bits) - 1;
  for (gsize i = home (x, callee);; i = (i + 1) & mask)
    {
      RunArc *slot = &x->slots[i];
      if (slot->run == x->run && slot->callee == callee)
        return slot->arc;
      if (slot->run != x->run)
        {
          CgArcId a = cg_graph_append_arc (x->graph, caller, callee);
          if (a == CG_NO_ID)
            return CG_NO_ID;
          if (x->count == 0)
            {
              /* the run's first arc: its caller has one run more */
              x->caller = caller;
              if (caller >= x->runs_of->len)
                size_runs_of (x);
              x->runs_of->data[caller] += x->runs_of->data[caller] < 2;
            }
          *slot = (RunArc) { callee, a, x->run };
          if (++x->count * 4 > 3u << x->bits)
            grow (x);
          return a;
        }
    }
}

gboolean
cg_arc_runs_merge (CgArcRuns *x, CgArcId **renumbered, GError **error)
{
  /* the arcs of a caller only one run gave are distinct already; an
   * earlier input's arcs may be any caller's */
  size_runs_of (x);
  guint8 *repeated = x->runs_of->data;
  for (guint i = 0; i < x->runs_of->len; i++)
    repeated[i] = x->had_arcs || repeated[i] > 1;
  gboolean ok = cg_graph_merge_arcs (x->graph, x->had_arcs ? NULL : repeated, renumbered, error);
  memset (repeated, 0, x->runs_of->len);
  cg_arc_runs_next (x);
  x->had_arcs = cg_graph_n_arcs (x->graph) > 0;
  return ok;
}
