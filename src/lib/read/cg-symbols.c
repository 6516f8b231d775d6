/* cg-symbols.c — gprof's symbol selection over libelf. */
#include "config.h"

#include "cg-symbols.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_LIBDW
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#endif

#include "cg-elf-dwarf-strings.h"
#include "cg-error.h"

struct _CgSymbols {
  char *path;
  int fd;
  Elf *elf;
  guint pointer_size;
  gint byte_order;
  guint machine;
  GStringChunk *names;
  CgSymbolChoice choice;
  GArray *symbols;       /* CgSymbol, kept ones in address order */
  GArray *left_out;      /* CgSymbol, the choice's left-out clones and parts, by address, ends by ELF size */
  guint64 low, high;     /* loadable segments */
  Elf_Scn *text;
  guint64 text_address, text_size;
  guint64 text_offset;   /* in the file; G_MAXUINT64: .text has no contents */
  const guint8 *text_bytes; /* read on first use; libelf's, freed by elf_end */
  gboolean text_read;
  gboolean profiled;     /* names a profiling hook (built with -pg) */
};

void
cg_symbols_free (CgSymbols *s)
{
  if (s == NULL)
    return;
  if (s->elf)
    elf_end (s->elf);
  if (s->fd >= 0)
    close (s->fd);
  g_free (s->path);
  if (s->names)
    g_string_chunk_free (s->names);
  if (s->symbols)
    g_array_unref (s->symbols);
  if (s->left_out)
    g_array_unref (s->left_out);
  g_free (s);
}

const char *
cg_symbols_path (const CgSymbols *s)
{
  return s->path;
}

guint
cg_symbols_pointer_size (const CgSymbols *s)
{
  return s->pointer_size;
}

gint
cg_symbols_byte_order (const CgSymbols *s)
{
  return s->byte_order;
}

guint
cg_symbols_machine (const CgSymbols *s)
{
  return s->machine;
}

gboolean
cg_symbols_profiled (const CgSymbols *s)
{
  return s->profiled;
}

/* Whether @name (perhaps with a version, "mcount@GLIBC_2.2.5") is a
 * hook that code compiled with -pg calls at every function's entry: the
 * C libraries' on each architecture, and -mfentry's. */
static gboolean
is_profiling_hook (const char *name, const char *end)
{
  static const char *const hooks[] = { "mcount", "_mcount", "__mcount", ".mcount", "__fentry__",
                                       "__gnu_mcount_nc" };
  gsize len = strnlen (name, (gsize) (end - name));
  if (len == (gsize) (end - name))
    return FALSE; /* unterminated */
  const char *at = memchr (name, '@', len);
  gsize n = at ? (gsize) (at - name) : len;
  for (guint i = 0; i < G_N_ELEMENTS (hooks); i++)
    if (n == strlen (hooks[i]) && memcmp (name, hooks[i], n) == 0)
      return TRUE;
  return FALSE;
}

const CgSymbol *
cg_symbols_array (const CgSymbols *s, guint *n)
{
  *n = s->symbols->len;
  return (const CgSymbol *) s->symbols->data;
}

void
cg_symbols_range (const CgSymbols *s, guint64 *low, guint64 *high)
{
  *low = s->low;
  *high = s->high;
}

/* Index of the last of @symbols (CgSymbol, by address) starting at or
 * before @address, if it reaches it; else -1. */
static gint
containing (const GArray *symbols, guint64 address)
{
  const CgSymbol *sym = (const CgSymbol *) symbols->data;
  guint lo = 0, hi = symbols->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (sym[mid].address <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || address > sym[lo - 1].end)
    return -1;
  return (gint) (lo - 1);
}

gint
cg_symbols_lookup (const CgSymbols *s, guint64 address)
{
  return containing (s->symbols, address);
}

const char *
cg_symbols_left_out (const CgSymbols *s, guint64 address)
{
  gint i = containing (s->left_out, address);
  return i < 0 ? NULL : g_array_index (s->left_out, CgSymbol, i).name;
}

const guint8 *
cg_symbols_text (const CgSymbols *s, guint64 *address, gsize *size)
{
  CgSymbols *m = (CgSymbols *) s; /* the bytes are read lazily */
  if (!m->text_read)
    {
      m->text_read = TRUE;
      GElf_Shdr sh;
      if (m->text && gelf_getshdr (m->text, &sh) && sh.sh_type != SHT_NOBITS)
        {
          Elf_Data *d = elf_rawdata (m->text, NULL);
          /* libelf's own copy, kept while the Elf is open: another
           * copy was 200 MB more for a program with 200 MB of code */
          if (d && d->d_buf && d->d_size == sh.sh_size)
            m->text_bytes = d->d_buf;
        }
    }
  *address = m->text_address;
  *size = m->text_bytes ? (gsize) m->text_size : 0;
  return m->text_bytes;
}

