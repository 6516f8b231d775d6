/* cg-read-v8.c — V8's CPU profile into the call tree and the graph.
 *
 * Steps: parse (json-glib, after cg-json-lex's check); index the nodes
 * by id and link each child to its one parent; walk the tree from its
 * roots with an explicit stack, making one frame per node (a node its
 * own ancestor is never reached from a root, and is found by following
 * parents from a node the walk missed); charge the samples.
 */
#include "config.h"

#include "cg-read-v8.h"

#include <json-glib/json-glib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cg-error.h"
#include "cg-json-lex.h"
#include "cg-v8-names.h"
#include "cg-v8-times.h"

/* V8's profile nests four deep: anything past this is no profile, and
 * json-glib would recurse into it */
#define MAX_DEPTH 64
/* JavaScript's numbers are doubles: V8 writes no integer beyond 2^53 */
#define MAX_SAFE_INTEGER G_GINT64_CONSTANT (9007199254740991)

typedef struct {
  JsonObject *object;
  gboolean visited;
  guint32 parent;      /* index + 1; 0: none */
  guint32 first_child; /* into Reader.children */
  guint32 n_children;
  CgFrameId frame;     /* CG_NO_ID: the artificial "(root)" */
} Node;

typedef struct {
  CgProfile *profile;
  CgGraph *graph;
  CgTree *tree;
  const char *name;
  JsonArray *nodes_array;
  Node *nodes;
  guint32 n_nodes;
  GHashTable *ids;  /* gint64 id -> index + 1 */
  GArray *children; /* guint32 node index */
  guint wall, samples;
  CgFrameId root_frame; /* a sample of "(root)" itself: its frame, made then */
} Reader;

static gboolean G_GNUC_PRINTF (3, 4)
fail (Reader *r, GError **error, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  g_autofree char *message = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, CG_ERROR, CG_ERROR_PARSE, "%s: %s", r->name, message);
  return FALSE;
}

static gboolean
overflow (Reader *r, GError **error, const char *what)
{
  g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s: %s", r->name, what);
  return FALSE;
}

/* json-glib's "<data>:LINE:COLUMN: Parse error: REASON" as "NAME:LINE:COLUMN:
 * not JSON: REASON". */
static void
parse_error (Reader *r, const GError *json, GError **error)
{
  unsigned long line, column;
  int end = 0;
  const char *reason = json->message;
  if (sscanf (json->message, "<data>:%lu:%lu: %n", &line, &column, &end) == 2 && end > 0)
    {
      reason = json->message + end;
      if (g_str_has_prefix (reason, "Parse error: "))
        reason += strlen ("Parse error: ");
      g_set_error (error, CG_ERROR, CG_ERROR_PARSE, "%s:%lu:%lu: not JSON: %s", r->name, line, column, reason);
    }
  else
    g_set_error (error, CG_ERROR, CG_ERROR_PARSE, "%s: not JSON: %s", r->name, reason);
}

/* The 1-based line and byte column of @offset in @data. */
static void
position_of (const char *data, gsize offset, guint64 *line, guint64 *column)
{
  gsize start = 0;
  *line = 1;
  for (gsize i = 0; i < offset; i++)
    if (data[i] == '\n')
      ++*line, start = i + 1;
  *column = offset - start + 1;
}

/* An integer: JSON's number with no fraction, within JavaScript's safe
 * integers (one past 64 bits, which json-glib would read wrong, was
 * refused before parsing: cg-json-lex.h). */
static gboolean
integer (JsonNode *node, gint64 *value)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  GType type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    *value = json_node_get_int (node);
  else if (type == G_TYPE_DOUBLE)
    {
      gdouble d = json_node_get_double (node);
      if (!(d >= (gdouble) -MAX_SAFE_INTEGER && d <= (gdouble) MAX_SAFE_INTEGER) || d != (gdouble) (gint64) d)
        return FALSE;
      *value = (gint64) d;
    }
  else
    return FALSE;
  return *value >= -MAX_SAFE_INTEGER && *value <= MAX_SAFE_INTEGER;
}

/* The array member @key of @o, or NULL with the error set. */
static JsonArray *
array_member (Reader *r, JsonObject *o, const char *path, const char *key, GError **error)
{
  JsonNode *node = json_object_get_member (o, key);
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      fail (r, error, "%s%s%s: %s", path, *path ? "." : "", key, node ? "expected an array" : "missing");
      return NULL;
    }
  return json_node_get_array (node);
}

