/* cg-read-pstats.c — Python's profile statistics into the graph.
 *
 * Steps: scan the dict by its shape into keys (functions) and arcs,
 * checking each value where it is read; check that every caller is a
 * key; then make the functions and arcs in the order pyprof2calltree
 * writes them (its entries sorted by key, each one's calls by the
 * callee's key), so that the graph is the one its conversion gives.
 */
#include "config.h"

#include "cg-read-pstats.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "cg-error.h"
#include "cg-marshal.h"
#include "cg-scc.h"

/* 2^63 ns, about 292 years: no time of a run */
#define MAX_SECONDS 9.2e9

typedef struct {
  guint32 file, name; /* string ids */
  gint64 line;
  guint64 at;         /* offset of its first mention */
  gboolean defined;   /* a key of the dict, not only a caller */
  guint64 self, cumulative; /* ns */
  guint32 rank;       /* in pyprof2calltree's order */
  CgFunctionId function;
} Key;

typedef struct {
  guint32 caller, callee; /* keys */
  guint64 calls, inclusive;
  gboolean timed;
} Arc;

typedef struct {
  CgProfile *profile;
  CgGraph *graph;
  CgMarshal *m;
  const char *name;
  GArray *keys;       /* Key */
  GHashTable *index;  /* "file id:line:name id" -> key index + 1 */
  GArray *arcs;       /* Arc */
  guint event;
} Reader;

static gboolean G_GNUC_PRINTF (5, 6)
fail (Reader *r, GError **error, CgError code, guint64 at, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  cg_read_failv (error, code, r->name, CG_AT_OFFSET, at, format, ap);
  va_end (ap);
  return FALSE;
}

static const char *
found (const CgMarshalItem *item)
{
  switch (item->kind)
    {
    case CG_MARSHAL_NONE: return "None";
    case CG_MARSHAL_INT: return "an integer";
    case CG_MARSHAL_FLOAT: return "a float";
    case CG_MARSHAL_STRING: return "a string";
    case CG_MARSHAL_TUPLE: return item->n == 1 ? "a tuple of 1" : "a tuple";
    case CG_MARSHAL_DICT: return "a dict";
    case CG_MARSHAL_DICT_END: return "the dict's end";
    case CG_MARSHAL_CODE: return "a code object";
    case CG_MARSHAL_CONTAINER_REF: return "a reference to a container";
    case CG_MARSHAL_OTHER: break;
    }
  return "another object";
}

static gboolean
wrong (Reader *r, const CgMarshalItem *item, const char *expected, GError **error)
{
  if (item->kind == CG_MARSHAL_TUPLE)
    return fail (r, error, CG_ERROR_PARSE, item->offset, "expected %s, found a tuple of %" G_GINT64_FORMAT, expected,
                 item->n);
  return fail (r, error, CG_ERROR_PARSE, item->offset, "expected %s, found %s", expected, found (item));
}

static gboolean
next (Reader *r, CgMarshalItem *item, GError **error)
{
  return cg_marshal_next (r->m, item, error);
}

/* A string member of a key, interned (UTF-8 made valid: Python 2's str
 * and Python 3's surrogates are bytes of no particular encoding; a NUL
 * ends it). */
static gboolean
string_of (Reader *r, const CgMarshalItem *item, const char *what, guint32 *id, GError **error)
{
  if (item->kind != CG_MARSHAL_STRING)
    return wrong (r, item, what, error);
  const char *s = (const char *) item->s;
  if (g_utf8_validate (s, (gssize) item->len, NULL) && memchr (s, '\0', item->len) == NULL)
    *id = cg_graph_intern_id (r->graph, s, (gssize) item->len);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (s, (gssize) item->len);
      *id = cg_graph_intern_id (r->graph, valid, -1);
    }
  return TRUE;
}

/* The key (filename, lineno, funcname) whose first item @tuple was read,
 * as the index of its Key. */
