/* cg-read-callgrind.c — one pass over a callgrind file, line by line.
 *
 * Lines are told apart by their first character (a digit, "+", "-" or "*"
 * starts a cost line) and by the key before "=" (position names and
 * association lines) or ":" (header lines).  callgrind's function names
 * carry context ("f'2", "f'caller"); each distinct (object, name) is a
 * context node here, folded into the graph function (object, base name).
 *
 * Speed and size, for profiles of hundreds of megabytes:
 *  - a second thread reads blocks of lines ahead and lexes the common
 *    lines, most of a file (runs of self cost lines, names by id such
 *    as fn=(ID) and cfn=(ID) or defined with their hash taken, calls=
 *    with its cost line), into records (cg-callgrind-lex.h) while this
 *    one interprets the block before; a record is applied when the
 *    reader's state is what the lexer assumed, and otherwise its lines
 *    are read one by one like any other, which also says what is wrong;
 *  - self costs add up in a per-block sum, given to the function, its
 *    context and the part when fn= changes;
 *  - names, objects and files are string ids; a function id (and a name)
 *    remembers the context last found by it, so a call finds its callee
 *    without hashing, from the id's own entry;
 *  - arcs: each block's calls are a run of cg-arc-runs, deduplicated in a
 *    small table (a caller's second block with its first's arcs), and
 *    repeats from further blocks are merged once at the end, so the graph
 *    never builds an arc index while a file is read; the merge only looks
 *    at the callers that three blocks or more gave arcs.
 */
#include "config.h"

#include "cg-read-callgrind.h"

#include <stdarg.h>
#include <string.h>

#include "cg-arc-runs.h"
#include "cg-callgrind-lex.h"
#include "cg-elf-functions.h"
#include "cg-error.h"
#include "cg-matrix.h"
#include "cg-pair-map.h"
#include "cg-scc.h"

#define MAX_POSITIONS 3
#define PREFETCH_AHEAD 8

/* A context: one (object, full name) of the file. */
typedef struct {
  CgFunctionId function;
  guint32 object;  /* string id */
  guint32 name;    /* name index */
  guint32 file;    /* string id: its function's file, where files_apart */
  guint8 level1;   /* the outermost activation of its function */
  guint8 called;   /* entered by a call in this part */
  guint8 touched;  /* has data in this part */
  guint8 calls;    /* made a call in this part */
  guint8 located;  /* its function's file and line are known */
  /* the columns in which it has self cost in this part: bit i for column
   * i, bit 15 for any from the 16th on (16 bits keep Node at 24 bytes) */
  guint16 self_columns;
} Node;

/* A function to be moved to its object named apart by its file. */
typedef struct {
  CgFunctionId function;
  guint32 file;    /* string id */
} Apart;

/* What the reader knows of a full function name (by its string id). */
typedef struct {
  guint32 base;       /* string id of the function's name, without context */
  guint32 node;       /* the context last used with this name: almost always
                       * the one asked for next, found without hashing */
  guint32 level : 30;
  guint32 multi : 1;  /* contexts in several objects: all in node_index */
  guint32 known : 1;  /* a function name of this file (else all zero) */
} NameInfo;

typedef enum { SPACE_OBJECT, SPACE_FILE, SPACE_FUNCTION } Space;

/* Name-compression ids are arbitrary but mostly small: a dense array up to
 * DENSE_IDS, a hash table beyond (so a hostile "(4000000000)" costs one
 * entry, not gigabytes).  Values are string ids or name indexes, stored
 * plus one (0: undefined). */
#define DENSE_IDS (1u << 22)

/* A dense id's entry.  A function id's also remembers the context its
 * name was last found in by this id (see node_of_id). */
typedef struct {
  guint32 value1; /* the value plus one */
  guint32 node;   /* CG_NO_ID when none */
} IdEntry;

typedef struct {
  GArray *dense;      /* IdEntry */
  GHashTable *sparse;
} IdTable;

static void
id_table_init (IdTable *t)
{
  t->dense = g_array_new (FALSE, TRUE, sizeof (IdEntry));
  t->sparse = g_hash_table_new (g_direct_hash, g_direct_equal);
}

static void
id_table_clear (IdTable *t)
{
  g_array_unref (t->dense);
  g_hash_table_unref (t->sparse);
}

/* The value of @id, or CG_NO_ID when it was never defined. */
static guint32
id_table_lookup (const IdTable *t, guint32 id)
{
  guint32 v1;
  if (id < DENSE_IDS)
    v1 = id < t->dense->len ? g_array_index (t->dense, IdEntry, id).value1 : 0;
  else
    v1 = GPOINTER_TO_UINT (g_hash_table_lookup (t->sparse, GUINT_TO_POINTER (id)));
  return v1 - 1;
}

static void
id_table_store (IdTable *t, guint32 id, guint32 value)
{
  if (id >= DENSE_IDS)
    {
      g_hash_table_insert (t->sparse, GUINT_TO_POINTER (id), GUINT_TO_POINTER (value + 1));
      return;
    }
  if (id >= t->dense->len)
    g_array_set_size (t->dense, id + 1);
  g_array_index (t->dense, IdEntry, id) = (IdEntry) { value + 1, CG_NO_ID };
}

/* @id's dense entry, or NULL when it has none (never defined, or sparse). */
static IdEntry *
id_table_entry (IdTable *t, guint32 id)
{
  if (id >= t->dense->len)
    return NULL;
  IdEntry *e = &g_array_index (t->dense, IdEntry, id);
  return e->value1 != 0 ? e : NULL;
}

typedef enum { PENDING_NONE, PENDING_CALL, PENDING_JUMP } Pending;

typedef struct {
  CgProfile *profile;
  CgGraph *graph;
  CgInput *in;
  const CgReadOptions *options;

  /* name compression tables, one set per file (ids outlive parts) */
  IdTable object_ids;       /* id -> interned object */
  IdTable file_ids;         /* id -> interned file */
  IdTable function_ids;     /* id -> name index + 1 */

  /* distinct function names of this file, interned in the graph (a name
   * without context is its function's name: one copy serves both) */
  GArray *name_info;        /* NameInfo per string id */
  /* the graph held no function when the file began: it holds only those
   * the reader made, which node_of finds without the graph's index */
  gboolean own_functions;

  /* context nodes: (object string id, name index) -> node */
  CgPairMap *node_index;
  GArray *nodes;            /* Node */
  /* functions that a function of their name and object in another file
   * showed to be one of two: each is moved to its object named apart at
   * the end (see node_of) */
  GArray *apart;            /* Apart */
  /* per context, this part: its self plus its calls' inclusive costs
   * minus the inclusive costs of the calls that entered it (see
   * finish_part); integers as signed 64-bit (gint64 in .n) */
  CgMatrix node_sum;
  GArray *touched;          /* node ids with data in this part, from part 2 on */

  /* the arcs of the current fn= block, a run of cg-arc-runs: a block's
   * repeats are found as they come, other blocks' merged at the end */
  CgArcRuns *arc_runs;

  /* the current part */
  guint parts;
  gboolean have_events;
  guint n_cols;
  GArray *event_map;        /* guint: column -> graph event */
  GArray *part_self;        /* guint64 per column: sum of self costs */
  GArray *totals;           /* guint64 from "totals:", or NULL */
  guint64 totals_line;
  GArray *summary;          /* guint64 from "summary:", or NULL */
  guint n_positions;
  gint line_column;         /* index of "line" in positions, or -1 */
  guint64 last[MAX_POSITIONS];

  /* current names (string ids) */
  guint32 ob;
  guint32 fl;
  guint32 file;             /* includes fi= / fe= */
  gboolean fi_unused;       /* a fi= / fe= no cost line has followed yet */
  guint32 fn_node;          /* CG_NO_ID before the first fn= */
  /* a block that may only record calls made from another file: fn_node is
   * the name's context in its one other file until a self cost line says
   * the block is the function's own (see enter_function) */
  gboolean fn_provisional;
  guint32 fn_own_object;    /* the block's own object (its file) */
  guint32 fn_own_name, fn_own_id;
  guint32 cob;              /* CG_NO_ID: default (current object) */
  guint32 cfi;              /* CG_NO_ID: default (current file) */
  guint32 cfn_name;         /* CG_NO_ID before the first cfn= */
  guint32 cfn_id;           /* the id cfn= named it by, or CG_NO_ID */

  Pending pending;
  guint64 pending_line;
  guint64 pending_calls;
  guint32 pending_callee;   /* node */

  /* evidence of callgrind's recursion split (--separate-recs >= 2) */
  gboolean level_names;     /* some name carries a level "'N" */
  gboolean nested_calls;    /* an outermost f called an outermost f */
  /* valgrind's cachegrind wrote the file: "desc:" lines and no creator.
   * It records no calls, and a function's inlined code goes under the
   * header's "fl=" with the function's own name */
  gboolean cachegrind;
  gboolean any_call;        /* a calls= line was read */
  /* gperftools' pprof --callgrind ("events: Hits", no creator) writes each
   * call's samples as its count too: such counts are dropped */
  gboolean hits;
  guint64 hit_counts;       /* calls= counts dropped so */

  /* per graph event, EVENT_CARRIED | EVENT_CALLEE_SELF: callgrind writes
   * no inclusive cost of --cacheuse's events on calls= lines */
  GArray *event_flags;      /* guint8 */

  guint64 line;             /* number of the line being read */
  /* self costs of the current fn= since it started, per column: added to
   * the graph when the function changes or the part ends, not per line */
  GArray *self_acc;         /* guint64 per column */
  gboolean self_pending;    /* a self cost line was read into self_acc */
  GArray *cols;             /* guint64 scratch: counts of one cost line */
  char *command;
  char *creator;
  GHashTable *descriptions; /* event name -> description */
  GHashTable *warned;       /* keys already warned about */
  CgCallgrindNames names;   /* how names carry context, by creator: */
  guint32 empty, unknown;   /* string ids of "" and "???" */
  guint64 undefined_uses;   /* references to ids never defined (read as "") */
  char *undefined_first;    /* "NAME:LINE: space id (N)" of the first */
} Reader;

enum
{
  EVENT_CARRIED = 1,     /* a calls= line carried some of its cost */
  EVENT_CALLEE_SELF = 2, /* a context that calls entered has self cost in it */
};

/* ---- messages ---- */

static gboolean G_GNUC_PRINTF (4, 5)
fail (Reader *r, GError **error, CgError code, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  cg_read_failv (error, code, cg_input_name (r->in), CG_AT_LINE, r->line, format, ap);
  va_end (ap);
  return FALSE;
}

static gboolean
overflow (Reader *r, GError **error)
{
  return fail (r, error, CG_ERROR_OVERFLOW, "a cost exceeds the range of 64-bit counters");
}