gboolean
cg_symbols_text_bytes (const CgSymbols *s, guint64 address, guint8 *buf, gsize n)
{
  if (s->text == NULL || s->text_offset == G_MAXUINT64 || s->fd < 0 || address < s->text_address
      || address - s->text_address > s->text_size || n > s->text_size - (address - s->text_address))
    return FALSE;
  guint64 at = s->text_offset + (address - s->text_address);
  if (at > (guint64) G_MAXINT64 - n)
    return FALSE;
  return pread (s->fd, buf, n, (off_t) at) == (gssize) n;
}

/* gprof's filter on local function names (core_sym_class), including its
 * walk past the terminating NUL after a ".<digits>" suffix into the next
 * string of the table, which ends at @end. */
static gboolean
static_name_ok (const char *name, const char *end)
{
  if (name >= end || *name == '\0')
    return FALSE;
  for (const char *p = name; p < end && *p; ++p)
    {
      if (*p == '$')
        return FALSE;
      while (p < end && *p == '.')
        {
          gboolean digit_seen = FALSE;
          gsize rest = strnlen (p, (gsize) (end - p));
          if (rest > 7 && strncmp (p, ".clone.", 7) == 0)
            p += 6;
          else if (rest > 11 && strncmp (p, ".constprop.", 11) == 0)
            p += 10;
          for (p++; p < end && *p; p++)
            {
              if (digit_seen && *p == '.')
                break;
              if (g_ascii_isdigit (*p))
                digit_seen = TRUE;
              else
                return FALSE;
            }
        }
      if (p >= end)
        break;
    }
  return strncmp (name, "__gnu_compiled", 14) != 0 && strncmp (name, "___gnu_compiled", 15) != 0;
}

/* CG_SYMBOLS_ALL's filter on local function names: gprof's without its
 * rule on '.' suffixes (and without its walk past a name's end), and
 * without its rule on '$' for a symbol typed a function (@func): clang
 * names the instances of a template for a lambda so ("apply<main::$_0>",
 * _ZL5applyIZ4mainE3$_0ElT_l), where other processors' mapping symbols
 * ("$x", "$d") have no type. */
static gboolean
any_name_ok (const char *name, gboolean func)
{
  return *name != '\0' && (func || strchr (name, '$') == NULL) && strncmp (name, "__gnu_compiled", 14) != 0
         && strncmp (name, "___gnu_compiled", 15) != 0;
}

typedef struct {
  CgSymbol sym;
  guint order; /* position in .symtab: the sort is stable */
} Candidate;

