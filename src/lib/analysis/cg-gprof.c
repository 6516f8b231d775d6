/* cg-gprof.c — gprof's cg_assemble, step by step, on the graph's arrays. */
#include "config.h"

#include "cg-gprof.h"

#include <string.h>

#include "cg-contexts.h"
#include "cg-csr.h"
#include "cg-error.h"

/* ---- specs (gprof's sym_ids.c) ---- */

typedef struct {
  char *file;  /* nullable */
  char *name;  /* nullable */
  guint line;  /* 0 = any */
} Pattern;

typedef struct {
  CgGprofTable table;
  Pattern left, right;
  gboolean has_right;
} Spec;

struct _CgGprofSpecs {
  GArray *specs; /* Spec */
};

static const char *const default_excluded[] = {
  "_gprof_mcount", "mcount", "_mcount", "__mcount", "__mcount_internal", "__mcleanup",
};

static void
parse_pattern (const char *s, Pattern *p)
{
  memset (p, 0, sizeof *p);
  const char *colon = strrchr (s, ':');
  const char *rest = s;
  if (colon)
    {
      if (colon > s)
        p->file = g_strndup (s, (gsize) (colon - s));
      rest = colon + 1;
      if (*rest == '\0')
        return;
    }
  else if (strchr (s, '.'))
    {
      p->file = g_strdup (s);
      return;
    }
  if (*rest == '\0')
    return;
  if (g_ascii_isdigit (*rest))
    p->line = (guint) g_ascii_strtoull (rest, NULL, 10);
  else
    p->name = g_strdup (rest);
}

CgGprofSpecs *
cg_gprof_specs_new (void)
{
  CgGprofSpecs *s = g_new0 (CgGprofSpecs, 1);
  s->specs = g_array_new (FALSE, TRUE, sizeof (Spec));
  for (guint i = 0; i < G_N_ELEMENTS (default_excluded); i++)
    {
      cg_gprof_specs_add (s, CG_GPROF_EXCL_TIME, default_excluded[i]);
      cg_gprof_specs_add (s, CG_GPROF_EXCL_GRAPH, default_excluded[i]);
      cg_gprof_specs_add (s, CG_GPROF_EXCL_FLAT, default_excluded[i]);
    }
  return s;
}

static void
clear_pattern (Pattern *p)
{
  g_free (p->file);
  g_free (p->name);
}

void
cg_gprof_specs_free (CgGprofSpecs *s)
{
  if (s == NULL)
    return;
  for (guint i = 0; i < s->specs->len; i++)
    {
      Spec *sp = &g_array_index (s->specs, Spec, i);
      clear_pattern (&sp->left);
      clear_pattern (&sp->right);
    }
  g_array_unref (s->specs);
  g_free (s);
}

void
cg_gprof_specs_add (CgGprofSpecs *s, CgGprofTable table, const char *spec)
{
  Spec sp = { table, { 0 }, { 0 }, FALSE };
  const char *slash = strchr (spec, '/');
  if (slash)
    {
      g_autofree char *left = g_strndup (spec, (gsize) (slash - spec));
      parse_pattern (left, &sp.left);
      parse_pattern (slash + 1, &sp.right);
      sp.has_right = TRUE;
    }
  else
    parse_pattern (spec, &sp.left);
  g_array_append_val (s->specs, sp);
}

