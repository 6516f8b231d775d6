/* cg-read-perf.c — perf script's samples into the call tree and the graph. */
#include "config.h"

#include "cg-read-perf.h"

#include <stdarg.h>
#include <string.h>

#include "cg-cold-part.h"
#include "cg-demangle.h"
#include "cg-elf-functions.h"
#include "cg-error.h"
#include "cg-perf-depths.h"
#include "cg-perf-lines.h"
#include "cg-read-callgrind.h"
#include "cg-collapse.h"


/* One frame of the sample being read: its name and object in r->text. */
typedef struct {
  gsize name, name_len, object, object_len, ip, ip_len;
  gboolean kernel, inlined;
  gboolean bare; /* no symbol printed */
  gboolean unplaced; /* inlined, no frame of its address names the object */
  gboolean has_start; /* the address less the symbol's "+0xOFF" is known */
  guint64 start;      /* so: the start of the ELF symbol it lies in */
  gboolean has_address;
  guint64 address;    /* the address */
  gboolean unknown;   /* perf printed [unknown] for its symbol */
  gboolean renamed;   /* named by its call (name_callers), in the function of ... */
  const char *apart;  /* ... this apart (cg_elf_functions_apart), owned by r->elf */
  gboolean misplaced; /* inlined at a return address that lies past its caller */
  gboolean duplicate; /* perf printed its frame twice (mark_duplicates) */
  CgFunctionId function; /* once made, else CG_NO_ID */
} Frame;

/* layouts a file may mix: perf has a few kinds of event (hardware,
 * software, tracepoint, raw, breakpoint...) */
#define MAX_LAYOUTS 8

/* perf script prints each kind of event with its own fields (a
 * tracepoint's samples with [cpu] and no period, cpu-clock's with a
 * period): the layouts of the headers seen, the first one first, and
 * each event's.  The reader's, and the detector's over its window, so
 * that what the one accepts the other reads. */
typedef struct {
  guint first;  /* the first header's fields; 0 before it */
  guint layouts[MAX_LAYOUTS];
  guint n_layouts;
  GHashTable *events; /* event name -> its layout */
  GString *name;      /* scratch */
} Layouts;

static void
layouts_init (Layouts *l)
{
  *l = (Layouts) { .events = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), .name = g_string_new (NULL) };
}

static void
layouts_clear (Layouts *l)
{
  g_hash_table_unref (l->events);
  g_string_free (l->name, TRUE);
}

typedef enum {
  IDLE,   /* between samples */
  HEADER, /* a header read, no frame yet */
  FRAMES, /* in a call chain */
  SKIP,   /* --lenient: skipping a bad sample up to the next blank line */
} State;

typedef struct {
  CgProfile *profile;
  CgGraph *graph;
  CgTree *tree;
  CgInput *in;
  const CgReadOptions *options;
  Layouts lay;
  gboolean headerless; /* -F without header fields: a sample is an empty line and frames */
  gboolean told_no_pid; /* --split=pid's warning that the layout has no pid was given */
  gboolean chains;     /* some sample had a call chain */
  gboolean framed;     /* some sample had a frame (a call chain's, or its header's address and symbol) */
  guint64 first_sample; /* the first sample's line, 0 before it */
  CgPerfInlined *inlined; /* nullable: the inlined frames' functions, for cg_perf_place_inlined */
  gboolean any_line;   /* a line other than '#' comments was read */
  gboolean in_message; /* between samples, in perf's messages (is_perf_message) */
  State state;
  guint64 sample_line; /* where the current sample starts */
  /* the current sample */
  GString *root;  /* its root frame's name, empty for none */
  guint event;
  CgValue value;
  GString *rest;  /* a header's text after the event (a one-line sample) */
  GString *text;  /* the frames' names and objects */
  GArray *frames; /* Frame, leaf first as perf prints them */
  GString *name;  /* scratch */
  GString *object;
  /* events by name, the last one cached */
  GHashTable *events; /* name → index + 1 */
  GString *last_event;
  guint last_event_index;
  guint64 skipped;
  guint64 first_skipped;
  char *first_reason;
  CgPerfPass *pass;   /* nullable */
  guint64 ordinal;    /* of the current sample */
  guint select_at;    /* the next ordinal of pass->select */
  CgPerfDepths *depths; /* nullable: the chains' lengths, to tell cut ones */
  guint64 n_user;       /* samples with a frame of user space (pass->stack_user) */
  guint64 n_unwound_short; /* of them, those whose outermost frame is unknown */
  guint64 n_chained;    /* samples with a call chain and a frame of user space (not pass->stack_user) */
  guint64 n_stopped;    /* of them, those whose outermost frame is no entry (is_entry) */
  /* the objects of user-space frames: path -> CgElfFunctions, or NULL
   * where it could not be read (see apart_of); the last one looked up */
  GHashTable *elf;
  GString *elf_path;
  const CgElfFunctions *elf_last;
  /* what name_callers found at return addresses lately (stacks repeat) */
  struct {
    const CgElfFunctions *elf; /* NULL: empty */
    guint64 address;
    const char *caller, *apart; /* the function holding the address less 1 */
    const char *here;           /* the function holding the address */
    gboolean starts;            /* whether here starts at the address */
    char *caller_plain, *here_plain; /* the two as perf demangles them, NULL where not mangled (owned) */
  } calls[64];
  gboolean linker_names; /* perf script --no-demangle's text: a frame's name was a mangled one */
} Reader;

static gboolean G_GNUC_PRINTF (4, 5)
fail_at (Reader *r, GError **error, guint64 line, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  cg_read_failv (error, CG_ERROR_PARSE, cg_input_name (r->in), CG_AT_LINE, line, format, ap);
  va_end (ap);
  return FALSE;
}

static gboolean
overflow (Reader *r, GError **error, const char *what)
{
  return cg_read_fail (error, CG_ERROR_OVERFLOW, cg_input_name (r->in), CG_AT_LINE, cg_input_line_number (r->in),
                       "%s", what);
}

/* A bad sample: an error, or under --lenient skipped up to the next blank
 * line and counted. */
static gboolean
bad_sample (Reader *r, GError **error, const char *why)
{
  guint64 line = cg_input_line_number (r->in);
  if (!r->options->lenient)
    return fail_at (r, error, line, "%s", why);
  if (r->skipped++ == 0)
    {
      r->first_skipped = line;
      r->first_reason = g_strdup (why);
    }
  r->state = SKIP;
  return TRUE;
}

/* The profile's event for the sample's event name (@name, NULL when the
 * layout has none), its header having @fields. */
static gboolean
choose_event (Reader *r, guint fields, const CgPerfText *name, GError **error)
{
  const char *unit = (fields & CG_PERF_PERIOD) ? "events" : "samples";
  g_string_truncate (r->name, 0);
  if (name)
    g_string_append_len (r->name, name->s, (gssize) name->len);
  else
    g_string_append (r->name, (fields & CG_PERF_PERIOD) ? "period" : "samples");
  if (r->last_event->len > 0 && g_string_equal (r->name, r->last_event))
    {
      r->event = r->last_event_index;
      return TRUE;
    }
  gpointer found = g_hash_table_lookup (r->events, r->name->str);
  if (found == NULL)
    {
      /* cpu-clock and task-clock count their periods in nanoseconds,
       * whatever modifiers ("cpu-clock:u") or terms
       * ("cpu-clock/call-graph=fp/") the event was given */
      gsize base = strcspn (r->name->str, ":/");
      if ((fields & CG_PERF_PERIOD)
          && ((base == 9 && strncmp (r->name->str, "cpu-clock", 9) == 0)
              || (base == 10 && strncmp (r->name->str, "task-clock", 10) == 0)))
        unit = "ns";
      guint index;
      GError *local = NULL;
      if (!cg_profile_ensure_event (r->profile, r->name->str, unit, CG_KIND_INTEGER, &index, &local))
        {
          g_set_error (error, CG_ERROR, local->code, "%s:%" G_GUINT64_FORMAT ": %s", cg_input_name (r->in),
                       cg_input_line_number (r->in), local->message);
          g_error_free (local);
          return FALSE;
        }
      found = GUINT_TO_POINTER (index + 1);
      g_hash_table_insert (r->events, g_strdup (r->name->str), found);
    }
  r->event = GPOINTER_TO_UINT (found) - 1;
  g_string_assign (r->last_event, r->name->str);
  r->last_event_index = r->event;
  return TRUE;
}

static void
append_text (GString *s, const CgPerfText *t)
{
  g_string_append_len (s, t->s, (gssize) t->len);
}

/* The root frame's name, as stackcollapse-perf.pl writes it: the command
 * name with blanks as '_', then "-PID" and "/TID" as asked. */
static void
set_root (Reader *r, const CgPerfHeader *h)
{
  GString *s = r->root;
  g_string_truncate (s, 0);
  if (r->options->split == CG_SPLIT_NONE || (r->options->split == CG_SPLIT_COMM && !(h->fields & CG_PERF_COMM)))
    return;
  if (h->fields & CG_PERF_COMM)
    for (gsize i = 0; i < h->comm.len; i++)
      g_string_append_c (s, h->comm.s[i] == ' ' ? '_' : h->comm.s[i]);
  else
    g_string_append_c (s, '?');
  if (r->options->split == CG_SPLIT_COMM)
    return;
  g_string_append_c (s, '-');
  if (h->fields & CG_PERF_PID)
    append_text (s, &h->pid);
  else
    g_string_append_c (s, '?');
  if (r->options->split == CG_SPLIT_TID)
    {
      g_string_append_c (s, '/');
      if (h->fields & CG_PERF_TID)
        append_text (s, &h->tid);
      else
        g_string_append_c (s, '?');
    }
}

