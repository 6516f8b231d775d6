/* cg-elf-functions.c — an ELF object's functions by address (cg-elf-functions.h). */
#include "config.h"

#include "cg-elf-functions.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cg-eh-frame-hdr.h"
#include "cg-error.h"

typedef struct {
  guint64 offset, size, vaddr; /* a PT_LOAD segment's file bytes */
} Segment;

typedef struct {
  guint64 start, size;
  const char *name;
  const char *file;  /* a local symbol's source file (STT_FILE), or NULL */
  const char *apart; /* what tells it from others of its name, or NULL */
  guint8 rank; /* 0 global, 1 weak, 2 local */
} Function;

struct _CgElfFunctions {
  GArray *segments;  /* Segment */
  GArray *functions; /* Function, by start, one per start */
  GArray *unwind_starts; /* guint64, ascending: .eh_frame_hdr's */
  GStringChunk *names;
  char *debug_file;  /* nullable */
};

/* An open ELF file. */
typedef struct {
  int fd;
  Elf *elf;
} Open;

static void
open_close (Open *o)
{
  if (o->elf)
    elf_end (o->elf);
  if (o->fd >= 0)
    close (o->fd);
  *o = (Open) { -1, NULL };
}

/* Opens @path as ELF; FALSE with errno-style @error (nullable) set. */
static gboolean
open_elf (Open *o, const char *path, GError **error)
{
  *o = (Open) { -1, NULL };
  if (elf_version (EV_CURRENT) == EV_NONE)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s: libelf is too old for this ELF version", path);
      return FALSE;
    }
  /* the path comes from the input: a FIFO or a device there must not
   * block or feed us (O_NONBLOCK opens a FIFO at once) */
  o->fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (o->fd < 0)
    {
      int e = errno;
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: %s", path, g_strerror (e));
      return FALSE;
    }
  struct stat st;
  if (fstat (o->fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: not a regular file", path);
      open_close (o);
      return FALSE;
    }
  o->elf = elf_begin (o->fd, ELF_C_READ, NULL);
  if (o->elf == NULL || elf_kind (o->elf) != ELF_K_ELF)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s: not an ELF file", path);
      open_close (o);
      return FALSE;
    }
  return TRUE;
}

static guint8
rank_of (const GElf_Sym *sym)
{
  switch (GELF_ST_BIND (sym->st_info))
    {
    case STB_GLOBAL:
      return 0;
    case STB_WEAK:
      return 1;
    default:
      return 2;
    }
}

/* Appends the defined functions of symbol section @scn. */
static void
add_symbols (CgElfFunctions *f, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
  Elf_Data *data = elf_getdata (scn, NULL);
  if (data == NULL || sh->sh_entsize == 0)
    return;
  gsize n = sh->sh_size / sh->sh_entsize;
  /* the local symbols of a source file follow its STT_FILE symbol (the
   * ELF gABI, "Symbol Table"); the globals have no file */
  const char *file = NULL;
  for (gsize i = 0; i < n && i <= G_MAXINT; i++)
    {
      GElf_Sym sym;
      if (gelf_getsym (data, (int) i, &sym) == NULL)
        break;
      int type = GELF_ST_TYPE (sym.st_info);
      if (type == STT_FILE)
        {
          const char *path = elf_strptr (elf, sh->sh_link, sym.st_name);
          const char *slash = path ? strrchr (path, '/') : NULL;
          file = path == NULL || *path == '\0' ? NULL : g_string_chunk_insert_const (f->names, slash ? slash + 1 : path);
          continue;
        }
      if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF || sym.st_value == 0)
        continue;
      const char *name = elf_strptr (elf, sh->sh_link, sym.st_name);
      if (name == NULL || *name == '\0')
        continue;
      guint8 rank = rank_of (&sym);
      Function fn = { sym.st_value, sym.st_size, g_string_chunk_insert_const (f->names, name),
                      rank == 2 ? file : NULL, NULL, rank };
      g_array_append_val (f->functions, fn);
    }
}

static void
add_symbol_sections (CgElfFunctions *f, Elf *elf, gboolean dynamic)
{
  for (Elf_Scn *scn = elf_nextscn (elf, NULL); scn; scn = elf_nextscn (elf, scn))
    {
      GElf_Shdr sh;
      if (gelf_getshdr (scn, &sh) != NULL && (sh.sh_type == SHT_SYMTAB || (dynamic && sh.sh_type == SHT_DYNSYM)))
        add_symbols (f, elf, scn, &sh);
    }
}

