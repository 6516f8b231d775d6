/* cg-graph.c — arrays, interning and adjacency of the call graph.
 *
 * Costs are CgMatrix rows (one per function or arc, one column per event).
 *
 * Arcs are found by their caller: each function heads a list of its
 * out-arcs, newest first, threaded through a parallel array (4 bytes an
 * arc, where a hash index would take 10 to 20).  Most functions call a
 * few others, and readers add a caller's arcs together, so the walk stays
 * in a cache line or two; a function whose list grows past BIG_DEGREE has
 * its arcs in a hash index instead, so a hub with a hundred thousand
 * callees costs no more per lookup than a leaf.  This index is built on
 * first use: a reader that dedupes arcs itself appends them
 * (cg_graph_append_arc) and merges the duplicates it could not see once
 * at the end (cg_graph_merge_arcs), and never pays for it.
 */
#include "config.h"

#include "cg-graph.h"

#include <string.h>

#include "cg-csr.h"
#include "cg-error.h"
#include "cg-matrix.h"
#include "cg-pair-map.h"
#include "cg-strings.h"

/* Out-degree from which a caller's arcs are hashed. */
#define BIG_DEGREE 16


typedef struct {
  guint32 name;   /* string ids */
  guint32 object;
  guint32 file;
  guint32 line;
  guint32 flags;
} FunctionRec;

typedef struct {
  CgFunctionId caller;
  CgFunctionId callee;
  guint64 calls;
} ArcRec;

typedef struct {
  guint32 *start; /* n_functions + 1 offsets */
  CgArcId *arcs;
  CgFunctionId *ends; /* the arcs' far ends: callees out, callers in */
} Adjacency;

/* Finding an arc by (caller, callee); see the top of the file. */
typedef struct {
  GArray *heads;          /* CgArcId per function: its newest out-arc */
  GArray *next;           /* CgArcId per arc: the caller's next older out-arc */
  GByteArray *big;        /* per function: its out-arcs are in big_callers */
  CgPairMap *big_callers; /* (caller, callee) -> arc */
} ArcIndex;

struct _CgGraph {
  CgStrings *strings;      /* interned strings by id */
  GString *scratch;        /* for names that need escaping */

  CgEvents *events;        /* the profile's schema, shared with its tree and contexts */
  guint64 generation;      /* counts changes, so that derived data can tell they are stale */

  GArray *functions;       /* FunctionRec */
  CgMatrix self;           /* n_functions × n_events */
  /* spontaneous costs: few functions have any (a program's entry, thread
   * starts), so rows exist only for those; values == NULL until first used */
  CgMatrix spontaneous;
  /* per function, its row or CG_NO_ID: an array, not a hash, as writers
   * ask it of every function in turn (4 bytes a function, up to the last
   * that has a row) */
  guint32 *spontaneous_row;
  gsize spontaneous_row_len;
  /* the function index, NULL until a lookup needs it (functions_indexed):
   * per name, its first function, found by the name's string id, which
   * for a new name is the last: no hashing, and no cache miss for the
   * millions of functions a reader adds; a name in several objects
   * (every shared object has its _init) also has its functions in
   * function_index, by (object id, name id) */
  CgFunctionId *function_by_name; /* per string id, CG_NO_ID: none */
  gsize function_by_name_len;
  CgPairMap *function_index;

  /* ArcRec: a plain array with room, not a GArray, as readers append
   * millions of arcs one by one */
  ArcRec *arcs;
  guint n_arcs;
  gsize arcs_capacity;
  CgMatrix inclusive;      /* n_arcs × n_events */
  ArcIndex *arc_index;     /* NULL until needed */
  guint64 total_calls;     /* sum of all arc calls: fits, so every partial sum does */
  gboolean has_inclusive;

  /* caches, rebuilt when stale */
  Adjacency out, in;
  guint adjacency_arcs;      /* n_arcs when built, G_MAXUINT when never */
  guint adjacency_functions;
  guint8 *ambiguous;
  guint ambiguous_functions;
};

static void
function_key (gconstpointer data, guint32 f, guint32 *object, guint32 *name)
{
  const FunctionRec *rec = &g_array_index (((const CgGraph *) data)->functions, FunctionRec, f);
  *object = rec->object;
  *name = rec->name;
}

static void
arc_key (gconstpointer data, guint32 a, guint32 *caller, guint32 *callee)
{
  const ArcRec *rec = &((const CgGraph *) data)->arcs[a];
  *caller = rec->caller;
  *callee = rec->callee;
}

CgGraph *
cg_graph_new (void)
{
  CgGraph *g = g_new0 (CgGraph, 1);
  g->strings = cg_strings_new ();
  g->scratch = g_string_new (NULL);
  g->events = cg_events_new ();
  g->functions = g_array_new (FALSE, FALSE, sizeof (FunctionRec));
  cg_matrix_init (&g->self, 0);
  cg_matrix_init (&g->inclusive, 0);
  cg_events_attach (g->events, &g->self);
  cg_events_attach (g->events, &g->inclusive);
  g->adjacency_arcs = G_MAXUINT;
  cg_graph_intern (g, "", 0); /* id 0: unknown object / file */
  return g;
}

