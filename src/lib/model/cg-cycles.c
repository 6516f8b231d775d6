/* cg-cycles.c — cycles as a per-function number plus member lists. */
#include "config.h"

#include "cg-cycles.h"

#include <stdlib.h>

#include "cg-error.h"

typedef struct {
  CgFunctionId head;
  guint start; /* into members */
  guint n;
} CycleRec;

struct _CgCycles {
  guint n_functions;
  guint32 *cycle_of;  /* per function, 0 = none */
  GArray *cycles;     /* CycleRec, index = number - 1 */
  GArray *members;    /* CgFunctionId */
};

CgCycles *
cg_cycles_new (guint n_functions)
{
  CgCycles *c = g_new0 (CgCycles, 1);
  c->n_functions = n_functions;
  c->cycle_of = g_new0 (guint32, MAX (n_functions, 1));
  c->cycles = g_array_new (FALSE, FALSE, sizeof (CycleRec));
  c->members = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  return c;
}

void
cg_cycles_free (CgCycles *c)
{
  if (c == NULL)
    return;
  g_free (c->cycle_of);
  g_array_unref (c->cycles);
  g_array_unref (c->members);
  g_free (c);
}

static int
compare_ids (gconstpointer a, gconstpointer b)
{
  CgFunctionId x = *(const CgFunctionId *) a, y = *(const CgFunctionId *) b;
  return (x > y) - (x < y);
}

gboolean
cg_cycles_add (CgCycles *c, CgFunctionId head, const CgFunctionId *members, guint n, GError **error)
{
  guint number = c->cycles->len + 1;
  if (n < 2)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_PARSE, "cycle %u has fewer than two members", number);
      return FALSE;
    }
  gboolean head_found = FALSE;
  for (guint i = 0; i < n; i++)
    {
      if (members[i] >= c->n_functions || c->cycle_of[members[i]] != 0)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_PARSE,
                       "cycle %u: member %u is not a function or already in a cycle", number,
                       members[i]);
          /* undo the marks made so far */
          for (guint j = 0; j < i; j++)
            c->cycle_of[members[j]] = 0;
          return FALSE;
        }
      c->cycle_of[members[i]] = number;
      head_found |= members[i] == head;
    }
  if (!head_found)
    {
      for (guint j = 0; j < n; j++)
        c->cycle_of[members[j]] = 0;
      g_set_error (error, CG_ERROR, CG_ERROR_PARSE, "cycle %u: head %u is not a member", number,
                   head);
      return FALSE;
    }
  CycleRec rec = { head, c->members->len, n };
  g_array_append_vals (c->members, members, n);
  qsort (&g_array_index (c->members, CgFunctionId, rec.start), n, sizeof (CgFunctionId),
         compare_ids);
  g_array_append_val (c->cycles, rec);
  return TRUE;
}

CgCycles *
cg_cycles_find (CgGraph *g, CgArcFilter filter, gpointer user_data)
{
  g_autoptr (CgScc) scc = cg_scc_find (g, filter, user_data);
  guint n = cg_graph_n_functions (g);
  CgCycles *c = cg_cycles_new (n);
  /* number the non-trivial components by their heads' indexes */
  g_autofree guint32 *number_of_component = g_new0 (guint32, MAX (scc->n_components, 1));
  for (CgFunctionId f = 0; f < n; f++)
    {
      guint32 k = scc->component_of[f];
      if (scc->size[k] > 1 && scc->head[k] == f)
        {
          number_of_component[k] = c->cycles->len + 1;
          CycleRec rec = { f, 0, scc->size[k] };
          g_array_append_val (c->cycles, rec);
        }
    }
  /* members in function order: counting placement */
  guint start = 0;
  for (guint i = 0; i < c->cycles->len; i++)
    {
      CycleRec *rec = &g_array_index (c->cycles, CycleRec, i);
      rec->start = start;
      start += rec->n;
    }
  g_array_set_size (c->members, start);
  g_autofree guint *fill = g_new0 (guint, MAX (c->cycles->len, 1));
  for (CgFunctionId f = 0; f < n; f++)
    {
      guint32 number = number_of_component[scc->component_of[f]];
      if (number == 0)
        continue;
      c->cycle_of[f] = number;
      CycleRec *rec = &g_array_index (c->cycles, CycleRec, number - 1);
      g_array_index (c->members, CgFunctionId, rec->start + fill[number - 1]++) = f;
    }
  return c;
}

guint
cg_cycles_count (const CgCycles *c)
{
  return c->cycles->len;
}

guint
cg_cycles_n_functions (const CgCycles *c)
{
  return c->n_functions;
}

guint
cg_cycles_cycle_of (const CgCycles *c, CgFunctionId f)
{
  g_assert (f < c->n_functions);
  return c->cycle_of[f];
}

const CgFunctionId *
cg_cycles_members (const CgCycles *c, guint number, guint *n_members)
{
  g_assert (number >= 1 && number <= c->cycles->len);
  CycleRec *rec = &g_array_index (c->cycles, CycleRec, number - 1);
  *n_members = rec->n;
  return &g_array_index (c->members, CgFunctionId, rec->start);
}

CgFunctionId
cg_cycles_head (const CgCycles *c, guint number)
{
  g_assert (number >= 1 && number <= c->cycles->len);
  return g_array_index (c->cycles, CycleRec, number - 1).head;
}
