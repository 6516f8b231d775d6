/* cg-diff.c — matching two profiles' functions, and their changes. */
#include "config.h"

#include "cg-diff.h"

#include <math.h>
#include <string.h>

#include "cg-demangle.h"
#include "cg-error.h"
#include "cg-split-root.h"
#include "cg-value.h"

struct _CgDiff {
  CgProfile *base, *new;
  const CgCosts *base_costs, *new_costs;
  guint base_event, new_event;
  CgKind kind;
  gdouble scale;  /* of the stored values, to the event's unit */
  gdouble base_scale; /* of the base's stored values, to the new event's unit */
  gdouble factor; /* the base's normalization */
  /* one sample's cost in the event's unit, each profile's (the base's
   * normalized): 0 where the event was not sampled (cg_diff_noise) */
  gdouble base_sample, new_sample;
  gboolean exact;
  CgValue base_sum, new_sum;
  GArray *rows;        /* CgDiffFunction: the new profile's functions in id order, then the base's alone */
  guint *order;        /* rows sorted by absolute change of total */
  CgFunctionId *base_of_new; /* per new function: its base function or CG_NO_ID */
  gboolean base_has_process; /* the base has a process's root (CG_OBJECT_PROCESS) */
};

/* ---- matching ---- */

char *
cg_diff_key (const char *object, const char *name)
{
  const char *slash = strrchr (object, '/');
  gsize len = cg_strip_clone_suffixes (name, strlen (name));
  GString *key = g_string_new (slash ? slash + 1 : object);
  g_string_append_c (key, '\n');
  g_string_append_len (key, name, (gssize) len);
  return g_string_free (key, FALSE);
}

/* The key of the first pass: (object, name) as they are, or with the
 * object's directory dropped. */
static char *
exact_key (CgGraph *g, CgFunctionId f, gboolean whole_object)
{
  const char *object = cg_graph_function_object (g, f);
  const char *slash = whole_object ? NULL : strrchr (object, '/');
  return g_strconcat (slash ? slash + 1 : object, "\n", cg_graph_function_name (g, f), NULL);
}

/* What tells a function apart from others of its name in its object: the
 * text after the '@' of its object's file name (cg_elf_apart_object's
 * "prog@a.c": two files' static helper), else "".  The passes that match
 * by name alone keep it, so that a.c's helper still pairs with a.c's
 * in two builds named apart. */
static const char *
apart_of (const char *object)
{
  const char *slash = strrchr (object, '/');
  const char *at = strrchr (slash ? slash + 1 : object, '@');
  return at ? at + 1 : "";
}

/* How much of a function's identity a pass of matching keeps. */
typedef enum {
  KEY_OBJECT_FOLDED, /* the object's file name, the name without clone suffixes */
  KEY_NAME,          /* the name as it is, whatever the object */
  KEY_NAME_FOLDED,   /* the name without clone suffixes, whatever the object */
} KeyKind;

/* Functions of @g not yet matched (@matched[f] != CG_NO_ID), counted by
 * their key of @kind: key -> (f + 1), or G_MAXUINT when several share it. */
static GHashTable *
unique_keys (CgGraph *g, const CgFunctionId *matched, KeyKind kind)
{
  GHashTable *keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    {
      if (matched[f] != CG_NO_ID)
        continue;
      const char *name = cg_graph_function_name (g, f), *object = cg_graph_function_object (g, f);
      char *key = kind == KEY_NAME ? g_strconcat (name, "\n", apart_of (object), NULL)
                  : kind == KEY_OBJECT_FOLDED ? cg_diff_key (object, name)
                                              : cg_diff_key (apart_of (object), name);
      if (g_hash_table_contains (keys, key))
        {
          g_hash_table_insert (keys, key, GUINT_TO_POINTER (G_MAXUINT));
          continue;
        }
      g_hash_table_insert (keys, key, GUINT_TO_POINTER (f + 1));
    }
  return keys;
}

static void match_unique (CgGraph *bg, CgGraph *ng, KeyKind kind, CgFunctionId *base_of_new,
                          CgFunctionId *new_of_base);