static void
add_frame (Reader *r, const CgPerfFrame *f)
{
  Frame x = { .inlined = f->inlined, .bare = f->sym.len == 0, .function = CG_NO_ID,
              .unknown = f->sym.len == 9 && memcmp (f->sym.s, "[unknown]", 9) == 0 };
  r->framed = TRUE;
  if (!f->inlined && f->sym.len > 2 && f->sym.s[0] == '_' && f->sym.s[1] == 'Z')
    r->linker_names = TRUE;
  x.object = r->text->len;
  if (!(f->dso.len == 9 && memcmp (f->dso.s, "[unknown]", 9) == 0))
    append_text (r->text, &f->dso);
  x.object_len = r->text->len - x.object;
  x.name = r->text->len;
  if (f->sym.len == 0 && f->ip.len > 0)
    {
      /* -F without sym: the address is all there is */
      g_string_append (r->text, "0x");
      append_text (r->text, &f->ip);
    }
  else if (f->sym.len == 0 || (f->sym.len == 9 && memcmp (f->sym.s, "[unknown]", 9) == 0))
    {
      /* as stackcollapse-perf: "[libc.so.6]" for an unknown symbol of a known DSO */
      gsize base = 0;
      for (gsize i = 0; i < f->dso.len; i++)
        if (f->dso.s[i] == '/')
          base = i + 1;
      gsize base_len = f->dso.len - base;
      if (x.object_len > 0 && base_len > 0)
        {
          g_string_append_c (r->text, '[');
          g_string_append_len (r->text, f->dso.s + base, (gssize) base_len);
          g_string_append_c (r->text, ']');
        }
      else
        g_string_append (r->text, "[unknown]");
    }
  else
    append_text (r->text, &f->sym);
  x.name_len = r->text->len - x.name;
  x.ip = r->text->len;
  append_text (r->text, &f->ip);
  x.ip_len = f->ip.len;
  x.kernel = cg_perf_is_kernel (&f->dso, &f->ip);
  if (f->ip.len > 0 && f->ip.len <= 16)
    {
      x.has_address = TRUE;
      x.address = g_ascii_strtoull (f->ip.s, NULL, 16);
    }
  if (x.has_address && f->symoff.len > 0 && f->symoff.len <= 16)
    {
      guint64 off = g_ascii_strtoull (f->symoff.s, NULL, 16);
      x.has_start = off <= x.address;
      x.start = x.address - off;
    }
  g_array_append_val (r->frames, x);
}

/* The symbols of the object @path (r->object), loaded once; NULL where
 * it cannot be read (not on this machine, or no ELF file). */
static const CgElfFunctions *
elf_of (Reader *r)
{
  if (r->elf_path->len == r->object->len && memcmp (r->elf_path->str, r->object->str, r->object->len) == 0)
    return r->elf_last;
  gpointer v;
  if (!g_hash_table_lookup_extended (r->elf, r->object->str, NULL, &v))
    {
      v = cg_elf_functions_load (r->object->str, NULL);
      g_hash_table_insert (r->elf, g_strdup (r->object->str), v);
    }
  g_string_assign (r->elf_path, r->object->str);
  r->elf_last = v;
  return v;
}

/* Where frame @x's symbol is one of several of its name in its object
 * (two files' static helper: perf report lists them apart, by address),
 * what tells it apart (cg_elf_functions_apart), else NULL.  The symbol
 * starts at the frame's address less its "+0xOFF".  perf script prints a
 * user-space address as the offset in the object's file, as perf
 * adjusts an executable's symbols (python3.11's 0x4fdb09 as fdb09; a
 * PIE's or a library's code mostly lies at the address of its offset):
 * the object's segments give its own address, which its symbols use
 * (cg_elf_functions_address).  Reads r->object and r->name, as
 * ensure_frame_function set them. */
static const char *
apart_of (Reader *r, const Frame *x)
{
  if (x->renamed)
    return x->apart;
  if (x->inlined || x->kernel || x->bare || !x->has_start || r->object->str[0] != '/')
    return NULL;
  const CgElfFunctions *elf = elf_of (r);
  guint64 start;
  return elf && cg_elf_functions_address (elf, x->start, &start) ? cg_elf_functions_apart (elf, start, r->name->str)
                                                                 : NULL;
}

/* The function of frame @x, its object and name left in r->object and
 * r->name; in the object cg_elf_apart_object names where the object has
 * other functions of its name.  The cold part gcc split off a function
 * (foo.cold: blocks that lead to a cold call, a throw, abort) runs in
 * the function's own activation, reached by a jump: its frames are the
 * function's, as gprof's symbols and libamon have it, not a callee. */
static CgFunctionId
ensure_frame_function (Reader *r, const Frame *x)
{
  g_string_truncate (r->object, 0);
  g_string_append_len (r->object, r->text->str + x->object, (gssize) x->object_len);
  g_string_truncate (r->name, 0);
  g_string_append_len (r->name, r->text->str + x->name, (gssize) x->name_len);
  const char *apart = apart_of (r, x);
  if (!x->inlined && !x->bare)
    g_string_truncate (r->name, cg_cold_part_base (r->name->str, r->name->len));
  if (x->kernel && r->options->kernel == CG_KERNEL_ANNOTATE)
    g_string_append (r->name, "_[k]");
  if (apart == NULL)
    return cg_graph_ensure_function (r->graph, r->object->str, r->name->str);
  g_autofree char *object = cg_elf_apart_object (r->object->str, apart);
  return cg_graph_ensure_function (r->graph, object, r->name->str);
}

/* One step down the tree: the child of @parent for @f, with its arc. */
static gboolean
step (Reader *r, CgFrameId *parent, CgFunctionId f, GError **error)
{
  if (f == CG_NO_ID)
    return overflow (r, error, "more than 2^32-1 functions");
  guint before = cg_tree_n_frames (r->tree);
  CgFrameId x = cg_tree_ensure_child (r->tree, *parent, f);
  if (x == CG_NO_ID)
    return overflow (r, error, "more than 2^32-2 frames in the call tree");
  /* each tree edge is made once: its arc (Kaes's E_t) with it */
  if (cg_tree_n_frames (r->tree) != before && *parent != CG_NO_ID
      && cg_graph_ensure_arc (r->graph, cg_tree_function (r->tree, *parent), f) == CG_NO_ID)
    return overflow (r, error, "more than 2^32-1 arcs");
  *parent = x;
  return TRUE;
}

/* Adds the sample read to the tree: its path root first, its cost on the
 * path's last frame. */
/* Adds @value to the self cost of @frame for @event, in the tree and the
 * graph. */
static gboolean
charge (CgProfile *profile, CgFrameId frame, guint event, guint64 value)
{
  CgTree *tree = cg_profile_tree (profile);
  CgValue v = { .n = value };
  CgFunctionId f = cg_tree_function (tree, frame);
  /* one sample: what its count's noise is reckoned from (cg-diff) */
  cg_graph_add_event_samples (cg_profile_graph (profile), event, 1, (gdouble) value);
  return cg_value_add (CG_KIND_INTEGER, &cg_tree_self (tree, frame)[event], v)
         && cg_value_add (CG_KIND_INTEGER, &cg_graph_self (cg_profile_graph (profile), f)[event], v);
}

gboolean
cg_perf_charge_held (CgProfile *profile, const GArray *held, const char *name, GError **error)
{
  for (guint i = 0; i < held->len; i++)
    {
      const CgPerfHeld *e = &g_array_index (held, CgPerfHeld, i);
      if (!charge (profile, e->frame, e->event, e->value))
        {
          g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s: a cost exceeds the range of 64-bit counters", name);
          return FALSE;
        }
    }
  return TRUE;
}

/* Whether the sample just read is one of those @r->pass selects (all
 * when it selects none). */
static gboolean
selected (Reader *r)
{
  guint64 k = r->ordinal++;
  if (r->pass == NULL || r->pass->select == NULL)
    return TRUE;
  const GArray *sel = r->pass->select;
  if (r->select_at < sel->len && g_array_index (sel, guint64, r->select_at) == k)
    {
      r->select_at++;
      return TRUE;
    }
  return FALSE;
}

struct _CgPerfInlined {
  guint n_before;        /* the profile's functions before the input */
  GHashTable *unplaced;  /* ids + 1 of functions of inlined frames without object */
  GHashTable *placed;    /* name -> id + 1 of the one function of inlined frames
                          * with an object of that name, 0 for several */
  GHashTable *own;       /* id + 1 of an inlined frame's function that is a
                          * symbol's own DWARF name -> the symbol's id + 1,
                          * 0 for several */
  GHashTable *inner;     /* ids + 1 of functions of inlined frames that were
                          * inlined into another at their address */
  GHashTable *starts;    /* id + 1 of a function of unplaced frames -> GArray
                          * of guint64 pairs: the start of the symbol one lay
                          * in, its address */
  GHashTable *objects;   /* the objects of frames not inlined (user space) */
};