static gboolean
key (Reader *r, const CgMarshalItem *tuple, guint32 *k, GError **error)
{
  static const char expected[] = "a function's key (a tuple of filename, line number and function name)";
  CgMarshalItem item;
  if (tuple->kind == CG_MARSHAL_CONTAINER_REF && tuple->meaning > 0)
    {
      *k = (guint32) (tuple->meaning - 1);
      return TRUE;
    }
  if (tuple->kind != CG_MARSHAL_TUPLE || tuple->n != 3)
    return wrong (r, tuple, expected, error);
  guint32 file, name;
  if (!next (r, &item, error) || !string_of (r, &item, "a filename (a string)", &file, error))
    return FALSE;
  if (!next (r, &item, error))
    return FALSE;
  if (item.kind != CG_MARSHAL_INT || item.big)
    return wrong (r, &item, "a line number (an integer)", error);
  gint64 line = item.n;
  if (line < 0 || line > G_MAXUINT32)
    return fail (r, error, CG_ERROR_PARSE, item.offset, "a line number of %" G_GINT64_FORMAT, line);
  if (!next (r, &item, error))
    return FALSE;
  if (item.kind == CG_MARSHAL_CODE || (item.kind == CG_MARSHAL_CONTAINER_REF && item.type == 'c'))
    {
      /* the profile module's entry for the command it ran (a code object
       * where `python3 -m profile` ran a script), once or referred to */
      if (item.kind == CG_MARSHAL_CODE && !cg_marshal_skip_code (r->m, error))
        return FALSE;
      name = cg_graph_intern_id (r->graph, "<code object>", -1);
    }
  else if (!string_of (r, &item, "a function name (a string)", &name, error))
    return FALSE;
  char text[64];
  g_snprintf (text, sizeof text, "%u:%" G_GINT64_FORMAT ":%u", file, line, name);
  gpointer at = g_hash_table_lookup (r->index, text);
  if (at != NULL)
    *k = GPOINTER_TO_UINT (at) - 1;
  else
    {
      Key new_key = { .file = file, .name = name, .line = line, .at = tuple->offset, .function = CG_NO_ID };
      *k = r->keys->len;
      g_array_append_val (r->keys, new_key);
      g_hash_table_insert (r->index, g_strdup (text), GUINT_TO_POINTER (*k + 1));
    }
  cg_marshal_set_meaning (r->m, tuple, (guint64) *k + 1);
  return TRUE;
}

/* A count: an integer of 0 to 2^63-1. */
static gboolean
count (Reader *r, const char *what, guint64 *value, GError **error)
{
  CgMarshalItem item;
  if (!next (r, &item, error))
    return FALSE;
  if (item.kind != CG_MARSHAL_INT)
    return wrong (r, &item, what, error);
  if (item.big)
    return fail (r, error, CG_ERROR_OVERFLOW, item.offset, "%s past 64 bits", what);
  if (item.n < 0)
    return fail (r, error, CG_ERROR_PARSE, item.offset, "%s of %" G_GINT64_FORMAT ", below 0", what, item.n);
  *value = (guint64) item.n;
  return TRUE;
}

/* A time in seconds (a float, or an integer where the profile module
 * has no time yet) as whole nanoseconds, rounded. */
static gboolean
seconds (Reader *r, const char *what, guint64 *ns, GError **error)
{
  CgMarshalItem item;
  if (!next (r, &item, error))
    return FALSE;
  gdouble x;
  if (item.kind == CG_MARSHAL_FLOAT)
    x = item.x;
  else if (item.kind == CG_MARSHAL_INT && !item.big)
    x = (gdouble) item.n;
  else
    return wrong (r, &item, what, error);
  if (!isfinite (x) || x < 0)
    return fail (r, error, CG_ERROR_PARSE, item.offset, "%s of %g s: expected a finite time of 0 or more", what, x);
  if (x >= MAX_SECONDS)
    return fail (r, error, CG_ERROR_OVERFLOW, item.offset, "%s of %g s, past 2^63 ns", what, x);
  /* the same operations as Python's int(x * 1e9 + 0.5) */
  *ns = (guint64) floor (x * 1e9 + 0.5);
  return TRUE;
}