static gboolean
add_segments (CgElfFunctions *f, Elf *elf)
{
  size_t n;
  if (elf_getphdrnum (elf, &n) != 0)
    return FALSE;
  for (size_t i = 0; i < n && i <= G_MAXINT; i++)
    {
      GElf_Phdr ph;
      if (gelf_getphdr (elf, (int) i, &ph) != NULL && ph.p_type == PT_LOAD && ph.p_filesz > 0)
        {
          Segment s = { ph.p_offset, ph.p_filesz, ph.p_vaddr };
          g_array_append_val (f->segments, s);
        }
    }
  return f->segments->len > 0;
}

/* The object's GNU build ID (@len bytes at the returned pointer, owned by
 * @elf), from its notes; NULL without one. */
static const guint8 *
build_id (Elf *elf, gsize *len)
{
  for (Elf_Scn *scn = elf_nextscn (elf, NULL); scn; scn = elf_nextscn (elf, scn))
    {
      GElf_Shdr sh;
      Elf_Data *data;
      if (gelf_getshdr (scn, &sh) == NULL || sh.sh_type != SHT_NOTE || (data = elf_getdata (scn, NULL)) == NULL)
        continue;
      GElf_Nhdr nh;
      size_t at = 0, name_at, desc_at;
      while ((at = gelf_getnote (data, at, &nh, &name_at, &desc_at)) > 0)
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && memcmp ((const char *) data->d_buf + name_at, "GNU", 4) == 0
            && nh.n_descsz >= 2)
          {
            *len = nh.n_descsz;
            return (const guint8 *) data->d_buf + desc_at;
          }
    }
  return NULL;
}

/* The CRC-32 (ISO 3309, the one .gnu_debuglink holds) of the file @fd,
 * read from its start; FALSE where it cannot be read. */
static gboolean
file_crc32 (int fd, guint32 *crc)
{
  static guint32 table[256];
  if (table[1] == 0)
    for (guint32 i = 0; i < 256; i++)
      {
        guint32 c = i;
        for (int k = 0; k < 8; k++)
          c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
      }
  guint32 c = 0xffffffffu;
  guint8 buf[1 << 16];
  gssize n;
  if (lseek (fd, 0, SEEK_SET) != 0)
    return FALSE;
  while ((n = read (fd, buf, sizeof buf)) > 0)
    for (gssize i = 0; i < n; i++)
      c = table[(c ^ buf[i]) & 0xff] ^ (c >> 8);
  *crc = c ^ 0xffffffffu;
  return n == 0;
}

/* The file name and CRC in @elf's .gnu_debuglink section (the name, NUL,
 * padding to 4 bytes, then the CRC-32 of the debug file in the object's
 * byte order), or NULL (the name points into @elf's data). */
static const char *
debuglink (Elf *elf, guint32 *crc)
{
  size_t shstrndx;
  if (elf_getshdrstrndx (elf, &shstrndx) != 0)
    return NULL;
  for (Elf_Scn *scn = elf_nextscn (elf, NULL); scn; scn = elf_nextscn (elf, scn))
    {
      GElf_Shdr sh;
      const char *name;
      Elf_Data *data;
      if (gelf_getshdr (scn, &sh) == NULL || sh.sh_type == SHT_NOBITS
          || (name = elf_strptr (elf, shstrndx, sh.sh_name)) == NULL || strcmp (name, ".gnu_debuglink") != 0
          || (data = elf_getdata (scn, NULL)) == NULL)
        continue;
      const char *text = data->d_buf;
      gsize len = strnlen (text, data->d_size), at = (len + 4) & ~(gsize) 3;
      if (len == 0 || len == data->d_size || at + 4 > data->d_size)
        return NULL;
      const guint8 *b = (const guint8 *) text + at;
      gboolean big = elf_getident (elf, NULL)[EI_DATA] == ELFDATA2MSB;
      *crc = big ? (guint32) b[0] << 24 | (guint32) b[1] << 16 | (guint32) b[2] << 8 | b[3]
                 : (guint32) b[3] << 24 | (guint32) b[2] << 16 | (guint32) b[1] << 8 | b[0];
      return text;
    }
  return NULL;
}

/* Adds the .symtab of @d, the debug file at @path, where it is @elf's:
 * the same build ID where @elf has one, else the CRC its debug link
 * names.  TRUE where it was added. */
static gboolean
add_debug_symbols (CgElfFunctions *f, Elf *elf, const char *path, gboolean by_crc, guint32 crc)
{
  Open d;
  if (!open_elf (&d, path, NULL))
    return FALSE;
  gsize len = 0, other_len = 0;
  const guint8 *id = build_id (elf, &len), *other = build_id (d.elf, &other_len);
  guint32 got;
  gboolean same = id ? other && other_len == len && memcmp (other, id, len) == 0
                     : by_crc && file_crc32 (d.fd, &got) && got == crc;
  guint before = f->functions->len;
  if (same)
    add_symbol_sections (f, d.elf, FALSE);
  open_close (&d);
  if (f->functions->len == before)
    return FALSE;
  f->debug_file = g_strdup (path);
  return TRUE;
}

