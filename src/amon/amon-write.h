/* amon-write.h — merging the threads' contexts and writing amon.out.
 *
 * At exit every thread's machine has its own routine indexes; the writer
 * gives each distinct routine address one global index, translates every
 * history, and sums the counters of contexts whose histories are then
 * equal (the same context reached in several threads).  Contexts with no
 * time, no entry and no recursive call (those zeroed in a forked child)
 * are left out; the root contexts' time is the time outside every
 * routine.  The first thread merged needs no look-up (one machine's
 * histories are distinct), and where it runs alone its contexts are
 * written straight from its machine, neither merged nor copied.  Routines are named by
 * amon-symbols.h.  The layout is formats/amon.md.  O(total history
 * length) expected time.
 */
#ifndef AMON_WRITE_H
#define AMON_WRITE_H

#include "amon-clock.h"
#include "amon-thread.h"

typedef struct {
  const amon_clock *clock;
  amon_thread *threads;      /* linked by ->next */
  uint64_t overhead_ps;      /* calibrated cost of one event (the estimate at the end) */
  uint64_t calibrations;     /* how many calibrations it summarises (0: none) */
  uint32_t recent;           /* the estimate is the lowest of the last this many */
  uint64_t lowest_ps, median_ps, highest_ps;
  uint64_t pid;
  int secure;                /* set-user-ID or set-group-ID: follow no link (amon-output.h) */
  uint32_t stop_reason;      /* 0: profiling ran to the end */
  int untimed;               /* a child of fork with the sampling clock: no times (AMON_FLAG_UNTIMED) */
  const char *stop_message;  /* nullable */
} amon_run;

/* Contexts of several threads merged (global routine indexes, equal
 * histories summed) with their statistics.  Threads that exit are merged
 * into one and released, so that a program that starts many threads keeps
 * only their distinct contexts. */
typedef struct amon_merge amon_merge;

/* NULL when memory runs out. */
amon_merge *amon_merge_new (void) AMON_HIDDEN;
/* Adds @t's contexts and statistics (read only: @t may run on); 0 or ENOMEM. */
int amon_merge_thread (amon_merge *g, amon_thread *t) AMON_HIDDEN;
void amon_merge_free (amon_merge *g) AMON_HIDDEN;

/* Writes @run to @path (as amon-output.h says: a temporary file renamed
 * into place where the path is a regular file or nothing):
 * the threads of @run->threads added to @retired (nullable; consumed:
 * free it after).  Returns 0, or an errno value. */
int amon_write_file (const amon_run *run, amon_merge *retired, const char *path) AMON_HIDDEN;

#endif
