/* cg-write-callgrind.c — counts per function and arc as integer vectors,
 * then one block per function (see the header for the layout). */
#include "config.h"

#include "cg-write-callgrind.h"
#include "cg-method.h"

#include <math.h>
#include <string.h>

#include "cg-error.h"
#include "cg-scc.h"
#include "cg-spivey.h"

/* Nested (below): how cycle members' lines are corrected. */
typedef struct {
  guint64 *deep;      /* per arc: the cost written on one call from the caller's f'2 */
  guint64 *deep_self; /* per function: the part of its self cost written in f'2 */
  guint64 *lack;      /* per function: what its lines fall short of its total */
  CgArcId *lack_arc;  /* per function: the arc whose one call into g'2 carries the lack */
  CgArcId *enter;     /* per function: the arc whose caller also calls f'2, or CG_NO_ID */
} Nested;

typedef struct {
  CgGraph *g;
  const CgCallgrindWriteOptions *o;
  FILE *stream;
  guint ne, nf, na;
  gboolean nested;      /* the profile has nested marks (--separate-recs=1) */
  gboolean used_levels; /* a "'2" context was written */
  GHashTable *ids[3];   /* per name space: key -> id + 1 (functions keyed by
                         * object, file and name: an id is one function) */
  GString *key;         /* scratch for a function's key */
  const char *ob, *fl;  /* current object and file (NULL before any) */
  GString *line;
  /* the counts written, ne per row: self and spontaneous per function,
   * inclusive per arc (zero on self-arcs), and the profile's totals */
  guint64 *self, *spont, *inc, *totals;
  guint8 *rounded;      /* per event: some value was rounded */
  Nested parts;         /* cycle members' corrections */
  /* one function's scratch rows, reused from function to function */
  guint64 *tmp, *d, *moved, *rest;
  guint unexpressed;    /* functions whose total cannot be written */
} Writer;

enum { SPACE_OB, SPACE_FL, SPACE_FN };

static void G_GNUC_PRINTF (2, 3)
warn (Writer *w, const char *format, ...)
{
  if (w->o == NULL || w->o->warn == NULL)
    return;
  va_list ap;
  va_start (ap, format);
  g_autofree char *msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  w->o->warn (msg, w->o->warn_data);
}

/* A value as callgrind's unsigned integer count; *@rounded is set when
 * that changes it. */
static guint64
to_count (CgKind kind, CgValue v, guint8 *rounded)
{
  if (kind == CG_KIND_INTEGER)
    return v.n;
  if (!(v.x > 0))
    {
      *rounded |= v.x != 0.0;
      return 0;
    }
  guint64 n = v.x >= 18446744073709551615.0 ? G_MAXUINT64 : (guint64) llround (v.x);
  *rounded |= (gdouble) n != v.x;
  return n;
}

static void
counts_of (const CgKind *kinds, const CgValue *v, guint ne, guint64 *out, guint8 *rounded)
{
  for (guint e = 0; e < ne; e++)
    out[e] = to_count (kinds[e], v[e], &rounded[e]);
}

static gboolean
is_zero (const guint64 *v, guint ne)
{
  for (guint e = 0; e < ne; e++)
    if (v[e])
      return FALSE;
  return TRUE;
}

/* Appends "key=" and @name compressed under @key_text (the name itself,
 * or for functions their object, file and name): "(id) name" the first
 * time, "(id)" after.  The empty string is written plainly (a compressed
 * definition needs a name). */
static void
append_compressed (Writer *w, const char *key, guint space, const char *key_text, const char *name)
{
  g_string_append_printf (w->line, "%s=", key);
  if (*name == '\0')
    {
      g_string_append_c (w->line, '\n');
      return;
    }
  gpointer id1 = g_hash_table_lookup (w->ids[space], key_text);
  if (id1)
    {
      g_string_append_printf (w->line, "(%u)\n", GPOINTER_TO_UINT (id1) - 1);
      return;
    }
  guint id = g_hash_table_size (w->ids[space]) + 1;
  g_hash_table_insert (w->ids[space], g_strdup (key_text), GUINT_TO_POINTER (id + 1));
  g_string_append_printf (w->line, "(%u) %s\n", id, name);
}

static void
append_name (Writer *w, const char *key, guint space, const char *name)
{
  append_compressed (w, key, space, name, name);
}

/* A function's name: KCachegrind takes an fn= id for one function (its
 * object and file those of the id's first line), so functions of one
 * name in two objects ("(below main)" of the program and of libc) get
 * an id each. */
static void
append_function (Writer *w, const char *key, const char *object, const char *file, const char *name)
{
  g_string_truncate (w->key, 0);
  g_string_append_printf (w->key, "%zu:%s%zu:%s%s", strlen (object), object, strlen (file), file, name);
  append_compressed (w, key, SPACE_FN, w->key->str, name);
}

static const char *
file_of (Writer *w, CgFunctionId f)
{
  const char *file = cg_graph_function_file (w->g, f);
  return *file ? file : "???";
}