static gboolean
add (Reader *r, guint64 *sum, guint64 v, guint64 at, GError **error)
{
  if (*sum > G_MAXUINT64 - v)
    return fail (r, error, CG_ERROR_OVERFLOW, at, "a sum of times past 64 bits");
  *sum += v;
  return TRUE;
}

/* One caller's entry in @callee's callers: (nc, cc, tt, ct) from
 * cProfile, a count from the profile module. */
static gboolean
caller_entry (Reader *r, guint32 caller, guint32 callee, GError **error)
{
  CgMarshalItem item;
  guint64 at = cg_marshal_offset (r->m);
  if (!next (r, &item, error))
    return FALSE;
  Arc arc = { .caller = caller, .callee = callee };
  if (item.kind == CG_MARSHAL_INT)
    {
      if (item.big)
        return fail (r, error, CG_ERROR_OVERFLOW, at, "a caller's count past 64 bits");
      if (item.n < 0)
        return fail (r, error, CG_ERROR_PARSE, at, "a caller's count of %" G_GINT64_FORMAT ", below 0", item.n);
      arc.calls = (guint64) item.n;
    }
  else if (item.kind == CG_MARSHAL_TUPLE && item.n == 4)
    {
      guint64 primitive, self;
      if (!count (r, "a caller's calls (nc)", &arc.calls, error)
          || !count (r, "a caller's primitive calls (cc)", &primitive, error)
          || !seconds (r, "a caller's own time (tt)", &self, error)
          || !seconds (r, "a caller's cumulative time (ct)", &arc.inclusive, error))
        return FALSE;
      arc.timed = TRUE;
      cg_marshal_set_meaning (r->m, &item, 0);
    }
  else
    return wrong (r, &item, "a caller's entry (a tuple of nc, cc, tt and ct, or a count)", error);
  g_array_append_val (r->arcs, arc);
  return TRUE;
}

/* The callers dict of the function @callee. */
static gboolean
callers (Reader *r, guint32 callee, GError **error)
{
  CgMarshalItem dict, item;
  if (!next (r, &dict, error))
    return FALSE;
  if (dict.kind != CG_MARSHAL_DICT)
    return wrong (r, &dict, "the dict of the function's callers", error);
  for (;;)
    {
      guint32 caller;
      if (!next (r, &item, error))
        return FALSE;
      if (item.kind == CG_MARSHAL_DICT_END)
        break;
      if (!key (r, &item, &caller, error) || !caller_entry (r, caller, callee, error))
        return FALSE;
    }
  cg_marshal_set_meaning (r->m, &dict, 0);
  return TRUE;
}

/* The function's value (cc, nc, tt, ct, callers). */
static gboolean
value (Reader *r, guint32 k, GError **error)
{
  CgMarshalItem tuple;
  if (!next (r, &tuple, error))
    return FALSE;
  if (tuple.kind != CG_MARSHAL_TUPLE || tuple.n != 5)
    return wrong (r, &tuple, "a function's statistics (a tuple of cc, nc, tt, ct and callers)", error);
  guint64 primitive, all, self, cumulative;
  if (!count (r, "primitive calls (cc)", &primitive, error) || !count (r, "calls (nc)", &all, error)
      || !seconds (r, "own time (tt)", &self, error) || !seconds (r, "cumulative time (ct)", &cumulative, error))
    return FALSE;
  Key *key = &g_array_index (r->keys, Key, k);
  if (!add (r, &key->self, self, tuple.offset, error) || !add (r, &key->cumulative, cumulative, tuple.offset, error))
    return FALSE;
  if (!callers (r, k, error))
    return FALSE;
  cg_marshal_set_meaning (r->m, &tuple, 0);
  return TRUE;
}