static gboolean
integer_member (Reader *r, JsonObject *o, const char *path, const char *key, gint64 *value, GError **error)
{
  JsonNode *node = json_object_get_member (o, key);
  if (!integer (node, value))
    return fail (r, error, "%s%s%s: %s", path, *path ? "." : "", key,
                 node ? "expected an integer (within 2^53, as JavaScript's numbers)" : "missing");
  return TRUE;
}

/* Indexes the nodes by id and checks each is an object with a callFrame. */
static gboolean
index_nodes (Reader *r, GError **error)
{
  guint n = json_array_get_length (r->nodes_array);
  if (n >= G_MAXUINT32)
    return overflow (r, error, "more than 2^32-2 nodes");
  r->n_nodes = n;
  r->nodes = g_new0 (Node, n);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (r->nodes_array, i);
      char path[32];
      g_snprintf (path, sizeof path, "nodes[%u]", i);
      if (!JSON_NODE_HOLDS_OBJECT (element))
        return fail (r, error, "%s: expected an object", path);
      JsonObject *o = json_node_get_object (element);
      r->nodes[i].object = o;
      gint64 id;
      if (!integer_member (r, o, path, "id", &id, error))
        return FALSE;
      if (id < 0)
        return fail (r, error, "%s.id: %" G_GINT64_FORMAT " is negative (V8 numbers its nodes from 1)", path, id);
      gpointer before = g_hash_table_lookup (r->ids, &id);
      if (before)
        return fail (r, error, "%s.id: %" G_GINT64_FORMAT " is nodes[%u]'s id too", path, id,
                     GPOINTER_TO_UINT (before) - 1);
      gint64 *key = g_new (gint64, 1);
      *key = id;
      g_hash_table_insert (r->ids, key, GUINT_TO_POINTER (i + 1));
    }
  return TRUE;
}

/* The index of the node of @id_node's id, or -1 with the error set,
 * naming the JSON path that @path_format gives (formatted on error only:
 * a profile has millions of samples). */
static gint64 G_GNUC_PRINTF (4, 5)
node_of (Reader *r, JsonNode *id_node, GError **error, const char *path_format, ...)
{
  gint64 id;
  gpointer found = NULL;
  gboolean is_integer = integer (id_node, &id);
  if (is_integer && (found = g_hash_table_lookup (r->ids, &id)) != NULL)
    return (gint64) GPOINTER_TO_UINT (found) - 1;
  va_list ap;
  va_start (ap, path_format);
  g_autofree char *path = g_strdup_vprintf (path_format, ap);
  va_end (ap);
  if (!is_integer)
    fail (r, error, "%s: expected a node id (an integer)", path);
  else
    fail (r, error, "%s: no node has the id %" G_GINT64_FORMAT, path, id);
  return -1;
}

/* Gives each node its children and each child its one parent. */
static gboolean
link_children (Reader *r, GError **error)
{
  for (guint32 i = 0; i < r->n_nodes; i++)
    {
      JsonNode *member = json_object_get_member (r->nodes[i].object, "children");
      if (member == NULL || JSON_NODE_HOLDS_NULL (member))
        continue;
      if (!JSON_NODE_HOLDS_ARRAY (member))
        return fail (r, error, "nodes[%u].children: expected an array of node ids", i);
      JsonArray *kids = json_node_get_array (member);
      guint n = json_array_get_length (kids);
      r->nodes[i].first_child = r->children->len;
      r->nodes[i].n_children = n;
      for (guint k = 0; k < n; k++)
        {
          gint64 j = node_of (r, json_array_get_element (kids, k), error, "nodes[%u].children[%u]", i, k);
          if (j < 0)
            return FALSE;
          Node *child = &r->nodes[j];
          if (child->parent != 0)
            return fail (r, error, "nodes[%u].children[%u]: nodes[%" G_GINT64_FORMAT "] is a child of nodes[%u]"
                         " already (a call tree gives each node one parent, once)", i, k, j, child->parent - 1);
          child->parent = i + 1;
          guint32 c = (guint32) j;
          g_array_append_val (r->children, c);
        }
    }
  return TRUE;
}

/* Whether node @i is V8's artificial root, which is no function. */
static gboolean
artificial_root (Reader *r, CgV8Names *names, guint32 i)
{
  return r->nodes[i].parent == 0 && strcmp (cg_v8_names_raw (names, i), "(root)") == 0;
}