/* The one function of @g left unmatched whose object is a process's
 * root (CG_OBJECT_PROCESS), or CG_NO_ID when there are none or several. */
static CgFunctionId
lone_process (CgGraph *g, const CgFunctionId *matched)
{
  CgFunctionId found = CG_NO_ID;
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    if (matched[f] == CG_NO_ID && strcmp (cg_graph_function_object (g, f), CG_OBJECT_PROCESS) == 0)
      {
        if (found != CG_NO_ID)
          return CG_NO_ID;
        found = f;
      }
  return found;
}

/* perf roots each stack at its process, named after the command: two
 * builds run as prog-old and prog-new are one process each, the root of
 * everything, and matched whatever their names (else the whole profile
 * shows as one function removed and one added). */
static void
match_lone_process (CgGraph *bg, CgGraph *ng, CgFunctionId *base_of_new, CgFunctionId *new_of_base)
{
  CgFunctionId b = lone_process (bg, new_of_base), f = lone_process (ng, base_of_new);
  if (b == CG_NO_ID || f == CG_NO_ID)
    return;
  base_of_new[f] = b;
  new_of_base[b] = f;
}

/* A process root of perf's --split, "COMM-PID" or "COMM-PID/TID" ("?"
 * for a pid the layout lacks), left unmatched. */
typedef struct {
  guint64 pid, tid;
  CgFunctionId f;
} SplitRoot;

static gint
cmp_split_root (gconstpointer a, gconstpointer b)
{
  const SplitRoot *x = a, *y = b;
  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* The unmatched --split roots of @g by command: COMM -> GArray of
 * SplitRoot. */
static GHashTable *
split_roots (CgGraph *g, const CgFunctionId *matched)
{
  GHashTable *by_comm = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    {
      SplitRoot r = { 0, 0, f };
      gsize comm_len;
      if (matched[f] != CG_NO_ID || !cg_split_root_parse (g, f, &comm_len, &r.pid, &r.tid))
        continue;
      g_autofree char *comm = g_strndup (cg_graph_function_name (g, f), comm_len);
      GArray *a = g_hash_table_lookup (by_comm, comm);
      if (a == NULL)
        {
          a = g_array_new (FALSE, FALSE, sizeof (SplitRoot));
          g_hash_table_insert (by_comm, g_steal_pointer (&comm), a);
        }
      g_array_append_val (a, r);
    }
  return by_comm;
}

/* perf's --split=pid and --split=tid name each root after its process
 * and thread numbers, which differ from run to run, so that no root of
 * one run matched one of the other (every thread's line "new"): where a
 * command has as many roots left in each profile, they are paired in
 * the order of their numbers, a process's main thread (tid = pid)
 * first, then its threads in the order the kernel numbered them, as they
 * were created. */
static void
match_split_roots (CgGraph *bg, CgGraph *ng, CgFunctionId *base_of_new, CgFunctionId *new_of_base)
{
  g_autoptr (GHashTable) base_roots = split_roots (bg, new_of_base);
  g_autoptr (GHashTable) new_roots = split_roots (ng, base_of_new);
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, base_roots);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      GArray *b = value, *n = g_hash_table_lookup (new_roots, key);
      if (n == NULL || n->len != b->len)
        continue;
      g_array_sort (b, cmp_split_root);
      g_array_sort (n, cmp_split_root);
      for (guint i = 0; i < b->len; i++)
        {
          CgFunctionId x = g_array_index (b, SplitRoot, i).f, y = g_array_index (n, SplitRoot, i).f;
          base_of_new[y] = x;
          new_of_base[x] = y;
        }
    }
}

