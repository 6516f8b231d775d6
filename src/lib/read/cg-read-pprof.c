/* cg-read-pprof.c — profile.proto into the call tree and the graph.
 *
 * Two passes over the bytes: the first notes where each of Profile's
 * repeated parts is (the parts refer to one another by id and may come in
 * any order), the second reads them in the order their references need:
 * strings, mappings, functions, locations, sample types, samples.
 */
#include "config.h"

#include "cg-read-pprof.h"

#include <stdarg.h>
#include <string.h>

#include "cg-elf-functions.h"
#include "cg-error.h"
#include "cg-pprof-prune.h"
#include "cg-pprof-schema.h"
#include "cg-protobuf.h"

typedef struct {
  gsize start, len;
} Span;

typedef struct {
  guint64 id;
  gsize filename;        /* string index */
  guint32 object;        /* interned base name of the file */
  guint32 unknown;       /* interned "[BASE]", or G_MAXUINT32 before use */
} Mapping;

typedef struct {
  guint64 id;
  gsize name, system_name, filename; /* string indexes */
  gint64 start_line;
  char *apart; /* nullable: what tells it from Functions of its name in other files */
} Function;

/* A line of a location: its function, made in the graph when a sample
 * first uses it (a function no sample keeps is no function of the
 * profile, as in pprof). */
typedef struct {
  guint32 function; /* index into Reader.functions; G_MAXUINT32: a location without lines */
  guint32 mapping;  /* index into Reader.mappings + 1; 0: none */
  CgFunctionId id;  /* CG_NO_ID before first use */
} Frame;

/* What drop_frames does to a location (pprof's profile.Prune) */
typedef enum {
  PRUNE_NONE,
  PRUNE_BENEATH, /* an inner line matched: the frames outside it are kept */
  PRUNE_WHOLE,   /* its outermost line matched */
} Prune;

typedef struct {
  guint64 id;
  guint first, n; /* its frames in Reader.frames, the innermost first */
  Prune prune;
} Location;

typedef struct {
  CgProfile *profile;
  CgGraph *graph;
  CgTree *tree;
  const CgReadOptions *options;
  const char *name;
  const guint8 *data;
  /* pass 1: where the parts are */
  GArray *strings;      /* Span */
  GArray *parts[CG_PPROF_STRING_TABLE]; /* Span per Profile field 1..5 */
  guint64 drop_frames, keep_frames, default_type;
  gsize drop_at;
  CgPprofPrune *prune;  /* nullable: drop_frames compiled */
  gint8 *drops;         /* per Function: -1 not known yet, else whether drop_frames drops it */
  /* pass 2 */
  guint32 *interned;    /* per string: its id in the graph, G_MAXUINT32 before use */
  Mapping *mappings;
  Function *functions;
  guint n_functions;
  Location *locations;
  GHashTable *mapping_ids, *function_ids, *location_ids; /* &id -> index + 1 */
  GArray *frames;       /* Frame */
  guint n_types;
  guint *events;        /* per sample value: its event */
  /* the samples behind the events (cg_graph_add_event_samples): a CPU
   * profile's sample type "samples" (count), and per type its sum and
   * whether it is a time, which those samples measured */
  guint samples_type;   /* G_MAXUINT: none */
  guint64 *sums;
  gboolean *timed;
  gboolean sums_wrapped;
  /* one sample's, reused */
  GArray *stack;        /* location index per location_id, the leaf first */
  GArray *values;       /* guint64 */
} Reader;

static gboolean G_GNUC_PRINTF (4, 5)
fail (Reader *r, GError **error, gsize offset, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  cg_read_failv (error, CG_ERROR_PARSE, r->name, CG_AT_OFFSET, offset, format, ap);
  va_end (ap);
  return FALSE;
}

static gboolean
overflow (Reader *r, GError **error, gsize offset, const char *what)
{
  return cg_read_fail (error, CG_ERROR_OVERFLOW, r->name, CG_AT_OFFSET, offset, "%s", what);
}

/* ---- detection ---- */

/* Whether @c's bytes are fields of @message (a payload the window cut,
 * @cut: checked as far as it goes).  Descends into sub-messages: as deep
 * as the schema, three levels, whatever the data. */
static gboolean
detect_message (CgPbCursor c, CgPprofMessage message, gboolean cut)
{
  CgPbField f;
  int s;
  while ((s = cg_pb_next_quiet (&c, &f)) != 0)
    {
      if (s == -1 || (s < -1 && !cut))
        return FALSE;
      if (s == -2 && f.number == 0)
        return TRUE;
      CgPprofMessage sub;
      CgPprofKind kind = cg_pprof_field_kind (message, f.number, &sub);
      /* a field profile.proto does not define is a varint, as every field
       * added to it so far (Line.column, Location.is_folded): text parsed
       * as protocol buffers is fields of any wire type */
      if (!cg_pprof_wire_fits (kind, f.wire) || (kind == CG_PPROF_UNKNOWN && f.wire != CG_PB_VARINT))
        return FALSE;
      if (s == -2)
        return TRUE;
      if (kind == CG_PPROF_MESSAGE && !detect_message (cg_pb_sub (&c, &f, NULL, 0), sub, s == -3))
        return FALSE;
      if (s == -3)
        return TRUE;
    }
  return TRUE;
}

