/* cg-write-xml.c — the document's structure through xmlTextWriter, the
 * bulk (functions, arcs, frames, costs) as rows.
 *
 * libxml2's writer spends about a thousand instructions on an attribute;
 * a profile has millions of arcs.  So the large sections are written in
 * their rows form (formats/cgtools-xml.md, version 2): tab-separated lines
 * of text, formatted here with our own integer printing into one buffer
 * and handed to the writer as raw text about 64 KiB at a time, on a
 * thread of its own (a CgWorker) while the next rows are formatted: the
 * two halves cost about the same on a large profile.  Raw is
 * safe because the rows are escaped here: numbers need nothing, names get
 * &amp; &lt; &gt;, and names never hold a tab, a newline or another
 * control character (cg_graph_intern).  The first failure is latched and
 * reported once. */
#include "config.h"

#include "cg-write-xml.h"

#include <string.h>

#include "cg-error.h"
#include "cg-worker.h"
#include "cg-xml-errors.h"

/* A <X-rows> element is closed once its text reaches this size (the
 * reader holds one at a time and hands each to its worker thread; smaller
 * ones cost more elements and more wake-ups: 16 KiB made cgcycles 4%
 * slower on the bench's 126 MB document). */
#define ROWS_BYTES (64 * 1024)

typedef struct {
  CgXmlWriter *xw;
  GString *buf;
  CgGraph *graph;
  /* the text of the current rows element */
  char *text;
  gsize text_len, text_cap;
  gsize row_start;
  const char *rows_element;
  /* writes full rows elements while the next are formatted (NULL until
   * a section fills one: small documents make no thread); only it uses
   * xw from its first job until rows_end drains it */
  CgWorker *flusher;
  gboolean flush_failed;
} Writer;

/* A cost list attribute, omitted when all values are zero. */
static void
attr_values (Writer *wr, const char *name, const CgKind *kinds, const CgValue *v, guint n)
{
  if (v == NULL)
    return;
  g_string_truncate (wr->buf, 0);
  cg_values_append_list (wr->buf, kinds, v, n);
  if (wr->buf->len > 0)
    cg_xml_writer_attr (wr->xw, name, wr->buf->str);
}

/* ---- rows ---- */

static G_GNUC_NO_INLINE void
grow_text (Writer *wr, gsize n)
{
  wr->text_cap = MAX (wr->text_cap * 2, wr->text_len + n + ROWS_BYTES);
  wr->text = g_realloc (wr->text, wr->text_cap);
}

/* Room for @n more bytes of row text; returns where they go. */
static inline char *
reserve (Writer *wr, gsize n)
{
  if (G_UNLIKELY (wr->text_cap - wr->text_len < n))
    grow_text (wr, n);
  return wr->text + wr->text_len;
}

typedef struct {
  const char *element;
  char *text;
  gsize len;
} RowsJob;

static void
rows_job_free (gpointer data)
{
  RowsJob *job = data;
  g_free (job->text);
  g_free (job);
}

static void
write_rows (CgXmlWriter *xw, const char *element, const char *text, gsize len)
{
  cg_xml_writer_start (xw, element);
  cg_xml_writer_raw (xw, text, len);
  cg_xml_writer_end (xw);
}

/* On the flusher's thread.  A failure stops the jobs after it; the
 * writer latched it with its errno, and cg_xml_writer_finish tells it.
 * libxml2's handler for what it would print is per thread: this one gets
 * a trap of its own, whose text adds nothing to the errno. */
static gboolean
run_rows_job (gpointer data, gpointer xw, GError **error)
{
  RowsJob *job = data;
  CgXmlErrorTrap trap;
  cg_xml_error_trap_push (&trap);
  write_rows (xw, job->element, job->text, job->len);
  g_free (cg_xml_error_trap_pop (&trap));
  if (!cg_xml_writer_failed (xw))
    return TRUE;
  g_set_error_literal (error, CG_ERROR, CG_ERROR_IO, "the output failed");
  return FALSE;
}

/* Writes the pending rows as one element: on the flusher's thread when
 * @handoff (a full element, more to come), else here. */
static void
rows_flush (Writer *wr, gboolean handoff)
{
  if (wr->text_len == 0)
    return;
  /* 4 elements waiting at most: 256 KiB */
  if (handoff && wr->flusher == NULL)
    wr->flusher = cg_worker_new (run_rows_job, rows_job_free, wr->xw, 4, TRUE);
  if (wr->flusher == NULL)
    {
      write_rows (wr->xw, wr->rows_element, wr->text, wr->text_len);
      wr->text_len = 0;
      return;
    }
  RowsJob *job = g_new (RowsJob, 1);
  *job = (RowsJob) { wr->rows_element, g_steal_pointer (&wr->text), wr->text_len };
  wr->text_len = wr->text_cap = 0;
  if (!cg_worker_push (wr->flusher, job))
    wr->flush_failed = TRUE;
}

