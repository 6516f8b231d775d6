/* cg-read-amon.c — a bounds-checked cursor over the file, read as it
 * streams: a window of the input (cg_input_peek) holds the bytes being
 * read, not the whole file, so an amon.out of 500 MB costs the profile it
 * makes and not its own size besides (nor, compressed, a decompressed
 * copy of it).  Sections are read in order, each byte once. */
#include "config.h"

#include "cg-read-amon.h"

#include <string.h>
#include <math.h>

#include "../amon/amon-format.h"
#include "cg-elf-functions.h"
#include "cg-error.h"
#include "cg-symbols.h"

typedef struct {
  CgInput *in;
  guint64 origin;           /* the input's offset where the file starts */
  gsize len;                /* the file's size; G_MAXSIZE until a stream's end is seen */
  /* the section being read, for the message when a stream ends in it */
  gsize section_at;
  guint32 section_tag;
  guint64 section_length;
  const char *name;
  CgProfile *profile;
  CgGraph *graph;
  const CgReadOptions *options;
  /* header */
  guint32 clock;
  guint32 flags;
  guint64 resolution_ps;    /* the clock's; the sampling clock's period */
  guint64 rate;
  guint event;
  /* tables */
  GArray *object_bias;      /* guint64 per object */
  GArray *object_main;      /* gboolean */
  GPtrArray *object_path;   /* interned */
  GArray *routine_function; /* CgFunctionId per routine */
  gboolean aliases;         /* two routines are one function */
  const CgSymbols *exe;     /* options->executable's symbols */
  CgSymbolsCache *own_symbols; /* when the options keep none */
  gboolean exe_tried;
  /* sums for the totals check */
  guint64 sum_time, sum_entries, sum_recursive;
  /* the monitor's own cost, for the note */
  guint32 version;
  guint64 overhead_ps;
  gboolean have_totals;
  guint64 total_time, taken_out, events;
  guint64 calibrations, lowest_ps, median_ps, highest_ps;
  guint64 samples_program, samples_monitor; /* the run's samples of whose code ran (amon-measure.h) */
  gint64 resid_total;                        /* clock units their correction added to the contexts */
  guint64 threads_checked;                   /* threads with samples enough to check the calibrations */
  guint64 blind_events, blind_units, blind_program, blind_monitor, threads_blind; /* the blind windows (amon-blind.h) */
  guint64 cal_total, samples_total, blind_total;                    /* the estimates, clock units */
  guint32 threads_split, split_permille;     /* threads whose split the samples set, their largest weight (per mille) */
  guint64 threads;                           /* threads that ran instrumented code (TOTALS) */
  guint64 unseen;                            /* calls signal handlers made inside a hook, not profiled (TOTALS) */
  guint32 recent;
} Reader;

typedef struct {
  gsize pos, end;
} Cursor;

static gboolean G_GNUC_PRINTF (4, 5)
fail (Reader *r, GError **error, gsize offset, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  cg_read_failv (error, CG_ERROR_PARSE, r->name, CG_AT_OFFSET, offset, format, ap);
  va_end (ap);
  return FALSE;
}

static guint32
get32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

static guint64
get64 (const guint8 *p)
{
  return (guint64) get32 (p) | (guint64) get32 (p + 4) << 32;
}

/* Points *@out at the @n bytes at file offset @pos (never before the last
 * call's: the file is read forward), valid until the next call.  Where
 * the file has fewer, sets r->len to its size, now known.  FALSE only on
 * an I/O error (a corrupt compressed stream), with @error set. */
static gboolean
window (Reader *r, gsize pos, gsize n, const guint8 **out, gsize *got, GError **error)
{
  guint64 at = cg_input_offset (r->in) - r->origin;
  g_assert (pos >= at);
  if (!cg_input_skip (r->in, pos - at, error))
    return FALSE;
  /* a window as large as the data that came, not as the file says (a
   * stream's sizes are checked only at its end: a hostile one must not
   * make the window 4 GiB) */
  gsize len = 0, want = MIN (n, (gsize) 1 << 20);
  for (;;)
    {
      if (!cg_input_peek (r->in, want, out, &len, error))
        return FALSE;
      if (len < want || want == n)
        break;
      want = n - want > want ? 2 * want : n;
    }
  if (cg_input_offset (r->in) - r->origin < pos)
    len = 0; /* the input ended before @pos */
  if (len < n)
    r->len = MIN (r->len, (gsize) (cg_input_offset (r->in) - r->origin) + len);
  *got = len;
  return TRUE;
}

/* Takes @n bytes from @c; FALSE (with the error) when fewer remain. */
static gboolean
take (Reader *r, Cursor *c, gsize n, const char *what, const guint8 **out, GError **error)
{
  *out = NULL;
  if (c->end - c->pos < n)
    return fail (r, error, c->pos, "%s needs %" G_GSIZE_FORMAT " bytes, %" G_GSIZE_FORMAT " remain in the section",
                 what, n, c->end - c->pos);
  gsize got;
  if (!window (r, c->pos, n, out, &got, error))
    return FALSE;
  if (got < n)
    {
      /* a stream, whose size was not known when the section began: the
       * message a file of known size gets at the section's start */
      g_set_error (error, CG_ERROR, CG_ERROR_TRUNCATED,
                   "%s: offset %" G_GSIZE_FORMAT ": section %u of %" G_GUINT64_FORMAT " bytes runs past the end of the file",
                   r->name, r->section_at, r->section_tag, r->section_length);
      return FALSE;
    }
  c->pos += n;
  return TRUE;
}

gboolean
cg_amon_detect (const guint8 *data, gsize len, G_GNUC_UNUSED gboolean complete)
{
  return len >= AMON_MAGIC_LEN && memcmp (data, AMON_MAGIC, AMON_MAGIC_LEN) == 0;
}

/* ---- sections ---- */

static gboolean
read_objects (Reader *r, Cursor *c, GError **error)
{
  const guint8 *p;
  if (!take (r, c, 4, "the object count", &p, error))
    return FALSE;
  guint32 n = get32 (p);
  if ((guint64) n * AMON_OBJECT_FIXED > c->end - c->pos)
    return fail (r, error, c->pos - 4, "%u objects cannot fit in the section", n);
  for (guint32 i = 0; i < n; i++)
    {
      if (!take (r, c, AMON_OBJECT_FIXED, "an object", &p, error))
        return FALSE;
      guint64 bias = get64 (p);
      gboolean is_main = (get32 (p + 8) & AMON_OBJECT_MAIN) != 0;
      guint32 path_len = get32 (p + 12);
      const guint8 *path;
      if (!take (r, c, path_len, "an object's path", &path, error))
        return FALSE;
      const char *s = cg_graph_intern (r->graph, (const char *) path, path_len);
      g_array_append_val (r->object_bias, bias);
      g_array_append_val (r->object_main, is_main);
      g_ptr_array_add (r->object_path, (gpointer) s);
    }
  return TRUE;
}