static gint
by_address (gconstpointer a, gconstpointer b)
{
  const Candidate *x = a, *y = b;
  if (x->sym.address != y->sym.address)
    return x->sym.address < y->sym.address ? -1 : 1;
  if (x->sym.is_function != y->sym.is_function)
    return x->sym.is_function ? -1 : 1;
  if (x->sym.is_static != y->sym.is_static)
    return x->sym.is_static ? 1 : -1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static gint
by_symbol_address (gconstpointer a, gconstpointer b)
{
  const CgSymbol *x = a, *y = b;
  return (x->address > y->address) - (x->address < y->address);
}

/* symtab_finalize's choice between two symbols at one address: TRUE when
 * @src is preferred over @dst. */
static gboolean
preferred (const CgSymbol *src, const CgSymbol *dst)
{
  if (!src->is_static && dst->is_static)
    return TRUE;
  if (src->is_static != dst->is_static)
    return FALSE;
  if (src->is_function && !dst->is_function)
    return TRUE;
  if (src->is_function != dst->is_function)
    return FALSE;
  if (src->name[0] != '_' && dst->name[0] == '_')
    return TRUE;
  return src->name[0] == '_' && dst->name[0] == '_' && src->name[1] != '_' && dst->name[1] == '_';
}

static gboolean
elf_fail (CgSymbols *s, GError **error, const char *what)
{
  g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s: %s: %s", s->path, what, elf_errmsg (-1));
  return FALSE;
}

/* The class gprof gives an ELF symbol: 'T' (global or weak code), 't'
 * (local code) or 0 (not a function for gprof).  Follows BFD's
 * bfd_decode_symclass order of tests. */
static char
symbol_class (const GElf_Sym *sym, const guint8 *code_section, guint n_sections, Elf32_Word shndx)
{
  int type = GELF_ST_TYPE (sym->st_info), bind = GELF_ST_BIND (sym->st_info);
  if (type == STT_SECTION || type == STT_FILE)
    return 0; /* BSF_DEBUGGING */
  if (shndx == SHN_UNDEF || shndx == SHN_COMMON)
    return 0;
  if (type == STT_GNU_IFUNC)
    return 0;
  if (bind == STB_WEAK)
    return type == STT_OBJECT ? 0 : 'T';
  if (bind == STB_LOCAL)
    {
      if (shndx == SHN_ABS || shndx >= n_sections || !code_section[shndx])
        return 0;
      return 't';
    }
  if (bind == STB_GLOBAL)
    {
      if (shndx == SHN_ABS || shndx >= n_sections || !code_section[shndx])
        return 0;
      return 'T';
    }
  return 0; /* STB_GNU_UNIQUE and others */
}

#ifdef HAVE_LIBDW
/* One row of a unit's line table, in libdw's order (by address; a row
 * that ends a sequence before one that starts the next at its address). */
typedef struct {
  Dwarf_Addr address;
  gboolean end;     /* DW_LNE_end_sequence */
  gboolean initial; /* before the sequence's first change of file */
} LineRow;

/* One compilation unit and, once needed, its line table. */
typedef struct {
  Dwarf_Die cu;
  Dwarf_Half version; /* the unit's DWARF version, its line table's as gcc
                       * and clang write them */
  guint first_lookup; /* .symtab position of gprof's first symbol in the
                       * unit's ranges, NO_LOOKUP for none */
  gboolean lines_read;
  Dwarf_Lines *lines; /* owned by libdw; NULL when none or unreadable */
  GArray *rows;       /* LineRow, one per line of @lines */
} Unit;

static void
unit_clear (gpointer p)
{
  Unit *u = p;
  g_clear_pointer (&u->rows, g_array_unref);
}

/* An address range of one compilation unit's code. */
typedef struct {
  Dwarf_Addr low, high; /* [low, high) */
  guint unit;           /* index into the units */
} UnitRange;

#define NO_UNIT G_MAXUINT
#define NO_LOOKUP G_MAXUINT

static gint
by_low (gconstpointer a, gconstpointer b)
{
  const UnitRange *x = a, *y = b;
  return (x->low > y->low) - (x->low < y->low);
}

/* Every compilation unit into @units, and their code ranges by start
 * address.  From the units themselves, not .debug_aranges: clang writes
 * no such section, and binutils (whose answer gprof prints) does without
 * it. */
static GArray *
unit_ranges (Dwarf *dw, GArray *units)
{
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (UnitRange));
  Dwarf_CU *unit = NULL;
  Dwarf_Die cu;
  Dwarf_Half version;
  while (dwarf_get_units (dw, unit, &unit, &version, NULL, &cu, NULL) == 0)
    {
      Unit u = { .cu = cu, .version = version, .first_lookup = NO_LOOKUP };
      g_array_append_val (units, u);
      Dwarf_Addr base, low, high;
      for (ptrdiff_t at = 0; (at = dwarf_ranges (&cu, at, &base, &low, &high)) > 0;)
        if (high > low)
          {
            UnitRange r = { low, high, units->len - 1 };
            g_array_append_val (ranges, r);
          }
    }
  g_array_sort (ranges, by_low);
  return ranges;
}

/* The unit whose range in @ranges holds @address, or NO_UNIT. */
static guint
unit_at (GArray *ranges, Dwarf_Addr address)
{
  guint lo = 0, hi = ranges->len; /* the first range starting above @address */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (ranges, UnitRange, mid).low <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return NO_UNIT;
  UnitRange *r = &g_array_index (ranges, UnitRange, lo - 1);
  return address < r->high ? r->unit : NO_UNIT;
}

/* Reads @u's line table and walks its sequences, marking the rows that
 * come before a sequence's first row of a file other than 1.  The file
 * register starts every sequence at 1, and libdw names those rows after
 * file 1; binutils 2.40 names them after file 0 when the table is DWARF 5
 * (where the file table counts from 0 and entry 0 is the primary source
 * file).  The two differ when gcc made a header file 1: gcc numbers files
 * as it first writes code from them, so a unit whose code begins with a
 * header's static function makes the header file 1, and gprof names the
 * .c file.  The rows say which file each row has, not whether a
 * DW_LNS_set_file put it there: a set_file 1 before any row would count
 * as the initial file, but gas and LLVM write set_file only to change the
 * file.  On an error, the unit has no line table. */
