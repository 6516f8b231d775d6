/* cg-read-gperftools.c — gperftools' CPU profiles into the call tree and
 * the graph.
 *
 * Two passes over the records: the first checks them and finds where the
 * maps text starts (after the trailer), the second turns each record's
 * PCs into functions through the maps and the mapped files' symbols.
 */
#include "config.h"

#include "cg-read-gperftools.h"

#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "cg-elf-cache.h"
#include "cg-elf-functions.h"
#include "cg-elf-inlines.h"
#include "cg-error.h"
#include "cg-proc-maps.h"

#define HEADER_WORDS 5
/* a depth no profiler writes: gperftools 2.10 stops at 253 PCs; the
 * perl pprof refuses 2^16 and more */
#define MAX_DEPTH 65536

/* The words of a profile: @size bytes each, big-endian or not. */
typedef struct {
  const guint8 *data;
  gsize len;
  guint size;
  gboolean big;
} Words;

static guint64
word_at (const Words *w, gsize at)
{
  const guint8 *p = w->data + at;
  guint64 v = 0;
  for (guint i = 0; i < w->size; i++)
    v = v << 8 | p[w->big ? i : w->size - 1 - i];
  return v;
}

static const struct {
  guint size;
  gboolean big;
} layouts[] = { { 8, FALSE }, { 8, TRUE }, { 4, FALSE }, { 4, TRUE } };

/* Whether the header's words that @w holds (@n of them) are its words:
 * 0, 3, 0, a period of at least 1, 0. */
static gboolean
header_words (const Words *w, guint n, guint64 *period)
{
  static const guint64 want[HEADER_WORDS] = { 0, 3, 0, 1, 0 };
  for (guint k = 0; k < n; k++)
    {
      guint64 v = word_at (w, k * w->size);
      if (k == 3 ? v == 0 : v != want[k])
        return FALSE;
      if (k == 3)
        *period = v;
    }
  return TRUE;
}

/* Finds the word size and byte order in which @data begins with the
 * header; its period into *@period. */
static gboolean
header_layout (const guint8 *data, gsize len, Words *w, guint64 *period)
{
  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    {
      *w = (Words) { data, len, layouts[i].size, layouts[i].big };
      if (len >= HEADER_WORDS * w->size && header_words (w, HEADER_WORDS, period))
        return TRUE;
    }
  return FALSE;
}

/* Whether @data (@len bytes, too few for a header) are the start of one:
 * two words of it at least. */
static gboolean
header_cut (const guint8 *data, gsize len)
{
  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    {
      Words w = { data, len, layouts[i].size, layouts[i].big };
      guint64 period;
      guint n = (guint) MIN (len / w.size, HEADER_WORDS);
      if (n >= 2 && n < HEADER_WORDS && header_words (&w, n, &period))
        return TRUE;
    }
  return FALSE;
}

gboolean
cg_gperftools_detect (const guint8 *data, gsize len, gboolean complete)
{
  Words w;
  guint64 period;
  return header_layout (data, len, &w, &period) || (complete && header_cut (data, len));
}

/* ---- reading ---- */

/* The frames of one distinct PC: r->frames[first .. first + n), the
 * innermost first. */
typedef struct {
  guint first, n;
} Location;

/* A mapped file, loaded at its first PC. */
typedef struct {
  const char *path;          /* the file read (the maps' or --executable) */
  CgElfFunctions *functions; /* NULL: it could not be read (owned by the cache) */
  CgElfInlines *inlines;     /* nullable: its DWARF (or its debug file's) */
  guint32 object;            /* interned base name of the mapped path */
  guint32 unknown;           /* interned "[BASE]" */
  gboolean warned_segment;
} Object;

typedef struct {
  CgProfile *profile;
  CgGraph *graph;
  CgTree *tree;
  const CgReadOptions *options;
  const char *name;
  Words w;
  guint64 period;
  gsize maps_at;        /* the first byte after the trailer */
  guint event_cpu, event_samples;
  guint64 samples;      /* all records' counts */
  gdouble sampled;      /* and their time, in ns */
  CgProcMaps *maps;
  char *exe_path;       /* nullable: the mapped path --executable stands for */
  GHashTable *objects;  /* mapped path -> Object* */
  CgElfCache *elf;      /* the files read: the options', else own_elf */
  CgElfCache *own_elf;  /* nullable */
  GHashTable *pcs;      /* guint64* (PC, less 1 for return addresses) -> index in locations + 1 */
  GArray *locations;    /* Location per distinct PC */
  GArray *frames;       /* CgFunctionId: the locations' frames */
  GArray *stack;        /* CgFunctionId of one record, the leaf first */
  GArray *names;        /* guint32, scratch: one PC's names */
  GPtrArray *inlined;   /* const char *, scratch: one PC's inlined calls */
} Reader;

