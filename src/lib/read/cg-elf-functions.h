/* cg-elf-functions.h — the functions of an ELF object, by address: the
 * names of a process's sampled PCs (the gperftools reader) and the
 * symbol starts that tell which object a perf script frame lies in (the
 * perf script reader).
 *
 * A PC that a process's maps place in a mapping of an object is at file
 * offset PC - START + OFFSET (proc_pid_maps(5)); the object's loadable
 * segment holding that offset (its PT_LOAD program header, p_offset to
 * p_offset + p_filesz) gives the object's own address, p_vaddr + (offset -
 * p_offset), which its symbols use, whether it is an executable at a fixed
 * address, a PIE or a shared library (the ELF gABI, "Program Loading";
 * pprof does the same with the .text section's address and offset).
 *
 * Names are the linker's, as nm(1) lists them (demangled, where wanted,
 * by the views): the defined STT_FUNC and STT_GNU_IFUNC symbols of the
 * object's .symtab and .dynsym, and of the .symtab of its separate debug
 * file where one is installed, found as gdb and addr2line find it
 * (/usr/lib/debug/.build-id/NN/REST.debug after the object's build-id
 * note: Debian's shared libraries keep only .dynsym, and libc6-dbg's file
 * names their static functions too; else by the name in its
 * .gnu_debuglink section, beside the object, in .debug/ beside it and
 * under /usr/lib/debug + its directory, the build ID or, without one,
 * the link's CRC-32 matching).  A symbol holds [value, value + size); one of
 * size 0 holds up to the next symbol.  At one address one name is kept:
 * global before weak before local, then the fewest leading '_', then the
 * shortest, then the first in byte order (aliases such as
 * __libc_start_main and __libc_start_main_impl, C1 and C2 constructors).
 *
 * Only symbol tables, program headers and the unwind table they point
 * to (.eh_frame_hdr) are read, never DWARF (the inlined calls are
 * cg-elf-inlines', loaded apart by who wants them).
 *
 * Complexity: O(n log n) to load n symbols, O(log n) a look-up.
 * Ownership: a CgElfFunctions owns its names; nothing else stays open.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CgElfFunctions CgElfFunctions;

/* Loads @path (a regular file only: a FIFO or a device that an input
 * names is neither waited on nor read).  Errors, naming @path: CG_ERROR_IO
 * when it cannot be opened or is no regular file (strerror), CG_ERROR_FORMAT
 * when it is not ELF or has no loadable segment. */
CgElfFunctions *cg_elf_functions_load (const char *path, GError **error);
void cg_elf_functions_free (CgElfFunctions *functions);

/* The object's address of file offset @offset (see above); FALSE when no
 * loadable segment holds it (the file is not the one mapped). */
gboolean cg_elf_functions_address (const CgElfFunctions *functions, guint64 offset, guint64 *address);

/* Where no symbol holds @address (a stripped object's static
 * functions, or all of a stripped program's), the start of the function
 * that holds it by the object's unwind table (cg-eh-frame-hdr.h): the
 * last function start at or below it, in the loaded segment that holds
 * both.  FALSE where a symbol holds it, or the table gives no such
 * start (none, or no table). */
gboolean cg_elf_functions_unwind_start (const CgElfFunctions *functions, guint64 address, guint64 *start);

/* The name of the function holding @address, or NULL; *@apart
 * (nullable) is cg_elf_functions_apart's answer for that function. */
const char *cg_elf_functions_lookup (const CgElfFunctions *functions, guint64 address, const char **apart);

/* Where another function of the object has the name @name of the one
 * starting at @start (two source files' static helper, C++'s
 * __static_initialization_and_destruction_0 of every file), what tells
 * it apart: the base name of its source file, the STT_FILE symbol that
 * its local symbol follows in .symtab, where no other function of the
 * name has that file; else "0x" and its start in lower-case hex.  NULL
 * where the name is the only one of its kind, or no function of that name
 * starts at @start.  Such functions are different functions (gprof and
 * perf report list them apart, callgrind by their fl=), each in the
 * object cg_elf_apart_object names.  Owned by @functions. */
const char *cg_elf_functions_apart (const CgElfFunctions *functions, guint64 start, const char *name);

/* The object "OBJECT@APART" of a function that cg_elf_functions_apart
 * tells apart (newly allocated): the gmon.out, amon.out, perf and
 * gperftools readers name such functions alike, so that their profiles of
 * one program merge and diff function by function. */
char *cg_elf_apart_object (const char *object, const char *apart);

/* Whether a function of the object starts at @start and holds @address
 * (at or after @start, as cg_elf_functions_lookup holds it: within its
 * size, or up to the next function for one of size 0; where names share
 * the start, the largest size any has).  The perf script reader's query:
 * a frame's address less its "+0xOFF" is the start of the symbol perf
 * found it in (formats/perf.md), which tells the objects it can be in.
 * O(log n). */
gboolean cg_elf_functions_starts_at (const CgElfFunctions *functions, guint64 start, guint64 address);

/* The number of functions named (0: a stripped object). */
guint cg_elf_functions_count (const CgElfFunctions *functions);

/* The separate debug file whose symbols were read, or NULL. */
const char *cg_elf_functions_debug_file (const CgElfFunctions *functions);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgElfFunctions, cg_elf_functions_free)

G_END_DECLS
