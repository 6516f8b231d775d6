/* amon-blind.h — blind windows: the program's own time measured where
 * the hooks read no clock.
 *
 * The default clock subtracts from every interval what a call or a
 * return costs the monitor, and neither measure of that cost holds on
 * every program.  Calibrations time the hooks in a tight loop, where the
 * counter read (some 10 ns on this machine's processor, and the next
 * cannot start before it ends) hides the hooks' other work; in a real
 * program it is the other way round: mawk 1.3.4 on a script of
 * recursive awk functions (309 million calls and returns) ran 4.7-5.1 s
 * with the hooks, 3.8-4.1 s with the same hooks reading no counter and
 * 7.5-8.1 s reading it twice, so the one read cost it some 3 ns of its
 * 10 and a second one 9 ns, while the hooks' other work cost 10 ns where
 * the calibrations timed all of it at 10.  The run's samples, the other
 * measure, charge the monitor with the program's work that the processor
 * ran beside a counter read (a sample falls on the oldest instruction not
 * yet retired, the read), so they found 0.50-0.64 s of mawk's own work
 * where the bare program took 0.82-0.93 s.
 *
 * So one correction window in AMON_BLIND_ONE_IN, chosen at random at the
 * end of the one before, is blind: its hooks read no counter and charge
 * nothing (the exact clock's common cases in assembly take the interval's
 * start for the reading; the C paths charge 0), while they keep the
 * contexts and the counts as in any window.  The window's CPU time and
 * events (amon_clock_correct_cpu) and the samples that fall in it
 * (amon-monitor.c, on_sigprof) are kept apart, and the program's own time
 * is the CPU time a blind window spends per event times the program's
 * share of the blind windows' samples times the thread's events
 * (amon_measure_settle): with no counter read to hide its work behind,
 * the samples see more nearly what the bare program runs.  Seven runs
 * each on a loaded machine (libamon(3) has the numbers): mawk's total went
 * from 35-41% below the bare program's CPU time to 2% below-15% above in
 * one session and 11-36% below in another, bench/amon-honest.sh's
 * parser's from 4-33% below to 22% below-10% above; duktape 2.7.0 reads
 * 4-48% above (its own code runs slower beside the hooks, which no sample
 * can tell), so the views print the other two estimates beside it where
 * they disagree.  The timed windows' charges
 * give the split between contexts, scaled to that total; the blind
 * windows' time is no context's until then.
 * Windows are chosen at random, not by a count, so that a program whose
 * work repeats with the windows' period cannot put one kind of work in
 * the blind ones.  A context whose time lies in few windows is timed in
 * three of four of them and scaled up, so a call of a millisecond may
 * read 0 or a third more; so a thread has no blind window before its
 * first AMON_BLIND_AFTER windows (some 16 million calls and returns, a
 * fifth of a second of the hooks alone), where the per-call cost taken
 * out matters little and its samples would be too few anyway: the
 * arcs of tests/cli/amon.sh's programs, timed to 3%, read 0 in one of
 * their runs otherwise.
 */
#ifndef AMON_BLIND_H
#define AMON_BLIND_H

#include "amon-thread.h"

#define AMON_BLIND_ONE_IN 4 /* one window in this many is blind, on average */
#define AMON_BLIND_AFTER 4096 /* none before a thread's first this many windows */

/* Chooses whether @t's next correction window is blind (t->blind),
 * by a xorshift generator seeded from @seed at its first use, once it
 * has had AMON_BLIND_AFTER windows (t->windows, which it counts). */
AMON_FN static inline void
amon_blind_next (amon_thread *t, uint64_t seed)
{
  if (t->windows < AMON_BLIND_AFTER)
    {
      t->windows++;
      return;
    }
  uint64_t x = t->blind_seed ? t->blind_seed : (seed | 1);
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  t->blind_seed = x;
  t->blind = (uint32_t) ((x >> 32) % AMON_BLIND_ONE_IN == 0);
}

#endif
