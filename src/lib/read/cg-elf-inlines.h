/* cg-elf-inlines.h — the calls inlined at an address of an ELF object,
 * from its DWARF.
 *
 * Where a compiler inlined g into f, f's symbol holds g's code; DWARF
 * says which (DW_TAG_inlined_subroutine entries inside f's
 * DW_TAG_subprogram, each with the address ranges of its code and the
 * function it is an instance of: DWARF 5, section 3.3.8).  pprof shows
 * such code as frames of their own (addr2line -i, llvm-symbolizer), the
 * innermost the leaf; cg-elf-functions names only the symbol.  Names are
 * the linker's where DWARF has one (DW_AT_linkage_name, followed through
 * DW_AT_abstract_origin and DW_AT_specification, as C++ functions have),
 * else DW_AT_name (C).
 *
 * The DWARF is the object's own (built with -g) or that of its separate
 * debug file (cg-elf-functions finds it).  Without libdw (the build's
 * HAVE_LIBDW), nothing is found.  The compilation unit of an address is
 * libdw's (.debug_aranges), else the first unit whose ranges hold it
 * (clang writes no .debug_aranges).
 *
 * Complexity: per look-up, libdw's search of the unit's entries.
 * Ownership: a CgElfInlines keeps its file open until freed, and owns the
 * names it returns.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CgElfInlines CgElfInlines;

/* The DWARF of @path, else of @debug_file (nullable); NULL when neither
 * can be read or has DWARF, or the build has no libdw. */
CgElfInlines *cg_elf_inlines_load (const char *path, const char *debug_file);
void cg_elf_inlines_free (CgElfInlines *inlines);

/* Appends to @names (of const char *, owned by @inlines) the functions
 * inlined at @address (in the object's own addresses), the innermost
 * first, up to the function whose code holds them (not included);
 * returns how many. */
guint cg_elf_inlines_at (CgElfInlines *inlines, guint64 address, GPtrArray *names);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgElfInlines, cg_elf_inlines_free)

G_END_DECLS