/* Whether writing has failed (rows may stop being formatted). */
static gboolean
rows_failed (const Writer *wr)
{
  return wr->flush_failed || (wr->flusher == NULL && cg_xml_writer_failed (wr->xw));
}

/* Writes the last rows of a section and waits until all are written:
 * the document goes on here. */
static void
rows_end (Writer *wr)
{
  rows_flush (wr, FALSE);
  if (wr->flusher)
    wr->flush_failed |= !cg_worker_drain (wr->flusher, NULL);
}

/* Starts rows of @element; the text starts on a line of its own. */
static void
rows_begin (Writer *wr, const char *element)
{
  wr->rows_element = element;
  wr->text_len = 0;
}

/* Starts a row (after the newline that puts an element's first row in
 * the first column). */
static void
row_begin (Writer *wr)
{
  if (wr->text_len == 0)
    {
      *reserve (wr, 1) = '\n';
      wr->text_len = 1;
    }
  wr->row_start = wr->text_len;
}

/* Ends a row: empty trailing fields go, a newline ends it, and a full
 * element is written out.  Rows never end up empty (their first field is
 * never empty or is followed by one that is not), so readers may skip
 * blank lines. */
static void
row_end (Writer *wr)
{
  while (wr->text_len > wr->row_start && wr->text[wr->text_len - 1] == '\t')
    wr->text_len--;
  *reserve (wr, 1) = '\n';
  wr->text_len++;
  if (wr->text_len >= ROWS_BYTES)
    rows_flush (wr, TRUE);
}

static inline void
put_tab (Writer *wr)
{
  *reserve (wr, 1) = '\t';
  wr->text_len++;
}

/* Digits of @n in decimal. */
static inline guint
decimal_digits (guint64 n)
{
  guint d = 1;
  for (; n >= 10000; n /= 10000)
    d += 4;
  return d + (n >= 10) + (n >= 100) + (n >= 1000);
}

static inline void
put_uint (Writer *wr, guint64 n)
{
  /* straight into the text: no copy of a variable length */
  guint d = decimal_digits (n);
  cg_uint_format (reserve (wr, d) + d, n);
  wr->text_len += d;
}

static inline void
put_string (Writer *wr, const char *s, gsize n)
{
  memcpy (reserve (wr, n), s, n);
  wr->text_len += n;
}

/* @s with XML's markup characters escaped. */
static void
put_escaped (Writer *wr, const char *s)
{
  for (;;)
    {
      gsize n = strcspn (s, "&<>");
      put_string (wr, s, n);
      s += n;
      if (*s == '\0')
        return;
      const char *entity = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : "&gt;";
      put_string (wr, entity, strlen (entity));
      s++;
    }
}

/* A cost list (cg_values_append_list), nothing when all zero or NULL,
 * or "0" then when @never_empty. */
static void
put_values (Writer *wr, const CgKind *kinds, const CgValue *v, guint n, gboolean never_empty)
{
  if (v == NULL)
    n = 0;
  while (n > 0 && cg_value_is_zero (kinds[n - 1], v[n - 1]))
    n--;
  if (n == 0 && never_empty)
    put_string (wr, "0", 1);
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        put_string (wr, " ", 1);
      if (kinds[i] == CG_KIND_INTEGER)
        put_uint (wr, v[i].n);
      else
        {
          g_string_truncate (wr->buf, 0);
          cg_value_append (wr->buf, kinds[i], v[i]);
          put_string (wr, wr->buf->str, wr->buf->len);
        }
    }
}

void
cg_write_xml_sources (CgXmlWriter *w, CgProfile *p)
{
  for (guint i = 0; i < cg_profile_n_sources (p); i++)
    {
      const CgSource *s = cg_profile_source (p, i);
      cg_xml_writer_start (w, "source");
      cg_xml_writer_attr (w, "format", s->format ? s->format : "unknown");
      cg_xml_writer_attr (w, "path", s->path);
      cg_xml_writer_attr (w, "command", s->command);
      cg_xml_writer_attr (w, "creator", s->creator);
      cg_xml_writer_end (w);
    }
}

