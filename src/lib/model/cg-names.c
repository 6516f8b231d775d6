/* cg-names.c — a per-function cache of shown names. */
#include "config.h"

#include "cg-names.h"

#include <string.h>

#include "cg-demangle.h"

struct _CgNames {
  CgGraph *graph;
  gboolean demangle;
  const char **shown;  /* per function: NULL until asked for */
  GStringChunk *owned; /* the demangled ones */
  guint8 *twin;        /* per function: another linker name demangles the same */
};

/* Marks the functions whose linker names differ but demangle to the same
 * name (a C++ constructor's complete and base-object symbols, destructors
 * D0 D1 D2, Rust items that differ only in their hash): their labels need
 * the linker's name too.  Demangles every name, but only when some are
 * mangled. */
static void
mark_twins (CgNames *n)
{
  guint nf = cg_graph_n_functions (n->graph);
  gboolean any = FALSE;
  for (CgFunctionId f = 0; f < nf; f++)
    any |= cg_names_get (n, f) != cg_graph_function_name (n->graph, f);
  if (!any)
    return;
  n->twin = g_new0 (guint8, nf);
  g_autoptr (GHashTable) first = g_hash_table_new (g_str_hash, g_str_equal); /* shown name -> f + 1 */
  for (CgFunctionId f = 0; f < nf; f++)
    {
      gpointer value;
      if (!g_hash_table_lookup_extended (first, n->shown[f], NULL, &value))
        {
          g_hash_table_insert (first, (gpointer) n->shown[f], GUINT_TO_POINTER (f + 1));
          continue;
        }
      CgFunctionId o = GPOINTER_TO_UINT (value) - 1;
      if (strcmp (cg_graph_function_name (n->graph, o), cg_graph_function_name (n->graph, f)) != 0)
        n->twin[o] = n->twin[f] = 1;
    }
}

CgNames *
cg_names_new (CgGraph *graph, gboolean demangle)
{
  CgNames *n = g_new0 (CgNames, 1);
  n->graph = graph;
  n->demangle = demangle;
  n->shown = g_new0 (const char *, MAX (cg_graph_n_functions (graph), 1));
  n->owned = g_string_chunk_new (4096);
  if (demangle)
    mark_twins (n);
  return n;
}

void
cg_names_free (CgNames *n)
{
  if (n == NULL)
    return;
  g_free (n->shown);
  g_free (n->twin);
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
  if (n->twin && n->twin[f])
    g_string_append_printf (out, " [%s]", cg_graph_function_name (n->graph, f));
  if (cg_graph_function_is_ambiguous (n->graph, f))
    g_string_append_printf (out, " [%s]", cg_graph_function_object (n->graph, f));
}