static gboolean
scan (Reader *r, GError **error)
{
  CgMarshalItem dict, item;
  if (!next (r, &dict, error))
    return FALSE;
  if (dict.kind != CG_MARSHAL_DICT)
    return wrong (r, &dict, "pstats' dict of functions", error);
  for (;;)
    {
      guint32 k;
      if (!next (r, &item, error))
        return FALSE;
      if (item.kind == CG_MARSHAL_DICT_END)
        break;
      if (!key (r, &item, &k, error))
        return FALSE;
      Key *key = &g_array_index (r->keys, Key, k);
      if (key->defined)
        return fail (r, error, CG_ERROR_PARSE, item.offset, "a function's key a second time in the dict");
      key->defined = TRUE;
      if (!value (r, k, error))
        return FALSE;
    }
  if (!cg_marshal_at_end (r->m))
    return fail (r, error, CG_ERROR_PARSE, cg_marshal_offset (r->m), "bytes after pstats' dict, which ends the file");
  for (guint i = 0; i < r->keys->len; i++)
    {
      const Key *key = &g_array_index (r->keys, Key, i);
      if (!key->defined)
        return fail (r, error, CG_ERROR_PARSE, key->at, "a caller (%s:%" G_GINT64_FORMAT "(%s)) that is no key of the"
                     " dict (pstats lists every caller as a function)", cg_graph_string (r->graph, key->file),
                     key->line, cg_graph_string (r->graph, key->name));
    }
  return TRUE;
}

/* ---- the graph ---- */

/* pyprof2calltree's order: by filename, line number, function name (as
 * Python compares their tuples: strings by code point, which UTF-8
 * bytes keep). */
static gint
compare_keys (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const Reader *r = user_data;
  const Key *x = &g_array_index (r->keys, Key, *(const guint32 *) a);
  const Key *y = &g_array_index (r->keys, Key, *(const guint32 *) b);
  int c = strcmp (cg_graph_string (r->graph, x->file), cg_graph_string (r->graph, y->file));
  if (c == 0)
    c = x->line < y->line ? -1 : x->line > y->line;
  if (c == 0)
    c = strcmp (cg_graph_string (r->graph, x->name), cg_graph_string (r->graph, y->name));
  return c;
}

static gint
compare_arcs (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const Reader *r = user_data;
  const Arc *x = a, *y = b;
  guint32 xc = g_array_index (r->keys, Key, x->caller).rank, yc = g_array_index (r->keys, Key, y->caller).rank;
  guint32 xe = g_array_index (r->keys, Key, x->callee).rank, ye = g_array_index (r->keys, Key, y->callee).rank;
  return xc != yc ? (xc < yc ? -1 : 1) : xe != ye ? (xe < ye ? -1 : 1) : 0;
}

/* The function of @k, made when new: its name made "name:line" where
 * @shared (a name in one file at two lines), as pyprof2calltree does. */
static CgFunctionId
function_of (Reader *r, guint32 k, GHashTable *shared)
{
  Key *key = &g_array_index (r->keys, Key, k);
  if (key->function != CG_NO_ID)
    return key->function;
  char pair[32];
  g_snprintf (pair, sizeof pair, "%u:%u", key->file, key->name);
  guint32 name = key->name;
  if (GPOINTER_TO_UINT (g_hash_table_lookup (shared, pair)) > 1)
    {
      g_autofree char *munged = g_strdup_printf ("%s:%" G_GINT64_FORMAT, cg_graph_string (r->graph, key->name),
                                                 key->line);
      name = cg_graph_intern_id (r->graph, munged, -1);
    }
  key->function = cg_graph_ensure_function_ids (r->graph, key->file, name);
  cg_graph_function_set_location_id (r->graph, key->function, key->file, (guint32) key->line);
  return key->function;
}

/* The profile module's arcs carry counts only: each function's ct is
 * shared among its calls from other functions by their counts, what
 * rounding down leaves going 1 ns at a time to the first of them, so
 * that the shares add up to it. */