static gboolean G_GNUC_PRINTF (5, 6)
fail (Reader *r, GError **error, CgError code, gsize offset, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  cg_read_failv (error, code, r->name, CG_AT_OFFSET, offset, format, ap);
  va_end (ap);
  return FALSE;
}

/* Pass 1: checks the records and finds the trailer (r->maps_at). */
static gboolean
scan_records (Reader *r, GError **error)
{
  const Words *w = &r->w;
  gsize at = HEADER_WORDS * w->size;
  for (;;)
    {
      if (w->len - at < 2 * (gsize) w->size)
        return fail (r, error, CG_ERROR_TRUNCATED, at, "the input ends before the trailer (0, 1, 0) that ends the"
                     " samples: cut short (the profiled program did not stop the profiler: killed, or still"
                     " running?)");
      guint64 count = word_at (w, at), depth = word_at (w, at + w->size);
      gsize pcs = at + 2 * (gsize) w->size;
      if (depth > MAX_DEPTH)
        return fail (r, error, CG_ERROR_PARSE, at, "a record of %" G_GUINT64_FORMAT " PCs, more than any profiler"
                     " writes (expected at most %u: the record is damaged)", depth, MAX_DEPTH);
      if (depth > (w->len - pcs) / w->size)
        return fail (r, error, CG_ERROR_TRUNCATED, at, "a record of %" G_GUINT64_FORMAT " PCs, and the input ends"
                     " after %" G_GSIZE_FORMAT " more bytes (cut short)", depth, w->len - pcs);
      if (count == 0 && depth == 1 && word_at (w, pcs) == 0)
        {
          r->maps_at = pcs + w->size;
          return TRUE;
        }
      if (count == 0)
        return fail (r, error, CG_ERROR_PARSE, at, "a record with a count of 0 and %" G_GUINT64_FORMAT " PCs"
                     " (expected a count of at least 1, or the trailer 0, 1, 0)", depth);
      if (depth == 0)
        return fail (r, error, CG_ERROR_PARSE, at, "a record of depth 0, without PCs (count %"
                     G_GUINT64_FORMAT "; expected a depth of at least 1)", count);
      at = pcs + (gsize) depth * w->size;
    }
}

/* The Object of a mapped path, loaded at first use (warnings once). */
static Object *
object_of (Reader *r, const CgProcMap *m)
{
  Object *o = g_hash_table_lookup (r->objects, m->path);
  if (o)
    return o;
  o = g_new0 (Object, 1);
  g_hash_table_insert (r->objects, (gpointer) m->path, o);
  g_autofree char *base = g_path_get_basename (m->path);
  o->object = cg_graph_intern_id (r->graph, base, -1);
  g_autofree char *label = g_strdup_printf ("[%s]", base);
  o->unknown = cg_graph_intern_id (r->graph, label, -1);
  gboolean replaced = r->exe_path && strcmp (m->path, r->exe_path) == 0;
  o->path = replaced ? r->options->executable : m->path;
  GError *local = NULL;
  if (!cg_elf_cache_get (r->elf, o->path, &o->functions, &o->inlines, &local))
    {
      cg_read_warn (r->options, "%s: %s: its functions are named [%s] (a file of the profiled process that is"
                    " not here: --executable=FILE names a copy)", r->name, local->message, base);
      g_error_free (local);
      return o;
    }
  if (cg_elf_functions_count (o->functions) == 0)
    cg_read_warn (r->options, "%s: %s has no symbols (stripped): its functions are named [%s]", r->name, o->path,
                  base);
  struct stat st;
  if (m->deleted && !replaced)
    cg_read_warn (r->options, "%s: %s was deleted while the profiled process ran; the file there now may not be"
                  " the code profiled", r->name, m->path);
  else if (!replaced && m->inode != 0 && stat (m->path, &st) == 0 && (guint64) st.st_ino != m->inode)
    cg_read_warn (r->options, "%s: %s is not the file the profiled process mapped (inode %" G_GUINT64_FORMAT
                  " then, %" G_GUINT64_FORMAT " now): rebuilt or replaced since? its names may not be the profiled"
                  " code's (--executable=FILE names the right copy)", r->name, m->path, m->inode,
                  (guint64) st.st_ino);
  return o;
}

