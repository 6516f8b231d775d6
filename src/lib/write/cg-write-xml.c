/* cg-write-xml.c — the document's structure through xmlTextWriter, the
 * bulk (functions, arcs, frames, costs) as rows.
 *
 * libxml2's writer spends about a thousand instructions on an attribute;
 * a profile has millions of arcs.  So the large sections are written in
 * their rows form (formats/cgtools-xml.md, version 2): tab-separated lines
 * of text, formatted here with our own integer printing a chunk of rows
 * at a time, on one thread per processor when there are several chunks
 * (and on the caller's, rather than wait), and written in order by the
 * caller's thread as raw text in elements of about 64 KiB.  Where chunks
 * begin changes no byte of the document.  Raw is safe because the rows
 * are escaped here: numbers need nothing, names get &amp; &lt; &gt;, and
 * names never hold a tab, a newline or another control character
 * (cg_graph_intern).  The first failure is latched and reported once. */
#include "config.h"

#include "cg-write-xml.h"
#include "cg-method.h"

#include <string.h>

#include "cg-error.h"
#include "cg-xml-errors.h"

/* A <X-rows> element is closed once its text reaches this size (the
 * reader holds one at a time and hands each to its worker thread; smaller
 * ones cost more elements and more wake-ups: 16 KiB made cgcycles 4%
 * slower on the bench's 126 MB document). */
#define ROWS_BYTES (64 * 1024)

/* Rows are formatted CHUNK_ROWS at a time; a section of more chunks than
 * one has them formatted on one thread per processor, at most CHUNKS_AHEAD per
 * thread ahead of the one being written.  Any thread takes the next chunk:
 * chunks differ in cost (a function's name is long, an arc's row short),
 * and a thread given every other chunk waited for its partner. */
#define CHUNK_ROWS 1024
#define CHUNKS_AHEAD 16

/* Row text being formatted: the rows of one chunk. */
typedef struct {
  char *data;
  gsize len, cap;
  gsize row_start;
  GString *scratch; /* for a real value */
} Text;

typedef struct Section Section;
typedef void (*RowFunc) (Text *t, const Section *s, guint i);

/* What a section's rows are formatted from: one row function and the
 * parts of the profile it reads (only read, on any thread). */
struct Section {
  RowFunc row;
  const char *element;
  guint n_rows;
  CgGraph *graph;
  const CgKind *kinds;
  guint ne;
  const guint *object_of, *file_of;
  CgTree *tree;
  CgCosts *costs;
  gboolean split, split2;
};

/* Rows [lo, hi) of a section, formatted into text.  Under the writer's
 * lock: claimed by the thread that formats them, then done.  A chunk is
 * a slot of the writer's ring, reused chunk after chunk. */
typedef struct {
  const Section *section;
  guint lo, hi;
  Text text;
  gboolean claimed, done;
} Chunk;

