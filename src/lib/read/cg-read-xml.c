/* cg-read-xml.c — element-by-element reading; file ids are mapped to the
 * destination profile's ids as they are met.
 *
 * The large sections come as rows (version 2) or as one element per item
 * (version 1, still read).  Both become the same Fields: an item's
 * attributes, read in one pass over them with const values, or a row's
 * tab-separated columns; one function per item kind then checks and adds
 * them, so both forms obey the same rules and give the same messages. */
#include "config.h"

#include "cg-read-xml.h"
#include "cg-method.h"

#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <stdarg.h>
#include <string.h>

#include "cg-arc-runs.h"
#include "cg-cost-check.h"
#include "cg-digits.h"
#include "cg-error.h"
#include "cg-worker.h"
#include "cg-xml-errors.h"

typedef enum {
  SECTION_NONE,
  SECTION_EVENTS,
  SECTION_HISTOGRAM,
  SECTION_OBJECTS,
  SECTION_FILES,
  SECTION_FUNCTIONS,
  SECTION_ARCS,
  SECTION_TREE,
  SECTION_CONTEXTS,
  SECTION_CYCLES,
  SECTION_COSTS,
} Section;

/* Field slots of the items that have a rows form; a row's columns and an
 * element's attributes both land here (NULL: absent or empty). */
enum { FN_ID, FN_NAME, FN_OBJECT, FN_FILE, FN_LINE, FN_SELF, FN_SPONTANEOUS, FN_KIND, FN_NESTED, FN_FLAGS };
enum { ARC_ID, ARC_CALLER, ARC_CALLEE, ARC_CALLS, ARC_INCLUSIVE };
enum { FRAME_ID, FRAME_PARENT, FRAME_FUNCTION, FRAME_SELF };
enum { COST_ITEM, COST_VALUE, COST_SELF, COST_CHILDREN, COST_SELF2, COST_CHILDREN2, COST_ESTIMATED, COST_MARK };
#define MAX_FIELDS 10

/* Graph ids by the document's, appended one by one: a plain array, as
 * GArray's append divides to check its limits, millions of times. */
typedef struct {
  guint32 *ids;
  guint len;
  gsize room;
} IdMap;

static inline void
id_map_append (IdMap *m, guint32 id)
{
  if (m->len == m->room)
    m->ids = g_renew (guint32, m->ids, m->room = MAX (m->room * 2, 1024));
  m->ids[m->len++] = id;
}

typedef struct {
  const char *v[MAX_FIELDS];
  gboolean row; /* from a row: ids are positional */
} Fields;

/* How many rows ahead of the function row being read the string
 * table's slot for a row's name is asked for (name_ahead). */
#define NAMES_AHEAD 8

/* A function row's name (its first field) as the rows' reader took it
 * ahead: its length and, when plain, its hash tag (cg_graph_string_tag). */
typedef struct {
  gsize len;
  guint32 tag;
  gboolean plain;
} NameAhead;

typedef enum { ITEM_FUNCTION, ITEM_ARC, ITEM_FRAME, ITEM_TOTAL, ITEM_ARC_COST, N_ITEMS } Item;

/* Per item kind: the element, its attributes by slot (NULL-terminated),
 * its rows element and the slot of each column. */
static const struct {
  const char *element;
  const char *attributes[MAX_FIELDS];
  const char *rows;
  guint columns[MAX_FIELDS];
  guint n_columns;
} items[N_ITEMS] = {
  [ITEM_FUNCTION] = { "function",
                      { "id", "name", "object", "file", "line", "self", "spontaneous", "kind", "nested", NULL },
                      "function-rows",
                      { FN_NAME, FN_OBJECT, FN_FILE, FN_LINE, FN_SELF, FN_SPONTANEOUS, FN_FLAGS }, 7 },
  [ITEM_ARC] = { "arc", { "id", "caller", "callee", "calls", "inclusive", NULL }, "arc-rows",
                 { ARC_CALLER, ARC_CALLEE, ARC_CALLS, ARC_INCLUSIVE }, 4 },
  [ITEM_FRAME] = { "frame", { "id", "parent", "function", "self", NULL }, "frame-rows",
                   { FRAME_PARENT, FRAME_FUNCTION, FRAME_SELF }, 3 },
  [ITEM_TOTAL] = { "total", { "function", "value", NULL, NULL, NULL, NULL, "estimated", NULL }, "total-rows",
                   { COST_VALUE, COST_MARK }, 2 },
  [ITEM_ARC_COST] = { "arc-cost", { "arc", "value", "self", "children", "self2", "children2", "estimated", NULL },
                      "arc-cost-rows",
                      { COST_VALUE, COST_SELF, COST_CHILDREN, COST_SELF2, COST_CHILDREN2, COST_MARK }, 6 },
};

typedef struct {
  CgProfile *profile;
  CgGraph *graph;
  CgInput *in;
  xmlParserCtxtPtr ctxt;  /* libxml2's push parser, which calls back here */
  gboolean keep_derived;
  GError *io_error;       /* from reading the input */
  char *xml_error;        /* first libxml2 message */
  GError *error;          /* the first of the callbacks', which stop the parser */
  gboolean stopped;

  /* the element being started: its name, its attributes (name, value,
   * ..., NULL) and how many elements enclose it; the strings are in
   * start_text, the pointers in start_atts */
  const char *name;
  const char *const *atts;
  int depth;
  GString *start_text;
  GPtrArray *start_atts;

  Section section;
  gboolean seen_root;
  GArray *event_map;      /* guint: file event -> graph event */
  GArray *kinds;          /* CgKind of the file's events */
  GArray *objects;        /* guint32 per file object id: string id in the graph */
  GArray *files;
  IdMap function_map;     /* CgFunctionId per file function id */
  IdMap arc_map;          /* CgArcId per file arc id */
  CgArcRuns *arc_runs;    /* the arcs as they come, merged by merge_arcs */
  gboolean arcs_appended; /* arcs appended since the last merge_arcs */
  GArray *frame_map;      /* CgFrameId per file frame id */
  gboolean has_inclusive;
  CgCosts *costs;         /* being read (keep_derived only) */
  CgCostCheck *check;     /* of each cost item as it is read (cg-cost-check.h) */
  guint8 *total_given;    /* per graph function: a total item named it */
  gboolean arc_costs_begun;
  int costs_line;         /* where <costs> starts */
  CgCycles *cycles;
  CgHistogram *histogram; /* being read, merged when <objects> starts */
  CgValue *values;        /* scratch: one vector in file events */
  GString *history;       /* scratch: a context's history, cut into words */
  GArray *history_functions; /* scratch: its CgFunctionIds */
  GArray *history_marks;  /* scratch: its marks (guint8) */


  /* rows are cut into blocks here and applied by the worker; between two
   * drains the parser side touches only these first three */
  GString *carry;         /* rows text not yet handed over */
  gint rows_item;         /* Item while inside a rows element, else -1 */
  guint64 carry_line;     /* the line the carry starts on */
  gsize block_bytes;      /* hand over complete rows once the carry holds this much */
  CgWorker *rows;
  guint64 row_line;       /* the worker's: line of the current row, 0 outside rows */
  NameAhead names_ahead[NAMES_AHEAD]; /* the worker's: by row number */
  const NameAhead *row_name; /* the current function row's, else NULL */
  guint n_total_rows;     /* rows read so far: their positional ids */
  guint n_arc_cost_rows;
} Reader;

/* ---- messages ---- */

/* The line of the current element: the parser's, which has just read its
 * start tag, or what it reads now. */
static int
element_line (Reader *r)
{
  return MAX (xmlSAX2GetLineNumber (r->ctxt), 1);
}

/* The line of the current row or element. */
static int
line_number (Reader *r)
{
  return r->row_line > 0 ? (int) MIN (r->row_line, (guint64) G_MAXINT) : element_line (r);
}

static gboolean G_GNUC_PRINTF (3, 4)
fail (Reader *r, GError **error, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  cg_read_failv (error, CG_ERROR_PARSE, cg_input_name (r->in), CG_AT_LINE, (guint64) line_number (r), format, ap);
  va_end (ap);
  return FALSE;
}

/* ---- attributes ---- */

/* The current element's attribute @name, or NULL (transfer none: valid
 * until the next element starts). */
static const char *
attr_ref (Reader *r, const char *name)
{
  for (const char *const *a = r->atts; a && a[0]; a += 2)
    if (strcmp (a[0], name) == 0)
      return a[1] ? a[1] : "";
  return NULL;
}

/* The current element's attribute @name as a newly allocated string, or
 * NULL. */
static char *
attr (Reader *r, const char *name)
{
  return g_strdup (attr_ref (r, name));
}

static gboolean
required (Reader *r, const char *element, const char *name, char **out, GError **error)
{
  *out = attr (r, name);
  if (*out == NULL)
    return fail (r, error, "<%s> lacks the %s attribute", element, name);
  return TRUE;
}

