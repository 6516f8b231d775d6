/* cg-profile.c — the document that ties graph, tree and derived data. */
#include "config.h"

#include "cg-profile.h"

struct _CgProfile {
  CgGraph *graph;
  CgTree *tree;
  CgContexts *contexts; /* nullable */
  CgCycles *cycles;
  CgCosts *costs;
  /* the graph's generation each was set at: a later change makes it stale */
  guint64 cycles_generation, costs_generation;
  CgHistogram *histogram; /* nullable */
  GArray *sources; /* CgSource, strings interned in the graph */
};

CgProfile *
cg_profile_new (void)
{
  CgProfile *p = g_new0 (CgProfile, 1);
  p->graph = cg_graph_new ();
  p->sources = g_array_new (FALSE, FALSE, sizeof (CgSource));
  return p;
}

void
cg_profile_free (CgProfile *p)
{
  if (p == NULL)
    return;
  cg_cycles_free (p->cycles);
  cg_costs_free (p->costs);
  cg_histogram_free (p->histogram);
  cg_tree_free (p->tree);
  cg_contexts_free (p->contexts);
  cg_graph_free (p->graph);
  g_array_unref (p->sources);
  g_free (p);
}

CgGraph *
cg_profile_graph (CgProfile *p)
{
  return p->graph;
}

CgTree *
cg_profile_tree (CgProfile *p)
{
  return p->tree;
}

CgTree *
cg_profile_steal_tree (CgProfile *p)
{
  return g_steal_pointer (&p->tree);
}

CgTree *
cg_profile_ensure_tree (CgProfile *p)
{
  if (p->tree == NULL)
    p->tree = cg_tree_new (p->graph);
  return p->tree;
}

gboolean
cg_profile_ensure_event (CgProfile *p, const char *name, const char *unit, CgKind kind,
                         guint *index, GError **error)
{
  /* the tree and contexts share the graph's schema, which keeps them in step */
  return cg_graph_ensure_event (p->graph, name, unit, kind, index, error);
}

CgContexts *
cg_profile_contexts (CgProfile *p)
{
  return p->contexts;
}

CgContexts *
cg_profile_ensure_contexts (CgProfile *p)
{
  if (p->contexts == NULL)
    p->contexts = cg_contexts_new (p->graph);
  return p->contexts;
}

CgContexts *
cg_profile_steal_contexts (CgProfile *p)
{
  return g_steal_pointer (&p->contexts);
}

void
cg_profile_set_contexts (CgProfile *p, CgContexts *contexts)
{
  if (p->contexts != contexts)
    cg_contexts_free (p->contexts);
  p->contexts = contexts;
}

static const char *
intern_or_null (CgGraph *g, const char *s)
{
  return s ? cg_graph_intern (g, s, -1) : NULL;
}

void
cg_profile_add_source (CgProfile *p, const char *format, const char *path, const char *command,
                       const char *creator)
{
  CgSource s = {
    intern_or_null (p->graph, format),
    intern_or_null (p->graph, path),
    intern_or_null (p->graph, command),
    intern_or_null (p->graph, creator),
    NULL,
    NULL,
  };
  g_array_append_val (p->sources, s);
}

void
cg_profile_set_source_note (CgProfile *p, const char *note)
{
  g_return_if_fail (p->sources->len > 0);
  g_array_index (p->sources, CgSource, p->sources->len - 1).note = intern_or_null (p->graph, note);
}

void
cg_profile_set_source_detail (CgProfile *p, const char *detail)
{
  g_return_if_fail (p->sources->len > 0);
  g_array_index (p->sources, CgSource, p->sources->len - 1).detail = intern_or_null (p->graph, detail);
}

guint
cg_profile_n_sources (const CgProfile *p)
{
  return p->sources->len;
}

const CgSource *
cg_profile_source (const CgProfile *p, guint i)
{
  return &g_array_index (p->sources, CgSource, i);
}