/* Fills @base_of_new and @new_of_base (CG_NO_ID where unmatched). */
static void
match_functions (CgGraph *bg, CgGraph *ng, gboolean exact_names, CgFunctionId *base_of_new,
                 CgFunctionId *new_of_base)
{
  guint nb = cg_graph_n_functions (bg), nn = cg_graph_n_functions (ng);
  memset (base_of_new, 0xff, MAX (nn, 1) * sizeof (CgFunctionId));
  memset (new_of_base, 0xff, MAX (nb, 1) * sizeof (CgFunctionId));
  g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (CgFunctionId f = 0; f < nn; f++)
    g_hash_table_insert (by_key, exact_key (ng, f, exact_names), GUINT_TO_POINTER (f + 1));
  for (CgFunctionId b = 0; b < nb; b++)
    {
      g_autofree char *key = exact_key (bg, b, exact_names);
      guint f1 = GPOINTER_TO_UINT (g_hash_table_lookup (by_key, key));
      if (f1 && base_of_new[f1 - 1] == CG_NO_ID)
        {
          base_of_new[f1 - 1] = b;
          new_of_base[b] = f1 - 1;
        }
    }
  if (exact_names)
    return;
  match_unique (bg, ng, KEY_OBJECT_FOLDED, base_of_new, new_of_base);
  /* then by name alone: two builds of a program named apart (prog-O1,
   * prog-O2) differ in their main object's file name.  The name as it is
   * first: where a build has both f and its clone f.part.0 (Lua's
   * luaV_concat), the folded name is no one function's, but each name is */
  match_unique (bg, ng, KEY_NAME, base_of_new, new_of_base);
  match_unique (bg, ng, KEY_NAME_FOLDED, base_of_new, new_of_base);
  match_split_roots (bg, ng, base_of_new, new_of_base);
  match_lone_process (bg, ng, base_of_new, new_of_base);
}

/* Matches the functions not yet matched whose key of @kind only one
 * function of each profile has. */
static void
match_unique (CgGraph *bg, CgGraph *ng, KeyKind kind, CgFunctionId *base_of_new, CgFunctionId *new_of_base)
{
  g_autoptr (GHashTable) new_keys = unique_keys (ng, base_of_new, kind);
  g_autoptr (GHashTable) base_keys = unique_keys (bg, new_of_base, kind);
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, base_keys);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      guint b1 = GPOINTER_TO_UINT (value);
      guint f1 = GPOINTER_TO_UINT (g_hash_table_lookup (new_keys, key));
      if (b1 == G_MAXUINT || f1 == 0 || f1 == G_MAXUINT)
        continue;
      base_of_new[f1 - 1] = b1 - 1;
      new_of_base[b1 - 1] = f1 - 1;
    }
}

/* ---- values ---- */

/* @v of kind @from with @scale, in the difference's kind and scale. */
static CgValue
common (const CgDiff *d, CgKind from, CgValue v, gdouble scale, gdouble factor)
{
  if (d->kind == CG_KIND_INTEGER)
    return v;
  return (CgValue) { .x = cg_value_to_double (from, v) * scale * factor };
}

gboolean
cg_diff_sampled (const CgDiff *d)
{
  return d->base_sample > 0 && d->new_sample > 0;
}

gdouble
cg_diff_sample_cost (const CgDiff *d, gboolean base)
{
  return base ? d->base_sample : d->new_sample;
}

/* The variance of a cost @c of a profile of total @all whose samples
 * cost @p each: of its N = all/p samples, c/p fell on it, a binomial
 * count of variance N·q·(1 - q) with q = c/all, so p·c·(1 - c/all) in
 * cost (Poisson's p·c where c is a small share; none for the whole, whose
 * samples are the run's time, not a draw). */
static gdouble
variance (gdouble p, gdouble c, gdouble all)
{
  gdouble q = all > 0 ? MIN (c / all, 1.0) : 1.0;
  return p * c * (1.0 - q);
}

gdouble
cg_diff_noise (const CgDiff *d, CgValue base, CgValue new)
{
  if (!cg_diff_sampled (d))
    return 0;
  gdouble b = fabs (cg_value_to_double (d->kind, base)) * d->scale;
  gdouble n = fabs (cg_value_to_double (d->kind, new)) * d->scale;
  gdouble ball = fabs (cg_value_to_double (d->kind, d->base_sum)) * d->scale;
  gdouble nall = fabs (cg_value_to_double (d->kind, d->new_sum)) * d->scale;
  /* the two runs' counts are independent: their variances add */
  return sqrt (variance (d->base_sample, b, ball) + variance (d->new_sample, n, nall));
}