gboolean
cg_pprof_detect (const guint8 *data, gsize len, gboolean complete)
{
  CgPbCursor c = cg_pb_cursor (data, len, NULL, NULL);
  gboolean strings = FALSE, types = FALSE;
  guint whole = 0;
  CgPbField f;
  int s;
  while ((s = cg_pb_next_quiet (&c, &f)) != 0)
    {
      /* a profile damaged or cut short after its first parts showed it
       * (a whole sample_type and two more parts): its reader names the
       * offset, where "unknown input format" would not */
      gboolean shown = types && whole >= 3;
      /* a window cut after a whole part (writers put sample_type, a few
       * bytes, first) */
      gboolean cut_ok = complete ? shown : whole > 0;
      if (s == -1)
        return shown;
      if (s == -2 && f.number == 0)
        return cut_ok;
      CgPprofMessage sub;
      CgPprofKind kind = cg_pprof_field_kind (CG_PPROF_PROFILE, f.number, &sub);
      if (kind == CG_PPROF_UNKNOWN || !cg_pprof_wire_fits (kind, f.wire))
        return shown;
      if (s == -2)
        return cut_ok;
      if (f.number == CG_PPROF_STRING_TABLE && !strings)
        {
          strings = TRUE;
          if ((s == -3 ? f.value : f.len) != 0)
            return FALSE; /* string_table[0] must be "" */
        }
      if (kind == CG_PPROF_MESSAGE && !detect_message (cg_pb_sub (&c, &f, NULL, 0), sub, s == -3))
        return shown;
      if (s == -3)
        return cut_ok;
      whole += kind == CG_PPROF_MESSAGE || kind == CG_PPROF_BYTES;
      types |= f.number == CG_PPROF_SAMPLE_TYPE;
    }
  return whole > 0;
}

/* ---- fields ---- */

/* The next field of @c that @message defines, its wire type checked;
 * fields it does not define are skipped (newer versions of profile.proto
 * add some).  FALSE at the end, or with *@error set. */
static gboolean
next_known (CgPbCursor *c, CgPprofMessage message, CgPbField *f, GError **error)
{
  while (cg_pb_next (c, f, error))
    {
      CgPprofKind kind = cg_pprof_field_kind (message, f->number, NULL);
      if (kind == CG_PPROF_UNKNOWN)
        continue;
      if (cg_pprof_wire_fits (kind, f->wire))
        return TRUE;
      CgPbWire want = kind == CG_PPROF_VARINT || kind == CG_PPROF_VARINTS ? CG_PB_VARINT : CG_PB_LEN;
      cg_pb_expect (c, f, want, cg_pprof_field_name (message, f->number), error);
      return FALSE;
    }
  return FALSE;
}

static const char *
namer (guint kind, guint32 number)
{
  const char *name = cg_pprof_field_name ((CgPprofMessage) kind, number);
  return strcmp (name, "unknown") == 0 ? NULL : name;
}

static CgPbCursor
sub_cursor (Reader *r, Span span, CgPprofMessage message)
{
  CgPbCursor c = cg_pb_cursor (r->data, span.start + span.len, r->name, cg_pprof_message_name (message));
  c.pos = span.start;
  c.namer = namer;
  c.kind = message;
  return c;
}

/* Checks that field @f of @c (@what) is an index into the string table,
 * into *@index. */
static gboolean
string_index (Reader *r, const CgPbCursor *c, const CgPbField *f, const char *what, gsize *index, GError **error)
{
  gint64 v = cg_pb_int64 (f->value);
  /* 0 is "" even where the table is empty (nothing refers to a string) */
  if (v != 0 && (v < 0 || (guint64) v >= r->strings->len))
    return fail (r, error, f->at, "%s's %s: string index %" G_GINT64_FORMAT " outside the string table"
                 " (expected 0 to %u)", c->message, what, v, r->strings->len == 0 ? 0 : r->strings->len - 1);
  *index = (gsize) v;
  return TRUE;
}

static Span
string_span (Reader *r, gsize index)
{
  return index < r->strings->len ? g_array_index (r->strings, Span, index) : (Span) { 0, 0 };
}

/* The graph's id of string @index (interned once). */
static guint32
intern (Reader *r, gsize index)
{
  if (index >= r->strings->len)
    return cg_graph_intern_id (r->graph, "", 0);
  if (r->interned[index] == G_MAXUINT32)
    {
      Span s = string_span (r, index);
      r->interned[index] = cg_graph_intern_id (r->graph, (const char *) r->data + s.start, (gssize) s.len);
    }
  return r->interned[index];
}