static void
line_sequences (Unit *u)
{
  size_t n = 0;
  u->lines_read = TRUE;
  if (dwarf_getsrclines (&u->cu, &u->lines, &n) != 0)
    {
      u->lines = NULL;
      return;
    }
  u->rows = g_array_sized_new (FALSE, FALSE, sizeof (LineRow), (guint) MIN (n, G_MAXUINT));
  gboolean initial = TRUE; /* no row of another file yet in this sequence */
  Dwarf_Addr ended = 0;     /* where the sequence that just ended ended */
  gboolean just_ended = FALSE;
  for (size_t i = 0; i < n && i < G_MAXUINT; i++)
    {
      Dwarf_Line *line = dwarf_onesrcline (u->lines, i);
      Dwarf_Files *files;
      size_t file;
      bool end;
      LineRow row = { 0 };
      if (line == NULL || dwarf_lineaddr (line, &row.address) != 0 || dwarf_lineendsequence (line, &end) != 0
          || dwarf_line_file (line, &files, &file) != 0)
        {
          u->lines = NULL;
          g_clear_pointer (&u->rows, g_array_unref);
          return;
        }
      /* libdw sorts a sequence's end before the other rows of its
       * address, so a row the compiler left at a sequence's end (gcc,
       * after a cold section's last call to abort: gawk's regerror.cold)
       * comes after the end: it belongs to the ended sequence and does
       * not start the next one, which may begin with file 1 */
      gboolean trailing = !end && just_ended && row.address == ended;
      if (!trailing)
        initial = initial && file == 1;
      row.end = end;
      row.initial = !trailing && initial;
      g_array_append_val (u->rows, row);
      just_ended = end || (just_ended && trailing);
      if (end)
        {
          initial = TRUE; /* the next row starts a sequence */
          ended = row.address;
        }
    }
}

/* The row of @u's line table that holds @address: the last one at or
 * before it, unless that one ends its sequence (libdw's dwarf_getsrc_die
 * and binutils' lookup agree on this).  -1 for none. */
static gssize
row_at (const Unit *u, Dwarf_Addr address)
{
  guint lo = 0, hi = u->rows->len; /* the first row above @address */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (u->rows, LineRow, mid).address <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || g_array_index (u->rows, LineRow, lo - 1).end)
    return -1;
  return lo - 1;
}

/* The path of the source file @u's line table gives for @address, as
 * binutils reads it, or NULL.  Line 0 (code the compiler made: clang's
 * thunks, global initialisers) is no answer to gprof, which names no file
 * then. */
static const char *
unit_file_at (Unit *u, Dwarf_Addr address)
{
  if (!u->lines_read)
    line_sequences (u);
  if (u->lines == NULL)
    return NULL;
  gssize i = row_at (u, address);
  if (i < 0)
    return NULL;
  Dwarf_Line *line = dwarf_onesrcline (u->lines, (size_t) i);
  int lineno = 0;
  if (line == NULL || dwarf_lineno (line, &lineno) != 0 || lineno == 0)
    return NULL;
  if (u->version < 5 || !g_array_index (u->rows, LineRow, i).initial)
    return dwarf_linesrc (line, NULL, NULL);
  Dwarf_Files *files;
  size_t file;
  if (dwarf_line_file (line, &files, &file) != 0)
    return NULL;
  return dwarf_filesrc (files, 0, NULL, NULL);
}

/* The DWARF of @elf, or NULL. */
static Dwarf *
dwarf_of (Elf *elf)
{
  return cg_elf_dwarf_strings_terminated (elf) ? dwarf_begin_elf (elf, DWARF_C_READ, NULL) : NULL;
}

/* A separate debug file, open. */
typedef struct {
  int fd;
  Elf *elf;
  Dwarf *dwarf;
} DebugFile;

static void
debug_file_close (DebugFile *d)
{
  if (d->dwarf)
    dwarf_end (d->dwarf);
  if (d->elf)
    elf_end (d->elf);
  if (d->fd >= 0)
    close (d->fd);
  *d = (DebugFile) { -1, NULL, NULL };
}

/* Opens @path as @d when it is an ELF file with DWARF and, when @id_len
 * is positive, the build ID @id. */