static void
drop_arc_index (CgGraph *g)
{
  ArcIndex *x = g->arc_index;
  if (x == NULL)
    return;
  g_array_unref (x->heads);
  g_array_unref (x->next);
  g_byte_array_unref (x->big);
  cg_pair_map_free (x->big_callers);
  g_free (x);
  g->arc_index = NULL;
}

void
cg_graph_free (CgGraph *g)
{
  if (g == NULL)
    return;
  cg_strings_free (g->strings);
  g_string_free (g->scratch, TRUE);
  cg_events_detach (g->events, &g->self);
  cg_events_detach (g->events, &g->inclusive);
  if (g->spontaneous.values)
    cg_events_detach (g->events, &g->spontaneous);
  cg_events_unref (g->events);
  g_array_unref (g->functions);
  cg_matrix_clear (&g->self);
  cg_matrix_clear (&g->spontaneous);
  g_free (g->spontaneous_row);
  g_free (g->function_by_name);
  cg_pair_map_free (g->function_index);
  g_free (g->arcs);
  cg_matrix_clear (&g->inclusive);
  drop_arc_index (g);
  g_free (g->out.start);
  g_free (g->out.arcs);
  g_free (g->out.ends);
  g_free (g->in.start);
  g_free (g->in.arcs);
  g_free (g->in.ends);
  g_free (g->ambiguous);
  g_free (g);
}

/* ---- strings ---- */

/* Copies @s into @out replacing what XML and tab-separated text cannot
 * carry.  Returns FALSE when @s is already clean (nothing appended). */
static gboolean
sanitize (const char *s, gsize len, GString *out)
{
  const char *end = s + len;
  const char *p = s;
  gboolean dirty = FALSE;
  while (p < end)
    {
      const char *bad;
      gsize rest = (gsize) (end - p);
      g_utf8_validate_len (p, rest, &bad);
      /* clean bytes up to a control character or the invalid sequence;
       * U+FFFE and U+FFFF are valid UTF-8 but no XML character */
      const char *q = p;
      while (q < bad && (guchar) *q >= 0x20 && *q != 0x7f
             && !((guchar) q[0] == 0xEF && bad - q >= 3 && (guchar) q[1] == 0xBF && ((guchar) q[2] & 0xFE) == 0xBE))
        q++;
      if (q == end && !dirty)
        return FALSE;
      dirty = TRUE;
      g_string_append_len (out, p, q - p);
      if (q < end)
        {
          g_string_append_printf (out, "\\x%02X", (guchar) *q);
          q++;
        }
      p = q;
    }
  return dirty;
}

/* TRUE when @s is printable ASCII only, the common case, which needs no
 * UTF-8 validation and no escaping. */
static gboolean
is_plain_ascii (const char *s, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if ((guchar) s[i] < 0x20 || (guchar) s[i] >= 0x7f)
      return FALSE;
  return TRUE;
}

static guint32
intern_id (CgGraph *g, const char *s, gssize len)
{
  gsize n = len < 0 ? strlen (s) : (gsize) len;
  /* what XML and tab-separated text cannot carry is escaped in a scratch
   * copy (one buffer, reused) */
  if (!is_plain_ascii (s, n))
    {
      g_string_truncate (g->scratch, 0);
      if (sanitize (s, n, g->scratch))
        {
          s = g->scratch->str;
          n = g->scratch->len;
        }
    }
  return cg_strings_intern (g->strings, s, n);
}

guint32
cg_graph_intern_id (CgGraph *g, const char *s, gssize len)
{
  return intern_id (g, s, len);
}

gboolean
cg_graph_string_tag (const char *s, gsize len, guint32 *tag)
{
  if (!is_plain_ascii (s, len))
    return FALSE;
  *tag = cg_strings_tag (s, len);
  return TRUE;
}

guint32
cg_graph_intern_tagged_id (CgGraph *g, const char *s, gsize len, guint32 tag)
{
  return cg_strings_intern_tagged (g->strings, s, len, tag);
}

void
cg_graph_prefetch_string (const CgGraph *g, guint32 tag)
{
  cg_strings_prefetch (g->strings, tag);
}

const char *
cg_graph_intern (CgGraph *g, const char *s, gssize len)
{
  return cg_strings_get (g->strings, intern_id (g, s, len));
}

static guint32
lookup_id (const CgGraph *g, const char *s)
{
  return cg_strings_lookup (g->strings, s, strlen (s));
}

static const char *
string_of (const CgGraph *g, guint32 id)
{
  return cg_strings_get (g->strings, id);
}

const char *
cg_graph_string (const CgGraph *g, guint32 id)
{
  return string_of (g, id);
}

guint
cg_graph_n_strings (const CgGraph *g)
{
  return cg_strings_size (g->strings);
}

/* ---- events: the schema's, through the graph ---- */

CgEvents *
cg_graph_events (const CgGraph *g)
{
  return g->events;
}

guint
cg_graph_n_events (const CgGraph *g)
{
  return cg_events_n (g->events);
}