/* Checks that @id (of @what, read at @at) is not 0, and adds it to @ids
 * (keys point to @key, which must stay put) for @index. */
static gboolean
add_id (Reader *r, GHashTable *ids, guint64 *key, guint index, const char *what, gsize at, GError **error)
{
  if (*key == 0)
    return fail (r, error, at, "a %s without an id, or id 0 (expected a unique nonzero id)", what);
  if (g_hash_table_contains (ids, key))
    return fail (r, error, at, "%s id %" G_GUINT64_FORMAT " repeated (expected each %s's id once)", what, *key,
                 what);
  g_hash_table_insert (ids, key, GUINT_TO_POINTER (index + 1));
  return TRUE;
}

/* The index of the part with id @id in @ids; error (at @at) when none has it. */
static gboolean
find_id (Reader *r, GHashTable *ids, guint64 id, const char *what, const char *referrer, gsize at, guint *index,
         GError **error)
{
  gpointer v = g_hash_table_lookup (ids, &id);
  if (v == NULL)
    return fail (r, error, at, "%s refers to %s id %" G_GUINT64_FORMAT ", which no %s has", referrer, what, id,
                 what);
  *index = GPOINTER_TO_UINT (v) - 1;
  return TRUE;
}

/* ---- pass 1: Profile's fields ---- */

static gboolean
scan_profile (Reader *r, gsize len, GError **error)
{
  CgPbCursor c = cg_pb_cursor (r->data, len, r->name, "Profile");
  c.namer = namer;
  c.kind = CG_PPROF_PROFILE;
  CgPbField f;
  while (next_known (&c, CG_PPROF_PROFILE, &f, error))
    {
      Span span = { f.start, f.len };
      switch (f.number)
        {
        case CG_PPROF_SAMPLE_TYPE:
        case CG_PPROF_SAMPLES:
        case CG_PPROF_MAPPINGS:
        case CG_PPROF_LOCATIONS:
        case CG_PPROF_FUNCTIONS:
          g_array_append_val (r->parts[f.number], span);
          break;
        case CG_PPROF_STRING_TABLE:
          if (r->strings->len == 0 && f.len != 0)
            return fail (r, error, f.at, "string_table[0] is not empty (expected \"\", as profile.proto says)");
          g_array_append_val (r->strings, span);
          break;
        case CG_PPROF_DROP_FRAMES:
          r->drop_frames = f.value;
          r->drop_at = f.at;
          break;
        case CG_PPROF_KEEP_FRAMES:
          r->keep_frames = f.value;
          break;
        case CG_PPROF_DEFAULT_SAMPLE_TYPE:
          r->default_type = f.value;
          break;
        default:
          break;
        }
    }
  return *error == NULL;
}

/* The references of Profile's own fields to the string table, checked
 * once the table is known: pprof refuses a profile with one outside it. */
static gboolean
check_profile_strings (Reader *r, gsize len, GError **error)
{
  CgPbCursor c = cg_pb_cursor (r->data, len, r->name, "Profile");
  c.namer = namer;
  c.kind = CG_PPROF_PROFILE;
  CgPbField f;
  gsize index;
  while (next_known (&c, CG_PPROF_PROFILE, &f, error))
    {
      const char *what = cg_pprof_field_name (CG_PPROF_PROFILE, f.number);
      if ((f.number == CG_PPROF_DROP_FRAMES || f.number == CG_PPROF_KEEP_FRAMES
           || f.number == CG_PPROF_DEFAULT_SAMPLE_TYPE)
          && !string_index (r, &c, &f, what, &index, error))
        return FALSE;
      if (f.number == CG_PPROF_COMMENT)
        {
          CgPbVarints values;
          guint64 v;
          if (!cg_pb_varints (&c, &f, what, &values, error))
            return FALSE;
          while (cg_pb_varints_next (&values, &v, error))
            {
              CgPbField one = f;
              one.value = v;
              if (!string_index (r, &c, &one, what, &index, error))
                return FALSE;
            }
          if (*error)
            return FALSE;
        }
    }
  return *error == NULL;
}

/* ---- pass 2: the parts ---- */

static gboolean
read_mappings (Reader *r, GError **error)
{
  GArray *spans = r->parts[CG_PPROF_MAPPINGS];
  r->mappings = g_new0 (Mapping, spans->len);
  for (guint i = 0; i < spans->len; i++)
    {
      Span span = g_array_index (spans, Span, i);
      CgPbCursor c = sub_cursor (r, span, CG_PPROF_MAPPING);
      Mapping *m = &r->mappings[i];
      CgPbField f;
      while (next_known (&c, CG_PPROF_MAPPING, &f, error))
        if (f.number == 1)
          m->id = f.value;
        else if (f.number == 5 && !string_index (r, &c, &f, "filename", &m->filename, error))
          return FALSE;
      if (*error || !add_id (r, r->mapping_ids, &m->id, i, "Mapping", span.start, error))
        return FALSE;
      /* the base name: go test runs its binary from a new temporary
       * directory each time, and two runs' functions are one */
      Span name = string_span (r, m->filename);
      g_autofree char *path = g_strndup ((const char *) r->data + name.start, name.len);
      g_autofree char *base = g_path_get_basename (path);
      m->object = name.len ? cg_graph_intern_id (r->graph, base, -1) : cg_graph_intern_id (r->graph, "", 0);
      m->unknown = G_MAXUINT32;
    }
  return TRUE;
}

