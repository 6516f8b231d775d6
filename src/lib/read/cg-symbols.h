/* cg-symbols.h — the function symbols of an executable, as gprof sees them
 * (CG_SYMBOLS_GPROF) or with gcc's clones and parts too (CG_SYMBOLS_ALL).
 *
 * GNU gprof (binutils 2.40, corefile.c core_sym_class and symtab.c
 * symtab_finalize) maps the addresses of a gmon.out file to the symbols of
 * the executable's static symbol table (.symtab), read here with libelf:
 *  - kept: global symbols in code sections ('T'), weak symbols that are not
 *    objects ('W', even in data sections), and local symbols in code
 *    sections ('t') whose name has no '$' and no '.' suffix other than
 *    .<digits>, .clone.<digits> and .constprop.<digits> (so foo.part.0,
 *    foo.isra.0 and foo.cold are dropped and their code belongs to the
 *    symbol before them); GNU ifuncs, unique, undefined, absolute, common,
 *    section and file symbols are dropped;
 *  - gprof's name check reads past the end of a name that ends in a
 *    .<digits> suffix into the next string of .strtab; that quirk is kept,
 *    since it decides which symbols exist;
 *  - sorted by address (stably; at one address function symbols first,
 *    then globals), one symbol per address (global over local, function
 *    over not, a name without '_' over one with, '_x' over '__x');
 *  - each symbol covers [address, next address); the last one ends with
 *    the last byte of .text.
 * PLT entries are not symbols (gprof 2.40 asks for synthetic symbols
 * without the dynamic table), so time in .plt goes to the symbol before it.
 * PIE and static-PIE executables need nothing special: glibc >= 2.27
 * writes link-time addresses.
 *
 * Complexity: O(n log n) in the number of symbols.  Ownership: a
 * CgSymbols owns its names; the array returned stays valid until freed.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64 address;   /* first byte */
  guint64 end;       /* last byte (inclusive), as gprof's end_addr */
  const char *name;
  gboolean is_static; /* local binding ('t') */
  gboolean is_function; /* STT_FUNC */
  /* a static function's source file, the base name of the one the DWARF
   * line table gives for its first address, as gprof's index shows it;
   * NULL without debugging information (or without libdw) */
  const char *file;
} CgSymbol;

typedef struct _CgSymbols CgSymbols;

/* Which local function symbols are functions. */
typedef enum {
  CG_SYMBOLS_GPROF = 0, /* gprof's choice (above): gcc's clones and split
                         * parts (foo.isra.0, foo.part.0, foo.cold) are
                         * not, their code is the symbol's before them */
  CG_SYMBOLS_ALL,       /* every one with no '$' in its name: each clone
                         * and part is a function of its own name, as perf
                         * and libamon name them */
} CgSymbolChoice;

/* Reads the symbols of the ELF executable @path, chosen by @choice.
 * Errors (CG_ERROR_IO for a missing file, CG_ERROR_FORMAT for one that is
 * not ELF, has no .text, no symbol table or no usable symbol), each naming
 * @path. */
CgSymbols *cg_symbols_load (const char *path, CgSymbolChoice choice, GError **error);
void cg_symbols_free (CgSymbols *symbols);

const char *cg_symbols_path (const CgSymbols *symbols);

/* Pointer size of the executable in bytes (4 or 8) and its byte order
 * (G_LITTLE_ENDIAN or G_BIG_ENDIAN): gmon.out files carry neither, gprof
 * takes both from the executable. */
guint cg_symbols_pointer_size (const CgSymbols *symbols);
gint cg_symbols_byte_order (const CgSymbols *symbols);

/* The kept symbols in address order. */
const CgSymbol *cg_symbols_array (const CgSymbols *symbols, guint *n_symbols);

/* Index of the symbol that contains @address (gprof's sym_lookup), or -1. */
gint cg_symbols_lookup (const CgSymbols *symbols, guint64 address);

/* With CG_SYMBOLS_GPROF: the name of the local function symbol that the
 * choice left out (a name with a '.' suffix gprof does not take: gcc's
 * clones and split parts) whose bytes, by its ELF size, hold @address;
 * else NULL.  Its code counts as the kept symbol's before it: this says
 * what that symbol's numbers hold besides its own.  (transfer none) */
const char *cg_symbols_left_out (const CgSymbols *symbols, guint64 address);

/* The lowest and the highest (exclusive) address of the executable's
 * loadable segments: every address a gmon.out of this executable holds
 * lies in between. */
void cg_symbols_range (const CgSymbols *symbols, guint64 *low, guint64 *high);

/* The bytes of .text and its address (for gprof's -c scan of call
 * instructions); NULL when .text has no contents. */
const guint8 *cg_symbols_text (const CgSymbols *symbols, guint64 *address, gsize *size);

/* Reads the @n bytes of .text at @address into @buf, from the file (a
 * few bytes here and there: the whole of .text, hundreds of megabytes in
 * a large program, is read only for gprof's -c).  FALSE when they are
 * not all in .text, .text has no contents, or the file cannot be read. */
gboolean cg_symbols_text_bytes (const CgSymbols *symbols, guint64 address, guint8 *buf, gsize n);

/* The ELF machine (EM_X86_64, EM_386, ...). */
guint cg_symbols_machine (const CgSymbols *symbols);

/* Whether the symbol table names a profiling hook that code built with
 * -pg calls (mcount, _mcount, __fentry__, __gnu_mcount_nc...), defined or
 * not: without one, no call in a gmon.out can be the executable's. */
gboolean cg_symbols_profiled (const CgSymbols *symbols);

/* Symbol tables loaded once per executable and shared by every input
 * that names it: n gmon.out files of one program read its ELF file once,
 * as gprof does, not n times. */
typedef struct _CgSymbolsCache CgSymbolsCache;

CgSymbolsCache *cg_symbols_cache_new (void);
void cg_symbols_cache_free (CgSymbolsCache *cache);

/* The symbols of @path chosen by @choice (transfer none: owned by @cache
 * until it is freed), loaded by cg_symbols_load on the first request.
 * Errors: those of cg_symbols_load; a failed load is not kept, so a later
 * request tries again. */
const CgSymbols *cg_symbols_cache_get (CgSymbolsCache *cache, const char *path, CgSymbolChoice choice,
                                       GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgSymbols, cg_symbols_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgSymbolsCache, cg_symbols_cache_free)

G_END_DECLS