static gboolean
debug_file_open (DebugFile *d, const char *path, const void *id, gssize id_len)
{
  d->fd = open (path, O_RDONLY | O_CLOEXEC);
  if (d->fd < 0)
    return FALSE;
  d->elf = elf_begin (d->fd, ELF_C_READ, NULL);
  const void *other = NULL;
  if (d->elf && elf_kind (d->elf) == ELF_K_ELF
      && (id_len <= 0 || (dwelf_elf_gnu_build_id (d->elf, &other) == id_len && memcmp (other, id, (gsize) id_len) == 0))
      && (d->dwarf = dwarf_of (d->elf)) != NULL)
    return TRUE;
  debug_file_close (d);
  return FALSE;
}

/* The debugging information of an executable stripped of it, where gdb
 * and bfd (so gprof) look: by build ID, /usr/lib/debug/.build-id/xx/
 * rest.debug; then by the name in .gnu_debuglink, beside the executable,
 * in its .debug directory and under /usr/lib/debug.  A file must carry
 * the executable's build ID, when it has one (where bfd checks the
 * link's CRC). */
static gboolean
find_debug_file (CgSymbols *s, DebugFile *d)
{
  const void *id = NULL;
  gssize id_len = dwelf_elf_gnu_build_id (s->elf, &id);
  if (id_len > 1)
    {
      g_autoptr (GString) path = g_string_new ("/usr/lib/debug/.build-id/");
      for (gssize i = 0; i < id_len; i++)
        g_string_append_printf (path, i == 1 ? "/%02x" : "%02x", ((const guint8 *) id)[i]);
      g_string_append (path, ".debug");
      if (debug_file_open (d, path->str, id, id_len))
        return TRUE;
    }
  GElf_Word crc;
  const char *link = dwelf_elf_gnu_debuglink (s->elf, &crc);
  if (link == NULL || *link == '\0' || strchr (link, '/'))
    return FALSE;
  g_autofree char *dir = g_path_get_dirname (s->path);
  g_autofree char *absolute = g_canonicalize_filename (dir, NULL);
  g_autofree char *beside = g_build_filename (dir, link, NULL);
  g_autofree char *hidden = g_build_filename (dir, ".debug", link, NULL);
  g_autofree char *global = g_build_filename ("/usr/lib/debug", absolute, link, NULL);
  return debug_file_open (d, beside, id, id_len) || debug_file_open (d, hidden, id, id_len)
         || debug_file_open (d, global, id, id_len);
}

/* When binutils reads each unit's line table for gprof: at the first
 * address looked up inside the unit's ranges; gprof looks up every symbol
 * it keeps (@candidates), in .symtab order (core_create_function_syms). */
static void
first_lookups (GArray *units, GArray *ranges, GArray *candidates)
{
  for (guint i = 0; i < candidates->len; i++)
    {
      const Candidate *c = &g_array_index (candidates, Candidate, i);
      guint unit = unit_at (ranges, (Dwarf_Addr) c->sym.address);
      if (unit != NO_UNIT)
        {
          Unit *u = &g_array_index (units, Unit, unit);
          u->first_lookup = MIN (u->first_lookup, c->order);
        }
    }
}

/* The code ranges binutils adds to a unit's own once it has read the
 * unit's line table: each sequence's, from its first row to the row that
 * ends it.  Of the units gprof has it read, by start address.  Where two
 * units' sequences overlap, only the one starting last is found (a
 * unit's code is normally its own). */
static GArray *
sequence_ranges (GArray *units)
{
  GArray *sequences = g_array_new (FALSE, FALSE, sizeof (UnitRange));
  for (guint i = 0; i < units->len; i++)
    {
      Unit *u = &g_array_index (units, Unit, i);
      if (u->first_lookup == NO_LOOKUP)
        continue;
      if (!u->lines_read)
        line_sequences (u);
      if (u->lines == NULL)
        continue;
      gboolean open = FALSE; /* a sequence has begun */
      gboolean ended = FALSE; /* a sequence ended at ended_at */
      Dwarf_Addr low = 0, ended_at = 0;
      for (guint r = 0; r < u->rows->len; r++)
        {
          const LineRow *row = &g_array_index (u->rows, LineRow, r);
          /* libdw sorts a sequence's end before other rows at its
           * address: rows there after it are the ended sequence's last
           * (gcc writes a row at a sequence's end address, for its
           * views), not the start of one that binutils would see
           * reaching to the next end */
          if (!open && ended && row->address == ended_at && !row->end)
            continue;
          if (!open)
            low = row->address;
          open = !row->end;
          ended = row->end;
          ended_at = row->address;
          if (row->end && row->address > low)
            {
              UnitRange seq = { low, row->address, i };
              g_array_append_val (sequences, seq);
            }
        }
    }
  g_array_sort (sequences, by_low);
  return sequences;
}