CgPerfInlined *
cg_perf_inlined_new (CgProfile *profile)
{
  CgPerfInlined *inl = g_new0 (CgPerfInlined, 1);
  inl->n_before = cg_graph_n_functions (cg_profile_graph (profile));
  inl->unplaced = g_hash_table_new (NULL, NULL);
  inl->placed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  inl->own = g_hash_table_new (NULL, NULL);
  inl->inner = g_hash_table_new (NULL, NULL);
  inl->starts = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  inl->objects = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return inl;
}

void
cg_perf_inlined_free (CgPerfInlined *inl)
{
  if (inl == NULL)
    return;
  g_hash_table_unref (inl->unplaced);
  g_hash_table_unref (inl->placed);
  g_hash_table_unref (inl->own);
  g_hash_table_unref (inl->inner);
  g_hash_table_unref (inl->starts);
  g_hash_table_unref (inl->objects);
  g_free (inl);
}

/* Notes that a frame of @f, unplaced, at @address lay in the ELF symbol
 * starting at @start (in its object's addresses). */
static void
note_unplaced_start (CgPerfInlined *inl, CgFunctionId f, guint64 start, guint64 address)
{
  GArray *a = g_hash_table_lookup (inl->starts, GUINT_TO_POINTER (f + 1));
  if (a == NULL)
    {
      a = g_array_new (FALSE, FALSE, sizeof (guint64));
      g_hash_table_insert (inl->starts, GUINT_TO_POINTER (f + 1), a);
    }
  for (guint i = 0; i < a->len; i += 2)
    if (g_array_index (a, guint64, i) == start && g_array_index (a, guint64, i + 1) == address)
      return;
  if (a->len < 32) /* a few say where it is; more only cost lookups */
    {
      g_array_append_val (a, start);
      g_array_append_val (a, address);
    }
}

static void
note_inlined (CgPerfInlined *inl, const CgGraph *g, CgFunctionId f, gboolean unplaced)
{
  if (unplaced)
    {
      if (f >= inl->n_before && *cg_graph_function_object (g, f) == '\0')
        g_hash_table_add (inl->unplaced, GUINT_TO_POINTER (f + 1));
      return;
    }
  const char *name = cg_graph_function_name (g, f);
  gpointer v;
  if (!g_hash_table_lookup_extended (inl->placed, name, NULL, &v))
    g_hash_table_insert (inl->placed, g_strdup (name), GUINT_TO_POINTER (f + 1));
  else if (GPOINTER_TO_UINT (v) != f + 1)
    g_hash_table_insert (inl->placed, g_strdup (name), GUINT_TO_POINTER (0));
}

/* Where @f (an inlined frame's function) goes: the symbol it is the own
 * DWARF name of, where one symbol is and no frame of @f was inlined into
 * another at its address (a name that is also a function inlined
 * elsewhere may be an overload's: pugixml's two step_push), else itself. */
static CgFunctionId
own_symbol (const CgPerfInlined *inl, CgFunctionId f)
{
  guint to = GPOINTER_TO_UINT (g_hash_table_lookup (inl->own, GUINT_TO_POINTER (f + 1)));
  if (to == 0 || f < inl->n_before || g_hash_table_contains (inl->inner, GUINT_TO_POINTER (f + 1)))
    return f;
  return to - 1;
}

/* The object of @f (a function of unplaced frames) by the starts of the
 * symbols its frames lay in: the one object of the input whose symbol
 * table has a function starting at each of them, or NULL (none, or
 * several: which would be a guess).  @loaded caches each object's
 * functions (path -> CgElfFunctions, NULL for a file that cannot be
 * read as ELF). */
static const char *
object_by_starts (const CgPerfInlined *inl, GHashTable *loaded, CgFunctionId f)
{
  GArray *a = g_hash_table_lookup (inl->starts, GUINT_TO_POINTER (f + 1));
  if (a == NULL)
    return NULL;
  const char *found = NULL;
  GHashTableIter it;
  gpointer path;
  g_hash_table_iter_init (&it, inl->objects);
  while (g_hash_table_iter_next (&it, &path, NULL))
    {
      gpointer st;
      if (!g_hash_table_lookup_extended (loaded, path, NULL, &st))
        {
          st = cg_elf_functions_load (path, NULL);
          g_hash_table_insert (loaded, path, st);
        }
      gboolean all = st != NULL;
      for (guint i = 0; all && i + 1 < a->len; i += 2)
        {
          /* perf printed offsets in the file (apart_of) */
          guint64 start, address;
          all = cg_elf_functions_address (st, g_array_index (a, guint64, i), &start)
                && cg_elf_functions_address (st, g_array_index (a, guint64, i + 1), &address)
                && cg_elf_functions_starts_at (st, start, address);
        }
      if (!all)
        continue;
      if (found)
        return NULL;
      found = path;
    }
  return found;
}

/* For each function of unplaced frames that no placed frame names: the
 * function of its name in the object object_by_starts finds, made where
 * missing (id + 1 -> id + 1 in @to). */
static void
place_by_starts (CgProfile *profile, const CgPerfInlined *inl, GHashTable *to)
{
  CgGraph *g = cg_profile_graph (profile);
  g_autoptr (GHashTable) loaded = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                         (GDestroyNotify) cg_elf_functions_free);
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, inl->unplaced);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      CgFunctionId f = GPOINTER_TO_UINT (key) - 1;
      if (g_hash_table_lookup (inl->placed, cg_graph_function_name (g, f)) != NULL)
        continue;
      const char *object = object_by_starts (inl, loaded, f);
      CgFunctionId t = object ? cg_graph_ensure_function (g, object, cg_graph_function_name (g, f)) : CG_NO_ID;
      if (t != CG_NO_ID && t != f)
        g_hash_table_insert (to, key, GUINT_TO_POINTER (t + 1));
    }
}

gboolean
cg_perf_place_inlined (CgProfile *profile, CgPerfInlined *inl, GError **error)
{
  /* a gmon.out's histogram credits functions by id */
  if ((g_hash_table_size (inl->unplaced) == 0 && g_hash_table_size (inl->own) == 0)
      || cg_profile_histogram (profile) != NULL)
    return TRUE;
  /* first, as it may make functions */
  g_autoptr (GHashTable) by_starts = g_hash_table_new (NULL, NULL);
  place_by_starts (profile, inl, by_starts);
  const CgGraph *g = cg_profile_graph (profile);
  guint nf = cg_graph_n_functions (g);
  g_autofree CgFunctionId *into = g_new (CgFunctionId, MAX (nf, 1));
  gboolean any = FALSE;
  for (CgFunctionId f = 0; f < nf; f++)
    {
      into[f] = own_symbol (inl, f);
      any |= into[f] != f;
    }
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, inl->unplaced);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      CgFunctionId f = GPOINTER_TO_UINT (key) - 1;
      guint to = GPOINTER_TO_UINT (g_hash_table_lookup (inl->placed, cg_graph_function_name (g, f)));
      if (to == 0)
        to = GPOINTER_TO_UINT (g_hash_table_lookup (by_starts, key));
      if (to > 0)
        {
          into[f] = own_symbol (inl, to - 1);
          any = TRUE;
        }
    }
  if (!any)
    return TRUE;
  /* each goes where its target goes: a function merged into one that is
   * merged in turn (a symbol whose own DWARF name is another symbol's
   * clone's) is merged into the last; a circle, which no perf prints,
   * leaves its functions as they are */
  g_autofree CgFunctionId *last = g_new (CgFunctionId, MAX (nf, 1));
  for (CgFunctionId f = 0; f < nf; f++)
    {
      CgFunctionId t = into[f];
      for (guint step = 0; step < 64 && into[t] != t; step++)
        t = into[t];
      last[f] = into[t] == t ? t : f;
    }
  for (CgFunctionId f = 0; f < nf; f++)
    if (last[last[f]] != last[f])
      last[f] = f;
  return cg_merge_functions (profile, last, error);
}

/* perf 6.1 with --call-graph dwarf prints a sample's own address, where
 * the ELF symbol's name is not the function's DWARF name (a C++
 * function's mangled one), as the symbol and then its inline chain down
 * to the function itself under its DWARF name:
 *     1913c _ZN4pugi...eval_node_set...E+0x5cc (/tmp/drv)
 *     1913c step_do<...>+0x5cc (inlined)
 *     1913c eval_node_set+0x5cc (inlined)
 * The last one is the symbol's own function (perf report --children
 * counts a sample with either for the symbol); noted for
 * cg_perf_place_inlined.  Not where the symbol comes again after the
 * chain at its address (pugixml's step_do<...0> between two
 * eval_node_set: the chain was inlined into it). */