const char *
cg_profile_title (const CgProfile *p)
{
  for (guint i = 0; i < cg_profile_n_sources (p); i++)
    {
      const CgSource *source = cg_profile_source (p, i);
      if (source->command && *source->command)
        return source->command;
      if (source->path && *source->path)
        return source->path;
    }
  return "profile";
}

CgCycles *
cg_profile_cycles (CgProfile *p)
{
  /* a stale set is refused but kept until replaced: a caller may still
   * hold it from before the change */
  if (p->cycles && p->cycles_generation != cg_graph_generation (p->graph))
    return NULL;
  return p->cycles;
}

void
cg_profile_set_cycles (CgProfile *p, CgCycles *cycles)
{
  if (p->cycles != cycles)
    cg_cycles_free (p->cycles);
  p->cycles = cycles;
  p->cycles_generation = cg_graph_generation (p->graph);
}

CgCosts *
cg_profile_costs (CgProfile *p)
{
  if (p->costs && p->costs_generation != cg_graph_generation (p->graph))
    return NULL;
  return p->costs;
}

void
cg_profile_set_costs (CgProfile *p, CgCosts *costs)
{
  if (p->costs != costs)
    cg_costs_free (p->costs);
  p->costs = costs;
  p->costs_generation = cg_graph_generation (p->graph);
}

CgHistogram *
cg_profile_histogram (CgProfile *p)
{
  return p->histogram;
}

void
cg_profile_set_histogram (CgProfile *p, CgHistogram *histogram)
{
  if (p->histogram != histogram)
    cg_histogram_free (p->histogram);
  p->histogram = histogram;
}

void
cg_profile_replace_data (CgProfile *p, CgGraph *graph, CgTree *tree)
{
  /* sources keep pointers into the old graph's strings: re-intern them */
  for (guint i = 0; i < p->sources->len; i++)
    {
      CgSource *s = &g_array_index (p->sources, CgSource, i);
      s->format = intern_or_null (graph, s->format);
      s->path = intern_or_null (graph, s->path);
      s->command = intern_or_null (graph, s->command);
      s->creator = intern_or_null (graph, s->creator);
      s->note = intern_or_null (graph, s->note);
      s->detail = intern_or_null (graph, s->detail);
    }
  cg_profile_set_cycles (p, NULL);
  cg_profile_set_costs (p, NULL);
  if (p->histogram)
    cg_histogram_forget_counts (p->histogram); /* credits were per function id */
  if (p->tree != tree)
    cg_tree_free (p->tree);
  if (p->graph != graph)
    cg_graph_free (p->graph);
  p->graph = graph;
  p->tree = tree;
}

CgProfile *
cg_profile_new_like (CgProfile *profile, GError **error)
{
  g_autoptr (CgProfile) out = cg_profile_new ();
  for (guint i = 0; i < cg_profile_n_sources (profile); i++)
    {
      const CgSource *s = cg_profile_source (profile, i);
      cg_profile_add_source (out, s->format, s->path, s->command, s->creator);
      cg_profile_set_source_note (out, s->note);
      cg_profile_set_source_detail (out, s->detail);
    }
  CgGraph *from = cg_profile_graph (profile), *g = cg_profile_graph (out);
  for (guint e = 0; e < cg_graph_n_events (from); e++)
    {
      guint index;
      if (!cg_profile_ensure_event (out, cg_graph_event_name (from, e), cg_graph_event_unit (from, e),
                                    cg_graph_event_kind (from, e), &index, error))
        return NULL;
      const char *description = cg_graph_event_description (from, e);
      if (description)
        cg_graph_set_event_description (g, index, description);
      cg_graph_set_event_scale (g, index, cg_graph_event_scale (from, e));
      gdouble sampled;
      guint64 samples = cg_graph_event_samples (from, e, &sampled);
      if (samples > 0)
        cg_graph_add_event_samples (g, index, samples, sampled);
    }
  return g_steal_pointer (&out);
}