typedef struct {
  CgXmlWriter *xw;
  GString *buf;
  CgGraph *graph;
  /* the rows element being written and its length so far */
  gboolean open;
  gsize open_len;
  /* the formatters' threads, which take chunks from the queue (NULL
   * until a section has more than one chunk, or on one processor) */
  GThread **formatters;
  guint threads;
  GAsyncQueue *queue;
  Chunk *ring;        /* ring slots, CHUNKS_AHEAD per formatter */
  guint window;
  GMutex lock;
  GCond cond;
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

/* ---- row text ---- */

/* A chunk's text to begin with; it grows as its rows need. */
#define TEXT_BYTES 4096

static G_GNUC_NO_INLINE void
grow_text (Text *t, gsize n)
{
  t->cap = MAX (t->cap * 2, t->len + n + TEXT_BYTES);
  t->data = g_realloc (t->data, t->cap);
}

/* Room for @n more bytes; returns where they go. */
static inline char *
reserve (Text *t, gsize n)
{
  if (G_UNLIKELY (t->cap - t->len < n))
    grow_text (t, n);
  return t->data + t->len;
}

static void
row_begin (Text *t)
{
  t->row_start = t->len;
}

/* Ends a row: empty trailing fields go and a newline ends it.  Rows never
 * end up empty (their first field is never empty or is followed by one
 * that is not), so readers may skip blank lines. */
static void
row_end (Text *t)
{
  while (t->len > t->row_start && t->data[t->len - 1] == '\t')
    t->len--;
  *reserve (t, 1) = '\n';
  t->len++;
}

static inline void
put_tab (Text *t)
{
  *reserve (t, 1) = '\t';
  t->len++;
}

static inline void
put_uint (Text *t, guint64 n)
{
  /* straight into the text: no copy of a variable length */
  char *p = reserve (t, CG_UINT_DIGITS);
  t->len = (gsize) (cg_uint_put (p, n) - t->data);
}

static inline void
put_string (Text *t, const char *s, gsize n)
{
  memcpy (reserve (t, n), s, n);
  t->len += n;
}

/* @s with XML's markup characters escaped, and '"' too when it is an
 * @attribute's value (between double quotes). */
static void
put_escaped (Text *t, const char *s, gboolean attribute)
{
  const char *special = attribute ? "&<>\"" : "&<>";
  for (;;)
    {
      gsize n = strcspn (s, special);
      put_string (t, s, n);
      s += n;
      if (*s == '\0')
        return;
      const char *entity = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : "&quot;";
      put_string (t, entity, strlen (entity));
      s++;
    }
}

/* A cost list (cg_values_append_list), nothing when all zero or NULL,
 * or "0" then when @never_empty. */
static void
put_values (Text *t, const CgKind *kinds, const CgValue *v, guint n, gboolean never_empty)
{
  if (v == NULL)
    n = 0;
  while (n > 0 && cg_value_is_zero (kinds[n - 1], v[n - 1]))
    n--;
  if (n == 0 && never_empty)
    put_string (t, "0", 1);
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        put_string (t, " ", 1);
      if (kinds[i] == CG_KIND_INTEGER)
        put_uint (t, v[i].n);
      else
        {
          g_string_truncate (t->scratch, 0);
          cg_value_append (t->scratch, kinds[i], v[i]);
          put_string (t, t->scratch->str, t->scratch->len);
        }
    }
}

/* ---- sections of rows ---- */

static void
format_chunk (Chunk *c)
{
  c->text.len = 0;
  for (guint i = c->lo; i < c->hi; i++)
    c->section->row (&c->text, c->section, i);
}

/* Formats @c unless another thread claimed it first. */
static void
claim_and_format (Writer *wr, Chunk *c)
{
  g_mutex_lock (&wr->lock);
  gboolean mine = !c->claimed;
  c->claimed = TRUE;
  g_mutex_unlock (&wr->lock);
  if (!mine)
    return;
  format_chunk (c);
  g_mutex_lock (&wr->lock);
  c->done = TRUE;
  g_cond_broadcast (&wr->cond);
  g_mutex_unlock (&wr->lock);
}

/* A formatter's thread: the queue holds ring slots, and a slot may be
 * there twice (pushed again once reused) or already claimed; the writer
 * itself ends the queue. */
static gpointer
formatter (gpointer data)
{
  Writer *wr = data;
  for (Chunk *c; (c = g_async_queue_pop (wr->queue)) != (Chunk *) wr;)
    claim_and_format (wr, c);
  return NULL;
}

/* Writes @n bytes of whole rows as raw text of rows elements: the first
 * row on a line of its own, and an element closed after the row that
 * brings it to ROWS_BYTES, wherever the chunks begin and end. */
static void
put_rows (Writer *wr, const char *element, const char *s, gsize n)
{
  while (n > 0)
    {
      if (!wr->open)
        {
          cg_xml_writer_start (wr->xw, element);
          cg_xml_writer_raw (wr->xw, "\n", 1);
          wr->open = TRUE;
          wr->open_len = 1;
        }
      gsize room = ROWS_BYTES - wr->open_len, take = n;
      if (n >= room)
        {
          /* every row ends in a newline: the chunk's last one does */
          const char *nl = memchr (s + room - 1, '\n', n - (room - 1));
          take = (gsize) (nl - s) + 1;
        }
      cg_xml_writer_raw (wr->xw, s, take);
      wr->open_len += take;
      s += take;
      n -= take;
      if (wr->open_len >= ROWS_BYTES)
        {
          cg_xml_writer_end (wr->xw);
          wr->open = FALSE;
        }
    }
}