static void
note_own_names (Reader *r)
{
  for (guint i = 0; i < r->frames->len; i++)
    {
      const Frame *x = &g_array_index (r->frames, Frame, i);
      if (x->inlined && x->function != CG_NO_ID && i + 1 < r->frames->len)
        {
          /* perf prints an address's chain innermost first: one followed
           * by another inlined frame of its address was inlined into it */
          const Frame *y = &g_array_index (r->frames, Frame, i + 1);
          if (y->inlined && y->ip_len == x->ip_len && memcmp (r->text->str + y->ip, r->text->str + x->ip, x->ip_len) == 0)
            g_hash_table_add (r->inlined->inner, GUINT_TO_POINTER (x->function + 1));
        }
      if (x->inlined || x->function == CG_NO_ID)
        continue;
      guint j = i + 1;
      while (j < r->frames->len)
        {
          const Frame *y = &g_array_index (r->frames, Frame, j);
          if (!y->inlined || y->ip_len != x->ip_len
              || memcmp (r->text->str + y->ip, r->text->str + x->ip, x->ip_len) != 0)
            break;
          j++;
        }
      /* a symbol printed again after the chain ([S, I..., S]: the chain
       * was inlined into S, its last one is no name of S's) */
      gboolean again = FALSE;
      if (j < r->frames->len)
        {
          const Frame *z = &g_array_index (r->frames, Frame, j);
          again = z->ip_len == x->ip_len && memcmp (r->text->str + z->ip, r->text->str + x->ip, x->ip_len) == 0;
        }
      const Frame *own = j > i + 1 && !again ? &g_array_index (r->frames, Frame, j - 1) : NULL;
      if (own == NULL || own->function == CG_NO_ID || own->function == x->function)
        continue;
      gpointer key = GUINT_TO_POINTER (own->function + 1), v;
      if (!g_hash_table_lookup_extended (r->inlined->own, key, NULL, &v))
        g_hash_table_insert (r->inlined->own, key, GUINT_TO_POINTER (x->function + 1));
      else if (GPOINTER_TO_UINT (v) != x->function + 1)
        g_hash_table_insert (r->inlined->own, key, GUINT_TO_POINTER (0));
    }
}

/* The nearest frame that is not inlined among those next to frame @i
 * (@dir +1: after it, -1: before it) printed at the same address, or
 * NULL. */
static const Frame *
same_address_host (const Reader *r, guint i, gint dir)
{
  const Frame *x = &g_array_index (r->frames, Frame, i);
  for (gint64 j = (gint64) i + dir; j >= 0 && j < (gint64) r->frames->len; j += dir)
    {
      const Frame *y = &g_array_index (r->frames, Frame, j);
      if (y->ip_len != x->ip_len || memcmp (r->text->str + y->ip, r->text->str + x->ip, x->ip_len) != 0)
        return NULL;
      if (!y->inlined)
        return y;
    }
  return NULL;
}

/* Whether frame @x is where a chain unwound whole ends: the program's
 * entry (_start, glibc's __libc_start_call_main, whose frame is the
 * outermost that frame pointers reach, as glibc has none, and main), a
 * thread's (start_thread, clone3 and the like), or Go's (runtime.goexit,
 * runtime.rt0_go, runtime.mstart). */
static gboolean
is_entry (const Reader *r, const Frame *x)
{
  static const char *const names[] = { "_start", "main", "__libc_start_call_main", "__libc_start_main",
                                       "__libc_start_main_impl", "_dl_start_user", "_dl_start", "start_thread",
                                       "clone", "clone3", "__clone", "__clone3", "__clone_internal" };
  static const char *const go[] = { "runtime.goexit", "runtime.rt0_go", "runtime.mstart" };
  const char *name = r->text->str + x->name;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (x->name_len == strlen (names[i]) && memcmp (name, names[i], x->name_len) == 0)
      return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (go); i++)
    if (x->name_len >= strlen (go[i]) && memcmp (name, go[i], strlen (go[i])) == 0)
      return TRUE;
  return FALSE;
}

/* For a recording with --call-graph dwarf (pass->stack_user): counts
 * the samples with a frame of user space, and those whose outermost
 * frame is unknown, no symbol and no object, where perf's unwinder
 * stopped (at the end of its copy of the stack, "ffffffffffffffff
 * [unknown] ([unknown])" in perf 6.1; a chain unwound whole ends in
 * _start or a thread's start routine), unless the frame before it is an
 * entry (is_entry): then the copy ended in main's frame, larger than
 * the copy after the frames below it (the sqlite3 shell's main: 1555 of
 * 1564 samples ended "main, [unknown]"), and only the start-up code
 * above main, which has no cost of its own, is unknown.  Returns TRUE
 * for such a frame above an entry: it says nothing, and the sample's
 * chain is to start at the entry, as a chain unwound whole does once
 * start-up code is folded (the views read "prog > [unknown] > main"). */
static gboolean
count_unwound_short (Reader *r)
{
  gboolean user = FALSE;
  for (guint i = 0; i < r->frames->len && !user; i++)
    user = !g_array_index (r->frames, Frame, i).kernel;
  if (!user)
    return FALSE;
  r->n_user++;
  const Frame *last = &g_array_index (r->frames, Frame, r->frames->len - 1);
  static const char unknown[] = "[unknown]";
  if (r->frames->len < 2 || last->kernel || last->object_len != 0 || last->name_len != sizeof unknown - 1
      || memcmp (r->text->str + last->name, unknown, sizeof unknown - 1) != 0)
    return FALSE;
  if (is_entry (r, &g_array_index (r->frames, Frame, r->frames->len - 2)))
    return TRUE;
  r->n_unwound_short++;
  return FALSE;
}

/* Counts the samples with a call chain and a frame of user space, and
 * those whose outermost frame is no entry (is_entry): unwound by frame
 * pointers, a chain stops or goes astray in code built without them
 * (Debian's libc, libstdc++ and libgcc_s: a C++ program that throws
 * (nlohmann-json's parser), 1042 of 1461 samples; Lua 5.4 in printf,
 * 792 of 8139). */
static void
count_stopped (Reader *r)
{
  gboolean user = FALSE;
  for (guint i = 0; i < r->frames->len && !user; i++)
    user = !g_array_index (r->frames, Frame, i).kernel;
  /* an outermost frame named by its address (-F without sym) may be an
   * entry or not: no telling */
  if (!user || g_array_index (r->frames, Frame, r->frames->len - 1).bare)
    return;
  r->n_chained++;
  r->n_stopped += !is_entry (r, &g_array_index (r->frames, Frame, r->frames->len - 1));
}

/* Whether frame @x is the signal trampoline, to which the kernel makes a
 * signal handler return: the frame after it is the interrupted one's own
 * address, not a return address. */
static gboolean
is_trampoline (const Reader *r, const Frame *x)
{
  static const char name[] = "__restore_rt";
  return x->name_len == sizeof name - 1 && memcmp (r->text->str + x->name, name, sizeof name - 1) == 0;
}

/* Names each frame that perf printed as [unknown] in an object read
 * here, and that name_callers did not name, by the start of its
 * function in the object's unwind table (cg_elf_functions_unwind_start),
 * "0x" and the address in 16 digits as callgrind names the functions of
 * a stripped object ("0x00000000002b3400" in /usr/bin/rg): a stripped
 * program's functions then are functions, each with its own samples and
 * callers, where all of them were one "[rg]" that called itself.  A
 * caller's frame is a return address: the function is that of the
 * address less 1.  perf prints a user-space address as the offset in
 * the object's file (0xfdb09 for python3.11's 0x4fdb09), which the
 * object's segments turn into its own address (cg_elf_functions_address). */
static void
name_unknown (Reader *r)
{
  gboolean leaf = TRUE; /* no frame leafward but inlined ones and the kernel's */
  for (guint i = 0; i < r->frames->len; i++)
    {
      Frame *x = &g_array_index (r->frames, Frame, i);
      if (x->inlined || x->kernel)
        continue;
      gboolean caller = !leaf && !is_trampoline (r, x);
      leaf = is_trampoline (r, x);
      if (!x->unknown || x->renamed || !x->has_address || x->object_len == 0 || r->text->str[x->object] != '/')
        continue;
      g_string_truncate (r->object, 0);
      g_string_append_len (r->object, r->text->str + x->object, (gssize) x->object_len);
      const CgElfFunctions *elf = elf_of (r);
      guint64 address, start;
      if (elf == NULL || (caller && x->address == 0) || !cg_elf_functions_address (elf, x->address - caller, &address)
          || !cg_elf_functions_unwind_start (elf, address, &start))
        continue;
      x->renamed = TRUE;
      x->apart = NULL;
      x->name = r->text->len;
      g_string_append_printf (r->text, "0x%016" G_GINT64_MODIFIER "x", start);
      x->name_len = r->text->len - x->name;
    }
}

/* Names each caller's frame by its call.  Every user-space frame but the
 * sample's own address (the leaf, the interrupted address after kernel
 * frames, and the frame after a signal trampoline) is a return address,
 * the byte after the call.  After a call to a function that does not
 * return (abort, exit, __cxa_throw, __stack_chk_fail, longjmp), often a
 * caller's last instruction, that byte is the next function's first, or
 * alignment padding past the caller's end.  perf names such an address
 * as it is with a frame-pointer call chain (perf report too: a function
 * calling exit showed as the next function, "victim+0x0", or as
 * "[unknown]"); its DWARF unwinder subtracts 1 first, as pprof and
 * gdb do.  So where perf printed the start of a symbol or no symbol,
 * the caller is the function holding the address less 1, in the
 * object's symbol table (cg-elf-functions), where that table agrees with
 * perf about the address: the symbol perf printed starts there, under
 * the name perf printed (so the object is the one recorded), or perf
 * found none and the table has none.  Names as perf printed the others:
 * the linker's in perf.data (read with --no-demangle) and in the text of
 * perf script --no-demangle, else as perf script demangles by default
 * (cg_demangle_plain: "victim" for "_ZL6victimm"), so that a C++
 * caller's frame is its function's other frames' too.  Inlined frames
 * that perf printed at such an address are the next function's: they
 * are dropped.  Not the trampoline's own frame, a return address that no
 * call precedes (a signal handler returns to its first byte), nor a
 * frame after one of no object (a stack address, 0): that chain went
 * astray in code without frame pointers, and its next "frames" are any
 * words of the stack (a C++ exception's destructor, "~parse_error+0x0",
 * a pointer __cxa_throw was given), no return addresses. */
