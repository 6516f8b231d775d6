/* cg-contexts.c — packed histories, an open-addressing index by history. */
#include "config.h"

#include "cg-contexts.h"

#include <string.h>

#include "cg-matrix.h"

typedef struct {
  guint64 offset; /* into functions/marks */
  guint32 len;
  guint32 hash;
  guint64 entries;
  guint64 recursive;
} ContextRec;

struct _CgContexts {
  GArray *recs;       /* ContextRec */
  GArray *functions;  /* CgFunctionId, all histories packed */
  GArray *marks;      /* guint8, parallel to functions */
  CgMatrix cost;      /* n_contexts × n_events */
  CgEvents *events;   /* the graph's schema, shared: keeps the matrix in step */
  guint32 *index;     /* open addressing: context + 1, 0 empty */
  guint32 index_mask;
};

CgContexts *
cg_contexts_new (const CgGraph *graph)
{
  CgContexts *c = g_new0 (CgContexts, 1);
  c->recs = g_array_new (FALSE, FALSE, sizeof (ContextRec));
  c->functions = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  c->marks = g_array_new (FALSE, FALSE, sizeof (guint8));
  cg_matrix_init (&c->cost, 0);
  c->index_mask = 1023;
  c->index = g_new0 (guint32, c->index_mask + 1);
  c->events = cg_events_ref (cg_graph_events (graph));
  while (c->cost.cols < cg_events_n (c->events))
    cg_matrix_add_column (&c->cost);
  cg_events_attach (c->events, &c->cost);
  return c;
}

void
cg_contexts_free (CgContexts *c)
{
  if (c == NULL)
    return;
  g_array_unref (c->recs);
  g_array_unref (c->functions);
  g_array_unref (c->marks);
  cg_matrix_clear (&c->cost);
  cg_events_detach (c->events, &c->cost);
  cg_events_unref (c->events);
  g_free (c->index);
  g_free (c);
}

guint
cg_contexts_n (const CgContexts *c)
{
  return c->recs->len;
}

guint
cg_contexts_n_events (const CgContexts *c)
{
  return cg_events_n (c->events);
}

/* The longest history checked with a table on the stack; a longer one
 * (only a hostile file or a deep mutual recursion) gets a GHashTable. */
#define HISTORY_STACK_MAX 512

/* Whether @f was seen already in @slots (an open-addressing set of
 * function ids + 1, 0 empty, 2^@bits of them), adding it when not. */
static inline gboolean
seen_before (guint32 *slots, guint bits, CgFunctionId f)
{
  guint32 mask = (1u << bits) - 1, key = f + 1;
  for (guint32 i = (f * 0x9E3779B1u) >> (32 - bits);; i = (i + 1) & mask)
    {
      if (slots[i] == key)
        return TRUE;
      if (slots[i] == 0)
        {
          slots[i] = key;
          return FALSE;
        }
    }
}

gboolean
cg_contexts_check_history (const CgFunctionId *f, const guint8 *m, guint len, const char **why)
{
  if (len == 0)
    {
      *why = "an empty history";
      return FALSE;
    }
  if (len >= 2 && f[len - 1] == f[len - 2])
    {
      *why = "the running routine repeats the one before it (direct recursion keeps the context)";
      return FALSE;
    }
  /* from the end: the first occurrence seen is the last one, marked.
   * The set of routines seen is a table on the stack for all but
   * hostile histories: a GHashTable made and freed for each of millions
   * of contexts was a sixth of the time cgmerge took over an amon.out of
   * 500 MB. */
  guint32 slots[2 * HISTORY_STACK_MAX];
  guint bits = 1;
  while ((1u << bits) < 2 * len && bits < 31)
    bits++;
  g_autoptr (GHashTable) seen = NULL;
  if (len > HISTORY_STACK_MAX)
    seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  else
    memset (slots, 0, sizeof (guint32) << bits);
  for (guint i = len; i-- > 0;)
    {
      gboolean later;
      if (seen)
        {
          later = g_hash_table_contains (seen, GUINT_TO_POINTER (f[i] + 1));
          g_hash_table_add (seen, GUINT_TO_POINTER (f[i] + 1));
        }
      else
        later = seen_before (slots, bits, f[i]);
      if (!later && !m[i])
        {
          *why = "a routine's last entry is unmarked";
          return FALSE;
        }
      if (later && m[i])
        {
          *why = "a routine is marked at an entry that is not its last";
          return FALSE;
        }
    }
  return TRUE;
}

static guint32
history_hash (const CgFunctionId *f, const guint8 *m, guint len)
{
  guint64 x = 0xcbf29ce484222325ULL ^ len;
  for (guint i = 0; i < len; i++)
    x = (x ^ ((guint64) f[i] << 1 | (m[i] != 0))) * 0x100000001b3ULL;
  return (guint32) (x ^ (x >> 32));
}

static gboolean
same_history (const CgContexts *c, const ContextRec *r, const CgFunctionId *f, const guint8 *m, guint len)
{
  if (r->len != len)
    return FALSE;
  const CgFunctionId *rf = &g_array_index (c->functions, CgFunctionId, r->offset);
  const guint8 *rm = &g_array_index (c->marks, guint8, r->offset);
  for (guint i = 0; i < len; i++)
    if (rf[i] != f[i] || (rm[i] != 0) != (m[i] != 0))
      return FALSE;
  return TRUE;
}

