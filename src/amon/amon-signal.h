/* amon-signal.h — SIGPROF shared between the monitor and the program.
 *
 * The monitor's samples arrive as SIGPROF (amon-measure.h), the signal
 * gprof's timer sends.  A program may handle SIGPROF itself: GNU sort
 * (coreutils 9.1) installs a handler for it, as for SIGINT and SIGTERM,
 * that removes its temporary files, sets the signal back to its default
 * action and raises it again, so the monitor's next sample killed it
 * (and gprof's -pg build dies the same way).  So, in the shared library,
 * sigaction(2) and signal(3) are wrapped: while the monitor holds SIGPROF
 * the program's disposition is kept aside, reported back to it as if it
 * were in force, and applied to every SIGPROF that is not one of the
 * monitor's samples (a kill(2), raise(3), the program's own timer), its
 * default action included; the monitor's own samples never reach the
 * program.  In libamon.a (no PIC, no wrappers) the program's handler
 * replaces the monitor's as before.
 */
#ifndef AMON_SIGNAL_H
#define AMON_SIGNAL_H

#include <signal.h>

#include "amon-private.h"

/* sigaction(2) itself, past the wrappers: the monitor's own calls. */
int amon_sigaction (int sig, const struct sigaction *act, struct sigaction *old) AMON_FN AMON_HIDDEN;

/* From now on SIGPROF is the monitor's (its handler installed), and
 * @program, what was there before, is the program's disposition. */
void amon_signal_hold (const struct sigaction *program) AMON_FN AMON_HIDDEN;
/* SIGPROF is the program's again (the monitor put @program back). */
void amon_signal_release (void) AMON_FN AMON_HIDDEN;
/* In a child of fork(2), which has its own copy of the slots: they are
 * its own from now on (a child of vfork, which runs no fork handlers,
 * sets its dispositions in the kernel). */
void amon_signal_forked (void) AMON_FN AMON_HIDDEN;

/* Counts the program's sigaltstack(2) calls that set a stack, through
 * the shared library's wrapper, from 1; 0 in libamon.a, which has none:
 * ask the kernel each time. */
extern unsigned amon_altstacks_set AMON_HIDDEN;

/* The value the monitor's timers send with their signal (sigev_value),
 * so that a timer of the program's that sends SIGPROF is told apart. */
extern int amon_signal_marker AMON_HIDDEN;

/* Whether the SIGPROF described by @info is one of the monitor's
 * samples: from its timer (SI_TIMER with amon_signal_marker) or from a
 * perf event (amon-measure.c). */
int amon_signal_is_sample (const siginfo_t *info) AMON_FN AMON_HIDDEN;

/* From the monitor's handler, for a SIGPROF that is not a sample: does
 * what the program's disposition says (calls its handler with its mask,
 * ignores it, or ends the process by the signal's default action). */
void amon_signal_forward (int sig, siginfo_t *info, void *uc) AMON_FN AMON_HIDDEN;

#endif