gboolean
cg_graph_ensure_event (CgGraph *g, const char *raw_name, const char *unit, CgKind kind, guint *index,
                       GError **error)
{
  /* names are compared as stored: made safe, so two raw names that read
   * the same are one event */
  g->generation++;
  return cg_events_ensure (g->events, cg_graph_intern (g, raw_name, -1), cg_graph_intern (g, unit, -1), kind,
                           index, error);
}

gint
cg_graph_find_event (const CgGraph *g, const char *name)
{
  return cg_events_find (g->events, name);
}

const char *
cg_graph_event_name (const CgGraph *g, guint e)
{
  return cg_events_name (g->events, e);
}

const char *
cg_graph_event_unit (const CgGraph *g, guint e)
{
  return cg_events_unit (g->events, e);
}

const char *
cg_graph_event_description (const CgGraph *g, guint e)
{
  return cg_events_description (g->events, e);
}

void
cg_graph_set_event_description (CgGraph *g, guint e, const char *description)
{
  cg_events_set_description (g->events, e, description ? cg_graph_intern (g, description, -1) : NULL);
}

gdouble
cg_graph_event_scale (const CgGraph *g, guint e)
{
  return cg_events_scale (g->events, e);
}

void
cg_graph_add_event_samples (CgGraph *g, guint e, guint64 samples, gdouble cost)
{
  g->generation++;
  cg_events_add_samples (g->events, e, samples, cost);
}

guint64
cg_graph_event_samples (const CgGraph *g, guint e, gdouble *cost)
{
  return cg_events_samples (g->events, e, cost);
}

void
cg_graph_set_event_scale (CgGraph *g, guint e, gdouble scale)
{
  g->generation++;
  cg_events_set_scale (g->events, e, scale);
}

CgKind
cg_graph_event_kind (const CgGraph *g, guint e)
{
  return cg_events_kind (g->events, e);
}

const CgKind *
cg_graph_event_kinds (const CgGraph *g)
{
  return cg_events_kinds (g->events);
}

guint64
cg_graph_generation (const CgGraph *g)
{
  return g->generation;
}

/* ---- functions ---- */

guint
cg_graph_n_functions (const CgGraph *g)
{
  return g->functions->len;
}

static FunctionRec *
function_rec (const CgGraph *g, CgFunctionId f)
{
  g_assert (f < g->functions->len);
  return &g_array_index (g->functions, FunctionRec, f);
}

CgFunctionId
cg_graph_ensure_function (CgGraph *g, const char *object, const char *name)
{
  guint32 object_id = intern_id (g, object, -1);
  guint32 name_id = intern_id (g, name, -1);
  return cg_graph_ensure_function_ids (g, object_id, name_id);
}

/* Indexes function @f, new to the index. */
static void
index_function (CgGraph *g, CgFunctionId f)
{
  const FunctionRec *rec = function_rec (g, f);
  if (rec->name >= g->function_by_name_len)
    {
      gsize had = g->function_by_name_len;
      g->function_by_name_len = MAX ((gsize) rec->name + 1, had * 2);
      g->function_by_name = g_renew (CgFunctionId, g->function_by_name, g->function_by_name_len);
      memset (g->function_by_name + had, 0xff, (g->function_by_name_len - had) * sizeof (CgFunctionId));
    }
  CgFunctionId first = g->function_by_name[rec->name];
  if (first == CG_NO_ID)
    {
      g->function_by_name[rec->name] = f;
      return;
    }
  /* a name in several objects: all its functions go to the pair map,
   * the first too (inserting one already there changes nothing) */
  if (g->function_index == NULL)
    g->function_index = cg_pair_map_new (function_key, g);
  cg_pair_map_insert (g->function_index, function_rec (g, first)->object, rec->name, first);
  cg_pair_map_insert (g->function_index, rec->object, rec->name, f);
}

/* The function index, built when first needed: a reader that finds its
 * functions itself (cg_graph_add_function_ids) never pays for it. */
static void
functions_indexed (CgGraph *g)
{
  if (g->function_by_name != NULL)
    return;
  g->function_by_name_len = MAX (cg_strings_size (g->strings), 1);
  g->function_by_name = g_new (CgFunctionId, g->function_by_name_len);
  memset (g->function_by_name, 0xff, g->function_by_name_len * sizeof (CgFunctionId));
  for (CgFunctionId f = 0; f < g->functions->len; f++)
    index_function (g, f);
}

/* The function (@object_id, @name_id), or CG_NO_ID; the index is built. */
static CgFunctionId
find_function (const CgGraph *g, guint32 object_id, guint32 name_id)
{
  if (name_id >= g->function_by_name_len)
    return CG_NO_ID;
  CgFunctionId f = g->function_by_name[name_id];
  if (f == CG_NO_ID || function_rec (g, f)->object == object_id)
    return f;
  guint32 v = g->function_index ? cg_pair_map_lookup (g->function_index, object_id, name_id) : CG_PAIR_MAP_NONE;
  return v == CG_PAIR_MAP_NONE ? CG_NO_ID : v;
}

