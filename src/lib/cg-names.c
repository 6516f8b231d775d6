/* cg-names.c — a per-function cache of shown names. */
#include "config.h"

#include "cg-names.h"

#include "cg-demangle.h"

struct _CgNames {
  CgGraph *graph;
  gboolean demangle;
  const char **shown;  /* per function: NULL until asked for */
  GStringChunk *owned; /* the demangled ones */
};

CgNames *
cg_names_new (CgGraph *graph, gboolean demangle)
{
  CgNames *n = g_new0 (CgNames, 1);
  n->graph = graph;
  n->demangle = demangle;
  n->shown = g_new0 (const char *, MAX (cg_graph_n_functions (graph), 1));
  n->owned = g_string_chunk_new (4096);
  return n;
}

void
cg_names_free (CgNames *n)
{
  if (n == NULL)
    return;
  g_free (n->shown);
  g_string_chunk_free (n->owned);
  g_free (n);
}

const char *
cg_names_get (CgNames *n, CgFunctionId f)
{
  if (n->shown[f] == NULL)
    {
      const char *name = cg_graph_function_name (n->graph, f);
      g_autofree char *d = n->demangle ? cg_demangle (name) : NULL;
      n->shown[f] = d ? g_string_chunk_insert (n->owned, d) : name;
    }
  return n->shown[f];
}

void
cg_names_append_label (CgNames *n, GString *out, CgFunctionId f)
{
  g_string_append (out, cg_names_get (n, f));
  if (cg_graph_function_is_ambiguous (n->graph, f))
    g_string_append_printf (out, " [%s]", cg_graph_function_object (n->graph, f));
}
