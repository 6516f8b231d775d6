/* amon-thread.h — one thread's monitor: the context machine, the shadow
 * stack of contexts, and the time charged to each context.
 *
 * Spivey 2004: at each call the new context is pushed on a stack that
 * shadows the program's; at each return it is popped.  Time is charged to
 * the current context at each change, from the clock reading the caller
 * passes in, so the tests can replay calls and returns with explicit
 * timestamps (amon-monitor.c passes real clock readings).
 *
 * Charging is deferred: each event appends (context, elapsed) to a short
 * log, and the log is applied when full.  The hot path then writes one
 * sequential record instead of a counter in a random context, and the
 * flush is where a clock that needs correcting (the CPU clock built on the
 * TSC, amon-clock.h) corrects a whole window at once.  A flush subtracts
 * the monitor's own calibrated cost from every interval.
 *
 * Resynchronisation, for longjmp, exceptions and exits that do not match:
 * each frame records the stack address the hook saw (@sp, the caller's
 * frame) and the return address (@site).  A call whose @sp is above the
 * top frame's cannot be that frame's callee, nor can one at the same @sp
 * with another @site: such frames were left by a longjmp and are popped.
 * (Equal @sp and @site is a callee the compiler inlined: gcc still calls
 * the hooks for it, from its container's frame with its container's
 * return address.)  A return pops its frame, found by routine and call
 * site (the same in the exit hook as in the entry hook), with the frames
 * above it; a return that matches no frame is counted and ignored.  (The
 * stack address is no use on return: gcc calls the exit hook before or
 * after the epilogue.)  Stack addresses further apart than
 * AMON_STACK_WINDOW are taken to be on another stack (sigaltstack) and
 * never cause pops.
 */
#ifndef AMON_THREAD_H
#define AMON_THREAD_H

#include "amon-fsm.h"

#define AMON_LOG_SIZE 256
#define AMON_STACK_WINDOW ((uintptr_t) 1 << 30)

typedef struct {
  void *fn;
  void *site;
  uintptr_t sp;
  amon_context *ctx; /* the context while this frame's routine runs */
} amon_frame;

typedef struct {
  amon_context *ctx;
  uint64_t elapsed; /* clock units */
} amon_interval;

typedef struct amon_thread amon_thread;

/* Adjusts the @n intervals of a window before they are charged (may
 * lower them); see amon-clock.h. */
typedef void (*amon_correct_fn) (amon_thread *t, amon_interval *log, uint32_t n);

struct amon_thread {
  amon_machine m;
  amon_context *cur;
  amon_frame *stack;
  uint32_t depth, stack_cap;
  uint64_t start;            /* clock reading when the current interval began */
  uint64_t overhead;         /* clock units subtracted per interval */
  uint64_t gap;              /* an interval longer than this flushes at once (0: never) */
  amon_correct_fn correct;   /* nullable */
  uint32_t n_log;
  amon_interval log[AMON_LOG_SIZE];
  /* statistics */
  uint64_t calls, returns, resyncs, unmatched, overhead_total, offcpu_total;
  uint32_t max_depth;
  uint32_t stop_reason;      /* AMON_STOP_*, 0 while profiling */
  /* used by amon-monitor.c and amon-clock.c */
  volatile int busy;         /* inside a hook */
  int finished;              /* the thread has exited */
  amon_thread *next;         /* registry */
  uint64_t sync_clock, sync_cpu; /* last CPU-clock synchronisation */
};

/* 0 or AMON_STOP_MEMORY.  @now starts the first interval (in the root). */
int amon_thread_init (amon_thread *t, const amon_limits *limits, uint64_t now) AMON_HIDDEN;
void amon_thread_release (amon_thread *t) AMON_HIDDEN;

/* A call of routine @fn from return address @site, the hook's frame at
 * @sp, at clock reading @now.  Returns 1 when the log was flushed (the
 * caller may restart the interval after the flush's own cost), 0
 * otherwise; t->stop_reason is set when a limit stopped profiling. */
int amon_thread_enter (amon_thread *t, void *fn, void *site, uintptr_t sp, uint64_t now) AMON_HIDDEN;
/* The return from @fn (same arguments as the matching call). */
int amon_thread_exit (amon_thread *t, void *fn, void *site, uintptr_t sp, uint64_t now) AMON_HIDDEN;

/* Charges the time up to @now to the current context and applies the log. */
void amon_thread_charge_all (amon_thread *t, uint64_t now) AMON_HIDDEN;
/* Applies the log. */
void amon_thread_flush (amon_thread *t) AMON_HIDDEN;

/* Zeroes every counter (the child after fork starts afresh). */
void amon_thread_reset_counts (amon_thread *t, uint64_t now) AMON_HIDDEN;

#endif
