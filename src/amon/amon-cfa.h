/* amon-cfa.h — one step up the stack from a call, by the unwind tables'
 * call frame information (.eh_frame: the DWARF CFI that gcc and clang
 * emit for every x86-64 routine, for exceptions and backtrace(3)).
 *
 * The -pg mode with the sampling clock sees no return when it happens, so
 * at a call it must tell which frame of its shadow stack made it
 * (amon-walk.h, amon_walk_site).  The return address's slot alone cannot:
 * a returned frame's slot may still hold its return address, below a
 * library's frames that call back (qsort(3)) or under the padding before
 * arguments pushed on the stack.  The CFI can: at the call instruction,
 * the frame's canonical frame address (CFA) is the stack pointer plus an
 * offset the CFI gives, and the caller's own return address lies just
 * under its CFA.  So the frame that made a call whose return address is
 * at slot S is the one whose return address is at S + k, k the CFA's
 * offset at the call (the stack pointer there is S + 8, and the slot
 * CFA - 8).
 */
#ifndef AMON_CFA_H
#define AMON_CFA_H

#include "amon-private.h"

/* Where a frame's CFA and its caller's frame pointer are at a call. */
typedef struct {
  int32_t offset;  /* the CFA's offset (bytes, at least 8) from: */
  int32_t via_rbp; /* 1: %rbp (a frame pointer), 0: the stack pointer at the call */
  int32_t rbp;     /* where the caller's %rbp is saved, from the CFA (< 0);
                    * 0: not saved, still in %rbp; AMON_RBP_LOST: not told */
  int32_t guessed; /* 1: no FDE covers the call, the frame pointer's
                    * convention is assumed (amon_cfa_at) */
} amon_cfa;

#define AMON_RBP_LOST INT32_MIN

/* Fills @out for the call instruction before return address @ret and
 * returns 1; 0 when it cannot be told: no index covers the call,
 * the CFA is kept in a register other than %rsp and %rbp or by an
 * expression (a signal frame), or the tables use what this reader does
 * not (64-bit DWARF lengths, DW_CFA_set_loc).  Where an object has an
 * index but no FDE covers the call, the routine is taken to keep a frame
 * pointer (push %rbp; mov %rsp, %rbp: the CFA %rbp + 16, the caller's
 * %rbp at CFA - 16), with @out->guessed set: the code that has no CFI is
 * the C runtime's start-up files' (crtstuff's __do_global_dtors_aux,
 * which calls __cxa_finalize, which calls a shared library's static
 * destructors at exit) and hand-written assembly.  Reads only the mapped
 * tables (amon_owner): no lock, no allocation, safe in a signal handler
 * where amon_owner is. */
int amon_cfa_at (uintptr_t ret, amon_cfa *out) AMON_FN AMON_HIDDEN;

#endif