/* Makes the frame of node @i under its parent's. */
static gboolean
make_frame (Reader *r, CgV8Names *names, guint32 i, GError **error)
{
  Node *x = &r->nodes[i];
  x->frame = CG_NO_ID;
  if (artificial_root (r, names, i))
    return TRUE;
  CgFunctionId f = cg_v8_names_function (names, i);
  if (f == CG_NO_ID)
    return overflow (r, error, "more than 2^32-1 functions");
  CgFrameId parent = x->parent ? r->nodes[x->parent - 1].frame : CG_NO_ID;
  guint before = cg_tree_n_frames (r->tree);
  x->frame = cg_tree_ensure_child (r->tree, parent, f);
  if (x->frame == CG_NO_ID)
    return overflow (r, error, "more than 2^32-2 frames in the call tree");
  /* each tree edge is made once: its arc (Kaes's E_t) with it */
  if (cg_tree_n_frames (r->tree) != before && parent != CG_NO_ID
      && cg_graph_ensure_arc (r->graph, cg_tree_function (r->tree, parent), f) == CG_NO_ID)
    return overflow (r, error, "more than 2^32-1 arcs");
  return TRUE;
}

/* Walks the tree from its roots, parents before children, making the
 * frames; a node no walk reaches lies on or under a cycle of children. */
static gboolean
make_frames (Reader *r, CgV8Names *names, GError **error)
{
  GArray *stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 visited = 0;
  gboolean ok = TRUE;
  for (guint32 root = 0; ok && root < r->n_nodes; root++)
    {
      if (r->nodes[root].parent != 0)
        continue;
      g_array_append_val (stack, root);
      while (ok && stack->len > 0)
        {
          guint32 i = g_array_index (stack, guint32, stack->len - 1);
          g_array_set_size (stack, stack->len - 1);
          visited++;
          r->nodes[i].visited = TRUE;
          ok = make_frame (r, names, i, error);
          /* pushed last first, so that children are made in their order */
          for (guint32 k = r->nodes[i].n_children; ok && k > 0; k--)
            g_array_append_val (stack, g_array_index (r->children, guint32, r->nodes[i].first_child + k - 1));
        }
    }
  g_array_unref (stack);
  if (!ok || visited == r->n_nodes)
    return ok;
  /* every node the walk missed has a parent: following parents n times
   * from one ends on the cycle */
  guint32 i = 0;
  while (r->nodes[i].visited)
    i++;
  for (guint32 step = 0; step < r->n_nodes; step++)
    i = r->nodes[i].parent - 1;
  gint64 id;
  integer (json_object_get_member (r->nodes[i].object, "id"), &id);
  return fail (r, error, "nodes[%u] (id %" G_GINT64_FORMAT ") is its own ancestor: the children lists form a"
               " cycle, which no call tree has", i, id);
}

/* The frame a sample of node @i is charged to. */
static CgFrameId
sample_frame (Reader *r, CgV8Names *names, guint32 i)
{
  if (r->nodes[i].frame != CG_NO_ID)
    return r->nodes[i].frame;
  if (r->root_frame == CG_NO_ID)
    {
      CgFunctionId f = cg_v8_names_function (names, i);
      r->root_frame = f == CG_NO_ID ? CG_NO_ID : cg_tree_ensure_child (r->tree, CG_NO_ID, f);
    }
  return r->root_frame;
}

static gboolean
charge (Reader *r, CgFrameId frame, guint64 ns, GError **error)
{
  CgFunctionId f = cg_tree_function (r->tree, frame);
  CgValue *tree_self = cg_tree_self (r->tree, frame), *graph_self = cg_graph_self (r->graph, f);
  CgValue one = { .n = 1 }, time = { .n = ns };
  if (!cg_value_add (CG_KIND_INTEGER, &tree_self[r->wall], time)
      || !cg_value_add (CG_KIND_INTEGER, &tree_self[r->samples], one)
      || !cg_value_add (CG_KIND_INTEGER, &graph_self[r->wall], time)
      || !cg_value_add (CG_KIND_INTEGER, &graph_self[r->samples], one))
    return overflow (r, error, "a cost exceeds the range of 64-bit counters");
  return TRUE;
}