/* The object's own address of @pc (in mapping @m of @o); FALSE when
 * it has none (warned once). */
static gboolean
object_address (Reader *r, const CgProcMap *m, Object *o, guint64 pc, guint64 *address)
{
  guint64 offset;
  if (o->functions == NULL || !g_uint64_checked_add (&offset, pc - m->start, m->offset))
    return FALSE;
  if (cg_elf_functions_address (o->functions, offset, address))
    return TRUE;
  if (!o->warned_segment)
    cg_read_warn (r->options, "%s: no loadable segment of %s holds offset 0x%" G_GINT64_MODIFIER "x, where the"
                  " profiled process mapped it: not the file profiled", r->name, o->path, offset);
  o->warned_segment = TRUE;
  return FALSE;
}

/* Appends @pc's names (interned) to @names, the innermost first: the
 * calls inlined there, then the function whose symbol holds it; its
 * object into *@object, and into *@outer the object of that last name,
 * which differs where the function is one of several of its name in the
 * object (cg_elf_functions_apart). */
static void
symbolize (Reader *r, guint64 pc, guint32 *object, guint32 *outer, GArray *names)
{
  const CgProcMap *m = cg_proc_maps_find (r->maps, pc);
  guint32 name;
  *object = *outer = 0;
  if (m == NULL || m->path[0] == '\0' || m->path[0] == '[')
    {
      /* no file: [vdso], an anonymous (JIT) mapping, or none */
      name = cg_graph_intern_id (r->graph, m && m->path[0] == '[' ? m->path : "<unknown>", -1);
      g_array_append_val (names, name);
      return;
    }
  Object *o = object_of (r, m);
  *object = *outer = o->object;
  guint64 address;
  const char *apart = NULL;
  const char *found
    = object_address (r, m, o, pc, &address) ? cg_elf_functions_lookup (o->functions, address, &apart) : NULL;
  if (found && apart)
    {
      g_autofree char *path = cg_elf_apart_object (cg_graph_string (r->graph, o->object), apart);
      *outer = cg_graph_intern_id (r->graph, path, -1);
    }
  if (found && o->inlines)
    {
      g_ptr_array_set_size (r->inlined, 0);
      cg_elf_inlines_at (o->inlines, address, r->inlined);
      for (guint i = 0; i < r->inlined->len; i++)
        {
          name = cg_graph_intern_id (r->graph, g_ptr_array_index (r->inlined, i), -1);
          g_array_append_val (names, name);
        }
    }
  name = found ? cg_graph_intern_id (r->graph, found, -1) : o->unknown;
  g_array_append_val (names, name);
}

/* Appends the frames of @pc to r->stack (the innermost first),
 * symbolized once per PC.  FALSE when the graph is full. */
static gboolean
add_frames (Reader *r, guint64 pc)
{
  gpointer v = g_hash_table_lookup (r->pcs, &pc);
  if (v == NULL)
    {
      guint32 object, outer;
      g_array_set_size (r->names, 0);
      symbolize (r, pc, &object, &outer, r->names);
      Location loc = { r->frames->len, r->names->len };
      for (guint i = 0; i < r->names->len; i++)
        {
          CgFunctionId f = cg_graph_ensure_function_ids (r->graph, i + 1 == r->names->len ? outer : object,
                                                         g_array_index (r->names, guint32, i));
          if (f == CG_NO_ID)
            return FALSE;
          g_array_append_val (r->frames, f);
        }
      g_array_append_val (r->locations, loc);
      v = GUINT_TO_POINTER (r->locations->len);
      g_hash_table_insert (r->pcs, g_memdup2 (&pc, sizeof pc), v);
    }
  const Location *loc = &g_array_index (r->locations, Location, GPOINTER_TO_UINT (v) - 1);
  g_array_append_vals (r->stack, &g_array_index (r->frames, CgFunctionId, loc->first), loc->n);
  return TRUE;
}