void
cg_write_xml_event_attributes (CgXmlWriter *w, CgGraph *g, guint event)
{
  cg_xml_writer_attr (w, "name", cg_graph_event_name (g, event));
  cg_xml_writer_attr (w, "unit", cg_graph_event_unit (g, event));
  cg_xml_writer_attr (w, "kind", cg_kind_to_string (cg_graph_event_kind (g, event)));
  cg_xml_writer_attr (w, "description", cg_graph_event_description (g, event));
  if (cg_graph_event_scale (g, event) != 1.0)
    {
      g_autoptr (GString) scale = g_string_new (NULL);
      cg_value_append (scale, CG_KIND_REAL, (CgValue) { .x = cg_graph_event_scale (g, event) });
      cg_xml_writer_attr (w, "scale", scale->str);
    }
}

/* Objects and files are written once as tables; functions refer to them
 * by index. */
static void
write_string_table (Writer *wr, const char *section, const char *element, GPtrArray *order)
{
  cg_xml_writer_start (wr->xw, section);
  for (guint i = 0; i < order->len; i++)
    {
      cg_xml_writer_start (wr->xw, element);
      cg_xml_writer_attr_uint (wr->xw, "id", i);
      cg_xml_writer_attr (wr->xw, "name", g_ptr_array_index (order, i));
      cg_xml_writer_end (wr->xw);
    }
  cg_xml_writer_end (wr->xw);
}

/* Index of @s in @order (appended when new); @table maps s -> index + 1. */
static guint
table_index (GHashTable *table, GPtrArray *order, const char *s)
{
  gpointer i1 = g_hash_table_lookup (table, s);
  if (i1)
    return GPOINTER_TO_UINT (i1) - 1;
  g_ptr_array_add (order, (gpointer) s);
  g_hash_table_insert (table, (gpointer) s, GUINT_TO_POINTER (order->len));
  return order->len - 1;
}