/* A routine's name: the one the file gives, else the executable's symbol
 * that holds its address (cgmerge --executable), else 0x + its offset.
 * Newly allocated; NULL on error. */
static char *
routine_name (Reader *r, guint32 object, guint64 offset, const guint8 *name, guint32 name_len, GError **error)
{
  if (name_len > 0)
    return g_strndup ((const char *) name, name_len);
  gboolean in_main = object == AMON_NO_OBJECT || g_array_index (r->object_main, gboolean, object);
  if (in_main && r->options && r->options->executable && !r->exe_tried)
    {
      r->exe_tried = TRUE;
      CgSymbolsCache *cache = r->options->symbols;
      if (cache == NULL)
        cache = r->own_symbols = cg_symbols_cache_new ();
      /* a routine's address is its entry: a clone's (foo.isra.0) is
       * its own, whatever gprof's choice makes of its bytes */
      r->exe = cg_symbols_cache_get (cache, r->options->executable, CG_SYMBOLS_ALL, error);
      if (r->exe == NULL)
        return NULL;
    }
  /* the symbol that holds it */
  gint sym = in_main && r->exe ? cg_symbols_lookup (r->exe, offset) : -1;
  guint n_syms;
  const char *found = sym >= 0 ? cg_symbols_array (r->exe, &n_syms)[sym].name : NULL;
  return found ? g_strdup (found) : g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", offset);
}

typedef struct
{
  const char *object; /* interned */
  guint64 offset;     /* address less the object's bias */
  char *name;
  gsize at;           /* in the file */
} Routine;

static void
routine_clear (gpointer p)
{
  g_free (((Routine *) p)->name);
}

/* One function per routine.  Routines of one name in one object at
 * different offsets are different functions (static functions of several
 * files, which gprof lists apart too), so that none is merged with
 * another (their calls summed, a cycle made of two functions): each is
 * put in the object cg_elf_apart_object names, after its source file
 * where the object's symbol table tells it from the others
 * (cg_elf_functions_apart: as the gmon.out, perf and gperftools readers
 * name them), else after its offset ("PATH@0xOFFSET", where the object
 * cannot be read).  Routines at one offset of one object (a library
 * loaded twice) are one function. */
static gboolean
ensure_routine_functions (Reader *r, const GArray *routines, GError **error)
{
  g_autoptr (GHashTable) first = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) repeated = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < routines->len; i++)
    {
      const Routine *x = &g_array_index (routines, Routine, i);
      char *key = g_strconcat (x->object, "\n", x->name, NULL);
      g_ptr_array_add (keys, key);
      gpointer at;
      if (!g_hash_table_lookup_extended (first, key, NULL, &at))
        g_hash_table_insert (first, g_strdup (key), GUINT_TO_POINTER (i));
      else if (g_array_index (routines, Routine, GPOINTER_TO_UINT (at)).offset != x->offset)
        g_hash_table_add (repeated, key);
    }
  /* the objects of repeated names: path -> CgElfFunctions, or NULL */
  g_autoptr (GHashTable) elf
    = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) cg_elf_functions_free);
  for (guint i = 0; i < routines->len; i++)
    {
      const Routine *x = &g_array_index (routines, Routine, i);
      g_autofree char *apart = NULL;
      if (g_hash_table_contains (repeated, g_ptr_array_index (keys, i)))
        {
          gpointer v;
          if (!g_hash_table_lookup_extended (elf, x->object, NULL, &v))
            {
              v = cg_elf_functions_load (x->object, NULL);
              g_hash_table_insert (elf, (gpointer) x->object, v);
            }
          const char *file = v ? cg_elf_functions_apart (v, x->offset, x->name) : NULL;
          g_autofree char *offset = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", x->offset);
          apart = cg_elf_apart_object (x->object, file ? file : offset);
        }
      CgFunctionId f = cg_graph_ensure_function (r->graph, apart ? apart : x->object, x->name);
      if (f == CG_NO_ID)
        return fail (r, error, x->at, "too many functions");
      g_array_append_val (r->routine_function, f);
    }
  /* what still shares a function (one offset twice) is aliased */
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = 0; i < r->routine_function->len && !r->aliases; i++)
    r->aliases = !g_hash_table_add (seen, GUINT_TO_POINTER (g_array_index (r->routine_function, CgFunctionId, i) + 1));
  return TRUE;
}

static gboolean
read_routines (Reader *r, Cursor *c, GError **error)
{
  const guint8 *p;
  if (!take (r, c, 4, "the routine count", &p, error))
    return FALSE;
  guint32 n = get32 (p);
  if ((guint64) n * AMON_ROUTINE_FIXED > c->end - c->pos)
    return fail (r, error, c->pos - 4, "%u routines cannot fit in the section", n);
  /* no more reserved than a stream's first bytes justify: its section
   * length is checked only when it ends */
  g_autoptr (GArray) routines = g_array_sized_new (FALSE, FALSE, sizeof (Routine), MIN (n, 65536u));
  g_array_set_clear_func (routines, routine_clear);
  for (guint32 i = 0; i < n; i++)
    {
      gsize at = c->pos;
      if (!take (r, c, AMON_ROUTINE_FIXED, "a routine", &p, error))
        return FALSE;
      guint64 address = get64 (p);
      guint32 object = get32 (p + 8), name_len = get32 (p + 12);
      const guint8 *name;
      if (!take (r, c, name_len, "a routine's name", &name, error))
        return FALSE;
      if (object != AMON_NO_OBJECT && object >= r->object_path->len)
        return fail (r, error, at + 8, "routine %u refers to object %u of %u", i, object, r->object_path->len);
      Routine x = {
        .object = object == AMON_NO_OBJECT ? "" : g_ptr_array_index (r->object_path, object),
        .offset = address - (object == AMON_NO_OBJECT ? 0 : g_array_index (r->object_bias, guint64, object)),
        .at = at,
      };
      x.name = routine_name (r, object, x.offset, name, name_len, error);
      if (x.name == NULL)
        return FALSE;
      g_array_append_val (routines, x);
    }
  return ensure_routine_functions (r, routines, error);
}

