/* cg-elf-dwarf-strings.h — whether libdw may read an ELF file's DWARF
 * strings.
 *
 * libdw (elfutils 0.188) takes strlen of the names that .debug_info and
 * the line tables point at in .debug_str and .debug_line_str, and reads
 * past the section when its last string is not terminated (found by
 * fuzzing the gmon.out reader's executables).  The readers that open
 * DWARF (cg-symbols for gprof's file names, cg-elf-inlines for the
 * inlined calls of gperftools' PCs) ask this first and treat such a file
 * as one without DWARF.
 *
 * Complexity: O(sections + the bytes of compressed string sections,
 * which libelf inflates in place).  Ownership: nothing is kept.
 */
#pragma once

#include <glib.h>
#include <libelf.h>

G_BEGIN_DECLS

/* Whether every .debug*_str and .zdebug*_str section of @elf (inflated
 * where compressed, SHF_COMPRESSED or GNU .zdebug) ends in a NUL; FALSE
 * too when the section table or a section cannot be read.  Inflating
 * changes @elf's view of those sections, as libdw would anyway. */
gboolean cg_elf_dwarf_strings_terminated (Elf *elf);

G_END_DECLS
