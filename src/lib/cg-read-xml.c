/* cg-read-xml.c — element-by-element reading; file ids are mapped to the
 * destination profile's ids as they are met. */
#include "config.h"

#include "cg-read-xml.h"

#include <libxml/xmlreader.h>
#include <stdarg.h>
#include <string.h>

#include "cg-error.h"
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

typedef struct {
  CgProfile *profile;
  CgGraph *graph;
  CgInput *in;
  xmlTextReaderPtr xr;
  gboolean keep_derived;
  GError *io_error;       /* from the input callback */
  char *xml_error;        /* first libxml2 message */

  Section section;
  gboolean seen_root;
  GArray *event_map;      /* guint: file event -> graph event */
  GArray *kinds;          /* CgKind of the file's events */
  GPtrArray *objects;     /* file object id -> interned string */
  GPtrArray *files;
  GArray *function_map;   /* CgFunctionId per file function id */
  GArray *arc_map;        /* CgArcId per file arc id */
  GArray *frame_map;      /* CgFrameId per file frame id */
  gboolean has_inclusive;
  CgCosts *costs;         /* being read (keep_derived only) */
  CgCycles *cycles;
  CgHistogram *histogram; /* being read, merged when <objects> starts */
  CgValue *values;        /* scratch: one vector in file events */
  CgValue *mapped;        /* scratch: one vector in graph events */
} Reader;

/* ---- messages ---- */

/* The line of the current element (the parser itself may be further on). */
static int
line_number (Reader *r)
{
  xmlNodePtr node = xmlTextReaderCurrentNode (r->xr);
  long line = node ? xmlGetLineNo (node) : -1;
  return line > 0 ? (int) line : xmlTextReaderGetParserLineNumber (r->xr);
}

static gboolean G_GNUC_PRINTF (3, 4)
fail (Reader *r, GError **error, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  g_autofree char *msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, CG_ERROR, CG_ERROR_PARSE, "%s:%d: %s", cg_input_name (r->in), line_number (r), msg);
  return FALSE;
}

static void
on_xml_error (void *data, xmlErrorPtr e)
{
  Reader *r = data;
  if (r->xml_error == NULL && e != NULL)
    r->xml_error = g_strdup_printf ("%s:%d: %s", cg_input_name (r->in), e->line,
                                    e->message ? g_strchomp (e->message) : "malformed XML");
}

static int
read_cb (void *data, char *buf, int len)
{
  Reader *r = data;
  gssize n = cg_input_read (r->in, buf, (gsize) MAX (len, 0), r->io_error ? NULL : &r->io_error);
  return n < 0 ? -1 : (int) n;
}

/* ---- attributes ---- */

/* The attribute @name as a newly allocated string, or NULL. */
static char *
attr (Reader *r, const char *name)
{
  xmlChar *v = xmlTextReaderGetAttribute (r->xr, BAD_CAST name);
  if (v == NULL)
    return NULL;
  char *copy = g_strdup ((const char *) v);
  xmlFree (v);
  return copy;
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
  CgValue v;
  if (s == NULL || !cg_value_parse (CG_KIND_INTEGER, s, strlen (s), &v) || v.n > max)
    return FALSE;
  *out = v.n;
  return TRUE;
}

/* An index attribute referring to one of @count items. */
static gboolean
index_attr (Reader *r, const char *element, const char *name, guint count, guint32 *out,
            GError **error)
{
  g_autofree char *s = NULL;
  guint64 v;
  if (!required (r, element, name, &s, error))
    return FALSE;
  if (!parse_uint (s, G_MAXUINT32, &v) || v >= count)
    return fail (r, error, "<%s %s=\"%s\">: no such item (%u defined)", element, name, s, count);
  *out = (guint32) v;
  return TRUE;
}

/* The element's id must be the next index: documents list items in order. */
static gboolean
check_id (Reader *r, const char *element, guint expected, GError **error)
{
  g_autofree char *s = NULL;
  guint64 v;
  if (!required (r, element, "id", &s, error))
    return FALSE;
  if (!parse_uint (s, G_MAXUINT32, &v) || v != expected)
    return fail (r, error, "<%s id=\"%s\">: expected id %u (ids are consecutive from 0)", element, s,
                 expected);
  return TRUE;
}

/* Parses the cost list @name (absent = zeros) in the file's events into
 * r->values. */
static gboolean
values_attr (Reader *r, const char *element, const char *name, gboolean *present, GError **error)
{
  g_autofree char *s = attr (r, name);
  guint n = r->kinds->len;
  if (present)
    *present = s != NULL;
  if (s == NULL)
    {
      for (guint i = 0; i < n; i++)
        r->values[i] = CG_VALUE_ZERO;
      return TRUE;
    }
  if (!cg_values_parse_list (s, (const CgKind *) r->kinds->data, n, r->values))
    return fail (r, error, "<%s %s=\"%.40s\">: not a list of at most %u cost%s", element, name, s, n,
                 n == 1 ? "" : "s");
  return TRUE;
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
  g_array_append_val (r->event_map, e);
  g_array_append_val (r->kinds, kind);
  return TRUE;
}