/* Chunk @c, once formatted: here, when no formatter has begun it. */
static void
finish_chunk (Writer *wr, Chunk *c)
{
  claim_and_format (wr, c);
  g_mutex_lock (&wr->lock);
  while (!c->done)
    g_cond_wait (&wr->cond, &wr->lock);
  g_mutex_unlock (&wr->lock);
}

/* Waits until no formatter is at @c; one not begun never will be. */
static void
settle_chunk (Writer *wr, Chunk *c)
{
  g_mutex_lock (&wr->lock);
  if (!c->claimed)
    c->claimed = c->done = TRUE;
  while (!c->done)
    g_cond_wait (&wr->cond, &wr->lock);
  g_mutex_unlock (&wr->lock);
}

static Text
new_text (void)
{
  /* a text is never without a buffer: an empty name adds nothing to
   * where it points, which NULL cannot take */
  return (Text) { .data = g_malloc (TEXT_BYTES), .cap = TEXT_BYTES, .scratch = g_string_new (NULL) };
}

/* The formatters and their ring, made when first wanted; none on one
 * processor.  Their threads are joined when the writer ends (a
 * GThreadPool's are not, and LeakSanitizer, in the fuzz targets, counted
 * what they still held as leaked). */
static gboolean
start_formatters (Writer *wr)
{
  if (wr->formatters == NULL && wr->threads == 0)
    {
      wr->threads = MIN (g_get_num_processors (), 8);
      if (wr->threads > 1)
        {
          wr->queue = g_async_queue_new ();
          wr->window = CHUNKS_AHEAD * wr->threads;
          wr->ring = g_new0 (Chunk, wr->window);
          for (guint k = 0; k < wr->window; k++)
            wr->ring[k] = (Chunk) { .text = new_text (), .claimed = TRUE, .done = TRUE };
          wr->formatters = g_new0 (GThread *, wr->threads);
          for (guint k = 0; k < wr->threads; k++)
            wr->formatters[k] = g_thread_try_new ("cg-format", formatter, wr, NULL);
        }
    }
  return wr->formatters != NULL;
}

static void
stop_formatters (Writer *wr)
{
  if (wr->formatters == NULL)
    return;
  for (guint k = 0; k < wr->threads; k++)
    if (wr->formatters[k])
      g_async_queue_push (wr->queue, wr);
  for (guint k = 0; k < wr->threads; k++)
    if (wr->formatters[k])
      g_thread_join (wr->formatters[k]);
  g_async_queue_unref (wr->queue);
  for (guint k = 0; k < wr->window; k++)
    {
      g_free (wr->ring[k].text.data);
      g_string_free (wr->ring[k].text.scratch, TRUE);
    }
  g_free (wr->ring);
  g_free (wr->formatters);
}

/* Writes a section's rows, formatted a chunk at a time: here, or on the
 * formatters while this thread writes the chunks before.  Stops at the first
 * failure of the output (the writer has latched it). */
static void
write_section (Writer *wr, const Section *s)
{
  guint n_chunks = s->n_rows / CHUNK_ROWS + (s->n_rows % CHUNK_ROWS != 0);
  if (n_chunks > 1 && start_formatters (wr))
    {
      guint next = 0; /* chunks queued */
      for (guint i = 0; i < n_chunks && !cg_xml_writer_failed (wr->xw); i++)
        {
          for (; next < n_chunks && next < i + wr->window; next++)
            {
              Chunk *d = &wr->ring[next % wr->window];
              g_mutex_lock (&wr->lock);
              d->section = s;
              d->lo = next * CHUNK_ROWS;
              d->hi = d->lo + MIN (CHUNK_ROWS, s->n_rows - d->lo); /* no lo + CHUNK_ROWS past 2^32 */
              d->claimed = d->done = FALSE;
              g_mutex_unlock (&wr->lock);
              g_async_queue_push (wr->queue, d);
            }
          Chunk *c = &wr->ring[i % wr->window];
          finish_chunk (wr, c);
          put_rows (wr, s->element, c->text.data, c->text.len);
        }
      /* after a failure, chunks queued and not written: none may be at a
       * formatter when its slot is queued again */
      for (guint k = 0; k < wr->window; k++)
        settle_chunk (wr, &wr->ring[k]);
    }
  else
    {
      Chunk c = { .section = s, .text = new_text () };
      for (guint i = 0; i < n_chunks && !cg_xml_writer_failed (wr->xw); i++)
        {
          c.lo = i * CHUNK_ROWS;
          c.hi = c.lo + MIN (CHUNK_ROWS, s->n_rows - c.lo);
          format_chunk (&c);
          put_rows (wr, s->element, c.text.data, c.text.len);
        }
      g_free (c.text.data);
      g_string_free (c.text.scratch, TRUE);
    }
  if (wr->open)
    cg_xml_writer_end (wr->xw);
  wr->open = FALSE;
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
      cg_xml_writer_attr (w, "note", s->note);
      cg_xml_writer_attr (w, "detail", s->detail);
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
  gdouble sampled;
  guint64 samples = cg_graph_event_samples (g, event, &sampled);
  if (samples > 0)
    {
      g_autoptr (GString) s = g_string_new (NULL);
      g_string_printf (s, "%" G_GUINT64_FORMAT, samples);
      cg_xml_writer_attr (w, "samples", s->str);
      g_string_truncate (s, 0);
      cg_value_append (s, CG_KIND_REAL, (CgValue) { .x = sampled });
      cg_xml_writer_attr (w, "sampled", s->str);
    }
}

