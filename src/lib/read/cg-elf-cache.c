/* cg-elf-cache.c — ELF objects loaded once per path (cg-elf-cache.h). */
#include "config.h"

#include "cg-elf-cache.h"

typedef struct {
  CgElfFunctions *functions; /* NULL: see error */
  CgElfInlines *inlines;     /* nullable */
  GError *error;
} Entry;

struct _CgElfCache {
  GHashTable *by_path; /* path -> Entry */
};

static void
entry_free (gpointer p)
{
  Entry *e = p;
  cg_elf_functions_free (e->functions);
  cg_elf_inlines_free (e->inlines);
  g_clear_error (&e->error);
  g_free (e);
}

CgElfCache *
cg_elf_cache_new (void)
{
  CgElfCache *cache = g_new (CgElfCache, 1);
  cache->by_path = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, entry_free);
  return cache;
}

void
cg_elf_cache_free (CgElfCache *cache)
{
  if (cache == NULL)
    return;
  g_hash_table_unref (cache->by_path);
  g_free (cache);
}

gboolean
cg_elf_cache_get (CgElfCache *cache, const char *path, CgElfFunctions **functions, CgElfInlines **inlines,
                  GError **error)
{
  Entry *e = g_hash_table_lookup (cache->by_path, path);
  if (e == NULL)
    {
      e = g_new0 (Entry, 1);
      e->functions = cg_elf_functions_load (path, &e->error);
      if (e->functions)
        e->inlines = cg_elf_inlines_load (path, cg_elf_functions_debug_file (e->functions));
      g_hash_table_insert (cache->by_path, g_strdup (path), e);
    }
  *functions = e->functions;
  *inlines = e->inlines;
  if (e->functions == NULL)
    {
      g_propagate_error (error, g_error_copy (e->error));
      return FALSE;
    }
  return TRUE;
}