static gboolean
share_counted (Reader *r, GError **error)
{
  g_autofree guint64 *in = g_new0 (guint64, MAX (r->keys->len, 1));
  for (guint i = 0; i < r->arcs->len; i++)
    {
      const Arc *a = &g_array_index (r->arcs, Arc, i);
      if (a->timed || a->caller == a->callee)
        continue;
      if (in[a->callee] > G_MAXUINT64 - a->calls)
        return fail (r, error, CG_ERROR_OVERFLOW, g_array_index (r->keys, Key, a->callee).at,
                     "a function's calls summed past 64 bits");
      in[a->callee] += a->calls;
    }
  g_autofree guint64 *given = g_new0 (guint64, MAX (r->keys->len, 1));
  for (guint i = 0; i < r->arcs->len; i++)
    {
      Arc *a = &g_array_index (r->arcs, Arc, i);
      if (a->timed || a->caller == a->callee || in[a->callee] == 0)
        continue;
      const Key *k = &g_array_index (r->keys, Key, a->callee);
      /* calls <= in, so the share is at most ct (< 2^63) */
      a->inclusive = (guint64) ((long double) k->cumulative * (long double) a->calls / (long double) in[a->callee]);
      a->inclusive = MIN (a->inclusive, k->cumulative - given[a->callee]);
      given[a->callee] += a->inclusive;
    }
  for (guint i = 0; i < r->arcs->len; i++)
    {
      Arc *a = &g_array_index (r->arcs, Arc, i);
      if (a->timed || a->caller == a->callee || a->calls == 0)
        continue;
      const Key *k = &g_array_index (r->keys, Key, a->callee);
      if (given[a->callee] < k->cumulative)
        {
          a->inclusive++;
          given[a->callee]++;
        }
    }
  return TRUE;
}

static gboolean
build (Reader *r, GError **error)
{
  guint n = r->keys->len;
  if (n > G_MAXINT)
    return fail (r, error, CG_ERROR_OVERFLOW, 0, "more than 2^31-1 functions");
  g_autofree guint32 *order = g_new (guint32, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint) n, sizeof *order, compare_keys, r);
  for (guint32 i = 0; i < n; i++)
    g_array_index (r->keys, Key, order[i]).rank = i;
  g_array_sort_with_data (r->arcs, compare_arcs, r);
  if (!share_counted (r, error))
    return FALSE;

  g_autoptr (GHashTable) shared = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < n; i++)
    {
      const Key *key = &g_array_index (r->keys, Key, i);
      char *pair = g_strdup_printf ("%u:%u", key->file, key->name);
      guint seen = GPOINTER_TO_UINT (g_hash_table_lookup (shared, pair));
      g_hash_table_replace (shared, pair, GUINT_TO_POINTER (seen + 1));
    }

  g_autofree gboolean *called = g_new0 (gboolean, MAX (n, 1));
  for (guint i = 0; i < r->arcs->len; i++)
    {
      const Arc *a = &g_array_index (r->arcs, Arc, i);
      called[a->callee] = TRUE;
    }
  guint a = 0;
  for (guint i = 0; i < n; i++)
    {
      guint32 k = order[i];
      CgFunctionId f = function_of (r, k, shared);
      Key *key = &g_array_index (r->keys, Key, k);
      CgValue *self = cg_graph_self (r->graph, f);
      if (self[r->event].n > G_MAXUINT64 - key->self)
        return fail (r, error, CG_ERROR_OVERFLOW, key->at, "a function's own time summed past 64 bits");
      self[r->event].n += key->self;
      /* what a function no one called spent: its own time and its calls',
       * as callgrind's reader takes it */
      guint64 spontaneous = key->self;
      for (; a < r->arcs->len && g_array_index (r->arcs, Arc, a).caller == k; a++)
        {
          const Arc *arc = &g_array_index (r->arcs, Arc, a);
          CgFunctionId callee = function_of (r, arc->callee, shared);
          CgArcId id = cg_graph_ensure_arc (r->graph, f, callee);
          if (!cg_graph_arc_add_calls (r->graph, id, arc->calls))
            return fail (r, error, CG_ERROR_OVERFLOW, key->at, "the calls summed past 64 bits");
          if (arc->callee == k)
            continue; /* a call of itself nests in a call of it: no time of its own (Min_E) */
          CgValue *inclusive = cg_graph_arc_inclusive (r->graph, id);
          if (inclusive[r->event].n > G_MAXUINT64 - arc->inclusive || spontaneous > G_MAXUINT64 - arc->inclusive)
            return fail (r, error, CG_ERROR_OVERFLOW, key->at, "a call's time summed past 64 bits");
          inclusive[r->event].n += arc->inclusive;
          spontaneous += arc->inclusive;
        }
      if (!called[k])
        {
          CgValue *s = cg_graph_spontaneous_mut (r->graph, f);
          if (s[r->event].n > G_MAXUINT64 - spontaneous)
            return fail (r, error, CG_ERROR_OVERFLOW, key->at, "a function's time summed past 64 bits");
          s[r->event].n += spontaneous;
        }
    }
  /* calls among a cycle's members may nest (the callgrind reader flags
   * other producers' cycles alike) */
  g_autoptr (CgScc) scc = cg_scc_find (r->graph, NULL, NULL);
  for (guint i = 0; i < n; i++)
    {
      CgFunctionId f = g_array_index (r->keys, Key, i).function;
      if (scc->size[scc->component_of[f]] > 1)
        cg_graph_function_set_flags (r->graph, f, cg_graph_function_flags (r->graph, f) | CG_FUNCTION_NESTED);
    }
  cg_graph_set_has_inclusive (r->graph, TRUE);
  return TRUE;
}

