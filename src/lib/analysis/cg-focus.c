/* cg-focus.c — a forward pass selects and copies frames (parents come
 * before children), a backward pass sums inclusive costs, and a pre-order
 * walk with per-function open counts applies Min_E. */
#include "config.h"

#include "cg-focus.h"

#include "cg-names.h"
#include "cg-split-root.h"
#include "cg-error.h"
#include "cg-spivey.h"

GArray *
cg_focus_match (CgGraph *g, const GRegex *regex, const char *name)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  g_autoptr (CgNames) names = cg_names_new (g, TRUE);
  /* and as cgtree's views show them (cg_names_set_short) */
  g_autoptr (CgNames) short_names = cg_names_new (g, TRUE);
  cg_names_set_short (short_names);
  g_autoptr (GString) label = g_string_new (NULL);
  g_autoptr (GString) shown = g_string_new (NULL);
  g_autoptr (GString) short_shown = g_string_new (NULL);
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    {
      g_string_truncate (label, 0);
      cg_graph_append_label (g, label, f);
      g_string_truncate (shown, 0);
      cg_names_append_label (names, shown, f);
      g_string_truncate (short_shown, 0);
      cg_names_append_label (short_names, short_shown, f);
      const char *forms[] = { cg_graph_function_name (g, f), label->str, cg_names_get (names, f), shown->str,
                              cg_names_get (short_names, f), short_shown->str };
      gboolean match = FALSE;
      for (guint i = 0; i < G_N_ELEMENTS (forms) && !match; i++)
        match = regex ? g_regex_match (regex, forms[i], 0, NULL) : g_str_equal (forms[i], name);
      if (match)
        g_array_append_val (out, f);
    }
  return out;
}

static gboolean
overflow (GError **error)
{
  g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "a focused total exceeds the range of 64-bit counters");
  return FALSE;
}

/* Kaes's Min_E over @tree: totals and arc costs into @costs.  @arc_of
 * gives each non-root frame's arc. */
static gboolean
min_e (CgTree *tree, CgGraph *g, const CgArcId *arc_of, CgCosts *costs, GError **error)
{
  guint nx = cg_tree_n_frames (tree), ne = cg_graph_n_events (g);
  const CgKind *kinds = cg_graph_event_kinds (g);
  /* inclusive cost per frame: children have larger ids than parents */
  g_autofree CgValue *inclusive = g_new0 (CgValue, MAX ((gsize) nx * ne, 1));
  for (CgFrameId x = 0; x < nx; x++)
    if (!cg_values_add (kinds, &inclusive[(gsize) x * ne], cg_tree_self_const (tree, x), ne))
      return overflow (error);
  for (CgFrameId x = nx; x-- > 0;)
    {
      CgFrameId p = cg_tree_parent (tree, x);
      if (p != CG_NO_ID && !cg_values_add (kinds, &inclusive[(gsize) p * ne], &inclusive[(gsize) x * ne], ne))
        return overflow (error);
    }

  g_autofree guint32 *open = g_new0 (guint32, MAX (cg_graph_n_functions (g), 1));
  typedef struct {
    CgFrameId frame;
    gboolean entered; /* its children are on the stack above it */
  } Visit;
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (Visit));
  for (CgFrameId x = nx; x-- > 0;)
    if (cg_tree_parent (tree, x) == CG_NO_ID)
      g_array_append_val (stack, ((Visit) { x, FALSE }));
  while (stack->len > 0)
    {
      Visit *top = &g_array_index (stack, Visit, stack->len - 1);
      CgFrameId x = top->frame;
      CgFunctionId f = cg_tree_function (tree, x);
      if (top->entered)
        {
          open[f]--;
          g_array_set_size (stack, stack->len - 1);
          continue;
        }
      top->entered = TRUE;
      const CgValue *c = &inclusive[(gsize) x * ne];
      if (open[f] == 0)
        {
          if (!cg_values_add (kinds, cg_costs_total (costs, f), c, ne))
            return overflow (error);
          if (arc_of[x] != CG_NO_ID && !cg_values_add (kinds, cg_costs_arc (costs, arc_of[x]), c, ne))
            return overflow (error);
        }
      open[f]++;
      guint nc;
      const CgFrameId *children = cg_tree_children (tree, x, &nc);
      for (guint i = nc; i-- > 0;)
        g_array_append_val (stack, ((Visit) { children[i], FALSE }));
    }
  return TRUE;
}

/* Gives @g's function @h what @from's function @f has besides its
 * name: its source location and whether it is a cycle. */