static gboolean
parse_uint (const char *s, guint64 max, guint64 *out)
{
  if (s == NULL)
    return FALSE;
  /* ids and counts: one pass, checked only past 19 digits */
  guint64 v = 0;
  const char *p = s;
  guint d;
  while ((d = (guint) (guchar) *p - '0') <= 9 && p - s < 19)
    {
      v = v * 10 + d;
      p++;
    }
  if (p == s)
    return FALSE;
  if (*p != '\0')
    {
      CgValue big;
      if (!cg_value_parse (CG_KIND_INTEGER, s, strlen (s), &big))
        return FALSE;
      v = big.n;
    }
  if (v > max)
    return FALSE;
  *out = v;
  return TRUE;
}

static gboolean
required_field (Reader *r, const char *element, const char *name, const char *value, GError **error)
{
  if (value == NULL)
    return fail (r, error, "<%s> lacks the %s attribute", element, name);
  return TRUE;
}

/* An index field referring to one of @count items. */
static gboolean
index_field (Reader *r, const char *element, const char *name, const char *s, guint count, guint32 *out,
             GError **error)
{
  guint64 v;
  if (!required_field (r, element, name, s, error))
    return FALSE;
  if (!parse_uint (s, G_MAXUINT32, &v) || v >= count)
    return fail (r, error, "<%s %s=\"%s\">: no such item (%u defined)", element, name, s, count);
  *out = (guint32) v;
  return TRUE;
}

/* An element's id @s must be the next index: documents list items in
 * order. */
static gboolean
id_is (Reader *r, const char *element, const char *s, guint expected, GError **error)
{
  guint64 v;
  if (!required_field (r, element, "id", s, error))
    return FALSE;
  if (!parse_uint (s, G_MAXUINT32, &v) || v != expected)
    return fail (r, error, "<%s id=\"%s\">: expected id %u (ids are consecutive from 0)", element, s,
                 expected);
  return TRUE;
}

/* Parses the cost list @s (NULL = zeros) in the file's events into
 * r->values. */
static gboolean
values_field (Reader *r, const char *element, const char *name, const char *s, GError **error)
{
  guint n = r->kinds->len;
  if (s == NULL)
    {
      for (guint i = 0; i < n; i++)
        r->values[i] = CG_VALUE_ZERO;
      return TRUE;
    }
  if (!cg_values_parse_list (s, (const CgKind *) r->kinds->data, n, r->values))
    return fail (r, error, "<%s %s=\"%.40s\">: not a list of at most %u cost%s", element, name, s, n,
                 n == 1 ? "" : "s");
  for (guint i = 0; i < n; i++)
    if (g_array_index (r->kinds, CgKind, i) == CG_KIND_REAL && r->values[i].x < 0)
      return fail (r, error, "<%s %s=\"%.40s\">: a negative cost: expected costs of at least 0", element, name, s);
  return TRUE;
}

/* The same, from the current element's attributes. */
static gboolean
index_attr (Reader *r, const char *element, const char *name, guint count, guint32 *out,
            GError **error)
{
  g_autofree char *s = attr (r, name);
  return index_field (r, element, name, s, count, out, error);
}

static gboolean
check_id (Reader *r, const char *element, guint expected, GError **error)
{
  g_autofree char *s = attr (r, "id");
  return id_is (r, element, s, expected, error);
}

static gboolean
values_attr (Reader *r, const char *element, const char *name, gboolean *present, GError **error)
{
  const char *s = attr_ref (r, name);
  if (present)
    *present = s != NULL;
  return values_field (r, element, name, s, error);
}

/* Adds r->values (file events) to @dst (graph events). */
static gboolean
add_values (Reader *r, CgValue *dst, GError **error)
{
  const CgKind *graph_kinds = cg_graph_event_kinds (r->graph);
  for (guint i = 0; i < r->kinds->len; i++)
    {
      guint e = g_array_index (r->event_map, guint, i);
      CgValue v = cg_value_convert (g_array_index (r->kinds, CgKind, i), graph_kinds[e], r->values[i]);
      if (!cg_value_add (graph_kinds[e], &dst[e], v))
        {
          g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s:%d: a cost exceeds the range of 64-bit counters",
                       cg_input_name (r->in), line_number (r));
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
is_zero_vector (Reader *r)
{
  for (guint i = 0; i < r->kinds->len; i++)
    if (!cg_value_is_zero (g_array_index (r->kinds, CgKind, i), r->values[i]))
      return FALSE;
  return TRUE;
}

/* ---- elements ---- */

static gboolean
read_event (Reader *r, GError **error)
{
  g_autofree char *name = NULL, *unit = NULL, *kind_s = NULL;
  if (!required (r, "event", "name", &name, error) || !required (r, "event", "unit", &unit, error)
      || !required (r, "event", "kind", &kind_s, error))
    return FALSE;
  CgKind kind;
  if (!cg_kind_from_string (kind_s, &kind))
    return fail (r, error, "<event kind=\"%s\">: expected integer or real", kind_s);
  guint e;
  GError *local = NULL;
  if (!cg_profile_ensure_event (r->profile, name, unit, kind, &e, &local))
    {
      g_set_error (error, CG_ERROR, local->code, "%s:%d: %s", cg_input_name (r->in),
                   line_number (r), local->message);
      g_error_free (local);
      return FALSE;
    }
  for (guint i = 0; i < r->event_map->len; i++)
    if (g_array_index (r->event_map, guint, i) == e)
      return fail (r, error, "event %s listed twice", cg_graph_event_name (r->graph, e));
  g_autofree char *description = attr (r, "description");
  if (description && cg_graph_event_description (r->graph, e) == NULL)
    cg_graph_set_event_description (r->graph, e, description);
  g_autofree char *scale_s = attr (r, "scale");
  if (scale_s)
    {
      CgValue scale;
      if (!cg_value_parse (CG_KIND_REAL, scale_s, strlen (scale_s), &scale) || !(scale.x > 0))
        return fail (r, error, "<event scale=\"%s\">: expected a positive number", scale_s);
      /* merged data must agree on what a stored unit means */
      if (cg_graph_event_scale (r->graph, e) != scale.x && cg_graph_n_functions (r->graph) > 0)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_MISMATCH, "%s:%d: event %s has scale %s here and %g before",
                       cg_input_name (r->in), line_number (r), name, scale_s, cg_graph_event_scale (r->graph, e));
          return FALSE;
        }
      cg_graph_set_event_scale (r->graph, e, scale.x);
    }
  g_autofree char *samples_s = attr (r, "samples");
  g_autofree char *sampled_s = attr (r, "sampled");
  if (samples_s || sampled_s)
    {
      CgValue samples, sampled;
      if (!samples_s || !sampled_s || !cg_value_parse (CG_KIND_INTEGER, samples_s, strlen (samples_s), &samples)
          || !cg_value_parse (CG_KIND_REAL, sampled_s, strlen (sampled_s), &sampled) || !(sampled.x >= 0))
        return fail (r, error, "<event samples=\"%s\" sampled=\"%s\">: expected a count of samples and the"
                     " non-negative cost they carry, both or neither", samples_s ? samples_s : "",
                     sampled_s ? sampled_s : "");
      cg_graph_add_event_samples (r->graph, e, samples.n, sampled.x);
    }
  g_array_append_val (r->event_map, e);
  g_array_append_val (r->kinds, kind);
  return TRUE;
}

static gboolean
read_named (Reader *r, const char *element, GArray *table, GError **error)
{
  g_autofree char *name = NULL;
  if (!check_id (r, element, table->len, error) || !required (r, element, "name", &name, error))
    return FALSE;
  guint32 id = cg_graph_intern_id (r->graph, name, -1);
  g_array_append_val (table, id);
  return TRUE;
}

/* ---- fields ---- */

/* The attributes of the current element named in @names into @f, in one
 * pass over them; the values stay where on_start put them until the next
 * element.  Unknown attributes are ignored, as later versions may add
 * some. */
static void
attributes_to_fields (Reader *r, const char *const *names, Fields *f)
{
  memset (f, 0, sizeof *f);
  for (const char *const *a = r->atts; a && a[0]; a += 2)
    for (guint i = 0; i < MAX_FIELDS; i++)
      if (names[i] && strcmp (names[i], a[0]) == 0)
        {
          f->v[i] = a[1];
          break;
        }
}

/* A row's columns into @f, cut in place (the row is the NUL-terminated
 * text at @s, which this overwrites); empty columns are absent, columns
 * beyond those this version knows are ignored. */
static void
row_to_fields (Item item, char *s, Fields *f)
{
  *f = (Fields) { .row = TRUE };
  char *p = s;
  for (guint c = 0; c < items[item].n_columns; c++)
    {
      /* columns are mostly short numbers: a loop, not a call, finds
       * their ends */
      char *stop = p;
      while (*stop != '\t' && *stop != '\0')
        stop++;
      gboolean last = *stop == '\0';
      *stop = '\0';
      if (*p != '\0')
        f->v[items[item].columns[c]] = p;
      if (last)
        break;
      p = stop + 1;
    }
}

/* Rows carry no id: theirs is their position. */
static gboolean
check_id_field (Reader *r, const Fields *f, Item item, guint slot, guint expected, GError **error)
{
  return f->row || id_is (r, items[item].element, f->v[slot], expected, error);
}

/* ---- items ---- */

