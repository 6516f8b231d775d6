/* amon-owner.h — the routine that holds a code address, from the unwind
 * tables' search index (.eh_frame_hdr).
 *
 * The -pg mode with the sampling clock sees no return when it happens
 * (amon-monitor.c, amon_hook_enter_lazy): a call whose return-address
 * slot lies below the top frame's is taken for that routine's callee
 * unless the call's site shows that the routine is not its caller, which
 * needs to know where routines begin.  Every object gcc and clang link for
 * x86-64 has the index (for exceptions and backtrace(3)): a table of the
 * start address of each FDE, sorted, which the linker writes and the
 * loader maps.  An FDE covers one routine or one of its parts (gcc's
 * .cold blocks have their own).
 */
#ifndef AMON_OWNER_H
#define AMON_OWNER_H

#include "amon-private.h"

/* The start of the FDE that covers code address @pc, i.e. of the routine
 * (or the part of it) that holds it; 0 when no index covers @pc (an
 * object without one, or loaded by dlopen(3) after the first look-up, or
 * an index in an encoding other than the linkers' usual).  The objects'
 * indexes are found once, at the first call (dl_iterate_phdr(3)); after
 * that a look-up is a binary search, no lock, no allocation. */
uintptr_t amon_owner (uintptr_t pc) AMON_FN AMON_HIDDEN;

#endif
