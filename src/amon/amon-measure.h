/* amon-measure.h — per-thread sampling timers, and the monitor's own
 * cost measured by the default clock's samples.
 *
 * The timers serve both clocks that take SIGPROF samples: the default
 * clock counts whose code each sample interrupts (below), and
 * AMON_CLOCK=sample charges the thread's CPU time since its previous
 * sample to its current context (amon-monitor.c, on_sigprof).
 *
 * The default clock charges each interval between two hooks to the
 * current context less a cost per event that calibrations measure
 * (amon-calibrate.h).  Calibrations run the hooks in a tight loop, where
 * their code and data stay in the caches; in the running program, whose
 * data evict theirs, a call costs the hooks more (on Lua 5.4 some 15.7 ns
 * where the calibrations said 13.4), and what is taken out is most of
 * what was measured, so the difference is magnified: the profile's total
 * was 34-68% above the bare program's CPU time on a loaded machine.
 *
 * So the run measures what the calibrations cannot: each thread has a
 * timer on its own CPU clock that sends SIGPROF every AMON_SAMPLE_US of
 * the thread's CPU time, and each sample is counted as the monitor's
 * (the interrupted code is in the monitor's section, or a hook is
 * running) or the program's.  The program's own time is then the
 * thread's CPU time times the program's share of the samples (gprof's
 * histogram, which leaves mcount out, measures it so), and what the
 * contexts were charged beyond it (or short of it) is taken back from
 * them (or given to them) in proportion to their intervals, since it is
 * the calibrated cost per event that was wrong.  A context's time never
 * goes below zero.  The samples' share is good to about
 * sqrt(f(1 - f) / n) for n samples of which a share f is the program's,
 * so the calibrations are kept where their total lies within two such
 * standard errors of the samples', and otherwise the samples' total
 * replaces theirs: a program that makes few calls, whose calibrated cost
 * is far below the samples' error, is left as the calibrations timed it,
 * to the nanosecond of each interval, and one whose calibrations are
 * plainly wrong gets the samples' unbiased total (spreading the samples'
 * own error over the contexts rather than a bias).  Threads
 * with fewer than AMON_MEASURE_MIN samples keep the calibrated cost
 * alone.
 *
 * The samples come from a perf event on the thread's task clock where
 * the kernel gives one (perf_event_open(2): a high-resolution timer on
 * the thread's time on a processor, every AMON_EVENT_NS, its overflow
 * signalled to the thread as SIGPROF through the descriptor's owner):
 * 1,000 a second of CPU time, where a CPU-clock timer gives at most one
 * per tick (250 a second at 250 Hz, half that beside two spinning
 * processes), too few to check a run of a second or two.  Not more: a
 * sample costs the thread some 25 us of the kernel's time on a virtual
 * machine (an interrupt, the signal and its return), 2.5% at this rate
 * and 13% at one every 250 us.  The event is a
 * descriptor in the program's table, so it is closed at exec, never
 * takes one of the first three nor one in the upper half of the limit
 * (a thread each, in a program of many threads, would take the
 * program's), and is closed only while its id is still ours.  Where the
 * kernel allows only one on the thread's own code (perf_event_paranoid 2
 * for users), that is taken, and the thread's time in the kernel, which
 * its samples do not see, is read apart (t->sys_units); where it refuses
 * both (3, Debian's default), the samples come from POSIX timers, the monitor's own: ITIMER_PROF is
 * the program's, and survives execve(2), so that a program run by the
 * profiled one would die of the signal; a POSIX timer goes at exec.
 * A per-thread timer fires only while its thread runs, so it never
 * wakes a thread asleep in a system call (a process-wide timer would be
 * delivered to any thread, and poll(2) or nanosleep(2) there would fail
 * with EINTR), and its signal goes to the thread whose clock it is, so
 * the handler reads that thread's state.  One that fires while the
 * thread runs in the kernel is delivered on its way out, and a call the
 * thread makes next that waits may still fail with EINTR, as with
 * gprof's timer: a thread that blocks SIGPROF (every signal, so that
 * none interrupts its calls) gets an event on its own code only, or
 * none (amon_measure_start).  A child of fork
 * makes no timers: a program may reset every signal to its default
 * action before it execs, and SIGPROF's would kill it.
 */