static CgFunctionId
append_function (CgGraph *g, guint32 object_id, guint32 name_id)
{
  CgFunctionId f = g->functions->len;
  g->generation++;
  FunctionRec rec = { name_id, object_id, 0, 0, 0 };
  g_array_append_val (g->functions, rec);
  if (g->arc_index)
    {
      CgArcId none = CG_NO_ID;
      guint8 no = 0;
      g_array_append_val (g->arc_index->heads, none);
      g_byte_array_append (g->arc_index->big, &no, 1);
    }
  cg_matrix_set_rows (&g->self, g->functions->len);
  if (g->function_by_name)
    index_function (g, f);
  return f;
}

CgFunctionId
cg_graph_ensure_function_ids (CgGraph *g, guint32 object_id, guint32 name_id)
{
  g_return_val_if_fail (object_id < cg_strings_size (g->strings) && name_id < cg_strings_size (g->strings), CG_NO_ID);
  if (g->functions->len == CG_NO_ID)
    return CG_NO_ID;
  functions_indexed (g);
  CgFunctionId f = find_function (g, object_id, name_id);
  return f != CG_NO_ID ? f : append_function (g, object_id, name_id);
}

CgFunctionId
cg_graph_add_function_ids (CgGraph *g, guint32 object_id, guint32 name_id)
{
  g_return_val_if_fail (object_id < cg_strings_size (g->strings) && name_id < cg_strings_size (g->strings), CG_NO_ID);
  if (g->functions->len == CG_NO_ID)
    return CG_NO_ID;
  return append_function (g, object_id, name_id);
}

void
cg_graph_move_functions (CgGraph *g, const CgFunctionId *functions, const guint32 *objects, guint n,
                         gboolean *moved)
{
  if (n == 0)
    return;
  functions_indexed (g);
  /* the pairs taken by this call's moves: the index tells the others */
  g_autoptr (GHashTable) taken = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree gint64 *keys = g_new (gint64, n);
  g_autofree gboolean *go = g_new0 (gboolean, n);
  for (guint i = 0; i < n; i++)
    {
      const FunctionRec *rec = function_rec (g, functions[i]);
      g_return_if_fail (objects[i] < cg_strings_size (g->strings));
      keys[i] = (gint64) (((guint64) objects[i] << 32) | rec->name);
      go[i] = rec->object != objects[i] && find_function (g, objects[i], rec->name) == CG_NO_ID
              && !g_hash_table_contains (taken, &keys[i]);
      if (go[i])
        g_hash_table_add (taken, &keys[i]);
    }
  for (guint i = 0; i < n; i++)
    {
      if (go[i])
        function_rec (g, functions[i])->object = objects[i];
      if (moved)
        moved[i] = go[i] || function_rec (g, functions[i])->object == objects[i];
    }
  g->generation++;
  /* the index keys functions by what they were: it is made again when
   * next needed */
  g_clear_pointer (&g->function_by_name, g_free);
  g->function_by_name_len = 0;
  g_clear_pointer (&g->function_index, cg_pair_map_free);
}

CgFunctionId
cg_graph_lookup_function (const CgGraph *g, const char *object, const char *name)
{
  guint32 object_id = lookup_id (g, object);
  guint32 name_id = lookup_id (g, name);
  if (object_id == CG_STRINGS_NONE || name_id == CG_STRINGS_NONE)
    return CG_NO_ID;
  /* a cache: the graph does not change */
  functions_indexed ((CgGraph *) g);
  return find_function (g, object_id, name_id);
}

const char *
cg_graph_function_name (const CgGraph *g, CgFunctionId f)
{
  return string_of (g, function_rec (g, f)->name);
}

const char *
cg_graph_function_object (const CgGraph *g, CgFunctionId f)
{
  return string_of (g, function_rec (g, f)->object);
}

const char *
cg_graph_function_file (const CgGraph *g, CgFunctionId f)
{
  return string_of (g, function_rec (g, f)->file);
}

guint32
cg_graph_function_name_id (const CgGraph *g, CgFunctionId f)
{
  return function_rec (g, f)->name;
}

guint32
cg_graph_function_object_id (const CgGraph *g, CgFunctionId f)
{
  return function_rec (g, f)->object;
}

guint32
cg_graph_function_file_id (const CgGraph *g, CgFunctionId f)
{
  return function_rec (g, f)->file;
}

guint32
cg_graph_function_line (const CgGraph *g, CgFunctionId f)
{
  return function_rec (g, f)->line;
}

void
cg_graph_function_set_location (CgGraph *g, CgFunctionId f, const char *file, guint32 line)
{
  FunctionRec *rec = function_rec (g, f);
  if (rec->file == 0 && file != NULL && *file != '\0')
    rec->file = intern_id (g, file, -1);
  if (rec->line == 0)
    rec->line = line;
}

void
cg_graph_function_set_location_id (CgGraph *g, CgFunctionId f, guint32 file_id, guint32 line)
{
  FunctionRec *rec = function_rec (g, f);
  g_return_if_fail (file_id < cg_strings_size (g->strings));
  if (rec->file == 0)
    rec->file = file_id;
  if (rec->line == 0)
    rec->line = line;
}

CgFunctionFlags
cg_graph_function_flags (const CgGraph *g, CgFunctionId f)
{
  return (CgFunctionFlags) function_rec (g, f)->flags;
}

