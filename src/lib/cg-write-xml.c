/* cg-write-xml.c — one xmlTextWriter call per element or attribute; the
 * first failure is latched and reported once. */
#include "config.h"

#include "cg-write-xml.h"

#include <errno.h>
#include <libxml/xmlwriter.h>
#include <string.h>

#include "cg-error.h"
#include "cg-xml-errors.h"

typedef struct {
  xmlTextWriterPtr w;
  FILE *stream;
  gboolean failed;
  int write_errno;
  GString *buf;
  CgGraph *graph;
} Writer;

static int
write_cb (void *context, const char *data, int len)
{
  Writer *wr = context;
  if (len > 0 && fwrite (data, 1, (size_t) len, wr->stream) != (size_t) len)
    {
      wr->write_errno = errno ? errno : EIO;
      return -1;
    }
  return len;
}

static void
check (Writer *wr, int rc)
{
  if (rc < 0)
    wr->failed = TRUE;
}

static void
start (Writer *wr, const char *name)
{
  if (!wr->failed)
    check (wr, xmlTextWriterStartElement (wr->w, BAD_CAST name));
}

static void
end (Writer *wr)
{
  if (!wr->failed)
    check (wr, xmlTextWriterEndElement (wr->w));
}

static void
attr (Writer *wr, const char *name, const char *value)
{
  if (!wr->failed && value != NULL)
    check (wr, xmlTextWriterWriteAttribute (wr->w, BAD_CAST name, BAD_CAST value));
}

static void
attr_uint (Writer *wr, const char *name, guint64 value)
{
  char buf[32];
  g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, value);
  attr (wr, name, buf);
}

/* A cost list attribute, omitted when all values are zero. */
static void
attr_values (Writer *wr, const char *name, const CgKind *kinds, const CgValue *v, guint n)
{
  if (v == NULL)
    return;
  g_string_truncate (wr->buf, 0);
  cg_values_append_list (wr->buf, kinds, v, n);
  if (wr->buf->len > 0)
    attr (wr, name, wr->buf->str);
}

/* Objects and files are written once as tables; functions refer to them
 * by index. */