/* Charges each sample its time (cg-v8-times.h) and a count. */
static gboolean
charge_samples (Reader *r, JsonObject *top, CgV8Names *names, GError **error)
{
  JsonArray *samples = array_member (r, top, "", "samples", error);
  JsonArray *deltas = samples ? array_member (r, top, "", "timeDeltas", error) : NULL;
  gint64 start, end;
  if (deltas == NULL || !integer_member (r, top, "", "startTime", &start, error)
      || !integer_member (r, top, "", "endTime", &end, error))
    return FALSE;
  guint n = json_array_get_length (samples);
  if (json_array_get_length (deltas) != n)
    return fail (r, error, "timeDeltas: %u deltas for %u samples (one each, as V8 writes them)",
                 json_array_get_length (deltas), n);
  gint64 *d = g_new (gint64, n);
  guint64 *ns = g_new (guint64, n);
  guint32 *which = g_new (guint32, n);
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < n; i++)
    {
      gint64 j = node_of (r, json_array_get_element (samples, i), error, "samples[%u]", i);
      ok = j >= 0;
      which[i] = (guint32) j;
      if (ok && !integer (json_array_get_element (deltas, i), &d[i]))
        ok = fail (r, error, "timeDeltas[%u]: expected an integer (microseconds, within 2^53)", i);
    }
  ok = ok && cg_v8_sample_times (r->name, d, n, start, end, ns, error);
  gdouble sampled = 0;
  for (guint i = 0; ok && i < n; i++)
    {
      CgFrameId frame = sample_frame (r, names, which[i]);
      ok = frame != CG_NO_ID ? charge (r, frame, ns[i], error)
                             : overflow (r, error, "more than 2^32-2 frames in the call tree");
      sampled += (gdouble) ns[i];
    }
  /* the samples behind both events, for the noise of differences */
  if (ok && n > 0)
    {
      cg_graph_add_event_samples (r->graph, r->wall, n, sampled);
      cg_graph_add_event_samples (r->graph, r->samples, n, (gdouble) n);
    }
  g_free (d);
  g_free (ns);
  g_free (which);
  return ok;
}

static gboolean
read_profile (Reader *r, JsonNode *root, GError **error)
{
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return fail (r, error, "expected a JSON object (a V8 CPU profile: nodes, startTime, endTime, samples,"
                 " timeDeltas)");
  JsonObject *top = json_node_get_object (root);
  r->nodes_array = array_member (r, top, "", "nodes", error);
  if (r->nodes_array == NULL || !index_nodes (r, error) || !link_children (r, error))
    return FALSE;
  g_autoptr (CgV8Names) names = NULL;
  if (!cg_v8_names_new (r->graph, r->name, r->nodes_array, &names, error))
    return FALSE;
  return make_frames (r, names, error) && charge_samples (r, top, names, error);
}

gboolean
cg_read_v8 (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error)
{
  (void) options;
  Reader r = {
    .profile = profile,
    .graph = cg_profile_graph (profile),
    .tree = cg_profile_ensure_tree (profile),
    .name = cg_input_name (input),
    .ids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
    .children = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .root_frame = CG_NO_ID,
  };
  const guint8 *data;
  gsize len;
  guint64 line, column;
  gboolean ok = cg_input_contents (input, &data, &len, error);
  const char *bad;
  if (ok && !g_utf8_validate ((const char *) data, (gssize) len, &bad))
    {
      /* json-glib says so without saying where */
      position_of ((const char *) data, (gsize) (bad - (const char *) data), &line, &column);
      g_set_error (error, CG_ERROR, CG_ERROR_PARSE, "%s:%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ": not JSON: a"
                   " byte that is not UTF-8 (JSON is UTF-8 text)", r.name, line, column);
      ok = FALSE;
    }
  CgJsonLex fault = ok ? cg_json_lex_check ((const char *) data, len, MAX_DEPTH, &line, &column) : CG_JSON_LEX_OK;
  if (fault != CG_JSON_LEX_OK)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_PARSE, "%s:%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ": %s", r.name,
                   line, column,
                   fault == CG_JSON_LEX_DEEP ? "arrays and objects nested deeper than " G_STRINGIFY (MAX_DEPTH)
                                               " (a V8 profile nests 4)"
                                             : "an integer past 64 bits (a V8 profile's numbers are below 2^53)");
      ok = FALSE;
    }
  /* the time first: DevTools shows times */
  ok = ok && cg_profile_ensure_event (profile, "wall", "ns", CG_KIND_INTEGER, &r.wall, error)
       && cg_profile_ensure_event (profile, "samples", "count", CG_KIND_INTEGER, &r.samples, error);
  JsonParser *parser = ok ? json_parser_new_immutable () : NULL;
  if (ok)
    {
      GError *json = NULL;
      if (!json_parser_load_from_data (parser, (const char *) data, (gssize) len, &json))
        {
          parse_error (&r, json, error);
          g_error_free (json);
          ok = FALSE;
        }
    }
  ok = ok && read_profile (&r, json_parser_get_root (parser), error);
  if (ok)
    cg_profile_add_source (profile, "v8", r.name, NULL, NULL);
  g_clear_object (&parser);
  g_free (r.nodes);
  g_hash_table_unref (r.ids);
  g_array_unref (r.children);
  return ok;
}
