/* amon-owner.h — the routine that holds a code address, and its call
 * frame information, from the unwind tables' search index (.eh_frame_hdr).
 *
 * The -pg mode with the sampling clock sees no return when it happens
 * (amon-monitor.c, amon_hook_enter_lazy): a call whose return-address
 * slot lies below the top frame's is taken for that routine's callee
 * unless the call's site shows that the routine is not its caller, which
 * needs to know where routines begin and how big their frames are at a
 * call (amon-cfa.h).  Every object gcc and clang link for x86-64 has the
 * index (for exceptions and backtrace(3)): a table of the start address
 * of each FDE, sorted, which the linker writes and the loader maps.  An
 * FDE covers one routine or one of its parts (gcc's .cold blocks have
 * their own).
 */
#ifndef AMON_OWNER_H
#define AMON_OWNER_H

#include "amon-private.h"

/* The start of the FDE whose index entry covers code address @pc, i.e.
 * of the routine (or the part of it) that holds it, and in @fde (may be
 * NULL) the FDE itself in .eh_frame; 0 (and NULL) when no index covers
 * @pc: an object without one, or an index in an encoding other than the
 * linkers' usual.  With glibc 2.35 or later the object is found by
 * _dl_find_object(3), which sees objects loaded and unloaded by
 * dlopen(3) and dlclose(3) at any time and may be called in a signal
 * handler; with an older libc the objects loaded at the first call
 * (amon_owner_init) are all that is known.  No lock, no allocation: a
 * binary search in the index. */
uintptr_t amon_owner (uintptr_t pc, const uint8_t **fde) AMON_FN AMON_HIDDEN;

/* The object that holds code address @pc, as the address of its index:
 * two addresses give the same value when one object (the executable or
 * a shared library) holds both; NULL when no index covers @pc.  The same
 * lookup as amon_owner's, without the search in the index. */
const void *amon_owner_object (uintptr_t pc) AMON_FN AMON_HIDDEN;

/* Finds the objects loaded so far where _dl_find_object(3) is missing
 * (dl_iterate_phdr(3), which may not run in a signal handler, where
 * amon_owner may be called); nothing where it is there.  Call it before
 * the first amon_owner, outside a signal handler. */
void amon_owner_init (void) AMON_FN AMON_HIDDEN;

#endif