static void
copy_attributes (CgGraph *g, CgFunctionId h, CgGraph *from, CgFunctionId f)
{
  cg_graph_function_set_location (g, h, cg_graph_function_file (from, f), cg_graph_function_line (from, f));
  cg_graph_function_set_flags (g, h, cg_graph_function_flags (from, f) & CG_FUNCTION_CYCLE);
}

/* @from's function @f in @g, once: new_function[f]. */
static void
copy_function (CgGraph *g, CgGraph *from, CgFunctionId f, CgFunctionId *new_function)
{
  if (new_function[f] != CG_NO_ID)
    return;
  CgFunctionId h = cg_graph_ensure_function (g, cg_graph_function_object (from, f), cg_graph_function_name (from, f));
  copy_attributes (g, h, from, f);
  new_function[f] = h;
}

CgProfile *
cg_focus_contexts (CgProfile *profile, const guint8 *chosen, GError **error)
{
  CgGraph *from = cg_profile_graph (profile);
  CgContexts *cx = cg_profile_contexts (profile);
  g_return_val_if_fail (cx != NULL, NULL);
  g_autoptr (CgProfile) out = cg_profile_new_like (profile, error);
  if (out == NULL)
    return NULL;
  CgGraph *g = cg_profile_graph (out);
  CgContexts *fx = cg_profile_ensure_contexts (out);
  guint nf = cg_graph_n_functions (from), ne = cg_graph_n_events (g);
  const CgKind *kinds = cg_graph_event_kinds (g);
  g_autofree CgFunctionId *new_function = g_new (CgFunctionId, MAX (nf, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    new_function[f] = CG_NO_ID;
  g_autoptr (GArray) history = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  for (CgContextId k = 0; k < cg_contexts_n (cx); k++)
    {
      guint n, j = 0;
      const CgFunctionId *s = cg_contexts_functions (cx, k, &n);
      const guint8 *m = cg_contexts_marks (cx, k);
      while (j < n && !chosen[s[j]])
        j++;
      if (j == n)
        continue;
      /* the history from the outermost chosen entry: still each function
       * marked at its last entry, and only there */
      guint len = n - j;
      g_array_set_size (history, len);
      CgFunctionId *h = (CgFunctionId *) history->data;
      for (guint i = 0; i < len; i++)
        {
          copy_function (g, from, s[j + i], new_function);
          h[i] = new_function[s[j + i]];
        }
      const char *why;
      if (!cg_contexts_check_history (h, m + j, len, &why))
        {
          g_set_error (error, CG_ERROR, CG_ERROR_PARSE, "context %u cut at its first chosen entry: %s", k, why);
          return NULL;
        }
      CgContextId id = cg_contexts_ensure (fx, h, m + j, len);
      if (id == CG_NO_ID)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "too many contexts");
          return NULL;
        }
      /* entries are calls on the arc into the running routine: from
       * outside the focus when that is its first entry */
      guint64 entries = len > 1 ? cg_contexts_entries (cx, k) : 0, recursive = cg_contexts_recursive (cx, k);
      const CgValue *t = cg_contexts_cost_const (cx, k);
      if (!cg_values_add (kinds, cg_contexts_cost (fx, id), t, ne)
          || !cg_values_add (kinds, cg_graph_self (g, h[len - 1]), t, ne)
          || !cg_contexts_add_counts (fx, id, entries, recursive))
        return overflow (error), NULL;
      const guint8 *hm = m + j;
      for (guint i = 0; i + 1 < len; i++)
        if (hm[i] || hm[i + 1])
          {
            CgArcId a = cg_graph_ensure_arc (g, h[i], h[i + 1]);
            if (a == CG_NO_ID || !cg_graph_arc_add_calls (g, a, i + 2 == len ? entries : 0))
              return overflow (error), NULL;
          }
      if (recursive)
        {
          CgArcId a = cg_graph_ensure_arc (g, h[len - 1], h[len - 1]);
          if (a == CG_NO_ID || !cg_graph_arc_add_calls (g, a, recursive))
            return overflow (error), NULL;
        }
    }
  CgCosts *costs = cg_spivey_compute (out, error);
  if (costs == NULL)
    return NULL;
  cg_profile_set_costs (out, costs);
  return g_steal_pointer (&out);
}

/* A frame of @from's function @f under @parent in @t, a tree over @g (the
 * function copied into @g first: @new_function), with the self cost @c0
 * added to the frame and to the function; CG_NO_ID with @error set on
 * overflow. */