static void
name_callers (Reader *r)
{
  const Frame *below = NULL; /* the nearest frame not inlined, leafward */
  for (guint i = 0; i < r->frames->len; i++)
    {
      Frame *x = &g_array_index (r->frames, Frame, i);
      if (x->inlined)
        continue;
      const Frame *prev = below;
      below = x;
      if (prev == NULL || prev->kernel || prev->object_len == 0 || x->kernel || is_trampoline (r, prev)
          || is_trampoline (r, x) || !x->has_address
          || x->address == 0 || x->object_len == 0 || r->text->str[x->object] != '/'
          || !(x->unknown || (x->has_start && x->start == x->address)))
        continue;
      const CgElfFunctions *elf = r->elf_last;
      if (r->elf_path->len != x->object_len || memcmp (r->elf_path->str, r->text->str + x->object, x->object_len) != 0)
        {
          g_string_truncate (r->object, 0);
          g_string_append_len (r->object, r->text->str + x->object, (gssize) x->object_len);
          elf = elf_of (r);
        }
      if (elf == NULL)
        continue;
      guint k = (guint) ((x->address ^ (x->address >> 6)) % G_N_ELEMENTS (r->calls));
      if (r->calls[k].elf != elf || r->calls[k].address != x->address)
        {
          r->calls[k].elf = elf;
          r->calls[k].address = x->address;
          /* the object's own address of the one perf printed (apart_of) */
          guint64 a;
          gboolean own = cg_elf_functions_address (elf, x->address, &a) && a > 0;
          r->calls[k].caller = own ? cg_elf_functions_lookup (elf, a - 1, &r->calls[k].apart) : NULL;
          r->calls[k].here = own ? cg_elf_functions_lookup (elf, a, NULL) : NULL;
          r->calls[k].starts = own && cg_elf_functions_starts_at (elf, a, a);
          g_free (r->calls[k].caller_plain);
          g_free (r->calls[k].here_plain);
          r->calls[k].caller_plain = r->calls[k].caller ? cg_demangle_plain (r->calls[k].caller) : NULL;
          r->calls[k].here_plain = r->calls[k].here ? cg_demangle_plain (r->calls[k].here) : NULL;
        }
      const char *name = r->calls[k].caller, *here = r->calls[k].here;
      if (name == NULL)
        continue;
      const char *printed = r->text->str + x->name;
      if (x->unknown)
        {
          if (here != NULL)
            continue;
          if (r->pass == NULL && !r->linker_names && r->calls[k].caller_plain)
            name = r->calls[k].caller_plain;
        }
      else if (here == NULL || !r->calls[k].starts)
        continue;
      else if (strlen (here) == x->name_len && memcmp (here, printed, x->name_len) == 0)
        ; /* linker names */
      else if (r->calls[k].here_plain && strlen (r->calls[k].here_plain) == x->name_len
               && memcmp (r->calls[k].here_plain, printed, x->name_len) == 0)
        name = r->calls[k].caller_plain ? r->calls[k].caller_plain : name;
      else
        continue;
      x->renamed = TRUE;
      x->apart = r->calls[k].apart;
      x->name = r->text->len;
      g_string_append (r->text, name);
      x->name_len = r->text->len - x->name;
      for (guint j = 0; j < r->frames->len; j++)
        {
          Frame *y = &g_array_index (r->frames, Frame, j);
          if (y->inlined && y->ip_len == x->ip_len && memcmp (r->text->str + y->ip, r->text->str + x->ip, x->ip_len) == 0)
            y->misplaced = TRUE;
        }
    }
}

/* Whether frames @a and @b are printed at one address. */
static gboolean
same_address (const Reader *r, const Frame *a, const Frame *b)
{
  return a->ip_len == b->ip_len && memcmp (r->text->str + a->ip, r->text->str + b->ip, a->ip_len) == 0;
}

/* Whether frames @a and @b are of one symbol, neither inlined. */
static gboolean
same_symbol (const Reader *r, const Frame *a, const Frame *b)
{
  return !a->inlined && !b->inlined && a->name_len == b->name_len && a->object_len == b->object_len
         && memcmp (r->text->str + a->name, r->text->str + b->name, a->name_len) == 0
         && memcmp (r->text->str + a->object, r->text->str + b->object, a->object_len) == 0;
}

/* perf 6.1's DWARF call chains print a frame twice at times, once alone
 * and once with the chain of what was inlined at its address: tinyxml2
 * 9.0's main "main+0x1cc, depth_of+0x1cc (inlined), main+0x1cc" (one
 * call of depth_of's clone from depth_of inlined into main: read as a
 * cycle of main and depth_of), a leaf "IsNameStartChar (inlined),
 * IsNameChar (inlined), ParseName, ParseName" (ParseName calling itself,
 * which it never does).  Two frames at one address are two activations
 * only where the function recursed from one call site, and then both
 * have the address's one inline chain: a frame with none next to one of
 * its symbol with a chain is the same frame again, left out. */
static void
mark_duplicates (Reader *r)
{
  guint n = r->frames->len;
  for (guint i = 0; i + 1 < n; i++)
    {
      Frame *x = &g_array_index (r->frames, Frame, i);
      if (x->inlined)
        continue;
      const Frame *y = &g_array_index (r->frames, Frame, i + 1);
      /* [S] [I..., S]: x alone, then its chain and it again */
      if (y->inlined && same_address (r, x, y))
        {
          guint j = i + 1;
          while (j < n && g_array_index (r->frames, Frame, j).inlined
                 && same_address (r, x, &g_array_index (r->frames, Frame, j)))
            j++;
          const Frame *z = j < n ? &g_array_index (r->frames, Frame, j) : NULL;
          if (z && same_address (r, x, z) && same_symbol (r, x, z)
              && (i == 0 || !same_address (r, x, &g_array_index (r->frames, Frame, i - 1))))
            x->duplicate = TRUE;
        }
      /* [I..., S] [S]: its chain and it, then it alone */
      else if (i > 0 && same_symbol (r, x, y) && same_address (r, x, y)
               && g_array_index (r->frames, Frame, i - 1).inlined
               && same_address (r, x, &g_array_index (r->frames, Frame, i - 1))
               && (i + 2 >= n || !same_address (r, x, &g_array_index (r->frames, Frame, i + 2))))
        g_array_index (r->frames, Frame, i + 1).duplicate = TRUE;
    }
}

static gboolean
finish_sample (Reader *r, GError **error)
{
  r->state = IDLE;
  guint64 ordinal = r->ordinal;
  if (!selected (r))
    return TRUE;
  /* a header, then nothing: perf printed its call chain empty */
  gboolean empty = r->frames->len == 0 && r->rest->len == 0;
  if (r->frames->len == 0 && r->rest->len > 0)
    {
      /* a one-line sample: the address, symbol and DSO after the event,
       * and with -F +insn or +insnlen, " insn: 48 8b 07" after the DSO,
       * with +iregs or +uregs " ABI:2    AX:0x4 ..." */
      static const char *const trailers[] = { ") insn:", ") ilen:", ") ABI:" };
      for (guint t = 0; t < G_N_ELEMENTS (trailers); t++)
        {
          const char *at = g_strstr_len (r->rest->str, (gssize) r->rest->len, trailers[t]);
          if (at != NULL)
            g_string_truncate (r->rest, (gsize) (at - r->rest->str) + 1);
        }
      CgPerfFrame f;
      if (cg_perf_parse_frame (r->rest->str, r->rest->len, FALSE, &f))
        add_frame (r, &f);
    }
  gboolean above_entry = FALSE;
  if (r->pass && r->pass->stack_user)
    above_entry = count_unwound_short (r);
  else if (r->rest->len == 0 && r->frames->len > 0 && !(r->pass && r->pass->no_source))
    count_stopped (r);
  if (r->depths)
    {
      guint n = 0;
      for (guint i = 0; i < r->frames->len; i++)
        n += !g_array_index (r->frames, Frame, i).inlined;
      cg_perf_depths_add (r->depths, n);
    }
  if (above_entry)
    g_array_set_size (r->frames, r->frames->len - 1);
  CgFrameId parent = CG_NO_ID;
  if (r->root->len > 0
      && !step (r, &parent, cg_graph_ensure_function (r->graph, CG_OBJECT_PROCESS, r->root->str), error))
    return FALSE;
  /* an inlined frame belongs to the object of the frame it was inlined
   * into: a frame of the same address that is not inlined, which perf
   * prints after the address's inlined ones, or (perf 6.1 with
   * --call-graph dwarf, at a sample's own address) before them.  Where
   * perf printed none (the outermost function's name was not the ELF
   * symbol's), the object is unknown: the neighbours may be other
   * objects'; cg_perf_place_inlined places it once the input is read */
  gboolean dropped = FALSE;
  name_callers (r);
  name_unknown (r);
  mark_duplicates (r);
  for (guint i = 0; i < r->frames->len; i++)
    {
      Frame *x = &g_array_index (r->frames, Frame, i);
      if (!x->inlined)
        continue;
      const Frame *host = same_address_host (r, i, +1);
      if (host == NULL)
        host = same_address_host (r, i, -1);
      x->object = host ? host->object : 0;
      x->object_len = host ? host->object_len : 0;
      x->unplaced = host == NULL;
      if (host)
        x->kernel = host->kernel;
    }
  for (guint i = r->frames->len; i-- > 0;)
    {
      const Frame *x = &g_array_index (r->frames, Frame, i);
      /* -F without sym: an inlined frame is its address again, which the
       * frame it was inlined into names already */
      if ((x->inlined && (x->bare || x->misplaced)) || x->duplicate)
        continue;
      if (x->kernel && r->options->kernel == CG_KERNEL_DROP)
        {
          dropped = TRUE;
          continue;
        }
      CgFunctionId f = ensure_frame_function (r, x);
      if (x->inlined && r->inlined && f != CG_NO_ID)
        {
          note_inlined (r->inlined, r->graph, f, x->unplaced);
          if (x->unplaced && x->has_start)
            note_unplaced_start (r->inlined, f, x->start, x->address);
        }
      else if (r->inlined && !x->kernel && x->object_len > 0 && r->text->str[x->object] == '/'
               && !g_hash_table_contains (r->inlined->objects, r->object->str))
        g_hash_table_add (r->inlined->objects, g_strdup (r->object->str));
      g_array_index (r->frames, Frame, i).function = f;
      if (!step (r, &parent, f, error))
        return FALSE;
    }
  if (r->inlined)
    note_own_names (r);
  if (parent == CG_NO_ID)
    {
      const char *what = dropped ? "[kernel]" : "[unknown]";
      if (!step (r, &parent, cg_graph_ensure_function (r->graph, "", what), error))
        return FALSE;
    }
  if (r->pass && r->pass->held && (empty || r->pass->hold_all))
    {
      CgPerfHeld e = { ordinal, parent, r->event, r->value.n };
      g_array_append_val (r->pass->held, e);
      return TRUE;
    }
  if (!charge (r->profile, parent, r->event, r->value.n))
    return overflow (r, error, "a cost exceeds the range of 64-bit counters");
  return TRUE;
}

