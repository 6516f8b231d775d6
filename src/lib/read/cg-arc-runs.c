/* cg-arc-runs.c — the run's arcs by callee in an open-addressing table
 * that a new run empties by changing its serial, not by clearing it.
 *
 * A caller's second run starts with the arcs of its first in the table
 * (they are one range of the graph's arcs): its repeats are found as
 * they come, and only callers with three runs or more are left to the
 * merge.  A program's functions mostly come in one or two runs (callgrind
 * writes a function once per object and context), so the merge, which
 * looks at every arc of the callers left to it, usually has none. */
#include "config.h"

#include "cg-arc-runs.h"

#include <string.h>

/* An arc of the current run, by callee. */
typedef struct {
  CgFunctionId callee;
  CgArcId arc;
  guint32 run; /* the slot is empty unless this is the runs' serial */
} RunArc;

/* What is known of a caller's runs. */
enum
{
  RUNS_NONE,  /* no run yet */
  RUNS_ONE,   /* one, whose arcs are from first[f] on, while the caller
               * is the same: no other run of it comes until its second */
  RUNS_TWO,   /* two, the second found the first's arcs */
  RUNS_MORE,  /* three or more: the merge looks at its arcs */
};

struct _CgArcRuns {
  CgGraph *graph;
  gboolean had_arcs;  /* the graph held arcs before: any caller may repeat */
  gboolean any_more;  /* some caller is RUNS_MORE */
  RunArc *slots;      /* 2^bits slots */
  guint bits;
  guint count;        /* arcs in the current run */
  guint32 run;        /* the current run's serial */
  CgFunctionId caller;
  /* per function (callers), sized to the functions there are */
  guint8 *runs_of;    /* RUNS_* */
  CgArcId *first;     /* RUNS_ONE: the first arc of its run */
  gsize n_functions;
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
  return x;
}

void
cg_arc_runs_free (CgArcRuns *x)
{
  if (x == NULL)
    return;
  g_free (x->slots);
  g_free (x->runs_of);
  g_free (x->first);
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

/* The slot of @callee in the current run, or the free slot for it. */
static inline RunArc *
find (CgArcRuns *x, CgFunctionId callee)
{
  gsize mask = ((gsize) 1 << x->bits) - 1;
  for (gsize i = home (x, callee);; i = (i + 1) & mask)
    if (x->slots[i].run != x->run || x->slots[i].callee == callee)
      return &x->slots[i];
}

/* Fills the free @slot with @arc to @callee. */
static inline void
fill (CgArcRuns *x, RunArc *slot, CgFunctionId callee, CgArcId arc)
{
  *slot = (RunArc) { callee, arc, x->run };
  if (++x->count * 4 > 3u << x->bits)
    grow (x);
}

/* Sizes the per-function arrays to the functions there are, the new
 * ones RUNS_NONE. */
static void
size_callers (CgArcRuns *x)
{
  gsize had = x->n_functions, n = cg_graph_n_functions (x->graph);
  if (n <= had)
    return;
  n = MAX (n, had * 2);
  x->runs_of = g_renew (guint8, x->runs_of, n);
  x->first = g_renew (CgArcId, x->first, n);
  memset (x->runs_of + had, RUNS_NONE, n - had);
  x->n_functions = n;
}

/* A run of @caller begins: what its earlier runs leave. */
static void
begin_run (CgArcRuns *x, CgFunctionId caller)
{
  if (caller >= x->n_functions)
    size_callers (x);
  x->caller = caller;
  guint na = cg_graph_n_arcs (x->graph);
  switch (x->runs_of[caller])
    {
    case RUNS_NONE:
      x->runs_of[caller] = RUNS_ONE;
      x->first[caller] = na;
      break;
    case RUNS_ONE:
      /* the first run's arcs, found by their callees from now on */
      x->runs_of[caller] = RUNS_TWO;
      for (CgArcId a = x->first[caller]; a < na && cg_graph_arc_caller (x->graph, a) == caller; a++)
        {
          CgFunctionId callee = cg_graph_arc_callee (x->graph, a);
          RunArc *slot = find (x, callee);
          if (slot->run != x->run)
            fill (x, slot, callee, a);
        }
      break;
    default:
      x->runs_of[caller] = RUNS_MORE;
      x->any_more = TRUE;
      break;
    }
}

CgArcId
cg_arc_runs_arc (CgArcRuns *x, CgFunctionId caller, CgFunctionId callee)
{
  if (caller != x->caller)
    {
      if (x->caller != CG_NO_ID)
        cg_arc_runs_next (x);
      begin_run (x, caller);
    }
  RunArc *slot = find (x, callee);
  if (slot->run == x->run)
    return slot->arc;
  CgArcId a = cg_graph_append_arc (x->graph, caller, callee);
  if (a == CG_NO_ID)
    return CG_NO_ID;
  fill (x, slot, callee, a);
  return a;
}

gboolean
cg_arc_runs_merge (CgArcRuns *x, CgArcId **renumbered, GError **error)
{
  cg_arc_runs_next (x);
  if (renumbered)
    *renumbered = NULL;
  gboolean ok = TRUE;
  if (x->had_arcs)
    ok = cg_graph_merge_arcs (x->graph, NULL, renumbered, error);
  else if (x->any_more)
    {
      /* the arcs of callers of one or two runs are distinct already */
      size_callers (x);
      guint nf = cg_graph_n_functions (x->graph);
      g_autofree guint8 *repeated = g_new (guint8, MAX (nf, 1));
      for (guint i = 0; i < nf; i++)
        repeated[i] = x->runs_of[i] == RUNS_MORE;
      ok = cg_graph_merge_arcs (x->graph, repeated, renumbered, error);
    }
  /* afresh: every arc the graph holds now may repeat */
  if (x->n_functions > 0)
    memset (x->runs_of, RUNS_NONE, x->n_functions);
  x->any_more = FALSE;
  x->had_arcs = cg_graph_n_arcs (x->graph) > 0;
  return ok;
}