/* The path of the file gprof names for the static function at @address,
 * the @order'th symbol of .symtab, or NULL.  Code outside every unit's
 * ranges (a unit's DW_AT_high_pc or DW_AT_ranges that leave out its last
 * function, as when .Letext0 is moved in edited assembly) is found only
 * in the line sequences of the units binutils has read by then: whose
 * ranges held a symbol before this one in .symtab, so in practice when a
 * symbol of the same object file precedes it.  @sequences is built on
 * first use. */
static const char *
static_file_at (GArray *units, GArray *ranges, GArray **sequences, Dwarf_Addr address, guint order)
{
  guint unit = unit_at (ranges, address);
  if (unit == NO_UNIT)
    {
      if (*sequences == NULL)
        *sequences = sequence_ranges (units);
      unit = unit_at (*sequences, address);
      if (unit == NO_UNIT || g_array_index (units, Unit, unit).first_lookup >= order)
        return NULL;
    }
  return unit_file_at (&g_array_index (units, Unit, unit), address);
}

/* Sets the file of each static function of @candidates from @dw (see
 * find_static_files). */
static void
static_files_from (CgSymbols *s, Dwarf *dw, GArray *candidates)
{
  g_autoptr (GArray) units = g_array_new (FALSE, TRUE, sizeof (Unit));
  g_array_set_clear_func (units, unit_clear);
  g_autoptr (GArray) ranges = unit_ranges (dw, units);
  g_autoptr (GArray) sequences = NULL;
  first_lookups (units, ranges, candidates);
  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      if (!c->sym.is_static)
        continue;
      const char *path = static_file_at (units, ranges, &sequences, (Dwarf_Addr) c->sym.address, c->order);
      if (path == NULL || *path == '\0')
        continue;
      const char *base = strrchr (path, '/');
      base = base ? base + 1 : path;
      if (*base != '\0')
        c->sym.file = g_string_chunk_insert_const (s->names, base);
    }
}
#endif

/* Each static function's source file among @candidates, as gprof finds
 * it (binutils' bfd_find_nearest_line at the symbol's address, in the
 * executable or in its separate debug file) and prints it in its index:
 * the base name of the line table's file there.  Without DWARF, or where
 * it says nothing of the address or line 0, none. */
static void
find_static_files (CgSymbols *s, GArray *candidates)
{
#ifdef HAVE_LIBDW
  DebugFile separate = { -1, NULL, NULL };
  Dwarf *dw = dwarf_of (s->elf);
  if (dw == NULL && find_debug_file (s, &separate))
    dw = separate.dwarf;
  if (dw == NULL)
    return;
  static_files_from (s, dw, candidates);
  if (dw == separate.dwarf)
    debug_file_close (&separate);
  else
    dwarf_end (dw);
#else
  (void) s;
  (void) candidates;
#endif
}

/* Opens the file and reads what the ELF header says of its layout. */
static gboolean
open_elf (CgSymbols *s, GError **error)
{
  s->fd = open (s->path, O_RDONLY | O_CLOEXEC);
  if (s->fd < 0)
    {
      int e = errno;
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: %s", s->path, g_strerror (e));
      return FALSE;
    }
  if (elf_version (EV_CURRENT) == EV_NONE)
    return elf_fail (s, error, "libelf is unusable");
  s->elf = elf_begin (s->fd, ELF_C_READ, NULL);
  if (s->elf == NULL || elf_kind (s->elf) != ELF_K_ELF)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s: not an ELF executable", s->path);
      return FALSE;
    }
  GElf_Ehdr eh;
  if (gelf_getehdr (s->elf, &eh) == NULL)
    return elf_fail (s, error, "bad ELF header");
  s->pointer_size = eh.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
  s->byte_order = eh.e_ident[EI_DATA] == ELFDATA2MSB ? G_BIG_ENDIAN : G_LITTLE_ENDIAN;
  s->machine = eh.e_machine;
  return TRUE;
}

/* What the section table tells: which sections hold code, .text, the
 * symbol table (and its extended index), the allocated address range. */
typedef struct {
  size_t n_sections;
  guint8 *code; /* per section: holds code */
  Elf_Scn *symtab, *xindex;
  GElf_Shdr symtab_sh;
  guint64 alloc_low, alloc_high;
} Sections;

