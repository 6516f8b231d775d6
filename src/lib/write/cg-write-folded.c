/* cg-write-folded.c — a depth-first walk with one path buffer. */
#include "config.h"

#include "cg-write-folded.h"

#include <string.h>

typedef struct {
  CgFrameId frame;
  guint depth;
} Item;

typedef struct {
  CgGraph *graph;
  CgTree *tree;
} SortData;

static gint
by_label (gconstpointer a, gconstpointer b, gpointer data)
{
  const SortData *d = data;
  CgFunctionId x = cg_tree_function (d->tree, *(const CgFrameId *) a);
  CgFunctionId y = cg_tree_function (d->tree, *(const CgFrameId *) b);
  int c = strcmp (cg_graph_function_name (d->graph, x), cg_graph_function_name (d->graph, y));
  if (c == 0)
    c = strcmp (cg_graph_function_object (d->graph, x), cg_graph_function_object (d->graph, y));
  return c;
}

/* Pushes @frames (sorted) in reverse, so that they pop in order. */
static void
push_sorted (GArray *work, GArray *scratch, const CgFrameId *frames, guint n, guint depth, SortData *sd)
{
  g_array_set_size (scratch, 0);
  g_array_append_vals (scratch, frames, n);
  g_array_sort_with_data (scratch, by_label, sd);
  for (guint i = n; i-- > 0;)
    {
      Item it = { g_array_index (scratch, CgFrameId, i), depth };
      g_array_append_val (work, it);
    }
}

/* A frame's name: the function's label, and "_[k]" after a function of
 * the kernel (perf's [kernel.kallsyms], where the folded reader puts a
 * "_[k]" frame), as stackcollapse-perf.pl --kernel marks it, so that
 * flamegraph.pl colours it and the folded reader takes it back. */
static void
append_frame_name (GString *path, CgGraph *g, CgFunctionId f)
{
  gsize from = path->len;
  cg_graph_append_label (g, path, f);
  if (strcmp (cg_graph_function_object (g, f), "[kernel.kallsyms]") == 0 && !g_str_has_suffix (path->str + from, "_[k]"))
    g_string_append (path, "_[k]");
  for (gsize i = from; i < path->len; i++)
    if (path->str[i] == ';')
      path->str[i] = ':';
}

/* Whether frame @x's self cost is zero in every event: a leaf so is a
 * "stack 0" line that was read (written back, for the round trip), where a
 * leaf zero in @event alone holds another event's samples (not written). */
static gboolean
self_zero_in_all (CgGraph *g, CgTree *t, CgFrameId x)
{
  const CgValue *self = cg_tree_self_const (t, x);
  guint ne = cg_tree_n_events (t);
  for (guint e = 0; e < ne; e++)
    if (!cg_value_is_zero (cg_graph_event_kind (g, e), self[e]))
      return FALSE;
  return TRUE;
}

void
cg_write_folded (CgGraph *g, CgTree *t, guint event, FILE *stream)
{
  guint nx = cg_tree_n_frames (t);
  CgKind kind = cg_graph_event_kind (g, event);
  gdouble scale = cg_graph_event_scale (g, event);
  SortData sd = { g, t };
  g_autoptr (GArray) work = g_array_new (FALSE, FALSE, sizeof (Item));
  g_autoptr (GArray) scratch = g_array_new (FALSE, FALSE, sizeof (CgFrameId));
  g_autoptr (GArray) roots = g_array_new (FALSE, FALSE, sizeof (CgFrameId));
  g_autoptr (GArray) lens = g_array_new (FALSE, FALSE, sizeof (gsize)); /* path length per depth */
  g_autoptr (GString) path = g_string_new (NULL);
  g_autoptr (GString) line = g_string_new (NULL);
  for (CgFrameId x = 0; x < nx; x++)
    if (cg_tree_parent (t, x) == CG_NO_ID)
      g_array_append_val (roots, x);
  push_sorted (work, scratch, (const CgFrameId *) roots->data, roots->len, 0, &sd);
  while (work->len > 0)
    {
      Item it = g_array_index (work, Item, work->len - 1);
      g_array_set_size (work, work->len - 1);
      /* the path of the parent, then this frame */
      g_string_truncate (path, it.depth == 0 ? 0 : g_array_index (lens, gsize, it.depth - 1));
      if (it.depth > 0)
        g_string_append_c (path, ';');
      append_frame_name (path, g, cg_tree_function (t, it.frame));
      g_array_set_size (lens, it.depth + 1);
      g_array_index (lens, gsize, it.depth) = path->len;

      guint n;
      const CgFrameId *children = cg_tree_children (t, it.frame, &n);
      CgValue v = cg_tree_self_const (t, it.frame)[event];
      if (!cg_value_is_zero (kind, v) || (n == 0 && self_zero_in_all (g, t, it.frame)))
        {
          g_string_assign (line, path->str);
          g_string_append_c (line, ' ');
          cg_value_append_scaled (line, kind, v, scale);
          g_string_append_c (line, '\n');
          fwrite (line->str, 1, line->len, stream);
        }
      push_sorted (work, scratch, children, n, it.depth + 1, &sd);
    }
}