/* The text of string @index, newly allocated. */
static char *
string_dup (Reader *r, gsize index)
{
  Span s = string_span (r, index);
  return g_strndup ((const char *) r->data + s.start, s.len);
}

/* The name a Function is shown by: its name, else its system name. */
static gsize
shown_name (Reader *r, const Function *fn)
{
  return string_span (r, fn->name).len > 0 ? fn->name : fn->system_name;
}

/* Functions of one name in different source files (two files' static
 * helper) are different functions, as pprof -filefunctions lists them
 * (its default granularity, -functions, sums them by name alone, and
 * their call graph with them): each gets the base name
 * of its file, or the whole file name where another file of the name has
 * that base name, to name its object apart (cg_elf_apart_object, as the
 * readers of ELF programs' profiles do).  Functions of one name and one
 * file stay one function. */
static void
mark_apart (Reader *r, guint n)
{
  /* name -> its first file (a string), or "\n" once a second differs */
  g_autoptr (GHashTable) files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; i < n; i++)
    {
      const Function *fn = &r->functions[i];
      char *name = string_dup (r, shown_name (r, fn));
      char *file = string_dup (r, fn->filename);
      const char *first = g_hash_table_lookup (files, name);
      if (first == NULL)
        g_hash_table_insert (files, name, file);
      else
        {
          if (strcmp (first, file) != 0)
            g_hash_table_insert (files, g_strdup (name), g_strdup ("\n"));
          g_free (name);
          g_free (file);
        }
    }
  /* (name, base name) -> how many files of the name have it */
  g_autoptr (GHashTable) bases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < n; i++)
      {
        Function *fn = &r->functions[i];
        g_autofree char *name = string_dup (r, shown_name (r, fn));
        if (strcmp (g_hash_table_lookup (files, name), "\n") != 0)
          continue;
        g_autofree char *file = string_dup (r, fn->filename);
        g_autofree char *base = g_path_get_basename (file);
        char *key = g_strconcat (name, "\n", base, NULL);
        if (pass == 0)
          {
            char *whole = g_strconcat (name, "\n", file, NULL);
            if (g_hash_table_add (seen, whole))
              g_hash_table_insert (bases, g_strdup (key),
                                   GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (bases, key)) + 1));
          }
        else
          fn->apart = g_strdup (*file == '\0' ? "?" : GPOINTER_TO_UINT (g_hash_table_lookup (bases, key)) == 1 ? base : file);
        g_free (key);
      }
}

static gboolean
read_functions (Reader *r, GError **error)
{
  static const char *const what[] = { NULL, NULL, "name", "system_name", "filename" };
  GArray *spans = r->parts[CG_PPROF_FUNCTIONS];
  r->functions = g_new0 (Function, spans->len);
  r->n_functions = spans->len;
  for (guint i = 0; i < spans->len; i++)
    {
      Span span = g_array_index (spans, Span, i);
      CgPbCursor c = sub_cursor (r, span, CG_PPROF_FUNCTION);
      Function *fn = &r->functions[i];
      gsize *index[] = { NULL, NULL, &fn->name, &fn->system_name, &fn->filename };
      CgPbField f;
      while (next_known (&c, CG_PPROF_FUNCTION, &f, error))
        if (f.number == 1)
          fn->id = f.value;
        else if (f.number >= 2 && f.number <= 4 && !string_index (r, &c, &f, what[f.number], index[f.number], error))
          return FALSE;
        else if (f.number == 5)
          fn->start_line = cg_pb_int64 (f.value);
      if (*error || !add_id (r, r->function_ids, &fn->id, i, "Function", span.start, error))
        return FALSE;
    }
  r->drops = g_new (gint8, MAX (spans->len, 1));
  memset (r->drops, -1, MAX (spans->len, 1));
  mark_apart (r, spans->len);
  return TRUE;
}

/* The graph's function for pprof's Function @fn in a location of the
 * mapping @m (nullable). */