static void
write_graph (Writer *wr, CgProfile *p)
{
  CgGraph *g = wr->graph;
  guint ne = cg_graph_n_events (g), nf = cg_graph_n_functions (g), na = cg_graph_n_arcs (g);
  const CgKind *kinds = cg_graph_event_kinds (g);

  cg_write_xml_sources (wr->xw, p);
  cg_xml_writer_start (wr->xw, "events");
  for (guint e = 0; e < ne; e++)
    {
      cg_xml_writer_start (wr->xw, "event");
      cg_write_xml_event_attributes (wr->xw, g, e);
      cg_xml_writer_end (wr->xw);
    }
  cg_xml_writer_end (wr->xw);

  CgHistogram *h = cg_profile_histogram (p);
  if (h)
    {
      cg_xml_writer_start (wr->xw, "histogram");
      cg_xml_writer_attr_uint (wr->xw, "event", cg_histogram_event (h));
      cg_xml_writer_attr_uint (wr->xw, "rate", cg_histogram_rate (h));
      g_string_truncate (wr->buf, 0);
      cg_value_append (wr->buf, CG_KIND_REAL, (CgValue) { .x = cg_histogram_bin_width (h) });
      cg_xml_writer_attr (wr->xw, "bin-width", wr->buf->str);
      cg_xml_writer_attr_uint (wr->xw, "samples", cg_histogram_samples (h));
      cg_xml_writer_attr (wr->xw, "call-graph", cg_histogram_call_graph (h) ? "yes" : "no");
      for (guint i = 0; i < cg_histogram_n_ranges (h); i++)
        {
          guint64 low, high;
          guint32 bins;
          cg_histogram_range (h, i, &low, &high, &bins);
          cg_xml_writer_start (wr->xw, "range");
          cg_xml_writer_attr_uint (wr->xw, "low", low);
          cg_xml_writer_attr_uint (wr->xw, "high", high);
          cg_xml_writer_attr_uint (wr->xw, "bins", bins);
          cg_xml_writer_end (wr->xw);
        }
      cg_xml_writer_end (wr->xw);
    }

  /* string tables in order of first use by the functions */
  g_autoptr (GHashTable) objects = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) files = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GPtrArray) object_order = g_ptr_array_new ();
  g_autoptr (GPtrArray) file_order = g_ptr_array_new ();
  g_autofree guint *object_of = g_new (guint, MAX (nf, 1));
  g_autofree guint *file_of = g_new (guint, MAX (nf, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    {
      object_of[f] = table_index (objects, object_order, cg_graph_function_object (g, f));
      const char *file = cg_graph_function_file (g, f);
      file_of[f] = *file ? table_index (files, file_order, file) : G_MAXUINT;
    }
  write_string_table (wr, "objects", "object", object_order);
  write_string_table (wr, "files", "file", file_order);

  /* NAME OBJECT FILE LINE SELF SPONTANEOUS FLAGS, empty when absent */
  cg_xml_writer_start (wr->xw, "functions");
  rows_begin (wr, "function-rows");
  for (CgFunctionId f = 0; f < nf; f++)
    {
      row_begin (wr);
      put_escaped (wr, cg_graph_function_name (g, f));
      put_tab (wr);
      put_uint (wr, object_of[f]);
      put_tab (wr);
      if (file_of[f] != G_MAXUINT)
        put_uint (wr, file_of[f]);
      put_tab (wr);
      if (cg_graph_function_line (g, f))
        put_uint (wr, cg_graph_function_line (g, f));
      put_tab (wr);
      put_values (wr, kinds, cg_graph_self_const (g, f), ne, FALSE);
      put_tab (wr);
      put_values (wr, kinds, cg_graph_spontaneous (g, f), ne, FALSE);
      CgFunctionFlags flags = cg_graph_function_flags (g, f);
      if (flags & (CG_FUNCTION_CYCLE | CG_FUNCTION_NESTED))
        {
          put_tab (wr);
          if (flags & CG_FUNCTION_CYCLE)
            put_string (wr, "cycle", 5);
          if ((flags & CG_FUNCTION_CYCLE) && (flags & CG_FUNCTION_NESTED))
            put_string (wr, " ", 1);
          if (flags & CG_FUNCTION_NESTED)
            put_string (wr, "nested", 6);
        }
      row_end (wr);
    }
  rows_end (wr);
  cg_xml_writer_end (wr->xw);

  /* CALLER CALLEE CALLS INCLUSIVE */
  cg_xml_writer_start (wr->xw, "arcs");
  cg_xml_writer_attr (wr->xw, "inclusive", cg_graph_has_inclusive (g) ? "yes" : "no");
  rows_begin (wr, "arc-rows");
  for (CgArcId a = 0; a < na && !rows_failed (wr); a++)
    {
      row_begin (wr);
      put_uint (wr, cg_graph_arc_caller (g, a));
      put_tab (wr);
      put_uint (wr, cg_graph_arc_callee (g, a));
      put_tab (wr);
      if (cg_graph_arc_calls (g, a))
        put_uint (wr, cg_graph_arc_calls (g, a));
      put_tab (wr);
      put_values (wr, kinds, cg_graph_arc_inclusive_const (g, a), ne, FALSE);
      row_end (wr);
    }
  rows_end (wr);
  cg_xml_writer_end (wr->xw);
}

static void
write_tree (Writer *wr, CgTree *t)
{
  const CgKind *kinds = cg_graph_event_kinds (wr->graph);
  guint ne = cg_tree_n_events (t);
  /* PARENT FUNCTION SELF */
  cg_xml_writer_start (wr->xw, "tree");
  rows_begin (wr, "frame-rows");
  for (CgFrameId x = 0; x < cg_tree_n_frames (t) && !rows_failed (wr); x++)
    {
      row_begin (wr);
      if (cg_tree_parent (t, x) != CG_NO_ID)
        put_uint (wr, cg_tree_parent (t, x));
      put_tab (wr);
      put_uint (wr, cg_tree_function (t, x));
      put_tab (wr);
      put_values (wr, kinds, cg_tree_self_const (t, x), ne, FALSE);
      row_end (wr);
    }
  rows_end (wr);
  cg_xml_writer_end (wr->xw);
}

/* A history as function ids, unmarked entries in parentheses. */
static void
write_contexts (Writer *wr, CgContexts *cx)
{
  const CgKind *kinds = cg_graph_event_kinds (wr->graph);
  guint ne = cg_contexts_n_events (cx);
  cg_xml_writer_start (wr->xw, "contexts");
  for (CgContextId k = 0; k < cg_contexts_n (cx); k++)
    {
      guint n;
      const CgFunctionId *f = cg_contexts_functions (cx, k, &n);
      const guint8 *m = cg_contexts_marks (cx, k);
      cg_xml_writer_start (wr->xw, "context");
      g_string_truncate (wr->buf, 0);
      for (guint i = 0; i < n; i++)
        g_string_append_printf (wr->buf, m[i] ? "%s%u" : "%s(%u)", i ? " " : "", f[i]);
      cg_xml_writer_attr (wr->xw, "history", wr->buf->str);
      attr_values (wr, "self", kinds, cg_contexts_cost_const (cx, k), ne);
      if (cg_contexts_entries (cx, k))
        cg_xml_writer_attr_uint (wr->xw, "entries", cg_contexts_entries (cx, k));
      if (cg_contexts_recursive (cx, k))
        cg_xml_writer_attr_uint (wr->xw, "recursive", cg_contexts_recursive (cx, k));
      cg_xml_writer_end (wr->xw);
    }
  cg_xml_writer_end (wr->xw);
}

static void
write_cycles (Writer *wr, CgCycles *c)
{
  cg_xml_writer_start (wr->xw, "cycles");
  for (guint k = 1; k <= cg_cycles_count (c); k++)
    {
      guint n;
      const CgFunctionId *members = cg_cycles_members (c, k, &n);
      cg_xml_writer_start (wr->xw, "cycle");
      cg_xml_writer_attr_uint (wr->xw, "number", k);
      cg_xml_writer_attr_uint (wr->xw, "head", cg_cycles_head (c, k));
      g_string_truncate (wr->buf, 0);
      for (guint i = 0; i < n; i++)
        g_string_append_printf (wr->buf, i ? " %u" : "%u", members[i]);
      cg_xml_writer_attr (wr->xw, "members", wr->buf->str);
      cg_xml_writer_end (wr->xw);
    }
  cg_xml_writer_end (wr->xw);
}

static void
write_costs (Writer *wr, CgCosts *c)
{
  guint ne = cg_costs_n_events (c);
  const CgKind *kinds = cg_costs_kinds (c);
  /* VALUE ESTIMATED per function; VALUE SELF CHILDREN SELF2 CHILDREN2
   * ESTIMATED per arc; "~" marks an estimate, as in the text reports */
  cg_xml_writer_start (wr->xw, "costs");
  cg_xml_writer_attr (wr->xw, "method", cg_method_to_string (cg_costs_method (c)));
  rows_begin (wr, "total-rows");
  for (CgFunctionId f = 0; f < cg_costs_n_functions (c) && !rows_failed (wr); f++)
    {
      row_begin (wr);
      put_values (wr, kinds, cg_costs_total_const (c, f), ne, TRUE);
      put_tab (wr);
      if (cg_costs_total_is_estimated (c, f))
        put_string (wr, "~", 1);
      row_end (wr);
    }
  rows_end (wr);
  gboolean split = cg_costs_has_arc_split (c), split2 = cg_costs_has_arc_split2 (c);
  rows_begin (wr, "arc-cost-rows");
  for (CgArcId a = 0; a < cg_costs_n_arcs (c) && !rows_failed (wr); a++)
    {
      row_begin (wr);
      put_values (wr, kinds, cg_costs_arc_const (c, a), ne, TRUE);
      put_tab (wr);
      if (split)
        put_values (wr, kinds, cg_costs_arc_self_const (c, a), ne, FALSE);
      put_tab (wr);
      if (split)
        put_values (wr, kinds, cg_costs_arc_children_const (c, a), ne, FALSE);
      put_tab (wr);
      if (split2)
        put_values (wr, kinds, cg_costs_arc_self2_const (c, a), ne, FALSE);
      put_tab (wr);
      if (split2)
        put_values (wr, kinds, cg_costs_arc_children2_const (c, a), ne, FALSE);
      put_tab (wr);
      if (cg_costs_arc_is_estimated (c, a))
        put_string (wr, "~", 1);
      row_end (wr);
    }
  rows_end (wr);
  cg_xml_writer_end (wr->xw);
}

gboolean
cg_write_xml (CgProfile *p, FILE *stream, const char *name, GError **error)
{
  CgXmlWriter *xw = cg_xml_writer_new (stream, name, error);
  if (xw == NULL)
    return FALSE;
  Writer wr = { .xw = xw, .buf = g_string_new (NULL), .graph = cg_profile_graph (p) };
  cg_xml_writer_start (xw, "cgtools");
  cg_xml_writer_attr (xw, "version", "2");
  write_graph (&wr, p);
  if (cg_profile_tree (p))
    write_tree (&wr, cg_profile_tree (p));
  if (cg_profile_contexts (p))
    write_contexts (&wr, cg_profile_contexts (p));
  if (cg_profile_cycles (p))
    write_cycles (&wr, cg_profile_cycles (p));
  if (cg_profile_costs (p))
    write_costs (&wr, cg_profile_costs (p));
  g_clear_pointer (&wr.flusher, cg_worker_free);
  g_string_free (wr.buf, TRUE);
  g_free (wr.text);
  return cg_xml_writer_finish (xw, error);
}