/* The context name of @f: plain, or with a suffix ("'2"). */
static char *
context_name (Writer *w, CgFunctionId f, const char *suffix)
{
  return g_strconcat (cg_graph_function_name (w->g, f), suffix, NULL);
}

static void
flush (Writer *w)
{
  fwrite (w->line->str, 1, w->line->len, w->stream);
  g_string_truncate (w->line, 0);
}

static void
begin_block (Writer *w, CgFunctionId f, const char *suffix)
{
  const char *ob = cg_graph_function_object (w->g, f), *fl = file_of (w, f);
  /* the first block names both, even when empty: a reader's implicit
   * empty object need not be the same as an explicit empty cob= */
  if (w->ob == NULL || strcmp (ob, w->ob) != 0)
    append_name (w, "ob", SPACE_OB, ob);
  if (w->fl == NULL || strcmp (fl, w->fl) != 0)
    append_name (w, "fl", SPACE_FL, fl);
  w->ob = ob;
  w->fl = fl;
  g_autofree char *name = context_name (w, f, suffix);
  append_function (w, "fn", ob, fl, name);
}

/* A cost line at the function's first line: its counts, trailing zeros
 * left out (but never an empty line, which some readers mistake). */
static void
cost_line (Writer *w, guint32 line, const guint64 *v)
{
  guint n = w->ne;
  while (n > 0 && v[n - 1] == 0)
    n--;
  g_string_append_printf (w->line, "%u", line);
  if (n == 0)
    g_string_append (w->line, " 0");
  for (guint e = 0; e < n; e++)
    g_string_append_printf (w->line, " %" G_GUINT64_FORMAT, v[e]);
  g_string_append_c (w->line, '\n');
}

/* A call line.  Calls that carry cost are at least one: callgrind_annotate
 * takes a calls=0 line's cost for the caller's self cost, so an arc of no
 * counted calls (folded stacks) is written as one call; only a cost with
 * no call to carry it (@calls G_MAXUINT64, see write_function) is
 * written so. */
static void
call_line (Writer *w, CgFunctionId caller, CgFunctionId callee, const char *suffix, guint64 calls,
           const guint64 *inclusive)
{
  const char *object = cg_graph_function_object (w->g, callee), *file = file_of (w, callee);
  append_name (w, "cob", SPACE_OB, object);
  append_name (w, "cfi", SPACE_FL, file);
  g_autofree char *name = context_name (w, callee, suffix);
  append_function (w, "cfn", object, file, name);
  if (calls == 0 && !is_zero (inclusive, w->ne))
    calls = 1;
  else if (calls == G_MAXUINT64)
    calls = 0;
  g_string_append_printf (w->line, "calls=%" G_GUINT64_FORMAT " %u\n", calls, cg_graph_function_line (w->g, callee));
  cost_line (w, cg_graph_function_line (w->g, caller), inclusive);
}

/* The suffix of a self-call: "'2", or plain where the profile's nested
 * marks must survive (a plain f calling a plain f is what makes the
 * reader mark cycles as nested). */
static const char *
self_call_suffix (Writer *w)
{
  return w->nested ? "" : "'2";
}

/* How the members of cycles are written so that a reader of the
 * callgrind format finds their totals whichever way it sums.
 * callgrind_annotate --inclusive=yes gives a called function the sum of
 * the calls into it (calls=0 lines are no calls there: it takes their
 * cost for self cost), which the arcs' costs make its total; but a
 * function it takes for uncalled, and every function when the names of
 * the calls and of the fn= blocks do not match (it shortens fl= names
 * that start with the current directory, not cfi= names), gets its self
 * cost plus its calls' costs.  In a cycle that second sum is off both
 * ways: a call into a member g of f's own cycle carries g's total, which
 * holds f's nested activations too, whose self cost f's own line counts
 * already; and a call that only reached nested activations of g carries
 * nothing, though f's total holds their cost.  So, as callgrind itself
 * does with f'2 for f's deeper activations (which the reader folds back
 * into f: their calls and self cost, but no arc cost):
 *  - what f's lines add up to beyond its total is written from f'2, on
 *    calls into the same callees that take one call each from f's own
 *    line (the calls into f's cycle first), then as self cost;
 *  - what they fall short of it goes on one call, taken from f's line,
 *    into g'2 for a member g that f calls (f's line stays, with no call
 *    and no cost where it had one call of no cost: it may be what enters
 *    g, which would otherwise read as a spontaneous start);
 *  - f'2 is entered by a call (a self-call, else a call with no count
 *    from another member), so that the reader does not take it for a
 *    spontaneous start.
 * Where too few calls are there to take one from (a member entered once),
 * that second sum stays off; the first and cgtools' own reading are
 * exact all the same.
 * Not for profiles with nested marks (--separate-recs=1), whose plain
 * self-calls must stay plain. */
static void
nested_clear (Nested *n)
{
  g_free (n->deep);
  g_free (n->deep_self);
  g_free (n->lack);
  g_free (n->lack_arc);
  g_free (n->enter);
}