/* Adds the .symtab of the separate debug file of @elf (@path), where one
 * is installed, found as gdb, addr2line and pprof find it: under its
 * build ID (/usr/lib/debug/.build-id/NN/REST.debug), else by the file
 * name its .gnu_debuglink section gives, beside the object, in the
 * .debug directory beside it, and under /usr/lib/debug followed by the
 * object's directory (gdb's "Separate Debug Files"). */
static void
add_debug_file (CgElfFunctions *f, Elf *elf, const char *path)
{
  gsize len = 0;
  const guint8 *id = build_id (elf, &len);
  if (id)
    {
      g_autoptr (GString) by_id = g_string_new ("/usr/lib/debug/.build-id/");
      for (gsize i = 0; i < len; i++)
        g_string_append_printf (by_id, i == 1 ? "/%02x" : "%02x", id[i]);
      g_string_append (by_id, ".debug");
      if (add_debug_symbols (f, elf, by_id->str, FALSE, 0))
        return;
    }
  guint32 crc = 0;
  const char *link = debuglink (elf, &crc);
  if (link == NULL || strchr (link, '/'))
    return;
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *absolute = g_canonicalize_filename (dir, NULL);
  g_autofree char *beside = g_build_filename (dir, link, NULL);
  g_autofree char *hidden = g_build_filename (dir, ".debug", link, NULL);
  g_autofree char *global = g_build_filename ("/usr/lib/debug", absolute, link, NULL);
  /* not the object itself: a debug link may name the object's own name */
  g_autofree char *self = g_canonicalize_filename (path, NULL);
  const char *const candidates[] = { beside, hidden, global };
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      g_autofree char *canonical = g_canonicalize_filename (candidates[i], NULL);
      if (strcmp (canonical, self) != 0 && add_debug_symbols (f, elf, candidates[i], TRUE, crc))
        return;
    }
}

static gint
cmp_function (gconstpointer a, gconstpointer b)
{
  const Function *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  /* the preferred name first (cg-elf-functions.h) */
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  gsize ux = strspn (x->name, "_"), uy = strspn (y->name, "_");
  if (ux != uy)
    return ux < uy ? -1 : 1;
  gsize lx = strlen (x->name), ly = strlen (y->name);
  if (lx != ly)
    return lx < ly ? -1 : 1;
  int c = strcmp (x->name, y->name);
  if (c != 0)
    return c;
  return x->size > y->size ? -1 : x->size < y->size;
}

/* Gives each function whose name another start has too (two source
 * files' static helper) what tells it apart: its file's base name where
 * none of the others of its name has that file, else its start. */
static void
mark_apart (CgElfFunctions *f)
{
  /* name -> the index + 1 of its first function, or 0 once repeated:
   * names are interned in f->names, so one pointer per name */
  g_autoptr (GHashTable) first = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) repeated = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = 0; i < f->functions->len; i++)
    {
      const char *name = g_array_index (f->functions, Function, i).name;
      if (g_hash_table_contains (first, name))
        g_hash_table_add (repeated, (gpointer) name);
      else
        g_hash_table_add (first, (gpointer) name);
    }
  if (g_hash_table_size (repeated) == 0)
    return;
  /* (name, file) pairs seen twice: the file tells none of them apart */
  g_autoptr (GHashTable) files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < f->functions->len; i++)
    {
      const Function *fn = &g_array_index (f->functions, Function, i);
      if (fn->file == NULL || !g_hash_table_contains (repeated, fn->name))
        continue;
      char *key = g_strconcat (fn->name, "\n", fn->file, NULL);
      g_hash_table_insert (files, key, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (files, key)) + 1));
    }
  for (guint i = 0; i < f->functions->len; i++)
    {
      Function *fn = &g_array_index (f->functions, Function, i);
      if (!g_hash_table_contains (repeated, fn->name))
        continue;
      g_autofree char *key = fn->file ? g_strconcat (fn->name, "\n", fn->file, NULL) : NULL;
      if (key && GPOINTER_TO_UINT (g_hash_table_lookup (files, key)) == 1)
        fn->apart = fn->file;
      else
        {
          char start[32];
          g_snprintf (start, sizeof start, "0x%" G_GINT64_MODIFIER "x", fn->start);
          fn->apart = g_string_chunk_insert_const (f->names, start);
        }
    }
}

/* Sorts the functions and keeps the first at each start, with the
 * largest size any name there has. */
static void
finish (CgElfFunctions *f)
{
  g_array_sort (f->functions, cmp_function);
  guint kept = 0;
  for (guint i = 0; i < f->functions->len; i++)
    {
      Function *fn = &g_array_index (f->functions, Function, i);
      Function *last = kept ? &g_array_index (f->functions, Function, kept - 1) : NULL;
      if (last && last->start == fn->start)
        last->size = MAX (last->size, fn->size);
      else
        g_array_index (f->functions, Function, kept++) = *fn;
    }
  g_array_set_size (f->functions, kept);
  mark_apart (f);
}

