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
      /* the arc into s[i] when entry i-1 was marked: looked up then as
       * its outgoing arc (each lookup a walk of scattered memory, most of
       * cgcost's time over a large amon.out) */
      CgArcId into = CG_NO_ID;
      for (guint i = 0; i < n; i++)
        {
          CgArcId in_arc = into;
          into = CG_NO_ID;
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
              CgArcId a = into = cg_graph_lookup_arc (g, s[i], s[i + 1]);
              CgValue *dst = s[i + 1] == running ? cg_costs_arc_self (c, a) : cg_costs_arc_children (c, a);
              if (!cg_values_add (kinds, dst, t, ne) || !cg_values_add (kinds, cg_costs_arc (c, a), t, ne))
                return overflow (error), NULL;
            }
          if (i > 0)
            {
              CgArcId a = in_arc != CG_NO_ID ? in_arc : cg_graph_lookup_arc (g, s[i - 1], s[i]);
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

/* The cycle s[j..n-1] closed by the running routine s[n-1] (its earlier
 * entry s[j]): found or made. */
static Cycle *
closed_cycle (GHashTable *cycles, GPtrArray *order, GArray *by_member, const CgFunctionId *s, guint j, guint n,
              GArray *scratch, guint ne)
{
  char *key = cycle_key (s, j, n - 1, scratch);
  Cycle *cy = g_hash_table_lookup (cycles, key);
  if (cy != NULL)
    {
      g_free (key);
      return cy;
    }
  cy = g_new0 (Cycle, 1);
  cy->members = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  for (guint x = 0; x < scratch->len; x++)
    if (x == 0 || g_array_index (scratch, CgFunctionId, x) != g_array_index (scratch, CgFunctionId, x - 1))
      {
        CgFunctionId f = g_array_index (scratch, CgFunctionId, x);
        g_array_append_val (cy->members, f);
        GPtrArray *list = g_array_index (by_member, GPtrArray *, f);
        if (list == NULL)
          list = g_array_index (by_member, GPtrArray *, f) = g_ptr_array_new ();
        g_ptr_array_add (list, cy);
      }
  cy->cost = g_new0 (CgValue, MAX (ne, 1));
  g_hash_table_insert (cycles, key, cy);
  g_ptr_array_add (order, cy);
  return cy;
}

static gboolean
is_member (const Cycle *cy, CgFunctionId f)
{
  const CgFunctionId *m = (const CgFunctionId *) (void *) cy->members->data;
  guint lo = 0, hi = cy->members->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (m[mid] == f)
        return TRUE;
      if (m[mid] < f)
        lo = mid + 1;
      else
        hi = mid;
    }
  return FALSE;
}

/* Whether @cy may be the cycle open between s[j] and its later entry
 * s[i] of a history whose functions' last positions are @last: what the
 * history still holds of it, s[j..i-1], is in @cy, and every member was
 * active since s[j] (its entry, or a later one, at j or after: A4 drops
 * only entries whose function recurs later). */
static gboolean
may_be_open (const Cycle *cy, const CgFunctionId *s, guint j, guint i, const guint *last)
{
  for (guint x = j; x < i; x++)
    if (!is_member (cy, s[x]))
      return FALSE;
  const CgFunctionId *m = (const CgFunctionId *) (void *) cy->members->data;
  for (guint x = 0; x < cy->members->len; x++)
    if (last[m[x]] == G_MAXUINT || last[m[x]] < j)
      return FALSE;
  return TRUE;
}

static void
free_list (gpointer p)
{
  GPtrArray **list = p;
  if (*list)
    g_ptr_array_unref (*list);
}

GArray *
cg_spivey_traversed_cycles (CgProfile *p, GError **error)
{
  CgContexts *cx = contexts_or_error (p, error);
  if (cx == NULL)
    return NULL;
  CgGraph *g = cg_profile_graph (p);
  guint nk = cg_contexts_n (cx), ne = cg_graph_n_events (g), nf = cg_graph_n_functions (g);
  const CgKind *kinds = cg_graph_event_kinds (g);
  g_autoptr (GHashTable) cycles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) order = g_ptr_array_new ();
  g_autoptr (GArray) scratch = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  /* the cycles each function is a member of */
  g_autoptr (GArray) by_member = g_array_sized_new (FALSE, TRUE, sizeof (GPtrArray *), MAX (nf, 1));
  g_array_set_size (by_member, nf);
  g_array_set_clear_func (by_member, free_list);
  g_autofree guint *last = g_new (guint, MAX (nf, 1));
  g_autofree guint *prev = NULL;
  gboolean ok = TRUE;

  /* The cycles: only those a call went round, closed by the running
   * routine (Spivey: "states where the running routine P also appears as
   * an unmarked entry earlier in the history").  Its earlier entry is its
   * most recent activation, marked until this call and so never dropped
   * by A4, and every function activated since is in the history after it
   * (A4 drops only entries whose function recurs later): the set is the
   * cycle exactly.  An earlier pair of entries of one function may have
   * lost members to A4, so it names no cycle of its own. */
  for (CgContextId k = 0; k < nk && ok; k++)
    {
      guint n;
      const CgFunctionId *s = cg_contexts_functions (cx, k, &n);
      guint j = n - 1;
      while (j-- > 0 && s[j] != s[n - 1])
        ;
      if (j == G_MAXUINT)
        continue;
      Cycle *cy = closed_cycle (cycles, order, by_member, s, j, n, scratch, ne);
      guint64 e = cg_contexts_entries (cx, k);
      ok = cy->traversals <= G_MAXUINT64 - e;
      cy->traversals += ok ? e : 0;
    }

  /* Their costs: every context in which one is open, once each.  Each
   * function that recurs in a history, s[j] then s[i], opened a cycle
   * that was closed at some call (so is listed) and is open still; where
   * A4 dropped some of its members, every listed cycle it may be counts
   * the context. */
  for (guint f = 0; f < nf; f++)
    last[f] = G_MAXUINT;
  for (CgContextId k = 0; k < nk && ok && order->len; k++)
    {
      guint n;
      const CgFunctionId *s = cg_contexts_functions (cx, k, &n);
      const CgValue *t = cg_contexts_cost_const (cx, k);
      prev = g_renew (guint, prev, MAX (n, 1));
      for (guint i = 0; i < n; i++)
        {
          prev[i] = last[s[i]];
          last[s[i]] = i;
        }
      for (guint i = 0; i < n && ok; i++)
        {
          guint j = prev[i];
          GPtrArray *list = g_array_index (by_member, GPtrArray *, s[i]);
          if (j == G_MAXUINT || list == NULL)
            continue;
          for (guint c = 0; c < list->len && ok; c++)
            {
              Cycle *cy = g_ptr_array_index (list, c);
              if (cy->stamp == k + 1 || !may_be_open (cy, s, j, i, last))
                continue;
              cy->stamp = k + 1;
              ok = cg_values_add (kinds, cy->cost, t, ne);
            }
        }
      for (guint i = 0; i < n; i++)
        last[s[i]] = G_MAXUINT;
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