static gboolean
scan_sections (CgSymbols *s, Sections *sec, GError **error)
{
  size_t shstrndx;
  if (elf_getshdrnum (s->elf, &sec->n_sections) != 0 || elf_getshdrstrndx (s->elf, &shstrndx) != 0)
    return elf_fail (s, error, "bad section table");
  sec->code = g_new0 (guint8, MAX (sec->n_sections, 1));
  sec->alloc_low = G_MAXUINT64;
  for (Elf_Scn *scn = elf_nextscn (s->elf, NULL); scn; scn = elf_nextscn (s->elf, scn))
    {
      GElf_Shdr sh;
      if (gelf_getshdr (scn, &sh) == NULL)
        return elf_fail (s, error, "bad section header");
      size_t i = elf_ndxscn (scn);
      if (i < sec->n_sections)
        sec->code[i] = (sh.sh_flags & SHF_EXECINSTR) != 0;
      const char *name = elf_strptr (s->elf, shstrndx, sh.sh_name);
      if (name && strcmp (name, ".text") == 0 && s->text == NULL)
        {
          s->text = scn;
          s->text_address = sh.sh_addr;
          s->text_size = sh.sh_size;
          s->text_offset = sh.sh_type == SHT_NOBITS ? G_MAXUINT64 : sh.sh_offset;
        }
      if (sh.sh_type == SHT_SYMTAB && sec->symtab == NULL)
        {
          sec->symtab = scn;
          sec->symtab_sh = sh;
        }
      if (sh.sh_type == SHT_SYMTAB_SHNDX)
        sec->xindex = scn;
      if ((sh.sh_flags & SHF_ALLOC) && sh.sh_size > 0)
        {
          sec->alloc_low = MIN (sec->alloc_low, sh.sh_addr);
          sec->alloc_high = MAX (sec->alloc_high, sh.sh_addr + sh.sh_size);
        }
    }
  if (s->text == NULL)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s: no .text section", s->path);
      return FALSE;
    }
  return TRUE;
}

/* The loadable range: the PT_LOAD segments, else the allocated sections. */
static void
find_load_range (CgSymbols *s, const Sections *sec)
{
  size_t n_phdrs = 0;
  s->low = G_MAXUINT64;
  s->high = 0;
  if (elf_getphdrnum (s->elf, &n_phdrs) == 0)
    for (size_t i = 0; i < n_phdrs; i++)
      {
        GElf_Phdr ph;
        if (gelf_getphdr (s->elf, (int) i, &ph) && ph.p_type == PT_LOAD)
          {
            s->low = MIN (s->low, ph.p_vaddr);
            s->high = MAX (s->high, ph.p_vaddr + ph.p_memsz);
          }
      }
  if (s->high == 0)
    {
      s->low = sec->alloc_low;
      s->high = sec->alloc_high;
    }
}

/* The symbols gprof would consider (symbol_class), in .symtab order, into
 * @candidates; notes whether the program calls a profiling hook. */
static gboolean
read_candidates (CgSymbols *s, const Sections *sec, GArray *candidates, GError **error)
{
  if (sec->symtab == NULL || sec->symtab_sh.sh_entsize == 0)
    return TRUE;
  Elf_Data *data = elf_getdata (sec->symtab, NULL);
  Elf_Data *xdata = sec->xindex ? elf_getdata (sec->xindex, NULL) : NULL;
  Elf_Scn *strscn = elf_getscn (s->elf, sec->symtab_sh.sh_link);
  Elf_Data *strdata = strscn ? elf_getdata (strscn, NULL) : NULL;
  if (data == NULL || strdata == NULL || strdata->d_buf == NULL)
    return elf_fail (s, error, "bad symbol table");
  const char *strtab = strdata->d_buf, *strend = strtab + strdata->d_size;
  gsize n = sec->symtab_sh.sh_size / sec->symtab_sh.sh_entsize;
  for (gsize i = 1; i < n; i++)
    {
      GElf_Sym sym;
      Elf32_Word shndx = 0;
      if (gelf_getsymshndx (data, xdata, (int) i, &sym, &shndx) == NULL)
        return elf_fail (s, error, "bad symbol");
      if (sym.st_shndx != SHN_XINDEX)
        shndx = sym.st_shndx;
      if (sym.st_name >= strdata->d_size)
        continue;
      char cls = symbol_class (&sym, sec->code, (guint) sec->n_sections, shndx);
      const char *name = strtab + sym.st_name;
      /* defined (a static program) or not (libc's) */
      s->profiled |= is_profiling_hook (name, strend);
      if (cls == 0 || strnlen (name, (gsize) (strend - name)) == (gsize) (strend - name))
        continue; /* not a function for gprof, or an unterminated name */
      gboolean func = GELF_ST_TYPE (sym.st_info) == STT_FUNC;
      gboolean kept = cls != 't' || (s->choice == CG_SYMBOLS_ALL ? any_name_ok (name, func) : static_name_ok (name, strend));
      if (!kept)
        {
          /* a clone or part, or a function clang named with a '$', that
           * gprof takes for the code of the symbol before it: kept aside
           * to say so (cg_symbols_left_out) */
          if (s->choice == CG_SYMBOLS_GPROF && func && sym.st_size > 0
              && sym.st_size - 1 <= G_MAXUINT64 - sym.st_value
              && (strchr (name, '.') != NULL || strchr (name, '$') != NULL))
            {
              CgSymbol aside = { sym.st_value, sym.st_value + sym.st_size - 1, g_string_chunk_insert (s->names, name),
                                 TRUE, TRUE, NULL };
              g_array_append_val (s->left_out, aside);
            }
          continue;
        }
      Candidate c = {
        { sym.st_value, 0, g_string_chunk_insert (s->names, name), cls == 't', GELF_ST_TYPE (sym.st_info) == STT_FUNC,
          NULL },
        (guint) i,
      };
      g_array_append_val (candidates, c);
    }
  return TRUE;
}