static gboolean
read_function (Reader *r, const Fields *fl, GError **error)
{
  const char *const *v = fl->v;
  const char *kind = v[FN_KIND], *nested = v[FN_NESTED];
  guint32 object, file = G_MAXUINT32;
  if (!check_id_field (r, fl, ITEM_FUNCTION, FN_ID, r->function_map.len, error)
      || !required_field (r, "function", "name", fl->row ? "" : v[FN_NAME], error)
      || !index_field (r, "function", "object", v[FN_OBJECT], r->objects->len, &object, error))
    return FALSE;
  if (v[FN_FILE] && !index_field (r, "function", "file", v[FN_FILE], r->files->len, &file, error))
    return FALSE;
  guint64 line = 0;
  if (v[FN_LINE] && !parse_uint (v[FN_LINE], G_MAXUINT32, &line))
    return fail (r, error, "<function line=\"%s\">: not a line number", v[FN_LINE]);
  gboolean is_cycle = FALSE, is_nested = FALSE;
  if (fl->row && v[FN_FLAGS])
    {
      /* "cycle", "nested" or both, blank-separated */
      const char *p = v[FN_FLAGS];
      while (*p)
        {
          gsize n = strcspn (p, " ");
          if (n == 5 && memcmp (p, "cycle", 5) == 0)
            is_cycle = TRUE;
          else if (n == 6 && memcmp (p, "nested", 6) == 0)
            is_nested = TRUE;
          else
            return fail (r, error, "<function-rows>: flags '%s': expected cycle or nested", v[FN_FLAGS]);
          p += n;
          if (*p == ' ' && p[1] != '\0')
            p++;
          else if (*p)
            return fail (r, error, "<function-rows>: flags '%s': expected cycle or nested", v[FN_FLAGS]);
        }
    }
  if (kind && strcmp (kind, "cycle") != 0)
    return fail (r, error, "<function kind=\"%s\">: expected cycle", kind);
  if (nested && strcmp (nested, "yes") != 0)
    return fail (r, error, "<function nested=\"%s\">: expected yes", nested);
  is_cycle |= kind != NULL;
  is_nested |= nested != NULL;
  /* a row's name as taken ahead, hashed already */
  const NameAhead *ahead = fl->row ? r->row_name : NULL;
  guint32 name = ahead && ahead->plain && v[FN_NAME]
                   ? cg_graph_intern_tagged_id (r->graph, v[FN_NAME], ahead->len, ahead->tag)
                   : cg_graph_intern_id (r->graph, v[FN_NAME] ? v[FN_NAME] : "", -1);
  CgFunctionId f = cg_graph_ensure_function_ids (r->graph, g_array_index (r->objects, guint32, object), name);
  if (f == CG_NO_ID)
    return fail (r, error, "too many functions");
  id_map_append (&r->function_map, f);
  cg_graph_function_set_location_id (r->graph, f, file == G_MAXUINT32 ? 0 : g_array_index (r->files, guint32, file),
                                     (guint32) line);
  CgFunctionFlags flags = cg_graph_function_flags (r->graph, f);
  if (is_cycle)
    flags |= CG_FUNCTION_CYCLE;
  if (is_nested)
    flags |= CG_FUNCTION_NESTED;
  cg_graph_function_set_flags (r->graph, f, flags);
  if (!values_field (r, "function", "self", v[FN_SELF], error) || !add_values (r, cg_graph_self (r->graph, f), error))
    return FALSE;
  if (!values_field (r, "function", "spontaneous", v[FN_SPONTANEOUS], error))
    return FALSE;
  if (v[FN_SPONTANEOUS] && !is_zero_vector (r))
    return add_values (r, cg_graph_spontaneous_mut (r->graph, f), error);
  return TRUE;
}

/* What an arc item does once read: the arc @caller -> @callee (function
 * indexes of the document) with @calls calls and r->values inclusive.
 * Found in its caller's run or appended (cg-arc-runs), not looked up in
 * the whole graph: an arc of another run, in this document or an earlier
 * one, is merged into its first when the arcs end (merge_arcs).  Looking
 * each one up cost the reading stages a sixth of their worker's time. */
static gboolean
add_arc (Reader *r, guint32 caller, guint32 callee, guint64 calls, GError **error)
{
  CgArcId a = cg_arc_runs_arc (r->arc_runs, r->function_map.ids[caller], r->function_map.ids[callee]);
  if (a == CG_NO_ID)
    return fail (r, error, "too many arcs");
  r->arcs_appended = TRUE;
  id_map_append (&r->arc_map, a);
  if (!cg_graph_arc_add_calls (r->graph, a, calls))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s:%d: call counts exceed the range of 64-bit counters",
                   cg_input_name (r->in), line_number (r));
      return FALSE;
    }
  return add_values (r, cg_graph_arc_inclusive (r->graph, a), error);
}

/* Merges the arcs appended (add_arc) with the same caller and callee,
 * and points the document's arc ids at the merged arcs; with the rows
 * drained, before anything reads the arcs. */
static gboolean
merge_arcs (Reader *r, GError **error)
{
  if (!r->arcs_appended)
    return TRUE;
  r->arcs_appended = FALSE;
  g_autofree CgArcId *renumbered = NULL;
  GError *local = NULL;
  gboolean ok = cg_arc_runs_merge (r->arc_runs, &renumbered, &local);
  if (renumbered)
    {
      for (guint i = 0; i < r->arc_map.len; i++)
        r->arc_map.ids[i] = renumbered[r->arc_map.ids[i]];
    }
  if (!ok)
    {
      g_set_error (error, CG_ERROR, local->code, "%s: %s", cg_input_name (r->in), local->message);
      g_error_free (local);
    }
  return ok;
}

static gboolean
read_arc (Reader *r, const Fields *fl, GError **error)
{
  const char *const *v = fl->v;
  guint32 caller, callee;
  guint nf = r->function_map.len;
  if (!check_id_field (r, fl, ITEM_ARC, ARC_ID, r->arc_map.len, error)
      || !index_field (r, "arc", "caller", v[ARC_CALLER], nf, &caller, error)
      || !index_field (r, "arc", "callee", v[ARC_CALLEE], nf, &callee, error))
    return FALSE;
  guint64 calls = 0;
  if (v[ARC_CALLS] && !parse_uint (v[ARC_CALLS], G_MAXUINT64, &calls))
    return fail (r, error, "<arc calls=\"%s\">: not a call count", v[ARC_CALLS]);
  return values_field (r, "arc", "inclusive", v[ARC_INCLUSIVE], error) && add_arc (r, caller, callee, calls, error);
}

/* 1 to 19 decimal digits at *@p, which moves past them: the common case
 * of parse_uint and cg_value_parse, which say the same of them.  A rows
 * block has the padding cg_digits_lex reads past its NUL. */
static inline gboolean
lex_number (const char **p, guint64 *out)
{
  const char *next = cg_digits_lex (*p, out);
  if (next == NULL)
    return FALSE;
  *p = next;
  return TRUE;
}

/* An arc row in the form the writer gives it, "CALLER\tCALLEE", then
 * "\tCALLS" and "\tINCLUSIVE" unless they are empty, with numbers of at
 * most 19 digits and integer costs, into the items it names and
 * r->values, without cutting it into fields (most rows of a large
 * document are arcs).  FALSE for a row in any other form, with nothing
 * added to the profile (r->values is scratch): read_arc reads it, and
 * says what is wrong with it. */
static gboolean
lex_arc_row (Reader *r, const char *p, guint32 *caller, guint32 *callee, guint64 *calls)
{
  guint nf = r->function_map.len, n = r->kinds->len;
  const CgKind *kinds = (const CgKind *) r->kinds->data;
  guint64 from, to;
  if (!lex_number (&p, &from) || from >= nf || *p++ != '\t' || !lex_number (&p, &to) || to >= nf)
    return FALSE;
  *calls = 0;
  for (guint i = 0; i < n; i++)
    r->values[i] = CG_VALUE_ZERO;
  if (*p == '\t')
    {
      p++;
      if (*p != '\t' && *p != '\0' && !lex_number (&p, calls))
        return FALSE;
      if (*p == '\t')
        {
          p++;
          /* costs, one blank between */
          for (guint i = 0; *p != '\0'; i++)
            {
              if (i == n || kinds[i] != CG_KIND_INTEGER || !lex_number (&p, &r->values[i].n))
                return FALSE;
              if (*p == ' ' && p[1] != '\0')
                p++;
              else if (*p != '\0')
                return FALSE;
            }
        }
    }
  *caller = (guint32) from;
  *callee = (guint32) to;
  return *p == '\0';
}

static gboolean
read_frame (Reader *r, const Fields *fl, GError **error)
{
  const char *const *v = fl->v;
  CgTree *t = cg_profile_ensure_tree (r->profile);
  guint32 function, parent = CG_NO_ID;
  guint n = r->frame_map->len;
  if (!check_id_field (r, fl, ITEM_FRAME, FRAME_ID, n, error)
      || !index_field (r, "frame", "function", v[FRAME_FUNCTION], r->function_map.len, &function, error))
    return FALSE;
  if (v[FRAME_PARENT] && !index_field (r, "frame", "parent", v[FRAME_PARENT], n, &parent, error))
    return FALSE;
  CgFrameId x = cg_tree_ensure_child (t, parent == CG_NO_ID ? CG_NO_ID : g_array_index (r->frame_map, CgFrameId, parent),
                                      r->function_map.ids[function]);
  if (x == CG_NO_ID)
    return fail (r, error, "too many frames");
  g_array_append_val (r->frame_map, x);
  return values_field (r, "frame", "self", v[FRAME_SELF], error) && add_values (r, cg_tree_self (t, x), error);
}