CgElfFunctions *
cg_elf_functions_load (const char *path, GError **error)
{
  Open o;
  if (!open_elf (&o, path, error))
    return NULL;
  CgElfFunctions *f = g_new0 (CgElfFunctions, 1);
  f->segments = g_array_new (FALSE, FALSE, sizeof (Segment));
  f->functions = g_array_new (FALSE, FALSE, sizeof (Function));
  f->names = g_string_chunk_new (16384);
  if (!add_segments (f, o.elf))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s: an ELF file without loadable segments", path);
      open_close (&o);
      cg_elf_functions_free (f);
      return NULL;
    }
  add_symbol_sections (f, o.elf, TRUE);
  f->unwind_starts = cg_eh_frame_hdr_starts (o.elf);
  add_debug_file (f, o.elf, path);
  open_close (&o);
  finish (f);
  return f;
}

void
cg_elf_functions_free (CgElfFunctions *f)
{
  if (f == NULL)
    return;
  g_array_unref (f->segments);
  g_array_unref (f->functions);
  if (f->unwind_starts)
    g_array_unref (f->unwind_starts);
  g_string_chunk_free (f->names);
  g_free (f->debug_file);
  g_free (f);
}

gboolean
cg_elf_functions_address (const CgElfFunctions *f, guint64 offset, guint64 *address)
{
  for (guint i = 0; i < f->segments->len; i++)
    {
      const Segment *s = &g_array_index (f->segments, Segment, i);
      if (offset >= s->offset && offset - s->offset < s->size)
        {
          *address = s->vaddr + (offset - s->offset);
          return TRUE;
        }
    }
  return FALSE;
}

/* How many functions start at or below @address: the one holding it, if
 * any, is the last of them (binary search). */
static guint
count_at_or_below (const CgElfFunctions *f, guint64 address)
{
  guint lo = 0, hi = f->functions->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (f->functions, Function, mid).start <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

const char *
cg_elf_functions_lookup (const CgElfFunctions *f, guint64 address, const char **apart)
{
  guint n = count_at_or_below (f, address);
  if (apart)
    *apart = NULL;
  if (n == 0)
    return NULL;
  const Function *fn = &g_array_index (f->functions, Function, n - 1);
  /* a symbol without a size (hand-written assembly) holds up to the next */
  if (fn->size != 0 && address - fn->start >= fn->size)
    return NULL;
  if (apart)
    *apart = fn->apart;
  return fn->name;
}

const char *
cg_elf_functions_apart (const CgElfFunctions *f, guint64 start, const char *name)
{
  guint n = count_at_or_below (f, start);
  if (n == 0)
    return NULL;
  const Function *fn = &g_array_index (f->functions, Function, n - 1);
  return fn->start == start && strcmp (fn->name, name) == 0 ? fn->apart : NULL;
}

char *
cg_elf_apart_object (const char *object, const char *apart)
{
  return g_strconcat (object, "@", apart, NULL);
}

gboolean
cg_elf_functions_starts_at (const CgElfFunctions *f, guint64 start, guint64 address)
{
  /* one function per start: the last at or below @start, if it is there */
  guint n = count_at_or_below (f, start);
  if (n == 0 || address < start)
    return FALSE;
  const Function *fn = &g_array_index (f->functions, Function, n - 1);
  if (fn->start != start)
    return FALSE;
  if (fn->size != 0)
    return address - start < fn->size;
  return n == f->functions->len || address < g_array_index (f->functions, Function, n).start;
}

guint
cg_elf_functions_count (const CgElfFunctions *f)
{
  return f->functions->len;
}

const char *
cg_elf_functions_debug_file (const CgElfFunctions *f)
{
  return f->debug_file;
}

gboolean
cg_elf_functions_unwind_start (const CgElfFunctions *f, guint64 address, guint64 *start)
{
  if (cg_elf_functions_lookup (f, address, NULL) != NULL)
    return FALSE;
  /* the last start at or below the address (binary search) */
  const GArray *u = f->unwind_starts;
  guint lo = 0, hi = u->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (u, guint64, mid) <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return FALSE;
  /* within a loaded segment with that start: not past the object */
  guint64 s = g_array_index (u, guint64, lo - 1);
  for (guint i = 0; i < f->segments->len; i++)
    {
      const Segment *g = &g_array_index (f->segments, Segment, i);
      if (s >= g->vaddr && address - g->vaddr < g->size)
        {
          *start = s;
          return TRUE;
        }
    }
  return FALSE;
}