/* Objects and files are written once as tables; functions refer to them
 * by index.  The elements are raw text, as rows are: a compiler's
 * profile names tens of thousands of files, and libxml2's writer took
 * 20 ms over them while every other thread waited.  The text is what
 * the writer would make of them, but for where the end tag goes. */
static void
write_string_table (Writer *wr, const char *section, const char *element, GPtrArray *order)
{
  cg_xml_writer_start (wr->xw, section);
  if (order->len > 0)
    {
      Text t = new_text ();
      gsize element_len = strlen (element);
      for (guint i = 0; i < order->len; i++)
        {
          put_string (&t, "\n  <", 4);
          put_string (&t, element, element_len);
          put_string (&t, " id=\"", 5);
          put_uint (&t, i);
          put_string (&t, "\" name=\"", 8);
          put_escaped (&t, g_ptr_array_index (order, i), TRUE);
          put_string (&t, "\"/>", 3);
        }
      put_string (&t, "\n ", 2);
      cg_xml_writer_raw (wr->xw, t.data, t.len);
      g_free (t.data);
      g_string_free (t.scratch, TRUE);
    }
  cg_xml_writer_end (wr->xw);
}

/* The index in @order of the string @id, which is appended when new;
 * @slot holds, per string id, its index + 1 (0: not yet in @order).
 * Indexed by id, not hashed: a large graph has a function per row. */
static guint
table_index (CgGraph *g, guint *slot, GPtrArray *order, guint32 id)
{
  if (slot[id] == 0)
    {
      g_ptr_array_add (order, (gpointer) cg_graph_string (g, id));
      slot[id] = order->len;
    }
  return slot[id] - 1;
}

/* NAME OBJECT FILE LINE SELF SPONTANEOUS FLAGS, empty when absent */
static void
function_row (Text *t, const Section *s, CgFunctionId f)
{
  CgGraph *g = s->graph;
  row_begin (t);
  put_escaped (t, cg_graph_function_name (g, f), FALSE);
  put_tab (t);
  put_uint (t, s->object_of[f]);
  put_tab (t);
  if (s->file_of[f] != G_MAXUINT)
    put_uint (t, s->file_of[f]);
  put_tab (t);
  if (cg_graph_function_line (g, f))
    put_uint (t, cg_graph_function_line (g, f));
  put_tab (t);
  put_values (t, s->kinds, cg_graph_self_const (g, f), s->ne, FALSE);
  put_tab (t);
  put_values (t, s->kinds, cg_graph_spontaneous (g, f), s->ne, FALSE);
  CgFunctionFlags flags = cg_graph_function_flags (g, f);
  if (flags & (CG_FUNCTION_CYCLE | CG_FUNCTION_NESTED))
    {
      put_tab (t);
      if (flags & CG_FUNCTION_CYCLE)
        put_string (t, "cycle", 5);
      if ((flags & CG_FUNCTION_CYCLE) && (flags & CG_FUNCTION_NESTED))
        put_string (t, " ", 1);
      if (flags & CG_FUNCTION_NESTED)
        put_string (t, "nested", 6);
    }
  row_end (t);
}

