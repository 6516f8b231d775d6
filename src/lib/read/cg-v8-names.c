/* cg-v8-names.c — nodes' callFrames as functions (cg-v8-names.h). */
#include "config.h"

#include "cg-v8-names.h"

#include "cg-elf-functions.h"
#include "cg-error.h"

#define ANONYMOUS "(anonymous)"

typedef struct {
  const char *name, *url; /* the parser's */
  gint64 line, column;    /* 0-based, -1: none */
} Frame;

/* The functions of one name in one script. */
typedef struct {
  gint64 line;             /* the first one's */
  gboolean lines_differ;   /* another is at another line */
  gboolean columns_differ; /* two are at one line */
} Group;

struct _CgV8Names {
  CgGraph *graph;
  Frame *frames;
  guint n;
  GHashTable *groups; /* "URL\x1fNAME" -> Group */
  GHashTable *lines;  /* "URL\x1fNAME\x1fLINE" -> the first one's column + 2 */
};

void
cg_v8_names_free (CgV8Names *names)
{
  if (names == NULL)
    return;
  g_free (names->frames);
  g_hash_table_unref (names->groups);
  g_hash_table_unref (names->lines);
  g_free (names);
}

/* A 0-based position member, -1 when absent or null. */
static gboolean
position (JsonObject *o, const char *key, gint64 *value)
{
  JsonNode *node = json_object_get_member (o, key);
  *value = -1;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  *value = json_node_get_int (node);
  return *value >= -1 && *value < G_MAXUINT32;
}

static const char *
string_member (JsonObject *o, const char *key)
{
  JsonNode *node = json_object_get_member (o, key);
  return node && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
           ? json_node_get_string (node) : NULL;
}

static char *
group_key (const Frame *f)
{
  return g_strconcat (f->url, "\x1f", f->name, NULL);
}

/* Notes where @f's function is, among those of its name in its script. */
static void
note (CgV8Names *names, const Frame *f)
{
  char *key = group_key (f);
  Group *g = g_hash_table_lookup (names->groups, key);
  if (g == NULL)
    {
      g = g_new (Group, 1);
      *g = (Group) { f->line, FALSE, FALSE };
      g_hash_table_insert (names->groups, g_strdup (key), g);
    }
  g->lines_differ |= f->line != g->line;
  char *line_key = g_strdup_printf ("%s\x1f%" G_GINT64_FORMAT, key, f->line);
  g_free (key);
  gpointer column = g_hash_table_lookup (names->lines, line_key);
  if (column == NULL)
    g_hash_table_insert (names->lines, line_key, GSIZE_TO_POINTER ((gsize) (f->column + 2)));
  else
    {
      g->columns_differ |= GPOINTER_TO_SIZE (column) != (gsize) (f->column + 2);
      g_free (line_key);
    }
}

gboolean
cg_v8_names_new (CgGraph *graph, const char *name, JsonArray *nodes, CgV8Names **names, GError **error)
{
  g_autoptr (CgV8Names) r = g_new0 (CgV8Names, 1);
  r->graph = graph;
  r->n = json_array_get_length (nodes);
  r->frames = g_new (Frame, r->n);
  r->groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  r->lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < r->n; i++)
    {
      JsonObject *node = json_array_get_object_element (nodes, i);
      JsonNode *member = json_object_get_member (node, "callFrame");
      JsonObject *call = member && JSON_NODE_HOLDS_OBJECT (member) ? json_node_get_object (member) : NULL;
      Frame *f = &r->frames[i];
      f->name = call ? string_member (call, "functionName") : NULL;
      f->url = call ? string_member (call, "url") : NULL;
      const char *bad = call == NULL ? (member ? ": expected an object" : ": missing")
                        : f->name == NULL ? ".functionName: expected a string"
                        : f->url == NULL ? ".url: expected a string"
                        : !position (call, "lineNumber", &f->line) ? ".lineNumber: expected an integer, -1 or more"
                        : !position (call, "columnNumber", &f->column) ? ".columnNumber: expected an integer, -1 or more"
                        : NULL;
      if (bad)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_PARSE, "%s: nodes[%u].callFrame%s", name, i, bad);
          return FALSE;
        }
      note (r, f);
    }
  *names = g_steal_pointer (&r);
  return TRUE;
}

const char *
cg_v8_names_raw (const CgV8Names *names, guint i)
{
  return names->frames[i].name;
}

CgFunctionId
cg_v8_names_function (CgV8Names *names, guint i)
{
  const Frame *f = &names->frames[i];
  g_autofree char *key = group_key (f);
  const Group *g = g_hash_table_lookup (names->groups, key);
  gboolean anonymous = *f->name == '\0';
  g_autofree char *apart = NULL;
  if (g->columns_differ)
    apart = g_strdup_printf ("%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, f->line + 1, f->column + 1);
  else if (g->lines_differ || anonymous)
    apart = g_strdup_printf ("%" G_GINT64_FORMAT, f->line + 1);
  g_autofree char *object = apart ? cg_elf_apart_object (f->url, apart) : NULL;
  guint before = cg_graph_n_functions (names->graph);
  CgFunctionId id = cg_graph_ensure_function (names->graph, object ? object : f->url, anonymous ? ANONYMOUS : f->name);
  if (id != CG_NO_ID && cg_graph_n_functions (names->graph) != before && *f->url != '\0' && f->line >= 0)
    cg_graph_function_set_location (names->graph, id, f->url, (guint32) f->line + 1);
  return id;
}