static gboolean
read_named (Reader *r, const char *element, GPtrArray *table, GError **error)
{
  g_autofree char *name = NULL;
  if (!check_id (r, element, table->len, error) || !required (r, element, "name", &name, error))
    return FALSE;
  g_ptr_array_add (table, (gpointer) cg_graph_intern (r->graph, name, -1));
  return TRUE;
}

static gboolean
read_function (Reader *r, GError **error)
{
  g_autofree char *name = NULL, *line_s = attr (r, "line"), *kind = attr (r, "kind");
  g_autofree char *nested = attr (r, "nested");
  guint32 object, file = G_MAXUINT32;
  if (!check_id (r, "function", r->function_map->len, error)
      || !required (r, "function", "name", &name, error)
      || !index_attr (r, "function", "object", r->objects->len, &object, error))
    return FALSE;
  g_autofree char *file_s = attr (r, "file");
  if (file_s && !index_attr (r, "function", "file", r->files->len, &file, error))
    return FALSE;
  guint64 line = 0;
  if (line_s && !parse_uint (line_s, G_MAXUINT32, &line))
    return fail (r, error, "<function line=\"%s\">: not a line number", line_s);
  if (kind && strcmp (kind, "cycle") != 0)
    return fail (r, error, "<function kind=\"%s\">: expected cycle", kind);
  if (nested && strcmp (nested, "yes") != 0)
    return fail (r, error, "<function nested=\"%s\">: expected yes", nested);
  CgFunctionId f = cg_graph_ensure_function (r->graph, g_ptr_array_index (r->objects, object), name);
  if (f == CG_NO_ID)
    return fail (r, error, "too many functions");
  g_array_append_val (r->function_map, f);
  cg_graph_function_set_location (r->graph, f, file == G_MAXUINT32 ? "" : g_ptr_array_index (r->files, file),
                                  (guint32) line);
  CgFunctionFlags flags = cg_graph_function_flags (r->graph, f);
  if (kind)
    flags |= CG_FUNCTION_CYCLE;
  if (nested)
    flags |= CG_FUNCTION_NESTED;
  cg_graph_function_set_flags (r->graph, f, flags);
  if (!values_attr (r, "function", "self", NULL, error) || !add_values (r, cg_graph_self (r->graph, f), error))
    return FALSE;
  gboolean present;
  if (!values_attr (r, "function", "spontaneous", &present, error))
    return FALSE;
  if (present && !is_zero_vector (r))
    return add_values (r, cg_graph_spontaneous_mut (r->graph, f), error);
  return TRUE;
}

static gboolean
read_arc (Reader *r, GError **error)
{
  guint32 caller, callee;
  guint nf = r->function_map->len;
  if (!check_id (r, "arc", r->arc_map->len, error)
      || !index_attr (r, "arc", "caller", nf, &caller, error)
      || !index_attr (r, "arc", "callee", nf, &callee, error))
    return FALSE;
  g_autofree char *calls_s = attr (r, "calls");
  guint64 calls = 0;
  if (calls_s && !parse_uint (calls_s, G_MAXUINT64, &calls))
    return fail (r, error, "<arc calls=\"%s\">: not a call count", calls_s);
  CgArcId a = cg_graph_ensure_arc (r->graph, g_array_index (r->function_map, CgFunctionId, caller),
                                   g_array_index (r->function_map, CgFunctionId, callee));
  if (a == CG_NO_ID)
    return fail (r, error, "too many arcs");
  g_array_append_val (r->arc_map, a);
  if (!cg_graph_arc_add_calls (r->graph, a, calls))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s:%d: call counts exceed the range of 64-bit counters",
                   cg_input_name (r->in), line_number (r));
      return FALSE;
    }
  return values_attr (r, "arc", "inclusive", NULL, error)
         && add_values (r, cg_graph_arc_inclusive (r->graph, a), error);
}

static gboolean
read_frame (Reader *r, GError **error)
{
  CgTree *t = cg_profile_ensure_tree (r->profile);
  guint32 function, parent = CG_NO_ID;
  guint n = r->frame_map->len;
  if (!check_id (r, "frame", n, error)
      || !index_attr (r, "frame", "function", r->function_map->len, &function, error))
    return FALSE;
  g_autofree char *parent_s = attr (r, "parent");
  if (parent_s && !index_attr (r, "frame", "parent", n, &parent, error))
    return FALSE;
  CgFrameId x = cg_tree_ensure_child (t, parent == CG_NO_ID ? CG_NO_ID : g_array_index (r->frame_map, CgFrameId, parent),
                                      g_array_index (r->function_map, CgFunctionId, function));
  if (x == CG_NO_ID)
    return fail (r, error, "too many frames");
  g_array_append_val (r->frame_map, x);
  return values_attr (r, "frame", "self", NULL, error) && add_values (r, cg_tree_self (t, x), error);
}