/* A history over routines made one over functions when routines alias:
 * a run of entries of one function keeps its last (a call between two
 * routines of one function is a direct recursion of the function), and
 * of a function's entries only the last is marked (its most recent
 * activation).  Returns the new length; *@recursion says that the running
 * function's call was folded into its caller's, so the context's entries
 * are direct recursive calls. */
static guint32
unalias (CgFunctionId *f, guint8 *m, guint32 len, gboolean *recursion)
{
  *recursion = len >= 2 && f[len - 1] == f[len - 2];
  guint32 k = 0;
  for (guint32 i = 0; i < len; i++)
    {
      if (k && f[k - 1] == f[i])
        k--;
      f[k++] = f[i];
    }
  g_autoptr (GHashTable) later = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint32 i = k; i-- > 0;)
    m[i] = g_hash_table_add (later, GUINT_TO_POINTER (f[i] + 1));
  return k;
}

/* @ticks of the file's clock in nanoseconds; FALSE on overflow. */
static gboolean
to_ns (Reader *r, guint64 ticks, guint64 *ns)
{
  G_GNUC_EXTENSION unsigned __int128 x = (unsigned __int128) ticks * 1000000000u / r->rate;
  if (x > G_MAXUINT64)
    return FALSE;
  *ns = (guint64) x;
  return TRUE;
}

static gboolean
add_calls (Reader *r, CgFunctionId a, CgFunctionId b, guint64 calls, gsize at, GError **error)
{
  CgArcId arc = cg_graph_ensure_arc (r->graph, a, b);
  if (arc == CG_NO_ID)
    return fail (r, error, at, "too many arcs");
  if (!cg_graph_arc_add_calls (r->graph, arc, calls))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s: offset %" G_GSIZE_FORMAT ": call counts exceed 64 bits",
                   r->name, at);
      return FALSE;
    }
  return TRUE;
}

static gboolean
overflow_at (Reader *r, gsize at, GError **error)
{
  g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s: offset %" G_GSIZE_FORMAT ": a count exceeds 64 bits", r->name, at);
  return FALSE;
}