/* The calls of @a left on its caller's own line. */
static guint64
plain_calls (const Nested *n, CgGraph *g, guint ne, CgArcId a)
{
  CgFunctionId f = cg_graph_arc_caller (g, a);
  guint64 calls = cg_graph_arc_calls (g, a);
  calls -= n->lack_arc[f] == a;
  for (guint e = 0; e < ne; e++)
    if (n->deep[(gsize) a * ne + e])
      return calls - 1;
  return calls;
}

typedef struct {
  CgArcId arc;
  guint64 cost; /* the first event's */
} Candidate;

static gint
by_cost_down (gconstpointer a, gconstpointer b)
{
  const Candidate *x = a, *y = b;
  if (x->cost != y->cost)
    return x->cost < y->cost ? 1 : -1;
  return (x->arc > y->arc) - (x->arc < y->arc);
}

/* What is left of @f's @excess after the calls above goes on arcs of one
 * call that only deeper activations made (table.sort called once, from
 * Lua code, so from luaD_precall'2 under a plain luaD_precall): such an
 * arc whose whole cost fits in the excess is written from f'2 alone, its
 * call with it, and f's line keeps no call of no cost; the costliest
 * first, which leaves the least.  Without this, a reader that sums f's
 * lines (callgrind_annotate run where the fl= names start with its
 * directory) saw 138 % for luaD_precall of a C++ Lua. */
static void
move_whole_calls (Nested *n, CgGraph *g, guint ne, CgFunctionId f, const guint64 *inc, guint64 *excess)
{
  guint n_out;
  const CgArcId *out = cg_graph_out_arcs (g, f, &n_out);
  g_autoptr (GArray) candidates = g_array_new (FALSE, FALSE, sizeof (Candidate));
  for (guint i = 0; i < n_out; i++)
    {
      CgArcId a = out[i];
      if (cg_graph_arc_callee (g, a) != f && plain_calls (n, g, ne, a) == 1 && n->lack_arc[f] != a
          && !is_zero (&inc[(gsize) a * ne], ne))
        g_array_append_val (candidates, ((Candidate) { a, inc[(gsize) a * ne] }));
    }
  g_array_sort (candidates, by_cost_down);
  for (guint i = 0; i < candidates->len && !is_zero (excess, ne); i++)
    {
      CgArcId a = g_array_index (candidates, Candidate, i).arc;
      const guint64 *cost = &inc[(gsize) a * ne];
      gboolean fits = TRUE;
      for (guint e = 0; e < ne && fits; e++)
        fits = cost[e] <= excess[e];
      if (!fits)
        continue;
      for (guint e = 0; e < ne; e++)
        {
          n->deep[(gsize) a * ne + e] = cost[e];
          excess[e] -= cost[e];
        }
    }
}