static void
begin_sample (Reader *r)
{
  r->sample_line = cg_input_line_number (r->in);
  if (r->first_sample == 0)
    r->first_sample = r->sample_line;
  g_string_truncate (r->text, 0);
  g_string_truncate (r->rest, 0);
  g_array_set_size (r->frames, 0);
}

/* A line of perf's own messages on its standard error, which "perf
 * script >out.txt 2>&1" puts before the samples (or between them): a DSO
 * not found ("Failed to open /tmp/perf-14168.map, continuing without
 * symbols", "[kernel.kallsyms] with build id 5a20... not found,
 * continuing without symbols"), and the kernel's hidden addresses
 * ("Warning:", "Kernel address maps (/proc/{kallsyms,modules}) were
 * restricted,", "check /proc/sys/kernel/kptr_restrict before running
 * 'perf record'.", "As no suitable kallsyms nor vmlinux was found,
 * kernel samples", "can't be resolved.", "Samples in kernel modules
 * can't be resolved as well.", "No kallsyms or vmlinux with build-id
 * ... was found"), with empty lines among them. */
static gboolean
is_perf_message (const char *line, gsize len)
{
  static const char *const starts[] = { "Warning:", "Kernel address maps (/proc/{kallsyms,modules}) were restricted",
                                        "check /proc/sys/kernel/kptr_restrict", "Check /proc/sys/kernel/kptr_restrict",
                                        "As no suitable kallsyms nor vmlinux was found", "can't be resolved.",
                                        "Samples in kernel modules can't be resolved", "No kallsyms or vmlinux with build-id " };
  static const char tail[] = ", continuing without symbols";
  while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\r'))
    len--;
  if (len >= sizeof tail - 1 && memcmp (line + len - (sizeof tail - 1), tail, sizeof tail - 1) == 0)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (starts); i++)
    if (len >= strlen (starts[i]) && memcmp (line, starts[i], strlen (starts[i])) == 0)
      return TRUE;
  return FALSE;
}

/* A line of --show-task-events, --show-mmap-events and the like: a
 * record that is no sample, in a layout of its own. */
static gboolean
is_record_line (const char *line, gsize len)
{
  static const char tag[] = "PERF_RECORD_";
  for (const char *p = line; (p = memchr (p, 'P', len - (gsize) (p - line))) != NULL; p++)
    if ((p == line || p[-1] == ' ') && len - (gsize) (p - line) >= sizeof tag - 1
        && memcmp (p, tag, sizeof tag - 1) == 0)
      return TRUE;
  return FALSE;
}

/* A line that perf script prints after a sample's frames with -F +insn
 * or +insnlen: one blank, a lower-case word and a colon (" insn: 48 8b
 * 07", " ilen: 5"), or with +iregs or +uregs the registers (" ABI:2
 * AX:0x4 ...", both sets on one line); the next sample's header follows
 * it without a blank line. */
static gboolean
is_trailer_line (const char *line, gsize len)
{
  gsize i = 1;
  if (len >= 6 && memcmp (line, " ABI:", 5) == 0 && g_ascii_isdigit (line[5]))
    return TRUE;
  if (len < 3 || line[0] != ' ')
    return FALSE;
  while (i < len && g_ascii_islower (line[i]))
    i++;
  return i > 1 && i < len && line[i] == ':' && (i + 1 == len || line[i + 1] == ' ');
}

/* Whether the header @h, read in @layout, is its event's layout: an
 * event first seen takes it (a layout without the event field is the
 * file's only one). */
static gboolean
event_in_layout (Layouts *l, const CgPerfHeader *h, guint layout)
{
  if (!(h->fields & CG_PERF_EVENT))
    return TRUE;
  g_string_truncate (l->name, 0);
  g_string_append_len (l->name, h->event.s, (gssize) h->event.len);
  gpointer known = g_hash_table_lookup (l->events, l->name->str);
  if (known == NULL)
    g_hash_table_insert (l->events, g_strdup (l->name->str), GUINT_TO_POINTER (layout));
  return known == NULL || GPOINTER_TO_UINT (known) == layout;
}

/* Cuts a header line in a layout seen before, or, for an event of no
 * layout yet, in a new one. */
static gboolean
parse_header (Layouts *l, const char *line, gsize len, CgPerfHeader *h)
{
  for (guint i = 0; i < l->n_layouts; i++)
    if (cg_perf_parse_header (line, len, l->layouts[i], h) && event_in_layout (l, h, l->layouts[i]))
      return TRUE;
  if ((l->n_layouts > 0 && !(l->first & CG_PERF_EVENT)) || l->n_layouts == MAX_LAYOUTS
      || !cg_perf_parse_header (line, len, 0, h) || h->fields == 0
      || (l->n_layouts > 0 && !(h->fields & CG_PERF_EVENT)) || !event_in_layout (l, h, h->fields))
    return FALSE;
  l->layouts[l->n_layouts++] = h->fields;
  if (l->first == 0)
    l->first = h->fields;
  return TRUE;
}

static gboolean
handle_header (Reader *r, const char *line, gsize len, GError **error)
{
  CgPerfHeader h;
  if (!parse_header (&r->lay, line, len, &h))
    {
      if (r->lay.first == 0)
        return bad_sample (r, error, "not a sample of perf script (a header line, then TAB and an address per frame)");
      return bad_sample (r, error, "not a sample header with the fields of the first sample's, nor an event's own");
    }
  begin_sample (r);
  if (r->options->split == CG_SPLIT_PID && !(h.fields & CG_PERF_PID) && !r->told_no_pid)
    {
      /* perf prints -F pid and -F tid alone as one number, alike */
      r->told_no_pid = TRUE;
      cg_read_warn (r->options, "%s:%" G_GUINT64_FORMAT ": --split=pid: the samples print no pid (-F pid or tid"
                    " alone prints one number, read as the tid), so each command's processes are one root,"
                    " COMM-?: print both (-F pid,tid,...)",
                    cg_input_name (r->in), cg_input_line_number (r->in));
    }
  set_root (r, &h);
  if (!choose_event (r, h.fields, (h.fields & CG_PERF_EVENT) ? &h.event : NULL, error))
    return FALSE;
  r->value.n = (h.fields & CG_PERF_PERIOD) ? h.period : 1;
  append_text (r->rest, &h.rest);
  r->state = HEADER;
  return TRUE;
}

/* The length of what stands before a frame line's address: perf's TAB,
 * or the 8 blanks an editor, expand(1) or a web page put in its place,
 * then the address right-aligned in its 16 columns and a blank or the
 * line's end (inferno's test data keeps perf script output so); 0 when
 * the line begins neither way.  A header line with its command name
 * right-aligned ("%16s") has a blank inside those columns. */
static gsize
frame_lead (const char *line, gsize len)
{
  if (len > 0 && line[0] == '\t')
    return 1;
  if (len < 24 || (len > 24 && line[24] != ' '))
    return 0;
  gsize i = 0;
  while (i < 24 && line[i] == ' ')
    i++;
  if (i < 8 || i == 24)
    return 0;
  while (i < 24 && g_ascii_isxdigit (line[i]))
    i++;
  return i == 24 ? 8 : 0;
}