static gboolean
read_contexts (Reader *r, Cursor *c, GError **error)
{
  const guint8 *p;
  if (!take (r, c, 8, "the context count", &p, error))
    return FALSE;
  guint64 n = get64 (p);
  if (n > (c->end - c->pos) / AMON_CONTEXT_FIXED)
    return fail (r, error, c->pos - 8, "%" G_GUINT64_FORMAT " contexts cannot fit in the section", n);
  CgContexts *cx = cg_profile_ensure_contexts (r->profile);
  guint nr = r->routine_function->len;
  g_autoptr (GArray) fun = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  g_autoptr (GArray) mark = g_array_new (FALSE, FALSE, sizeof (guint8));
  g_autoptr (GArray) routine = g_array_new (FALSE, FALSE, sizeof (guint32));
  const CgKind *kinds = cg_graph_event_kinds (r->graph);
  /* version 3: every context's entries (kept) from kept_at[k] to
   * kept_at[k + 1], for the contexts that name it as their parent */
  gboolean parents = r->version >= 3;
  g_autoptr (GArray) kept = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (GArray) kept_at = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize zero = 0;
  g_array_append_val (kept_at, zero);
  for (guint64 k = 0; k < n; k++)
    {
      gsize at = c->pos;
      if (!take (r, c, AMON_CONTEXT_FIXED, "a context", &p, error))
        return FALSE;
      guint32 len = get32 (p), parent = parents ? get32 (p + 4) : 0;
      guint64 ticks = get64 (p + 8), entries = get64 (p + 16), recursive = get64 (p + 24);
      if (len == 0)
        return fail (r, error, at, "context %" G_GUINT64_FORMAT " has an empty history", k);
      /* the parent's history first, then the entries written */
      guint32 from_parent = 0;
      gsize parent_at = 0;
      if (parent != 0)
        {
          if (parent > k)
            return fail (r, error, at + 4, "context %" G_GUINT64_FORMAT " names context %u as its parent, not an earlier one", k,
                         parent - 1);
          parent_at = g_array_index (kept_at, gsize, parent - 1);
          from_parent = (guint32) (g_array_index (kept_at, gsize, parent) - parent_at);
          if (from_parent >= len)
            return fail (r, error, at, "context %" G_GUINT64_FORMAT "'s history of %u entries does not extend its parent's of %u", k,
                         len, from_parent);
        }
      guint32 written = len - from_parent;
      const guint8 *h;
      if ((guint64) written * 4 > c->end - c->pos)
        return fail (r, error, at, "context %" G_GUINT64_FORMAT "'s history of %u entries cannot fit in the section", k, len);
      take (r, c, (gsize) written * 4, "a history", &h, error);
      g_array_set_size (fun, len);
      g_array_set_size (mark, len);
      g_array_set_size (routine, len);
      for (guint32 i = 0; i < len; i++)
        {
          guint32 e = i < from_parent ? g_array_index (kept, guint32, parent_at + i) : get32 (h + 4 * (i - from_parent)), x = e >> 1;
          if (x >= nr)
            return fail (r, error, at + AMON_CONTEXT_FIXED + 4 * (i - from_parent), "history entry refers to routine %u of %u", x,
                         nr);
          g_array_index (routine, guint32, i) = x;
          g_array_index (mark, guint8, i) = e & AMON_ENTRY_MARKED;
          if (parents)
            g_array_append_val (kept, e);
        }
      if (parents)
        {
          gsize end = kept->len;
          g_array_append_val (kept_at, end);
        }
      /* the invariants of A1-A5 hold for routines; functions may merge
       * routines (aliases), so they are checked on routine indexes */
      const char *why;
      if (!cg_contexts_check_history ((const CgFunctionId *) routine->data, (const guint8 *) mark->data, len, &why))
        return fail (r, error, at, "context %" G_GUINT64_FORMAT ": %s", k, why);
      for (guint32 i = 0; i < len; i++)
        g_array_index (fun, CgFunctionId, i) = g_array_index (r->routine_function, CgFunctionId, g_array_index (routine, guint32, i));
      guint64 raw_entries = entries, raw_recursive = recursive;
      gboolean recursion = FALSE;
      if (r->aliases)
        len = unalias ((CgFunctionId *) fun->data, (guint8 *) mark->data, len, &recursion);
      if (recursion)
        {
          if (recursive > G_MAXUINT64 - entries)
            return overflow_at (r, at, error);
          recursive += entries;
          entries = 0;
        }
      const CgFunctionId *f = (const CgFunctionId *) fun->data;
      const guint8 *m = (const guint8 *) mark->data;
      guint64 ns;
      if (!to_ns (r, ticks, &ns) || r->sum_time > G_MAXUINT64 - ticks || r->sum_entries > G_MAXUINT64 - raw_entries
          || r->sum_recursive > G_MAXUINT64 - raw_recursive)
        return overflow_at (r, at, error);
      r->sum_time += ticks;
      r->sum_entries += raw_entries;
      r->sum_recursive += raw_recursive;
      CgContextId id = cg_contexts_ensure (cx, f, m, len);
      if (id == CG_NO_ID)
        return fail (r, error, at, "too many contexts");
      CgValue v = { .n = ns };
      CgValue *cost = cg_contexts_cost (cx, id);
      CgValue *self = cg_graph_self (r->graph, f[len - 1]);
      if (!cg_value_add (kinds[r->event], &cost[r->event], v) || !cg_value_add (kinds[r->event], &self[r->event], v)
          || !cg_contexts_add_counts (cx, id, entries, recursive))
        return overflow_at (r, at, error);
      /* s_1 has no caller in the program: the context is part of an
       * activation nobody called (main's, a thread's start routine's),
       * whose inclusive cost is the graph's spontaneous cost, so views
       * make such a routine a root */
      CgValue *spont = cg_graph_spontaneous_mut (r->graph, f[0]);
      if (!cg_value_add (kinds[r->event], &spont[r->event], v))
        return overflow_at (r, at, error);
      /* every item's arcs; the entries are calls on the arc into s_n */
      for (guint32 i = 0; i + 1 < len; i++)
        if ((m[i] || m[i + 1]) && !add_calls (r, f[i], f[i + 1], i + 2 == len ? entries : 0, at, error))
          return FALSE;
      if (recursive && !add_calls (r, f[len - 1], f[len - 1], recursive, at, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
mismatch (Reader *r, gsize at, const char *what, guint64 said, guint64 found, GError **error)
{
  if (said == found)
    return TRUE;
  g_autofree char *msg = g_strdup_printf ("%s: offset %" G_GSIZE_FORMAT ": the totals say %" G_GUINT64_FORMAT " %s, the contexts add up to %" G_GUINT64_FORMAT,
                                          r->name, at, said, what, found);
  if (r->options && r->options->lenient)
    {
      cg_read_warn (r->options, "%s", msg);
      return TRUE;
    }
  g_set_error (error, CG_ERROR, CG_ERROR_MISMATCH, "%s", msg);
  return FALSE;
}

static gboolean
read_totals (Reader *r, Cursor *c, gboolean have_contexts, GError **error)
{
  gsize at = c->pos;
  if (c->end - c->pos < 8 * AMON_TOTAL_MIN)
    return fail (r, error, at, "the totals section has %" G_GSIZE_FORMAT " bytes, %d expected", c->end - c->pos,
                 8 * AMON_TOTAL_MIN);
  const guint8 *p;
  gsize fields = MIN ((c->end - c->pos) / 8, (gsize) AMON_TOTAL_N);
  if (!take (r, c, 8 * fields, "the totals", &p, error))
    return FALSE;
  /* the first files' 17 fields lack the calls not seen */
  r->unseen = fields > AMON_TOTAL_UNSEEN ? get64 (p + 8 * AMON_TOTAL_UNSEEN) : 0;
  c->pos = c->end; /* later versions may append fields */
  r->have_totals = TRUE;
  r->threads = get64 (p + 8 * AMON_TOTAL_THREADS);
  r->total_time = get64 (p + 8 * AMON_TOTAL_TIME);
  r->taken_out = get64 (p + 8 * AMON_TOTAL_OVERHEAD);
  guint64 calls = get64 (p + 8 * AMON_TOTAL_CALLS), rec = get64 (p + 8 * AMON_TOTAL_RECURSIVE),
          returns = get64 (p + 8 * AMON_TOTAL_RETURNS);
  r->events = calls > G_MAXUINT64 - rec - returns || rec > G_MAXUINT64 - returns ? G_MAXUINT64 : calls + rec + returns;
  if (!have_contexts)
    return TRUE;
  guint64 outside = get64 (p + 8 * AMON_TOTAL_OUTSIDE);
  if (r->sum_time > G_MAXUINT64 - outside)
    return overflow_at (r, at, error);
  return mismatch (r, at + 8 * AMON_TOTAL_TIME, "clock units", get64 (p + 8 * AMON_TOTAL_TIME), r->sum_time + outside, error)
         && mismatch (r, at + 8 * AMON_TOTAL_CALLS, "calls", get64 (p + 8 * AMON_TOTAL_CALLS), r->sum_entries, error)
         && mismatch (r, at + 8 * AMON_TOTAL_RECURSIVE, "recursive calls", get64 (p + 8 * AMON_TOTAL_RECURSIVE),
                      r->sum_recursive, error);
}

static gboolean
read_stopped (Reader *r, Cursor *c, GError **error)
{
  const guint8 *p, *msg;
  if (!take (r, c, 8, "the stop record", &p, error))
    return FALSE;
  guint32 reason = get32 (p), len = get32 (p + 4);
  if (!take (r, c, len, "the stop message", &msg, error))
    return FALSE;
  g_autofree char *text = g_utf8_make_valid ((const char *) msg, len);
  cg_read_warn (r->options, "%s: profiling stopped early (reason %u: %s); the profile covers the run until then",
                r->name, reason, text);
  return TRUE;
}

/* CALIBRATION (version 2): how the cost per event was measured. */
static gboolean
read_calibration (Reader *r, Cursor *c, GError **error)
{
  const guint8 *p;
  gsize have = c->end - c->pos;
  if (!take (r, c, have >= AMON_CALIBRATION_SIZE    ? AMON_CALIBRATION_SIZE
                   : have >= AMON_CALIBRATION_SPLIT   ? AMON_CALIBRATION_SPLIT
                   : have >= AMON_CALIBRATION_SAMPLES ? AMON_CALIBRATION_SAMPLES
                                                      : AMON_CALIBRATION_MIN,
             "the calibration record", &p, error))
    return FALSE;
  c->pos = c->end; /* later versions may append fields */
  r->calibrations = get64 (p);
  r->recent = get32 (p + 8);
  r->lowest_ps = get64 (p + 24);
  r->median_ps = get64 (p + 32);
  r->highest_ps = get64 (p + 40);
  if (have >= AMON_CALIBRATION_SAMPLES)
    {
      r->samples_program = get64 (p + 48);
      r->samples_monitor = get64 (p + 56);
      r->resid_total = (gint64) get64 (p + 64);
      r->threads_checked = get64 (p + 72);
    }
  if (have >= AMON_CALIBRATION_SPLIT)
    {
      /* a weight past a whole is no weight: the fields are left out */
      r->split_permille = get32 (p + 84);
      r->threads_split = r->split_permille <= 1000 ? get32 (p + 80) : 0;
    }
  if (have >= AMON_CALIBRATION_SIZE)
    {
      r->blind_events = get64 (p + 88);
      r->blind_units = get64 (p + 96);
      r->blind_program = get64 (p + 104);
      r->blind_monitor = get64 (p + 112);
      r->threads_blind = get64 (p + 120);
      r->cal_total = get64 (p + 128);
      r->samples_total = get64 (p + 136);
      r->blind_total = get64 (p + 144);
    }
  return TRUE;
}

/* The sampling clock's note: the time of the samples that fell in the
 * monitor's code is left out (as gprof's histogram leaves out mcount,
 * which is not in the program's text), that the program's own code ran
 * slower beside the monitor, and when the monitor's time is most of the
 * run, that it dominates.  The slowing is said whatever the share (as
 * what may be, below half): it is
 * not in proportion to it (jsonnet 0.18's bench.06, the monitor 28% of
 * the samples, read 53% above the bare run; mruby 3.1's bm_fib, 45%, 23
 * to 39% above).  NULL for a file that does not say (libamon before it
 * did: TOTALS' field 15 0). */
static char *
sampled_note (Reader *r)
{
  if (r->taken_out == 0)
    return NULL;
  gdouble out = (gdouble) r->taken_out / (gdouble) r->rate;
  gdouble sampled = out + (gdouble) r->total_time / (gdouble) r->rate;
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "the monitor's own time is left out: %.3g s of the %.3g s sampled (the samples that fell"
                          " in its code, as gprof leaves out mcount's)", out, sampled);
  if (sampled > 0 && out >= 0.5 * sampled)
    g_string_append_printf (s, "; the times are dominated by the probe: %.0f%% of the time was the monitor's, and the"
                               " program's own code ran slower beside it (sharing its caches), so its times may read"
                               " high", 100.0 * out / sampled);
  else
    g_string_append (s, "; the program's own code may run slower beside the monitor (the hooks' calls, the caches"
                        " it shares), so its times may read high (libamon(3), AMON_CLOCK=sample)");
  return g_string_free (s, FALSE);
}

/* The blind windows' estimate of the program's time (amon-blind.h), in
 * seconds: their samples set the total, and the other two measures (the
 * calibrations', all the samples') show its range where they disagree.
 * The three are sums over different threads (formats/amon.md: the
 * calibrations' over every thread, the samples' over those that had
 * them), so where some threads had no blind windows with the samples,
 * all three are taken over the threads that had (@part): the others'
 * time is what the profile charged them, the profile's total less the
 * blind windows' estimate (which set the times of their own threads), and
 * their calibrated cost is that charge.  That holds where every thread
 * the samples checked had blind windows too; else the other two are not
 * known over those threads, and the estimate is not disputed. */
typedef struct {
  guint64 samples;              /* the blind windows' samples */
  gdouble est, err, cal, all;   /* err: two standard errors, in % */
  gdouble lo, hi;               /* the three estimates' range */
  gboolean disputed;            /* cal or all lies beyond err of est */
  gboolean part;                /* over some of the threads only */
  gdouble others;               /* where @part and known, the other threads' time */
} Blind;

/* Fills @b; FALSE (and @b's samples 0) where the run had no blind
 * windows with samples.  Counts a hostile file may make wrap are no
 * samples. */
static gboolean
blind_estimate (const Reader *r, Blind *b)
{
  *b = (Blind) { 0 };
  b->samples = r->blind_program <= G_MAXUINT64 - r->blind_monitor ? r->blind_program + r->blind_monitor : 0;
  if (r->threads_blind == 0 || r->blind_total == 0 || b->samples == 0)
    {
      b->samples = 0;
      return FALSE;
    }
  /* two standard errors of the blind windows' share, smoothed as the
   * monitor does (amon_measure_settle) */
  gdouble fb = ((gdouble) r->blind_program + 1) / ((gdouble) b->samples + 2);
  b->err = 200.0 * sqrt ((1 - fb) / (fb * (gdouble) b->samples));
  b->est = (gdouble) r->blind_total / (gdouble) r->rate;
  guint64 cal = r->cal_total;
  b->part = r->threads > r->threads_blind;
  if (b->part)
    {
      /* the other threads' charge, and the calibrations' estimate of the
       * threads with blind windows */
      guint64 others = r->total_time > r->blind_total ? r->total_time - r->blind_total : 0;
      if (r->threads_checked != r->threads_blind || others > cal)
        return TRUE;
      cal -= others;
      b->others = (gdouble) others / (gdouble) r->rate;
    }
  b->cal = (gdouble) cal / (gdouble) r->rate;
  b->all = (gdouble) r->samples_total / (gdouble) r->rate;
  b->lo = MIN (b->est, MIN (b->cal, b->all));
  b->hi = MAX (b->est, MAX (b->cal, b->all));
  b->disputed = fabs (b->cal - b->est) > b->est * b->err / 100.0 || fabs (b->all - b->est) > b->est * b->err / 100.0;
  return TRUE;
}

/* The note every view prints with this source: what the monitor took out
 * of the times as its own cost, of how much it measured, and how the
 * cost per call and return was found; a warning where it is most of it.
 * A forked child's file of the sampling clock has no times: it says so. */
static char *
cost_note (Reader *r)
{
  /* a child of fork sampled nothing (libamon(3), AMON_CLOCK=sample) */
  if (r->clock == AMON_CLOCK_SAMPLE && (r->flags & AMON_FLAG_UNTIMED))
    return g_strdup ("a child of fork(2) profiled with AMON_CLOCK=sample: its calls are counted, its time is not"
                     " (the monitor makes no timers in a child, which may set SIGPROF back to its default action"
                     " before it execs)");
  if (!r->have_totals)
    return NULL;
  if (r->clock == AMON_CLOCK_SAMPLE)
    return sampled_note (r);
  gdouble out = (gdouble) r->taken_out / (gdouble) r->rate;
  gdouble measured = out + (gdouble) r->total_time / (gdouble) r->rate;
  GString *s = g_string_new (NULL);
  Blind b;
  gboolean blind = blind_estimate (r, &b);
  if (blind && b.disputed && b.part)
    g_string_append_printf (s, "the total of %" G_GUINT64_FORMAT " of the %" G_GUINT64_FORMAT " threads (those"
                               " whose blind windows had the samples) is an estimate, %.3g s (its samples' error"
                               " %.0f%%), within a range of %.3g to %.3g s: the calibrations put their own time at"
                               " %.3g s and all their samples at %.3g s, and how much of the hooks' cost overlaps"
                               " the program's own work is not known; ",
                            r->threads_blind, r->threads, b.est, b.err, b.lo, b.hi, b.cal, b.all);
  else if (blind && b.disputed)
    g_string_append_printf (s, "the total is an estimate, %.3g s (its samples' error %.0f%%), within a range of"
                               " %.3g to %.3g s: the calibrations put the program's own time at %.3g s and all"
                               " the samples at %.3g s, and how much of the hooks' cost overlaps the program's"
                               " own work is not known; ",
                            b.est, b.err, b.lo, b.hi, b.cal, b.all);
  g_string_append_printf (s, "instrumentation cost taken out: %.3g s of %.3g s measured (%" G_GUINT64_FORMAT
                          " calls and returns", out, measured, r->events);
  if (r->calibrations)
    g_string_append_printf (s, ", %.2f ns each on average with the monitor's other work (threads' set-up, calibrations);"
                            " the cost in force was the lowest of the last %u of %"
                            G_GUINT64_FORMAT " calibrations over the run: lowest %.2f, median %.2f, highest %.2f ns)",
                            r->events ? out * 1e9 / (gdouble) r->events : 0.0, r->recent, r->calibrations,
                            r->lowest_ps / 1000.0, r->median_ps / 1000.0, r->highest_ps / 1000.0);
  else
    g_string_append_printf (s, " at %.2f ns each, calibrated once at start-up)", r->overhead_ps / 1000.0);
  /* counts a hostile file may make wrap are no samples */
  guint64 samples = r->samples_program <= G_MAXUINT64 - r->samples_monitor ? r->samples_program + r->samples_monitor : 0;
  gboolean checked = r->threads_checked > 0 && samples > 0;
  if (checked)
    {
      /* the program's share of the samples to two standard errors, the
       * share smoothed by a sample each way as the monitor does */
      gdouble f = ((gdouble) r->samples_program + 1) / ((gdouble) samples + 2);
      gdouble err = 200.0 * sqrt (f * (1 - f) / (gdouble) samples) / f;
      if (blind)
        g_string_append_printf (s, "; the run's own samples, %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                                " in the program's code, and in its blind windows (%" G_GUINT64_FORMAT " of the calls"
                                " and returns, %.4g s of CPU time, where the hooks read no counter) %" G_GUINT64_FORMAT
                                " of %" G_GUINT64_FORMAT ", give the program's time to within %.0f%% (libamon(3),"
                                " AMON_CLOCK)",
                                r->samples_program, samples, r->blind_events, (gdouble) r->blind_units / (gdouble) r->rate,
                                r->blind_program, b.samples, b.err);
      else
        g_string_append_printf (s, "; the run's own samples, %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                                " in the program's code, give the program's time to within %.0f%%",
                                r->samples_program, samples, err);
      /* with blind windows the estimates open the note (above) */
      if (!blind && r->resid_total == 0 && r->threads_split == 0)
        g_string_append (s, ", and the calibrations agree");
      else if (!blind && r->resid_total != 0)
        g_string_append_printf (s, ", and the calibrations do not: the total was moved %.3g s %s to it, each"
                                " context given a weighted mean of its time so scaled and its own samples' share",
                                fabs ((gdouble) r->resid_total) / (gdouble) r->rate, r->resid_total < 0 ? "down" : "up");
      /* the time-stamp counter's split, wrong where its total is right */
      if (r->threads_split > 0)
        g_string_append_printf (s, "; in %u of the threads checked their split between contexts disputed the"
                                " calibrations' beyond its noise (the counter is read before the loads issued just"
                                " before a call come in, so a routine's cache misses are timed in its callee), and"
                                " the samples set up to %.0f%% of it there",
                                r->threads_split, r->split_permille / 10.0);
    }
  else if (samples > 0)
    g_string_append_printf (s, "; the run's %" G_GUINT64_FORMAT " samples were too few to check the calibrations",
                            samples);
  /* a thread without the samples keeps the calibrated cost, whatever the
   * others' show: say so where the check did not cover every thread */
  if (r->calibrations && r->threads > 1 && r->threads_checked == 0)
    g_string_append_printf (s, "; none of the %" G_GUINT64_FORMAT " threads had the samples to check them (100"
                            " samples, a tenth of a second of CPU time or more; a thread that blocks SIGPROF has none)", r->threads);
  else if (r->calibrations && r->threads > 1 && r->threads_checked < r->threads)
    g_string_append_printf (s, "; only %" G_GUINT64_FORMAT " of the %" G_GUINT64_FORMAT " threads had the samples to"
                            " check them (100 samples, a tenth of a second of CPU time or more; a thread that blocks SIGPROF"
                            " has none): the others keep the calibrated cost", r->threads_checked, r->threads);
  if (blind && b.disputed && b.part)
    g_string_append_printf (s, " (%.3g s of the total)", b.others);
  /* a time that is what remains of a larger measurement moves by the
   * error of what was taken out, magnified; the samples that set the
   * total see the instrumented program's own code, which may run quicker
   * than the bare one's (work hidden beside the hooks) or slower (the
   * caches shared with the monitor's tables: jsonnet 0.18's bench.06,
   * 13-65% above the bare run, where the note said only "low") */
  if (measured > 0 && out >= 0.5 * measured)
    {
      g_string_append_printf (s, "; the times are dominated by the probe: %.0f%% of what was measured was the"
                              " monitor's", 100.0 * out / measured);
      if (checked && blind)
        g_string_append (s, ", so their split between contexts rests on the cost per call being the same in each"
                            " and on each context's samples, and their total on the blind windows' samples, which"
                            " read high where the program's own code ran slower beside the monitor, which shares"
                            " its caches (libamon(3), AMON_CLOCK)");
      else if (checked && r->resid_total != 0)
        g_string_append (s, ", so their split between contexts rests on the cost per call being the same in each"
                            " and on each context's samples, and their total may read 20-40% low: the program's"
                            " own work that ran beside the hooks' counter reads is seen by no sample; or high, as"
                            " much or more, where the program's own code ran slower beside the monitor, which"
                            " shares its caches (libamon(3), AMON_CLOCK)");
      else if (checked)
        g_string_append (s, ", so their split between contexts rests on the cost per call being the same in each");
      else
        g_string_append_printf (s, ", so an error of 10%% in its cost per call moves them by %.0f%%",
                                out < measured ? 10.0 * out / (measured - out) : 100.0);
    }
  return g_string_free (s, FALSE);
}

/* The summary of the notes above that the views print at the head of a
 * table, to be read at a glance: the estimate of the total and its range,
 * what was taken out of how much was measured, whether the probe
 * dominates, and which threads the samples did not check; the report of
 * the inputs prints the whole (cg_profile_set_source_detail).  NULL where
 * the whole is this short already, or there is no note. */
static char *
cost_summary (Reader *r)
{
  if (r->clock == AMON_CLOCK_SAMPLE && (r->flags & AMON_FLAG_UNTIMED))
    return NULL;
  if (!r->have_totals || (r->clock == AMON_CLOCK_SAMPLE && r->taken_out == 0))
    return NULL;
  GString *s = g_string_new (NULL);
  gdouble out = (gdouble) r->taken_out / (gdouble) r->rate;
  gdouble all = out + (gdouble) r->total_time / (gdouble) r->rate;
  if (r->clock == AMON_CLOCK_SAMPLE)
    {
      g_string_append_printf (s, "the monitor's own time is left out: %.3g s of the %.3g s sampled", out, all);
      if (all > 0 && out >= 0.5 * all)
        g_string_append_printf (s, "; the times are dominated by the probe: %.0f%% of the time was the monitor's,"
                                   " and the program's own code ran slower beside it, so its times may read high",
                                100.0 * out / all);
      else
        g_string_append (s, "; the program's own code may run slower beside the monitor, so its times may read high");
      return g_string_free (s, FALSE);
    }
  Blind b;
  if (blind_estimate (r, &b) && b.disputed && b.part)
    g_string_append_printf (s, "the total of %" G_GUINT64_FORMAT " of the %" G_GUINT64_FORMAT " threads is an"
                               " estimate, %.3g s (its samples' error %.0f%%), within a range of %.3g to %.3g s; ",
                            r->threads_blind, r->threads, b.est, b.err, b.lo, b.hi);
  else if (b.disputed)
    g_string_append_printf (s, "the total is an estimate, %.3g s (its samples' error %.0f%%), within a range of"
                               " %.3g to %.3g s; ",
                            b.est, b.err, b.lo, b.hi);
  g_string_append_printf (s, "instrumentation cost taken out: %.3g s of %.3g s measured (%" G_GUINT64_FORMAT
                          " calls and returns)", out, all, r->events);
  if (r->calibrations && r->threads > 1 && r->threads_checked < r->threads)
    g_string_append_printf (s, "; %" G_GUINT64_FORMAT " of the %" G_GUINT64_FORMAT " threads had too few samples to"
                            " check the cost per call", r->threads - r->threads_checked, r->threads);
  if (b.disputed && b.part)
    g_string_append_printf (s, " (%.3g s of the total)", b.others);
  if (all > 0 && out >= 0.5 * all)
    g_string_append_printf (s, "; the times are dominated by the probe: %.0f%% of what was measured was the"
                            " monitor's", 100.0 * out / all);
  return g_string_free (s, FALSE);
}

/* What signal handlers' calls the monitor left out: they interrupted a
 * hook, and counted (libamon(3), CAVEATS): a handler's routines would
 * otherwise show fewer calls than they had, without a word.  Appended to
 * @s, after "; " where it holds a note; @s, or a new string where it is
 * NULL and there is something to say. */
static char *
with_unseen (Reader *r, char *s)
{
  if (r->unseen == 0)
    return s;
  GString *t = g_string_new (s);
  g_free (s);
  g_string_append_printf (t, "%s%" G_GUINT64_FORMAT " %s that signal handlers made while they interrupted the"
                          " monitor's hooks %s not in the profile: their time is charged where they interrupted"
                          " (libamon(3), CAVEATS)", t->len ? "; " : "", r->unseen, r->unseen == 1 ? "call" : "calls",
                          r->unseen == 1 ? "is" : "are");
  return g_string_free (t, FALSE);
}

/* Sets the source's note (cost_summary, or cost_note where there is no
 * summary) and its detail (cost_note in full where the note is its
 * summary), each with the signal handlers' calls left out. */
static void
set_source_note (Reader *r, CgProfile *profile)
{
  g_autofree char *detail = with_unseen (r, cost_note (r));
  g_autofree char *summary = cost_summary (r);
  if (summary == NULL)
    {
      cg_profile_set_source_note (profile, detail);
      return;
    }
  summary = with_unseen (r, g_steal_pointer (&summary));
  cg_profile_set_source_note (profile, summary);
  cg_profile_set_source_detail (profile, detail);
}

static gboolean
read_header (Reader *r, gsize *first_section, GError **error)
{
  const guint8 *p;
  gsize got;
  if (!window (r, 0, AMON_HEADER_SIZE, &p, &got, error))
    return FALSE;
  if (r->len < AMON_HEADER_SIZE)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_TRUNCATED, "%s: offset %" G_GSIZE_FORMAT ": the file ends inside its %d-byte header",
                   r->name, r->len, AMON_HEADER_SIZE);
      return FALSE;
    }
  guint32 version = get32 (p + 8), header_size = get32 (p + 12);
  if (version < AMON_VERSION_MIN || version > AMON_VERSION)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED,
                   "%s: offset 8: amon.out version %u is not supported (%d to %d are)", r->name, version,
                   AMON_VERSION_MIN, AMON_VERSION);
      return FALSE;
    }
  r->version = version;
  r->overhead_ps = get64 (p + 40);
  r->flags = get32 (p + 16);
  r->clock = get32 (p + 20);
  r->rate = get64 (p + 24);
  r->resolution_ps = get64 (p + 32);
  /* a stream's size is known once it ends: read as far as the header
   * says it reaches (p is then invalid) */
  if (header_size > AMON_HEADER_SIZE && header_size <= r->len && !window (r, header_size - 1, 1, &p, &got, error))
    return FALSE;
  if (header_size < AMON_HEADER_SIZE || header_size > r->len)
    return fail (r, error, 12, "header size %u is not between %d and the file's %" G_GSIZE_FORMAT " bytes", header_size,
                 AMON_HEADER_SIZE, r->len);
  if (r->clock < AMON_CLOCK_CPU || r->clock > AMON_CLOCK_SAMPLE)
    return fail (r, error, 20, "unknown clock %u", r->clock);
  if (r->rate == 0)
    return fail (r, error, 24, "the clock rate is 0");
  static const char *const descriptions[] = {
    [AMON_CLOCK_CPU] = "CPU time of each thread (libamon, AMON_CLOCK=cpu)",
    [AMON_CLOCK_WALL] = "elapsed time, CLOCK_MONOTONIC (libamon, AMON_CLOCK=wall)",
    [AMON_CLOCK_TSC] = "elapsed time, time-stamp counter (libamon, AMON_CLOCK=tsc)",
    [AMON_CLOCK_SAMPLE] = "CPU time of each thread, sampled (libamon, AMON_CLOCK=sample)",
  };
  const char *event = r->clock == AMON_CLOCK_CPU || r->clock == AMON_CLOCK_SAMPLE ? "cpu-time" : "wall-time";
  gboolean is_new = cg_graph_find_event (r->graph, event) < 0;
  GError *local = NULL;
  if (!cg_profile_ensure_event (r->profile, event, "seconds", CG_KIND_INTEGER, &r->event, &local))
    {
      g_set_error (error, CG_ERROR, local->code, "%s: %s", r->name, local->message);
      g_error_free (local);
      return FALSE;
    }
  if (is_new)
    {
      cg_graph_set_event_scale (r->graph, r->event, 1e-9);
      cg_graph_set_event_description (r->graph, r->event, descriptions[r->clock]);
    }
  else if (cg_graph_event_scale (r->graph, r->event) != 1e-9)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_MISMATCH, "%s: event %s is kept in another scale by an earlier input",
                   r->name, event);
      return FALSE;
    }
  else if (g_strcmp0 (cg_graph_event_description (r->graph, r->event), descriptions[r->clock]) != 0)
    /* CPU time timed at each call and sampled are both the program's
     * CPU time, but not measured alike: the sum is said to mix them */
    cg_read_warn (r->options, "%s: its %s is %s, an earlier input's %s: the sum mixes the two", r->name, event,
                  descriptions[r->clock], cg_graph_event_description (r->graph, r->event));
  *first_section = header_size;
  return TRUE;
}

