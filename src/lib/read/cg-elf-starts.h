/* cg-elf-starts.h — where the functions of an ELF object start.
 *
 * perf script prints an inlined frame without the object it is in: at a
 * caller's address whose whole inline chain perf printed, no frame of
 * that address names one (formats/perf.md).  The frame's "+0xOFF" is its
 * address less the start of the ELF symbol it lies in, in the object's
 * own addresses, as perf prints every user-space address; the objects
 * whose symbol tables (.symtab, else .dynsym: Debian's libc has only the
 * latter) have a function starting there are the ones it can be in.
 *
 * Complexity: O(n log n) to load an object of n symbols, O(log n) a
 * lookup.  Ownership: the caller owns the CgElfStarts.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CgElfStarts CgElfStarts;

/* The start addresses (st_value) and sizes of the STT_FUNC and
 * STT_GNU_IFUNC symbols defined in @path's .symtab and .dynsym; NULL when @path cannot
 * be opened, is no regular file (a FIFO an input names is not waited
 * on) or is no ELF file with such symbols (nothing to report: the caller
 * then knows no more than before). */
CgElfStarts *cg_elf_starts_load (const char *path);
void cg_elf_starts_free (CgElfStarts *starts);

/* Whether a function of the object starts at @start and holds @address
 * (at or after @start; a symbol of no size holds any). */
gboolean cg_elf_starts_has (const CgElfStarts *starts, guint64 start, guint64 address);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgElfStarts, cg_elf_starts_free)

G_END_DECLS