/* A recoverable inconsistency: an error, or a warning when lenient. */
static gboolean G_GNUC_PRINTF (4, 5)
inconsistent (Reader *r, GError **error, CgError code, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  g_autofree char *msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  if (r->options->lenient)
    {
      cg_read_warn (r->options, "%s:%" G_GUINT64_FORMAT ": %s", cg_input_name (r->in),
                    r->line, msg);
      return TRUE;
    }
  return fail (r, error, code, "%s", msg);
}

static void
warn_once (Reader *r, const char *key, gsize klen, const char *what)
{
  g_autofree char *k = g_strndup (key, klen);
  if (g_hash_table_contains (r->warned, k))
    return;
  cg_read_warn (r->options, "%s:%" G_GUINT64_FORMAT ": %s '%s' ignored (warned once)",
                cg_input_name (r->in), r->line, what, k);
  g_hash_table_add (r->warned, g_steal_pointer (&k));
}

/* ---- scanning ---- */

static inline gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t';
}

static inline void
skip_blanks (const char **p, const char *end)
{
  while (*p < end && is_blank (**p))
    (*p)++;
}

/* A decimal or 0x-hex unsigned number ending at a blank or the end. */
static gboolean
scan_number (const char **p, const char *end, guint64 *out)
{
  const char *s = *p;
  guint64 v = 0;
  if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    {
      s += 2;
      const char *digits = s;
      for (; s < end && g_ascii_isxdigit (*s); s++)
        {
          if (v >> 60)
            return FALSE;
          v = (v << 4) | (guint64) g_ascii_xdigit_value (*s);
        }
      if (s == digits)
        return FALSE;
    }
  else
    {
      const char *digits = s;
      for (; s < end && g_ascii_isdigit (*s); s++)
        if (!g_uint64_checked_mul (&v, v, 10) || !g_uint64_checked_add (&v, v, (guint64) (*s - '0')))
          return FALSE;
      if (s == digits)
        return FALSE;
    }
  if (s < end && !is_blank (*s))
    return FALSE;
  *p = s;
  *out = v;
  return TRUE;
}

/* One subposition: absolute, "+N", "-N" or "*" relative to @base. */
static gboolean
scan_subposition (const char **p, const char *end, guint64 base, guint64 *out)
{
  const char *s = *p;
  if (s >= end)
    return FALSE;
  if (*s == '*')
    {
      if (s + 1 < end && !is_blank (s[1]))
        return FALSE;
      *p = s + 1;
      *out = base;
      return TRUE;
    }
  gboolean plus = *s == '+', minus = *s == '-';
  if (plus || minus)
    s++;
  guint64 v;
  if (!scan_number (&s, end, &v))
    return FALSE;
  if (plus && !g_uint64_checked_add (&v, base, v))
    return FALSE;
  if (minus)
    {
      if (v > base)
        return FALSE;
      v = base - v;
    }
  *p = s;
  *out = v;
  return TRUE;
}

/* ---- names and context nodes ---- */

void
cg_callgrind_split_name (const char *name, gsize len, gsize *base_len, guint *level)
{
  /* C, C++ and Rust symbols contain no apostrophe, so the first one ends
   * the base name; a following all-digit component is the level. */
  const char *q = memchr (name, '\'', len);
  *level = 1;
  if (q == NULL)
    {
      *base_len = len;
      return;
    }
  *base_len = (gsize) (q - name);
  const char *s = q + 1, *end = name + len;
  guint64 l = 0;
  const char *digits = s;
  while (s < end && g_ascii_isdigit (*s) && l < G_MAXUINT)
    l = l * 10 + (guint64) (*s++ - '0');
  if (s > digits && (s == end || *s == '\'') && l >= 1)
    *level = (guint) MIN (l, (guint64) G_MAXUINT);
}

CgCallgrindNames
cg_callgrind_names_of (const char *creator)
{
  if (creator == NULL)
    return CG_CALLGRIND_NAMES_SHAPED;
  if (g_str_has_prefix (creator, "callgrind"))
    return CG_CALLGRIND_NAMES_CALLGRIND;
  if (g_str_has_prefix (creator, PACKAGE_NAME))
    return CG_CALLGRIND_NAMES_CGTOOLS;
  return CG_CALLGRIND_NAMES_VERBATIM;
}

/* Whether @name has the shape of callgrind's context names: parts between
 * apostrophes non-empty, none with a blank at either end. */
static gboolean
callgrind_shaped (const char *name, gsize len)
{
  const char *end = name + len;
  for (const char *part = name; part <= end;)
    {
      const char *q = memchr (part, '\'', (gsize) (end - part));
      const char *part_end = q ? q : end;
      if (part_end == part || g_ascii_isspace (part[0]) || g_ascii_isspace (part_end[-1]))
        return FALSE;
      part = part_end + 1;
    }
  return TRUE;
}

void
cg_callgrind_split_name_as (CgCallgrindNames names, const char *name, gsize len, gsize *base_len, guint *level)
{
  *base_len = len;
  *level = 1;
  const char *q = memchr (name, '\'', len);
  if (q == NULL || names == CG_CALLGRIND_NAMES_VERBATIM)
    return;
  if (names == CG_CALLGRIND_NAMES_CALLGRIND || (names == CG_CALLGRIND_NAMES_SHAPED && callgrind_shaped (name, len)))
    {
      cg_callgrind_split_name (name, len, base_len, level);
      return;
    }
  if (names != CG_CALLGRIND_NAMES_CGTOOLS)
    return;
  /* cgtools' writer: one context of its own after a verbatim name */
  const char *last = g_strrstr_len (name, (gssize) len, "'");
  const char *s = last + 1, *end = name + len;
  static const char spontaneous[] = "<spontaneous>";
  if ((gsize) (end - s) == sizeof spontaneous - 1 && memcmp (s, spontaneous, sizeof spontaneous - 1) == 0)
    {
      *base_len = (gsize) (last - name);
      return;
    }
  guint64 l = 0;
  for (; s < end && g_ascii_isdigit (*s) && l < G_MAXUINT; s++)
    l = l * 10 + (guint64) (*s - '0');
  if (s == end && s > last + 1 && l >= 1)
    {
      *base_len = (gsize) (last - name);
      *level = (guint) l;
    }
}

/* @full, a function name's string id, with its NameInfo filled in on
 * first sight. */
static guint32
name_info_of (Reader *r, guint32 full)
{
  if (full < r->name_info->len && g_array_index (r->name_info, NameInfo, full).known)
    return full;
  gsize base_len;
  guint level;
  NameInfo info = { 0, CG_NO_ID, 0, 0, 1 };
  /* split the stored name: escaping never touches an apostrophe */
  const char *stored = cg_graph_string (r->graph, full);
  gsize full_len = strlen (stored);
  cg_callgrind_split_name_as (r->names, stored, full_len, &base_len, &level);
  info.level = MIN (level, (guint) (1u << 30) - 1);
  r->level_names |= level > 1;
  info.base = base_len == full_len ? full : cg_graph_intern_id (r->graph, stored, (gssize) base_len);
  guint32 most = MAX (full, info.base);
  if (most >= r->name_info->len)
    g_array_set_size (r->name_info, most + 1);
  g_array_index (r->name_info, NameInfo, full) = info;
  return full;
}

/* The name's string id, its NameInfo filled in on first sight. */
static guint32
name_index (Reader *r, const char *s, gsize len)
{
  return name_info_of (r, cg_graph_intern_id (r->graph, s, (gssize) len));
}

static Node *
node_at (Reader *r, guint32 k)
{
  return &g_array_index (r->nodes, Node, k);
}

static void
node_key (gconstpointer data, guint32 k, guint32 *object, guint32 *name)
{
  const Node *n = &g_array_index (((const Reader *) data)->nodes, Node, k);
  *object = n->object;
  *name = n->name;
}

/* The context (@object, name index @name) of this file, or CG_NO_ID.
 * A name seen in one object only needs no index; once it shows up in a
 * second, its contexts go to node_index. */
static guint32
find_node (Reader *r, guint32 object, guint32 name)
{
  NameInfo *info = &g_array_index (r->name_info, NameInfo, name);
  if (info->node != CG_NO_ID && node_at (r, info->node)->object == object)
    return info->node;
  if (info->node == CG_NO_ID)
    return CG_NO_ID;
  if (!info->multi)
    {
      info->multi = 1;
      cg_pair_map_insert (r->node_index, node_at (r, info->node)->object, name, info->node);
    }
  guint32 k = cg_pair_map_lookup (r->node_index, object, name);
  if (k == CG_PAIR_MAP_NONE)
    return CG_NO_ID;
  info->node = k;
  return k;
}

/* Whether functions of one name in one object are told apart by their
 * file (Node.file): valgrind's callgrind keys a function by its object,
 * file and name, as callgrind_annotate and KCachegrind list them, so
 * that two source files' static helper, or ld.so's two check_match, are
 * two functions there.  (cachegrind writes a function's inlined code
 * under the header's fl=; other producers without ob= take the file for
 * the object already.) */
static gboolean
files_apart (const Reader *r)
{
  return r->names == CG_CALLGRIND_NAMES_CALLGRIND && !r->cachegrind;
}

static gboolean
known_file (const Reader *r, guint32 file)
{
  return file != r->empty && file != r->unknown;
}

/* The object "OBJECT@APART" (cg_elf_apart_object, as the readers of ELF
 * programs name such functions) for a function of @object in @file: APART
 * is the file's base name, or its whole name where @whole.  Owned by the
 * caller. */
static char *
apart_name (Reader *r, guint32 object, guint32 file, gboolean whole)
{
  const char *path = cg_graph_string (r->graph, file);
  const char *slash = whole ? NULL : strrchr (path, '/');
  return cg_elf_apart_object (cg_graph_string (r->graph, object), slash ? slash + 1 : path);
}

/* apart_name's string id. */
static guint32
apart_object (Reader *r, guint32 object, guint32 file, gboolean whole)
{
  g_autofree char *apart = apart_name (r, object, file, whole);
  return cg_graph_intern_id (r->graph, apart, -1);
}

/* The graph's function for a new context (@object, @name) in @file,
 * merging into a graph that holds other inputs' functions: the one an
 * earlier input named apart, else, where node_of named @object apart from
 * @plain (this file has another function of the name in another file), an
 * earlier input's (@plain, @name) of @file, which is moved apart at the
 * end as this file's other one made it (else the two would be one function
 * named apart twice, by base and by whole name, as the inputs' order
 * fell), else (@object, @name) where its file is not another one, else a
 * function of its own named apart, the other one to be moved to its own
 * object at the end.  @plain is @object where not named apart. */