/* <context history="0 (1) 2 1" self="..." entries="N" recursive="M"/>
 * Read into the reader's scratch (r->history and the two arrays), with
 * no allocation per context: a 500 MB amon.out makes millions. */
static gboolean
read_context (Reader *r, GError **error)
{
  const char *history = attr_ref (r, "history");
  if (history == NULL)
    return fail (r, error, "<context> lacks the history attribute");
  GArray *f = r->history_functions, *m = r->history_marks;
  g_array_set_size (f, 0);
  g_array_set_size (m, 0);
  /* words between single blanks, each cut in place in a copy */
  g_string_assign (r->history, history);
  guint nf = r->function_map.len;
  for (char *word = r->history->str, *next; word; word = next)
    {
      char *blank = strchr (word, ' ');
      next = blank ? blank + 1 : NULL;
      if (blank)
        *blank = '\0';
      char *w = word;
      gsize len = strlen (w);
      guint8 marked = !(len >= 2 && w[0] == '(' && w[len - 1] == ')');
      guint64 v;
      if (!marked)
        {
          w[len - 1] = 0;
          w++;
        }
      gboolean ok = parse_uint (w, G_MAXUINT32, &v) && v < nf;
      if (!marked)
        w[len - 2] = ')';
      if (!ok)
        return fail (r, error, "<context history>: '%s' is not a function", word);
      CgFunctionId id = r->function_map.ids[v];
      g_array_append_val (f, id);
      g_array_append_val (m, marked);
    }
  const char *why;
  if (!cg_contexts_check_history ((const CgFunctionId *) f->data, (const guint8 *) m->data, f->len, &why))
    return fail (r, error, "<context history=\"%.40s\">: %s", history, why);
  const char *entries_s = attr_ref (r, "entries"), *recursive_s = attr_ref (r, "recursive");
  guint64 entries = 0, recursive = 0;
  if ((entries_s && !parse_uint (entries_s, G_MAXUINT64, &entries))
      || (recursive_s && !parse_uint (recursive_s, G_MAXUINT64, &recursive)))
    return fail (r, error, "<context>: entries and recursive must be counts");
  CgContexts *cx = cg_profile_ensure_contexts (r->profile);
  CgContextId k = cg_contexts_ensure (cx, (const CgFunctionId *) f->data, (const guint8 *) m->data, f->len);
  if (k == CG_NO_ID)
    return fail (r, error, "too many contexts");
  if (!cg_contexts_add_counts (cx, k, entries, recursive))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s:%d: a count exceeds the range of 64-bit counters",
                   cg_input_name (r->in), line_number (r));
      return FALSE;
    }
  return values_attr (r, "context", "self", NULL, error) && add_values (r, cg_contexts_cost (cx, k), error);
}