gboolean
cg_diff_within_noise (const CgDiff *d, CgValue base, CgValue new)
{
  return cg_diff_sampled (d) && fabs (cg_diff_change (d, base, new)) <= 2 * cg_diff_noise (d, base, new);
}

gdouble
cg_diff_change (const CgDiff *d, CgValue base, CgValue new)
{
  if (d->kind == CG_KIND_REAL)
    return new.x - base.x;
  return new.n >= base.n ? (gdouble) (new.n - base.n) * d->scale : -(gdouble) (base.n - new.n) * d->scale;
}

void
cg_diff_append_change (const CgDiff *d, GString *out, const CgDiffFunction *f, gboolean total)
{
  CgValue base = total ? f->base_total : f->base_self, new = total ? f->new_total : f->new_self;
  if (d->kind == CG_KIND_INTEGER)
    {
      gboolean down = new.n < base.n;
      if (down)
        g_string_append_c (out, '-');
      cg_value_append_scaled (out, CG_KIND_INTEGER, (CgValue) { .n = down ? base.n - new.n : new.n - base.n },
                              d->scale);
      return;
    }
  gdouble x = new.x - base.x;
  if (x < 0)
    g_string_append_c (out, '-');
  cg_value_append (out, CG_KIND_REAL, (CgValue) { .x = fabs (x) });
}

static gboolean
method_exact (const CgCosts *c)
{
  CgMethod m = cg_costs_method (c);
  return (m == CG_METHOD_EXACT || m == CG_METHOD_MEASURED) && !cg_costs_any_estimated (c);
}

/* ---- the rows ---- */

typedef struct {
  const CgDiff *d;
  char **labels;
  gdouble *magnitude; /* per row, its absolute change of total */
} Order;

static gint
by_change (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const Order *o = data;
  guint a = *(const guint *) pa, b = *(const guint *) pb;
  gdouble cx = o->magnitude[a], cy = o->magnitude[b];
  if (cx != cy)
    return cx > cy ? -1 : 1;
  return strcmp (o->labels[a], o->labels[b]);
}

static void
sort_rows (CgDiff *d)
{
  guint n = d->rows->len;
  g_autofree char **labels = g_new0 (char *, MAX (n, 1));
  g_autofree gdouble *magnitude = g_new (gdouble, MAX (n, 1));
  g_autoptr (GString) s = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    {
      const CgDiffFunction *r = &g_array_index (d->rows, CgDiffFunction, i);
      magnitude[i] = fabs (cg_diff_change (d, r->base_total, r->new_total));
      g_string_truncate (s, 0);
      if (r->new != CG_NO_ID)
        cg_graph_append_label (cg_profile_graph (d->new), s, r->new);
      else
        cg_graph_append_label (cg_profile_graph (d->base), s, r->base);
      labels[i] = g_strdup (s->str);
    }
  d->order = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    d->order[i] = i;
  Order o = { d, labels, magnitude };
  g_qsort_with_data (d->order, (gint) n, sizeof (guint), by_change, &o);
  for (guint i = 0; i < n; i++)
    g_free (labels[i]);
}

/* The sum of @g's self costs in @event; FALSE on overflow. */
static gboolean
event_sum (CgGraph *g, guint event, CgValue *sum)
{
  g_autofree CgValue *sums = g_new0 (CgValue, MAX (cg_graph_n_events (g), 1));
  if (!cg_graph_self_totals (g, sums))
    return FALSE;
  *sum = sums[event];
  return TRUE;
}