static CgFrameId
copy_frame (CgGraph *g, CgTree *t, CgFrameId parent, CgGraph *from, CgFunctionId f, CgFunctionId *new_function,
            const CgValue *c0, GError **error)
{
  guint ne = cg_graph_n_events (g);
  const CgKind *kinds = cg_graph_event_kinds (g);
  copy_function (g, from, f, new_function);
  CgFrameId x = cg_tree_ensure_child (t, parent, new_function[f]);
  if (x == CG_NO_ID)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "too many frames");
      return CG_NO_ID;
    }
  if (!cg_values_add (kinds, cg_tree_self (t, x), c0, ne) || !cg_values_add (kinds, cg_graph_self (g, new_function[f]), c0, ne))
    return overflow (error), CG_NO_ID;
  return x;
}

/* The arcs of @out's call tree @t (frames merged, so each once per
 * frame) and its exact costs, Min_E over it, stored in @out. */
static gboolean
cost_tree (CgProfile *out, CgTree *t, GError **error)
{
  CgGraph *g = cg_profile_graph (out);
  guint n_frames = cg_tree_n_frames (t);
  g_autofree CgArcId *arc_of = g_new (CgArcId, MAX (n_frames, 1));
  for (CgFrameId y = 0; y < n_frames; y++)
    {
      CgFrameId p = cg_tree_parent (t, y);
      arc_of[y] = p == CG_NO_ID ? CG_NO_ID : cg_graph_ensure_arc (g, cg_tree_function (t, p), cg_tree_function (t, y));
    }
  g_autoptr (CgCosts) costs = cg_costs_new (CG_METHOD_EXACT, g);
  if (!min_e (t, g, arc_of, costs, error))
    return FALSE;
  cg_profile_set_costs (out, g_steal_pointer (&costs));
  return TRUE;
}