static void
grow_index (CgContexts *c)
{
  guint32 size = (c->index_mask + 1) * 2;
  guint32 *index = g_new0 (guint32, size);
  for (guint k = 0; k < c->recs->len; k++)
    {
      guint32 j = g_array_index (c->recs, ContextRec, k).hash & (size - 1);
      while (index[j])
        j = (j + 1) & (size - 1);
      index[j] = k + 1;
    }
  g_free (c->index);
  c->index = index;
  c->index_mask = size - 1;
}

CgContextId
cg_contexts_ensure (CgContexts *c, const CgFunctionId *f, const guint8 *m, guint len)
{
  guint32 hash = history_hash (f, m, len);
  guint32 j = hash & c->index_mask;
  for (; c->index[j]; j = (j + 1) & c->index_mask)
    {
      const ContextRec *r = &g_array_index (c->recs, ContextRec, c->index[j] - 1);
      if (r->hash == hash && same_history (c, r, f, m, len))
        return c->index[j] - 1;
    }
  if (c->recs->len >= CG_NO_ID - 1)
    return CG_NO_ID;
  ContextRec rec = { c->functions->len, len, hash, 0, 0 };
  g_array_append_vals (c->functions, f, len);
  for (guint i = 0; i < len; i++)
    {
      guint8 b = m[i] != 0;
      g_array_append_val (c->marks, b);
    }
  g_array_append_val (c->recs, rec);
  cg_matrix_set_rows (&c->cost, c->recs->len);
  c->index[j] = c->recs->len;
  if ((guint64) c->recs->len * 2 > c->index_mask + 1)
    grow_index (c);
  return c->recs->len - 1;
}

const CgFunctionId *
cg_contexts_functions (const CgContexts *c, CgContextId k, guint *len)
{
  const ContextRec *r = &g_array_index (c->recs, ContextRec, k);
  *len = r->len;
  return &g_array_index (c->functions, CgFunctionId, r->offset);
}

const guint8 *
cg_contexts_marks (const CgContexts *c, CgContextId k)
{
  return &g_array_index (c->marks, guint8, g_array_index (c->recs, ContextRec, k).offset);
}

CgValue *
cg_contexts_cost (CgContexts *c, CgContextId k)
{
  g_assert (k < c->recs->len);
  return cg_matrix_row (&c->cost, k);
}

const CgValue *
cg_contexts_cost_const (const CgContexts *c, CgContextId k)
{
  g_assert (k < c->recs->len);
  return cg_matrix_row (&c->cost, k);
}

guint64
cg_contexts_entries (const CgContexts *c, CgContextId k)
{
  return g_array_index (c->recs, ContextRec, k).entries;
}

guint64
cg_contexts_recursive (const CgContexts *c, CgContextId k)
{
  return g_array_index (c->recs, ContextRec, k).recursive;
}

gboolean
cg_contexts_add_counts (CgContexts *c, CgContextId k, guint64 entries, guint64 recursive)
{
  ContextRec *r = &g_array_index (c->recs, ContextRec, k);
  if (r->entries > G_MAXUINT64 - entries || r->recursive > G_MAXUINT64 - recursive)
    return FALSE;
  r->entries += entries;
  r->recursive += recursive;
  return TRUE;
}

gboolean
cg_contexts_remap_functions (CgContexts **contexts, const CgGraph *graph, const CgFunctionId *map)
{
  CgContexts *old = *contexts;
  g_autoptr (CgContexts) c = cg_contexts_new (graph);
  g_autoptr (GArray) f = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  g_autoptr (GArray) m = g_array_new (FALSE, FALSE, sizeof (guint8));
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint ne = cg_events_n (old->events);
  for (CgContextId k = 0; k < old->recs->len; k++)
    {
      guint len;
      const CgFunctionId *h = cg_contexts_functions (old, k, &len);
      g_array_set_size (f, 0);
      for (guint i = 0; i < len; i++)
        {
          CgFunctionId x = map[h[i]];
          if (f->len == 0 || g_array_index (f, CgFunctionId, f->len - 1) != x)
            g_array_append_val (f, x);
        }
      g_array_set_size (m, f->len);
      g_hash_table_remove_all (seen);
      for (guint i = f->len; i-- > 0;)
        {
          CgFunctionId x = g_array_index (f, CgFunctionId, i);
          g_array_index (m, guint8, i) = !g_hash_table_contains (seen, GUINT_TO_POINTER (x + 1));
          g_hash_table_add (seen, GUINT_TO_POINTER (x + 1));
        }
      CgContextId n = cg_contexts_ensure (c, (const CgFunctionId *) f->data, (const guint8 *) m->data, f->len);
      if (n == CG_NO_ID
          || !cg_values_add (cg_events_kinds (old->events), cg_contexts_cost (c, n), cg_contexts_cost_const (old, k), ne)
          || !cg_contexts_add_counts (c, n, cg_contexts_entries (old, k), cg_contexts_recursive (old, k)))
        return FALSE;
    }
  cg_contexts_free (old);
  *contexts = g_steal_pointer (&c);
  return TRUE;
}