CgDiff *
cg_diff_new (CgProfile *base, const CgCosts *base_costs, guint base_event, CgProfile *new, const CgCosts *new_costs,
             guint new_event, const CgDiffOptions *options, GError **error)
{
  CgGraph *bg = cg_profile_graph (base), *ng = cg_profile_graph (new);
  /* times compare in whatever unit each counts them (perf's ns, gprof's
   * seconds, Xdebug's 10ns): the base's are brought to the new one's */
  gdouble bsec = cg_time_unit_seconds (cg_graph_event_unit (bg, base_event));
  gdouble nsec = cg_time_unit_seconds (cg_graph_event_unit (ng, new_event));
  gboolean times = bsec > 0 && nsec > 0;
  if (!times && strcmp (cg_graph_event_unit (bg, base_event), cg_graph_event_unit (ng, new_event)) != 0)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_MISMATCH, "the base counts %s in %s, the new profile %s in %s",
                   cg_graph_event_name (bg, base_event), cg_graph_event_unit (bg, base_event),
                   cg_graph_event_name (ng, new_event), cg_graph_event_unit (ng, new_event));
      return NULL;
    }
  g_autoptr (CgDiff) d = g_new0 (CgDiff, 1);
  d->base = base;
  d->new = new;
  d->base_costs = base_costs;
  d->new_costs = new_costs;
  d->base_event = base_event;
  d->new_event = new_event;
  d->rows = g_array_new (FALSE, TRUE, sizeof (CgDiffFunction));
  gdouble bscale = cg_graph_event_scale (bg, base_event) * (times ? bsec / nsec : 1.0);
  gdouble nscale = cg_graph_event_scale (ng, new_event);
  d->base_scale = bscale;
  CgKind bself = cg_graph_event_kind (bg, base_event), nself = cg_graph_event_kind (ng, new_event);
  CgKind btotal = cg_costs_kind (base_costs, base_event), ntotal = cg_costs_kind (new_costs, new_event);
  gboolean integers = bself == CG_KIND_INTEGER && nself == CG_KIND_INTEGER && btotal == CG_KIND_INTEGER
                      && ntotal == CG_KIND_INTEGER && bscale == nscale;
  d->kind = integers && !options->normalize ? CG_KIND_INTEGER : CG_KIND_REAL;
  d->scale = d->kind == CG_KIND_INTEGER ? nscale : 1.0;
  d->exact = method_exact (base_costs) && method_exact (new_costs);

  guint nb = cg_graph_n_functions (bg), nn = cg_graph_n_functions (ng);
  CgValue bsum, nsum;
  if (!event_sum (bg, base_event, &bsum) || !event_sum (ng, new_event, &nsum))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "a profile's total exceeds the range of 64-bit counters");
      return NULL;
    }
  d->factor = 1.0;
  if (options->normalize && cg_value_to_double (bself, bsum) > 0)
    d->factor = cg_value_to_double (nself, nsum) * nscale / (cg_value_to_double (bself, bsum) * bscale);
  gdouble bsampled, nsampled;
  guint64 bsamples = cg_graph_event_samples (bg, base_event, &bsampled);
  guint64 nsamples = cg_graph_event_samples (ng, new_event, &nsampled);
  if (bsamples > 0 && nsamples > 0)
    {
      d->base_sample = bsampled / (gdouble) bsamples * bscale * d->factor;
      d->new_sample = nsampled / (gdouble) nsamples * nscale;
    }
  d->base_sum = common (d, bself, bsum, bscale, d->factor);
  d->new_sum = common (d, nself, nsum, nscale, 1.0);

  d->base_of_new = g_new (CgFunctionId, MAX (nn, 1));
  g_autofree CgFunctionId *new_of_base = g_new (CgFunctionId, MAX (nb, 1));
  match_functions (bg, ng, options->exact_names, d->base_of_new, new_of_base);
  for (CgFunctionId b = 0; b < nb && !d->base_has_process; b++)
    d->base_has_process = strcmp (cg_graph_function_object (bg, b), CG_OBJECT_PROCESS) == 0;
  g_array_set_size (d->rows, nn);
  for (CgFunctionId f = 0; f < nn; f++)
    {
      CgDiffFunction *r = &g_array_index (d->rows, CgDiffFunction, f);
      CgFunctionId b = d->base_of_new[f];
      r->new = f;
      r->base = b;
      r->presence = b == CG_NO_ID ? CG_DIFF_ADDED : CG_DIFF_BOTH;
      r->new_self = common (d, nself, cg_graph_self_const (ng, f)[new_event], nscale, 1.0);
      r->new_total = common (d, ntotal, cg_costs_total_const (new_costs, f)[new_event], nscale, 1.0);
      r->estimated = cg_costs_total_is_estimated (new_costs, f);
      if (b == CG_NO_ID)
        continue;
      r->base_self = common (d, bself, cg_graph_self_const (bg, b)[base_event], bscale, d->factor);
      r->base_total = common (d, btotal, cg_costs_total_const (base_costs, b)[base_event], bscale, d->factor);
      r->estimated |= cg_costs_total_is_estimated (base_costs, b);
    }
  for (CgFunctionId b = 0; b < nb; b++)
    {
      if (new_of_base[b] != CG_NO_ID)
        continue;
      CgDiffFunction r = { b, CG_NO_ID, CG_DIFF_REMOVED, CG_VALUE_ZERO, CG_VALUE_ZERO, CG_VALUE_ZERO, CG_VALUE_ZERO,
                           cg_costs_total_is_estimated (base_costs, b) };
      r.base_self = common (d, bself, cg_graph_self_const (bg, b)[base_event], bscale, d->factor);
      r.base_total = common (d, btotal, cg_costs_total_const (base_costs, b)[base_event], bscale, d->factor);
      g_array_append_val (d->rows, r);
    }
  sort_rows (d);
  return g_steal_pointer (&d);
}