static CgFunctionId
graph_function (Reader *r, guint32 plain, guint32 object, guint32 name, guint32 file)
{
  if (!files_apart (r) || !known_file (r, file))
    return cg_graph_ensure_function_ids (r->graph, object, name);
  for (int whole = 0; whole <= 1; whole++)
    {
      g_autofree char *apart = apart_name (r, plain, file, whole);
      CgFunctionId f = cg_graph_lookup_function (r->graph, apart, cg_graph_string (r->graph, name));
      if (f != CG_NO_ID && cg_graph_function_file_id (r->graph, f) == file)
        return f;
    }
  if (plain != object)
    {
      CgFunctionId f = cg_graph_lookup_function (r->graph, cg_graph_string (r->graph, plain),
                                                 cg_graph_string (r->graph, name));
      if (f != CG_NO_ID && cg_graph_function_file_id (r->graph, f) == file)
        return f;
    }
  CgFunctionId f = cg_graph_ensure_function_ids (r->graph, object, name);
  guint32 had = cg_graph_function_file_id (r->graph, f);
  if (!known_file (r, had) || had == file)
    return f;
  Apart move = { f, had };
  g_array_append_val (r->apart, move);
  return cg_graph_ensure_function_ids (r->graph, apart_object (r, object, file, FALSE), name);
}

/* A new context (@object, name index @name) in @file; @object is named
 * apart from @plain, or is @plain (see graph_function).
 *
 * Its function is (@object, its base name).  While the graph holds this
 * file's functions only (r->own_functions), the reader knows them without
 * the graph's index: a base name's own context (made first, for a name
 * with a context) holds it, made with the context.  Recursion is one
 * level deep: a base name is its own base. */
static guint32 node_of (Reader *r, guint32 object, guint32 name, guint32 file);

static guint32
new_node (Reader *r, guint32 plain, guint32 object, guint32 name, guint32 file)
{
  guint32 base = g_array_index (r->name_info, NameInfo, name).base;
  CgFunctionId f;
  if (!r->own_functions)
    f = graph_function (r, plain, object, base, file);
  else if (base == name)
    f = cg_graph_add_function_ids (r->graph, object, name);
  else
    f = node_at (r, node_of (r, object, name_info_of (r, base), file))->function;
  /* the base's context may have grown the tables */
  NameInfo *info = &g_array_index (r->name_info, NameInfo, name);
  guint32 k = r->nodes->len;
  if (info->multi)
    cg_pair_map_insert (r->node_index, object, name, k);
  Node node = { f, object, name, file, info->level == 1, 0, 0, 0, 0, 0 };
  g_array_append_val (r->nodes, node);
  cg_matrix_set_rows (&r->node_sum, r->nodes->len);
  info->node = k;
  return k;
}

/* The context (@object, name index @name) of a function in @file, made
 * when new.  Where the files are apart (files_apart) and the context of
 * that object and name is another file's function, it is one of two: the
 * new one takes the object named apart by its file's base name (or by its
 * whole name, where that is taken by another file of that base name),
 * and the first one is moved to its own such object at the end. */
static guint32
node_of (Reader *r, guint32 object, guint32 name, guint32 file)
{
  guint32 k = find_node (r, object, name);
  if (k == CG_NO_ID)
    return new_node (r, object, object, name, file);
  Node *n = node_at (r, k);
  if (n->file == file || !files_apart (r) || !known_file (r, file))
    return k;
  if (!known_file (r, n->file))
    {
      n->file = file;
      return k;
    }
  Apart move = { n->function, n->file };
  for (int whole = 0; whole <= 1; whole++)
    {
      guint32 apart = apart_object (r, object, file, whole);
      guint32 a = find_node (r, apart, name);
      if (a == CG_NO_ID)
        {
          /* (an earlier input's function may be apart already) */
          if (cg_graph_function_object_id (r->graph, move.function) == object)
            g_array_append_val (r->apart, move);
          return new_node (r, object, apart, name, file);
        }
      if (node_at (r, a)->file == file)
        return a;
    }
  /* a third file of one base name and whole name: kept with the first */
  return k;
}

/* node_of (@object, @name, @file) for a name given by the function @id (or
 * CG_NO_ID): the id's entry remembers the context found, which a call by
 * the id finds again without the name's NameInfo, one cache miss less a
 * call on a large file.  Whatever the entry says is checked. */
static guint32
node_of_id (Reader *r, guint32 object, guint32 name, guint32 id, guint32 file)
{
  IdEntry *e = id == CG_NO_ID ? NULL : id_table_entry (&r->function_ids, id);
  if (e != NULL && e->node != CG_NO_ID)
    {
      const Node *n = node_at (r, e->node);
      if (n->object == object && n->name == name && n->file == file)
        return e->node;
    }
  guint32 k = node_of (r, object, name, file);
  if (e != NULL)
    e->node = k;
  return k;
}

static void
touch (Reader *r, guint32 k)
{
  Node *n = node_at (r, k);
  if (!n->touched)
    {
      n->touched = 1;
      /* the first part (most files' only one) walks all contexts at its
       * end instead: no list of them all */
      if (r->parts > 1)
        g_array_append_val (r->touched, k);
    }
}

/* Parses a name value "(id) name", "(id)" or "name".  *@out receives,
 * for objects and files, the string id, for functions the name index. */
static gboolean
parse_name (Reader *r, Space space, const char *v, const char *end, guint32 *out, GError **error)
{
  static const char *const space_names[] = { "object", "file", "function" };
  IdTable *ids = space == SPACE_OBJECT ? &r->object_ids
                 : space == SPACE_FILE ? &r->file_ids : &r->function_ids;
  skip_blanks (&v, end);
  gboolean compressed = end - v >= 2 && v[0] == '(' && g_ascii_isdigit (v[1]);
  if (!compressed)
    {
      if (space == SPACE_FUNCTION)
        *out = name_index (r, v, (gsize) (end - v));
      else
        *out = cg_graph_intern_id (r->graph, v, end - v);
      return TRUE;
    }
  const char *p = v + 1;
  guint64 id = 0;
  while (p < end && g_ascii_isdigit (*p))
    {
      id = id * 10 + (guint64) (*p++ - '0');
      if (id > G_MAXUINT32 - 1)
        return fail (r, error, CG_ERROR_PARSE, "%s id too large", space_names[space]);
    }
  if (p >= end || *p != ')')
    return fail (r, error, CG_ERROR_PARSE, "expected ')' after the %s id", space_names[space]);
  p++;
  skip_blanks (&p, end);
  if (p == end)
    {
      guint32 value = id_table_lookup (ids, (guint32) id);
      if (value == CG_NO_ID)
        {
          /* old callgrind files (0.10.1) use ids they never define:
           * callgrind_annotate and gprof2dot read an empty name there */
          if (r->undefined_uses++ == 0)
            r->undefined_first = g_strdup_printf ("%s:%" G_GUINT64_FORMAT ": %s id (%" G_GUINT64_FORMAT ")",
                                                  cg_input_name (r->in), r->line, space_names[space], id);
          value = space == SPACE_FUNCTION ? name_index (r, "", 0) : cg_graph_intern_id (r->graph, "", 0);
        }
      *out = value;
      return TRUE;
    }
  /* a definition; callgrind repeats them per dump, other producers may
   * redefine an id: the later one wins */
  if (space == SPACE_FUNCTION)
    *out = name_index (r, p, (gsize) (end - p));
  else
    *out = cg_graph_intern_id (r->graph, p, end - p);
  id_table_store (ids, (guint32) id, *out);
  return TRUE;
}

/* ---- parts ---- */

static void next_block (Reader *r);

static void
reset_part (Reader *r)
{
  r->have_events = FALSE;
  r->n_cols = 0;
  g_array_set_size (r->event_map, 0);
  g_array_set_size (r->part_self, 0);
  g_clear_pointer (&r->totals, g_array_unref);
  g_clear_pointer (&r->summary, g_array_unref);
  r->n_positions = 1;
  r->line_column = 0;
  memset (r->last, 0, sizeof r->last);
  r->ob = r->fl = r->file = 0; /* "" */
  r->fi_unused = FALSE;
  r->fn_node = CG_NO_ID;
  r->fn_provisional = FALSE;
  next_block (r);
  r->cob = r->cfi = CG_NO_ID;
  r->cfn_name = r->cfn_id = CG_NO_ID;
}

static gboolean
is_callgrind (const Reader *r)
{
  return r->creator && g_str_has_prefix (r->creator, "callgrind");
}

static gboolean flush_self (Reader *r, GError **error);
static gboolean add_count (CgKind kind, CgValue *acc, guint64 v);

/* totals: must equal the part's self costs.  (summary: is not checked:
 * callgrind leaves signal handlers' cost out of it, and writes it before
 * the --cacheuse events' costs are known; where it exceeds them,
 * charge_unwritten reads it.) */
static gboolean
check_totals (Reader *r, GError **error)
{
  GArray *given = r->totals;
  guint64 line = r->totals_line;
  if (given->len > r->n_cols)
    return inconsistent (r, error, CG_ERROR_PARSE, "totals: at line %" G_GUINT64_FORMAT " has more values than events", line);
  for (guint i = 0; i < r->n_cols; i++)
    {
      guint64 want = i < given->len ? g_array_index (given, guint64, i) : 0;
      guint64 have = g_array_index (r->part_self, guint64, i);
      if (want != have)
        return inconsistent (r, error, CG_ERROR_PARSE,
                             "totals: at line %" G_GUINT64_FORMAT " gives %" G_GUINT64_FORMAT " %s, but the self "
                             "costs of part %u add up to %" G_GUINT64_FORMAT " (corrupt or truncated file)",
                             line, want, cg_graph_event_name (r->graph, g_array_index (r->event_map, guint, i)),
                             r->parts, have);
    }
  return TRUE;
}

/* Whether some event of this part has had none of its cost carried by
 * a calls= line so far. */
static gboolean
some_event_uncarried (const Reader *r)
{
  for (guint i = 0; i < r->n_cols; i++)
    if (!(g_array_index (r->event_flags, guint8, g_array_index (r->event_map, guint, i)) & EVENT_CARRIED))
      return TRUE;
  return FALSE;
}

/* Notes the events in which @n, which calls entered, has self cost in
 * this part.  (Its function's self cost in the graph would count other
 * inputs' and other parts' too: the dumps of a warm cache, summed, have
 * parts with no miss at all, which no call then carried.) */
static void
note_callee_self (Reader *r, const Node *n)
{
  for (guint i = 0; i < r->n_cols; i++)
    if (n->self_columns & (1u << MIN (i, 15)))
      g_array_index (r->event_flags, guint8, g_array_index (r->event_map, guint, i)) |= EVENT_CALLEE_SELF;
}

/* Charges to a context that made no call what the calls that entered it
 * carried beyond its self cost, where callgrind's summary: says that
 * much cost lies outside the part's self costs, and up to that much.
 * callgrind counts the last block a program ran, the exit_group system
 * call's, into the calls' inclusive costs and into summary: but writes
 * it on no cost line: with --cache-sim=yes 2 Ir (and an I1 and an LL
 * miss), with --collect-systime 1 sysCount and its time, in _Exit, whose
 * call then cost more than it, so that the program's root measured more
 * than the profile's total and every such profile was said to overlap.
 * A leaf whose calls carried more than its self cost is where that cost
 * was spent.  What a context that calls lacks could lie in any callee
 * (threads killed in a system call at exit, in calls never written): it
 * stays out, as before.  callgrind's own files only; @n_touched
 * contexts, as finish_part walks them. */