/* CALLER CALLEE CALLS INCLUSIVE */
static void
arc_row (Text *t, const Section *s, CgArcId a)
{
  CgGraph *g = s->graph;
  row_begin (t);
  /* the three numbers in the room of one reservation: there are millions
   * of arcs */
  char *p = reserve (t, 3 * (CG_UINT_DIGITS + 1));
  p = cg_uint_put (p, cg_graph_arc_caller (g, a));
  *p++ = '\t';
  p = cg_uint_put (p, cg_graph_arc_callee (g, a));
  *p++ = '\t';
  guint64 calls = cg_graph_arc_calls (g, a);
  if (calls)
    p = cg_uint_put (p, calls);
  *p++ = '\t';
  t->len = (gsize) (p - t->data);
  put_values (t, s->kinds, cg_graph_arc_inclusive_const (g, a), s->ne, FALSE);
  row_end (t);
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
  guint n_strings = cg_graph_n_strings (g);
  g_autofree guint *objects = g_new0 (guint, MAX (n_strings, 1)), *files = g_new0 (guint, MAX (n_strings, 1));
  g_autoptr (GPtrArray) object_order = g_ptr_array_new ();
  g_autoptr (GPtrArray) file_order = g_ptr_array_new ();
  g_autofree guint *object_of = g_new (guint, MAX (nf, 1));
  g_autofree guint *file_of = g_new (guint, MAX (nf, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    {
      object_of[f] = table_index (g, objects, object_order, cg_graph_function_object_id (g, f));
      guint32 file = cg_graph_function_file_id (g, f);
      file_of[f] = file != 0 ? table_index (g, files, file_order, file) : G_MAXUINT;
    }
  write_string_table (wr, "objects", "object", object_order);
  write_string_table (wr, "files", "file", file_order);

  Section functions = { function_row, "function-rows", nf, g, kinds, ne, .object_of = object_of, .file_of = file_of };
  cg_xml_writer_start (wr->xw, "functions");
  write_section (wr, &functions);
  cg_xml_writer_end (wr->xw);

  Section arcs = { arc_row, "arc-rows", na, g, kinds, ne, .tree = NULL };
  cg_xml_writer_start (wr->xw, "arcs");
  cg_xml_writer_attr (wr->xw, "inclusive", cg_graph_has_inclusive (g) ? "yes" : "no");
  write_section (wr, &arcs);
  cg_xml_writer_end (wr->xw);
}

/* PARENT FUNCTION SELF */
static void
frame_row (Text *t, const Section *s, CgFrameId x)
{
  row_begin (t);
  if (cg_tree_parent (s->tree, x) != CG_NO_ID)
    put_uint (t, cg_tree_parent (s->tree, x));
  put_tab (t);
  put_uint (t, cg_tree_function (s->tree, x));
  put_tab (t);
  put_values (t, s->kinds, cg_tree_self_const (s->tree, x), s->ne, FALSE);
  row_end (t);
}

static void
write_tree (Writer *wr, CgTree *t)
{
  Section frames = { frame_row, "frame-rows", cg_tree_n_frames (t), wr->graph, cg_graph_event_kinds (wr->graph),
                     cg_tree_n_events (t), .tree = t };
  cg_xml_writer_start (wr->xw, "tree");
  write_section (wr, &frames);
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
      /* digits put straight, not printf'd: millions of contexts */
      g_string_set_size (wr->buf, (gsize) n * (CG_UINT_DIGITS + 3));
      char *p = wr->buf->str;
      for (guint i = 0; i < n; i++)
        {
          if (i)
            *p++ = ' ';
          if (!m[i])
            *p++ = '(';
          p = cg_uint_put (p, f[i]);
          if (!m[i])
            *p++ = ')';
        }
      g_string_truncate (wr->buf, (gsize) (p - wr->buf->str));
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

/* VALUE ESTIMATED per function; "~" marks an estimate, as in the text
 * reports */
static void
total_row (Text *t, const Section *s, CgFunctionId f)
{
  row_begin (t);
  put_values (t, s->kinds, cg_costs_total_const (s->costs, f), s->ne, TRUE);
  put_tab (t);
  if (cg_costs_total_is_estimated (s->costs, f))
    put_string (t, "~", 1);
  row_end (t);
}

/* VALUE SELF CHILDREN SELF2 CHILDREN2 ESTIMATED per arc */
static void
arc_cost_row (Text *t, const Section *s, CgArcId a)
{
  CgCosts *c = s->costs;
  row_begin (t);
  put_values (t, s->kinds, cg_costs_arc_const (c, a), s->ne, TRUE);
  put_tab (t);
  if (s->split)
    put_values (t, s->kinds, cg_costs_arc_self_const (c, a), s->ne, FALSE);
  put_tab (t);
  if (s->split)
    put_values (t, s->kinds, cg_costs_arc_children_const (c, a), s->ne, FALSE);
  put_tab (t);
  if (s->split2)
    put_values (t, s->kinds, cg_costs_arc_self2_const (c, a), s->ne, FALSE);
  put_tab (t);
  if (s->split2)
    put_values (t, s->kinds, cg_costs_arc_children2_const (c, a), s->ne, FALSE);
  put_tab (t);
  if (cg_costs_arc_is_estimated (c, a))
    put_string (t, "~", 1);
  row_end (t);
}

static void
write_costs (Writer *wr, CgCosts *c)
{
  Section totals = { total_row, "total-rows", cg_costs_n_functions (c), wr->graph, cg_costs_kinds (c),
                     cg_costs_n_events (c), .costs = c };
  Section arcs = totals;
  arcs.row = arc_cost_row;
  arcs.element = "arc-cost-rows";
  arcs.n_rows = cg_costs_n_arcs (c);
  arcs.split = cg_costs_has_arc_split (c);
  arcs.split2 = cg_costs_has_arc_split2 (c);
  cg_xml_writer_start (wr->xw, "costs");
  cg_xml_writer_attr (wr->xw, "method", cg_method_to_string (cg_costs_method (c)));
  write_section (wr, &totals);
  write_section (wr, &arcs);
  cg_xml_writer_end (wr->xw);
}

typedef struct {
  CgProfile *profile;
  CgWriteXmlDerive derive;
  gpointer data;
  gboolean ok;
  GError *error;
} Deriving;

static gpointer
derive_thread (gpointer data)
{
  Deriving *d = data;
  d->ok = d->derive (d->profile, d->data, &d->error);
  return NULL;
}

gboolean
cg_write_xml_deriving (CgProfile *p, CgWriteXmlDerive derive, gpointer data, FILE *stream, const char *name,
                       GError **error)
{
  Deriving d = { p, derive, data, TRUE, NULL };
  GThread *thread = NULL;
  if (derive != NULL && (thread = g_thread_try_new ("cg-derive", derive_thread, &d, NULL)) == NULL)
    {
      /* no thread: first derive, then write */
      derive_thread (&d);
      if (!d.ok)
        {
          g_propagate_error (error, d.error);
          return FALSE;
        }
    }
  CgXmlWriter *xw = cg_xml_writer_new (stream, name, error);
  if (xw == NULL)
    {
      if (thread)
        g_thread_join (thread);
      g_clear_error (&d.error);
      return FALSE;
    }
  Writer wr = { .xw = xw, .buf = g_string_new (NULL), .graph = cg_profile_graph (p) };
  g_mutex_init (&wr.lock);
  g_cond_init (&wr.cond);
  cg_xml_writer_start (xw, "cgtools");
  cg_xml_writer_attr (xw, "version", "2");
  write_graph (&wr, p);
  if (cg_profile_tree (p))
    write_tree (&wr, cg_profile_tree (p));
  if (cg_profile_contexts (p))
    write_contexts (&wr, cg_profile_contexts (p));
  if (thread)
    g_thread_join (thread);
  if (d.ok && cg_profile_cycles (p))
    write_cycles (&wr, cg_profile_cycles (p));
  if (d.ok && cg_profile_costs (p))
    write_costs (&wr, cg_profile_costs (p));
  stop_formatters (&wr);
  g_mutex_clear (&wr.lock);
  g_cond_clear (&wr.cond);
  g_string_free (wr.buf, TRUE);
  if (!d.ok)
    {
      cg_xml_writer_abandon (xw);
      g_propagate_error (error, d.error);
      return FALSE;
    }
  return cg_xml_writer_finish (xw, error);
}

gboolean
cg_write_xml (CgProfile *p, FILE *stream, const char *name, GError **error)
{
  return cg_write_xml_deriving (p, NULL, NULL, stream, name, error);
}