static gboolean
read_cycle (Reader *r, GError **error)
{
  g_autofree char *members_s = NULL;
  guint32 head = 0;
  guint nf = r->function_map.len;
  if (!index_attr (r, "cycle", "head", nf, &head, error) || !required (r, "cycle", "members", &members_s, error))
    return FALSE;
  if (r->cycles == NULL)
    return TRUE; /* derived data of a merged input: dropped */
  g_autoptr (GArray) members = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  g_auto (GStrv) words = g_strsplit (members_s, " ", -1);
  for (guint i = 0; words[i]; i++)
    {
      guint64 v;
      if (!parse_uint (words[i], G_MAXUINT32, &v) || v >= nf)
        return fail (r, error, "<cycle members>: '%s' is not a function", words[i]);
      CgFunctionId f = r->function_map.ids[v];
      g_array_append_val (members, f);
    }
  GError *local = NULL;
  if (!cg_cycles_add (r->cycles, r->function_map.ids[head],
                      (const CgFunctionId *) members->data, members->len, &local))
    {
      fail (r, error, "%s", local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

static gboolean
start_costs (Reader *r, GError **error)
{
  g_autofree char *method_s = NULL;
  CgMethod method;
  if (!required (r, "costs", "method", &method_s, error))
    return FALSE;
  if (!cg_method_from_string (method_s, &method) || method == CG_METHOD_AUTO)
    return fail (r, error, "<costs method=\"%s\">: unknown method", method_s);
  if (r->keep_derived)
    {
      r->costs = cg_costs_new (method, r->graph);
      r->check = cg_cost_check_new (r->profile, r->costs);
      r->total_given = g_new0 (guint8, MAX (cg_graph_n_functions (r->graph), 1));
      r->costs_line = line_number (r);
    }
  return TRUE;
}

/* <total> and <arc-cost> (and their rows): values in the costs' kinds,
 * which follow the graph's events one to one (keep_derived means the
 * graph is this file's) */
static gboolean
read_cost (Reader *r, const Fields *fl, gboolean is_arc, GError **error)
{
  const char *const *v = fl->v;
  const char *element = is_arc ? "arc-cost" : "total";
  guint count = is_arc ? r->arc_map.len : r->function_map.len;
  guint32 i;
  if (fl->row)
    {
      /* the k-th row of a kind is item k */
      i = is_arc ? r->n_arc_cost_rows++ : r->n_total_rows++;
      if (i >= count)
        return fail (r, error, "<%s-rows>: row %u: no such item (%u defined)", element, i, count);
    }
  else if (!index_field (r, element, is_arc ? "arc" : "function", v[COST_ITEM], count, &i, error))
    return FALSE;
  const char *estimated = v[COST_ESTIMATED];
  if (estimated && strcmp (estimated, "yes") != 0)
    return fail (r, error, "<%s estimated=\"%s\">: expected yes", element, estimated);
  if (v[COST_MARK] && strcmp (v[COST_MARK], "~") != 0)
    return fail (r, error, "<%s-rows>: '%s' where an estimate's mark ~ or nothing belongs", element, v[COST_MARK]);
  gboolean is_estimated = estimated != NULL || v[COST_MARK] != NULL;
  /* an arc's cost is checked against its caller's total */
  if (!is_arc && r->arc_costs_begun)
    return fail (r, error, "<%s>: after the arcs' costs: expected every total before them", element);
  r->arc_costs_begun |= is_arc;
  if (r->costs == NULL)
    return TRUE;
  guint id = is_arc ? r->arc_map.ids[i] : r->function_map.ids[i];
  const CgKind *kinds = cg_costs_kinds (r->costs);
  guint ne = cg_costs_n_events (r->costs);
  CgValue *dst = is_arc ? cg_costs_arc (r->costs, id) : cg_costs_total (r->costs, id);
  if (v[COST_VALUE] && !cg_values_parse_list (v[COST_VALUE], kinds, ne, dst))
    return fail (r, error, "<%s value=\"%.40s\">: not a cost list of this method's kinds", element, v[COST_VALUE]);
  if (is_arc)
    {
      if ((v[COST_SELF2] && !cg_values_parse_list (v[COST_SELF2], kinds, ne, cg_costs_arc_self2 (r->costs, id)))
          || (v[COST_CHILDREN2]
              && !cg_values_parse_list (v[COST_CHILDREN2], kinds, ne, cg_costs_arc_children2 (r->costs, id))))
        return fail (r, error, "<arc-cost>: self2 or children2 is not a cost list of this method's kinds");
      if ((v[COST_SELF] && !cg_values_parse_list (v[COST_SELF], kinds, ne, cg_costs_arc_self (r->costs, id)))
          || (v[COST_CHILDREN]
              && !cg_values_parse_list (v[COST_CHILDREN], kinds, ne, cg_costs_arc_children (r->costs, id))))
        return fail (r, error, "<arc-cost>: self or children is not a cost list of this method's kinds");
      cg_costs_set_arc_estimated (r->costs, id, is_estimated);
    }
  else
    {
      cg_costs_set_total_estimated (r->costs, id, is_estimated);
      r->total_given[id] = 1;
    }
  g_autofree char *why = is_arc ? cg_cost_check_arc (r->check, id) : cg_cost_check_total (r->check, id);
  if (why)
    return fail (r, error, "<%s%s>: %s", element, fl->row ? "-rows" : "", why);
  return TRUE;
}

/* A function that no total item named has none, 0: possible only
 * without a self cost (checked once the costs are read). */
static gboolean
check_totals_given (Reader *r, GError **error)
{
  for (CgFunctionId f = 0; f < cg_graph_n_functions (r->graph); f++)
    {
      if (r->total_given[f])
        continue;
      g_autofree char *why = cg_cost_check_total (r->check, f);
      if (why)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_PARSE, "%s:%d: <costs> gives %s no total, so 0: %s",
                       cg_input_name (r->in), r->costs_line, cg_graph_function_name (r->graph, f), why);
          return FALSE;
        }
    }
  return TRUE;
}

/* One item of @item's kind from @f. */
static gboolean
read_item (Reader *r, Item item, const Fields *f, GError **error)
{
  switch (item)
    {
    case ITEM_FUNCTION:
      return read_function (r, f, error);
    case ITEM_ARC:
      return read_arc (r, f, error);
    case ITEM_FRAME:
      return read_frame (r, f, error);
    case ITEM_TOTAL:
      return read_cost (r, f, FALSE, error);
    case ITEM_ARC_COST:
      return read_cost (r, f, TRUE, error);
    case N_ITEMS:
    default:
      return FALSE;
    }
}

/* ---- rows ---- */

/* The NUL-terminated row at @s (overwritten). */
static gboolean
read_row (Reader *r, Item item, char *s, GError **error)
{
  guint32 caller, callee;
  guint64 calls;
  if (item == ITEM_ARC && lex_arc_row (r, s, &caller, &callee, &calls))
    return add_arc (r, caller, callee, calls, error);
  Fields f;
  row_to_fields (item, s, &f);
  return read_item (r, item, &f, error);
}

/* Rows of one kind as the parser handed them over: whole lines, and at
 * the end of their element perhaps a last row without its newline. */
typedef struct {
  Item item;
  guint64 line; /* of the first row */
  char *text;   /* NUL-terminated, then CG_DIGITS_PADDING zeros; cut in place */
  gsize len;
} RowsBlock;

static void
rows_block_free (gpointer data)
{
  RowsBlock *b = data;
  g_free (b->text);
  g_free (b);
}

/* Takes the name of the function row at @row (its first field) into
 * @name and starts loading the string table's slot for it; returns the
 * next row (@end when none).  Every name of a document is new to the
 * table of the stage that reads it, and lands anywhere in it: a cache
 * miss a row, which this overlaps with reading the rows between. */
static char *
name_ahead (Reader *r, char *row, char *end, NameAhead *name)
{
  char *nl = memchr (row, '\n', (gsize) (end - row)), *row_end = nl ? nl : end;
  char *tab = memchr (row, '\t', (gsize) (row_end - row));
  name->len = (gsize) ((tab ? tab : row_end) - row);
  name->plain = cg_graph_string_tag (row, name->len, &name->tag);
  if (name->plain)
    cg_graph_prefetch_string (r->graph, name->tag);
  return nl ? nl + 1 : end;
}

/* The worker's job: one item per line, blank lines skipped.  Function
 * rows are taken NAMES_AHEAD rows ahead as well (name_ahead), before
 * they are cut in place. */
static gboolean
read_rows_block (gpointer job, gpointer data, GError **error)
{
  RowsBlock *b = job;
  Reader *r = data;
  r->row_line = b->line;
  char *p = b->text, *end = p + b->len, *ahead = p;
  gboolean names = b->item == ITEM_FUNCTION;
  guint row = 0, n_ahead = 0;
  for (; names && n_ahead < NAMES_AHEAD && ahead < end; n_ahead++)
    ahead = name_ahead (r, ahead, end, &r->names_ahead[n_ahead]);
  gboolean ok = TRUE;
  for (char *nl = p; ok && p < end; p = nl + 1, r->row_line++, row++)
    {
      nl = memchr (p, '\n', (gsize) (end - p));
      if (nl == NULL)
        nl = end; /* the last row, without its newline, at its NUL */
      r->row_name = names ? &r->names_ahead[row % NAMES_AHEAD] : NULL;
      *nl = '\0';
      ok = nl == p || read_row (r, b->item, p, error);
      if (names && ahead < end)
        ahead = name_ahead (r, ahead, end, &r->names_ahead[n_ahead++ % NAMES_AHEAD]);
    }
  r->row_line = 0;
  r->row_name = NULL;
  return ok;
}

/* Hands the first @len bytes of the carry to the worker (all of it at
 * the @end of the element); FALSE once the worker has failed. */
static gboolean
hand_over (Reader *r, gsize len, gboolean end)
{
  RowsBlock *b = g_new (RowsBlock, 1);
  b->item = (Item) r->rows_item;
  b->line = r->carry_line;
  b->len = len;
  if (len == r->carry->len)
    {
      /* all of it (the usual case): the carry's buffer goes along, with
       * the padding zeros, which a shorter length keeps */
      static const char zeros[CG_DIGITS_PADDING];
      g_string_append_len (r->carry, zeros, sizeof zeros);
      g_string_truncate (r->carry, len);
      b->text = g_string_free (r->carry, FALSE);
      r->carry = g_string_sized_new (len);
    }
  else
    {
      b->text = g_malloc0 (len + 1 + CG_DIGITS_PADDING);
      memcpy (b->text, r->carry->str, len);
      g_string_erase (r->carry, 0, (gssize) len);
    }
  /* where the next block starts (no next block after the end) */
  if (!end)
    for (const char *p = b->text; (p = memchr (p, '\n', (gsize) (b->text + len - p))) != NULL; p++)
      r->carry_line++;
  return cg_worker_push (r->rows, b);
}

/* Hands the carry's whole rows (up to its last newline) to the worker. */
static gboolean
hand_over_whole_rows (Reader *r)
{
  gsize whole = r->carry->len;
  while (whole > 0 && r->carry->str[whole - 1] != '\n')
    whole--;
  return whole == 0 || hand_over (r, whole, FALSE);
}

/* Text of a rows element, as libxml2 hands it over: in pieces, which end
 * anywhere (and a comment may split the text), so a row may continue in
 * the next: the carry keeps what follows the last newline. */
static gboolean
rows_text (Reader *r, const char *text, gsize len)
{
  g_string_append_len (r->carry, text, (gssize) len);
  return r->carry->len < r->block_bytes || hand_over_whole_rows (r);
}

/* The end of a rows element: the rest of its rows, the last perhaps
 * without its newline. */
static gboolean
rows_end (Reader *r)
{
  gboolean ok = r->carry->len == 0 || hand_over (r, r->carry->len, TRUE);
  r->rows_item = -1;
  return ok;
}

/* Waits for the rows: anything but more rows may depend on them, and
 * their error comes first in the document.  Inside a rows element (the
 * parser found something amiss there) the whole rows read so far count,
 * however the carry was cut. */
static gboolean
rows_drain (Reader *r, GError **error)
{
  if (r->rows_item >= 0)
    hand_over_whole_rows (r);
  return cg_worker_drain (r->rows, error);
}

/* ---- histogram (gmon.out data, cg-histogram.h) ---- */

static gboolean
start_histogram (Reader *r, GError **error)
{
  g_autofree char *event_s = NULL, *rate_s = NULL, *width_s = NULL, *samples_s = NULL, *graph_s = NULL;
  guint64 event, rate, samples;
  CgValue width;
  if (!required (r, "histogram", "event", &event_s, error) || !required (r, "histogram", "rate", &rate_s, error)
      || !required (r, "histogram", "bin-width", &width_s, error)
      || !required (r, "histogram", "samples", &samples_s, error))
    return FALSE;
  if (!parse_uint (event_s, G_MAXUINT32, &event) || event >= r->event_map->len)
    return fail (r, error, "<histogram event=\"%s\">: no such event", event_s);
  if (!parse_uint (rate_s, G_MAXUINT32, &rate))
    return fail (r, error, "<histogram rate=\"%s\">: expected a rate per second", rate_s);
  if (!cg_value_parse (CG_KIND_REAL, width_s, strlen (width_s), &width) || !(width.x >= 0))
    return fail (r, error, "<histogram bin-width=\"%s\">: expected a number", width_s);
  if (!parse_uint (samples_s, G_MAXUINT64, &samples))
    return fail (r, error, "<histogram samples=\"%s\">: expected a count", samples_s);
  graph_s = attr (r, "call-graph");
  if (graph_s && strcmp (graph_s, "yes") != 0 && strcmp (graph_s, "no") != 0)
    return fail (r, error, "<histogram call-graph=\"%s\">: expected yes or no", graph_s);
  r->histogram = cg_histogram_new (g_array_index (r->event_map, guint, event), (guint32) rate, width.x);
  cg_histogram_add_samples (r->histogram, samples);
  cg_histogram_set_call_graph (r->histogram, graph_s && strcmp (graph_s, "yes") == 0);
  return TRUE;
}

static gboolean
read_range (Reader *r, GError **error)
{
  g_autofree char *low_s = NULL, *high_s = NULL, *bins_s = NULL;
  guint64 low, high, bins;
  if (!required (r, "range", "low", &low_s, error) || !required (r, "range", "high", &high_s, error)
      || !required (r, "range", "bins", &bins_s, error))
    return FALSE;
  if (!parse_uint (low_s, G_MAXUINT64, &low) || !parse_uint (high_s, G_MAXUINT64, &high) || low > high
      || !parse_uint (bins_s, G_MAXUINT32, &bins) || bins == 0)
    return fail (r, error, "<range low=\"%s\" high=\"%s\" bins=\"%s\">: expected low <= high and bins > 0",
                 low_s, high_s, bins_s);
  guint k;
  GError *local = NULL;
  if (!cg_histogram_add_range (r->histogram, low, high, (guint32) bins, cg_histogram_bin_width (r->histogram), &k,
                               &local))
    {
      g_set_error (error, CG_ERROR, local->code, "%s:%d: %s", cg_input_name (r->in), line_number (r),
                   local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

/* The document's histogram joins the profile's (summing rules of
 * cg_histogram_merge); its counts are not in the document. */
static gboolean
merge_histogram (Reader *r, GError **error)
{
  CgHistogram *have = cg_profile_histogram (r->profile);
  g_autoptr (CgHistogram) h = g_steal_pointer (&r->histogram);
  cg_histogram_forget_counts (h);
  if (have == NULL)
    {
      cg_profile_set_histogram (r->profile, g_steal_pointer (&h));
      return TRUE;
    }
  GError *local = NULL;
  if (!cg_histogram_merge (have, h, cg_histogram_event (h), &local))
    {
      g_set_error (error, CG_ERROR, local->code, "%s:%d: %s", cg_input_name (r->in), line_number (r),
                   local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

/* ---- structure ---- */

typedef struct {
  const char *name;
  Section section;
  Section after; /* the latest section allowed before this one */
} SectionRule;

static const SectionRule sections[] = {
  { "events", SECTION_EVENTS, SECTION_NONE },
  { "objects", SECTION_OBJECTS, SECTION_EVENTS },
  { "files", SECTION_FILES, SECTION_OBJECTS },
  { "functions", SECTION_FUNCTIONS, SECTION_FILES },
  { "arcs", SECTION_ARCS, SECTION_FUNCTIONS },
  { "tree", SECTION_TREE, SECTION_ARCS },
  { "contexts", SECTION_CONTEXTS, SECTION_ARCS },
  { "cycles", SECTION_CYCLES, SECTION_TREE },
  { "costs", SECTION_COSTS, SECTION_CYCLES },
};

static gboolean
start_section (Reader *r, const char *name, GError **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (sections); i++)
    {
      if (strcmp (name, sections[i].name) != 0)
        continue;
      /* required sections come in order; optional ones may be skipped */
      gboolean in_order = r->section < sections[i].section
                          && (sections[i].section <= SECTION_ARCS
                                ? r->section == sections[i].after
                                    || (sections[i].section == SECTION_OBJECTS && r->section == SECTION_HISTOGRAM)
                                : r->section >= SECTION_ARCS);
      if (!in_order)
        return fail (r, error, "<%s> is out of place", name);
      if (r->section == SECTION_ARCS && !merge_arcs (r, error))
        return FALSE;
      r->section = sections[i].section;
      if (r->section == SECTION_ARCS)
        {
          g_autofree char *inc = NULL;
          if (!required (r, "arcs", "inclusive", &inc, error))
            return FALSE;
          if (strcmp (inc, "yes") == 0)
            cg_graph_set_has_inclusive (r->graph, TRUE);
          else if (strcmp (inc, "no") != 0)
            return fail (r, error, "<arcs inclusive=\"%s\">: expected yes or no", inc);
        }
      if (r->section == SECTION_EVENTS)
        return TRUE;
      if (r->section == SECTION_OBJECTS && r->histogram && !merge_histogram (r, error))
        return FALSE;
      if (r->section == SECTION_OBJECTS)
        {
          guint n = r->kinds->len;
          r->values = g_new0 (CgValue, MAX (n, 1));
        }
      if (r->section == SECTION_CYCLES && r->keep_derived)
        r->cycles = cg_cycles_new (cg_graph_n_functions (r->graph));
      if (r->section == SECTION_COSTS)
        return start_costs (r, error);
      return TRUE;
    }
  if (strcmp (name, "histogram") == 0 && r->section == SECTION_EVENTS)
    {
      r->section = SECTION_HISTOGRAM;
      return start_histogram (r, error);
    }
  if (strcmp (name, "source") == 0 && r->section == SECTION_NONE)
    {
      g_autofree char *format = NULL;
      if (!required (r, "source", "format", &format, error))
        return FALSE;
      g_autofree char *path = attr (r, "path"), *command = attr (r, "command"), *creator = attr (r, "creator");
      g_autofree char *note = attr (r, "note"), *detail = attr (r, "detail");
      cg_profile_add_source (r->profile, format, path, command, creator);
      cg_profile_set_source_note (r->profile, note);
      cg_profile_set_source_detail (r->profile, detail);
      return TRUE;
    }
  return fail (r, error, "unexpected element <%s>", name);
}

/* The section that holds each item kind. */
static const Section item_sections[N_ITEMS] = {
  [ITEM_FUNCTION] = SECTION_FUNCTIONS, [ITEM_ARC] = SECTION_ARCS, [ITEM_FRAME] = SECTION_TREE,
  [ITEM_TOTAL] = SECTION_COSTS, [ITEM_ARC_COST] = SECTION_COSTS,
};

/* The Item whose rows element @name is, when the current section holds
 * it, else -1. */
static gint
rows_item_named (Reader *r, const char *name)
{
  for (guint i = 0; i < N_ITEMS; i++)
    if (item_sections[i] == r->section && strcmp (items[i].rows, name) == 0)
      return (gint) i;
  return -1;
}

/* The start of an element of a section: an item, rows, or another. */
static gboolean
item (Reader *r, const char *name, GError **error)
{
  gint rows = rows_item_named (r, name);
  if (rows >= 0)
    {
      /* its rows start on the line its start tag ends on */
      r->rows_item = rows;
      r->carry_line = (guint64) element_line (r);
      return TRUE;
    }
  for (guint i = 0; i < N_ITEMS; i++)
    if (item_sections[i] == r->section && strcmp (items[i].element, name) == 0)
      {
        Fields f;
        attributes_to_fields (r, items[i].attributes, &f);
        return read_item (r, (Item) i, &f, error);
      }
  static const struct {
    Section section;
    const char *name;
  } others[] = {
    { SECTION_EVENTS, "event" }, { SECTION_HISTOGRAM, "range" }, { SECTION_OBJECTS, "object" },
    { SECTION_FILES, "file" }, { SECTION_CONTEXTS, "context" }, { SECTION_CYCLES, "cycle" },
  };
  gboolean known = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    known |= others[i].section == r->section && strcmp (others[i].name, name) == 0;
  if (!known)
    return fail (r, error, "unexpected element <%s>", name);
  switch (r->section)
    {
    case SECTION_EVENTS:
      return read_event (r, error);
    case SECTION_HISTOGRAM:
      return read_range (r, error);
    case SECTION_OBJECTS:
      return read_named (r, "object", r->objects, error);
    case SECTION_FILES:
      return read_named (r, "file", r->files, error);
    case SECTION_CONTEXTS:
      return read_context (r, error);
    case SECTION_CYCLES:
      return read_cycle (r, error);
    case SECTION_NONE:
    case SECTION_FUNCTIONS:
    case SECTION_ARCS:
    case SECTION_TREE:
    case SECTION_COSTS:
    default:
      return FALSE;
    }
}

/* The start of an element.  Only a rows element goes on while the
 * worker applies rows; every other waits for it. */
static gboolean
element (Reader *r, GError **error)
{
  const char *name = r->name;
  int depth = r->depth;
  if (!(depth == 2 && rows_item_named (r, name) >= 0) && !rows_drain (r, error))
    return FALSE;
  if (depth == 0)
    {
      if (strcmp (name, "cgtools") != 0)
        return fail (r, error, "the document element is <%s>, not <cgtools>", name);
      g_autofree char *version = attr (r, "version");
      if (g_strcmp0 (version, "1") != 0 && g_strcmp0 (version, "2") != 0)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED,
                       "%s:%d: cgtools XML version %s is not supported (1 and 2 are)",
                       cg_input_name (r->in), line_number (r), version ? version : "(none)");
          return FALSE;
        }
      r->seen_root = TRUE;
      return TRUE;
    }
  if (depth == 1)
    return start_section (r, name, error);
  if (depth == 2)
    return item (r, name, error);
  return fail (r, error, "unexpected element <%s>", name);
}

/* ---- the parser's callbacks ---- */

/* A callback failed, with r->error set (or the rows worker's error to
 * come): the parser stops. */
static void
stop (Reader *r)
{
  r->stopped = TRUE;
  xmlStopParser (r->ctxt);
}

/* A qualified name into r->start_text, NUL-terminated; returns its
 * offset there. */
static gsize
put_name (Reader *r, const xmlChar *prefix, const xmlChar *local)
{
  gsize at = r->start_text->len;
  if (prefix)
    {
      g_string_append (r->start_text, (const char *) prefix);
      g_string_append_c (r->start_text, ':');
    }
  g_string_append (r->start_text, (const char *) local);
  g_string_append_c (r->start_text, '\0');
  return at;
}

/* An attribute value [@v, @end) into @out, NUL-terminated.  libxml2 has
 * replaced references, but leaves an ampersand as "&#38;" (for the tree
 * it would build, without entity substitution, which stays off): no
 * other ampersand can be there. */
static void
put_value (GString *out, const char *v, const char *end)
{
  static const char amp[] = "&#38;";
  const gsize n = sizeof amp - 1;
  while (v < end)
    {
      const char *p = memchr (v, '&', (gsize) (end - v));
      if (p == NULL)
        {
          g_string_append_len (out, v, end - v);
          break;
        }
      g_string_append_len (out, v, p - v);
      g_string_append_c (out, '&');
      v = (gsize) (end - p) >= n && memcmp (p, amp, n) == 0 ? p + n : p + 1;
    }
  g_string_append_c (out, '\0');
}

/* libxml2's SAX2 start of an element: attributes come as five pointers
 * each (local name, prefix, URI, value, value end), values not
 * terminated; they are copied out as name and value strings. */
static void
on_start (void *data, const xmlChar *local, const xmlChar *prefix, G_GNUC_UNUSED const xmlChar *uri,
          G_GNUC_UNUSED int n_namespaces, G_GNUC_UNUSED const xmlChar **namespaces, int n_attributes,
          G_GNUC_UNUSED int n_defaulted, const xmlChar **attributes)
{
  Reader *r = data;
  if (r->stopped)
    return;
  /* offsets first, the pointers once the text no longer moves */
  g_string_truncate (r->start_text, 0);
  g_ptr_array_set_size (r->start_atts, 0);
  gsize name = put_name (r, prefix, local);
  for (int i = 0; i < n_attributes; i++)
    {
      const xmlChar *const *a = attributes + 5 * i;
      g_ptr_array_add (r->start_atts, GSIZE_TO_POINTER (put_name (r, a[1], a[0])));
      g_ptr_array_add (r->start_atts, GSIZE_TO_POINTER (r->start_text->len));
      put_value (r->start_text, (const char *) a[3], (const char *) a[4]);
    }
  for (guint i = 0; i < r->start_atts->len; i++)
    r->start_atts->pdata[i] = r->start_text->str + GPOINTER_TO_SIZE (r->start_atts->pdata[i]);
  g_ptr_array_add (r->start_atts, NULL);
  r->name = r->start_text->str + name;
  r->atts = (const char *const *) r->start_atts->pdata;
  gboolean ok = r->rows_item < 0 ? element (r, &r->error)
                                 : rows_drain (r, &r->error)
                                     && fail (r, &r->error, "unexpected element <%s> in <%s>", r->name,
                                              items[r->rows_item].rows);
  r->atts = NULL;
  r->depth++;
  if (!ok)
    stop (r);
}

static void
on_end (void *data, G_GNUC_UNUSED const xmlChar *local, G_GNUC_UNUSED const xmlChar *prefix,
        G_GNUC_UNUSED const xmlChar *uri)
{
  Reader *r = data;
  if (r->stopped)
    return;
  r->depth--;
  /* inside rows no element starts, so this one ends them */
  if (r->rows_item >= 0 && !rows_end (r))
    stop (r);
}

static gboolean
is_blank (const char *s, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (!(s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
      return FALSE;
  return TRUE;
}

static void
on_text (void *data, const xmlChar *text, int len)
{
  Reader *r = data;
  if (r->stopped)
    return;
  gsize n = (gsize) MAX (len, 0);
  gboolean ok = r->rows_item >= 0 ? rows_text (r, (const char *) text, n)
                : is_blank ((const char *) text, n) || (rows_drain (r, &r->error) && fail (r, &r->error, "unexpected text"));
  if (!ok)
    stop (r);
}

static void
on_xml_error (void *data, xmlErrorPtr e)
{
  Reader *r = data;
  if (r->xml_error == NULL && e != NULL)
    r->xml_error = g_strdup_printf ("%s:%d: %s", cg_input_name (r->in), e->line,
                                    e->message ? g_strchomp (e->message) : "malformed XML");
}

/* The bytes pushed to the parser at a time: libxml2 2.9 scans its buffer
 * back to the last "<" on every push, and rows text holds none, so small
 * pushes (xmlTextReader's are 512 bytes) cost that scan over and over. */
#define PUSH_BYTES (256 * 1024)

/* Reads the document into the parser; FALSE when it is not well formed,
 * cannot be read, or a callback stopped it. */
static gboolean
parse (Reader *r)
{
  /* only the elements' and the text's callbacks: no tree, no DTD loaded,
   * no entity declared (a hostile document can neither fetch nor
   * amplify), comments and processing instructions ignored */
  xmlSAXHandler sax = { 0 };
  sax.initialized = XML_SAX2_MAGIC;
  sax.startElementNs = on_start;
  sax.endElementNs = on_end;
  sax.characters = on_text;
  sax.ignorableWhitespace = on_text;
  sax.serror = on_xml_error;
  r->ctxt = xmlCreatePushParserCtxt (&sax, r, NULL, 0, cg_input_name (r->in));
  if (r->ctxt == NULL)
    return FALSE;
  /* CDATA as text */
  xmlCtxtUseOptions (r->ctxt, XML_PARSE_NONET | XML_PARSE_NOCDATA);
  g_autofree char *buf = g_malloc (PUSH_BYTES);
  for (;;)
    {
      gssize n = cg_input_read (r->in, buf, PUSH_BYTES, &r->io_error);
      if (n < 0)
        return FALSE;
      xmlParseChunk (r->ctxt, buf, (int) n, n == 0);
      if (r->stopped || !r->ctxt->wellFormed || r->ctxt->disableSAX)
        return FALSE;
      if (n == 0)
        return TRUE;
    }
}

gboolean
cg_read_xml_in_blocks (CgProfile *profile, CgInput *input, gboolean keep_derived, gsize block, GError **error)
{
  Reader r = {
    .profile = profile,
    .graph = cg_profile_graph (profile),
    .in = input,
    .keep_derived = keep_derived,
    .event_map = g_array_new (FALSE, FALSE, sizeof (guint)),
    .kinds = g_array_new (FALSE, FALSE, sizeof (CgKind)),
    .objects = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .files = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .arc_runs = cg_arc_runs_new (cg_profile_graph (profile)),
    .frame_map = g_array_new (FALSE, FALSE, sizeof (CgFrameId)),
    .start_text = g_string_new (NULL),
    .start_atts = g_ptr_array_new (),
    .history = g_string_new (NULL),
    .history_functions = g_array_new (FALSE, FALSE, sizeof (CgFunctionId)),
    .history_marks = g_array_new (FALSE, FALSE, sizeof (guint8)),
    .carry = g_string_new (NULL),
    .rows_item = -1,
    .block_bytes = block > 0 ? block : G_MAXSIZE,
  };
  r.rows = cg_worker_new (read_rows_block, rows_block_free, &r, 16, block > 0);
  CgXmlErrorTrap trap;
  cg_xml_error_trap_push (&trap);
  gboolean parsed = parse (&r);
  /* the rows handed over come before anything the parser met since, so
   * their error is the document's first */
  GError *local = NULL;
  if (!rows_drain (&r, &local))
    parsed = FALSE;
  else if (r.error)
    local = g_steal_pointer (&r.error);
  else if (parsed && !merge_arcs (&r, &local))
    parsed = FALSE;
  g_clear_pointer (&r.rows, cg_worker_free);
  g_autofree char *generic = cg_xml_error_trap_pop (&trap);
  gboolean ok = parsed;
  if (!ok && local == NULL)
    {
      if (r.io_error)
        local = g_steal_pointer (&r.io_error);
      else if (r.ctxt == NULL)
        g_set_error (&local, CG_ERROR, CG_ERROR_IO, "%s: cannot create the XML parser", cg_input_name (input));
      else if (r.xml_error)
        g_set_error (&local, CG_ERROR, CG_ERROR_PARSE, "%s", r.xml_error);
      else
        g_set_error (&local, CG_ERROR, CG_ERROR_PARSE, "%s: malformed XML%s%s", cg_input_name (input),
                     generic ? ": " : "", generic ? generic : "");
    }
  if (ok && r.section < SECTION_ARCS)
    {
      ok = FALSE;
      g_set_error (&local, CG_ERROR, CG_ERROR_TRUNCATED, "%s: the document ends before its <arcs> section",
                   cg_input_name (input));
    }
  if (ok && r.cycles)
    cg_profile_set_cycles (profile, g_steal_pointer (&r.cycles));
  if (ok && r.costs && !check_totals_given (&r, &local))
    ok = FALSE;
  if (ok && r.costs)
    cg_profile_set_costs (profile, g_steal_pointer (&r.costs));

  cg_cycles_free (r.cycles);
  cg_cost_check_free (r.check);
  g_free (r.total_given);
  cg_costs_free (r.costs);
  cg_histogram_free (r.histogram);
  if (r.ctxt)
    xmlFreeParserCtxt (r.ctxt);
  g_clear_error (&r.io_error);
  g_clear_error (&r.error);
  g_free (r.xml_error);
  g_free (r.values);
  g_array_unref (r.event_map);
  g_array_unref (r.kinds);
  g_array_unref (r.objects);
  g_array_unref (r.files);
  g_free (r.function_map.ids);
  g_free (r.arc_map.ids);
  cg_arc_runs_free (r.arc_runs);
  g_array_unref (r.frame_map);
  g_string_free (r.start_text, TRUE);
  g_ptr_array_unref (r.start_atts);
  g_string_free (r.history, TRUE);
  g_array_unref (r.history_functions);
  g_array_unref (r.history_marks);
  g_string_free (r.carry, TRUE);
  if (!ok)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

gboolean
cg_read_xml (CgProfile *profile, CgInput *input, gboolean keep_derived, const CgReadOptions *options,
             GError **error)
{
  (void) options;
  /* rows go to the worker at the end of their element (the writer's are
   * 64 KiB) or, in a longer one, every 64 KiB: enough that handing over
   * (a wake-up each) costs little, little enough to stay in cache */
  return cg_read_xml_in_blocks (profile, input, keep_derived, 64 * 1024, error);
}

/* Past the quoted value at @p (after a name and '='), NULL when there is
 * none; its text in @value and @value_len. */
static const guint8 *
quoted_value (const guint8 *p, const guint8 *end, const guint8 **value, gsize *value_len)
{
  while (p < end && g_ascii_isspace (*p))
    p++;
  if (p == end || *p++ != '=')
    return NULL;
  while (p < end && g_ascii_isspace (*p))
    p++;
  if (p == end || (*p != '"' && *p != '\''))
    return NULL;
  const guint8 *close = memchr (p + 1, *p, (gsize) (end - p - 1));
  if (close == NULL || memchr (p + 1, '<', (gsize) (close - p - 1)) != NULL)
    return NULL;
  *value = p + 1;
  *value_len = (gsize) (close - p - 1);
  return close + 1;
}

static gboolean
is_name_byte (guint8 c, gboolean first)
{
  /* XML's Name, in ASCII, and any byte of a multibyte UTF-8 character;
   * no ':', which namespaces forbid in the names libxml2 checks here */
  return g_ascii_isalpha (c) || c == '_' || c >= 0x80 || (!first && (g_ascii_isdigit (c) || c == '.' || c == '-'));
}

/* Past a name at @p, @p itself when there is none. */
static const guint8 *
skip_name (const guint8 *p, const guint8 *end)
{
  if (p < end && is_name_byte (*p, TRUE))
    for (p++; p < end && is_name_byte (*p, FALSE); p++)
      ;
  return p;
}

static gboolean
text_is_nocase (const guint8 *s, gsize n, const char *word)
{
  return n == strlen (word) && g_ascii_strncasecmp ((const char *) s, word, n) == 0;
}

/* Past the XML declaration's pseudo-attributes at @p (after "<?xml"):
 * version="1.N", then encoding and standalone, as XML 1.0 section 2.8
 * orders them, and "?>"; NULL where libxml2 would refuse them (an
 * encoding is taken only among those every build of it reads).  Sets
 * *@latin1 where the encoding is ISO-8859-1, in which any byte reads. */
static const guint8 *
skip_declaration (const guint8 *p, const guint8 *end, gboolean *latin1)
{
  static const char *const names[] = { "version", "encoding", "standalone" };
  guint next = 0;
  for (;;)
    {
      const guint8 *q = p;
      while (p < end && g_ascii_isspace (*p))
        p++;
      if (end - p >= 2 && p[0] == '?' && p[1] == '>')
        return next > 0 ? p + 2 : NULL;
      const guint8 *name = p;
      p = skip_name (p, end);
      if (name == q || p == name)
        return NULL; /* no blank before it, or no name */
      gsize len = (gsize) (p - name);
      guint k = next;
      while (k < G_N_ELEMENTS (names) && !(len == strlen (names[k]) && memcmp (name, names[k], len) == 0))
        k++;
      if (k == G_N_ELEMENTS (names) || (next == 0 && k != 0))
        return NULL;
      const guint8 *v;
      gsize n;
      p = quoted_value (p, end, &v, &n);
      if (p == NULL)
        return NULL;
      gboolean ok;
      if (k == 0)
        {
          ok = n >= 3 && v[0] == '1' && v[1] == '.';
          for (gsize i = 2; ok && i < n; i++)
            ok = g_ascii_isdigit (v[i]);
        }
      else if (k == 1)
        {
          *latin1 = text_is_nocase (v, n, "ISO-8859-1");
          ok = *latin1 || text_is_nocase (v, n, "UTF-8") || text_is_nocase (v, n, "US-ASCII")
               || text_is_nocase (v, n, "ASCII");
        }
      else
        ok = (n == 3 && memcmp (v, "yes", 3) == 0) || (n == 2 && memcmp (v, "no", 2) == 0);
      if (!ok)
        return NULL;
      next = k + 1;
    }
}

/* Past the part of an XML prolog that starts at @p: white space, the XML
 * declaration (first of all, at @start), comments, processing
 * instructions and a document type declaration without an internal
 * subset.  NULL when one of them does not end before @end, or is one
 * libxml2 refuses: a processing instruction's target is a name right
 * after "<?", and one that starts with "xml" is the declaration or one
 * of the W3C's (found by fuzz/fuzz-detect.c: "<?", a line break and
 * "?>" before <cgtools>, which also read as a perf script sample).
 * Sets *@latin1 as skip_declaration does. */
static const guint8 *
skip_prolog (const guint8 *p, const guint8 *end, gboolean *latin1)
{
  const guint8 *start = p;
  for (;;)
    {
      while (p < end && g_ascii_isspace (*p))
        p++;
      gsize n = (gsize) (end - p);
      const char *close;
      if (n >= 4 && memcmp (p, "<!--", 4) == 0)
        close = "-->";
      else if (n >= 2 && memcmp (p, "<?", 2) == 0)
        {
          const guint8 *target = p + 2, *e = skip_name (target, end);
          gsize t = (gsize) (e - target);
          if (t == 0 || (e < end && !g_ascii_isspace (*e) && *e != '?'))
            return NULL;
          if (t >= 3 && g_ascii_strncasecmp ((const char *) target, "xml", 3) == 0)
            {
              if (t == 3 && memcmp (target, "xml", 3) == 0 && p == start && e < end && g_ascii_isspace (*e))
                {
                  p = skip_declaration (e, end, latin1);
                  if (p == NULL)
                    return NULL;
                  continue;
                }
              if (!text_is_nocase (target, t, "xml-stylesheet") && !text_is_nocase (target, t, "xml-model"))
                return NULL;
            }
          close = "?>";
        }
      else if (n >= 9 && memcmp (p, "<!DOCTYPE", 9) == 0)
        close = ">";
      else
        return p;
      const guint8 *q = p + 2;
      if (*close == '>')
        {
          /* a document type declaration's internal subset ends in "]" */
          while (q < end && *q != '[' && *q != '>')
            q++;
          if (q < end && *q == '[')
            {
              q = memchr (q, ']', (gsize) (end - q));
              if (q == NULL)
                return NULL;
            }
        }
      gsize k = strlen (close);
      while (q + k <= end && memcmp (q, close, k) != 0)
        q++;
      if (q + k > end)
        return NULL;
      p = q + k;
    }
}

gboolean
cg_xml_detect (const guint8 *data, gsize len, G_GNUC_UNUSED gboolean complete)
{
  const guint8 *p = data, *end = data + len;
  if (len >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;
  /* the root element is <cgtools>: other XML is no profile */
  gboolean latin1 = FALSE;
  p = skip_prolog (p, end, &latin1);
  if (p == NULL || (gsize) (end - p) < 9 || memcmp (p, "<cgtools", 8) != 0)
    return FALSE;
  /* what comes before it is UTF-8 where the declaration names no other
   * encoding, as libxml2 reads it (found by fuzz/fuzz-detect.c: "<?xm"
   * and bytes 0xFE, a processing instruction to libxml2's refusal at
   * line 1, over a perf script sample; and so with "encoding" in the
   * processing instruction, which an earlier check took for a
   * declaration's) */
  if (!latin1 && !g_utf8_validate ((const char *) data, p - data, NULL))
    return FALSE;
  p += 8;
  /* its start tag whole: attributes name="value" up to '>' (a perf
   * script sample of a command named "<cgtools" is no XML), one of them
   * the version, which every cgtools XML has and the reader wants
   * (found by fuzz/fuzz-detect.c: "<cgtools >" after a line that read as
   * a perf script sample's header) */
  gboolean version = FALSE;
  for (;;)
    {
      gboolean blank = p < end && g_ascii_isspace (*p);
      while (p < end && g_ascii_isspace (*p))
        p++;
      if (p < end && *p == '>')
        return version;
      if (end - p >= 2 && p[0] == '/' && p[1] == '>')
        return version;
      if (!blank || p == end || !(g_ascii_isalpha (*p) || *p == '_' || *p == ':'))
        return FALSE;
      const guint8 *name = p;
      while (p < end && (g_ascii_isalnum (*p) || *p == '_' || *p == ':' || *p == '.' || *p == '-'))
        p++;
      gboolean is_version = p - name == 7 && memcmp (name, "version", 7) == 0;
      const guint8 *v;
      gsize n;
      p = quoted_value (p, end, &v, &n);
      if (p == NULL)
        return FALSE;
      version |= is_version;
    }
}

gboolean
cg_read_xml_into (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error)
{
  gboolean empty = cg_graph_n_functions (cg_profile_graph (profile)) == 0 && cg_profile_n_sources (profile) == 0;
  return cg_read_xml (profile, input, empty, options, error);
}