void
cg_diff_free (CgDiff *d)
{
  if (d == NULL)
    return;
  if (d->rows)
    g_array_unref (d->rows);
  g_free (d->order);
  g_free (d->base_of_new);
  g_free (d);
}

guint
cg_diff_n_functions (const CgDiff *d)
{
  return d->rows->len;
}

const CgDiffFunction *
cg_diff_function (const CgDiff *d, guint i)
{
  return &g_array_index (d->rows, CgDiffFunction, d->order[i]);
}

const CgDiffFunction *
cg_diff_of_new (const CgDiff *d, CgFunctionId f)
{
  return &g_array_index (d->rows, CgDiffFunction, f);
}

CgKind
cg_diff_kind (const CgDiff *d)
{
  return d->kind;
}

gdouble
cg_diff_scale (const CgDiff *d)
{
  return d->scale;
}

CgValue
cg_diff_base_sum (const CgDiff *d)
{
  return d->base_sum;
}

CgValue
cg_diff_new_sum (const CgDiff *d)
{
  return d->new_sum;
}

/* The base's arc matching the new profile's @arc, or CG_NO_ID. */
static CgArcId
base_arc_of (const CgDiff *d, CgArcId arc)
{
  CgGraph *ng = cg_profile_graph (d->new), *bg = cg_profile_graph (d->base);
  CgFunctionId bc = d->base_of_new[cg_graph_arc_caller (ng, arc)];
  CgFunctionId be = d->base_of_new[cg_graph_arc_callee (ng, arc)];
  if (bc == CG_NO_ID || be == CG_NO_ID)
    return CG_NO_ID;
  return cg_graph_lookup_arc (bg, bc, be);
}

/* perf roots each stack at its process (cgmerge --split); a profile of
 * another source (gmon.out, callgrind, amon.out) has no such root, and
 * what the process's root calls (main) are its roots.  Against such a
 * base, a call from a process's root is the callee's line as a root's:
 * its base value is the callee's total there, where the call was "new"
 * (a perf profile against gprof's showed main's whole line as new).
 * The callee's row where that is so, else NULL. */
static const CgDiffFunction *
root_in_base (const CgDiff *d, CgArcId arc)
{
  CgGraph *ng = cg_profile_graph (d->new);
  CgFunctionId caller = cg_graph_arc_caller (ng, arc);
  if (d->base_has_process || strcmp (cg_graph_function_object (ng, caller), CG_OBJECT_PROCESS) != 0)
    return NULL;
  const CgDiffFunction *f = &g_array_index (d->rows, CgDiffFunction, cg_graph_arc_callee (ng, arc));
  return f->presence == CG_DIFF_BOTH ? f : NULL;
}

