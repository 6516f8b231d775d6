/* cg-spivey.c — one pass over the contexts per result. */
#include "config.h"

#include "cg-spivey.h"

#include <string.h>

#include "cg-names.h"
#include "cg-error.h"

static gboolean
overflow (GError **error)
{
  g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "a cost exceeds the range of 64-bit counters");
  return FALSE;
}

static CgContexts *
contexts_or_error (CgProfile *p, GError **error)
{
  CgContexts *c = cg_profile_contexts (p);
  if (c == NULL)
    g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED,
                 "the profile has no contexts (they come from amon.out files)");
  return c;
}

CgCosts *
cg_spivey_compute (CgProfile *p, GError **error)
{
  CgContexts *cx = contexts_or_error (p, error);
  if (cx == NULL)
    return NULL;
  CgGraph *g = cg_profile_graph (p);
  guint nk = cg_contexts_n (cx), ne = cg_graph_n_events (g), nf = cg_graph_n_functions (g);

  /* every item's arcs exist before the result is sized */
  for (CgContextId k = 0; k < nk; k++)
    {
      guint n;
      const CgFunctionId *s = cg_contexts_functions (cx, k, &n);
      const guint8 *m = cg_contexts_marks (cx, k);
      for (guint i = 0; i + 1 < n; i++)
        if ((m[i] || m[i + 1]) && cg_graph_ensure_arc (g, s[i], s[i + 1]) == CG_NO_ID)
          return overflow (error), NULL;
    }
  const CgKind *kinds = cg_graph_event_kinds (g);
  g_autoptr (CgCosts) c = cg_costs_new (CG_METHOD_EXACT, g);
  g_autofree guint32 *stamp = g_new0 (guint32, MAX (nf, 1));
  for (CgContextId k = 0; k < nk; k++)
    {
      guint n;
      const CgFunctionId *s = cg_contexts_functions (cx, k, &n);
      const guint8 *m = cg_contexts_marks (cx, k);
      const CgValue *t = cg_contexts_cost_const (cx, k);
      CgFunctionId running = s[n - 1];
      for (guint i = 0; i < n; i++)
        {
          if (stamp[s[i]] != k + 1)
            {
              stamp[s[i]] = k + 1;
              if (!cg_values_add (kinds, cg_costs_total (c, s[i]), t, ne))
                return overflow (error), NULL;
            }
          if (!m[i])
            continue;
          if (i + 1 < n)
            {
              CgArcId a = cg_graph_lookup_arc (g, s[i], s[i + 1]);
              CgValue *dst = s[i + 1] == running ? cg_costs_arc_self (c, a) : cg_costs_arc_children (c, a);
              if (!cg_values_add (kinds, dst, t, ne) || !cg_values_add (kinds, cg_costs_arc (c, a), t, ne))
                return overflow (error), NULL;
            }
          if (i > 0)
            {
              CgArcId a = cg_graph_lookup_arc (g, s[i - 1], s[i]);
              CgValue *dst = s[i] == running ? cg_costs_arc_self2 (c, a) : cg_costs_arc_children2 (c, a);
              if (!cg_values_add (kinds, dst, t, ne))
                return overflow (error), NULL;
            }
        }
    }
  /* both splits present even when no context had an item for them */
  if (cg_graph_n_arcs (g) > 0)
    {
      (void) cg_costs_arc_self (c, 0);
      (void) cg_costs_arc_self2 (c, 0);
    }
  return g_steal_pointer (&c);
}

gboolean
cg_spivey_entering (CgProfile *p, CgValue *arcs, CgValue *spontaneous, GError **error)
{
  CgContexts *cx = contexts_or_error (p, error);
  if (cx == NULL)
    return FALSE;
  CgGraph *g = cg_profile_graph (p);
  guint nk = cg_contexts_n (cx), ne = cg_graph_n_events (g), nf = cg_graph_n_functions (g);
  const CgKind *kinds = cg_graph_event_kinds (g);
  g_autofree guint32 *stamp = g_new0 (guint32, MAX (nf, 1));
  for (CgContextId k = 0; k < nk; k++)
    {
      guint n;
      const CgFunctionId *s = cg_contexts_functions (cx, k, &n);
      const guint8 *m = cg_contexts_marks (cx, k);
      const CgValue *t = cg_contexts_cost_const (cx, k);
      for (guint i = 0; i < n; i++)
        {
          if (stamp[s[i]] == k + 1)
            continue;
          stamp[s[i]] = k + 1;
          CgArcId a = i > 0 ? cg_graph_lookup_arc (g, s[i - 1], s[i]) : CG_NO_ID;
          /* the marked entry's incoming arc is in the graph */
          for (guint j = i; i > 0 && a == CG_NO_ID && j < n; j++)
            if (m[j] && s[j] == s[i])
              a = cg_graph_lookup_arc (g, s[j - 1], s[j]);
          CgValue *dst = a != CG_NO_ID ? &arcs[(gsize) a * ne] : spontaneous ? &spontaneous[(gsize) s[i] * ne] : NULL;
          if (dst && !cg_values_add (kinds, dst, t, ne))
            return overflow (error);
        }
    }
  return TRUE;
}

/* ---- traversed cycles ---- */