void
cg_graph_function_set_flags (CgGraph *g, CgFunctionId f, CgFunctionFlags flags)
{
  function_rec (g, f)->flags = flags;
  g->generation++;
}

gboolean
cg_graph_function_is_ambiguous (CgGraph *g, CgFunctionId f)
{
  guint n = g->functions->len;
  if (g->ambiguous == NULL || g->ambiguous_functions != n)
    {
      /* name id -> the object of the functions with that name, or
       * G_MAXUINT32 once a second object has it: all of them are then
       * ambiguous (functions of one name and object, cg_split_roots'
       * copies under each root, are told apart by their place) */
      g_autoptr (GHashTable) object_of = g_hash_table_new (g_direct_hash, g_direct_equal);
      g_free (g->ambiguous);
      g->ambiguous = g_new0 (guint8, MAX (n, 1));
      g->ambiguous_functions = n;
      for (CgFunctionId i = 0; i < n; i++)
        {
          FunctionRec *rec = function_rec (g, i);
          gpointer key = GUINT_TO_POINTER (rec->name + 1), seen;
          if (!g_hash_table_lookup_extended (object_of, key, NULL, &seen))
            g_hash_table_insert (object_of, key, GUINT_TO_POINTER (rec->object));
          else if (GPOINTER_TO_UINT (seen) != rec->object)
            g_hash_table_insert (object_of, key, GUINT_TO_POINTER (G_MAXUINT32));
        }
      for (CgFunctionId i = 0; i < n; i++)
        g->ambiguous[i] = GPOINTER_TO_UINT (g_hash_table_lookup (object_of, GUINT_TO_POINTER (function_rec (g, i)->name + 1)))
                          == G_MAXUINT32;
    }
  return g->ambiguous[f];
}

void
cg_graph_append_label (CgGraph *g, GString *out, CgFunctionId f)
{
  g_string_append (out, cg_graph_function_name (g, f));
  if (cg_graph_function_is_ambiguous (g, f))
    g_string_append_printf (out, " [%s]", cg_graph_function_object (g, f));
}

/* A label as up to four pieces: name, " [", object, "]". */
typedef struct {
  const char *piece[4];
  guint n, i;
  const char *p;
} LabelCursor;

static void
label_cursor_init (LabelCursor *c, CgGraph *g, CgFunctionId f)
{
  c->piece[0] = cg_graph_function_name (g, f);
  c->n = 1;
  if (cg_graph_function_is_ambiguous (g, f))
    {
      c->piece[1] = " [";
      c->piece[2] = cg_graph_function_object (g, f);
      c->piece[3] = "]";
      c->n = 4;
    }
  c->i = 0;
  c->p = c->piece[0];
}

/* The next byte of the label, or 0 at its end. */
static guchar
label_cursor_next (LabelCursor *c)
{
  while (*c->p == '\0')
    {
      if (++c->i == c->n)
        return 0;
      c->p = c->piece[c->i];
    }
  return (guchar) *c->p++;
}

int
cg_graph_compare_labels (CgGraph *g, CgFunctionId a, CgFunctionId b)
{
  if (a == b)
    return 0;
  LabelCursor x, y;
  label_cursor_init (&x, g, a);
  label_cursor_init (&y, g, b);
  for (;;)
    {
      guchar cx = label_cursor_next (&x), cy = label_cursor_next (&y);
      if (cx != cy || cx == 0)
        return (int) cx - (int) cy;
    }
}

CgValue *
cg_graph_self (CgGraph *g, CgFunctionId f)
{
  g_assert (f < g->functions->len);
  g->generation++;
  return cg_matrix_row (&g->self, f);
}

const CgValue *
cg_graph_self_const (const CgGraph *g, CgFunctionId f)
{
  g_assert (f < g->functions->len);
  return cg_matrix_row (&g->self, f);
}

const CgValue *
cg_graph_spontaneous (const CgGraph *g, CgFunctionId f)
{
  g_assert (f < g->functions->len);
  if (f >= g->spontaneous_row_len || g->spontaneous_row[f] == CG_NO_ID)
    return NULL;
  return cg_matrix_row (&g->spontaneous, g->spontaneous_row[f]);
}

CgValue *
cg_graph_spontaneous_mut (CgGraph *g, CgFunctionId f)
{
  g_assert (f < g->functions->len);
  g->generation++;
  if (g->spontaneous.values == NULL)
    {
      cg_matrix_init (&g->spontaneous, cg_events_n (g->events));
      cg_events_attach (g->events, &g->spontaneous);
    }
  if (f >= g->spontaneous_row_len)
    {
      gsize had = g->spontaneous_row_len;
      g->spontaneous_row_len = MAX ((gsize) f + 1, had * 2);
      g->spontaneous_row = g_renew (guint32, g->spontaneous_row, g->spontaneous_row_len);
      memset (g->spontaneous_row + had, 0xff, (g->spontaneous_row_len - had) * sizeof (guint32));
    }
  if (g->spontaneous_row[f] == CG_NO_ID)
    {
      g->spontaneous_row[f] = g->spontaneous.rows;
      cg_matrix_set_rows (&g->spontaneous, g->spontaneous.rows + 1);
    }
  return cg_matrix_row (&g->spontaneous, g->spontaneous_row[f]);
}