/* Fills @n for the profile (@self, @spont and @inc: the counts written). */
static void
nested_init (Nested *n, Writer *w, const CgCosts *costs, const guint64 *self, const guint64 *spont,
             const guint64 *inc)
{
  CgGraph *g = w->g;
  guint ne = w->ne, nf = cg_graph_n_functions (g), na = cg_graph_n_arcs (g);
  n->deep = g_new0 (guint64, MAX ((gsize) na * ne, 1));
  n->deep_self = g_new0 (guint64, MAX ((gsize) nf * ne, 1));
  n->lack = g_new0 (guint64, MAX ((gsize) nf * ne, 1));
  n->lack_arc = g_new (CgArcId, MAX (nf, 1));
  n->enter = g_new (CgArcId, MAX (nf, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    n->lack_arc[f] = n->enter[f] = CG_NO_ID;
  if (w->nested)
    return;
  g_autoptr (CgScc) scc = cg_scc_find (g, NULL, NULL);
  g_autofree guint64 *excess = g_new0 (guint64, MAX (ne, 1));
  g_autofree guint8 *rounded = g_new0 (guint8, MAX (ne, 1)); /* warned of with the arcs' */
  for (CgFunctionId f = 0; f < nf; f++)
    {
      guint32 cycle = scc->component_of[f];
      if (scc->size[cycle] < 2)
        continue;
      const guint64 *s = &self[(gsize) f * ne], *sp = &spont[(gsize) f * ne];
      guint64 *lack = &n->lack[(gsize) f * ne];
      guint n_out, n_in;
      const CgArcId *out = cg_graph_out_arcs (g, f, &n_out);
      const CgArcId *in = cg_graph_in_arcs (g, f, &n_in);
      counts_of (cg_costs_kinds (costs), cg_costs_total_const (costs, f), ne, excess, rounded);
      gboolean over = FALSE, short_of = FALSE;
      for (guint e = 0; e < ne; e++)
        {
          guint64 have = s[e];
          for (guint i = 0; i < n_out; i++)
            if (cg_graph_arc_callee (g, out[i]) != f
                && !g_uint64_checked_add (&have, have, inc[(gsize) out[i] * ne + e]))
              have = G_MAXUINT64;
          lack[e] = have < excess[e] ? excess[e] - have : 0;
          excess[e] = have > excess[e] ? have - excess[e] : 0;
          over |= excess[e] != 0;
          short_of |= lack[e] != 0;
        }
      /* the calls into f's cycle first, for the lack and then the excess */
      for (guint into_cycle = 2; into_cycle-- > 0;)
        for (guint i = 0; i < n_out; i++)
          {
            CgArcId a = out[i];
            CgFunctionId callee = cg_graph_arc_callee (g, a);
            if (callee == f || (scc->component_of[callee] == cycle) != into_cycle)
              continue;
            /* one call taken leaves one, or a line of no cost */
            guint64 calls = cg_graph_arc_calls (g, a);
            if (short_of && into_cycle && n->lack_arc[f] == CG_NO_ID
                && (calls >= 2 || (calls == 1 && is_zero (&inc[(gsize) a * ne], ne))))
              n->lack_arc[f] = a;
            if (!over || plain_calls (n, g, ne, a) < 2)
              continue;
            for (guint e = 0; e < ne; e++)
              {
                guint64 *d = &n->deep[(gsize) a * ne + e];
                *d = MIN (excess[e], inc[(gsize) a * ne + e]);
                excess[e] -= *d;
              }
          }
      move_whole_calls (n, g, ne, f, inc, excess);
      if (n->lack_arc[f] == CG_NO_ID)
        memset (lack, 0, ne * sizeof (guint64));
      gboolean deeper = FALSE, self_call = FALSE;
      for (guint e = 0; e < ne; e++)
        {
          guint64 *d = &n->deep_self[(gsize) f * ne + e];
          *d = MIN (excess[e], s[e] - MIN (s[e], sp[e]));
          deeper |= *d != 0;
        }
      for (guint i = 0; i < n_out; i++)
        {
          self_call |= cg_graph_arc_callee (g, out[i]) == f;
          deeper |= !is_zero (&n->deep[(gsize) out[i] * ne], ne);
        }
      for (guint i = 0; i < n_in && deeper && !self_call && n->enter[f] == CG_NO_ID; i++)
        if (cg_graph_arc_caller (g, in[i]) != f && scc->component_of[cg_graph_arc_caller (g, in[i])] == cycle)
          n->enter[f] = in[i];
    }
}

/* The call lines of @f's arc @a from its plain context: the arc less
 * what f'2 writes of it and less one call when @a is the spare that
 * carries f's extra (write_extra), the call into g'2 carrying f's lack,
 * and a call into g'2 when that is what enters it. */
static void
plain_call (Writer *w, CgFunctionId f, CgArcId a, CgArcId spare)
{
  const Nested *n = &w->parts;
  CgFunctionId callee = cg_graph_arc_callee (w->g, a);
  for (guint e = 0; e < w->ne; e++)
    w->tmp[e] = w->inc[(gsize) a * w->ne + e] - n->deep[(gsize) a * w->ne + e];
  guint64 calls = plain_calls (n, w->g, w->ne, a);
  call_line (w, f, callee, "", calls - (a == spare && calls > 0), w->tmp);
  if (n->lack_arc[f] == a)
    {
      call_line (w, f, callee, "'2", 1, &n->lack[(gsize) f * w->ne]);
      w->used_levels = TRUE;
    }
  if (n->enter[callee] == a)
    {
      memset (w->tmp, 0, w->ne * sizeof (guint64));
      call_line (w, f, callee, "'2", 0, w->tmp);
    }
}

/* ---- the steps of cg_write_callgrind ---- */

static void
writer_init (Writer *w, CgGraph *g, const CgCallgrindWriteOptions *o, FILE *stream)
{
  guint ne = cg_graph_n_events (g), nf = cg_graph_n_functions (g), na = cg_graph_n_arcs (g);
  *w = (Writer) { .g = g, .o = o, .stream = stream, .ne = ne, .nf = nf, .na = na };
  for (guint i = 0; i < 3; i++)
    w->ids[i] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w->key = g_string_new (NULL);
  w->line = g_string_new (NULL);
  w->self = g_new0 (guint64, MAX ((gsize) nf * ne, 1));
  w->spont = g_new0 (guint64, MAX ((gsize) nf * ne, 1));
  w->inc = g_new0 (guint64, MAX ((gsize) na * ne, 1));
  w->totals = g_new0 (guint64, MAX (ne, 1));
  w->rounded = g_new0 (guint8, MAX (ne, 1));
  w->tmp = g_new0 (guint64, MAX (ne, 1));
  w->d = g_new0 (guint64, MAX (ne, 1));
  w->moved = g_new0 (guint64, MAX (ne, 1));
  w->rest = g_new0 (guint64, MAX (ne, 1));
}

static void
writer_clear (Writer *w)
{
  nested_clear (&w->parts);
  for (guint i = 0; i < 3; i++)
    g_hash_table_unref (w->ids[i]);
  g_string_free (w->key, TRUE);
  g_string_free (w->line, TRUE);
  g_free (w->self);
  g_free (w->spont);
  g_free (w->inc);
  g_free (w->totals);
  g_free (w->rounded);
  g_free (w->tmp);
  g_free (w->d);
  g_free (w->moved);
  g_free (w->rest);
}

/* Whether @name ends as a context cgtools' reader splits off in a file of
 * cgtools (cg_callgrind_split_name_as): "'N" or "'<spontaneous>". */
static gboolean
reads_as_context (const char *name)
{
  const char *q = strrchr (name, '\'');
  if (q == NULL)
    return FALSE;
  if (strcmp (q + 1, "<spontaneous>") == 0)
    return TRUE;
  return q[1] != '\0' && strspn (q + 1, "0123456789") == strlen (q + 1);
}

/* Step 1: self costs and the profile's totals; FALSE on overflow. */
static gboolean
count_self (Writer *w)
{
  const CgKind *kinds = cg_graph_event_kinds (w->g);
  gboolean ok = TRUE;
  for (CgFunctionId f = 0; f < w->nf; f++)
    {
      w->nested |= (cg_graph_function_flags (w->g, f) & CG_FUNCTION_NESTED) != 0;
      counts_of (kinds, cg_graph_self_const (w->g, f), w->ne, &w->self[(gsize) f * w->ne], w->rounded);
      for (guint e = 0; e < w->ne; e++)
        ok &= g_uint64_checked_add (&w->totals[e], w->totals[e], w->self[(gsize) f * w->ne + e]);
      if (reads_as_context (cg_graph_function_name (w->g, f)))
        warn (w, "function '%s': its last apostrophe reads as the start of a context, so it reads back as"
                 " another function", cg_graph_function_name (w->g, f));
    }
  return ok;
}

/* Step 2: the arcs' inclusive costs: callgrind's own measurement, a
 * context profile's calls into outermost activations (Spivey's arcs add
 * up to more than their callee's total in a cycle), or the method's. */
static gboolean
count_arcs (Writer *w, CgProfile *p, const CgCosts *costs, gboolean measured)
{
  CgGraph *g = w->g;
  guint ne = w->ne;
  const CgKind *kinds = cg_graph_event_kinds (g);
  g_autofree CgValue *entering = NULL;
  gboolean ok = TRUE;
  if (!measured && cg_costs_method (costs) == CG_METHOD_EXACT && cg_profile_contexts (p))
    {
      /* the spontaneous parts follow from the totals, as below */
      entering = g_new0 (CgValue, MAX ((gsize) w->na * ne, 1));
      ok = cg_spivey_entering (p, entering, NULL, NULL);
    }
  /* measured: what callgrind measured, or more where the method raised
   * a callee's total and its call with it (raise_to_lower_bounds) */
  g_autofree CgValue *most = g_new0 (CgValue, MAX (ne, 1));
  guint n_raised = 0;
  for (CgArcId a = 0; a < w->na; a++)
    {
      if (cg_graph_arc_caller (g, a) == cg_graph_arc_callee (g, a))
        continue;
      const CgValue *v = entering ? &entering[(gsize) a * ne] : cg_costs_arc_const (costs, a);
      if (measured)
        {
          const CgValue *m = cg_graph_arc_inclusive_const (g, a);
          gboolean more = FALSE;
          for (guint e = 0; e < ne; e++)
            {
              more |= cg_value_compare (kinds[e], m[e], v[e]) < 0;
              most[e] = cg_value_compare (kinds[e], m[e], v[e]) >= 0 ? m[e] : v[e];
            }
          n_raised += more;
          v = most;
        }
      counts_of (measured || entering ? kinds : cg_costs_kinds (costs), v, ne, &w->inc[(gsize) a * ne], w->rounded);
    }
  if (n_raised)
    warn (w, "%u call%s written with more than was measured: the cost that the method added to their callees' totals"
             " (totals below self plus calls out, which it raised)", n_raised, n_raised == 1 ? "" : "s");
  return ok;
}

/* Step 2b, for profiles with nested marks (no recursion split): calls
 * between members of a cycle nest, and the sum of their measured costs
 * into a member counts its nested activations again.  Such a member's
 * total is an estimate (cg-measured.h: its cycle's, or the calls into
 * it where lower); its calls from inside the cycle are written to carry
 * what that total needs beyond the calls from outside and its
 * spontaneous part, on the first of them (the others none), so that
 * callgrind_annotate's sum of the calls into it is that total.  Reading
 * the file back gives the same totals: the cycle's are what enters it,
 * and a member's calls in are its total. */
static void
fit_nested_cycles (Writer *w, const CgCosts *costs)
{
  CgGraph *g = w->g;
  guint ne = w->ne;
  g_autoptr (CgScc) scc = cg_scc_find (g, NULL, NULL);
  g_autofree guint8 *rounded = g_new0 (guint8, MAX (ne, 1)); /* the totals' own were warned of */
  for (CgFunctionId f = 0; f < w->nf; f++)
    {
      guint32 k = scc->component_of[f];
      if (scc->size[k] < 2 || !cg_costs_total_is_estimated (costs, f))
        continue;
      counts_of (cg_costs_kinds (costs), cg_costs_total_const (costs, f), ne, w->tmp, rounded);
      /* its spontaneous part is written too (f'<spontaneous>), and read
       * back into its total with the calls */
      const CgValue *sp = cg_graph_spontaneous (g, f);
      if (sp)
        {
          g_autofree guint64 *own = g_new0 (guint64, MAX (ne, 1));
          counts_of (cg_graph_event_kinds (g), sp, ne, own, rounded);
          for (guint e = 0; e < ne; e++)
            w->tmp[e] -= MIN (w->tmp[e], own[e]);
        }
      guint n_in;
      const CgArcId *in = cg_graph_in_arcs (g, f, &n_in);
      CgArcId first = CG_NO_ID;
      for (guint i = 0; i < n_in; i++)
        {
          CgFunctionId caller = cg_graph_arc_caller (g, in[i]);
          guint64 *v = &w->inc[(gsize) in[i] * ne];
          if (caller == f)
            continue;
          if (scc->component_of[caller] != k)
            for (guint e = 0; e < ne; e++)
              w->tmp[e] -= MIN (w->tmp[e], v[e]);
          else
            {
              if (first == CG_NO_ID)
                first = in[i];
              memset (v, 0, ne * sizeof (guint64));
            }
        }
      if (first != CG_NO_ID)
        memcpy (&w->inc[(gsize) first * ne], w->tmp, ne * sizeof (guint64));
    }
}

/* Step 3: the spontaneous parts: callgrind's, or what the arcs into a
 * function do not account for of its total.  Returns how many functions'
 * arcs carry more than their total. */
static guint
count_spontaneous (Writer *w, const CgCosts *costs, gboolean measured)
{
  CgGraph *g = w->g;
  guint ne = w->ne, inconsistent = 0;
  for (CgFunctionId f = 0; f < w->nf; f++)
    {
      guint64 *sp = &w->spont[(gsize) f * ne];
      if (measured)
        {
          const CgValue *v = cg_graph_spontaneous (g, f);
          if (v)
            counts_of (cg_graph_event_kinds (g), v, ne, sp, w->rounded);
          continue;
        }
      counts_of (cg_costs_kinds (costs), cg_costs_total_const (costs, f), ne, sp, w->rounded);
      guint n;
      const CgArcId *in = cg_graph_in_arcs (g, f, &n);
      gboolean short_fall = FALSE;
      for (guint i = 0; i < n; i++)
        for (guint e = 0; e < ne && cg_graph_arc_caller (g, in[i]) != f; e++)
          {
            guint64 x = w->inc[(gsize) in[i] * ne + e];
            short_fall |= x > sp[e];
            sp[e] = x > sp[e] ? 0 : sp[e] - x;
          }
      inconsistent += short_fall;
    }
  return inconsistent;
}

/* Step 4: the header, up to the first function. */
static void
write_header (Writer *w, CgProfile *p, const CgCosts *costs)
{
  CgGraph *g = w->g;
  GString *line = w->line;
  const CgCallgrindWriteOptions *o = w->o;
  g_string_append (line, "# callgrind format\nversion: 1\n");
  if (o && o->creator && g_str_has_prefix (o->creator, PACKAGE_NAME))
    g_string_append_printf (line, "creator: %s\n", o->creator);
  else if (o && o->creator)
    g_string_append_printf (line, "creator: %s (%s)\n", PACKAGE_STRING, o->creator);
  else
    g_string_append_printf (line, "creator: %s\n", PACKAGE_STRING);
  for (guint i = 0; i < cg_profile_n_sources (p); i++)
    {
      const CgSource *source = cg_profile_source (p, i);
      if (source->command && *source->command)
        {
          g_autofree char *command = g_strdelimit (g_strdup (source->command), "\n\r", ' ');
          g_string_append_printf (line, "cmd: %s\n", command);
          break;
        }
    }
  g_string_append_printf (line, "# inclusive costs on calls= lines: method %s\npositions: line\n",
                          cg_method_to_string (cg_costs_method (costs)));
  for (guint e = 0; e < w->ne; e++)
    {
      const char *description = cg_graph_event_description (g, e);
      if (description)
        {
          g_autofree char *name = g_strdelimit (g_strdup (cg_graph_event_name (g, e)), " \t:=", '_');
          g_string_append_printf (line, "event: %s : %s\n", name, description);
        }
    }
  g_string_append (line, "events:");
  for (guint e = 0; e < w->ne; e++)
    {
      g_autofree char *name = g_strdelimit (g_strdup (cg_graph_event_name (g, e)), " \t:=", '_');
      g_string_append_printf (line, " %s", name);
    }
  g_string_append (line, "\nsummary:");
  for (guint e = 0; e < w->ne; e++)
    g_string_append_printf (line, " %" G_GUINT64_FORMAT, w->totals[e]);
  g_string_append (line, "\n\n");
  flush (w);
}

/* An uncalled @f whose self cost plus calls exceed its total, and which
 * calls itself: everything one level down, and f's total on its
 * self-call. */
static void
write_one_level_down (Writer *w, CgFunctionId f, CgArcId self_arc)
{
  CgGraph *g = w->g;
  guint n_out;
  const CgArcId *out = cg_graph_out_arcs (g, f, &n_out);
  const guint64 *s = &w->self[(gsize) f * w->ne];
  begin_block (w, f, "");
  call_line (w, f, f, "'2", cg_graph_arc_calls (g, self_arc), &w->spont[(gsize) f * w->ne]);
  begin_block (w, f, "'2");
  if (!is_zero (s, w->ne))
    cost_line (w, cg_graph_function_line (g, f), s);
  for (guint i = 0; i < n_out; i++)
    if (out[i] != self_arc)
      call_line (w, f, cg_graph_arc_callee (g, out[i]), "", cg_graph_arc_calls (g, out[i]),
                 &w->inc[(gsize) out[i] * w->ne]);
  w->used_levels = TRUE;
}

/* The arc of @f's that gives up one call to carry @f's extra into a
 * deeper activation of its callee: one whose plain line keeps a call, or
 * one of no counted calls (whose count the format makes up anyway). */
static CgArcId
spare_arc (Writer *w, CgFunctionId f, CgArcId self_arc)
{
  guint n_out;
  const CgArcId *out = cg_graph_out_arcs (w->g, f, &n_out);
  for (guint i = 0; i < n_out; i++)
    {
      guint64 calls = plain_calls (&w->parts, w->g, w->ne, out[i]);
      if (out[i] != self_arc && (calls >= 2 || cg_graph_arc_calls (w->g, out[i]) == 0))
        return out[i];
    }
  return CG_NO_ID;
}

/* A cycle member's share of its calls that its total does not hold: its
 * f'2 block (see Nested). */
static void
write_deeper (Writer *w, CgFunctionId f)
{
  guint ne = w->ne, n_out;
  const CgArcId *out = cg_graph_out_arcs (w->g, f, &n_out);
  const guint64 *ds = &w->parts.deep_self[(gsize) f * ne];
  gboolean deeper = !is_zero (ds, ne);
  for (guint i = 0; i < n_out && !deeper; i++)
    deeper = !is_zero (&w->parts.deep[(gsize) out[i] * ne], ne);
  if (!deeper)
    return;
  begin_block (w, f, "'2");
  if (!is_zero (ds, ne))
    cost_line (w, cg_graph_function_line (w->g, f), ds);
  for (guint i = 0; i < n_out; i++)
    if (!is_zero (&w->parts.deep[(gsize) out[i] * ne], ne))
      call_line (w, f, cg_graph_arc_callee (w->g, out[i]), "", 1, &w->parts.deep[(gsize) out[i] * ne]);
  w->used_levels = TRUE;
}

/* Step 5: @f's blocks.  The reader takes an uncalled context's self cost
 * plus its calls for its spontaneous cost (callgrind's roots), and a
 * called function's spontaneous part goes in a context f'<spontaneous>
 * that no call enters. */
static void
write_function (Writer *w, CgFunctionId f)
{
  CgGraph *g = w->g;
  guint ne = w->ne;
  guint32 at = cg_graph_function_line (g, f);
  const guint64 *s = &w->self[(gsize) f * ne], *sp = &w->spont[(gsize) f * ne];
  guint n_in, n_out;
  const CgArcId *in = cg_graph_in_arcs (g, f, &n_in);
  const CgArcId *out = cg_graph_out_arcs (g, f, &n_out);
  gboolean called = FALSE;
  CgArcId self_arc = CG_NO_ID;
  for (guint i = 0; i < n_in; i++)
    called |= cg_graph_arc_caller (g, in[i]) != f;
  for (guint i = 0; i < n_out; i++)
    if (cg_graph_arc_callee (g, out[i]) == f)
      self_arc = out[i];

  /* uncalled: what self plus calls fall short of the total (d) */
  guint64 *d = w->d, *moved = w->moved, *rest = w->rest;
  memset (d, 0, ne * sizeof (guint64));
  gboolean short_of = FALSE; /* self + calls exceed the total */
  if (!called)
    for (guint e = 0; e < ne; e++)
      {
        guint64 have = s[e];
        for (guint i = 0; i < n_out; i++)
          if (out[i] != self_arc && !g_uint64_checked_add (&have, have, w->inc[(gsize) out[i] * ne + e]))
            have = G_MAXUINT64;
        short_of |= have > sp[e];
        d[e] = have > sp[e] ? 0 : sp[e] - have;
      }
  if (short_of && self_arc != CG_NO_ID)
    {
      write_one_level_down (w, f, self_arc);
      return;
    }
  w->unexpressed += short_of;

  /* called and spontaneous: as much of the spontaneous part as can be is
   * self cost moved to its own context; the rest is an extra */
  for (guint e = 0; e < ne; e++)
    {
      moved[e] = called ? MIN (s[e], sp[e]) : 0;
      rest[e] = called ? sp[e] - moved[e] : 0;
    }
  gboolean d_placed = is_zero (d, ne) || (self_arc != CG_NO_ID && !w->nested);
  const guint64 *extra = !d_placed ? d : called && !is_zero (rest, ne) ? rest : NULL;
  CgArcId spare = extra ? spare_arc (w, f, self_arc) : CG_NO_ID;
  if (extra && spare == CG_NO_ID && n_out == 0)
    w->unexpressed++;

  const guint64 *ds = &w->parts.deep_self[(gsize) f * ne];
  begin_block (w, f, "");
  for (guint e = 0; e < ne; e++)
    w->tmp[e] = s[e] - moved[e] - ds[e];
  if (!is_zero (w->tmp, ne))
    cost_line (w, at, w->tmp);
  for (guint i = 0; i < n_out; i++)
    if (out[i] != self_arc)
      plain_call (w, f, out[i], spare);
  if (self_arc != CG_NO_ID)
    {
      /* the difference rides on the self-call, where f'2 may take it */
      gboolean carries = !is_zero (d, ne) && !w->nested;
      memset (w->tmp, 0, ne * sizeof (guint64));
      call_line (w, f, f, self_call_suffix (w), cg_graph_arc_calls (g, self_arc), carries ? d : w->tmp);
    }
  if (called && !is_zero (sp, ne))
    {
      begin_block (w, f, "'<spontaneous>");
      if (!is_zero (moved, ne))
        cost_line (w, at, moved);
    }
  if (spare != CG_NO_ID)
    {
      /* one call, taken from the spare's line, into a deeper activation:
       * it carries cost, and adds no call and no arc cost */
      call_line (w, f, cg_graph_arc_callee (g, spare), "'2", 1, extra);
      w->used_levels = TRUE;
    }
  else if (extra && n_out > 0)
    {
      /* no call to spare: a line of no call, which callgrind_annotate
       * adds to the self cost of this block (f'<spontaneous>, or an
       * uncalled f, whose self plus calls it then still gets right) */
      call_line (w, f, cg_graph_arc_callee (g, out[0]), "'2", G_MAXUINT64, extra);
      w->used_levels = TRUE;
    }
  write_deeper (w, f);
}

/* Step 6: the footer and what could not be written as it is. */
static void
write_footer (Writer *w)
{
  if (w->unexpressed)
    warn (w, "%u function%s whose total callgrind's format cannot express (spontaneous costs that neither its self"
             " cost nor its calls can carry): their totals will read back differently",
          w->unexpressed, w->unexpressed == 1 ? "" : "s");
  if (w->nested && w->used_levels)
    warn (w, "the profile's nested marks (--separate-recs=1) cannot be kept: cycle members' totals will read back"
             " as the sums of their calls");
  g_string_append (w->line, "\ntotals:");
  for (guint e = 0; e < w->ne; e++)
    g_string_append_printf (w->line, " %" G_GUINT64_FORMAT, w->totals[e]);
  g_string_append_c (w->line, '\n');
  flush (w);
}

gboolean
cg_write_callgrind (CgProfile *p, const CgCosts *costs, const CgCallgrindWriteOptions *o, FILE *stream,
                    GError **error)
{
  CgGraph *g = cg_profile_graph (p);
  gboolean measured = cg_costs_method (costs) == CG_METHOD_MEASURED && cg_graph_has_inclusive (g);
  Writer w;
  writer_init (&w, g, o, stream);
  gboolean ok = count_self (&w);
  ok &= count_arcs (&w, p, costs, measured);
  if (measured && w.nested)
    fit_nested_cycles (&w, costs);
  guint inconsistent = count_spontaneous (&w, costs, measured);
  nested_init (&w.parts, &w, costs, w.self, w.spont, w.inc);
  if (!ok)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "the total cost exceeds the range of 64-bit counters");
      writer_clear (&w);
      return FALSE;
    }
  if (inconsistent)
    warn (&w, "%u function%s whose arcs carry more than their total (an estimating method's totals): written with"
              " the arcs' costs", inconsistent, inconsistent == 1 ? "" : "s");
  for (guint e = 0; e < w.ne; e++)
    {
      if (w.rounded[e])
        warn (&w, "event %s has fractional values: written rounded to integers", cg_graph_event_name (g, e));
      if (cg_graph_event_scale (g, e) != 1.0)
        warn (&w, "event %s: callgrind's format has no scale, so its values are written in stored units (%s / %g)",
              cg_graph_event_name (g, e), cg_graph_event_unit (g, e), cg_graph_event_scale (g, e));
    }
  write_header (&w, p, costs);
  for (CgFunctionId f = 0; f < w.nf; f++)
    {
      write_function (&w, f);
      flush (&w);
    }
  write_footer (&w);
  writer_clear (&w);
  return TRUE;
}
