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
 * callees costs no more per lookup than a leaf.
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

/* FunctionRec.flags bit, never shown: the function's out-arcs are in
 * big_callers. */
#define FLAG_BIG_CALLER (1u << 31)

typedef struct {
  const char *name;
  const char *unit;
  const char *description; /* nullable */
  gdouble scale;           /* stored value × scale = value in unit */
} EventRec;

typedef struct {
  guint32 name;   /* string ids */
  guint32 object;
  guint32 file;
  guint32 line;
  guint32 flags;
  CgArcId first_out; /* newest out-arc, CG_NO_ID when none */
} FunctionRec;

typedef struct {
  CgFunctionId caller;
  CgFunctionId callee;
  guint64 calls;
} ArcRec;

typedef struct {
  guint32 *start; /* n_functions + 1 offsets */
  CgArcId *arcs;
} Adjacency;

struct _CgGraph {
  CgStrings *strings;      /* interned strings by id */
  GString *scratch;        /* for names that need escaping */

  GArray *events;          /* EventRec */
  GArray *kinds;           /* CgKind, parallel to events */

  GArray *functions;       /* FunctionRec */
  CgMatrix self;           /* n_functions × n_events */
  CgMatrix spontaneous;    /* same shape; values == NULL until first used */
  CgPairMap *function_index; /* (object id, name id) -> function */

  GArray *arcs;            /* ArcRec */
  CgMatrix inclusive;      /* n_arcs × n_events */
  GArray *next_out;        /* CgArcId per arc: the caller's next older out-arc */
  CgPairMap *big_callers;  /* (caller, callee) -> arc, for FLAG_BIG_CALLER callers */
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
  const ArcRec *rec = &g_array_index (((const CgGraph *) data)->arcs, ArcRec, a);
  *caller = rec->caller;
  *callee = rec->callee;
}

CgGraph *
cg_graph_new (void)
{
  CgGraph *g = g_new0 (CgGraph, 1);
  g->strings = cg_strings_new ();
  g->scratch = g_string_new (NULL);
  g->events = g_array_new (FALSE, FALSE, sizeof (EventRec));
  g->kinds = g_array_new (FALSE, FALSE, sizeof (CgKind));
  g->functions = g_array_new (FALSE, FALSE, sizeof (FunctionRec));
  cg_matrix_init (&g->self, 0);
  g->function_index = cg_pair_map_new (function_key, g);
  g->arcs = g_array_new (FALSE, FALSE, sizeof (ArcRec));
  cg_matrix_init (&g->inclusive, 0);
  g->next_out = g_array_new (FALSE, FALSE, sizeof (CgArcId));
  g->big_callers = cg_pair_map_new (arc_key, g);
  g->adjacency_arcs = G_MAXUINT;
  cg_graph_intern (g, "", 0); /* id 0: unknown object / file */
  return g;
}