gboolean
cg_graph_has_spontaneous (const CgGraph *g)
{
  return g->spontaneous.values != NULL;
}

gboolean
cg_graph_self_totals (const CgGraph *g, CgValue *totals)
{
  guint n = cg_events_n (g->events);
  const CgKind *kinds = cg_graph_event_kinds (g);
  for (guint e = 0; e < n; e++)
    totals[e] = CG_VALUE_ZERO;
  for (CgFunctionId f = 0; f < g->functions->len; f++)
    if (!cg_values_add (kinds, totals, cg_graph_self_const (g, f), n))
      return FALSE;
  return TRUE;
}

/* ---- arcs ---- */

guint
cg_graph_n_arcs (const CgGraph *g)
{
  return g->n_arcs;
}

static ArcRec *
arc_rec (const CgGraph *g, CgArcId a)
{
  g_assert (a < g->n_arcs);
  return &g->arcs[a];
}

/* Links arc @a (the newest) into its caller's list, hashing the caller's
 * arcs once the list is long. */
static void
index_arc (CgGraph *g, CgArcId a, guint degree)
{
  ArcIndex *x = g->arc_index;
  const ArcRec *arc = &g->arcs[a];
  CgFunctionId caller = arc->caller;
  CgArcId *head = &g_array_index (x->heads, CgArcId, caller);
  g_array_index (x->next, CgArcId, a) = *head;
  *head = a;
  if (x->big->data[caller])
    cg_pair_map_insert (x->big_callers, caller, arc->callee, a);
  else if (degree + 1 >= BIG_DEGREE)
    {
      /* the list got long: from now on this caller's arcs are hashed */
      x->big->data[caller] = 1;
      const CgArcId *next = (const CgArcId *) x->next->data;
      for (CgArcId b = a; b != CG_NO_ID; b = next[b])
        cg_pair_map_insert (x->big_callers, caller, g->arcs[b].callee, b);
    }
}

/* The arc @caller → @callee or CG_NO_ID; *@degree receives the length of
 * the list walked (0 for a big caller). */
static CgArcId
find_arc (const CgGraph *g, CgFunctionId caller, CgFunctionId callee, guint *degree)
{
  const ArcIndex *x = g->arc_index;
  *degree = 0;
  if (x->big->data[caller])
    {
      guint32 a = cg_pair_map_lookup (x->big_callers, caller, callee);
      return a == CG_PAIR_MAP_NONE ? CG_NO_ID : a;
    }
  const ArcRec *arcs = g->arcs;
  const CgArcId *next = (const CgArcId *) x->next->data;
  for (CgArcId a = g_array_index (x->heads, CgArcId, caller); a != CG_NO_ID; a = next[a])
    {
      if (arcs[a].callee == callee)
        return a;
      (*degree)++;
    }
  return CG_NO_ID;
}

/* Builds the arc index over the arcs there are, in arc order. */
static void
ensure_arc_index (CgGraph *g)
{
  if (g->arc_index)
    return;
  ArcIndex *x = g->arc_index = g_new0 (ArcIndex, 1);
  guint nf = g->functions->len, na = g->n_arcs;
  x->heads = g_array_sized_new (FALSE, FALSE, sizeof (CgArcId), nf);
  g_array_set_size (x->heads, nf);
  memset (x->heads->data, 0xff, (gsize) nf * sizeof (CgArcId));
  x->big = g_byte_array_sized_new (nf);
  g_byte_array_set_size (x->big, nf);
  memset (x->big->data, 0, nf);
  x->next = g_array_sized_new (FALSE, FALSE, sizeof (CgArcId), na);
  g_array_set_size (x->next, na);
  x->big_callers = cg_pair_map_new (arc_key, g);
  for (CgArcId a = 0; a < na; a++)
    {
      guint degree = 0;
      if (!x->big->data[g->arcs[a].caller])
        {
          const CgArcId *next = (const CgArcId *) x->next->data;
          for (CgArcId b = g_array_index (x->heads, CgArcId, g->arcs[a].caller);
               b != CG_NO_ID; b = next[b])
            degree++;
        }
      index_arc (g, a, degree);
    }
}

static CgArcId
append_arc (CgGraph *g, CgFunctionId caller, CgFunctionId callee)
{
  CgArcId a = g->n_arcs;
  g->generation++;
  if (a == CG_NO_ID)
    return CG_NO_ID;
  if (a == g->arcs_capacity)
    {
      g->arcs_capacity = MAX (g->arcs_capacity * 2, 64);
      g->arcs = g_renew (ArcRec, g->arcs, g->arcs_capacity);
    }
  g->arcs[g->n_arcs++] = (ArcRec) { caller, callee, 0 };
  cg_matrix_set_rows (&g->inclusive, g->n_arcs);
  return a;
}

CgArcId
cg_graph_ensure_arc (CgGraph *g, CgFunctionId caller, CgFunctionId callee)
{
  g_return_val_if_fail (caller < g->functions->len && callee < g->functions->len, CG_NO_ID);
  ensure_arc_index (g);
  guint degree;
  CgArcId a = find_arc (g, caller, callee, &degree);
  if (a != CG_NO_ID)
    return a;
  a = append_arc (g, caller, callee);
  if (a == CG_NO_ID)
    return CG_NO_ID;
  g_array_set_size (g->arc_index->next, g->n_arcs);
  index_arc (g, a, degree);
  return a;
}

