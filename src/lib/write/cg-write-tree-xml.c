/* cg-write-tree-xml.c — the view's lines as node rows, the functions they
 * show numbered densely in order of first appearance. */
#include "config.h"

#include "cg-write-tree-xml.h"
#include "cg-method.h"

#include <string.h>

#include "cg-write-xml.h"

/* A rows element is closed once its text reaches this size, as in
 * cgtools XML (cg-write-xml.c). */
#define ROWS_BYTES (64 * 1024)

typedef struct {
  CgXmlWriter *xw;
  const char *element; /* of the rows being written */
  GString *text;       /* their pending text */
} Rows;

static void
rows_flush (Rows *r)
{
  if (r->text->len == 0)
    return;
  cg_xml_writer_start (r->xw, r->element);
  cg_xml_writer_raw (r->xw, r->text->str, r->text->len);
  cg_xml_writer_end (r->xw);
  g_string_truncate (r->text, 0);
}

/* Ends a row: empty trailing fields go (no row becomes empty: its second
 * field is never empty), and a full element is written out.  The first
 * row of an element starts on a line of its own. */
static void
row_end (Rows *r, gsize row_start)
{
  while (r->text->len > row_start && r->text->str[r->text->len - 1] == '\t')
    g_string_truncate (r->text, r->text->len - 1);
  g_string_append_c (r->text, '\n');
  if (r->text->len >= ROWS_BYTES)
    rows_flush (r);
}

static gsize
row_begin (Rows *r)
{
  if (r->text->len == 0)
    g_string_append_c (r->text, '\n');
  return r->text->len;
}

/* @text escaped as XML text (GLib's markup escaping); names hold no tab,
 * newline or other control character (cg_graph_intern), so a field
 * needs no more. */
static void
append_escaped (GString *out, const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);
  g_string_append (out, escaped);
}

static void
attr_value (CgXmlWriter *xw, GString *scratch, const char *name, CgKind kind, CgValue v)
{
  g_string_truncate (scratch, 0);
  cg_value_append (scratch, kind, v);
  cg_xml_writer_attr (xw, name, scratch->str);
}

static void
write_head (CgXmlWriter *xw, const CgTreeView *v, CgProfile *p, const CgCosts *costs, const CgTreeXmlOptions *o,
            GString *scratch)
{
  static const char *const sorts[] = { "total", "self", "calls", "name" };
  CgGraph *g = cg_profile_graph (p);
  guint event = o->view.event;
  cg_xml_writer_start (xw, "cgtree");
  cg_xml_writer_attr (xw, "version", "1");
  cg_xml_writer_attr (xw, "inverted", cg_display_tree_is_inverted (cg_tree_view_tree (v)) ? "yes" : "no");
  cg_xml_writer_attr (xw, "method", cg_method_to_string (cg_costs_method (costs)));
  attr_value (xw, scratch, "threshold", CG_KIND_REAL, (CgValue) { .x = o->view.threshold });
  cg_xml_writer_attr_uint (xw, "max-depth", o->view.max_depth);
  cg_xml_writer_attr (xw, "sort", sorts[o->view.sort]);
  cg_write_xml_sources (xw, p);
  cg_xml_writer_start (xw, "event");
  cg_write_xml_event_attributes (xw, g, event);
  attr_value (xw, scratch, "total", cg_graph_event_kind (g, event), cg_tree_view_all (v));
  cg_xml_writer_end (xw);
  if (o->scope)
    {
      cg_xml_writer_start (xw, "scope");
      g_string_truncate (scratch, 0);
      append_escaped (scratch, o->scope);
      cg_xml_writer_raw (xw, scratch->str, scratch->len);
      cg_xml_writer_end (xw);
    }
}

