/* amon-plt.h — where a procedure linkage table's stub jumps.
 *
 * A program built with -pg calls `mcount` or `__fentry__`, and with
 * -minstrument-return=call `__return__`, and with -finstrument-functions
 * the two `__cyg_profile_func_*` hooks, through its PLT when libamon is
 * a shared library.  The stub is the program's code but its time is the
 * monitor's: a sample that falls in it must count as the monitor's, as
 * one in the hook it jumps to does (amon-monitor.c, in_monitor).  The
 * stubs GNU ld, gold, lld and mold write for x86-64 are one indirect
 * jump through the global offset table, `jmp *disp32(%rip)` (ff 25),
 * led in a .plt.sec by `endbr64` (f3 0f 1e fa) and in old MPX builds by
 * a `bnd` prefix (f2).
 */
#ifndef AMON_PLT_H
#define AMON_PLT_H

#include "amon-private.h"

/* Whether the instruction at code address @pc, the next a thread was to
 * run, is such a stub's (or its endbr64); then *@target is the address
 * its slot holds, where it jumps.  0 on other architectures.  Reads the
 * bytes at @pc only as far as the instructions there reach, and the
 * slot, which the jump reads next: async-signal-safe on an interrupted
 * thread's @pc, which must be readable (code of a loaded object; an
 * execute-only page would fault). */
int amon_plt_target (uintptr_t pc, uintptr_t *target) AMON_FN AMON_HIDDEN;

#endif