gboolean
cg_gprof_specs_add_option (CgGprofSpecs *s, char option, const char *spec)
{
  gboolean arc = strchr (spec, '/') != NULL;
  switch (option)
    {
    case 'E':
      cg_gprof_specs_add (s, CG_GPROF_EXCL_TIME, spec);
      cg_gprof_specs_add (s, CG_GPROF_EXCL_GRAPH, spec);
      return TRUE;
    case 'e':
      cg_gprof_specs_add (s, CG_GPROF_EXCL_GRAPH, spec);
      return TRUE;
    case 'F':
      cg_gprof_specs_add (s, CG_GPROF_INCL_TIME, spec);
      cg_gprof_specs_add (s, CG_GPROF_INCL_GRAPH, spec);
      return TRUE;
    case 'f':
      cg_gprof_specs_add (s, CG_GPROF_INCL_GRAPH, spec);
      return TRUE;
    case 'k':
      cg_gprof_specs_add (s, CG_GPROF_EXCL_ARCS, spec);
      return TRUE;
    case 'n':
      cg_gprof_specs_add (s, CG_GPROF_INCL_TIME, spec);
      return TRUE;
    case 'N':
      cg_gprof_specs_add (s, CG_GPROF_EXCL_TIME, spec);
      return TRUE;
    case 'p':
      cg_gprof_specs_add (s, CG_GPROF_INCL_FLAT, spec);
      return TRUE;
    case 'P':
      cg_gprof_specs_add (s, CG_GPROF_EXCL_FLAT, spec);
      return TRUE;
    case 'q':
      cg_gprof_specs_add (s, arc ? CG_GPROF_INCL_ARCS : CG_GPROF_INCL_GRAPH, spec);
      return TRUE;
    case 'Q':
      cg_gprof_specs_add (s, arc ? CG_GPROF_EXCL_ARCS : CG_GPROF_EXCL_GRAPH, spec);
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
file_matches (const char *pattern, const char *file)
{
  if (*file == '\0')
    return FALSE;
  if (strcmp (pattern, file) == 0)
    return TRUE;
  const char *base = strrchr (file, '/');
  return base && strcmp (pattern, base + 1) == 0;
}

static gboolean
matches (const Pattern *p, CgGraph *g, CgFunctionId f)
{
  if (p->file && !file_matches (p->file, cg_graph_function_file (g, f)))
    return FALSE;
  if (p->line && p->line != cg_graph_function_line (g, f))
    return FALSE;
  return p->name == NULL || strcmp (p->name, cg_graph_function_name (g, f)) == 0;
}

/* ---- the analysis ---- */

#define UNNUMBERED 0u
#define BUSY G_MAXUINT32
#define NONE G_MAXUINT32

struct _CgGprof {
  CgGraph *graph;
  guint nf, nc;
  GArray *entries;          /* CgGprofEntry, nf + nc */
  CgGprofArc *arcs;         /* per graph arc */
  guint32 *child_start, *child_arcs;   /* kept arcs by caller, gprof order */
  guint32 *parent_start, *parent_arcs; /* kept arcs by callee */
  guint32 *top_order;       /* per function */
  guint32 *next;            /* cycle list links */
  GArray *cycle_first;      /* CgFunctionId per cycle: list head */
  GArray *members;          /* scratch for cg_gprof_members */
  guint *order;             /* nf + nc entries in call-graph order */
  guint8 *in_table[CG_GPROF_N_TABLES];
  gboolean table_used[CG_GPROF_N_TABLES];
  gdouble total_time, print_time, rate;
  guint event;
  guint64 granularity;
  gboolean histogram;       /* the event is the profile's histogram's */
  gboolean exact;           /* from contexts (cg_gprof_new_from_contexts) */
  guint n_contexts;
};

void
cg_gprof_free (CgGprof *gp)
{
  if (gp == NULL)
    return;
  g_array_unref (gp->entries);
  g_free (gp->arcs);
  g_free (gp->child_start);
  g_free (gp->child_arcs);
  g_free (gp->parent_start);
  g_free (gp->parent_arcs);
  g_free (gp->top_order);
  g_free (gp->next);
  g_array_unref (gp->cycle_first);
  g_array_unref (gp->members);
  g_free (gp->order);
  for (guint t = 0; t < CG_GPROF_N_TABLES; t++)
    g_free (gp->in_table[t]);
  g_free (gp);
}

static CgGprofEntry *
entry (CgGprof *gp, guint i)
{
  return &g_array_index (gp->entries, CgGprofEntry, i);
}

/* The entry a function's time flows through: its cycle, or itself. */
static guint
head_entry (CgGprof *gp, CgFunctionId f)
{
  guint c = entry (gp, f)->cycle;
  return c ? gp->nf + c - 1 : f;
}

/* Matches every spec against every function (sym_id_parse). */
static void
match_specs (CgGprof *gp, const CgGprofSpecs *specs, guint8 **arc_left, guint8 **arc_right)
{
  CgGraph *g = gp->graph;
  guint ns = specs->specs->len;
  *arc_left = g_new0 (guint8, (gsize) MAX (ns, 1) * MAX (gp->nf, 1));
  *arc_right = g_new0 (guint8, (gsize) MAX (ns, 1) * MAX (gp->nf, 1));
  for (guint i = 0; i < ns; i++)
    {
      const Spec *sp = &g_array_index (specs->specs, Spec, i);
      for (CgFunctionId f = 0; f < gp->nf; f++)
        {
          if (matches (&sp->left, g, f))
            {
              gp->in_table[sp->table][f] = 1;
              gp->table_used[sp->table] = TRUE;
              (*arc_left)[(gsize) i * gp->nf + f] = 1;
            }
          if (sp->has_right && matches (&sp->right, g, f))
            (*arc_right)[(gsize) i * gp->nf + f] = 1;
        }
    }
}

/* sym_id_arc_is_present: some spec of @table has @caller on its left and
 * @callee on its right. */
static gboolean
arc_in_table (CgGprof *gp, const CgGprofSpecs *specs, CgGprofTable table, const guint8 *left,
              const guint8 *right, CgFunctionId caller, CgFunctionId callee)
{
  for (guint i = 0; i < specs->specs->len; i++)
    {
      const Spec *sp = &g_array_index (specs->specs, Spec, i);
      if (sp->table == table && sp->has_right && left[(gsize) i * gp->nf + caller]
          && right[(gsize) i * gp->nf + callee])
        return TRUE;
    }
  return FALSE;
}

/* Lists of the @n arcs @sequence (in the order gprof added them) per
 * caller and per callee, each in reverse order (gprof prepends every new
 * arc). */
static void
build_lists (CgGprof *gp, const guint32 *sequence, guint n)
{
  CgGraph *g = gp->graph;
  g_autofree guint32 *rev = g_new (guint32, MAX (n, 1) * 2);
  /* cg_csr_build gives positions into rev: map them back to arc ids */
  g_autofree guint32 *ids = g_new (guint32, MAX (n, 1));
  for (guint k = 0; k < n; k++)
    {
      CgArcId a = sequence[n - 1 - k];
      rev[2 * k] = cg_graph_arc_caller (g, a);
      rev[2 * k + 1] = cg_graph_arc_callee (g, a);
      ids[k] = a;
    }
  cg_csr_build (rev, 2 * sizeof (guint32), 0, n, gp->nf, &gp->child_start, &gp->child_arcs);
  cg_csr_build (rev, 2 * sizeof (guint32), sizeof (guint32), n, gp->nf, &gp->parent_start, &gp->parent_arcs);
  for (guint i = 0; i < n; i++)
    {
      gp->child_arcs[i] = ids[gp->child_arcs[i]];
      gp->parent_arcs[i] = ids[gp->parent_arcs[i]];
    }
}

const CgArcId *
cg_gprof_children (const CgGprof *gp, CgFunctionId f, guint *n)
{
  *n = gp->child_start[f + 1] - gp->child_start[f];
  return gp->child_arcs + gp->child_start[f];
}

const CgArcId *
cg_gprof_parents (const CgGprof *gp, CgFunctionId f, guint *n)
{
  *n = gp->parent_start[f + 1] - gp->parent_start[f];
  return gp->parent_arcs + gp->parent_start[f];
}

typedef struct {
  CgFunctionId f;
  guint pos; /* next child to try */
} Frame;

/* Union-find over cycle heads: gprof keeps every member's head up to
 * date by walking lists; a find with path halving gives the same head. */
static guint32
find_head (guint32 *head, guint32 f)
{
  while (head[f] != f)
    {
      head[f] = head[head[f]];
      f = head[f];
    }
  return f;
}

/* gprof's cg_dfn (depth-first numbering and cycle glomming), with an
 * explicit stack.  Fills top_order and the member lists (next). */
static void
number_depth_first (CgGprof *gp)
{
  CgGraph *g = gp->graph;
  guint nf = gp->nf;
  g_autofree guint32 *head = g_new (guint32, MAX (nf, 1));
  g_autofree guint32 *tail = g_new (guint32, MAX (nf, 1));
  g_autofree guint32 *stack_pos = g_new0 (guint32, MAX (nf, 1)); /* position + 1 when on the stack */
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  guint32 counter = 0;
  for (CgFunctionId f = 0; f < nf; f++)
    {
      head[f] = tail[f] = f;
      gp->next[f] = NONE;
      gp->top_order[f] = UNNUMBERED;
    }
  for (CgFunctionId root = 0; root < nf; root++)
    {
      if (gp->top_order[root] != UNNUMBERED)
        continue;
      gp->top_order[root] = BUSY;
      g_array_append_val (stack, ((Frame) { root, 0 }));
      stack_pos[root] = 1;
      while (stack->len > 0)
        {
          Frame *top = &g_array_index (stack, Frame, stack->len - 1);
          CgFunctionId p = top->f;
          if (top->pos < gp->child_start[p + 1] - gp->child_start[p])
            {
              CgArcId a = gp->child_arcs[gp->child_start[p] + top->pos++];
              CgFunctionId c = cg_graph_arc_callee (g, a);
              guint32 t = gp->top_order[c];
              if (t == UNNUMBERED)
                {
                  gp->top_order[c] = BUSY;
                  g_array_append_val (stack, ((Frame) { c, 0 }));
                  stack_pos[c] = stack->len;
                  continue;
                }
              if (t != BUSY)
                continue; /* numbered */
              /* find_cycle: the topmost stack entry that is c, or c's
               * head when c was glommed */
              guint32 h = find_head (head, c);
              guint32 at = stack_pos[c] ? stack_pos[c] : stack_pos[h];
              if (at == 0 || at == stack->len)
                continue; /* a self-call */
              CgFunctionId found = g_array_index (stack, Frame, at - 1).f;
              guint32 cycle_head = find_head (head, found);
              for (guint32 i = at; i < stack->len; i++)
                {
                  CgFunctionId m = g_array_index (stack, Frame, i).f;
                  if (head[m] != m)
                    continue; /* glommed already, into this cycle */
                  gp->next[tail[cycle_head]] = m;
                  tail[cycle_head] = tail[m];
                  head[m] = cycle_head;
                }
              continue;
            }
          /* post_visit: a head numbers itself and its members */
          if (find_head (head, p) == p)
            {
              counter++;
              for (guint32 m = p; m != NONE; m = gp->next[m])
                gp->top_order[m] = counter;
            }
          stack_pos[p] = 0;
          g_array_set_size (stack, stack->len - 1);
        }
    }
}

/* cycle_link: cycles numbered in function order of their heads. */
static void
link_cycles (CgGprof *gp)
{
  CgGraph *g = gp->graph;
  /* a function heads a cycle when it starts a list of two or more; it
   * is the only one of its list that is not linked to */
  g_autofree guint8 *linked = g_new0 (guint8, MAX (gp->nf, 1));
  for (CgFunctionId f = 0; f < gp->nf; f++)
    if (gp->next[f] != NONE)
      linked[gp->next[f]] = 1;
  for (CgFunctionId f = 0; f < gp->nf; f++)
    if (!linked[f] && gp->next[f] != NONE)
      g_array_append_val (gp->cycle_first, f);
  gp->nc = gp->cycle_first->len;
  g_array_set_size (gp->entries, gp->nf + gp->nc);
  for (guint c = 1; c <= gp->nc; c++)
    {
      CgGprofEntry *ce = entry (gp, gp->nf + c - 1);
      memset (ce, 0, sizeof *ce);
      ce->cycle = c;
      ce->print = TRUE;
      CgFunctionId first = g_array_index (gp->cycle_first, CgFunctionId, c - 1);
      for (guint32 m = first; m != NONE; m = gp->next[m])
        entry (gp, m)->cycle = c;
      for (guint32 m = first; m != NONE; m = gp->next[m])
        {
          guint n;
          const CgArcId *in = cg_gprof_parents (gp, m, &n);
          for (guint i = 0; i < n; i++)
            {
              CgFunctionId caller = cg_graph_arc_caller (g, in[i]);
              if (caller == m)
                continue;
              guint64 count = gp->arcs[in[i]].calls;
              if (entry (gp, caller)->cycle == c)
                ce->self_calls += count;
              else
                ce->ncalls += count;
            }
        }
    }
}

static gint
by_top_order (gconstpointer a, gconstpointer b, gpointer data)
{
  const guint32 *top = data;
  guint x = *(const guint *) a, y = *(const guint *) b;
  if (top[x] != top[y])
    return top[x] < top[y] ? -1 : 1;
  return (x > y) - (x < y);
}

/* inherit_flags for a function outside cycles, or for a cycle entry. */
static void
inherit (CgGprof *gp, CgFunctionId child)
{
  CgGraph *g = gp->graph;
  CgGprofEntry *e = entry (gp, child);
  if (e->cycle == 0)
    {
      e->print = FALSE;
      e->fract = 0.0;
      guint n;
      const CgArcId *in = cg_gprof_parents (gp, child, &n);
      for (guint i = 0; i < n; i++)
        {
          CgFunctionId parent = cg_graph_arc_caller (g, in[i]);
          if (parent == child)
            continue;
          CgGprofEntry *pe = entry (gp, parent);
          e->print |= pe->print;
          if (e->ncalls != 0)
            e->fract += pe->fract * ((gdouble) gp->arcs[in[i]].calls / (gdouble) e->ncalls);
        }
      return;
    }
  guint c = e->cycle;
  CgGprofEntry *ce = entry (gp, gp->nf + c - 1);
  ce->print = FALSE;
  ce->fract = 0.0;
  CgFunctionId first = g_array_index (gp->cycle_first, CgFunctionId, c - 1);
  for (guint32 m = first; m != NONE; m = gp->next[m])
    {
      guint n;
      const CgArcId *in = cg_gprof_parents (gp, m, &n);
      for (guint i = 0; i < n; i++)
        {
          CgFunctionId parent = cg_graph_arc_caller (g, in[i]);
          CgGprofEntry *pe = entry (gp, parent);
          if (pe->cycle == c)
            continue;
          ce->print |= pe->print;
          if (ce->ncalls != 0)
            ce->fract += pe->fract * ((gdouble) gp->arcs[in[i]].calls / (gdouble) ce->ncalls);
        }
    }
  for (guint32 m = first; m != NONE; m = gp->next[m])
    {
      entry (gp, m)->print = ce->print;
      entry (gp, m)->fract = ce->fract;
    }
}

static gboolean
in_table (CgGprof *gp, CgGprofTable t, CgFunctionId f)
{
  return gp->in_table[t][f] != 0;
}

/* propagate_flags over the functions in decreasing topological order. */
static void
propagate_flags (CgGprof *gp, const guint *top_sorted)
{
  guint old_head = NONE;
  for (guint i = gp->nf; i-- > 0;)
    {
      CgFunctionId f = top_sorted[i];
      CgGprofEntry *e = entry (gp, f);
      guint h = head_entry (gp, f);
      if (h != old_head)
        {
          old_head = h;
          inherit (gp, f);
        }
      if (!e->print)
        {
          if (in_table (gp, CG_GPROF_INCL_GRAPH, f)
              || (!gp->table_used[CG_GPROF_INCL_GRAPH] && !in_table (gp, CG_GPROF_EXCL_GRAPH, f)))
            e->print = TRUE;
        }
      else if (!in_table (gp, CG_GPROF_INCL_GRAPH, f) && in_table (gp, CG_GPROF_EXCL_GRAPH, f))
        e->print = FALSE;
      if (e->fract == 0.0)
        {
          if (in_table (gp, CG_GPROF_INCL_TIME, f)
              || (!gp->table_used[CG_GPROF_INCL_TIME] && !in_table (gp, CG_GPROF_EXCL_TIME, f)))
            e->fract = 1.0;
        }
      else if (!in_table (gp, CG_GPROF_INCL_TIME, f) && in_table (gp, CG_GPROF_EXCL_TIME, f))
        e->fract = 0.0;
      e->prop_self = e->time * e->fract;
      gp->print_time += e->prop_self;
    }
}

static void
cycle_time (CgGprof *gp)
{
  for (guint c = 1; c <= gp->nc; c++)
    {
      CgGprofEntry *ce = entry (gp, gp->nf + c - 1);
      for (guint32 m = g_array_index (gp->cycle_first, CgFunctionId, c - 1); m != NONE; m = gp->next[m])
        if (entry (gp, m)->fract != 0.0)
          ce->time += entry (gp, m)->time;
      ce->prop_self = ce->fract * ce->time;
    }
}

static void
propagate_time (CgGprof *gp, CgFunctionId parent)
{
  CgGraph *g = gp->graph;
  CgGprofEntry *pe = entry (gp, parent);
  if (pe->fract == 0.0)
    return;
  guint n;
  const CgArcId *out = cg_gprof_children (gp, parent, &n);
  for (guint i = 0; i < n; i++)
    {
      CgArcId a = out[i];
      guint64 count = gp->arcs[a].calls;
      CgFunctionId child = cg_graph_arc_callee (g, a);
      CgGprofEntry *ce = entry (gp, child);
      if (count == 0 || child == parent || ce->fract == 0)
        continue;
      if (ce->cycle != 0)
        {
          if (pe->cycle == ce->cycle)
            continue;
          ce = entry (gp, gp->nf + ce->cycle - 1);
        }
      else if (gp->top_order[parent] <= gp->top_order[child])
        continue; /* cannot happen: callees are numbered first */
      if (ce->ncalls == 0)
        continue;
      CgGprofArc *arc = &gp->arcs[a];
      arc->time = ce->time * ((gdouble) count / (gdouble) ce->ncalls);
      arc->child_time = ce->child_time * ((gdouble) count / (gdouble) ce->ncalls);
      gdouble share = arc->time + arc->child_time;
      pe->child_time += share;
      gdouble prop_share = pe->fract * share;
      pe->prop_child += prop_share;
      arc->time *= pe->fract;
      arc->child_time *= pe->fract;
      if (pe->cycle != 0)
        {
          CgGprofEntry *cyc = entry (gp, gp->nf + pe->cycle - 1);
          cyc->child_time += share;
          cyc->prop_child += prop_share;
        }
    }
}

/* glibc 2.36 msort_with_tmp, on indexes. */
static void
msort_rec (guint *b, gsize n, guint *tmp, GCompareDataFunc cmp, gpointer data)
{
  if (n <= 1)
    return;
  gsize n1 = n / 2, n2 = n - n1;
  guint *b1 = b, *b2 = b + n1;
  msort_rec (b1, n1, tmp, cmp, data);
  msort_rec (b2, n2, tmp, cmp, data);
  guint *t = tmp;
  while (n1 > 0 && n2 > 0)
    {
      if (cmp (b1, b2, data) <= 0)
        {
          *t++ = *b1++;
          n1--;
        }
      else
        {
          *t++ = *b2++;
          n2--;
        }
    }
  if (n1 > 0)
    memcpy (t, b1, n1 * sizeof *b1);
  memcpy (b, tmp, (n - n2) * sizeof *b);
}

void
cg_gprof_msort (guint *items, gsize n, GCompareDataFunc compare, gpointer data)
{
  g_autofree guint *tmp = g_new (guint, MAX (n, 1));
  msort_rec (items, n, tmp, compare, data);
}

/* Demangled C++ names sort with the _Z names they were: so main (100 %)
 * is numbered before the C++ function it calls that takes all of it, as
 * gprof numbered them (a C++ report printed again had them the other way
 * round). */
gboolean
cg_gprof_name_sorts_last (const char *name)
{
  return name[0] == '_' || strchr (name, '(') != NULL;
}

/* gprof's cmp_total: propagated time, then cycles first (two cycles
 * compare "less" both ways: the inconsistency is kept), then names
 * without a leading '_' (cg_gprof_name_sorts_last), more calls, strcmp. */
static gint
cmp_total (gconstpointer a, gconstpointer b, gpointer data)
{
  CgGprof *gp = data;
  guint l = *(const guint *) a, r = *(const guint *) b;
  const CgGprofEntry *le = entry (gp, l), *re = entry (gp, r);
  gdouble diff = (le->prop_self + le->prop_child) - (re->prop_self + re->prop_child);
  if (diff < 0.0)
    return 1;
  if (diff > 0.0)
    return -1;
  if (l >= gp->nf)
    return -1;
  if (r >= gp->nf)
    return 1;
  const char *ln = cg_graph_function_name (gp->graph, l), *rn = cg_graph_function_name (gp->graph, r);
  gboolean l_last = cg_gprof_name_sorts_last (ln), r_last = cg_gprof_name_sorts_last (rn);
  if (!l_last && r_last)
    return -1;
  if (l_last && !r_last)
    return 1;
  if (le->ncalls > re->ncalls)
    return -1;
  if (le->ncalls < re->ncalls)
    return 1;
  return strcmp (ln, rn);
}

/* Index numbers in cmp_total order. */
static void
number_entries (CgGprof *gp)
{
  guint n = gp->nf + gp->nc;
  gp->order = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    gp->order[i] = i;
  cg_gprof_msort (gp->order, n, cmp_total, gp);
  for (guint i = 0; i < n; i++)
    entry (gp, gp->order[i])->index = i + 1;
}

static gdouble
value_of (CgGraph *g, guint event, const CgValue *v)
{
  return cg_value_to_double (cg_graph_event_kind (g, event), v[event]);
}

/* Allocations every CgGprof has, whatever fills it. */
static CgGprof *
gprof_alloc (CgGraph *g, guint event)
{
  CgGprof *gp = g_new0 (CgGprof, 1);
  gp->graph = g;
  gp->nf = cg_graph_n_functions (g);
  gp->entries = g_array_new (FALSE, TRUE, sizeof (CgGprofEntry));
  g_array_set_size (gp->entries, gp->nf);
  gp->arcs = g_new0 (CgGprofArc, MAX (cg_graph_n_arcs (g), 1));
  gp->top_order = g_new0 (guint32, MAX (gp->nf, 1));
  gp->next = g_new (guint32, MAX (gp->nf, 1));
  gp->cycle_first = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  gp->members = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  for (guint t = 0; t < CG_GPROF_N_TABLES; t++)
    gp->in_table[t] = g_new0 (guint8, MAX (gp->nf, 1));
  gp->event = event;
  return gp;
}

CgGprof *
cg_gprof_new (CgProfile *profile, guint event, const CgGprofSpecs *specs)
{
  g_autoptr (CgGprofSpecs) defaults = NULL;
  if (specs == NULL)
    specs = defaults = cg_gprof_specs_new ();
  CgGraph *g = cg_profile_graph (profile);
  CgHistogram *h = cg_profile_histogram (profile);
  g_autoptr (CgGprof) gp = gprof_alloc (g, event);
  guint na = cg_graph_n_arcs (g);
  gboolean gmon = h != NULL && cg_histogram_event (h) == event && cg_histogram_rate (h) > 0;
  gdouble scale = cg_graph_event_scale (g, event);
  gp->rate = gmon ? (gdouble) cg_histogram_rate (h) : scale > 0.0 ? 1.0 / scale : 1.0;
  /* a gprof report of a call graph alone knows the granularity, not the
   * rate */
  gp->granularity = h != NULL && cg_histogram_event (h) == event ? cg_histogram_granularity (h) : 0;
  gp->histogram = h != NULL && cg_histogram_event (h) == event;

  g_autofree guint8 *arc_left = NULL, *arc_right = NULL;
  match_specs (gp, specs, &arc_left, &arc_right);

  /* self times (hist_assign_samples: a function excluded from the flat
   * profile gets no time, and its credit leaves the total) */
  gdouble total = 0.0;
  if (gmon)
    total = (gdouble) cg_histogram_samples (h);
  else
    for (CgFunctionId f = 0; f < gp->nf; f++)
      total += value_of (g, event, cg_graph_self_const (g, f));
  for (CgFunctionId f = 0; f < gp->nf; f++)
    {
      gdouble t = value_of (g, event, cg_graph_self_const (g, f));
      if (in_table (gp, CG_GPROF_INCL_FLAT, f)
          || (!gp->table_used[CG_GPROF_INCL_FLAT] && !in_table (gp, CG_GPROF_EXCL_FLAT, f)))
        entry (gp, f)->time = t;
      else
        total -= t;
    }
  gp->total_time = total;

  /* the arcs in the order gprof adds them: the recorded ones that the
   * arc tables keep (cg_tally), in order of first appearance; then -c's
   * static ones (arc_add, which consults no table), in the order the
   * code scan found them, so that an arc the tables deleted comes back
   * with no calls; then other arcs without calls (static arcs of a
   * document whose scan order is not known here), in arc order */
  g_autofree guint32 *sequence = g_new (guint32, MAX (na, 1));
  guint n_seq = 0;
  for (CgArcId a = 0; a < na; a++)
    {
      guint64 calls = cg_graph_arc_calls (g, a);
      if (calls == 0)
        continue;
      CgFunctionId caller = cg_graph_arc_caller (g, a), callee = cg_graph_arc_callee (g, a);
      if (arc_in_table (gp, specs, CG_GPROF_INCL_ARCS, arc_left, arc_right, caller, callee)
          || (!gp->table_used[CG_GPROF_INCL_ARCS]
              && !arc_in_table (gp, specs, CG_GPROF_EXCL_ARCS, arc_left, arc_right, caller, callee)))
        {
          gp->arcs[a].kept = TRUE;
          gp->arcs[a].calls = calls;
          sequence[n_seq++] = a;
          if (caller == callee)
            entry (gp, callee)->self_calls += calls;
          else
            entry (gp, callee)->ncalls += calls;
        }
    }
  guint n_static = 0;
  const guint32 *static_arcs = h ? cg_histogram_static_arcs (h, &n_static) : NULL;
  for (guint i = 0; i < n_static; i++)
    if (static_arcs[i] < na && !gp->arcs[static_arcs[i]].kept)
      {
        gp->arcs[static_arcs[i]].kept = TRUE;
        sequence[n_seq++] = static_arcs[i];
      }
  for (CgArcId a = 0; a < na; a++)
    if (!gp->arcs[a].kept && cg_graph_arc_calls (g, a) == 0)
      {
        gp->arcs[a].kept = TRUE;
        sequence[n_seq++] = a;
      }
  build_lists (gp, sequence, n_seq);

  number_depth_first (gp);
  link_cycles (gp);

  g_autofree guint *top_sorted = g_new (guint, MAX (gp->nf, 1));
  for (guint i = 0; i < gp->nf; i++)
    top_sorted[i] = i;
  cg_gprof_msort (top_sorted, gp->nf, by_top_order, gp->top_order);
  propagate_flags (gp, top_sorted);
  cycle_time (gp);
  for (guint i = 0; i < gp->nf; i++)
    propagate_time (gp, top_sorted[i]);

  for (CgArcId a = 0; a < na; a++)
    {
      gp->arcs[a].time2 = gp->arcs[a].time;
      gp->arcs[a].child_time2 = gp->arcs[a].child_time;
    }
  number_entries (gp);
  return g_steal_pointer (&gp);
}

CgGprof *
cg_gprof_new_from_contexts (CgProfile *profile, const CgCosts *costs, guint event, GError **error)
{
  CgGraph *g = cg_profile_graph (profile);
  CgContexts *cx = cg_profile_contexts (profile);
  if (cx == NULL || costs == NULL || !cg_costs_has_arc_split (costs) || !cg_costs_has_arc_split2 (costs)
      || cg_costs_n_functions (costs) != cg_graph_n_functions (g) || cg_costs_n_arcs (costs) != cg_graph_n_arcs (g))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED,
                   "gprof's layout of exact results needs Spivey's contexts (amon.out) and their arc costs");
      return NULL;
    }
  g_autoptr (CgGprof) gp = gprof_alloc (g, event);
  guint na = cg_graph_n_arcs (g);
  CgKind kind = cg_graph_event_kind (g, event);
  gdouble scale = cg_graph_event_scale (g, event);
  gp->rate = scale > 0.0 ? 1.0 / scale : 1.0;
  gp->exact = TRUE;
  gp->n_contexts = cg_contexts_n (cx);
  for (CgFunctionId f = 0; f < gp->nf; f++)
    {
      CgGprofEntry *e = entry (gp, f);
      e->time = cg_value_to_double (kind, cg_graph_self_const (g, f)[event]);
      e->child_time = cg_value_to_double (kind, cg_costs_total_const (costs, f)[event]) - e->time;
      e->prop_self = e->time;
      e->prop_child = e->child_time;
      e->fract = 1.0;
      e->print = TRUE;
      gp->next[f] = NONE;
      gp->total_time += e->time;
    }
  gp->print_time = gp->total_time;
  g_autofree guint32 *sequence = g_new (guint32, MAX (na, 1));
  for (CgArcId a = 0; a < na; a++)
    {
      CgGprofArc *arc = &gp->arcs[a];
      arc->kept = TRUE;
      arc->calls = cg_graph_arc_calls (g, a);
      arc->time = cg_value_to_double (kind, cg_costs_arc_self_const (costs, a)[event]);
      arc->child_time = cg_value_to_double (kind, cg_costs_arc_children_const (costs, a)[event]);
      arc->time2 = cg_value_to_double (kind, cg_costs_arc_self2_const (costs, a)[event]);
      arc->child_time2 = cg_value_to_double (kind, cg_costs_arc_children2_const (costs, a)[event]);
      CgFunctionId caller = cg_graph_arc_caller (g, a), callee = cg_graph_arc_callee (g, a);
      if (caller == callee)
        entry (gp, callee)->self_calls += arc->calls;
      else
        entry (gp, callee)->ncalls += arc->calls;
      sequence[a] = a;
    }
  build_lists (gp, sequence, na);
  /* activations at the head of their history: nobody in the profile
   * called them (main, a thread's start) */
  g_autofree CgValue *self = g_new0 (CgValue, MAX (gp->nf, 1));
  g_autofree CgValue *child = g_new0 (CgValue, MAX (gp->nf, 1));
  for (CgContextId k = 0; k < gp->n_contexts; k++)
    {
      guint n;
      const CgFunctionId *h = cg_contexts_functions (cx, k, &n);
      if (!cg_contexts_marks (cx, k)[0])
        continue;
      CgValue *dst = n == 1 ? &self[h[0]] : &child[h[0]];
      if (!cg_value_add (kind, dst, cg_contexts_cost_const (cx, k)[event]))
        {
          g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "a cost exceeds the range of 64-bit counters");
          return NULL;
        }
    }
  for (CgFunctionId f = 0; f < gp->nf; f++)
    {
      entry (gp, f)->spont_self = cg_value_to_double (kind, self[f]);
      entry (gp, f)->spont_child = cg_value_to_double (kind, child[f]);
    }
  number_entries (gp);
  return g_steal_pointer (&gp);
}