void
cg_graph_free (CgGraph *g)
{
  if (g == NULL)
    return;
  cg_strings_free (g->strings);
  g_string_free (g->scratch, TRUE);
  g_array_unref (g->events);
  g_array_unref (g->kinds);
  g_array_unref (g->functions);
  cg_matrix_clear (&g->self);
  cg_matrix_clear (&g->spontaneous);
  cg_pair_map_free (g->function_index);
  g_array_unref (g->arcs);
  cg_matrix_clear (&g->inclusive);
  g_array_unref (g->next_out);
  cg_pair_map_free (g->big_callers);
  g_free (g->out.start);
  g_free (g->out.arcs);
  g_free (g->in.start);
  g_free (g->in.arcs);
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
      /* clean bytes up to a control character or the invalid sequence */
      const char *q = p;
      while (q < bad && (guchar) *q >= 0x20 && *q != 0x7f)
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

/* ---- events ---- */

guint
cg_graph_n_events (const CgGraph *g)
{
  return g->events->len;
}

gboolean
cg_graph_ensure_event (CgGraph *g, const char *raw_name, const char *unit, CgKind kind, guint *index,
                       GError **error)
{
  /* names are compared as stored: made safe, so two raw names that read
   * the same are one event */
  const char *name = cg_graph_intern (g, raw_name, -1);
  gint e = cg_graph_find_event (g, name);
  guint n = g->events->len;
  if (e >= 0)
    {
      EventRec *rec = &g_array_index (g->events, EventRec, e);
      if (strcmp (rec->unit, cg_graph_intern (g, unit, -1)) != 0)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_MISMATCH,
                       "event %s is counted in %s in one input and in %s in another", name,
                       rec->unit, unit);
          return FALSE;
        }
      CgKind *k = &g_array_index (g->kinds, CgKind, e);
      if (*k == CG_KIND_INTEGER && kind == CG_KIND_REAL)
        {
          cg_matrix_promote_column (&g->self, (guint) e);
          if (g->spontaneous.values)
            cg_matrix_promote_column (&g->spontaneous, (guint) e);
          cg_matrix_promote_column (&g->inclusive, (guint) e);
          *k = CG_KIND_REAL;
        }
      *index = (guint) e;
      return TRUE;
    }
  cg_matrix_add_column (&g->self);
  if (g->spontaneous.values)
    cg_matrix_add_column (&g->spontaneous);
  cg_matrix_add_column (&g->inclusive);
  EventRec rec = { name, cg_graph_intern (g, unit, -1), NULL, 1.0 };
  g_array_append_val (g->events, rec);
  g_array_append_val (g->kinds, kind);
  *index = n;
  return TRUE;
}

gint
cg_graph_find_event (const CgGraph *g, const char *name)
{
  for (guint e = 0; e < g->events->len; e++)
    if (strcmp (g_array_index (g->events, EventRec, e).name, name) == 0)
      return (gint) e;
  return -1;
}

const char *
cg_graph_event_name (const CgGraph *g, guint e)
{
  return g_array_index (g->events, EventRec, e).name;
}

const char *
cg_graph_event_unit (const CgGraph *g, guint e)
{
  return g_array_index (g->events, EventRec, e).unit;
}

const char *
cg_graph_event_description (const CgGraph *g, guint e)
{
  return g_array_index (g->events, EventRec, e).description;
}

void
cg_graph_set_event_description (CgGraph *g, guint e, const char *description)
{
  g_array_index (g->events, EventRec, e).description =
    description ? cg_graph_intern (g, description, -1) : NULL;
}

gdouble
cg_graph_event_scale (const CgGraph *g, guint e)
{
  return g_array_index (g->events, EventRec, e).scale;
}

void
cg_graph_set_event_scale (CgGraph *g, guint e, gdouble scale)
{
  g_return_if_fail (scale > 0);
  g_array_index (g->events, EventRec, e).scale = scale;
}

CgKind
cg_graph_event_kind (const CgGraph *g, guint e)
{
  return g_array_index (g->kinds, CgKind, e);
}