static CgFunctionId
graph_function (Reader *r, const Function *fn, const Mapping *m)
{
  gsize name = shown_name (r, fn);
  guint32 object = m ? m->object : 0;
  if (fn->apart)
    {
      g_autofree char *apart = cg_elf_apart_object (cg_graph_string (r->graph, object), fn->apart);
      object = cg_graph_intern_id (r->graph, apart, -1);
    }
  guint before = cg_graph_n_functions (r->graph);
  CgFunctionId id = cg_graph_ensure_function_ids (r->graph, object, intern (r, name));
  if (id != CG_NO_ID && cg_graph_n_functions (r->graph) != before && fn->filename != 0)
    cg_graph_function_set_location_id (r->graph, id, intern (r, fn->filename),
                                       fn->start_line > 0 && fn->start_line <= G_MAXUINT32 ? (guint32) fn->start_line
                                                                                          : 0);
  return id;
}

/* The function of a location without lines, as pprof's default view
 * names it: "[BASE]" after its mapping's file, or "<unknown>". */
static CgFunctionId
unknown_function (Reader *r, Mapping *m)
{
  if (m == NULL || string_span (r, m->filename).len == 0)
    return cg_graph_ensure_function_ids (r->graph, m ? m->object : 0, cg_graph_intern_id (r->graph, "<unknown>", -1));
  if (m->unknown == G_MAXUINT32)
    {
      g_autofree char *label = g_strdup_printf ("[%s]", cg_graph_string (r->graph, m->object));
      m->unknown = cg_graph_intern_id (r->graph, label, -1);
    }
  return cg_graph_ensure_function_ids (r->graph, m->object, m->unknown);
}

/* Whether drop_frames drops Function @fi (its name, not system_name):
 * 1 or 0, or -1 with @error set when matching failed. */
static int
drops (Reader *r, guint fi, GError **error)
{
  if (r->drops[fi] < 0)
    {
      Span s = string_span (r, r->functions[fi].name);
      GError *local = NULL;
      r->drops[fi] = s.len > 0 && cg_pprof_prune_drops (r->prune, (const char *) r->data + s.start, s.len, &local);
      if (local)
        {
          g_autofree char *name = g_strndup ((const char *) r->data + s.start, MIN (s.len, 200));
          fail (r, error, r->drop_at, "drop_frames or keep_frames cannot be matched against the function name"
                " '%s': %s (GRegex's PCRE backtracks, and gives up on such an expression, where pprof's RE2 does"
                " not backtrack)",
                name, local->message);
          g_error_free (local);
          return -1;
        }
    }
  return r->drops[fi];
}

/* As pprof's profile.Prune: the outermost of a location's @n lines
 * (functions @fns, the innermost first) that drop_frames drops marks the
 * location; when it is not the outermost line, the lines inside it go.
 * Returns the index of the first line kept, or -1 with @error set. */
static gint64
prune_lines (Reader *r, Location *loc, const guint *fns, guint n, GError **error)
{
  if (r->prune == NULL)
    return 0;
  for (guint i = n; i-- > 0;)
    {
      int d = drops (r, fns[i], error);
      if (d < 0)
        return -1;
      if (d)
        {
          loc->prune = i == n - 1 ? PRUNE_WHOLE : PRUNE_BENEATH;
          return i == n - 1 ? 0 : i + 1;
        }
    }
  return 0;
}

/* Reads one Location's lines (their functions checked) into r->frames,
 * less those drop_frames drops. */
static gboolean
read_location (Reader *r, Span span, Location *loc, GError **error)
{
  CgPbCursor c = sub_cursor (r, span, CG_PPROF_LOCATION);
  guint64 mapping_id = 0;
  gsize mapping_at = 0;
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (CgPbField));
  CgPbField f;
  while (next_known (&c, CG_PPROF_LOCATION, &f, error))
    if (f.number == 1)
      loc->id = f.value;
    else if (f.number == 2)
      mapping_id = f.value, mapping_at = f.at;
    else if (f.number == 4)
      g_array_append_val (lines, f);
  guint mi = 0;
  gboolean ok = *error == NULL
                && (mapping_id == 0
                    || find_id (r, r->mapping_ids, mapping_id, "Mapping", "Location's mapping_id", mapping_at, &mi,
                                error));
  Mapping *m = ok && mapping_id ? &r->mappings[mi] : NULL;
  GArray *fns = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; ok && i < lines->len; i++)
    {
      CgPbField *lf = &g_array_index (lines, CgPbField, i);
      CgPbCursor lc = cg_pb_sub (&c, lf, "Line", CG_PPROF_LINE);
      guint64 function_id = 0;
      CgPbField g;
      while (next_known (&lc, CG_PPROF_LINE, &g, error))
        if (g.number == 1)
          function_id = g.value;
      guint fi = 0;
      ok = *error == NULL
           && find_id (r, r->function_ids, function_id, "Function", "Line's function_id", lf->at, &fi, error);
      if (ok)
        g_array_append_val (fns, fi);
    }
  gint64 start = ok ? prune_lines (r, loc, (const guint *) (gpointer) fns->data, fns->len, error) : 0;
  ok = ok && start >= 0;
  loc->first = r->frames->len;
  Frame x = { .function = G_MAXUINT32, .mapping = m ? (guint32) (m - r->mappings) + 1 : 0, .id = CG_NO_ID };
  for (guint i = (guint) MAX (start, 0); ok && i < fns->len; i++)
    {
      x.function = g_array_index (fns, guint, i);
      g_array_append_val (r->frames, x);
    }
  g_array_unref (fns);
  if (ok && lines->len == 0)
    g_array_append_val (r->frames, x);
  loc->n = r->frames->len - loc->first;
  g_array_unref (lines);
  return ok;
}

