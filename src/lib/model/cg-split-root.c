/* cg-split-root.c — the root frames of perf's --split=pid and --split=tid. */
#include "config.h"

#include "cg-split-root.h"

#include <string.h>

gboolean
cg_split_root_parse (CgGraph *graph, CgFunctionId f, gsize *comm_len, guint64 *pid, guint64 *tid)
{
  if (strcmp (cg_graph_function_object (graph, f), CG_OBJECT_PROCESS) != 0)
    return FALSE;
  const char *name = cg_graph_function_name (graph, f), *dash = strrchr (name, '-');
  if (dash == NULL || dash[1] == '\0')
    return FALSE;
  guint64 n[2] = { 0, 0 };
  guint at = 0;
  for (const char *s = dash + 1; *s; s++)
    if (*s == '/' && at == 0 && s[1])
      at = 1;
    else if (g_ascii_isdigit (*s))
      n[at] = n[at] < G_MAXUINT64 / 10 ? n[at] * 10 + (guint64) (*s - '0') : G_MAXUINT64;
    else if (*s != '?')
      return FALSE;
  if (comm_len)
    *comm_len = (gsize) (dash - name);
  if (pid)
    *pid = n[0];
  if (tid)
    *tid = n[1];
  return TRUE;
}