CgArcId
cg_graph_append_arc (CgGraph *g, CgFunctionId caller, CgFunctionId callee)
{
  g_return_val_if_fail (caller < g->functions->len && callee < g->functions->len, CG_NO_ID);
  drop_arc_index (g);
  return append_arc (g, caller, callee);
}

CgArcId
cg_graph_lookup_arc (const CgGraph *g, CgFunctionId caller, CgFunctionId callee)
{
  if (caller >= g->functions->len)
    return CG_NO_ID;
  ensure_arc_index ((CgGraph *) g); /* a cache: the graph does not change */
  guint degree;
  return find_arc (g, caller, callee, &degree);
}

gboolean
cg_graph_merge_arcs (CgGraph *g, const guint8 *repeated, CgArcId **renumbered, GError **error)
{
  guint na = g->n_arcs, nf = g->functions->len, ne = cg_events_n (g->events);
  g->generation++;
  if (renumbered)
    *renumbered = NULL;
  if (na < 2)
    return TRUE;
  ArcRec *arcs = g->arcs;
  /* the arcs that may repeat by caller, each group in arc order, so the
   * first arc met with a callee is the earliest: it stays, later ones
   * are added to it */
  g_autofree guint32 *start = NULL, *by_caller = NULL;
  if (repeated == NULL)
    cg_csr_build (arcs, sizeof (ArcRec), G_STRUCT_OFFSET (ArcRec, caller), na, nf, &start, &by_caller);
  else
    {
      typedef struct {
        CgFunctionId caller;
        CgArcId arc;
      } Candidate;
      /* a plain array: a GArray's append is a call per arc */
      g_autofree Candidate *candidates = NULL;
      guint n = 0, room = 0;
      for (CgArcId a = 0; a < na; a++)
        if (repeated[arcs[a].caller])
          {
            if (n == room)
              candidates = g_renew (Candidate, candidates, room = MAX (room * 2, 1024));
            candidates[n++] = (Candidate) { arcs[a].caller, a };
          }
      g_autofree guint32 *items = NULL;
      cg_csr_build_with_values (candidates, sizeof (Candidate), G_STRUCT_OFFSET (Candidate, caller),
                                G_STRUCT_OFFSET (Candidate, arc), n, nf, &start, &items, &by_caller);
    }
  g_autofree guint32 *seen = g_new (guint32, MAX (nf, 1)), *first = g_new (guint32, MAX (nf, 1));
  memset (seen, 0xff, (gsize) nf * sizeof (guint32));
  const CgKind *kinds = cg_graph_event_kinds (g);
  gboolean overflowed = FALSE;
  guint removed = 0;
  for (CgFunctionId f = 0; f < nf; f++)
    for (guint i = start[f]; i < start[f + 1]; i++)
      {
        CgArcId a = by_caller[i];
        CgFunctionId c = arcs[a].callee;
        if (seen[c] != f)
          {
            seen[c] = f;
            first[c] = a;
            continue;
          }
        /* cannot overflow: every arc's calls are in total_calls already */
        arcs[first[c]].calls += arcs[a].calls;
        overflowed |= !cg_values_add (kinds, cg_matrix_row (&g->inclusive, first[c]),
                                      cg_matrix_row (&g->inclusive, a), ne);
        arcs[a].caller = CG_NO_ID;
        arcs[a].callee = first[c]; /* where it went, an earlier arc */
        removed++;
      }
  if (removed > 0)
    {
      /* close the gaps, keeping the order: each run of kept arcs moves
       * down in one piece (a few hundred runs, not an arc at a time) */
      CgArcId *to = renumbered ? (*renumbered = g_new (CgArcId, na)) : NULL;
      CgArcId k = 0;
      for (CgArcId a = 0; a < na;)
        {
          if (arcs[a].caller == CG_NO_ID)
            {
              if (to)
                to[a] = to[arcs[a].callee];
              a++;
              continue;
            }
          CgArcId run = a;
          while (a < na && arcs[a].caller != CG_NO_ID)
            {
              if (to)
                to[a] = k + (a - run);
              a++;
            }
          if (k != run)
            {
              memmove (&arcs[k], &arcs[run], (gsize) (a - run) * sizeof (ArcRec));
              memmove (cg_matrix_row (&g->inclusive, k), cg_matrix_row (&g->inclusive, run),
                       (gsize) (a - run) * ne * sizeof (CgValue));
            }
          k += a - run;
        }
      g->n_arcs = k;
      cg_matrix_set_rows (&g->inclusive, k);
      drop_arc_index (g);
      g->adjacency_arcs = G_MAXUINT;
    }
  if (overflowed)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW,
                   "the inclusive costs of one caller's calls to one callee exceed the range of 64-bit counters");
      return FALSE;
    }
  return TRUE;
}

CgFunctionId
cg_graph_arc_caller (const CgGraph *g, CgArcId a)
{
  return arc_rec (g, a)->caller;
}