static gboolean
charge_unwritten (Reader *r, gboolean all, guint n_touched, GError **error)
{
  if (r->summary == NULL || !is_callgrind (r))
    return TRUE;
  const CgKind *kinds = cg_graph_event_kinds (r->graph);
  g_autofree guint64 *left = g_new0 (guint64, MAX (r->n_cols, 1));
  gboolean any = FALSE;
  for (guint i = 0; i < r->n_cols && i < r->summary->len; i++)
    {
      guint64 said = g_array_index (r->summary, guint64, i), self = g_array_index (r->part_self, guint64, i);
      guint e = g_array_index (r->event_map, guint, i);
      left[i] = kinds[e] == CG_KIND_INTEGER && said > self ? said - self : 0;
      any |= left[i] != 0;
    }
  for (guint j = 0; j < n_touched && any; j++)
    {
      guint32 k = all ? j : g_array_index (r->touched, guint32, j);
      Node *n = node_at (r, k);
      if (!n->touched || !n->called || n->calls)
        continue;
      CgValue *sum = cg_matrix_row (&r->node_sum, k);
      CgValue *self = cg_graph_self (r->graph, n->function);
      for (guint i = 0; i < r->n_cols; i++)
        {
          guint e = g_array_index (r->event_map, guint, i);
          gint64 s = (gint64) sum[e].n;
          if (left[i] == 0 || s >= 0)
            continue;
          guint64 c = MIN (left[i], (guint64) -(s + 1) + 1); /* -s, without overflow at G_MININT64 */
          guint64 *ps = &g_array_index (r->part_self, guint64, i);
          if (!add_count (kinds[e], &self[e], c) || !g_uint64_checked_add (ps, *ps, c))
            return overflow (r, error);
          sum[e].n = (guint64) (s + (gint64) c);
          left[i] -= c;
        }
    }
  return TRUE;
}

/* Ends the current part: checks its totals and hands the costs of
 * uncalled contexts to their functions as spontaneous costs. */
static gboolean
finish_part (Reader *r, GError **error)
{
  if (!r->have_events)
    return TRUE;
  if (!flush_self (r, error))
    return FALSE;
  if (r->totals && !check_totals (r, error))
    return FALSE;
  if (r->totals == NULL && is_callgrind (r)
      && !inconsistent (r, error, CG_ERROR_TRUNCATED, "part %u has no totals: line (the file is truncated)",
                        r->parts))
    return FALSE;

  guint ne = cg_graph_n_events (r->graph);
  const CgKind *kinds = cg_graph_event_kinds (r->graph);
  gboolean all = r->parts <= 1, callgrind = is_callgrind (r), uncarried = some_event_uncarried (r);
  guint n_touched = all ? r->nodes->len : r->touched->len;
  if (!charge_unwritten (r, all, n_touched, error))
    return FALSE;
  for (guint i = 0; i < n_touched; i++)
    {
      guint32 k = all ? i : g_array_index (r->touched, guint32, i);
      Node *n = node_at (r, k);
      if (!n->touched)
        continue;
      if (uncarried && n->called)
        note_callee_self (r, n);
      /* A context's activations cost its self plus its calls' inclusive
       * costs; what the calls that entered it do not cover was entered
       * spontaneously.  That is all of it for a context no call entered
       * (a program's or a thread's entry), and in callgrind's own files
       * the rest for one that calls also entered: glibc's clone is
       * called, and each new thread starts in it.  (Deeper levels "f'2"
       * are entered from f only.  Other producers' contexts need not be
       * activations: cgtools' writer gives such a function's spontaneous
       * part a context of its own.) */
      CgValue *sum = cg_matrix_row (&r->node_sum, k);
      if (!n->called || (n->level1 && callgrind))
        {
          gboolean any = FALSE;
          for (guint e = 0; e < ne; e++)
            {
              sum[e] = kinds[e] == CG_KIND_REAL ? (CgValue) { .x = MAX (sum[e].x, 0.0) }
                                                : (CgValue) { .n = (gint64) sum[e].n > 0 ? sum[e].n : 0 };
              any |= sum[e].n != 0;
            }
          /* a spontaneous row is made only for what has one */
          if ((any || !n->called)
              && !cg_values_add (kinds, cg_graph_spontaneous_mut (r->graph, n->function), sum, ne))
            return overflow (r, error);
        }
      if (!all)
        memset (sum, 0, ne * sizeof (CgValue));
      n->called = n->touched = n->calls = 0;
      n->self_columns = 0;
    }
  /* every context's sums at once: a call of memset per context was a
   * tenth of this loop */
  if (all && r->node_sum.rows > 0)
    memset (cg_matrix_row (&r->node_sum, 0), 0, (gsize) r->node_sum.rows * ne * sizeof (CgValue));
  g_array_set_size (r->touched, 0);
  reset_part (r);
  return TRUE;
}

/* ---- header lines ---- */

static gboolean
parse_counts (Reader *r, const char *p, const char *end, GArray **out, GError **error)
{
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (;;)
    {
      skip_blanks (&p, end);
      if (p == end)
        break;
      guint64 v;
      if (!scan_number (&p, end, &v))
        return fail (r, error, CG_ERROR_PARSE, "expected a number");
      g_array_append_val (values, v);
    }
  if (*out)
    g_array_unref (*out);
  *out = g_steal_pointer (&values);
  return TRUE;
}

/* The unit of event @name (transfer full): producers that count time
 * say in what, and the views show such times in s, ms, µs or ns
 * (cg_display_unit).  Xdebug 3 names it in the event, "Time_(10ns)"
 * (and "Memory_(bytes)"), and Go's pprof -callgrind likewise without the
 * underscore, "cpu(ms)" (and "inuse_space(MB)"); Xdebug 2 (and 3.0's
 * development versions) named neither: its "Time" is in µs (the seconds
 * it measured times 1000000) and its "Memory" (2.6 on) in bytes;
 * pyprof2calltree names the event "ns";
 * callgrind --collect-systime says it in the event: line that precedes
 * events: ("sysTime (elapsed us)", "sysCpuTime (system cpu ns)").  The
 * values stay as the file has them (cgcost --format=tsv prints them so):
 * only the unit is named.  Any other event is its own unit ("Ir"). */
static char *
event_unit (Reader *r, const char *name)
{
  gsize len = strlen (name);
  const char *open = strrchr (name, '(');
  if (open != NULL && open > name && (open[-1] != '_' || open > name + 1) && name[len - 1] == ')' && open + 2 < name + len)
    return g_strndup (open + 1, (gsize) (name + len - open - 2));
  if (r->creator != NULL && g_str_has_prefix (r->creator, "xdebug "))
    {
      if (strcmp (name, "Time") == 0)
        return g_strdup ("\u00b5s");
      if (strcmp (name, "Memory") == 0)
        return g_strdup ("bytes");
    }
  if (cg_time_unit_seconds (name) > 0)
    return g_strdup (name);
  const char *description = g_hash_table_lookup (r->descriptions, name);
  gsize dlen = description ? strlen (description) : 0;
  if (dlen > 2 && description[dlen - 1] == ')')
    {
      const char *word = description + dlen - 1;
      while (word > description && word[-1] != ' ' && word[-1] != '(')
        word--;
      g_autofree char *unit = g_strndup (word, (gsize) (description + dlen - 1 - word));
      if (cg_time_unit_seconds (unit) > 0)
        return g_steal_pointer (&unit);
    }
  return g_strdup (name);
}

static gboolean
parse_events (Reader *r, const char *p, const char *end, GError **error)
{
  for (;;)
    {
      skip_blanks (&p, end);
      if (p == end)
        break;
      const char *word = p;
      while (p < end && !is_blank (*p))
        p++;
      g_autofree char *name = g_strndup (word, (gsize) (p - word));
      g_autofree char *unit = event_unit (r, name);
      guint e;
      GError *local = NULL;
      if (!cg_profile_ensure_event (r->profile, name, unit, CG_KIND_INTEGER, &e, &local))
        {
          fail (r, error, local->code, "%s", local->message);
          g_error_free (local);
          return FALSE;
        }
      for (guint i = 0; i < r->event_map->len; i++)
        if (g_array_index (r->event_map, guint, i) == e)
          return fail (r, error, CG_ERROR_PARSE, "event %s listed twice", cg_graph_event_name (r->graph, e));
      g_array_append_val (r->event_map, e);
      guint64 zero = 0;
      g_array_append_val (r->part_self, zero);
    }
  if (r->event_map->len == 0)
    return fail (r, error, CG_ERROR_PARSE, "events: lists no event");
  r->n_cols = r->event_map->len;
  r->hits = r->creator == NULL && r->n_cols == 1
            && strcmp (cg_graph_event_name (r->graph, g_array_index (r->event_map, guint, 0)), "Hits") == 0;
  g_array_set_size (r->cols, r->n_cols);
  g_array_set_size (r->self_acc, r->n_cols);
  while (r->node_sum.cols < cg_graph_n_events (r->graph))
    cg_matrix_add_column (&r->node_sum);
  g_array_set_size (r->event_flags, cg_graph_n_events (r->graph));
  r->have_events = TRUE;
  return TRUE;
}

static gboolean
parse_positions (Reader *r, const char *p, const char *end, GError **error)
{
  guint n = 0;
  r->line_column = -1;
  for (;;)
    {
      skip_blanks (&p, end);
      if (p == end)
        break;
      const char *word = p;
      while (p < end && !is_blank (*p))
        p++;
      gsize len = (gsize) (p - word);
      gboolean known = (len == 4 && memcmp (word, "line", 4) == 0)
                       || (len == 5 && memcmp (word, "instr", 5) == 0)
                       || (len == 2 && memcmp (word, "bb", 2) == 0);
      if (!known)
        return fail (r, error, CG_ERROR_PARSE, "unknown position kind '%.*s'", (int) len, word);
      if (n == MAX_POSITIONS)
        return fail (r, error, CG_ERROR_PARSE, "too many position kinds");
      if (len == 4)
        r->line_column = (gint) n;
      n++;
    }
  if (n == 0)
    return fail (r, error, CG_ERROR_PARSE, "positions: lists no position kind");
  r->n_positions = n;
  return TRUE;
}