gboolean
cg_gprof_is_exact (const CgGprof *gp)
{
  return gp->exact;
}

guint
cg_gprof_n_contexts (const CgGprof *gp)
{
  return gp->n_contexts;
}

CgGraph *
cg_gprof_graph (const CgGprof *gp)
{
  return gp->graph;
}

guint
cg_gprof_n_cycles (const CgGprof *gp)
{
  return gp->nc;
}

const CgGprofEntry *
cg_gprof_entry (const CgGprof *gp, guint i)
{
  return &g_array_index (gp->entries, CgGprofEntry, i);
}

const CgGprofArc *
cg_gprof_arc (const CgGprof *gp, CgArcId a)
{
  return &gp->arcs[a];
}

const CgFunctionId *
cg_gprof_members (const CgGprof *gp, guint number, guint *n)
{
  g_array_set_size (gp->members, 0);
  for (guint32 m = g_array_index (gp->cycle_first, CgFunctionId, number - 1); m != NONE; m = gp->next[m])
    g_array_append_val (gp->members, m);
  *n = gp->members->len;
  return (const CgFunctionId *) gp->members->data;
}

const guint *
cg_gprof_order (const CgGprof *gp)
{
  return gp->order;
}

gboolean
cg_gprof_in_table (const CgGprof *gp, CgGprofTable table, CgFunctionId f)
{
  return gp->in_table[table][f] != 0;
}

