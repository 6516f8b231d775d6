/* amon-mcount.h — the -pg mode's stack of swapped return addresses
 * (amon-mcount.c), and what the trampoline and the unwinder's wrappers
 * call.  x86-64 only (AMON_HAVE_PG in amon-hook.h). */
#ifndef AMON_MCOUNT_H
#define AMON_MCOUNT_H

#include "amon-private.h"

typedef struct {
  uintptr_t ret;  /* the real return address */
  uintptr_t slot; /* where it was on the program's stack */
  void *fn;       /* the routine (its hook's return address) */
  uintptr_t restored; /* the real address is back in @slot (amon_pg_unhook) */
} amon_pg_frame;

/* An entry dropped while its address was still swapped, kept by its slot
 * in case the frame was not gone but on another stack (a coroutine's)
 * and returns later (amon-mcount.c, pg_park). */
typedef struct {
  uintptr_t slot; /* 0: empty */
  uintptr_t ret;
  void *fn;       /* the routine, whose return the monitor awaits; NULL: told */
} amon_pg_parked;

typedef struct {
  volatile uintptr_t busy; /* in a hook: its slot; AMON_BUSY: never hook */
  amon_pg_frame *top;      /* the deepest entry; base[0] is a sentinel */
  amon_pg_frame *limit;    /* one past the capacity */
  amon_pg_frame *base;
  uint32_t cap;            /* entries above the sentinel */
  uint32_t end_rounds;     /* rounds of the key destructors seen (pg_thread_end) */
  uint32_t park_next;      /* the way the next full set gives up */
  uint32_t park_bits;      /* 2^park_bits sets of AMON_PG_PARK_WAYS parked entries */
  unsigned alt_seen;       /* amon_altstacks_set when @alt_sp and @alt_size were read */
  uintptr_t alt_sp, alt_size; /* the alternate signal stack; 0 bytes: none */
  amon_pg_parked *park;    /* made at the first drop */
} amon_pg_thread;

/* The monitor's clock is the sampling one: no address is swapped. */
extern int amon_pg_lazy AMON_HIDDEN;
/* The calling thread's stack (a busy one while it has none). */
extern __thread amon_pg_thread *amon_pg_self __attribute__ ((tls_model ("initial-exec"))) AMON_HIDDEN;

/* The hooks' common case with the sampling clock (amon-fast.c), which
 * touches no vector register: 1 when it counted the call, 0 when
 * amon_pg_enter must (the hook then saves them first). */
int amon_pg_enter_fast (uintptr_t *slot, void *fn) AMON_FN AMON_HIDDEN;
/* The same with the exact clock (amon-exact.c): a call, 1 when it was
 * counted and its address swapped; a return through the trampoline, the
 * real return address when it was counted; 0 when amon_pg_enter or
 * amon_pg_exit must do it, nothing having changed. */
int amon_pg_enter_exact (uintptr_t *slot, void *fn) AMON_FN AMON_HIDDEN;
/* A call that `__fentry__` or `mcount` began in registers (EXACT) and
 * left to C, a long interval or a transition not in the caller's caches:
 * amon_pg_enter_exact's second try with the hook's counter reading @now,
 * so that the counter is not read twice. */
int amon_pg_enter_exact_at (uintptr_t *slot, void *fn, uint64_t now) AMON_FN AMON_HIDDEN;
uintptr_t amon_pg_exit_exact (uintptr_t sp) AMON_FN AMON_HIDDEN;
/* A routine told its return (`__return__`; its return address is at
 * @slot), with the exact clock: 1 when it was counted, 0 when
 * amon_pg_leave must do it, nothing having changed. */
int amon_pg_leave_exact (uintptr_t slot) AMON_FN AMON_HIDDEN;

/* After the slow way of a hook or of the trampoline (amon_pg_enter,
 * amon_pg_exit, amon_pg_leave, around which the vector and x87 state is
 * saved and restored): the thread's interval starts again, so that the
 * slow way's time after its charge, the restoring of that state above
 * all, is no routine's but the monitor's (with the exact clock, where the
 * interval runs; nothing while either layer is busy). */
void amon_pg_restart (void) AMON_FN AMON_HIDDEN;

/* The hooks' C part and the trampoline's (amon-mcount-x86_64.S). */
void amon_pg_enter (uintptr_t *slot, void *fn) AMON_FN AMON_HIDDEN;
uintptr_t amon_pg_exit (uintptr_t sp) AMON_FN AMON_HIDDEN;
void amon_pg_return (void) AMON_HIDDEN;
void amon_pg_leave (uintptr_t slot) AMON_FN AMON_HIDDEN;

/* Before an unwinder walks the stack from @sp up: every swapped return
 * address of a frame at or above @sp is put back. */
void amon_pg_unhook (uintptr_t sp) AMON_FN AMON_HIDDEN;
/* Once an exception reaches a cleanup (_Unwind_Resume) or a handler of
 * the frame whose stack pointer is @sp: the frames below it are gone,
 * their entries dropped and their returns told to the monitor, so that
 * the unwinder's time up to there is the deepest's and from there the
 * frame's at @sp (a cleanup's _Unwind_Resume left the rest of the
 * unwinding to the routine that threw: fmt 9.1's throw_format_error had
 * 83% of its tests' time, where perf gives it 72% and vformat, whose
 * cleanup resumed, 11%). */
void amon_pg_unwound (uintptr_t sp) AMON_FN AMON_HIDDEN;
/* Once an exception is caught by the frame whose stack pointer is @sp:
 * amon_pg_unwound, and the entries put back above it are swapped again. */
void amon_pg_rehook (uintptr_t sp) AMON_FN AMON_HIDDEN;

#endif
