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
  GHashTable *objects; /* interned object path -> its label; NULL until asked for */
  gboolean short_labels; /* cg_names_set_short */
  gboolean strip;        /* cg_names_set_strip */
};

/* Whether @name is a bare address ("0x" and hex digits), the name
 * callgrind and perf give code without a symbol. */
static gboolean
is_address (const char *name)
{
  if (name[0] != '0' || name[1] != 'x' || name[2] == '\0')
    return FALSE;
  for (const char *p = name + 2; *p; p++)
    if (!g_ascii_isxdigit (*p))
      return FALSE;
  return TRUE;
}

/* Objects by file name, the whole path only where two objects of the
 * profile share a file name: people read "libc.so.6", and the directory
 * says nothing unless it tells two apart. */
static void
label_objects (CgNames *n)
{
  n->objects = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) by_base = g_hash_table_new (g_str_hash, g_str_equal); /* base -> first path */
  g_autoptr (GHashTable) shared = g_hash_table_new (g_str_hash, g_str_equal);
  guint nf = cg_graph_n_functions (n->graph);
  for (CgFunctionId f = 0; f < nf; f++)
    {
      const char *object = cg_graph_function_object (n->graph, f); /* interned: one pointer per path */
      if (g_hash_table_contains (n->objects, object))
        continue;
      const char *slash = strrchr (object, '/');
      const char *base = slash && slash[1] ? slash + 1 : object;
      g_hash_table_insert (n->objects, (gpointer) object, (gpointer) base);
      const char *first = g_hash_table_lookup (by_base, base);
      if (first == NULL)
        g_hash_table_insert (by_base, (gpointer) base, (gpointer) object);
      else if (first != object)
        g_hash_table_add (shared, (gpointer) base);
    }
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, n->objects);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (g_hash_table_contains (shared, value))
      g_hash_table_iter_replace (&it, key);
}

void
cg_names_set_short (CgNames *n)
{
  n->short_labels = TRUE;
  memset (n->shown, 0, MAX (cg_graph_n_functions (n->graph), 1) * sizeof *n->shown);
}

void
cg_names_set_strip (CgNames *n)
{
  n->strip = TRUE;
  memset (n->shown, 0, MAX (cg_graph_n_functions (n->graph), 1) * sizeof *n->shown);
}

const char *
cg_names_object (CgNames *n, CgFunctionId f)
{
  if (n->objects == NULL)
    label_objects (n);
  return g_hash_table_lookup (n->objects, cg_graph_function_object (n->graph, f));
}

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
  if (n->objects)
    g_hash_table_unref (n->objects);
  g_string_chunk_free (n->owned);
  g_free (n);
}

const char *
cg_names_get (CgNames *n, CgFunctionId f)
{
  if (n->shown[f] == NULL)
    {
      const char *name = cg_graph_function_name (n->graph, f);
      if (n->short_labels && is_address (name))
        {
          /* callgrind pads addresses to 16 digits: 0x1ab70 reads better */
          const char *digits = name + 2;
          while (digits[0] == '0' && digits[1])
            digits++;
          g_autofree char *shorter = g_strconcat ("0x", digits, NULL);
          n->shown[f] = g_string_chunk_insert (n->owned, shorter);
          return n->shown[f];
        }
      g_autofree char *d = n->demangle ? cg_demangle (name) : NULL;
      if (n->strip)
        {
          g_autofree char *stripped = cg_strip_cxx (d ? d : name);
          g_free (g_steal_pointer (&d));
          d = strcmp (stripped, name) != 0 ? g_steal_pointer (&stripped) : NULL;
        }
      n->shown[f] = d ? g_string_chunk_insert (n->owned, d) : name;
    }
  return n->shown[f];
}

void
cg_names_append_label (CgNames *n, GString *out, CgFunctionId f)
{
  g_string_append (out, cg_names_get (n, f));
  /* stripped names are short on purpose: no linker name beside them */
  if (n->twin && n->twin[f] && !n->strip)
    g_string_append_printf (out, " [%s]", cg_graph_function_name (n->graph, f));
  /* an address means nothing without its object */
  const char *object = cg_graph_function_object (n->graph, f);
  if (!n->short_labels)
    {
      if (cg_graph_function_is_ambiguous (n->graph, f))
        g_string_append_printf (out, " [%s]", object);
      else if (*object && is_address (cg_graph_function_name (n->graph, f)))
        g_string_append_printf (out, " [%s]", cg_names_object (n, f));
      return;
    }
  if (cg_graph_function_is_ambiguous (n->graph, f)
      || (*object && is_address (cg_graph_function_name (n->graph, f))))
    g_string_append_printf (out, " [%s]", cg_names_object (n, f));
}