/* <context history="0 (1) 2 1" self="..." entries="N" recursive="M"/> */
static gboolean
read_context (Reader *r, GError **error)
{
  g_autofree char *history = NULL;
  if (!required (r, "context", "history", &history, error))
    return FALSE;
  g_autoptr (GArray) f = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  g_autoptr (GArray) m = g_array_new (FALSE, FALSE, sizeof (guint8));
  g_auto (GStrv) words = g_strsplit (history, " ", -1);
  guint nf = r->function_map->len;
  for (guint i = 0; words[i]; i++)
    {
      char *w = words[i];
      gsize len = strlen (w);
      guint8 marked = !(len >= 2 && w[0] == '(' && w[len - 1] == ')');
      if (!marked)
        {
          w[len - 1] = 0;
          w++;
        }
      guint64 v;
      if (!parse_uint (w, G_MAXUINT32, &v) || v >= nf)
        return fail (r, error, "<context history>: '%s' is not a function", words[i]);
      CgFunctionId id = g_array_index (r->function_map, CgFunctionId, v);
      g_array_append_val (f, id);
      g_array_append_val (m, marked);
    }
  const char *why;
  if (!cg_contexts_check_history ((const CgFunctionId *) f->data, (const guint8 *) m->data, f->len, &why))
    return fail (r, error, "<context history=\"%.40s\">: %s", history, why);
  g_autofree char *entries_s = attr (r, "entries"), *recursive_s = attr (r, "recursive");
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
  guint32 head;
  guint nf = r->function_map->len;
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
      CgFunctionId f = g_array_index (r->function_map, CgFunctionId, v);
      g_array_append_val (members, f);
    }
  GError *local = NULL;
  if (!cg_cycles_add (r->cycles, g_array_index (r->function_map, CgFunctionId, head),
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
    r->costs = cg_costs_new (method, r->graph);
  return TRUE;
}

/* <total> and <arc-cost>: values in the costs' kinds, which follow the
 * graph's events one to one (keep_derived means the graph is this file's) */
static gboolean
read_cost (Reader *r, gboolean is_arc, GError **error)
{
  const char *element = is_arc ? "arc-cost" : "total";
  guint32 i;
  if (!index_attr (r, element, is_arc ? "arc" : "function", is_arc ? r->arc_map->len : r->function_map->len, &i,
                   error))
    return FALSE;
  if (r->costs == NULL)
    return TRUE;
  g_autofree char *s = attr (r, "value"), *estimated = attr (r, "estimated");
  guint id = is_arc ? g_array_index (r->arc_map, CgArcId, i) : g_array_index (r->function_map, CgFunctionId, i);
  CgValue *dst = is_arc ? cg_costs_arc (r->costs, id) : cg_costs_total (r->costs, id);
  if (s && !cg_values_parse_list (s, cg_costs_kinds (r->costs), cg_costs_n_events (r->costs), dst))
    return fail (r, error, "<%s value=\"%.40s\">: not a cost list of this method's kinds", element, s);
  if (is_arc)
    {
      g_autofree char *self2 = attr (r, "self2"), *children2 = attr (r, "children2");
      if ((self2 && !cg_values_parse_list (self2, cg_costs_kinds (r->costs), cg_costs_n_events (r->costs),
                                           cg_costs_arc_self2 (r->costs, id)))
          || (children2 && !cg_values_parse_list (children2, cg_costs_kinds (r->costs), cg_costs_n_events (r->costs),
                                                  cg_costs_arc_children2 (r->costs, id))))
        return fail (r, error, "<arc-cost>: self2 or children2 is not a cost list of this method's kinds");
      g_autofree char *self = attr (r, "self"), *children = attr (r, "children");
      if ((self && !cg_values_parse_list (self, cg_costs_kinds (r->costs), cg_costs_n_events (r->costs),
                                          cg_costs_arc_self (r->costs, id)))
          || (children && !cg_values_parse_list (children, cg_costs_kinds (r->costs), cg_costs_n_events (r->costs),
                                                 cg_costs_arc_children (r->costs, id))))
        return fail (r, error, "<arc-cost>: self or children is not a cost list of this method's kinds");
    }
  if (estimated && strcmp (estimated, "yes") != 0)
    return fail (r, error, "<%s estimated=\"%s\">: expected yes", element, estimated);
  if (is_arc)
    cg_costs_set_arc_estimated (r->costs, id, estimated != NULL);
  else
    cg_costs_set_total_estimated (r->costs, id, estimated != NULL);
  return TRUE;
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
      cg_profile_add_source (r->profile, format, path, command, creator);
      return TRUE;
    }
  return fail (r, error, "unexpected element <%s>", name);
}

