/* cg-graph.c — arrays, interning and adjacency of the call graph.
 *
 * Costs are CgMatrix rows (one per function or arc, one column per event).
 */
#include "config.h"

#include "cg-graph.h"

#include <string.h>

#include "cg-csr.h"
#include "cg-error.h"
#include "cg-matrix.h"
#include "cg-pair-map.h"

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
  GStringChunk *chunk;
  GHashTable *string_ids;  /* interned string -> id + 1 */
  GPtrArray *strings;      /* id -> interned string */
  GString *scratch;        /* for keys that need a clean, terminated copy */

  GArray *events;          /* EventRec */
  GArray *kinds;           /* CgKind, parallel to events */

  GArray *functions;       /* FunctionRec */
  CgMatrix self;           /* n_functions × n_events */
  CgMatrix spontaneous;    /* same shape; values == NULL until first used */
  CgPairMap *function_index; /* (object id, name id) -> function */

  GArray *arcs;            /* ArcRec */
  CgMatrix inclusive;      /* n_arcs × n_events */
  CgPairMap *arc_index;    /* (caller, callee) -> arc */
  guint64 total_calls;     /* sum of all arc calls: fits, so every partial sum does */
  gboolean has_inclusive;

  /* caches, rebuilt when stale */
  Adjacency out, in;
  guint adjacency_arcs;      /* n_arcs when built, G_MAXUINT when never */
  guint adjacency_functions;
  guint8 *ambiguous;
  guint ambiguous_functions;
};

CgGraph *
cg_graph_new (void)
{
  CgGraph *g = g_new0 (CgGraph, 1);
  g->chunk = g_string_chunk_new (64 * 1024);
  g->string_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g->strings = g_ptr_array_new ();
  g->scratch = g_string_new (NULL);
  g->events = g_array_new (FALSE, FALSE, sizeof (EventRec));
  g->kinds = g_array_new (FALSE, FALSE, sizeof (CgKind));
  g->functions = g_array_new (FALSE, FALSE, sizeof (FunctionRec));
  cg_matrix_init (&g->self, 0);
  g->function_index = cg_pair_map_new ();
  g->arcs = g_array_new (FALSE, FALSE, sizeof (ArcRec));
  cg_matrix_init (&g->inclusive, 0);
  g->arc_index = cg_pair_map_new ();
  g->adjacency_arcs = G_MAXUINT;
  cg_graph_intern (g, "", 0); /* id 0: unknown object / file */
  return g;
}

void
cg_graph_free (CgGraph *g)
{
  if (g == NULL)
    return;
  g_string_chunk_free (g->chunk);
  g_hash_table_unref (g->string_ids);
  g_ptr_array_unref (g->strings);
  g_string_free (g->scratch, TRUE);
  g_array_unref (g->events);
  g_array_unref (g->kinds);
  g_array_unref (g->functions);
  cg_matrix_clear (&g->self);
  cg_matrix_clear (&g->spontaneous);
  cg_pair_map_free (g->function_index);
  g_array_unref (g->arcs);
  cg_matrix_clear (&g->inclusive);
  cg_pair_map_free (g->arc_index);
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
  const char *key = s;
  /* the key must be clean and NUL-terminated: a scratch copy when it is
   * not both already (one buffer, reused, so no allocation per call) */
  if (!is_plain_ascii (s, n))
    {
      g_string_truncate (g->scratch, 0);
      if (!sanitize (s, n, g->scratch))
        g_string_append_len (g->scratch, s, (gssize) n);
      key = g->scratch->str;
      n = g->scratch->len;
    }
  else if (len >= 0)
    {
      g_string_truncate (g->scratch, 0);
      g_string_append_len (g->scratch, s, (gssize) n);
      key = g->scratch->str;
    }
  gpointer id1 = g_hash_table_lookup (g->string_ids, key);
  if (id1 != NULL)
    return GPOINTER_TO_UINT (id1) - 1;
  const char *copy = g_string_chunk_insert_len (g->chunk, key, (gssize) n);
  guint32 id = g->strings->len;
  g_ptr_array_add (g->strings, (gpointer) copy);
  g_hash_table_insert (g->string_ids, (gpointer) copy, GUINT_TO_POINTER (id + 1));
  return id;
}

const char *
cg_graph_intern (CgGraph *g, const char *s, gssize len)
{
  guint32 id = intern_id (g, s, len); /* may grow g->strings: index afterwards */
  return g_ptr_array_index (g->strings, id);
}

static guint32
lookup_id (const CgGraph *g, const char *s)
{
  gpointer id1 = g_hash_table_lookup (g->string_ids, s);
  return id1 ? GPOINTER_TO_UINT (id1) - 1 : CG_NO_ID;
}

static const char *
string_of (const CgGraph *g, guint32 id)
{
  return g_ptr_array_index (g->strings, id);
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
  guint32 next = g->functions->len;
  if (next == CG_NO_ID)
    return CG_NO_ID;
  CgFunctionId f = cg_pair_map_insert (g->function_index, object_id, name_id, next);
  if (f == next)
    {
      FunctionRec rec = { name_id, object_id, 0, 0, 0 };
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
  if (object_id == CG_NO_ID || name_id == CG_NO_ID)
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

CgFunctionFlags
cg_graph_function_flags (const CgGraph *g, CgFunctionId f)
{
  return (CgFunctionFlags) function_rec (g, f)->flags;
}

void
cg_graph_function_set_flags (CgGraph *g, CgFunctionId f, CgFunctionFlags flags)
{
  function_rec (g, f)->flags = flags;
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

CgArcId
cg_graph_ensure_arc (CgGraph *g, CgFunctionId caller, CgFunctionId callee)
{
  g_return_val_if_fail (caller < g->functions->len && callee < g->functions->len, CG_NO_ID);
  guint32 next = g->arcs->len;
  if (next == CG_NO_ID)
    return CG_NO_ID;
  CgArcId a = cg_pair_map_insert (g->arc_index, caller, callee, next);
  if (a == next)
    {
      ArcRec rec = { caller, callee, 0 };
      g_array_append_val (g->arcs, rec);
      cg_matrix_set_rows (&g->inclusive, g->arcs->len);
    }
  return a;
}

CgArcId
cg_graph_lookup_arc (const CgGraph *g, CgFunctionId caller, CgFunctionId callee)
{
  guint32 a = cg_pair_map_lookup (g->arc_index, caller, callee);
  return a == CG_PAIR_MAP_NONE ? CG_NO_ID : a;
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