/* One record's frames (r->stack, the leaf first) into the tree, root
 * first; @count samples charged to the leaf.  Tree edges made here get
 * their arcs (Kaes's E_t). */
static gboolean
add_record (Reader *r, gsize at, guint64 count, GError **error)
{
  CgFrameId parent = CG_NO_ID;
  for (guint i = r->stack->len; i-- > 0;)
    {
      CgFunctionId fn = g_array_index (r->stack, CgFunctionId, i);
      guint before = cg_tree_n_frames (r->tree);
      CgFrameId x = cg_tree_ensure_child (r->tree, parent, fn);
      if (x == CG_NO_ID)
        return fail (r, error, CG_ERROR_OVERFLOW, at, "more than 2^32-2 frames in the call tree");
      if (cg_tree_n_frames (r->tree) != before && parent != CG_NO_ID
          && cg_graph_ensure_arc (r->graph, cg_tree_function (r->tree, parent), fn) == CG_NO_ID)
        return fail (r, error, CG_ERROR_OVERFLOW, at, "more than 2^32-1 arcs");
      parent = x;
    }
  guint64 ns;
  if (!g_uint64_checked_mul (&ns, count, r->period) || !g_uint64_checked_mul (&ns, ns, 1000))
    return fail (r, error, CG_ERROR_OVERFLOW, at, "%" G_GUINT64_FORMAT " samples of %" G_GUINT64_FORMAT " us"
                 " exceed the range of 64-bit nanoseconds", count, r->period);
  CgFunctionId leaf = cg_tree_function (r->tree, parent);
  if (!g_uint64_checked_add (&r->samples, r->samples, count))
    return fail (r, error, CG_ERROR_OVERFLOW, at, "a sum of samples exceeds the range of 64-bit counters");
  r->sampled += (gdouble) ns;
  CgValue vs[2] = { { .n = ns }, { .n = count } };
  guint events[2] = { r->event_cpu, r->event_samples };
  for (guint k = 0; k < 2; k++)
    if (!cg_value_add (CG_KIND_INTEGER, &cg_tree_self (r->tree, parent)[events[k]], vs[k])
        || !cg_value_add (CG_KIND_INTEGER, &cg_graph_self (r->graph, leaf)[events[k]], vs[k]))
      return fail (r, error, CG_ERROR_OVERFLOW, at, "a sum of samples exceeds the range of 64-bit counters");
  return TRUE;
}

/* Pass 2: the records into the tree (they were checked by pass 1). */
static gboolean
read_records (Reader *r, GError **error)
{
  const Words *w = &r->w;
  gsize size = w->size;
  gsize trailer = r->maps_at - 3 * size;
  for (gsize at = HEADER_WORDS * size; at < trailer;)
    {
      guint64 count = word_at (w, at), depth = word_at (w, at + size);
      gsize pcs = at + 2 * size;
      g_array_set_size (r->stack, 0);
      for (guint64 i = 0; i < depth; i++)
        {
          guint64 pc = word_at (w, pcs + i * size);
          /* an unwinder that found the interrupted PC again (pprof's
           * cleanupDuplicateLocations) */
          if (i == 1 && pc == word_at (w, pcs))
            continue;
          /* a return address: the call is the instruction before it */
          if (!add_frames (r, i > 0 && pc > 0 ? pc - 1 : pc))
            return fail (r, error, CG_ERROR_OVERFLOW, at, "more than 2^32-1 functions");
        }
      if (!add_record (r, at, count, error))
        return FALSE;
      at = pcs + (gsize) depth * size;
    }
  return TRUE;
}

/* The mapped path that --executable stands for: the one with its base
 * name, else the program's own, the lowest file mapped (the kernel maps
 * the program below the libraries, PIE or not), with a warning. */