static gboolean
read_locations (Reader *r, GError **error)
{
  GArray *spans = r->parts[CG_PPROF_LOCATIONS];
  r->locations = g_new0 (Location, spans->len);
  for (guint i = 0; i < spans->len; i++)
    {
      Span span = g_array_index (spans, Span, i);
      if (!read_location (r, span, &r->locations[i], error)
          || !add_id (r, r->location_ids, &r->locations[i].id, i, "Location", span.start, error))
        return FALSE;
    }
  return TRUE;
}

/* pprof's units of time in the short forms cgtools' views convert
 * (cg_time_unit_seconds); other units as written, "count" for none. */
static const char *
event_unit (const char *unit)
{
  static const char *const times[][2] = {
    { "nanoseconds", "ns" }, { "microseconds", "us" }, { "milliseconds", "ms" }, { "seconds", "seconds" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    if (strcmp (unit, times[i][0]) == 0)
      return times[i][1];
  return *unit ? unit : "count";
}

static gboolean
same_string (Reader *r, gsize a, gsize b)
{
  Span x = string_span (r, a), y = string_span (r, b);
  return x.len == y.len && memcmp (r->data + x.start, r->data + y.start, x.len) == 0;
}

/* The events, one per sample_type: the one pprof shows by default first. */
static gboolean
read_sample_types (Reader *r, GError **error)
{
  GArray *spans = r->parts[CG_PPROF_SAMPLE_TYPE];
  r->n_types = spans->len;
  r->events = g_new0 (guint, spans->len);
  r->sums = g_new0 (guint64, spans->len);
  r->timed = g_new0 (gboolean, spans->len);
  r->samples_type = G_MAXUINT;
  g_autofree gsize *type = g_new0 (gsize, spans->len + 1);
  g_autofree gsize *unit = g_new0 (gsize, spans->len + 1);
  guint first = spans->len == 0 ? 0 : spans->len - 1;
  for (guint i = 0; i < spans->len; i++)
    {
      Span span = g_array_index (spans, Span, i);
      CgPbCursor c = sub_cursor (r, span, CG_PPROF_VALUE_TYPE);
      CgPbField f;
      while (next_known (&c, CG_PPROF_VALUE_TYPE, &f, error))
        if (!string_index (r, &c, &f, f.number == 1 ? "type" : "unit", f.number == 1 ? &type[i] : &unit[i], error))
          return FALSE;
      if (*error)
        return FALSE;
      for (guint j = 0; j < i; j++)
        if (same_string (r, type[i], type[j]))
          return fail (r, error, span.start, "sample_type %u has the type of sample_type %u (expected one value"
                       " per type)", i, j);
      if (r->default_type != 0 && same_string (r, type[i], r->default_type))
        first = i;
    }
  for (guint k = 0; k < spans->len; k++)
    {
      guint i = k == 0 ? first : k <= first ? k - 1 : k;
      Span t = string_span (r, type[i]), u = string_span (r, unit[i]);
      g_autofree char *name = t.len ? g_strndup ((const char *) r->data + t.start, t.len)
                                    : g_strdup_printf ("value%u", i);
      g_autofree char *unit_name = g_strndup ((const char *) r->data + u.start, u.len);
      if (!cg_profile_ensure_event (r->profile, name, event_unit (unit_name), CG_KIND_INTEGER, &r->events[i], error))
        return FALSE;
      r->timed[i] = cg_time_unit_seconds (event_unit (unit_name)) > 0;
      if (strcmp (name, "samples") == 0 && strcmp (event_unit (unit_name), "count") == 0)
        r->samples_type = i;
    }
  return TRUE;
}

/* A Label's string indexes, checked (pprof refuses a profile with one
 * outside the table); the label itself is not kept. */
static gboolean
check_label (Reader *r, const CgPbCursor *c, const CgPbField *field, GError **error)
{
  CgPbCursor lc = cg_pb_sub (c, field, "Label", CG_PPROF_LABEL);
  CgPbField f;
  gsize index;
  while (next_known (&lc, CG_PPROF_LABEL, &f, error))
    if (f.number != 3 && !string_index (r, &lc, &f, cg_pprof_field_name (CG_PPROF_LABEL, f.number), &index, error))
      return FALSE;
  return *error == NULL;
}

/* Reads a repeated varint field @f of @c: location ids (@ids: each
 * checked and turned into its location's index) or values (checked to be
 * no negative int64), appended to @out. */
static gboolean
read_varints (Reader *r, const CgPbCursor *c, const CgPbField *f, gboolean ids, GArray *out, GError **error)
{
  const char *what = ids ? "location_id" : "value";
  CgPbVarints values;
  guint64 v;
  if (!cg_pb_varints (c, f, what, &values, error))
    return FALSE;
  for (gsize at = values.is_single ? f->at : values.packed.pos; cg_pb_varints_next (&values, &v, error);
       at = values.is_single ? f->at : values.packed.pos)
    {
      if (ids)
        {
          guint index;
          if (!find_id (r, r->location_ids, v, "Location", "Sample's location_id", at, &index, error))
            return FALSE;
          g_array_append_val (out, index);
        }
      else if (cg_pb_int64 (v) < 0)
        return fail (r, error, at, "a negative sample value, %" G_GINT64_FORMAT " (cgtools adds costs, which are"
                     " not negative: a difference written by pprof -diff_base? give cgcost the two profiles,"
                     " --base)", cg_pb_int64 (v));
      else
        g_array_append_val (out, v);
    }
  return *error == NULL;
}

/* The index of the leafmost location of r->stack that the sample keeps:
 * as pprof's profile.Prune, from the root, past the locations drop_frames
 * marked before the first it did not, the first marked location ends the
 * stack (PRUNE_WHOLE: it goes too; PRUNE_BENEATH: its frames outside the
 * dropped line stay). */
static guint
prune_stack (Reader *r)
{
  gboolean user = FALSE;
  for (guint i = r->stack->len; r->prune && i-- > 0;)
    {
      Prune p = r->locations[g_array_index (r->stack, guint, i)].prune;
      if (p == PRUNE_NONE)
        user = TRUE;
      else if (user)
        return p == PRUNE_WHOLE ? i + 1 : i;
    }
  return 0;
}

/* The frames of the sample in r->stack, root first, into the tree; its
 * values charged to the last.  Tree edges made here get their arcs (Kaes's
 * E_t). */
static gboolean
add_sample (Reader *r, gsize at, GError **error)
{
  CgFrameId parent = CG_NO_ID;
  guint low = prune_stack (r);
  for (guint i = r->stack->len; i-- > low;)
    {
      const Location *loc = &r->locations[g_array_index (r->stack, guint, i)];
      for (guint j = loc->n; j-- > 0;)
        {
          Frame *frame = &g_array_index (r->frames, Frame, loc->first + j);
          if (frame->id == CG_NO_ID)
            {
              Mapping *m = frame->mapping ? &r->mappings[frame->mapping - 1] : NULL;
              frame->id = frame->function == G_MAXUINT32 ? unknown_function (r, m)
                                                          : graph_function (r, &r->functions[frame->function], m);
              if (frame->id == CG_NO_ID)
                return overflow (r, error, at, "more than 2^32-1 functions");
            }
          CgFunctionId fn = frame->id;
          guint before = cg_tree_n_frames (r->tree);
          CgFrameId x = cg_tree_ensure_child (r->tree, parent, fn);
          if (x == CG_NO_ID)
            return overflow (r, error, at, "more than 2^32-2 frames in the call tree");
          if (cg_tree_n_frames (r->tree) != before && parent != CG_NO_ID
              && cg_graph_ensure_arc (r->graph, cg_tree_function (r->tree, parent), fn) == CG_NO_ID)
            return overflow (r, error, at, "more than 2^32-1 arcs");
          parent = x;
        }
    }
  if (parent == CG_NO_ID)
    {
      /* a sample without locations: pprof counts it in the total only */
      CgFunctionId fn = unknown_function (r, NULL);
      if (fn == CG_NO_ID || (parent = cg_tree_ensure_child (r->tree, CG_NO_ID, fn)) == CG_NO_ID)
        return overflow (r, error, at, "more than 2^32-1 functions or frames");
    }
  CgFunctionId leaf = cg_tree_function (r->tree, parent);
  for (guint k = 0; k < r->n_types; k++)
    {
      CgValue v = { .n = g_array_index (r->values, guint64, k) };
      guint e = r->events[k];
      r->sums_wrapped |= !g_uint64_checked_add (&r->sums[k], r->sums[k], v.n);
      if (!cg_value_add (CG_KIND_INTEGER, &cg_tree_self (r->tree, parent)[e], v)
          || !cg_value_add (CG_KIND_INTEGER, &cg_graph_self (r->graph, leaf)[e], v))
        return overflow (r, error, at, "a sum of sample values exceeds the range of 64-bit counters");
    }
  return TRUE;
}

static gboolean
read_samples (Reader *r, GError **error)
{
  GArray *spans = r->parts[CG_PPROF_SAMPLES];
  for (guint i = 0; i < spans->len; i++)
    {
      Span span = g_array_index (spans, Span, i);
      CgPbCursor c = sub_cursor (r, span, CG_PPROF_SAMPLE);
      g_array_set_size (r->stack, 0);
      g_array_set_size (r->values, 0);
      CgPbField f;
      while (next_known (&c, CG_PPROF_SAMPLE, &f, error))
        if ((f.number == 1 && !read_varints (r, &c, &f, TRUE, r->stack, error))
            || (f.number == 2 && !read_varints (r, &c, &f, FALSE, r->values, error))
            || (f.number == 3 && !check_label (r, &c, &f, error)))
          return FALSE;
      if (*error)
        return FALSE;
      if (r->values->len != r->n_types)
        return fail (r, error, span.start, "a Sample with %u value%s, where the profile has %u sample_type%s"
                     " (expected one value per type)", r->values->len, r->values->len == 1 ? "" : "s",
                     r->n_types, r->n_types == 1 ? "" : "s");
      if (!add_sample (r, span.start, error))
        return FALSE;
    }
  /* a CPU profile's samples (Go's: samples in count, cpu in ns) carry
   * its times; other values (bytes, objects) are no samples' */
  guint s = r->samples_type;
  if (s != G_MAXUINT && !r->sums_wrapped && r->sums[s] > 0)
    for (guint k = 0; k < r->n_types; k++)
      if (k == s || r->timed[k])
        cg_graph_add_event_samples (r->graph, r->events[k], r->sums[s], (gdouble) r->sums[k]);
  return TRUE;
}

static void
reader_clear (Reader *r)
{
  g_array_unref (r->strings);
  for (guint i = 0; i < G_N_ELEMENTS (r->parts); i++)
    if (r->parts[i])
      g_array_unref (r->parts[i]);
  g_free (r->interned);
  g_free (r->mappings);
  for (guint i = 0; i < r->n_functions; i++)
    g_free (r->functions[i].apart);
  g_free (r->functions);
  g_free (r->drops);
  cg_pprof_prune_free (r->prune);
  g_free (r->locations);
  g_hash_table_unref (r->mapping_ids);
  g_hash_table_unref (r->function_ids);
  g_hash_table_unref (r->location_ids);
  g_array_unref (r->frames);
  g_free (r->events);
  g_free (r->sums);
  g_free (r->timed);
  g_array_unref (r->stack);
  g_array_unref (r->values);
}

/* drop_frames and keep_frames compiled, where drop_frames is set. */
static gboolean
compile_prune (Reader *r, GError **error)
{
  Span d = string_span (r, r->drop_frames), k = string_span (r, r->keep_frames);
  if (d.len == 0)
    return TRUE;
  g_autofree char *drop = g_strndup ((const char *) r->data + d.start, d.len);
  g_autofree char *keep = g_strndup ((const char *) r->data + k.start, k.len);
  GError *local = NULL;
  r->prune = cg_pprof_prune_new (drop, keep, &local);
  if (r->prune == NULL)
    {
      fail (r, error, r->drop_at, "drop_frames or keep_frames is no regular expression: %s", local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}

gboolean
cg_read_pprof (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error)
{
  static const CgReadOptions defaults = { 0 };
  const guint8 *data;
  gsize len;
  if (!cg_input_contents (input, &data, &len, error))
    return FALSE;
  Reader r = {
    .profile = profile,
    .graph = cg_profile_graph (profile),
    .tree = cg_profile_ensure_tree (profile),
    .options = options ? options : &defaults,
    .name = cg_input_name (input),
    .data = data,
    .strings = g_array_new (FALSE, FALSE, sizeof (Span)),
    .mapping_ids = g_hash_table_new (g_int64_hash, g_int64_equal),
    .function_ids = g_hash_table_new (g_int64_hash, g_int64_equal),
    .location_ids = g_hash_table_new (g_int64_hash, g_int64_equal),
    .frames = g_array_new (FALSE, FALSE, sizeof (Frame)),
    .stack = g_array_new (FALSE, FALSE, sizeof (guint)),
    .values = g_array_new (FALSE, FALSE, sizeof (guint64)),
  };
  for (guint i = CG_PPROF_SAMPLE_TYPE; i < G_N_ELEMENTS (r.parts); i++)
    r.parts[i] = g_array_new (FALSE, FALSE, sizeof (Span));
  GError *local = NULL;
  gboolean ok = scan_profile (&r, len, &local);
  if (ok)
    {
      r.interned = g_new (guint32, MAX (r.strings->len, 1));
      memset (r.interned, 0xff, sizeof (guint32) * MAX (r.strings->len, 1));
    }
  ok = ok && check_profile_strings (&r, len, &local) && compile_prune (&r, &local) && read_mappings (&r, &local)
       && read_functions (&r, &local) && read_locations (&r, &local) && read_sample_types (&r, &local) && read_samples (&r, &local);
  if (ok)
    {
      cg_profile_add_source (profile, "pprof", r.name, NULL, NULL);
    }
  reader_clear (&r);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return ok;
}