/* "event: NAME [= formula] [: long name]" */
static void
parse_event_description (Reader *r, const char *p, const char *end)
{
  skip_blanks (&p, end);
  const char *name = p;
  while (p < end && !is_blank (*p) && *p != ':' && *p != '=')
    p++;
  g_autofree char *key = g_strndup (name, (gsize) (p - name));
  skip_blanks (&p, end);
  if (p < end && *p == '=')
    {
      /* derived events have no column of their own */
      warn_once (r, key, strlen (key), "derived event");
      return;
    }
  if (p < end && *p == ':')
    {
      p++;
      skip_blanks (&p, end);
      g_hash_table_insert (r->descriptions, g_steal_pointer (&key), g_strndup (p, (gsize) (end - p)));
    }
}

static gboolean
header_line (Reader *r, const char *key, gsize klen, const char *p, const char *end, GError **error)
{
#define KEY(s) (klen == sizeof (s) - 1 && memcmp (key, s, klen) == 0)
  if (KEY ("part") || KEY ("pid") || KEY ("thread") || KEY ("positions") || KEY ("events"))
    {
      if (r->have_events && !finish_part (r, error))
        return FALSE;
      if (KEY ("positions"))
        return parse_positions (r, p, end, error);
      if (KEY ("events"))
        {
          r->parts++;
          return parse_events (r, p, end, error);
        }
      return TRUE;
    }
  skip_blanks (&p, end);
  if (KEY ("totals"))
    {
      r->totals_line = r->line;
      return parse_counts (r, p, end, &r->totals, error);
    }
  if (KEY ("summary"))
    return parse_counts (r, p, end, &r->summary, error);
  if (KEY ("version"))
    {
      /* a major version, and maybe minor ones after dots: KCachegrind
       * reads majors 0 and 1, and Xdebug 2's aggregate files say "version:
       * 0.9.6" (the calltree tool's, callgrind's predecessor) */
      const char *q = p, *major = p;
      while (q < end && g_ascii_isdigit (*q))
        q++;
      gsize major_len = (gsize) (q - major);
      gboolean ok = major_len > 0;
      while (ok && q < end && *q == '.')
        {
          ok = ++q < end && g_ascii_isdigit (*q);
          while (q < end && g_ascii_isdigit (*q))
            q++;
        }
      if (!ok || (q < end && !is_blank (*q)))
        return fail (r, error, CG_ERROR_PARSE, "version: expects a number");
      while (major_len > 1 && *major == '0')
        major++, major_len--;
      if (major_len > 1 || *major >= '2')
        return fail (r, error, CG_ERROR_UNSUPPORTED, "format version %.*s is not supported (1 is)", (int) MIN (major_len, 40),
                     major);
      return TRUE;
    }
  if (KEY ("creator"))
    {
      g_free (r->creator);
      r->creator = g_strndup (p, (gsize) (end - p));
      r->names = cg_callgrind_names_of (r->creator);
      r->cachegrind = FALSE;
      return TRUE;
    }
  if (KEY ("cmd"))
    {
      g_free (r->command);
      r->command = g_strndup (p, (gsize) (end - p));
      return TRUE;
    }
  if (KEY ("event"))
    {
      parse_event_description (r, p, end);
      return TRUE;
    }
  if (KEY ("desc"))
    {
      /* callgrind writes "desc:" too (--cache-sim), after its creator */
      r->cachegrind |= r->creator == NULL && r->parts == 0;
      return TRUE;
    }
  warn_once (r, key, klen, "header line");
  return TRUE;
#undef KEY
}

/* ---- body lines ---- */

static gboolean
add_count (CgKind kind, CgValue *acc, guint64 v)
{
  if (kind == CG_KIND_REAL)
    {
      acc->x += (gdouble) v;
      return TRUE;
    }
  return g_uint64_checked_add (&acc->n, acc->n, v);
}

/* Adds (or with @minus subtracts) @v to a context's running sum (see
 * Reader.node_sum): FALSE when it leaves the range of gint64, which no
 * real profile comes near (2^63 instructions are centuries of work). */
static gboolean
sum_add (CgKind kind, CgValue *acc, guint64 v, gboolean minus)
{
  if (kind == CG_KIND_REAL)
    {
      acc->x += minus ? -(gdouble) v : (gdouble) v;
      return TRUE;
    }
  gint64 now = (gint64) acc->n, next;
  if (v > (guint64) G_MAXINT64
      || (minus ? __builtin_sub_overflow (now, (gint64) v, &next) : __builtin_add_overflow (now, (gint64) v, &next)))
    return FALSE;
  acc->n = (guint64) next;
  return TRUE;
}

/* Adds the self costs gathered since fn= to the function, its context
 * and the part.  Called before fn= changes and before the part's sums are
 * read. */
static gboolean
flush_self (Reader *r, GError **error)
{
  if (!r->self_pending)
    return TRUE;
  r->self_pending = FALSE;
  Node *node = node_at (r, r->fn_node);
  CgValue *self = cg_graph_self (r->graph, node->function);
  CgValue *sum = cg_matrix_row (&r->node_sum, r->fn_node);
  const CgKind *kinds = cg_graph_event_kinds (r->graph);
  guint64 *acc = (guint64 *) r->self_acc->data;
  for (guint i = 0; i < r->n_cols; i++)
    {
      guint e = g_array_index (r->event_map, guint, i);
      guint64 *ps = &g_array_index (r->part_self, guint64, i);
      if (!add_count (kinds[e], &self[e], acc[i]) || !sum_add (kinds[e], &sum[e], acc[i], FALSE)
          || !g_uint64_checked_add (ps, *ps, acc[i]))
        return overflow (r, error);
      if (acc[i] != 0)
        node->self_columns |= (guint16) (1u << MIN (i, 15));
      acc[i] = 0;
    }
  touch (r, r->fn_node);
  return TRUE;
}

/* A provisional block (see enter_function) that has self cost is its
 * own file's function's. */
static void
own_block (Reader *r)
{
  if (!r->fn_provisional)
    return;
  r->fn_provisional = FALSE;
  r->fn_node = node_of_id (r, r->fn_own_object, r->fn_own_name, r->fn_own_id, r->fl);
  cg_graph_function_set_location_id (r->graph, node_at (r, r->fn_node)->function, r->fl, 0);
}

/* A self cost line's @n counts (in r->cols). */
static gboolean
self_cost (Reader *r, guint n, GError **error)
{
  if (r->fn_node == CG_NO_ID)
    return fail (r, error, CG_ERROR_PARSE, "cost line before any fn= line");
  own_block (r);
  const guint64 *cols = (const guint64 *) r->cols->data;
  guint64 *acc = (guint64 *) r->self_acc->data;
  for (guint i = 0; i < n; i++)
    if (!g_uint64_checked_add (&acc[i], acc[i], cols[i]))
      return overflow (r, error);
  r->self_pending = TRUE;
  return TRUE;
}

/* A new fn= block: its arcs start anew. */
static void
next_block (Reader *r)
{
  cg_arc_runs_next (r->arc_runs);
}

static gboolean
call_cost (Reader *r, guint n, GError **error)
{
  if (r->fn_node == CG_NO_ID)
    return fail (r, error, CG_ERROR_PARSE, "calls= before any fn= line");
  guint32 caller_k = r->fn_node, callee_k = r->pending_callee;
  Node caller = *node_at (r, caller_k), *callee = node_at (r, callee_k);
  CgArcId a = cg_arc_runs_arc (r->arc_runs, caller.function, callee->function);
  if (a == CG_NO_ID)
    return fail (r, error, CG_ERROR_OVERFLOW, "too many arcs");
  guint64 calls = r->pending_calls;
  if (r->hits && n == 1 && calls == ((const guint64 *) r->cols->data)[0] && calls > 0)
    calls = 0, r->hit_counts++; /* samples, not calls */
  if (!cg_graph_arc_add_calls (r->graph, a, calls))
    return fail (r, error, CG_ERROR_OVERFLOW, "call counts exceed the range of 64-bit counters");

  /* A call from an outermost activation of f straight into an outermost
   * activation of f nests (only without callgrind's recursion split):
   * it neither enters the callee's outermost activation nor adds to the
   * caller's own cost. */
  gboolean self_level1 = caller.function == callee->function && caller.level1 && callee->level1;
  gboolean enters_outermost = callee->level1 && caller.function != callee->function;
  CgValue *inclusive = cg_graph_arc_inclusive (r->graph, a);
  CgValue *sum = cg_matrix_row (&r->node_sum, caller_k);
  CgValue *callee_sum = cg_matrix_row (&r->node_sum, callee_k);
  const CgKind *kinds = cg_graph_event_kinds (r->graph);
  const guint64 *cols = (const guint64 *) r->cols->data;
  guint8 *flags = (guint8 *) r->event_flags->data;
  for (guint i = 0; i < n; i++)
    {
      guint e = g_array_index (r->event_map, guint, i);
      flags[e] |= cols[i] != 0 ? EVENT_CARRIED : 0;
      if (enters_outermost
          && (!add_count (kinds[e], &inclusive[e], cols[i]) || !sum_add (kinds[e], &callee_sum[e], cols[i], TRUE)))
        return overflow (r, error);
      if (!self_level1 && !sum_add (kinds[e], &sum[e], cols[i], FALSE))
        return overflow (r, error);
    }
  if (!self_level1)
    callee->called = 1;
  node_at (r, caller_k)->calls = 1;
  r->nested_calls |= self_level1;
  touch (r, caller_k);
  touch (r, callee_k);
  r->cob = r->cfi = CG_NO_ID;
  return TRUE;
}

/* What a cost line does once read: adds its @n counts (in r->cols)
 * where the line before says, and a self cost line moves the positions.
 * The line after calls= or a jump does not: callgrind writes the call's
 * and the jump's source positions relative to the last self cost line
 * and leaves that the base of the next (dump.c's fprint_jcc prints them
 * with fprint_pos, which keeps its base; fprint_fcost alone moves it).
 * They differ when the call's line had no self cost in the part: a call
 * still running at a dump of --dump-every-bb or callgrind_control -d
 * ("calls=0 42" then "-97 13" and "-97 2" in zstd -T3's thread 2, part
 * 21: the self line is 190 - 97, not 93 - 97). */
static gboolean
apply_cost_line (Reader *r, const guint64 *pos, guint n, GError **error)
{
  r->fi_unused = FALSE;
  if (r->pending == PENDING_NONE)
    memcpy (r->last, pos, sizeof (guint64) * r->n_positions);
  Pending pending = r->pending;
  r->pending = PENDING_NONE;
  if (pending == PENDING_JUMP)
    return TRUE; /* the jump's source position; jumps carry no cost */
  if (pending == PENDING_CALL)
    return call_cost (r, n, error);
  return self_cost (r, n, error);
}