static gboolean
choose_executable (Reader *r, GError **error)
{
  g_autofree char *base = g_path_get_basename (r->options->executable);
  guint n;
  const CgProcMap *maps = cg_proc_maps_array (r->maps, &n);
  const char *lowest = NULL;
  for (guint i = 0; i < n; i++)
    {
      if (maps[i].path[0] != '/')
        continue;
      g_autofree char *b = g_path_get_basename (maps[i].path);
      if (strcmp (b, base) == 0)
        {
          r->exe_path = g_strdup (maps[i].path);
          return TRUE;
        }
      lowest = lowest ? lowest : maps[i].path;
    }
  if (lowest == NULL)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_MISMATCH, "%s: --executable=%s: the profile's maps name no file it"
                   " could stand for", r->name, r->options->executable);
      return FALSE;
    }
  cg_read_warn (r->options, "%s: the profiled process mapped no file named %s: --executable=%s is read for %s,"
                " the program's own (the lowest file mapped)", r->name, base, r->options->executable, lowest);
  r->exe_path = g_strdup (lowest);
  return TRUE;
}

/* The maps text after the trailer, parsed; --executable placed. */
static gboolean
read_maps (Reader *r, GError **error)
{
  const char *text = (const char *) r->w.data + r->maps_at;
  gsize len = r->w.len - r->maps_at;
  const char *nul = memchr (text, '\0', len);
  if (nul)
    return fail (r, error, CG_ERROR_PARSE, r->maps_at + (gsize) (nul - text), "a NUL byte in the text of the"
                 " process's maps after the trailer (expected lines of /proc/self/maps)");
  r->maps = cg_proc_maps_parse (text, len);
  return r->options->executable == NULL || choose_executable (r, error);
}

gboolean
cg_read_gperftools (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error)
{
  static const CgReadOptions defaults = { 0 };
  const guint8 *data;
  gsize len;
  if (!cg_input_contents (input, &data, &len, error))
    return FALSE;
  Reader r = {
    .profile = profile,
    .graph = cg_profile_graph (profile),
    .options = options ? options : &defaults,
    .name = cg_input_name (input),
  };
  if (!header_layout (data, len, &r.w, &r.period))
    {
      if (header_cut (data, len))
        return fail (&r, error, CG_ERROR_TRUNCATED, len, "the input ends inside the header (five words of 4 or 8"
                     " bytes: cut short)");
      return fail (&r, error, CG_ERROR_PARSE, 0, "not the header of a gperftools CPU profile (expected the words"
                   " 0, 3, 0, a period, 0)");
    }
  if (!scan_records (&r, error) || !read_maps (&r, error))
    {
      cg_proc_maps_free (r.maps);
      g_free (r.exe_path);
      return FALSE;
    }
  r.tree = cg_profile_ensure_tree (profile);
  r.objects = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  r.elf = options && options->elf ? options->elf : (r.own_elf = cg_elf_cache_new ());
  r.pcs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  r.stack = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  r.locations = g_array_new (FALSE, FALSE, sizeof (Location));
  r.frames = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  r.names = g_array_new (FALSE, FALSE, sizeof (guint32));
  r.inlined = g_ptr_array_new ();
  GError *local = NULL;
  gboolean ok = cg_profile_ensure_event (profile, "cpu", "ns", CG_KIND_INTEGER, &r.event_cpu, &local)
                && cg_profile_ensure_event (profile, "samples", "count", CG_KIND_INTEGER, &r.event_samples, &local)
                && read_records (&r, &local);
  if (ok)
    cg_profile_add_source (profile, "gperftools", r.name, NULL, NULL);
  /* the samples behind both events, for the noise of differences */
  if (ok && r.samples > 0)
    {
      cg_graph_add_event_samples (r.graph, r.event_cpu, r.samples, r.sampled);
      cg_graph_add_event_samples (r.graph, r.event_samples, r.samples, (gdouble) r.samples);
    }
  g_hash_table_unref (r.objects);
  cg_elf_cache_free (r.own_elf);
  g_hash_table_unref (r.pcs);
  g_array_unref (r.stack);
  g_array_unref (r.locations);
  g_array_unref (r.frames);
  g_array_unref (r.names);
  g_ptr_array_unref (r.inlined);
  cg_proc_maps_free (r.maps);
  g_free (r.exe_path);
  if (local)
    {
      if (local->domain == CG_ERROR && local->code == CG_ERROR_MISMATCH && !g_str_has_prefix (local->message, r.name))
        g_prefix_error (&local, "%s: ", r.name);
      g_propagate_error (error, local);
      return FALSE;
    }
  return ok;
}