static gboolean
item (Reader *r, const char *name, GError **error)
{
  static const struct {
    Section section;
    const char *name;
  } items[] = {
    { SECTION_EVENTS, "event" }, { SECTION_HISTOGRAM, "range" }, { SECTION_OBJECTS, "object" }, { SECTION_FILES, "file" },
    { SECTION_FUNCTIONS, "function" }, { SECTION_ARCS, "arc" }, { SECTION_TREE, "frame" },
    { SECTION_CONTEXTS, "context" },
    { SECTION_CYCLES, "cycle" }, { SECTION_COSTS, "total" }, { SECTION_COSTS, "arc-cost" },
  };
  gboolean known = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    known |= items[i].section == r->section && strcmp (items[i].name, name) == 0;
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
    case SECTION_FUNCTIONS:
      return read_function (r, error);
    case SECTION_ARCS:
      return read_arc (r, error);
    case SECTION_TREE:
      return read_frame (r, error);
    case SECTION_CONTEXTS:
      return read_context (r, error);
    case SECTION_CYCLES:
      return read_cycle (r, error);
    case SECTION_COSTS:
      return read_cost (r, strcmp (name, "arc-cost") == 0, error);
    case SECTION_NONE:
    default:
      return FALSE;
    }
}

static gboolean
element (Reader *r, GError **error)
{
  const char *name = (const char *) xmlTextReaderConstName (r->xr);
  int depth = xmlTextReaderDepth (r->xr);
  if (depth == 0)
    {
      if (strcmp (name, "cgtools") != 0)
        return fail (r, error, "the document element is <%s>, not <cgtools>", name);
      g_autofree char *version = attr (r, "version");
      if (g_strcmp0 (version, "1") != 0)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED, "%s:%d: cgtools XML version %s is not supported (1 is)",
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

gboolean
cg_read_xml (CgProfile *profile, CgInput *input, gboolean keep_derived, const CgReadOptions *options,
             GError **error)
{
  (void) options;
  Reader r = {
    .profile = profile,
    .graph = cg_profile_graph (profile),
    .in = input,
    .keep_derived = keep_derived,
    .event_map = g_array_new (FALSE, FALSE, sizeof (guint)),
    .kinds = g_array_new (FALSE, FALSE, sizeof (CgKind)),
    .objects = g_ptr_array_new (),
    .files = g_ptr_array_new (),
    .function_map = g_array_new (FALSE, FALSE, sizeof (CgFunctionId)),
    .arc_map = g_array_new (FALSE, FALSE, sizeof (CgArcId)),
    .frame_map = g_array_new (FALSE, FALSE, sizeof (CgFrameId)),
  };
  CgXmlErrorTrap trap;
  cg_xml_error_trap_push (&trap);
  /* no network, no DTD loading, no entity expansion: a hostile document
   * can neither fetch nor amplify */
  r.xr = xmlReaderForIO (read_cb, NULL, &r, cg_input_name (input), NULL, XML_PARSE_NONET | XML_PARSE_NOCDATA);
  gboolean ok = r.xr != NULL;
  GError *local = NULL;
  if (!ok)
    g_set_error (&local, CG_ERROR, CG_ERROR_IO, "%s: cannot create the XML reader", cg_input_name (input));
  else
    xmlTextReaderSetStructuredErrorHandler (r.xr, on_xml_error, &r);

  int rc = 1;
  while (ok && (rc = xmlTextReaderRead (r.xr)) == 1)
    {
      int type = xmlTextReaderNodeType (r.xr);
      if (type == XML_READER_TYPE_ELEMENT)
        ok = element (&r, &local);
      else if (type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA)
        ok = fail (&r, &local, "unexpected text");
    }
  g_autofree char *generic = cg_xml_error_trap_pop (&trap);
  if (ok && rc != 0)
    {
      ok = FALSE;
      if (r.io_error)
        local = g_steal_pointer (&r.io_error);
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
  if (ok && r.costs)
    cg_profile_set_costs (profile, g_steal_pointer (&r.costs));

  cg_cycles_free (r.cycles);
  cg_costs_free (r.costs);
  cg_histogram_free (r.histogram);
  if (r.xr)
    xmlFreeTextReader (r.xr);
  g_clear_error (&r.io_error);
  g_free (r.xml_error);
  g_free (r.values);
  g_array_unref (r.event_map);
  g_array_unref (r.kinds);
  g_ptr_array_unref (r.objects);
  g_ptr_array_unref (r.files);
  g_array_unref (r.function_map);
  g_array_unref (r.arc_map);
  g_array_unref (r.frame_map);
  if (!ok)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}