gboolean
cg_read_amon (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error)
{
  Reader r = {
    .in = input,
    .origin = cg_input_offset (input),
    .len = cg_input_size (input) >= 0 ? (gsize) cg_input_size (input) : G_MAXSIZE,
    .name = cg_input_name (input),
    .profile = profile,
    .graph = cg_profile_graph (profile),
    .options = options,
  };
  const guint8 *p;
  gsize got;
  if (!window (&r, 0, AMON_MAGIC_LEN, &p, &got, error))
    return FALSE;
  if (!cg_amon_detect (p, got, TRUE))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s: offset 0: not an amon.out file", r.name);
      return FALSE;
    }
  r.object_bias = g_array_new (FALSE, FALSE, sizeof (guint64));
  r.object_main = g_array_new (FALSE, FALSE, sizeof (gboolean));
  r.object_path = g_ptr_array_new ();
  r.routine_function = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  gsize pos = 0;
  gboolean ok = read_header (&r, &pos, error), ended = FALSE;
  guint32 last = 0; /* sections come in tag order, each once */
  while (ok && !ended)
    {
      if (!window (&r, pos, AMON_SECTION_HEADER_SIZE, &p, &got, error))
        {
          ok = FALSE;
          break;
        }
      if (r.len - pos < AMON_SECTION_HEADER_SIZE)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_TRUNCATED, "%s: offset %" G_GSIZE_FORMAT ": the file ends before its END section",
                       r.name, pos);
          ok = FALSE;
          break;
        }
      guint32 tag = get32 (p);
      guint64 length = get64 (p + 8);
      r.section_at = pos;
      r.section_tag = tag;
      r.section_length = length;
      if (length > r.len - pos - AMON_SECTION_HEADER_SIZE)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_TRUNCATED,
                       "%s: offset %" G_GSIZE_FORMAT ": section %u of %" G_GUINT64_FORMAT " bytes runs past the end of the file",
                       r.name, pos, tag, length);
          ok = FALSE;
          break;
        }
      if (tag != AMON_SECTION_END && tag <= last)
        {
          ok = fail (&r, error, pos, "section %u is out of order or repeated", tag);
          break;
        }
      Cursor c = { pos + AMON_SECTION_HEADER_SIZE, pos + AMON_SECTION_HEADER_SIZE + (gsize) length };
      switch (tag)
        {
        case AMON_SECTION_END:
          ended = TRUE;
          break;
        case AMON_SECTION_OBJECTS:
          ok = read_objects (&r, &c, error);
          break;
        case AMON_SECTION_ROUTINES:
          ok = read_routines (&r, &c, error);
          break;
        case AMON_SECTION_CONTEXTS:
          ok = read_contexts (&r, &c, error);
          break;
        case AMON_SECTION_TOTALS:
          ok = read_totals (&r, &c, last >= AMON_SECTION_CONTEXTS, error);
          break;
        case AMON_SECTION_STOPPED:
          ok = read_stopped (&r, &c, error);
          break;
        case AMON_SECTION_CALIBRATION:
          ok = read_calibration (&r, &c, error);
          break;
        default:
          c.pos = c.end; /* a later version's section */
          break;
        }
      if (ok && !ended && c.pos != c.end)
        ok = fail (&r, error, c.pos, "section %u has %" G_GSIZE_FORMAT " bytes left over", tag, c.end - c.pos);
      last = tag == AMON_SECTION_END ? last : tag;
      pos = c.end;
    }
  if (ok)
    {
      /* the program's path is the command the views name ("of: ...") */
      const char *program = NULL;
      for (guint i = 0; i < r.object_path->len && program == NULL; i++)
        if (g_array_index (r.object_main, gboolean, i))
          program = g_ptr_array_index (r.object_path, i);
      cg_profile_add_source (profile, "amon", r.name, program, "libamon");
      /* the sampling clock's samples behind the time, one every period
       * of CPU time (the clock's resolution, amon.out(5)), for the noise
       * of differences */
      guint64 ns;
      if (r.clock == AMON_CLOCK_SAMPLE && !(r.flags & AMON_FLAG_UNTIMED) && r.have_totals && r.resolution_ps >= 1000
          && to_ns (&r, r.total_time, &ns) && ns > 0)
        {
          gdouble samples = round ((gdouble) ns * 1000.0 / (gdouble) r.resolution_ps);
          if (samples >= 1 && samples < 1e18)
            cg_graph_add_event_samples (r.graph, r.event, (guint64) samples, (gdouble) ns);
        }
      set_source_note (&r, profile);
    }
  g_array_unref (r.object_bias);
  g_array_unref (r.object_main);
  g_ptr_array_unref (r.object_path);
  g_array_unref (r.routine_function);
  cg_symbols_cache_free (r.own_symbols);
  return ok;
}