static gboolean
cost_line (Reader *r, const char *s, const char *end, GError **error)
{
  if (!r->have_events)
    {
      /* the user sees numbers; say what is missing, and what the line was
       * taken for */
      int shown = (int) MIN (end - s, 40);
      return fail (r, error, CG_ERROR_PARSE,
                   "'%.*s%s' is a cost line, but no 'events: NAME...' line came before it to say what its"
                   " numbers count: a callgrind profile names its events in its header (events: Ir), before"
                   " the first cost; was the header cut off?",
                   shown, s, end - s > shown ? "..." : "");
    }
  const char *p = s;
  guint64 pos[MAX_POSITIONS];
  for (guint i = 0; i < r->n_positions; i++)
    {
      skip_blanks (&p, end);
      if (!scan_subposition (&p, end, r->last[i], &pos[i]))
        return fail (r, error, CG_ERROR_PARSE, "expected %u position%s at the start of the cost line",
                     r->n_positions, r->n_positions > 1 ? "s" : "");
    }
  guint n = 0;
  guint64 *cols = (guint64 *) r->cols->data;
  for (;;)
    {
      skip_blanks (&p, end);
      if (p == end)
        break;
      if (n == r->n_cols)
        return fail (r, error, CG_ERROR_PARSE, "more costs than the %u event%s of events:", r->n_cols,
                     r->n_cols > 1 ? "s" : "");
      if (!scan_number (&p, end, &cols[n]))
        return fail (r, error, CG_ERROR_PARSE, "expected a cost (an unsigned 64-bit number)");
      n++;
    }
  return apply_cost_line (r, pos, n, error);
}

/* The object a function of @object (string id) and @file is keyed by.
 * Other producers (pyprof2calltree, Xdebug, dprof2calltree) name no
 * object, and functions of one name in several files are distinct there
 * (pyprof2calltree's "<module>" of every module, "__init__"): KCachegrind
 * keys them by file too.  In their files a function without an object
 * takes its file ("???" and none are no file) as its object. */
static guint32
object_of (Reader *r, guint32 object, guint32 file)
{
  if (r->cachegrind)
    return object;
  if (object != r->empty || r->names == CG_CALLGRIND_NAMES_CALLGRIND || r->names == CG_CALLGRIND_NAMES_CGTOOLS
      || file == r->empty || file == r->unknown)
    return object;
  return file;
}

/* What a calls= line does once read: @calls calls of the function cfn=
 * named, whose file and line (@target_line, or 0) it may give; its cost
 * line comes next. */
static void
enter_call (Reader *r, guint64 calls, guint64 target_line)
{
  r->any_call = TRUE;
  r->fn_provisional = FALSE; /* a caller block: the calls are the other file's function's */
  guint32 object = object_of (r, r->cob != CG_NO_ID ? r->cob : r->ob, r->cfi != CG_NO_ID ? r->cfi : r->file);
  r->pending_callee = node_of_id (r, object, r->cfn_name, r->cfn_id, r->cfi != CG_NO_ID ? r->cfi : r->file);
  Node *callee = node_at (r, r->pending_callee);
  if (!callee->located)
    {
      /* the first call that knows them gives the callee's file and line */
      cg_graph_function_set_location_id (r->graph, callee->function, r->cfi != CG_NO_ID ? r->cfi : r->file,
                                         (guint32) MIN (target_line, (guint64) G_MAXUINT32));
      callee->located = *cg_graph_function_file (r->graph, callee->function) != '\0'
                        && cg_graph_function_line (r->graph, callee->function) != 0;
    }
  r->pending = PENDING_CALL;
  r->pending_calls = calls;
  r->pending_line = r->line;
}

/* "calls=COUNT TARGET-POSITION..." */
static gboolean
calls_line (Reader *r, const char *p, const char *end, GError **error)
{
  if (!r->have_events)
    return fail (r, error, CG_ERROR_PARSE, "calls= before the events: line");
  if (r->cfn_name == CG_NO_ID)
    return fail (r, error, CG_ERROR_PARSE, "calls= without a preceding cfn= line");
  skip_blanks (&p, end);
  guint64 calls;
  if (!scan_number (&p, end, &calls))
    return fail (r, error, CG_ERROR_PARSE, "calls= expects a call count");
  /* target positions: relative to the current ones, which they do not move */
  guint64 target_line = 0;
  for (guint i = 0; i < r->n_positions; i++)
    {
      skip_blanks (&p, end);
      if (p == end)
        break;
      guint64 v;
      if (!scan_subposition (&p, end, r->last[i], &v))
        return fail (r, error, CG_ERROR_PARSE, "calls= has a malformed target position");
      if ((gint) i == r->line_column)
        target_line = v;
    }
  enter_call (r, calls, target_line);
  return TRUE;
}

/* "fn=": the cost lines that follow are the function (name index @name,
 * given by the function @id or CG_NO_ID)'s, in the current object. */
static gboolean
enter_function (Reader *r, guint32 name, guint32 id, GError **error)
{
  if (!flush_self (r, error))
    return FALSE;
  /* lsprofcalltree.py and bzr's --lsprof-file name a function's file
   * by fi= before its fn= ("fi=~ fn=<len>"), which callgrind only writes
   * after it (inlined code): there it is the function's file, as fl=,
   * and as KCachegrind takes it */
  if (r->fi_unused)
    r->fl = r->file;
  r->fi_unused = FALSE;
  guint32 object = object_of (r, r->ob, r->fl);
  next_block (r);
  r->file = r->fl;
  /* nytprofcg (Devel::NYTProf) writes each call's block under the file
   * of the call's site, not of the calling sub ("fl=Pod/Text.pm
   * fn=main::BEGIN@17", whose own block said fl=/usr/bin/pod2text), and
   * such a block holds calls only; a function's own block in the files
   * of pyprof2calltree and Xdebug starts with its self cost line.  So a
   * block of a name known in one other file only is that file's
   * function's until a self cost line says otherwise. */
  const NameInfo *info = &g_array_index (r->name_info, NameInfo, name);
  r->fn_provisional = object != r->ob && info->node != CG_NO_ID && !info->multi
                      && node_at (r, info->node)->object != object;
  if (r->fn_provisional)
    {
      r->fn_node = info->node;
      r->fn_own_object = object;
      r->fn_own_name = name;
      r->fn_own_id = id;
      return TRUE;
    }
  r->fn_node = node_of_id (r, object, name, id, r->fl);
  cg_graph_function_set_location_id (r->graph, node_at (r, r->fn_node)->function, r->fl, 0);
  return TRUE;
}

static gboolean
spec_line (Reader *r, const char *key, gsize klen, const char *p, const char *end, GError **error)
{
#define KEY(s) (klen == sizeof (s) - 1 && memcmp (key, s, klen) == 0)
  guint32 string;
  guint32 name;
  if (KEY ("calls"))
    return calls_line (r, p, end, error);
  if (KEY ("jump") || KEY ("jcnd"))
    {
      r->pending = PENDING_JUMP;
      r->pending_line = r->line;
      return TRUE;
    }
  if (KEY ("fn"))
    return parse_name (r, SPACE_FUNCTION, p, end, &name, error) && enter_function (r, name, CG_NO_ID, error);
  if (KEY ("cfn"))
    {
      r->cfn_id = CG_NO_ID;
      return parse_name (r, SPACE_FUNCTION, p, end, &r->cfn_name, error);
    }
  if (KEY ("jfn"))
    return parse_name (r, SPACE_FUNCTION, p, end, &name, error);
  if (KEY ("ob"))
    return parse_name (r, SPACE_OBJECT, p, end, &r->ob, error);
  if (KEY ("cob"))
    return parse_name (r, SPACE_OBJECT, p, end, &r->cob, error);
  if (KEY ("fl"))
    {
      if (!parse_name (r, SPACE_FILE, p, end, &r->fl, error))
        return FALSE;
      r->file = r->fl;
      r->fi_unused = FALSE;
      return TRUE;
    }
  if (KEY ("fi") || KEY ("fe"))
    return (r->fi_unused = parse_name (r, SPACE_FILE, p, end, &r->file, error));
  if (KEY ("cfi") || KEY ("cfl"))
    return parse_name (r, SPACE_FILE, p, end, &r->cfi, error);
  if (KEY ("jfi"))
    return parse_name (r, SPACE_FILE, p, end, &string, error);
  /* rec=, frfn= (--mangle-names=no), bb=, ln= (--dump-bbs=yes), rcalls= */
  warn_once (r, key, klen, "line kind");
  return TRUE;
#undef KEY
}

/* Xdebug's profiler_append=1 writes each profile after a line "====
 * NEW PROFILING FILE ====...": a file of several profiles, summed. */
static gboolean
is_xdebug_separator (const char *s, gsize len)
{
  static const char mark[] = "==== NEW PROFILING FILE ";
  return len >= sizeof mark - 1 && memcmp (s, mark, sizeof mark - 1) == 0;
}

static gboolean
handle_line (Reader *r, const char *s, gsize len, GError **error)
{
  const char *end = s + len, *p = s;
  skip_blanks (&p, end);
  if (p == end || *s == '#')
    return TRUE;
  char c = *s;
  if (g_ascii_isdigit (c) || c == '+' || c == '-' || c == '*')
    return cost_line (r, s, end, error);
  if (r->pending != PENDING_NONE)
    return fail (r, error, CG_ERROR_PARSE, "expected the cost line of the %s at line %" G_GUINT64_FORMAT,
                 r->pending == PENDING_CALL ? "calls=" : "jump", r->pending_line);
  if (is_xdebug_separator (s, len))
    return TRUE; /* the next profile's headers start its part */
  gsize k = 0;
  while (k < len && (g_ascii_isalnum (s[k]) || s[k] == '_'))
    k++;
  if (k > 0 && k < len && s[k] == '=')
    return spec_line (r, s, k, s + k + 1, end, error);
  if (k > 0 && k < len && s[k] == ':')
    return header_line (r, s, k, s + k + 1, end, error);
  const char *colon = memchr (s, ':', len);
  if (k > 0 && colon)
    {
      /* header keys with blanks, e.g. KCachegrind's "timeframe (BB):" */
      warn_once (r, s, (gsize) (colon - s), "header line");
      return TRUE;
    }
  return fail (r, error, CG_ERROR_PARSE, "not a callgrind line: '%.*s'", (int) MIN (len, 40), s);
}

/* ---- records of the lexer ---- */

typedef enum { RECORD_APPLIED, RECORD_UNUSED, RECORD_FAILED } RecordResult;

/* The positions @p of @n columns make of the current ones, in @out. */
static gboolean
resolve_positions (const Reader *r, const CgLexPosition *p, guint n, guint64 *out)
{
  for (guint i = 0; i < n; i++)
    if (!cg_lex_position_apply (&p[i], r->last[i], &out[i]))
      return FALSE;
  return TRUE;
}

/* Does what reading @rec's lines would do, when the reader's state is
 * what the lexer took it to be and the lines would be read without an
 * error; RECORD_UNUSED leaves everything as it was, for the lines to be
 * read one by one (and any error to be told at its line).  r->line is
 * the record's first line, and its last one after. */