/* One symbol per address from the sorted @candidates (gprof's preference
 * among those that share one); each ends where the next begins, the last
 * at the end of .text. */
static void
choose_symbols (CgSymbols *s, GArray *candidates)
{
  for (guint i = 0; i < candidates->len; i++)
    {
      const CgSymbol *src = &g_array_index (candidates, Candidate, i).sym;
      CgSymbol *last = s->symbols->len ? &g_array_index (s->symbols, CgSymbol, s->symbols->len - 1) : NULL;
      if (last && last->address == src->address)
        {
          if (preferred (src, last))
            *last = *src;
          continue;
        }
      if (last)
        last->end = src->address - 1;
      g_array_append_val (s->symbols, *src);
    }
  CgSymbol *last = &g_array_index (s->symbols, CgSymbol, s->symbols->len - 1);
  last->end = s->text_address + s->text_size - 1;
}

static gboolean
load (CgSymbols *s, GError **error)
{
  Sections sec = { 0 };
  g_autoptr (GArray) candidates = g_array_new (FALSE, FALSE, sizeof (Candidate));
  gboolean ok = open_elf (s, error) && scan_sections (s, &sec, error);
  if (ok)
    {
      find_load_range (s, &sec);
      ok = read_candidates (s, &sec, candidates, error);
    }
  g_free (sec.code);
  if (!ok)
    return FALSE;
  if (candidates->len == 0)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s: has no symbols (stripped?)", s->path);
      return FALSE;
    }
  g_array_sort (candidates, by_address);
  g_array_sort (s->left_out, by_symbol_address);
  /* before the choice among symbols at one address: the file of each is
   * what gprof found when it looked it up, in .symtab order */
  find_static_files (s, candidates);
  choose_symbols (s, candidates);
  return TRUE;
}

CgSymbols *
cg_symbols_load (const char *path, CgSymbolChoice choice, GError **error)
{
  g_autoptr (CgSymbols) s = g_new0 (CgSymbols, 1);
  s->path = g_strdup (path);
  s->fd = -1;
  s->choice = choice;
  s->names = g_string_chunk_new (4096);
  s->symbols = g_array_new (FALSE, FALSE, sizeof (CgSymbol));
  s->left_out = g_array_new (FALSE, FALSE, sizeof (CgSymbol));
  if (!load (s, error))
    return NULL;
  return g_steal_pointer (&s);
}

struct _CgSymbolsCache {
  GHashTable *by_path; /* "CHOICE:path" -> CgSymbols */
};

CgSymbolsCache *
cg_symbols_cache_new (void)
{
  CgSymbolsCache *cache = g_new (CgSymbolsCache, 1);
  cache->by_path = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) cg_symbols_free);
  return cache;
}

void
cg_symbols_cache_free (CgSymbolsCache *cache)
{
  if (cache == NULL)
    return;
  g_hash_table_unref (cache->by_path);
  g_free (cache);
}

const CgSymbols *
cg_symbols_cache_get (CgSymbolsCache *cache, const char *path, CgSymbolChoice choice, GError **error)
{
  g_autofree char *key = g_strdup_printf ("%d:%s", (int) choice, path);
  CgSymbols *s = g_hash_table_lookup (cache->by_path, key);
  if (s == NULL && (s = cg_symbols_load (path, choice, error)) != NULL)
    g_hash_table_insert (cache->by_path, g_steal_pointer (&key), s);
  return s;
}