gboolean
cg_gprof_table_used (const CgGprof *gp, CgGprofTable table)
{
  return gp->table_used[table];
}

gdouble
cg_gprof_total_time (const CgGprof *gp)
{
  return gp->total_time;
}

gdouble
cg_gprof_print_time (const CgGprof *gp)
{
  return gp->print_time;
}

gdouble
cg_gprof_rate (const CgGprof *gp)
{
  return gp->rate;
}

guint
cg_gprof_event (const CgGprof *gp)
{
  return gp->event;
}

gboolean
cg_gprof_has_histogram (const CgGprof *gp)
{
  return gp->histogram;
}

guint64
cg_gprof_granularity (const CgGprof *gp)
{
  return gp->granularity;
}

CgCosts *
cg_gprof_compute (CgProfile *profile, const CgGprofSpecs *specs, GError **error)
{
  (void) error;
  CgGraph *g = cg_profile_graph (profile);
  guint ne = cg_graph_n_events (g), nf = cg_graph_n_functions (g), na = cg_graph_n_arcs (g);
  g_autoptr (CgCosts) c = cg_costs_new (CG_METHOD_GPROF, g);
  for (guint e = 0; e < ne; e++)
    {
      g_autoptr (CgGprof) gp = cg_gprof_new (profile, e, specs);
      for (CgFunctionId f = 0; f < nf; f++)
        {
          const CgGprofEntry *en = cg_gprof_entry (gp, f);
          cg_costs_total (c, f)[e].x = en->prop_self + en->prop_child;
          if (en->prop_child != 0.0 || en->cycle != 0)
            cg_costs_set_total_estimated (c, f, TRUE);
        }
      for (CgArcId a = 0; a < na; a++)
        {
          const CgGprofArc *ar = cg_gprof_arc (gp, a);
          cg_costs_arc (c, a)[e].x = ar->time + ar->child_time;
          cg_costs_arc_self (c, a)[e].x = ar->time;
          cg_costs_arc_children (c, a)[e].x = ar->child_time;
          cg_costs_set_arc_estimated (c, a, TRUE);
        }
    }
  const char *uncounted = cg_gprof_uncounted_warning (g);
  if (uncounted)
    cg_costs_add_warning (c, uncounted);
  return g_steal_pointer (&c);
}

const char *
cg_gprof_uncounted_warning (CgGraph *g)
{
  /* sampled stacks (perf, folded) record calls but no call counts: every
   * total would be the function's self cost, a profile that looks right
   * and is not */
  guint na = cg_graph_n_arcs (g);
  for (CgArcId a = 0; a < na; a++)
    if (cg_graph_arc_calls (g, a) > 0)
      return NULL;
  if (na == 0)
    return NULL;
  return "the profile has calls but no call counts (sampled stacks record none): gprof's method shares callees'"
         " time out by call counts, so no total includes its callees' here; --method=exact gives exact totals"
         " from the stacks";
}