static RecordResult
apply_record (Reader *r, const CgLexBlock *b, const CgLexRecord *rec, GError **error)
{
  if (r->pending != PENDING_NONE)
    return RECORD_UNUSED;
  const guint64 *num = b->numbers + rec->number;
  if (rec->kind == CG_LEX_NAME || rec->kind == CG_LEX_DEFINITION)
    {
      CgLexNameKey key = (CgLexNameKey) num[0];
      gboolean function = key == CG_LEX_KEY_FN || key == CG_LEX_KEY_CFN;
      IdTable *ids = function ? &r->function_ids : key == CG_LEX_KEY_FL ? &r->file_ids : &r->object_ids;
      guint32 value;
      if (rec->kind == CG_LEX_DEFINITION)
        {
          /* as parse_name defines it, with the lexer's hash */
          const char *name = b->text + rec->start + num[2];
          value = cg_graph_intern_tagged_id (r->graph, name, (gsize) num[3], (guint32) num[4]);
          if (function)
            value = name_info_of (r, value);
          id_table_store (ids, (guint32) num[1], value);
        }
      else if ((value = id_table_lookup (ids, (guint32) num[1])) == CG_NO_ID)
        return RECORD_UNUSED; /* undefined: the line says so when read */
      switch (key)
        {
        case CG_LEX_KEY_FN:
          return enter_function (r, value, (guint32) num[1], error) ? RECORD_APPLIED : RECORD_FAILED;
        case CG_LEX_KEY_CFN:
          r->cfn_name = value;
          r->cfn_id = (guint32) num[1];
          break;
        case CG_LEX_KEY_OB:
          r->ob = value;
          break;
        case CG_LEX_KEY_COB:
          r->cob = value;
          break;
        case CG_LEX_KEY_FL:
          r->fl = r->file = value;
          r->fi_unused = FALSE;
          break;
        }
      return RECORD_APPLIED;
    }
  if (!r->have_events || rec->n_positions != r->n_positions || rec->n_cols != r->n_cols || r->fn_node == CG_NO_ID)
    return RECORD_UNUSED;
  const CgLexPosition *pos = b->positions + rec->position;
  guint64 at[MAX_POSITIONS];
  if (rec->kind == CG_LEX_RUN)
    {
      guint64 *acc = (guint64 *) r->self_acc->data;
      if (!resolve_positions (r, pos, rec->n_positions, at))
        return RECORD_UNUSED;
      for (guint i = 0; i < rec->n_costs; i++)
        if (acc[i] > G_MAXUINT64 - num[i])
          return RECORD_UNUSED;
      own_block (r);
      r->fi_unused = FALSE;
      for (guint i = 0; i < rec->n_costs; i++)
        acc[i] += num[i];
      memcpy (r->last, at, sizeof (guint64) * rec->n_positions);
      r->self_pending = TRUE;
      r->line += rec->lines - 1;
      return RECORD_APPLIED;
    }
  /* calls= and its cost line */
  if (r->cfn_name == CG_NO_ID)
    return RECORD_UNUSED;
  guint64 target_line = 0;
  for (guint i = 0; i < rec->n_targets; i++)
    {
      guint64 v;
      if (!cg_lex_position_apply (&pos[i], r->last[i], &v))
        return RECORD_UNUSED;
      if ((gint) i == r->line_column)
        target_line = v;
    }
  if (!resolve_positions (r, pos + rec->n_targets, rec->n_positions, at))
    return RECORD_UNUSED;
  enter_call (r, num[0], target_line);
  r->line++;
  memcpy (r->cols->data, num + 1, sizeof (guint64) * rec->n_costs);
  return apply_cost_line (r, at, rec->n_costs, error) ? RECORD_APPLIED : RECORD_FAILED;
}

/* ---- driver ---- */

static void
reader_clear (Reader *r)
{
  id_table_clear (&r->object_ids);
  id_table_clear (&r->file_ids);
  id_table_clear (&r->function_ids);
  g_array_unref (r->name_info);
  cg_pair_map_free (r->node_index);
  g_array_unref (r->nodes);
  g_array_unref (r->apart);
  cg_matrix_clear (&r->node_sum);
  g_array_unref (r->touched);
  g_array_unref (r->event_map);
  g_array_unref (r->part_self);
  g_array_unref (r->event_flags);
  g_clear_pointer (&r->totals, g_array_unref);
  g_clear_pointer (&r->summary, g_array_unref);
  g_array_unref (r->cols);
  g_array_unref (r->self_acc);
  cg_arc_runs_free (r->arc_runs);
  g_free (r->command);
  g_free (r->creator);
  g_free (r->undefined_first);
  g_hash_table_unref (r->descriptions);
  g_hash_table_unref (r->warned);
}

/* Without the recursion split, calls inside the graph's cycles nest and
 * their inclusive costs overlap: flag this file's functions there. */
static void
flag_nested_functions (Reader *r)
{
  g_autoptr (CgScc) scc = cg_scc_find (r->graph, NULL, NULL);
  for (guint i = 0; i < r->nodes->len; i++)
    {
      CgFunctionId f = node_at (r, i)->function;
      if (scc->size[scc->component_of[f]] > 1)
        cg_graph_function_set_flags (r->graph, f, cg_graph_function_flags (r->graph, f) | CG_FUNCTION_NESTED);
    }
}

/* Moves the first of each pair of functions node_of told apart to its
 * object named apart: by its file's base name, else by its whole name
 * (a function of that object and name there already), else it keeps its
 * object.  (graph_function lists functions of earlier inputs too.) */
static void
move_apart (Reader *r)
{
  if (r->apart->len == 0)
    return;
  /* a function is listed once per context or file that showed it */
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) functions = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  g_autoptr (GArray) files = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < r->apart->len; i++)
    {
      const Apart *a = &g_array_index (r->apart, Apart, i);
      if (g_hash_table_add (seen, GUINT_TO_POINTER (a->function)))
        {
          g_array_append_val (functions, a->function);
          g_array_append_val (files, a->file);
        }
    }
  guint n = functions->len;
  g_autofree guint32 *objects = g_new (guint32, n);
  g_autofree gboolean *moved = g_new (gboolean, n);
  for (int whole = 0; whole <= 1 && n > 0; whole++)
    {
      for (guint i = 0; i < n; i++)
        objects[i] = apart_object (r, cg_graph_function_object_id (r->graph, g_array_index (functions, CgFunctionId, i)),
                                   g_array_index (files, guint32, i), whole);
      cg_graph_move_functions (r->graph, (const CgFunctionId *) (gpointer) functions->data, objects, n, moved);
      /* those not moved try their file's whole name */
      guint kept = 0;
      for (guint i = 0; i < n; i++)
        if (!moved[i])
          {
            g_array_index (functions, CgFunctionId, kept) = g_array_index (functions, CgFunctionId, i);
            g_array_index (files, guint32, kept) = g_array_index (files, guint32, i);
            kept++;
          }
      n = kept;
    }
}

/* Whether @name ends in " [I/N]", as pprof -call_tree names its call
 * tree's nodes; *@base_len: the length before it. */
static gboolean
is_tree_node_name (const char *name, gsize *base_len)
{
  gsize len = strlen (name);
  const char *open = strrchr (name, '[');
  if (open == NULL || open < name + 2 || open[-1] != ' ' || len < 2 || name[len - 1] != ']')
    return FALSE;
  const char *p = open + 1;
  gsize digits = strspn (p, "0123456789");
  if (digits == 0 || p[digits] != '/')
    return FALSE;
  p += digits + 1;
  digits = strspn (p, "0123456789");
  if (digits == 0 || p + digits != name + len - 1)
    return FALSE;
  *base_len = (gsize) (open - 1 - name);
  return TRUE;
}

/* pprof -call_tree names each node of its call tree apart where it is
 * called ("example.com/rec.even [6/14]"), but writes every node's costs
 * and calls under the plain name ("fn=example.com/rec.even"): the plain
 * function then sums the calls of all its nodes, nested ones too (872 %
 * of go test's profile), and the named nodes have calls into them and
 * nothing else.  Such files are told by callees of that form with no
 * block of their own beside a function of the plain name, and warned of. */
static void
warn_call_tree_names (Reader *r)
{
  guint64 n = 0;
  const char *example = NULL;
  for (guint i = 0; i < r->nodes->len; i++)
    {
      CgFunctionId f = node_at (r, i)->function;
      const char *name = cg_graph_function_name (r->graph, f);
      gsize base_len;
      guint n_out;
      if (!is_tree_node_name (name, &base_len))
        continue;
      cg_graph_out_arcs (r->graph, f, &n_out);
      g_autofree char *base = g_strndup (name, base_len);
      if (n_out > 0 || cg_graph_lookup_function (r->graph, cg_graph_function_object (r->graph, f), base) == CG_NO_ID)
        continue;
      n++;
      example = example ? example : name;
    }
  if (n > 0)
    cg_read_warn (r->options, "%s: %" G_GUINT64_FORMAT " callee%s named as pprof -call_tree names its call tree's "
                  "nodes (the first: %s), whose costs and calls it writes under the plain name: such a function's "
                  "total sums all its nodes' calls, nested ones too, and can exceed the profile's; write the file "
                  "without -call_tree", cg_input_name (r->in), n, n == 1 ? "" : "s", example);
}