static gboolean
handle_frame (Reader *r, const char *line, gsize len, gsize lead, GError **error)
{
  CgPerfFrame f;
  if (!cg_perf_parse_frame (line + lead, len - lead, FALSE, &f))
    return bad_sample (r, error, "not a frame line of perf script (TAB, address, symbol, (object))");
  add_frame (r, &f);
  r->state = FRAMES;
  r->chains = TRUE;
  return TRUE;
}

static gboolean
handle_line (Reader *r, const char *line, gsize len, GError **error)
{
  gsize i = 0;
  while (i < len && line[i] == ' ')
    i++;
  if (r->state == IDLE && (is_perf_message (line, len) || (r->in_message && i == len)))
    {
      r->in_message = TRUE;
      return TRUE;
    }
  r->in_message = FALSE;
  if (i == len)
    {
      /* a blank line ends a sample; in a layout without header fields,
       * it also begins the next */
      gboolean first = !r->any_line;
      r->any_line = TRUE;
      if (r->state == FRAMES || r->state == HEADER)
        return finish_sample (r, error);
      if (r->state == SKIP)
        r->state = IDLE;
      if (first && r->lay.first == 0)
        r->headerless = TRUE;
      return TRUE;
    }
  if (r->state == SKIP)
    return TRUE;
  if (line[0] == '#' && r->state == IDLE)
    return TRUE; /* perf script --header */
  gboolean was_headerless = r->headerless;
  gsize lead = frame_lead (line, len);
  /* frames, and under srcline their source lines, keep the layout */
  r->headerless &= r->lay.first == 0 && r->any_line && (lead > 0 || (r->state == FRAMES && i >= 2));
  r->any_line = TRUE;
  if (lead > 0)
    {
      if (r->state == IDLE && r->headerless)
        {
          begin_sample (r);
          g_string_truncate (r->root, 0);
          if (!choose_event (r, r->lay.first, NULL, error))
            return FALSE;
          r->value.n = 1;
        }
      else if (r->state == IDLE)
        return bad_sample (r, error, "a frame line without a sample (no header line before it)");
      return handle_frame (r, line, len, lead, error);
    }
  if (r->state == FRAMES && line[0] == ' ' && i >= 2)
    {
      /* the source line of the frame above (srcline), in every layout;
       * with --inline, the frame's "(inlined)" mark comes after it */
      static const char mark[] = " (inlined)";
      if (len >= sizeof mark - 1 && memcmp (line + len - (sizeof mark - 1), mark, sizeof mark - 1) == 0
          && r->frames->len > 0)
        g_array_index (r->frames, Frame, r->frames->len - 1).inlined = TRUE;
      return TRUE;
    }
  if (was_headerless && r->lay.first == 0 && r->state != IDLE)
    return bad_sample (r, error, "not a frame line of perf script (TAB, address, symbol, (object))");
  if ((r->state == FRAMES || r->state == HEADER) && is_trailer_line (line, len))
    return finish_sample (r, error); /* the sample's last line */
  if (line[0] == '|' && (r->state == IDLE || r->state == HEADER))
    /* -F +srccode: the source line of the sample's address, after it */
    return r->state == HEADER ? finish_sample (r, error) : TRUE;
  if (r->state == FRAMES)
    return bad_sample (r, error, "no blank line after the call chain (a sample cut short?)");
  if (r->state == HEADER && !(r->lay.first & CG_PERF_EVENT) && r->rest->len == 0 && r->chains)
    return bad_sample (r, error, "a sample header without its call chain");
  if (r->state == HEADER && !finish_sample (r, error))
    return FALSE;
  if (is_record_line (line, len))
    return TRUE;
  return handle_header (r, line, len, error);
}

static gboolean
finish_input (Reader *r, GError **error)
{
  gboolean cut = !cg_input_line_terminated (r->in) || r->state == FRAMES
                 || (r->state == HEADER && r->chains && r->rest->len == 0);
  if (r->state == IDLE || r->state == SKIP || (r->state == HEADER && !cut))
    return r->state != HEADER || finish_sample (r, error);
  if (!cut)
    return TRUE;
  /* a whole last frame line, and no empty line after it: cut at a line
   * (perf script | head), or a sample copied out of its output without
   * the empty line; the message says which line is missing */
  gboolean at_frame = cg_input_line_terminated (r->in) && r->state == FRAMES;
  if (!r->options->lenient)
    return cg_read_fail (error, CG_ERROR_TRUNCATED, cg_input_name (r->in), CG_AT_LINE, cg_input_line_number (r->in),
                         "the input ends inside the sample of line %" G_GUINT64_FORMAT " (truncated?)%s",
                         r->sample_line,
                         at_frame ? ": perf script ends every sample with an empty line, and this one has none"
                                    " after its last frame"
                                  : "");
  cg_read_warn (r->options, "%s:%" G_GUINT64_FORMAT ": the input ends inside a sample (truncated?): skipped it",
                cg_input_name (r->in), r->sample_line);
  return TRUE;
}

/* Says so where a recording with --call-graph dwarf that copied less
 * than the most perf copies has call chains that stop at an unknown
 * frame, at least 5 % of the samples with a user stack: perf copies
 * pass->stack_user bytes of the stack (8192 by default), and a deeper
 * stack's unwinding stops where the copy ends, so that main and the
 * calls above the copy have no share of those samples.  Nothing else in
 * the text says so.  An unwinder that meets code without unwind tables
 * stops alike: Python 3.11 running json, 234 of 1409 samples with the
 * default copy, and still 34 of 1268 with 65528 bytes, hence the share
 * (formats/perf.md). */
static void
warn_unwound_short (Reader *r, const char *path)
{
  if (r->pass->stack_user >= CG_PERF_STACK_USER_MAX || r->n_unwound_short == 0
      || r->n_unwound_short < (r->n_user + 19) / 20)
    return;
  cg_read_warn (r->options,
                "%s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " samples of user code have call chains that"
                " stop at an unknown frame before the program's entry: recorded with --call-graph dwarf, which"
                " copies %u bytes of each stack to unwind, a deeper stack was probably cut where the copy ends,"
                " so its outer frames are missing, and what they cost is missing from those frames' totals;"
                " record with --call-graph dwarf,65528, the largest copy perf takes (formats/perf.md)",
                path, r->n_unwound_short, r->n_user, (guint) r->pass->stack_user);
}

/* Says so where at least 5 % of the samples of user code with a call
 * chain stop before an entry (count_stopped): nothing else tells the
 * user that main's total is low, or why [unknown] and libraries'
 * functions are roots.  It names the compilers' default as well as
 * Debian's libraries: xz 5.4 built with -O2, as its build does, had
 * 72,266 of 72,267 samples stop in its own code, and a message naming
 * libc alone sent the reader to the wrong place.  Not for --call-graph
 * dwarf (warn_unwound_short says why those stop). */
static void
warn_stopped (Reader *r, const char *path)
{
  if (r->n_stopped == 0 || r->n_stopped < (r->n_chained + 19) / 20)
    return;
  cg_read_warn (r->options,
                "%s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " samples of user code have call chains that"
                " stop before the program's entry (_start, __libc_start_call_main, main, or a thread's"
                " start_thread or clone3): unwound by frame pointers (perf record -g), a chain stops or goes"
                " astray in code built without them (gcc and clang leave them out at -O1 and above on x86-64"
                " unless given -fno-omit-frame-pointer, and Debian builds its libraries so: libc, libstdc++,"
                " libgcc_s), so its outer frames are missing, main's among them, and what they cost is missing"
                " from those frames' totals; record with --call-graph dwarf (formats/perf.md)",
                path, r->n_stopped, r->n_chained);
}

/* Says so where call chains look cut at perf's default limit
 * (cg-perf-depths.h): nothing else tells the user that main's total is
 * low, or why the tree's roots are functions deep inside the program. */
static void
warn_cut (Reader *r, const char *path)
{
  guint64 n_cut, n;
  if (!cg_perf_depths_cut (r->depths, &n_cut, &n))
    return;
  cg_read_warn (r->options,
                "%s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " samples have call chains of exactly %u frames, "
                "perf's default limit (more than have one frame fewer, or more): perf probably cut them there "
                "(kernel.perf_event_max_stack when recorded, or perf script --max-stack), so their outer frames "
                "are missing, and what they cost is missing from those frames' totals (formats/perf.md)",
                path, n_cut, n, (guint) CG_PERF_DEPTHS_LIMIT);
}

gboolean
cg_read_perf (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error)
{
  return cg_read_perf_as (profile, input, options, "perf", cg_input_name (input), NULL, error);
}

