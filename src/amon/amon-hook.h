/* amon-hook.h — the monitor's entry points for the ways a program can
 * tell it of calls and returns.
 *
 * gcc's and clang's -finstrument-functions call __cyg_profile_func_enter
 * and __cyg_profile_func_exit (amon-monitor.c), which pass their own
 * stack pointer.  The -pg mode (amon-mcount.c: `mcount` and `__fentry__`
 * with returns caught by a trampoline) passes the address of the return
 * address it swapped, which orders frames the same way (a callee's is
 * lower) and is what resynchronisation needs (amon-thread.h).
 */
#ifndef AMON_HOOK_H
#define AMON_HOOK_H

#include "amon-private.h"

/* Sets the monitor up, once (calibration included, which calls the
 * hooks of the caller's kind: call it where they are not busy); whether
 * time comes from the sampling clock, so that the hooks need not see
 * returns when they happen. */
int amon_hook_start (void) AMON_FN AMON_HIDDEN;

/* A call of routine @fn (any address that identifies it: its entry, or
 * an address inside it that amon-symbols.h names) from return address
 * @site, the call's frame at stack address @sp. */
void amon_hook_enter (void *fn, void *site, uintptr_t sp) AMON_FN AMON_HIDDEN;
/* The return from @fn to @site (as at its call); @sp as above. */
void amon_hook_exit (void *fn, void *site, uintptr_t sp) AMON_FN AMON_HIDDEN;

/* A call the hooks leave out because the calling thread's monitor is
 * busy: a signal handler's, which interrupted a hook (the tables and the
 * shadow stack are then half changed).  Counted, so that the file and the
 * views say how many calls the profile lacks; nothing where the thread
 * is not profiled, is ending or profiling stopped. */
void amon_hook_unseen (void) AMON_FN AMON_HIDDEN;

/* The -pg mode, where @sp is the address of a routine's return address.
 * amon_hook_leave: the routine returns, told by itself (gcc's
 * -minstrument-return=call, `__return__`), its return address still in
 * place: its frame is the one at @sp with that address, the frames
 * deeper on the same stack are gone (a jump or an exception left them),
 * and its context is marked as one whose routine tells its returns.
 * Nothing when no frame is (its call was not counted).
 * amon_hook_gone: before a call whose return address is at @sp (not a
 * tail call through a swapped address): the frames at or below @sp on
 * the same stack are gone, since a routine whose address is not swapped
 * leaves its frame on the stack only when a jump or an exception passed
 * it (gcc's -finstrument-functions, whose inlined copies share a frame,
 * never reaches these); so are those above whose slot holds neither
 * their return address nor @swapped (the trampoline's): a routine that
 * told its returns, left by an exception, whose catcher's call into the
 * C++ runtime took its slot (the runtime calls the exception's
 * destructor from deeper down).
 * amon_hook_unwound: an exception reached a cleanup or a handler of the
 * frame whose stack pointer is @sp: the frames below it on the same
 * stack are gone, and the time since the last event is the deepest's (it
 * was the unwinder's on its behalf), not the next frame's to be charged
 * (nothing with the sampling clock, whose samples find the live frame).
 * amon_hook_told: whether the frame on top is the call at @sp and its
 * routine tells its returns, so that its address need not be swapped. */
void amon_hook_leave (uintptr_t sp) AMON_FN AMON_HIDDEN;
void amon_hook_gone (uintptr_t sp, uintptr_t swapped) AMON_FN AMON_HIDDEN;
void amon_hook_unwound (uintptr_t sp) AMON_FN AMON_HIDDEN;
int amon_hook_told (uintptr_t sp) AMON_FN AMON_HIDDEN;

/* The -pg mode with the sampling clock, where no return is seen when it
 * happens: a call as amon_hook_enter, @sp the address of its return
 * address, after the returns of the routines whose frames are gone (their
 * slots at or below @sp); and, from a SIGPROF handler, the returns of
 * those gone when the code at @pc was interrupted with stack pointer @sp
 * and frame pointer @rbp. */
void amon_hook_enter_lazy (void *fn, void *site, uintptr_t sp) AMON_FN AMON_HIDDEN;
void amon_hook_settle (uintptr_t sp, uintptr_t pc, uintptr_t rbp) AMON_FN AMON_HIDDEN;

/* Whether the program calls the monitor through `mcount`/`__fentry__`
 * (set by the first such call, before the monitor starts), and a routine
 * built as gcc -pg builds one, that does nothing: calibration calls it to
 * measure what a call and return cost through that path. */
#if defined(__x86_64__) && defined(__ELF__)
#define AMON_HAVE_PG 1
extern int amon_pg_active AMON_HIDDEN;
void amon_pg_probe (void) AMON_HIDDEN;
/* The same, built as with -mfentry -minstrument-return=call: it tells its
 * return (`__return__`) rather than returning through the trampoline. */
void amon_pg_probe_told (void) AMON_HIDDEN;
/* In a SIGPROF handler, before the sample is charged: the returns of the
 * routines whose frames lie below the interrupted stack pointer (in
 * @ucontext), which the -pg mode with the sampling clock tells only at
 * the next call otherwise. */
void amon_pg_settle (void *ucontext) AMON_FN AMON_HIDDEN;
#else
#define amon_pg_active 0
#define amon_pg_probe() ((void) 0)
#define amon_pg_probe_told() ((void) 0)
#define amon_pg_settle(uc) ((void) (uc))
#endif

#endif