gboolean
cg_write_tree_xml (CgProfile *p, const CgCosts *costs, const CgDisplayTree *t, const CgTreeXmlOptions *o,
                   FILE *stream, const char *name, GError **error)
{
  g_autoptr (CgTreeView) v = cg_tree_view_new (p, costs, t, &o->view, error);
  if (v == NULL)
    return FALSE;
  CgGraph *g = cg_profile_graph (p);
  CgCycles *cycles = cg_profile_cycles (p);
  guint event = o->view.event, n_lines = cg_tree_view_n_lines (v);
  CgKind kind = cg_costs_kind (costs, event), self_kind = cg_graph_event_kind (g, event);
  gboolean has_calls = cg_tree_view_has_calls (v);

  /* the functions shown, numbered densely in order of first appearance,
   * and their objects likewise */
  g_autofree guint32 *dense = NULL, *master = NULL;
  g_autofree CgFunctionId *functions = NULL;
  guint n_shown = cg_tree_view_shown_functions (v, &dense, &functions, &master);
  g_autoptr (GHashTable) object_index = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GPtrArray) objects = g_ptr_array_new ();
  for (guint i = 0; i < n_shown; i++)
    {
      const char *object = cg_graph_function_object (g, functions[i]); /* interned: one pointer per string */
      if (!g_hash_table_contains (object_index, object))
        {
          g_hash_table_insert (object_index, (gpointer) object, GUINT_TO_POINTER (objects->len));
          g_ptr_array_add (objects, (gpointer) object);
        }
    }
  /* line numbers of the nodes plus one, for their children's parent
   * field (zeroed: only the shown nodes' pages are touched) */
  g_autofree guint32 *line_of = g_new0 (guint32, MAX (cg_display_tree_node_bound (t), 1));
  for (guint i = 0; i < n_lines; i++)
    line_of[cg_tree_view_line (v, i)->node] = i + 1;

  CgXmlWriter *xw = cg_xml_writer_new (stream, name, error);
  if (xw == NULL)
    return FALSE;
  g_autoptr (GString) scratch = g_string_new (NULL);
  write_head (xw, v, p, costs, o, scratch);

  cg_xml_writer_start (xw, "objects");
  for (guint i = 0; i < objects->len; i++)
    {
      cg_xml_writer_start (xw, "object");
      cg_xml_writer_attr_uint (xw, "id", i);
      cg_xml_writer_attr (xw, "name", g_ptr_array_index (objects, i));
      cg_xml_writer_end (xw);
    }
  cg_xml_writer_end (xw);

  g_autoptr (GString) text = g_string_sized_new (ROWS_BYTES + 4096);
  /* NAME OBJECT SELF TOTAL ESTIMATED CYCLE MASTER */
  Rows rows = { xw, "function-rows", text };
  cg_xml_writer_start (xw, "functions");
  for (guint i = 0; i < n_shown && !cg_xml_writer_failed (xw); i++)
    {
      CgFunctionId f = functions[i];
      gsize start = row_begin (&rows);
      append_escaped (text, cg_graph_function_name (g, f));
      g_string_append_printf (text, "\t%u\t",
                              GPOINTER_TO_UINT (g_hash_table_lookup (object_index, cg_graph_function_object (g, f))));
      cg_value_append (text, self_kind, cg_graph_self_const (g, f)[event]);
      g_string_append_c (text, '\t');
      cg_value_append (text, kind, cg_costs_total_const (costs, f)[event]);
      g_string_append (text, cg_costs_total_is_estimated (costs, f) ? "\t~\t" : "\t\t");
      guint k = cycles ? cg_cycles_cycle_of (cycles, f) : 0;
      if (k)
        g_string_append_printf (text, "%u", k);
      g_string_append_c (text, '\t');
      if (master[i] != G_MAXUINT32)
        g_string_append_printf (text, "%u", master[i]);
      row_end (&rows, start);
    }
  rows_flush (&rows);
  cg_xml_writer_end (xw);

  /* PARENT FUNCTION CALLS VALUE KIND ESTIMATED */
  rows.element = "node-rows";
  cg_xml_writer_start (xw, "nodes");
  for (guint i = 0; i < n_lines && !cg_xml_writer_failed (xw); i++)
    {
      CgNodeId n = cg_tree_view_line (v, i)->node;
      CgNodeId parent = cg_display_tree_parent (t, n);
      CgArcId a = cg_display_tree_arc (t, n);
      gsize start = row_begin (&rows);
      /* the view shows whole paths from the roots, so the parent of a
       * shown node is shown, on an earlier line */
      if (parent != CG_NO_ID)
        {
          g_assert (line_of[parent] > 0 && line_of[parent] <= i);
          g_string_append_printf (text, "%u", line_of[parent] - 1);
        }
      g_string_append_printf (text, "\t%u\t", dense[cg_display_tree_function (t, n)]);
      /* sources without call counts (sampled stacks) leave calls empty */
      if (a != CG_NO_ID && has_calls)
        g_string_append_printf (text, "%" G_GUINT64_FORMAT, cg_graph_arc_calls (g, a));
      g_string_append_c (text, '\t');
      cg_value_append (text, kind, cg_tree_view_value (v, n));
      g_string_append (text, cg_display_tree_is_master (t, n) ? "\tmaster" : "\tlink");
      if (cg_tree_view_estimated (v, n))
        g_string_append (text, "\t~");
      row_end (&rows, start);
    }
  rows_flush (&rows);
  cg_xml_writer_end (xw);
  return cg_xml_writer_finish (xw, error);
}