gboolean
cg_read_perf_as (CgProfile *profile, CgInput *input, const CgReadOptions *options, const char *format,
                 const char *path, CgPerfPass *pass, GError **error)
{
  static const CgReadOptions defaults = { 0 };
  Reader r = {
    .profile = profile,
    .graph = cg_profile_graph (profile),
    .tree = cg_profile_ensure_tree (profile),
    .in = input,
    .options = options ? options : &defaults,
    .root = g_string_new (NULL),
    .rest = g_string_new (NULL),
    .text = g_string_new (NULL),
    .frames = g_array_new (FALSE, FALSE, sizeof (Frame)),
    .name = g_string_new (NULL),
    .object = g_string_new (NULL),
    .events = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
    .last_event = g_string_new (NULL),
    .elf = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) cg_elf_functions_free),
    .elf_path = g_string_new (NULL),
    .pass = pass,
    /* not in a second pass over the same samples (perf script -G) */
    .depths = pass && pass->no_source ? NULL : cg_perf_depths_new (),
  };
  layouts_init (&r.lay);
  g_autoptr (CgPerfInlined) own = pass ? NULL : cg_perf_inlined_new (profile);
  r.inlined = pass ? pass->inlined : own;
  const char *line;
  gsize len;
  GError *local = NULL;
  gboolean ok = TRUE;
  while (ok && cg_input_next_line (input, &line, &len, &local))
    ok = handle_line (&r, line, len, &local);
  if (ok && local == NULL)
    ok = finish_input (&r, &local);
  if (ok && local == NULL && r.lay.first == 0 && !r.headerless && r.skipped == 0)
    ok = fail_at (&r, &local, 1, "no sample of perf script in the input");
  /* headers alone, with neither a call chain nor an address and a symbol
   * on their line, are no profile but lines that merely parse as headers
   * (folded stacks "main 5" read with --input-format=perf-script:
   * detection never takes such text).  Not for perf.data (@pass), whose
   * perf script prints the frames it asks for */
  if (ok && local == NULL && !pass && r.first_sample > 0 && !r.framed)
    ok = fail_at (&r, &local, r.first_sample,
                  "not a sample of perf script (a header line, then TAB and an address per frame, or the address"
                  " and symbol on the header line): no sample in the input has a frame");
  if (ok && local == NULL && r.skipped > 0)
    cg_read_warn (r.options, "%s: skipped %" G_GUINT64_FORMAT " sample%s that %s not perf script's "
                  "(the first, line %" G_GUINT64_FORMAT ": %s)",
                  cg_input_name (input), r.skipped, r.skipped == 1 ? "" : "s", r.skipped == 1 ? "is" : "are",
                  r.first_skipped, r.first_reason);
  if (ok && local == NULL && r.depths)
    warn_cut (&r, path);
  if (ok && local == NULL && pass && pass->stack_user)
    warn_unwound_short (&r, path);
  else if (ok && local == NULL && r.chains)
    warn_stopped (&r, path);
  if (ok && local == NULL && !(pass && pass->no_source))
    {
      cg_profile_add_source (profile, format, path, NULL, "perf script");
      /* perf record without -g: each sample is its function alone, and a
       * view of such a graph would show every function called by the
       * command's root, its total its self, said to be exact */
      if (!r.chains && r.framed)
        cg_profile_set_source_note (profile, "The samples hold no call chains (recorded without -g or"
                                             " --call-graph): callers are not known, and each function's total"
                                             " is its own samples only.");
    }
  /* the graph is rebuilt: nothing of it is used after this */
  if (ok && local == NULL && own)
    ok = cg_perf_place_inlined (profile, own, &local);
  if (pass)
    pass->n_samples = r.ordinal;
  g_string_free (r.root, TRUE);
  g_string_free (r.rest, TRUE);
  g_string_free (r.text, TRUE);
  g_array_unref (r.frames);
  g_string_free (r.name, TRUE);
  g_string_free (r.object, TRUE);
  g_hash_table_unref (r.elf);
  for (guint i = 0; i < G_N_ELEMENTS (r.calls); i++)
    {
      g_free (r.calls[i].caller_plain);
      g_free (r.calls[i].here_plain);
    }
  g_string_free (r.elf_path, TRUE);
  g_hash_table_unref (r.events);
  layouts_clear (&r.lay);
  g_string_free (r.last_event, TRUE);
  g_free (r.first_reason);
  cg_perf_depths_free (r.depths);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return ok;
}

/* ---- detection ---- */

/* The next line of @data from *@p: its text and whether it ended with a
 * newline.  FALSE at the end. */
static gboolean
next_detect_line (const guint8 *data, gsize len, gsize *p, const char **line, gsize *line_len, gboolean *whole)
{
  if (*p >= len)
    return FALSE;
  const guint8 *nl = memchr (data + *p, '\n', len - *p);
  gsize end = nl ? (gsize) (nl - data) : len;
  *line = (const char *) data + *p;
  *line_len = end - *p;
  if (*line_len > 0 && (*line)[*line_len - 1] == '\r')
    (*line_len)--;
  *whole = nl != NULL;
  *p = nl ? end + 1 : len;
  return TRUE;
}

/* Samples without call chains, one per line from offset @p of @data
 * (each may have a line of -F +insn after it): every whole line of the
 * window a header with an event, in a layout the reader takes (the first
 * line's, or a new one for an event not seen yet), then an address and
 * a symbol (found by fuzz/fuzz-detect.c: lines of folded stacks that
 * read as samples of several layouts, which the reader refuses).  perf
 * ends every line it prints: the last line of a whole input without its
 * newline is a sample cut short, which the reader refuses, and so no
 * sample (found by fuzz/fuzz-detect.c: "a;: 0479 0", a stack of folded
 * stacks and a sample of an event "a;", taken for both). */
static gboolean
one_line_samples (const guint8 *data, gsize len, gsize p, gboolean complete)
{
  Layouts l;
  layouts_init (&l);
  const char *line;
  gsize n;
  gboolean whole, ok = TRUE;
  while (ok && next_detect_line (data, len, &p, &line, &n, &whole) && (whole || complete))
    {
      CgPerfHeader h;
      CgPerfFrame f;
      if (!whole)
        ok = FALSE;
      else if (n == 0 || is_trailer_line (line, n) || is_record_line (line, n))
        continue;
      else
        ok = parse_header (&l, line, n, &h) && (h.fields & CG_PERF_EVENT) && h.rest.len > 0
             && cg_perf_parse_frame (h.rest.s, h.rest.len, FALSE, &f) && f.ip.len >= 4 && f.sym.len > 0;
    }
  ok = ok && l.first != 0;
  layouts_clear (&l);
  return ok;
}

/* Whether a frame line cut by the detection window (@n bytes of it)
 * begins as one: TAB and the 16 columns of the address. */
static gboolean
frame_line (const char *line, gsize n, gboolean whole)
{
  CgPerfFrame f;
  gsize lead = frame_lead (line, whole ? n : MIN (n, 24));
  if (lead == 0 || n < lead + 16)
    return FALSE;
  return cg_perf_parse_frame (line + lead, whole ? n - lead : 16, TRUE, &f);
}

gboolean
cg_perf_detect (const guint8 *data, gsize len, gboolean complete)
{
  gsize p = 0, n;
  const char *line;
  gboolean whole;
  /* perf.data's magic numbers (cg_perf_data_detect, which cannot be
   * included here: it includes this) are that format's, even before text
   * that reads as samples (found by fuzz/fuzz-detect.c) */
  if (len >= 8 && (memcmp (data, "PERFILE2", 8) == 0 || memcmp (data, "PERFFILE", 8) == 0))
    return FALSE;
  /* "# callgrind format" and the like is callgrind's, however many perf
   * records follow (found by fuzz/fuzz-detect.c: '#' lines were taken
   * for perf script --header's) */
  if (cg_callgrind_detect (data, len, complete))
    return FALSE;
  /* perf's messages first (2>&1), with the empty lines among them */
  gboolean message = FALSE;
  for (gsize q = p; next_detect_line (data, len, &q, &line, &n, &whole) && whole
                    && (is_perf_message (line, n) || (message && n == 0));
       p = q)
    message = TRUE;
  /* '#' lines first (perf script --header), and records that are no
   * samples (--show-task-events); --show-mmap-events prints one per
   * mapping of every process before its first sample, often more than
   * the window holds: records up to the window's end are perf's too */
  guint records = 0;
  do
    {
      if (!next_detect_line (data, len, &p, &line, &n, &whole))
        return records >= 2;
      records += n > 0 && whole && is_record_line (line, n);
    }
  while (n > 0 && (line[0] == '#' || (whole && is_record_line (line, n))));
  if (!whole && !complete)
    return records >= 2;
  if (n > 0)
    {
      /* a header line (an empty one is a layout without header fields) */
      CgPerfHeader h;
      if (frame_lead (line, n) > 0 || !cg_perf_parse_header (line, n, 0, &h) || h.fields == 0)
        return FALSE;
      gsize first = (gsize) ((const guint8 *) line - data);
      if (!next_detect_line (data, len, &p, &line, &n, &whole))
        return complete && one_line_samples (data, len, first, complete);
      if (n == 0 || frame_lead (line, whole ? n : MIN (n, 24)) == 0)
        return one_line_samples (data, len, first, complete);
    }
  else if (!next_detect_line (data, len, &p, &line, &n, &whole))
    return FALSE;
  /* frame lines (and source lines) up to a blank line or the window's end */
  if (!frame_line (line, n, whole || complete))
    return FALSE;
  while (next_detect_line (data, len, &p, &line, &n, &whole) && n > 0)
    {
      if (!whole && !complete)
        return TRUE; /* cut by the window: all before it was a sample */
      if (is_trailer_line (line, n))
        return TRUE; /* -F +insn: the sample's last line */
      if (frame_lead (line, n) > 0 ? !frame_line (line, n, TRUE) : !(n >= 2 && line[0] == ' ' && line[1] == ' '))
        return FALSE;
    }
  return TRUE;
}