CgFunctionId
cg_graph_arc_callee (const CgGraph *g, CgArcId a)
{
  return arc_rec (g, a)->callee;
}

guint64
cg_graph_arc_calls (const CgGraph *g, CgArcId a)
{
  return arc_rec (g, a)->calls;
}

gboolean
cg_graph_arc_add_calls (CgGraph *g, CgArcId a, guint64 calls)
{
  ArcRec *rec = arc_rec (g, a);
  if (!g_uint64_checked_add (&g->total_calls, g->total_calls, calls))
    return FALSE;
  rec->calls += calls;
  g->generation++;
  return TRUE;
}

CgValue *
cg_graph_arc_inclusive (CgGraph *g, CgArcId a)
{
  g_assert (a < g->n_arcs);
  g->generation++;
  return cg_matrix_row (&g->inclusive, a);
}

const CgValue *
cg_graph_arc_inclusive_const (const CgGraph *g, CgArcId a)
{
  g_assert (a < g->n_arcs);
  return cg_matrix_row (&g->inclusive, a);
}

gboolean
cg_graph_has_inclusive (const CgGraph *g)
{
  return g->has_inclusive;
}

gboolean
cg_graph_arcs_carry (const CgGraph *g, guint e)
{
  const CgKind *kinds = cg_graph_event_kinds (g);
  for (CgArcId a = 0; a < cg_graph_n_arcs (g); a++)
    if (!cg_value_is_zero (kinds[e], cg_graph_arc_inclusive_const (g, a)[e]))
      return TRUE;
  return FALSE;
}

void
cg_graph_set_has_inclusive (CgGraph *g, gboolean has_inclusive)
{
  g->has_inclusive = has_inclusive;
  g->generation++;
}

/* ---- adjacency ---- */

/* Arcs grouped by callee, each list in arc order: the adjacency in,
 * built on a thread of its own (only reads the arcs). */
static gpointer
build_in_adjacency (gpointer data)
{
  CgGraph *g = data;
  cg_csr_build_with_values (g->arcs, sizeof (ArcRec), G_STRUCT_OFFSET (ArcRec, callee),
                            G_STRUCT_OFFSET (ArcRec, caller), g->n_arcs, g->functions->len, &g->in.start,
                            &g->in.arcs, &g->in.ends);
  return NULL;
}

/* Below this many arcs both lists are built on the caller's thread. */
#define ADJACENCY_THREAD_ARCS (1u << 16)

static void
ensure_adjacency (CgGraph *g)
{
  if (g->adjacency_arcs == g->n_arcs && g->adjacency_functions == g->functions->len)
    return;
  /* the two lists are independent: a large graph's take tens of
   * milliseconds each, which a second thread halves (cgtree's tail) */
  GThread *in = g->n_arcs >= ADJACENCY_THREAD_ARCS && g_get_num_processors () > 1
                  ? g_thread_try_new ("cg-adjacency", build_in_adjacency, g, NULL)
                  : NULL;
  /* arcs grouped by caller, each list in arc order */
  cg_csr_build_with_values (g->arcs, sizeof (ArcRec), G_STRUCT_OFFSET (ArcRec, caller),
                            G_STRUCT_OFFSET (ArcRec, callee), g->n_arcs, g->functions->len, &g->out.start,
                            &g->out.arcs, &g->out.ends);
  if (in)
    g_thread_join (in);
  else
    build_in_adjacency (g);
  g->adjacency_arcs = g->n_arcs;
  g->adjacency_functions = g->functions->len;
}

/* Row @f of an adjacency list: the arcs (or their far ends) leaving it, or
 * entering it when @in. */
static const guint32 *
adjacent (CgGraph *g, gboolean in, gboolean ends, CgFunctionId f, guint *n)
{
  ensure_adjacency (g);
  const Adjacency *adj = in ? &g->in : &g->out;
  *n = adj->start[f + 1] - adj->start[f];
  return (ends ? adj->ends : adj->arcs) + adj->start[f];
}

const CgArcId *
cg_graph_out_arcs (CgGraph *g, CgFunctionId f, guint *n_arcs)
{
  return adjacent (g, FALSE, FALSE, f, n_arcs);
}

const CgArcId *
cg_graph_in_arcs (CgGraph *g, CgFunctionId f, guint *n_arcs)
{
  return adjacent (g, TRUE, FALSE, f, n_arcs);
}

const CgFunctionId *
cg_graph_out_callees (CgGraph *g, CgFunctionId f, guint *n)
{
  return adjacent (g, FALSE, TRUE, f, n);
}

const CgFunctionId *
cg_graph_in_callers (CgGraph *g, CgFunctionId f, guint *n)
{
  return adjacent (g, TRUE, TRUE, f, n);
}

guint64
cg_graph_calls_received (CgGraph *g, CgFunctionId f)
{
  guint n;
  const CgArcId *in = cg_graph_in_arcs (g, f, &n);
  guint64 sum = 0;
  for (guint i = 0; i < n; i++)
    if (cg_graph_arc_caller (g, in[i]) != f)
      sum += cg_graph_arc_calls (g, in[i]); /* cannot overflow: see total_calls */
  return sum;
}