const CgKind *
cg_graph_event_kinds (const CgGraph *g)
{
  return (const CgKind *) g->kinds->data;
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

CgFunctionId
cg_graph_ensure_function_ids (CgGraph *g, guint32 object_id, guint32 name_id)
{
  g_return_val_if_fail (object_id < cg_strings_size (g->strings) && name_id < cg_strings_size (g->strings), CG_NO_ID);
  guint32 next = g->functions->len;
  if (next == CG_NO_ID)
    return CG_NO_ID;
  CgFunctionId f = cg_pair_map_insert (g->function_index, object_id, name_id, next);
  if (f == next)
    {
      FunctionRec rec = { name_id, object_id, 0, 0, 0, CG_NO_ID };
      g_array_append_val (g->functions, rec);
      cg_matrix_set_rows (&g->self, g->functions->len);
      if (g->spontaneous.values)
        cg_matrix_set_rows (&g->spontaneous, g->functions->len);
    }
  return f;
}

CgFunctionId
cg_graph_lookup_function (const CgGraph *g, const char *object, const char *name)
{
  guint32 object_id = lookup_id (g, object);
  guint32 name_id = lookup_id (g, name);
  if (object_id == CG_STRINGS_NONE || name_id == CG_STRINGS_NONE)
    return CG_NO_ID;
  guint32 f = cg_pair_map_lookup (g->function_index, object_id, name_id);
  return f == CG_PAIR_MAP_NONE ? CG_NO_ID : f;
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
  return (CgFunctionFlags) (function_rec (g, f)->flags & ~FLAG_BIG_CALLER);
}

void
cg_graph_function_set_flags (CgGraph *g, CgFunctionId f, CgFunctionFlags flags)
{
  FunctionRec *rec = function_rec (g, f);
  rec->flags = (rec->flags & FLAG_BIG_CALLER) | ((guint32) flags & ~FLAG_BIG_CALLER);
}

gboolean
cg_graph_function_is_ambiguous (CgGraph *g, CgFunctionId f)
{
  guint n = g->functions->len;
  if (g->ambiguous == NULL || g->ambiguous_functions != n)
    {
      /* name id -> first function with that name; a second object makes
       * both ambiguous */
      g_autoptr (GHashTable) first = g_hash_table_new (g_direct_hash, g_direct_equal);
      g_free (g->ambiguous);
      g->ambiguous = g_new0 (guint8, MAX (n, 1));
      g->ambiguous_functions = n;
      for (CgFunctionId i = 0; i < n; i++)
        {
          FunctionRec *rec = function_rec (g, i);
          gpointer key = GUINT_TO_POINTER (rec->name + 1);
          gpointer other = g_hash_table_lookup (first, key);
          if (other == NULL)
            g_hash_table_insert (first, key, GUINT_TO_POINTER (i + 1));
          else
            {
              g->ambiguous[GPOINTER_TO_UINT (other) - 1] = 1;
              g->ambiguous[i] = 1;
            }
        }
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
  if (g->spontaneous.values == NULL)
    return NULL;
  return cg_matrix_row (&g->spontaneous, f);
}

CgValue *
cg_graph_spontaneous_mut (CgGraph *g, CgFunctionId f)
{
  if (g->spontaneous.values == NULL)
    {
      cg_matrix_init (&g->spontaneous, g->events->len);
      cg_matrix_set_rows (&g->spontaneous, g->functions->len);
    }
  return (CgValue *) cg_graph_spontaneous (g, f);
}

gboolean
cg_graph_has_spontaneous (const CgGraph *g)
{
  return g->spontaneous.values != NULL;
}

gboolean
cg_graph_self_totals (const CgGraph *g, CgValue *totals)
{
  guint n = g->events->len;
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
  return g->arcs->len;
}

static ArcRec *
arc_rec (const CgGraph *g, CgArcId a)
{
  g_assert (a < g->arcs->len);
  return &g_array_index (g->arcs, ArcRec, a);
}

/* The arc @caller → @callee or CG_NO_ID; *@degree receives the length of
 * the list walked (0 for a big caller). */
static CgArcId
find_arc (const CgGraph *g, CgFunctionId caller, CgFunctionId callee, guint *degree)
{
  const FunctionRec *rec = &g_array_index (g->functions, FunctionRec, caller);
  *degree = 0;
  if (rec->flags & FLAG_BIG_CALLER)
    {
      guint32 a = cg_pair_map_lookup (g->big_callers, caller, callee);
      return a == CG_PAIR_MAP_NONE ? CG_NO_ID : a;
    }
  const ArcRec *arcs = (const ArcRec *) g->arcs->data;
  const CgArcId *next = (const CgArcId *) g->next_out->data;
  for (CgArcId a = rec->first_out; a != CG_NO_ID; a = next[a])
    {
      if (arcs[a].callee == callee)
        return a;
      (*degree)++;
    }
  return CG_NO_ID;
}

CgArcId
cg_graph_ensure_arc (CgGraph *g, CgFunctionId caller, CgFunctionId callee)
{
  g_return_val_if_fail (caller < g->functions->len && callee < g->functions->len, CG_NO_ID);
  guint degree;
  CgArcId a = find_arc (g, caller, callee, &degree);
  if (a != CG_NO_ID)
    return a;
  a = g->arcs->len;
  if (a == CG_NO_ID)
    return CG_NO_ID;
  FunctionRec *rec = function_rec (g, caller);
  ArcRec arc = { caller, callee, 0 };
  g_array_append_val (g->arcs, arc);
  g_array_append_val (g->next_out, rec->first_out);
  rec->first_out = a;
  cg_matrix_set_rows (&g->inclusive, g->arcs->len);
  if (rec->flags & FLAG_BIG_CALLER)
    cg_pair_map_insert (g->big_callers, caller, callee, a);
  else if (degree + 1 >= BIG_DEGREE)
    {
      /* the list got long: from now on this caller's arcs are hashed */
      rec->flags |= FLAG_BIG_CALLER;
      const CgArcId *next = (const CgArcId *) g->next_out->data;
      for (CgArcId b = a; b != CG_NO_ID; b = next[b])
        cg_pair_map_insert (g->big_callers, caller, g_array_index (g->arcs, ArcRec, b).callee, b);
    }
  return a;
}

CgArcId
cg_graph_lookup_arc (const CgGraph *g, CgFunctionId caller, CgFunctionId callee)
{
  if (caller >= g->functions->len)
    return CG_NO_ID;
  guint degree;
  return find_arc (g, caller, callee, &degree);
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
  return TRUE;
}

CgValue *
cg_graph_arc_inclusive (CgGraph *g, CgArcId a)
{
  g_assert (a < g->arcs->len);
  return cg_matrix_row (&g->inclusive, a);
}

const CgValue *
cg_graph_arc_inclusive_const (const CgGraph *g, CgArcId a)
{
  g_assert (a < g->arcs->len);
  return cg_matrix_row (&g->inclusive, a);
}

gboolean
cg_graph_has_inclusive (const CgGraph *g)
{
  return g->has_inclusive;
}

void
cg_graph_set_has_inclusive (CgGraph *g, gboolean has_inclusive)
{
  g->has_inclusive = has_inclusive;
}

/* ---- adjacency ---- */

static void
ensure_adjacency (CgGraph *g)
{
  if (g->adjacency_arcs == g->arcs->len && g->adjacency_functions == g->functions->len)
    return;
  /* arcs grouped by caller and by callee, each list in arc order */
  cg_csr_build (g->arcs->data, sizeof (ArcRec), G_STRUCT_OFFSET (ArcRec, caller), g->arcs->len,
                g->functions->len, &g->out.start, &g->out.arcs);
  cg_csr_build (g->arcs->data, sizeof (ArcRec), G_STRUCT_OFFSET (ArcRec, callee), g->arcs->len,
                g->functions->len, &g->in.start, &g->in.arcs);
  g->adjacency_arcs = g->arcs->len;
  g->adjacency_functions = g->functions->len;
}

const CgArcId *
cg_graph_out_arcs (CgGraph *g, CgFunctionId f, guint *n_arcs)
{
  ensure_adjacency (g);
  *n_arcs = g->out.start[f + 1] - g->out.start[f];
  return g->out.arcs + g->out.start[f];
}

const CgArcId *
cg_graph_in_arcs (CgGraph *g, CgFunctionId f, guint *n_arcs)
{
  ensure_adjacency (g);
  *n_arcs = g->in.start[f + 1] - g->in.start[f];
  return g->in.arcs + g->in.start[f];
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