gboolean
cg_diff_base_arc_is_estimated (const CgDiff *d, CgArcId arc)
{
  CgArcId b = base_arc_of (d, arc);
  if (b != CG_NO_ID)
    return cg_costs_arc_is_estimated (d->base_costs, b);
  const CgDiffFunction *f = root_in_base (d, arc);
  return f != NULL && cg_costs_total_is_estimated (d->base_costs, f->base);
}

gboolean
cg_diff_base_arc (const CgDiff *d, CgArcId arc, CgValue *value)
{
  *value = CG_VALUE_ZERO;
  CgArcId b = base_arc_of (d, arc);
  if (b == CG_NO_ID)
    {
      const CgDiffFunction *f = root_in_base (d, arc);
      if (f != NULL)
        *value = f->base_total;
      return f != NULL;
    }
  *value = common (d, cg_costs_kind (d->base_costs, d->base_event), cg_costs_arc_const (d->base_costs, b)[d->base_event],
                   d->base_scale, d->factor);
  return TRUE;
}

gboolean
cg_diff_is_exact (const CgDiff *d)
{
  return d->exact;
}

gdouble
cg_diff_base_factor (const CgDiff *d)
{
  return d->factor;
}

char *
cg_diff_events_note (const CgDiff *d, const char *unit)
{
  CgGraph *bg = cg_profile_graph (d->base), *ng = cg_profile_graph (d->new);
  const char *b = cg_graph_event_name (bg, d->base_event), *n = cg_graph_event_name (ng, d->new_event);
  if (strcmp (b, n) == 0)
    return NULL;
  /* the views show times in a unit of their own (ms, say), not the new
   * event's (10ns): the note names the one the numbers are in */
  const char *own = cg_graph_event_unit (ng, d->new_event);
  if (unit == NULL || *unit == '\0' || (cg_time_unit_seconds (unit) > 0
                                        && cg_time_unit_seconds (unit) == cg_time_unit_seconds (own)))
    unit = own; /* the same unit in the event's words: "seconds", not "s" */
  if (*unit == '\0')
    return g_strdup_printf ("the base's %s against the new profile's %s", b, n);
  return g_strdup_printf ("the base's %s against the new profile's %s, both in %s", b, n, unit);
}

CgProfile *
cg_diff_base (const CgDiff *d)
{
  return d->base;
}

CgProfile *
cg_diff_new_profile (const CgDiff *d)
{
  return d->new;
}

guint
cg_diff_base_event (const CgDiff *d)
{
  return d->base_event;
}

guint
cg_diff_new_event (const CgDiff *d)
{
  return d->new_event;
}

/* ---- arcs ---- */

typedef struct {
  const CgDiff *d;
  GArray *arcs;
  char **callers, **callees; /* labels per arc row */
} ArcOrder;

static gint
arcs_by_change (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const ArcOrder *o = data;
  guint a = *(const guint *) pa, b = *(const guint *) pb;
  const CgDiffArc *x = &g_array_index (o->arcs, CgDiffArc, a), *y = &g_array_index (o->arcs, CgDiffArc, b);
  gdouble cx = fabs (cg_diff_change (o->d, x->base_cost, x->new_cost));
  gdouble cy = fabs (cg_diff_change (o->d, y->base_cost, y->new_cost));
  if (cx != cy)
    return cx > cy ? -1 : 1;
  int c = strcmp (o->callers[a], o->callers[b]);
  return c != 0 ? c : strcmp (o->callees[a], o->callees[b]);
}

/* @f's label as the new profile names it, else as the base does */
static char *
label_of (const CgDiff *d, CgFunctionId f_new, CgFunctionId f_base, GString *s)
{
  g_string_truncate (s, 0);
  if (f_new != CG_NO_ID)
    cg_graph_append_label (cg_profile_graph (d->new), s, f_new);
  else
    cg_graph_append_label (cg_profile_graph (d->base), s, f_base);
  return g_strdup (s->str);
}