gboolean
cg_pstats_detect (const guint8 *data, gsize len, gboolean complete)
{
  if (len < 2 || (data[0] & 0x7f) != '{')
    return FALSE;
  /* an empty profile, marshal's empty dict and nothing after it: what
   * cProfile.Profile().dump_stats() writes of a profiler never enabled
   * (the other readers take an empty profile as one, a callgrind file's
   * header without functions, a V8 profile without samples) */
  if (len == 2)
    return complete && data[1] == '0';
  guint8 tuple = data[1] & 0x7f;
  gsize member;
  if (tuple == ')' && data[2] == 3)
    member = 3;
  else if (tuple == '(' && len >= 6 && data[2] == 3 && data[3] == 0 && data[4] == 0 && data[5] == 0)
    member = 6;
  else
    return FALSE;
  return len > member && strchr ("ustaAzZ", data[member] & 0x7f) != NULL && (data[member] & 0x7f) != '\0';
}

gboolean
cg_read_pstats (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error)
{
  (void) options;
  const guint8 *data;
  gsize len;
  if (!cg_input_contents (input, &data, &len, error))
    return FALSE;
  Reader r = {
    .profile = profile,
    .graph = cg_profile_graph (profile),
    .name = cg_input_name (input),
    .keys = g_array_new (FALSE, FALSE, sizeof (Key)),
    .index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
    .arcs = g_array_new (FALSE, FALSE, sizeof (Arc)),
  };
  r.m = cg_marshal_new (data, len, r.name);
  gboolean ok = scan (&r, error);
  if (ok)
    {
      GError *local = NULL;
      ok = cg_profile_ensure_event (profile, "ns", "ns", CG_KIND_INTEGER, &r.event, &local);
      if (!ok)
        {
          fail (&r, error, local->code, 0, "%s", local->message);
          g_error_free (local);
        }
      else if (cg_graph_event_description (r.graph, r.event) == NULL)
        cg_graph_set_event_description (r.graph, r.event, "Nanoseconds");
    }
  ok = ok && build (&r, error);
  if (ok)
    {
      gboolean timed = FALSE, counted = FALSE;
      for (guint i = 0; i < r.arcs->len; i++)
        timed |= g_array_index (r.arcs, Arc, i).timed, counted |= !g_array_index (r.arcs, Arc, i).timed;
      cg_profile_add_source (profile, "pstats", r.name, NULL,
                             timed && !counted ? "cProfile" : counted && !timed ? "profile" : NULL);
    }
  cg_marshal_free (r.m);
  g_array_unref (r.keys);
  g_array_unref (r.arcs);
  g_hash_table_unref (r.index);
  return ok;
}