#ifndef AMON_MEASURE_H
#define AMON_MEASURE_H

#include "amon-thread.h"

#define AMON_MEASURE_MIN 100 /* samples a thread needs before they set its cost */
#define AMON_EVENT_NS (AMON_SAMPLE_US * 1000) /* a sample every this much of a thread's time, from a perf event */

/* Starts @t's source of samples, a perf event or else a timer, on the
 * calling thread's clock, which must be @t's, and unblocks SIGPROF in
 * the calling thread (a thread started with every signal blocked would
 * have no samples).  1 when it runs (t->has_timer set), 0 when neither
 * could be made. */
int amon_measure_start (amon_thread *t) AMON_HIDDEN;

/* Whether the calling thread can have such a source: one is made and
 * deleted at once (start-up checks the clock can sample at all). */
int amon_measure_possible (void) AMON_HIDDEN;

/* Deletes @t's source of samples, when it has one; any thread may call
 * it. */
void amon_measure_stop (amon_thread *t) AMON_HIDDEN;
/* In a child of fork, for the forking thread's @t: its source of samples
 * is the parent's; what the child inherited of it is let go. */
void amon_measure_forget (amon_thread *t) AMON_HIDDEN;

/* @time, a context's charge, corrected after @samples of its own: @keep
 * of the charge and @per_sample clock units a sample (amon_measure_settle),
 * to the nearest unit; unchanged when @keep is 1 and @per_sample 0. */
AMON_FN static inline uint64_t
amon_measure_corrected (uint64_t time, uint64_t samples, double keep, double per_sample)
{
  if (keep == 1 && per_sample == 0)
    return time;
  return (uint64_t) ((double) time * keep + (double) samples * per_sample + 0.5);
}

/* The correction of @t's contexts after its samples: sets t->keep and
 * t->per_sample, t->resid_total (what they add to @charged, the sum of
 * every context's time, the root's included) and t->checked (whether it
 * had the samples); none (1, 0, 0) when the thread has too few samples or
 * no CPU time (t->cpu_units), or when @charged lies within two standard
 * errors of the program's time the samples give.  Else each context gets
 * a weighted mean of two estimates of its time that add up to the
 * samples' total: its charge scaled to that total, and its own samples'
 * share of it, the samples weighing as much as the calibrated total is
 * off (its difference from theirs over the larger), up to a half.  A
 * split the calibrations nearly agree on stays theirs: the samples of a
 * context, a few hundred, are good to some 10%, where a program of long
 * calls times each to the interval.  Where they are far off, their
 * errors and the samples' lie in the same contexts and go opposite ways: a
 * calibration in a tight loop misses part of what a call costs the hooks
 * in the real program, which stays in the intervals of the contexts that
 * make the most calls and returns, while a sample charges the monitor
 * with the program's instructions that ran in the shadow of a hook's,
 * which takes most from those same contexts.  Against perf's samples of
 * the bare programs the weighted mean was nearer the functions' shares
 * than either alone, or than spreading the difference over the intervals
 * as before (libamon(3) has the numbers: that took all of jq 1.6's
 * interpreter loop, 13% of its bare run).  The split is tested too,
 * whether or not the totals agree: where the contexts' two estimates
 * differ beyond the samples' noise, the samples weigh the more of the two
 * weights, that of the calibrations' error and that of the split's test
 * (split_weight in amon-measure.c: the counter read out of order times a
 * routine's cache misses in its callee), and t->split_permille records
 * the latter where it is the one used.  Where the thread's blind windows
 * (amon-blind.h) had AMON_MEASURE_MIN samples and the samples see the
 * kernel's time too, the program's time is theirs (their CPU time per
 * event times the program's share of their samples times the thread's
 * events, to two standard errors of that share) in place of all the
 * samples'; and since blind windows charge nothing, the calibrations'
 * total is @charged scaled by all the events over the timed ones, and
 * where it stands, the contexts are scaled so.  Sets t->cal_total,
 * t->samples_total and t->blind_total, the three estimates (0 where
 * there was none).  Reads the contexts; changes none
 * of them: the writer applies it (amon_measure_corrected), so that a
 * thread may run on. */
void amon_measure_settle (amon_thread *t, uint64_t charged) AMON_HIDDEN;

#endif