GArray *
cg_diff_arcs (const CgDiff *d)
{
  CgGraph *ng = cg_profile_graph (d->new), *bg = cg_profile_graph (d->base);
  guint nb = cg_graph_n_functions (bg);
  g_autofree CgFunctionId *new_of_base = g_new (CgFunctionId, MAX (nb, 1));
  memset (new_of_base, 0xff, MAX (nb, 1) * sizeof (CgFunctionId));
  for (guint i = 0; i < d->rows->len; i++)
    {
      const CgDiffFunction *r = &g_array_index (d->rows, CgDiffFunction, i);
      if (r->base != CG_NO_ID && r->new != CG_NO_ID)
        new_of_base[r->base] = r->new;
    }
  CgKind bkind = cg_costs_kind (d->base_costs, d->base_event), nkind = cg_costs_kind (d->new_costs, d->new_event);
  gdouble bscale = d->base_scale, nscale = cg_graph_event_scale (ng, d->new_event);
  GArray *arcs = g_array_new (FALSE, TRUE, sizeof (CgDiffArc));
  for (CgArcId a = 0; a < cg_graph_n_arcs (ng); a++)
    {
      CgFunctionId c = cg_graph_arc_caller (ng, a), e = cg_graph_arc_callee (ng, a);
      CgFunctionId bc = d->base_of_new[c], be = d->base_of_new[e];
      CgDiffArc r = { CG_NO_ID, a, bc, be, c, e, CG_DIFF_ADDED, 0, cg_graph_arc_calls (ng, a), CG_VALUE_ZERO,
                      CG_VALUE_ZERO, cg_costs_arc_is_estimated (d->new_costs, a) };
      r.new_cost = common (d, nkind, cg_costs_arc_const (d->new_costs, a)[d->new_event], nscale, 1.0);
      if (bc != CG_NO_ID && be != CG_NO_ID && (r.base = cg_graph_lookup_arc (bg, bc, be)) != CG_NO_ID)
        {
          r.presence = CG_DIFF_BOTH;
          r.base_calls = cg_graph_arc_calls (bg, r.base);
          r.base_cost = common (d, bkind, cg_costs_arc_const (d->base_costs, r.base)[d->base_event], bscale, d->factor);
          r.estimated |= cg_costs_arc_is_estimated (d->base_costs, r.base);
        }
      g_array_append_val (arcs, r);
    }
  for (CgArcId b = 0; b < cg_graph_n_arcs (bg); b++)
    {
      CgFunctionId bc = cg_graph_arc_caller (bg, b), be = cg_graph_arc_callee (bg, b);
      CgFunctionId nc = new_of_base[bc], ne = new_of_base[be];
      if (nc != CG_NO_ID && ne != CG_NO_ID && cg_graph_lookup_arc (ng, nc, ne) != CG_NO_ID)
        continue; /* a row already */
      CgDiffArc r = { b, CG_NO_ID, bc, be, nc, ne, CG_DIFF_REMOVED, cg_graph_arc_calls (bg, b), 0, CG_VALUE_ZERO,
                      CG_VALUE_ZERO, cg_costs_arc_is_estimated (d->base_costs, b) };
      r.base_cost = common (d, bkind, cg_costs_arc_const (d->base_costs, b)[d->base_event], bscale, d->factor);
      g_array_append_val (arcs, r);
    }

  /* sort through an index, the labels made once */
  guint n = arcs->len;
  ArcOrder o = { d, arcs, g_new (char *, MAX (n, 1)), g_new (char *, MAX (n, 1)) };
  g_autoptr (GString) s = g_string_new (NULL);
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const CgDiffArc *r = &g_array_index (arcs, CgDiffArc, i);
      o.callers[i] = label_of (d, r->new_caller, r->base_caller, s);
      o.callees[i] = label_of (d, r->new_callee, r->base_callee, s);
      order[i] = i;
    }
  g_qsort_with_data (order, (gint) n, sizeof (guint), arcs_by_change, &o);
  GArray *sorted = g_array_sized_new (FALSE, FALSE, sizeof (CgDiffArc), n);
  for (guint i = 0; i < n; i++)
    {
      g_array_append_val (sorted, g_array_index (arcs, CgDiffArc, order[i]));
      g_free (o.callers[i]);
      g_free (o.callees[i]);
    }
  g_free (o.callers);
  g_free (o.callees);
  g_array_unref (arcs);
  return sorted;
}