CgProfile *
cg_focus_tree (CgProfile *profile, const guint8 *chosen, GError **error)
{
  CgGraph *from = cg_profile_graph (profile);
  CgTree *tree = cg_profile_tree (profile);
  g_return_val_if_fail (tree != NULL, NULL);
  g_autoptr (CgProfile) out = cg_profile_new_like (profile, error);
  if (out == NULL)
    return NULL;
  CgGraph *g = cg_profile_graph (out);
  CgTree *focused = cg_profile_ensure_tree (out);
  guint nf = cg_graph_n_functions (from), nx = cg_tree_n_frames (tree);

  /* new_frame[x]: x's frame in the focused tree, or CG_NO_ID outside it */
  g_autofree CgFrameId *new_frame = g_new (CgFrameId, MAX (nx, 1));
  g_autofree CgFunctionId *new_function = g_new (CgFunctionId, MAX (nf, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    new_function[f] = CG_NO_ID;
  for (CgFrameId x = 0; x < nx; x++)
    {
      CgFrameId p = cg_tree_parent (tree, x);
      CgFunctionId f = cg_tree_function (tree, x);
      CgFrameId np = p == CG_NO_ID ? CG_NO_ID : new_frame[p];
      new_frame[x] = CG_NO_ID;
      if (np == CG_NO_ID && !chosen[f])
        continue;
      new_frame[x] = copy_frame (g, focused, np, from, f, new_function, cg_tree_self_const (tree, x), error);
      if (new_frame[x] == CG_NO_ID)
        return NULL;
    }

  return cost_tree (out, focused, error) ? g_steal_pointer (&out) : NULL;
}

/* cg_filter_tree, and cg_fold_tree where @keep_top: a hidden frame
 * without a caller is kept (what it calls is then under it, not hidden). */
static CgProfile *
filter_tree (CgProfile *profile, const guint8 *hide, const guint8 *ignore, gboolean keep_top, GError **error)
{
  CgGraph *from = cg_profile_graph (profile);
  CgTree *tree = cg_profile_tree (profile);
  g_return_val_if_fail (tree != NULL, NULL);
  g_autoptr (CgProfile) out = cg_profile_new_like (profile, error);
  if (out == NULL)
    return NULL;
  CgGraph *g = cg_profile_graph (out);
  CgTree *kept = cg_profile_ensure_tree (out);
  guint nf = cg_graph_n_functions (from), nx = cg_tree_n_frames (tree), ne = cg_graph_n_events (g);
  const CgKind *kinds = cg_graph_event_kinds (g);

  /* new_frame[x]: the frame x's cost goes to: its copy, or for a hidden
   * function its nearest kept ancestor's copy (CG_NO_ID above a root:
   * its callees become roots); dropped[x]: x runs under an ignored
   * function, and its cost goes nowhere */
  g_autofree CgFrameId *new_frame = g_new (CgFrameId, MAX (nx, 1));
  g_autofree guint8 *dropped = g_new0 (guint8, MAX (nx, 1));
  g_autofree CgFunctionId *new_function = g_new (CgFunctionId, MAX (nf, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    new_function[f] = CG_NO_ID;
  for (CgFrameId x = 0; x < nx; x++)
    {
      CgFrameId p = cg_tree_parent (tree, x);
      CgFunctionId f = cg_tree_function (tree, x);
      if ((p != CG_NO_ID && dropped[p]) || (ignore && ignore[f]))
        {
          dropped[x] = 1;
          continue;
        }
      CgFrameId np = p == CG_NO_ID ? CG_NO_ID : new_frame[p];
      const CgValue *c0 = cg_tree_self_const (tree, x);
      if (hide && hide[f] && !(keep_top && p == CG_NO_ID))
        {
          new_frame[x] = np;
          if (np != CG_NO_ID
              && (!cg_values_add (kinds, cg_tree_self (kept, np), c0, ne)
                  || !cg_values_add (kinds, cg_graph_self (g, cg_tree_function (kept, np)), c0, ne)))
            return overflow (error), NULL;
          continue;
        }
      new_frame[x] = copy_frame (g, kept, np, from, f, new_function, c0, error);
      if (new_frame[x] == CG_NO_ID)
        return NULL;
    }

  return cost_tree (out, kept, error) ? g_steal_pointer (&out) : NULL;
}

CgProfile *
cg_filter_tree (CgProfile *profile, const guint8 *hide, const guint8 *ignore, GError **error)
{
  return filter_tree (profile, hide, ignore, FALSE, error);
}

CgProfile *
cg_fold_tree (CgProfile *profile, const guint8 *fold, GError **error)
{
  return filter_tree (profile, fold, NULL, TRUE, error);
}

CgProfile *
cg_split_roots (CgProfile *profile, GError **error)
{
  CgGraph *from = cg_profile_graph (profile);
  CgTree *tree = cg_profile_tree (profile);
  g_return_val_if_fail (tree != NULL, NULL);
  g_autoptr (CgProfile) out = cg_profile_new_like (profile, error);
  if (out == NULL)
    return NULL;
  CgGraph *g = cg_profile_graph (out);
  CgTree *split = cg_profile_ensure_tree (out);
  guint nx = cg_tree_n_frames (tree), ne = cg_graph_n_events (g);
  const CgKind *kinds = cg_graph_event_kinds (g);
  /* root_of[x]: the root frame above x (parents come before children);
   * copies: (root << 32 | function) -> the root's copy of the function */
  g_autofree CgFrameId *root_of = g_new (CgFrameId, MAX (nx, 1));
  g_autofree CgFrameId *new_frame = g_new (CgFrameId, MAX (nx, 1));
  g_autoptr (GHashTable) copies = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (CgFrameId x = 0; x < nx; x++)
    {
      CgFrameId p = cg_tree_parent (tree, x);
      CgFunctionId f = cg_tree_function (tree, x);
      root_of[x] = p == CG_NO_ID ? x : root_of[p];
      gint64 key = (gint64) ((guint64) root_of[x] << 32 | f);
      gpointer found;
      CgFunctionId h;
      if (g_hash_table_lookup_extended (copies, &key, NULL, &found))
        h = GPOINTER_TO_UINT (found);
      else
        {
          h = cg_graph_add_function_ids (g, cg_graph_intern_id (g, cg_graph_function_object (from, f), -1),
                                         cg_graph_intern_id (g, cg_graph_function_name (from, f), -1));
          if (h == CG_NO_ID)
            {
              g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "too many functions");
              return NULL;
            }
          copy_attributes (g, h, from, f);
          g_hash_table_insert (copies, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (h));
        }
      new_frame[x] = cg_tree_ensure_child (split, p == CG_NO_ID ? CG_NO_ID : new_frame[p], h);
      if (new_frame[x] == CG_NO_ID)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "too many frames");
          return NULL;
        }
      const CgValue *c0 = cg_tree_self_const (tree, x);
      if (!cg_values_add (kinds, cg_tree_self (split, new_frame[x]), c0, ne)
          || !cg_values_add (kinds, cg_graph_self (g, h), c0, ne))
        return overflow (error), NULL;
    }
  return cost_tree (out, split, error) ? g_steal_pointer (&out) : NULL;
}

gboolean
cg_tree_roots_are_split (CgProfile *profile)
{
  CgTree *tree = cg_profile_tree (profile);
  CgGraph *g = cg_profile_graph (profile);
  gboolean any = FALSE;
  for (CgFrameId x = 0; tree && x < cg_tree_n_frames (tree); x++)
    if (cg_tree_parent (tree, x) == CG_NO_ID)
      {
        if (!cg_split_root_parse (g, cg_tree_function (tree, x), NULL, NULL, NULL))
          return FALSE;
        any = TRUE;
      }
  return any;
}