static gboolean
finish_file (Reader *r, GError **error)
{
  if (r->pending != PENDING_NONE)
    return fail (r, error, CG_ERROR_TRUNCATED, "the file ends after the %s at line %" G_GUINT64_FORMAT
                 ", before its cost line (truncated)", r->pending == PENDING_CALL ? "calls=" : "jump",
                 r->pending_line);
  if (!finish_part (r, error))
    return FALSE;
  if (r->parts == 0)
    return fail (r, error, CG_ERROR_PARSE, "no events: line: not a complete callgrind profile");
  move_apart (r);
  /* valgrind's callgrind without 'N names nests calls only where a
   * function called itself (--separate-recs=1); other producers split no
   * recursion at all, so any cycle of theirs may nest (cProfile's run of a
   * script that imports: the script's top-level exec is called again by
   * importlib inside it); cgtools' own export writes outermost calls
   * only, and marks what nests */
  gboolean splits = is_callgrind (r) || (r->creator && g_str_has_prefix (r->creator, PACKAGE_NAME));
  if (!r->level_names && (r->nested_calls || !splits))
    flag_nested_functions (r);
  /* callgrind measures inclusive costs even where nothing was called */
  cg_graph_set_has_inclusive (r->graph, TRUE);
  g_autoptr (GString) uncarried = g_string_new (NULL);
  for (guint e = 0; e < r->event_flags->len; e++)
    if (g_array_index (r->event_flags, guint8, e) == EVENT_CALLEE_SELF)
      g_string_append_printf (uncarried, " %s", cg_graph_event_name (r->graph, e));
  if (r->undefined_uses > 0)
    cg_read_warn (r->options, "%s is used but not defined before: read as an empty name, as callgrind_annotate"
                  " does (%" G_GUINT64_FORMAT " use%s of undefined ids in the file)",
                  r->undefined_first, r->undefined_uses, r->undefined_uses == 1 ? "" : "s");
  if (uncarried->len > 0)
    cg_read_warn (r->options, "%s: no calls= line carries any cost of%s (callgrind writes none of "
                  "--cacheuse's events there), so their totals count no callee's cost",
                  cg_input_name (r->in), uncarried->str);
  GHashTableIter it;
  gpointer name, description;
  g_hash_table_iter_init (&it, r->descriptions);
  while (g_hash_table_iter_next (&it, &name, &description))
    {
      gint e = cg_graph_find_event (r->graph, name);
      if (e >= 0 && cg_graph_event_description (r->graph, (guint) e) == NULL)
        cg_graph_set_event_description (r->graph, (guint) e, description);
    }
  if (r->hit_counts > 0)
    cg_read_warn (r->options, "%s: calls= lines whose count is their cost in Hits, as gperftools' pprof --callgrind "
                  "writes its samples: %" G_GUINT64_FORMAT " such counts are no calls counted, and are not kept",
                  cg_input_name (r->in), r->hit_counts);
  warn_call_tree_names (r);
  if (r->cachegrind && !r->any_call)
    cg_read_warn (r->options, "%s: a cachegrind profile, which records no calls: every total is the function's "
                  "own cost (valgrind --tool=callgrind records the calls and their inclusive costs)",
                  cg_input_name (r->in));
  cg_profile_add_source (r->profile, "callgrind", cg_input_name (r->in), r->command,
                         r->creator ? r->creator : r->cachegrind ? "cachegrind" : NULL);
  /* the views would say every total is exact, measured by callgrind */
  if (r->cachegrind && !r->any_call)
    cg_profile_set_source_note (r->profile, "cachegrind records no calls (valgrind --tool=callgrind records"
                                            " them): callers are not known, and each function's total is its"
                                            " own cost only.");
  return TRUE;
}

gboolean
cg_read_callgrind (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error)
{
  return cg_read_callgrind_in_pieces (profile, input, options, G_MAXSIZE, error);
}

gboolean
cg_read_callgrind_in_pieces (CgProfile *profile, CgInput *input, const CgReadOptions *options, gsize piece,
                             GError **error)
{
  static const CgReadOptions defaults = { 0 };
  Reader r = {
    .profile = profile,
    .graph = cg_profile_graph (profile),
    .in = input,
    .options = options ? options : &defaults,
    .name_info = g_array_new (FALSE, TRUE, sizeof (NameInfo)),
    .node_index = cg_pair_map_new (node_key, &r),
    .nodes = g_array_new (FALSE, FALSE, sizeof (Node)),
    .apart = g_array_new (FALSE, FALSE, sizeof (Apart)),
    .touched = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .event_map = g_array_new (FALSE, FALSE, sizeof (guint)),
    .part_self = g_array_new (FALSE, FALSE, sizeof (guint64)),
    .event_flags = g_array_new (FALSE, TRUE, sizeof (guint8)),
    .cols = g_array_new (FALSE, TRUE, sizeof (guint64)),
    .self_acc = g_array_new (FALSE, TRUE, sizeof (guint64)),
    .arc_runs = cg_arc_runs_new (cg_profile_graph (profile)),
    .descriptions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free),
    .warned = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
  };
  id_table_init (&r.object_ids);
  id_table_init (&r.file_ids);
  id_table_init (&r.function_ids);
  cg_matrix_init (&r.node_sum, cg_graph_n_events (r.graph));
  reset_part (&r);
  r.own_functions = cg_graph_n_functions (r.graph) == 0;
  r.names = cg_callgrind_names_of (NULL);
  r.empty = cg_graph_intern_id (r.graph, "", 0);
  r.unknown = cg_graph_intern_id (r.graph, "???", 3);

  gboolean ok = TRUE;
  GError *local = NULL;
  CgCallgrindLexer *lexer = cg_callgrind_lexer_new (input, piece);
  CgLexBlock block;
  while (ok && cg_callgrind_lexer_next (lexer, &block, &local))
    {
      const char *p = block.text, *end = block.text + block.len;
      /* no records (no lexing) may come as NULL, which takes no offset */
      const CgLexRecord *rec = block.records, *rec_end = block.n_records > 0 ? rec + block.n_records : rec;
      while (ok && p < end)
        {
          r.line++;
          if (rec < rec_end && p == block.text + rec->start)
            {
              /* the string table's slot for a name defined a few records
               * on (by its tag, the record's fifth number): new names go
               * all over the table, a cache miss each, which this
               * overlaps with the work between */
              if (rec_end - rec > PREFETCH_AHEAD && rec[PREFETCH_AHEAD].kind == CG_LEX_DEFINITION)
                cg_graph_prefetch_string (r.graph, (guint32) block.numbers[rec[PREFETCH_AHEAD].number + 4]);
              RecordResult result = apply_record (&r, &block, rec, &local);
              ok = result != RECORD_FAILED;
              if (result == RECORD_APPLIED)
                p = block.text + rec->end;
              rec++;
              if (result != RECORD_UNUSED)
                continue;
            }
          const char *nl = memchr (p, '\n', (gsize) (end - p));
          const char *eol = nl ? nl : end;
          gsize len = (gsize) (eol - p);
          if (len > 0 && eol[-1] == '\r')
            len--;
          ok = handle_line (&r, p, len, &local);
          p = nl ? nl + 1 : end;
        }
    }
  cg_callgrind_lexer_free (lexer);
  if (ok && local == NULL)
    ok = finish_file (&r, &local);
  g_autoptr (CgArcRuns) arc_runs = g_steal_pointer (&r.arc_runs);
  reader_clear (&r);
  /* after the reader's tables are gone, so that its peak is not this one */
  GError *merge_error = NULL;
  if (!cg_arc_runs_merge (arc_runs, NULL, &merge_error))
    {
      if (ok && local == NULL)
        g_set_error (&local, CG_ERROR, merge_error->code, "%s: %s", cg_input_name (input), merge_error->message);
      ok = FALSE;
      g_error_free (merge_error);
    }
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return ok;
}

/* Whether @s (@len bytes, without its newline) has the shape of a
 * callgrind line as handle_line() tells them apart: blank, a comment, a
 * cost line, "key=..." or "key:..." (a header key may hold blanks), in
 * text without control characters.  Sets *@evidence for a line only the
 * format has: "events:", "positions:", "fn=", "calls=" ... */
static gboolean
line_shaped (const char *s, gsize len, gboolean *evidence)
{
  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) s[i];
      if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
        return FALSE;
    }
  const char *p = s, *end = s + len;
  skip_blanks (&p, end);
  if (p == end || *p == '\r' || *s == '#')
    return TRUE; /* not counted: see cg_callgrind_detect */
  if (is_xdebug_separator (s, len))
    return TRUE;
  char c = *s;
  if (g_ascii_isdigit (c) || c == '+' || c == '-' || c == '*')
    return TRUE;
  gsize k = 0;
  while (k < len && (g_ascii_isalnum (s[k]) || s[k] == '_'))
    k++;
  if (k == 0)
    return FALSE;
  if (k < len && (s[k] == '=' || s[k] == ':'))
    {
      /* the keys only callgrind's format has (version:, cmd: and the
       * like are any "key: value" text's) */
      static const char *const headers[] = { "events", "positions", "totals", "summary" };
      static const char *const specs[] = { "ob", "fl", "fi", "fe", "fn", "cob", "cfi", "cfl", "cfn", "calls",
                                           "jump", "jcnd" };
      const char *const *keys = s[k] == ':' ? headers : specs;
      guint n = s[k] == ':' ? G_N_ELEMENTS (headers) : G_N_ELEMENTS (specs);
      for (guint i = 0; i < n; i++)
        *evidence |= strlen (keys[i]) == k && memcmp (s, keys[i], k) == 0;
      return TRUE;
    }
  /* a header key with blanks, as KCachegrind's "timeframe (BB):": words
   * and parentheses, no number (a perf script sample's "comm 12 3.45:"
   * is none) */
  const char *colon = memchr (s, ':', len);
  if (colon == NULL)
    return FALSE;
  for (const char *q = s; q < colon; q++)
    if (!g_ascii_isalnum (*q) && *q != '_' && *q != ' ' && *q != '(' && *q != ')')
      return FALSE;
    else if (q > s && q[-1] == ' ' && g_ascii_isdigit (*q))
      return FALSE; /* words, not numbers: "thr 284381:" is no key */
  return TRUE;
}

gboolean
cg_callgrind_detect (const guint8 *data, gsize len, gboolean complete)
{
  static const char *const keys[] = {
    "version:", "creator:", "pid:", "cmd:", "part:", "desc:", "positions:", "events:",
    "event:", "thread:", "ob=", "fl=", "fn=",
  };
  static const char header[] = "# callgrind format";
  const guint8 *p = data, *end = data + len;
  if (len >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;
  gboolean known_start = (gsize) (end - p) >= sizeof header - 1 && memcmp (p, header, sizeof header - 1) == 0;
  const char *line;
  gsize line_len;
  gboolean line_complete;
  if (!known_start && cg_read_first_line (data, len, complete, &line, &line_len, &line_complete))
    {
      while (line_len > 0 && (*line == ' ' || *line == '\t' || *line == '\r'))
        line++, line_len--;
      for (guint i = 0; i < G_N_ELEMENTS (keys) && !known_start; i++)
        {
          gsize k = strlen (keys[i]);
          known_start = line_len >= k && memcmp (line, keys[i], k) == 0;
        }
      known_start |= is_xdebug_separator (line, line_len);
    }
  if (!known_start)
    return FALSE;
  /* every line the window holds whole has a callgrind line's shape, and
   * a profile's lines show, unless the window ends inside the headers */
  gboolean evidence = (gsize) (end - p) >= sizeof header - 1 && memcmp (p, header, sizeof header - 1) == 0;
  guint lines = 0, shaped = 0;
  while (p < end)
    {
      const guint8 *nl = memchr (p, '\n', (gsize) (end - p));
      if (nl == NULL && !complete)
        break; /* cut by the window */
      const guint8 *eol = nl ? nl : end;
      /* blank lines and comments are any text's: only the others count */
      const guint8 *q = p;
      while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
        q++;
      gboolean content = q < eol && *p != '#';
      gboolean ok = line_shaped ((const char *) p, (gsize) (eol - p), &evidence);
      lines += content;
      shaped += content && ok;
      if (!content && !ok)
        return FALSE; /* a comment with control characters: no text */
      p = nl ? nl + 1 : end;
    }
  /* a profile with a garbled line is still a profile, whose reader names
   * the line; text with a callgrind-like line here and there is not: more
   * than half the lines must be the format's */
  return 2 * shaped > lines && (evidence || !complete);
}
