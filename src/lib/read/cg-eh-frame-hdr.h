/* cg-eh-frame-hdr.h — where an ELF object's functions start, by its
 * unwind table, for code whose symbols were stripped.
 *
 * The linker writes .eh_frame_hdr (the segment PT_GNU_EH_FRAME points
 * to) for the unwinders of C++ exceptions, backtrace() and perf
 * --call-graph dwarf: a table of every function's first address that
 * has call frame information (gcc and clang emit it for each function on
 * x86-64 and AArch64 by default, -fasynchronous-unwind-tables), sorted
 * for a binary search (the Linux Standard Base Core Specification,
 * ".eh_frame_hdr").  strip(1) keeps it: a stripped program's functions
 * still start where the table says, where its symbol table is gone.
 *
 * Layout: u8 version (1); u8 eh_frame_ptr_enc; u8 fde_count_enc; u8
 * table_enc; eh_frame_ptr; fde_count; fde_count × { initial location,
 * FDE address }, the pointers in DWARF exception-header encodings.  Only
 * the table encoding the GNU and LLVM linkers write is read: signed
 * 4-byte values relative to the start of .eh_frame_hdr
 * (DW_EH_PE_datarel | DW_EH_PE_sdata4, 0x3b).
 */
#pragma once

#include <gelf.h>
#include <glib.h>

G_BEGIN_DECLS

/* The function starts (guint64 object addresses, as its symbols'
 * values are, ascending, each once) of @elf's .eh_frame_hdr table; an
 * empty array where it has none or one in another encoding, or it lies
 * outside the file. */
GArray *cg_eh_frame_hdr_starts (Elf *elf);

G_END_DECLS
