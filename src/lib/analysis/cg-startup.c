/* cg-startup.c — start-up code by name, the loader's entry by its object;
 * one pass over the functions. */
#include "config.h"

#include "cg-startup.h"

#include <string.h>

gboolean
cg_startup_name (const char *name)
{
  static const char *const names[] = {
    "_start", "(below main)", "__libc_start_main", "__libc_start_call_main", "_dl_start_user",
    /* glibc's own name for __libc_start_main since 2.34, which perf's
     * DWARF unwinding prints as an inlined frame */
    "__libc_start_main_impl",
    "start_thread", "clone", "clone3", "__clone", "__clone3", "__clone_internal",
  };
  /* glibc's versioned symbol, as callgrind names it:
   * __libc_start_main@@GLIBC_2.34 */
  gsize len = strcspn (name, "@");
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strlen (names[i]) == len && strncmp (names[i], name, len) == 0)
      return TRUE;
  return FALSE;
}

/* The loader's entry: an address without a symbol in the dynamic loader
 * (ld-linux-x86-64.so.2, ld-linux-aarch64.so.1, ld-linux.so.2,
 * ld-musl-x86_64.so.1), that nothing calls. */
static gboolean
loader_entry (CgGraph *g, CgFunctionId f)
{
  const char *name = cg_graph_function_name (g, f);
  if (strncmp (name, "0x", 2) != 0)
    return FALSE;
  const char *object = cg_graph_function_object (g, f);
  const char *slash = strrchr (object, '/');
  const char *base = slash ? slash + 1 : object;
  if (strncmp (base, "ld-", 3) != 0 || strstr (base, ".so") == NULL)
    return FALSE;
  guint n;
  const CgFunctionId *callers = cg_graph_in_callers (g, f, &n);
  for (guint i = 0; i < n; i++)
    if (callers[i] != f)
      return FALSE;
  return TRUE;
}

guint8 *
cg_startup_functions (CgGraph *g, guint *n_found)
{
  guint nf = cg_graph_n_functions (g), found = 0;
  guint8 *flags = g_new0 (guint8, MAX (nf, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    if (cg_startup_name (cg_graph_function_name (g, f)) || loader_entry (g, f))
      {
        flags[f] = 1;
        found++;
      }
  *n_found = found;
  return flags;
}