typedef struct {
  GArray *members;   /* CgFunctionId, sorted */
  CgValue *cost;
  guint64 traversals;
  guint32 stamp;     /* last context that counted it */
} Cycle;

static void
clear_traversed (gpointer p)
{
  CgTraversedCycle *t = p;
  g_free (t->members);
  g_free (t->cost);
}

static gint
compare_ids (gconstpointer a, gconstpointer b)
{
  CgFunctionId x = *(const CgFunctionId *) a, y = *(const CgFunctionId *) b;
  return (x > y) - (x < y);
}

/* The key of the set of distinct functions of s[j..i-1]. */
static char *
cycle_key (const CgFunctionId *s, guint j, guint i, GArray *scratch)
{
  g_array_set_size (scratch, 0);
  g_array_append_vals (scratch, s + j, i - j);
  g_array_sort (scratch, compare_ids);
  GString *key = g_string_new (NULL);
  for (guint x = 0; x < scratch->len; x++)
    {
      CgFunctionId f = g_array_index (scratch, CgFunctionId, x);
      if (x > 0 && f == g_array_index (scratch, CgFunctionId, x - 1))
        continue;
      g_string_append_printf (key, "%u ", f);
    }
  return g_string_free (key, FALSE);
}

typedef struct {
  CgKind kind;
} Order;

static gint
by_cost (gconstpointer a, gconstpointer b, gpointer data)
{
  const CgTraversedCycle *x = a, *y = b;
  const Order *o = data;
  int c = 0;
  if (x->cost && y->cost)
    c = cg_value_compare (o->kind, y->cost[0], x->cost[0]);
  if (c == 0)
    c = (y->traversals > x->traversals) - (y->traversals < x->traversals);
  for (guint i = 0; c == 0 && i < x->n_members && i < y->n_members; i++)
    c = compare_ids (&x->members[i], &y->members[i]);
  if (c == 0)
    c = (x->n_members > y->n_members) - (x->n_members < y->n_members);
  return c;
}

GArray *
cg_spivey_traversed_cycles (CgProfile *p, GError **error)
{
  CgContexts *cx = contexts_or_error (p, error);
  if (cx == NULL)
    return NULL;
  CgGraph *g = cg_profile_graph (p);
  guint nk = cg_contexts_n (cx), ne = cg_graph_n_events (g);
  const CgKind *kinds = cg_graph_event_kinds (g);
  g_autoptr (GHashTable) cycles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) order = g_ptr_array_new ();
  g_autoptr (GArray) scratch = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  g_autoptr (GHashTable) last = g_hash_table_new (g_direct_hash, g_direct_equal);
  gboolean ok = TRUE;
  for (CgContextId k = 0; k < nk && ok; k++)
    {
      guint n;
      const CgFunctionId *s = cg_contexts_functions (cx, k, &n);
      const CgValue *t = cg_contexts_cost_const (cx, k);
      g_hash_table_remove_all (last);
      for (guint i = 0; i < n && ok; i++)
        {
          gpointer j1 = g_hash_table_lookup (last, GUINT_TO_POINTER (s[i] + 1));
          g_hash_table_insert (last, GUINT_TO_POINTER (s[i] + 1), GUINT_TO_POINTER (i + 1));
          if (j1 == NULL)
            continue;
          guint j = GPOINTER_TO_UINT (j1) - 1;
          char *key = cycle_key (s, j, i, scratch);
          Cycle *cy = g_hash_table_lookup (cycles, key);
          if (cy == NULL)
            {
              cy = g_new0 (Cycle, 1);
              cy->members = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
              for (guint x = 0; x < scratch->len; x++)
                if (x == 0 || g_array_index (scratch, CgFunctionId, x) != g_array_index (scratch, CgFunctionId, x - 1))
                  g_array_append_val (cy->members, g_array_index (scratch, CgFunctionId, x));
              cy->cost = g_new0 (CgValue, MAX (ne, 1));
              g_hash_table_insert (cycles, key, cy);
              g_ptr_array_add (order, cy);
            }
          else
            g_free (key);
          if (cy->stamp != k + 1)
            {
              cy->stamp = k + 1;
              ok = cg_values_add (kinds, cy->cost, t, ne);
            }
          if (i == n - 1)
            {
              guint64 e = cg_contexts_entries (cx, k);
              ok = ok && cy->traversals <= G_MAXUINT64 - e;
              if (ok)
                cy->traversals += e;
            }
        }
    }
  GArray *out = g_array_new (FALSE, FALSE, sizeof (CgTraversedCycle));
  g_array_set_clear_func (out, clear_traversed);
  for (guint i = 0; i < order->len; i++)
    {
      Cycle *cy = g_ptr_array_index (order, i);
      CgTraversedCycle t = { NULL, cy->members->len, cy->cost, cy->traversals };
      t.members = (CgFunctionId *) (void *) g_array_free (cy->members, FALSE);
      g_array_append_val (out, t);
      g_free (cy);
    }
  if (!ok)
    {
      g_array_unref (out);
      return overflow (error), NULL;
    }
  Order o = { ne ? kinds[0] : CG_KIND_INTEGER };
  g_array_sort_with_data (out, by_cost, &o);
  return out;
}