static void
write_string_table (Writer *wr, const char *section, const char *element, GPtrArray *order)
{
  start (wr, section);
  for (guint i = 0; i < order->len; i++)
    {
      start (wr, element);
      attr_uint (wr, "id", i);
      attr (wr, "name", g_ptr_array_index (order, i));
      end (wr);
    }
  end (wr);
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

  for (guint i = 0; i < cg_profile_n_sources (p); i++)
    {
      const CgSource *s = cg_profile_source (p, i);
      start (wr, "source");
      attr (wr, "format", s->format ? s->format : "unknown");
      attr (wr, "path", s->path);
      attr (wr, "command", s->command);
      attr (wr, "creator", s->creator);
      end (wr);
    }

  start (wr, "events");
  for (guint e = 0; e < ne; e++)
    {
      start (wr, "event");
      attr (wr, "name", cg_graph_event_name (g, e));
      attr (wr, "unit", cg_graph_event_unit (g, e));
      attr (wr, "kind", cg_kind_to_string (kinds[e]));
      attr (wr, "description", cg_graph_event_description (g, e));
      if (cg_graph_event_scale (g, e) != 1.0)
        {
          g_string_truncate (wr->buf, 0);
          cg_value_append (wr->buf, CG_KIND_REAL, (CgValue) { .x = cg_graph_event_scale (g, e) });
          attr (wr, "scale", wr->buf->str);
        }
      end (wr);
    }
  end (wr);

  CgHistogram *h = cg_profile_histogram (p);
  if (h)
    {
      start (wr, "histogram");
      attr_uint (wr, "event", cg_histogram_event (h));
      attr_uint (wr, "rate", cg_histogram_rate (h));
      g_string_truncate (wr->buf, 0);
      cg_value_append (wr->buf, CG_KIND_REAL, (CgValue) { .x = cg_histogram_bin_width (h) });
      attr (wr, "bin-width", wr->buf->str);
      attr_uint (wr, "samples", cg_histogram_samples (h));
      attr (wr, "call-graph", cg_histogram_call_graph (h) ? "yes" : "no");
      for (guint i = 0; i < cg_histogram_n_ranges (h); i++)
        {
          guint64 low, high;
          guint32 bins;
          cg_histogram_range (h, i, &low, &high, &bins);
          start (wr, "range");
          attr_uint (wr, "low", low);
          attr_uint (wr, "high", high);
          attr_uint (wr, "bins", bins);
          end (wr);
        }
      end (wr);
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

  start (wr, "functions");
  for (CgFunctionId f = 0; f < nf; f++)
    {
      start (wr, "function");
      attr_uint (wr, "id", f);
      attr (wr, "name", cg_graph_function_name (g, f));
      attr_uint (wr, "object", object_of[f]);
      if (file_of[f] != G_MAXUINT)
        attr_uint (wr, "file", file_of[f]);
      if (cg_graph_function_line (g, f))
        attr_uint (wr, "line", cg_graph_function_line (g, f));
      if (cg_graph_function_flags (g, f) & CG_FUNCTION_CYCLE)
        attr (wr, "kind", "cycle");
      if (cg_graph_function_flags (g, f) & CG_FUNCTION_NESTED)
        attr (wr, "nested", "yes");
      attr_values (wr, "self", kinds, cg_graph_self_const (g, f), ne);
      attr_values (wr, "spontaneous", kinds, cg_graph_spontaneous (g, f), ne);
      end (wr);
    }
  end (wr);

  start (wr, "arcs");
  attr (wr, "inclusive", cg_graph_has_inclusive (g) ? "yes" : "no");
  for (CgArcId a = 0; a < na; a++)
    {
      start (wr, "arc");
      attr_uint (wr, "id", a);
      attr_uint (wr, "caller", cg_graph_arc_caller (g, a));
      attr_uint (wr, "callee", cg_graph_arc_callee (g, a));
      if (cg_graph_arc_calls (g, a))
        attr_uint (wr, "calls", cg_graph_arc_calls (g, a));
      attr_values (wr, "inclusive", kinds, cg_graph_arc_inclusive_const (g, a), ne);
      end (wr);
    }
  end (wr);
}

static void
write_tree (Writer *wr, CgTree *t)
{
  const CgKind *kinds = cg_graph_event_kinds (wr->graph);
  guint ne = cg_tree_n_events (t);
  start (wr, "tree");
  for (CgFrameId x = 0; x < cg_tree_n_frames (t); x++)
    {
      start (wr, "frame");
      attr_uint (wr, "id", x);
      if (cg_tree_parent (t, x) != CG_NO_ID)
        attr_uint (wr, "parent", cg_tree_parent (t, x));
      attr_uint (wr, "function", cg_tree_function (t, x));
      attr_values (wr, "self", kinds, cg_tree_self_const (t, x), ne);
      end (wr);
    }
  end (wr);
}

/* A history as function ids, unmarked entries in parentheses. */
static void
write_contexts (Writer *wr, CgContexts *cx)
{
  const CgKind *kinds = cg_graph_event_kinds (wr->graph);
  guint ne = cg_contexts_n_events (cx);
  start (wr, "contexts");
  for (CgContextId k = 0; k < cg_contexts_n (cx); k++)
    {
      guint n;
      const CgFunctionId *f = cg_contexts_functions (cx, k, &n);
      const guint8 *m = cg_contexts_marks (cx, k);
      start (wr, "context");
      g_string_truncate (wr->buf, 0);
      for (guint i = 0; i < n; i++)
        g_string_append_printf (wr->buf, m[i] ? "%s%u" : "%s(%u)", i ? " " : "", f[i]);
      attr (wr, "history", wr->buf->str);
      attr_values (wr, "self", kinds, cg_contexts_cost_const (cx, k), ne);
      if (cg_contexts_entries (cx, k))
        attr_uint (wr, "entries", cg_contexts_entries (cx, k));
      if (cg_contexts_recursive (cx, k))
        attr_uint (wr, "recursive", cg_contexts_recursive (cx, k));
      end (wr);
    }
  end (wr);
}

static void
write_cycles (Writer *wr, CgCycles *c)
{
  start (wr, "cycles");
  for (guint k = 1; k <= cg_cycles_count (c); k++)
    {
      guint n;
      const CgFunctionId *members = cg_cycles_members (c, k, &n);
      start (wr, "cycle");
      attr_uint (wr, "number", k);
      attr_uint (wr, "head", cg_cycles_head (c, k));
      g_string_truncate (wr->buf, 0);
      for (guint i = 0; i < n; i++)
        g_string_append_printf (wr->buf, i ? " %u" : "%u", members[i]);
      attr (wr, "members", wr->buf->str);
      end (wr);
    }
  end (wr);
}

static void
write_costs (Writer *wr, CgCosts *c)
{
  guint ne = cg_costs_n_events (c);
  const CgKind *kinds = cg_costs_kinds (c);
  start (wr, "costs");
  attr (wr, "method", cg_method_to_string (cg_costs_method (c)));
  for (CgFunctionId f = 0; f < cg_costs_n_functions (c); f++)
    {
      start (wr, "total");
      attr_uint (wr, "function", f);
      attr_values (wr, "value", kinds, cg_costs_total_const (c, f), ne);
      if (cg_costs_total_is_estimated (c, f))
        attr (wr, "estimated", "yes");
      end (wr);
    }
  for (CgArcId a = 0; a < cg_costs_n_arcs (c); a++)
    {
      start (wr, "arc-cost");
      attr_uint (wr, "arc", a);
      attr_values (wr, "value", kinds, cg_costs_arc_const (c, a), ne);
      if (cg_costs_has_arc_split (c))
        {
          attr_values (wr, "self", kinds, cg_costs_arc_self_const (c, a), ne);
          attr_values (wr, "children", kinds, cg_costs_arc_children_const (c, a), ne);
        }
      if (cg_costs_has_arc_split2 (c))
        {
          attr_values (wr, "self2", kinds, cg_costs_arc_self2_const (c, a), ne);
          attr_values (wr, "children2", kinds, cg_costs_arc_children2_const (c, a), ne);
        }
      if (cg_costs_arc_is_estimated (c, a))
        attr (wr, "estimated", "yes");
      end (wr);
    }
  end (wr);
}

gboolean
cg_write_xml (CgProfile *p, FILE *stream, const char *name, GError **error)
{
  Writer wr = { .stream = stream, .buf = g_string_new (NULL), .graph = cg_profile_graph (p) };
  CgXmlErrorTrap trap;
  cg_xml_error_trap_push (&trap);
  xmlOutputBufferPtr out = xmlOutputBufferCreateIO (write_cb, NULL, &wr, NULL);
  wr.w = out ? xmlNewTextWriter (out) : NULL;
  if (wr.w == NULL)
    {
      if (out)
        xmlOutputBufferClose (out);
      g_string_free (wr.buf, TRUE);
      g_free (cg_xml_error_trap_pop (&trap));
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: cannot create the XML writer", name);
      return FALSE;
    }
  check (&wr, xmlTextWriterSetIndent (wr.w, 1));
  check (&wr, xmlTextWriterSetIndentString (wr.w, BAD_CAST " "));
  check (&wr, xmlTextWriterStartDocument (wr.w, NULL, "UTF-8", NULL));
  start (&wr, "cgtools");
  attr (&wr, "version", "1");
  write_graph (&wr, p);
  if (cg_profile_tree (p))
    write_tree (&wr, cg_profile_tree (p));
  if (cg_profile_contexts (p))
    write_contexts (&wr, cg_profile_contexts (p));
  if (cg_profile_cycles (p))
    write_cycles (&wr, cg_profile_cycles (p));
  if (cg_profile_costs (p))
    write_costs (&wr, cg_profile_costs (p));
  if (!wr.failed)
    check (&wr, xmlTextWriterEndDocument (wr.w));
  if (!wr.failed)
    check (&wr, xmlTextWriterFlush (wr.w));
  xmlFreeTextWriter (wr.w); /* also closes the output buffer */
  g_string_free (wr.buf, TRUE);
  g_autofree char *generic = cg_xml_error_trap_pop (&trap);
  if (wr.failed)
    {
      if (wr.write_errno)
        g_set_error (error, CG_ERROR, wr.write_errno == EPIPE ? CG_ERROR_CLOSED : CG_ERROR_IO, "%s: write error: %s",
                     name, g_strerror (wr.write_errno));
      else
        g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: cannot write XML: %s", name,
                     generic ? generic : "libxml2 failed");
      return FALSE;
    }
  return TRUE;
}
