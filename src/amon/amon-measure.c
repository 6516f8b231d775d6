/* amon-measure.c — per-thread sampling timers and the correction their
 * samples give. */
#define _GNU_SOURCE 1

#include "amon-measure.h"

#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "amon-clock.h"
#include "amon-signal.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* A timer on the calling thread's CPU clock that sends it SIGPROF every
 * AMON_SAMPLE_US of that time; 0 when it could not be made. */
AMON_FN static int
make_timer (timer_t *timer)
{
  struct sigevent ev;
  memset (&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = SIGPROF;
  ev.sigev_value.sival_ptr = &amon_signal_marker; /* the monitor's, not a timer of the program's */
  ev.sigev_notify_thread_id = (pid_t) syscall (SYS_gettid);
  if (timer_create (CLOCK_THREAD_CPUTIME_ID, &ev, timer) != 0)
    return 0;
  struct itimerspec every = { { 0, AMON_SAMPLE_US * 1000L }, { 0, AMON_SAMPLE_US * 1000L } };
  if (timer_settime (*timer, 0, &every, NULL) != 0)
    {
      timer_delete (*timer);
      return 0;
    }
  return 1;
}

/* Whether @fd is still the perf event whose id is @id: the program may
 * have closed it (a daemon closing every descriptor) and opened another
 * under its number, which must not be closed. */
AMON_FN static int
is_event (int fd, uint64_t id)
{
  uint64_t now;
  return ioctl (fd, PERF_EVENT_IOC_ID, &now) == 0 && now == id;
}

/* A perf event on the calling thread's task clock (its time on a
 * processor, counted by a high-resolution timer: the kernel's tick does
 * not round it) that sends the thread SIGPROF every AMON_EVENT_NS of it;
 * the descriptor (its id in @id), or -1 when the kernel refuses one
 * (perf_event_paranoid, a seccomp filter, an old kernel) or the
 * descriptor would take one the program may count on: one of the first
 * three (a program that closed its standard output), or one in the upper
 * half of its limit (a thread each, in a program of many threads).
 * With @user_only it counts the thread's time in its own code only, so
 * that it overflows, and signals, only there: one that overflows in the
 * kernel leaves the signal pending, and a system call the thread makes
 * next that waits (poll(2), nanosleep(2), even with a timeout of 0)
 * fails with EINTR, 10-25 times in 20,000 of each. */
AMON_FN static int
make_event (uint64_t *id, int user_only)
{
  struct perf_event_attr a;
  memset (&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_TASK_CLOCK;
  a.sample_period = AMON_EVENT_NS;
  a.wakeup_events = 1; /* a signal at every period */
  a.exclude_kernel = (unsigned) user_only;
  a.exclude_hv = (unsigned) user_only;
  int fd = (int) syscall (SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0)
    return -1;
  struct rlimit limit;
  struct f_owner_ex owner = { F_OWNER_TID, (pid_t) syscall (SYS_gettid) };
  if (fd < 3 || (getrlimit (RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && (rlim_t) fd >= limit.rlim_cur / 2)
      || ioctl (fd, PERF_EVENT_IOC_ID, id) != 0 || fcntl (fd, F_SETOWN_EX, &owner) != 0
      || fcntl (fd, F_SETSIG, SIGPROF) != 0 || fcntl (fd, F_SETFL, O_ASYNC | O_NONBLOCK) != 0)
    {
      close (fd);
      return -1;
    }
  return fd;
}

AMON_FN int
amon_measure_start (amon_thread *t)
{
  /* A thread started with every signal blocked (xz 5.4's liblzma starts
   * its workers so, that the program's signals go to the main thread)
   * would hold its samples pending for ever, its time charged at its end
   * to its start routine.  SIGPROF is the monitor's, sent to this thread
   * alone, and the handler is safe anywhere, so it is let through where
   * an event on the thread's own code gives the samples: the program
   * blocked every signal so that none interrupts the thread's system
   * calls, and one that counts the kernel's time too would (make_event).
   * Its samples then see none of the thread's time in the kernel, which
   * is then read apart (t->sys_units) and counted as the program's
   * (amon_measure_settle). */
  sigset_t now, prof;
  sigemptyset (&prof);
  sigaddset (&prof, SIGPROF);
  int blocked = pthread_sigmask (SIG_BLOCK, NULL, &now) == 0 && sigismember (&now, SIGPROF) == 1;
  int user_only = blocked;
  t->sample_fd = make_event (&t->sample_id, user_only);
  /* perf_event_paranoid 2 (some distributions' default) gives users an
   * event on their own code, not one on the kernel's time too */
  if (t->sample_fd < 0 && !user_only)
    t->sample_fd = make_event (&t->sample_id, user_only = 1);
  if (t->sample_fd < 0 && !make_timer (&t->timer))
    return 0;
  t->has_timer = 1;
  t->user_only = user_only && t->sample_fd >= 0;
  t->sys_units = 0;
  if (t->user_only && !amon_clock_thread_sys (&t->origin_sys))
    t->origin_sys = 0;
  t->sample_sys = t->origin_sys;
  if (blocked && t->user_only)
    pthread_sigmask (SIG_UNBLOCK, &prof, NULL);
  return 1;
}

AMON_FN int
amon_measure_possible (void)
{
  uint64_t id;
  int fd = make_event (&id, 0);
  if (fd < 0)
    fd = make_event (&id, 1);
  if (fd >= 0)
    {
      close (fd);
      return 1;
    }
  timer_t timer;
  if (!make_timer (&timer))
    return 0;
  timer_delete (timer);
  return 1;
}

AMON_FN void
amon_measure_stop (amon_thread *t)
{
  if (!__atomic_exchange_n (&t->has_timer, 0, __ATOMIC_ACQ_REL))
    return;
  if (t->sample_fd < 0)
    timer_delete (t->timer);
  else if (is_event (t->sample_fd, t->sample_id))
    close (t->sample_fd);
}

AMON_FN void
amon_measure_forget (amon_thread *t)
{
  t->user_only = 0;
  /* a POSIX timer is not inherited; a descriptor is, its event still the
   * parent's thread's */
  if (__atomic_exchange_n (&t->has_timer, 0, __ATOMIC_ACQ_REL) && t->sample_fd >= 0
      && is_event (t->sample_fd, t->sample_id))
    close (t->sample_fd);
}

/* What the contexts from @first on hold corrected by @keep and
 * @per_sample. */
AMON_FN static uint64_t
corrected_sum (const amon_context *first, double keep, double per_sample)
{
  uint64_t sum = 0;
  for (const amon_context *c = first; c; c = __atomic_load_n (&c->next, __ATOMIC_ACQUIRE))
    sum += amon_measure_corrected (__atomic_load_n (&c->time, __ATOMIC_RELAXED),
                                   __atomic_load_n (&c->samples, __ATOMIC_RELAXED), keep, per_sample);
  return sum;
}

/* The square root of @x, by Newton's steps: libamon links no libm. */
AMON_FN static double
square_root (double x)
{
  if (!(x > 0))
    return 0;
  double r = x > 1 ? x : 1;
  for (int i = 0; i < 100; i++)
    {
      double next = (r + x / r) / 2;
      if (next >= r)
        break;
      r = next;
    }
  return r;
}

/* How much the samples weigh for their split alone (0 to 1), in a thread
 * whose contexts from @first on were charged @scale times what their
 * samples at @unit each add up to (@own), a share @f of its samples
 * being the program's.  The charges can be wrong in their split where
 * their total is right: the time-stamp counter is read out of order,
 * before the loads the program issued just before a call have come in,
 * so that a routine's cache misses are timed in its callee's interval
 * (xz 5.4 timed hc_find_func at 24% and its caller lzma_mf_hc4_find at
 * 38%, where perf gives the bare program 17% and 51%, and its samples
 * 18% and 53%; reading the counter after a fence got 17% and 52% and
 * cost 45% more time).  So the split's disagreement over all contexts
 * (the sum of the squared differences between each context's two
 * estimates) is compared with what the samples' noise alone would make
 * of it (their variance, @unit per unit of @own): the part of it beyond
 * four times that, a chi-square test at some two standard errors, is the
 * share the samples take.  Their own error is the hooks' shadow (a
 * sample charges the monitor with what the program ran beside a hook's
 * counter read), which grows with the monitor's share: they take it all
 * where the monitor had under a quarter of the samples, a half at most
 * where it had more than a half, and in between a share that falls
 * linearly (a half, as where the calibrations are far off: three
 * quarters set bench/amon-honest.sh's parser, whose calibrations alone
 * err, from 0.04-0.08 off to 0.12-0.15).  Against perf's samples of the
 * bare programs (libamon(3)), the sum of the errors in share over the 25
 * largest functions went from 0.36-0.49 to 0.12-0.18 for xz (the monitor
 * 34% of the samples) and from 0.51-0.54 to 0.37-0.43 for SQLite's shell
 * (its B-tree searches' misses timed in their callees); jq's, Tcl's,
 * yaml-cpp's and the parser's, whose calibrations were off by a half or
 * more, stayed as they were. */
AMON_FN static double
split_weight (const amon_context *first, double scale, double unit, double own, double f)
{
  double limit = 2 * f - 0.5;
  limit = limit < 0.5 ? 0.5 : limit;
  if (!(unit > 0))
    return 0;
  double squares = 0;
  for (const amon_context *c = first; c; c = __atomic_load_n (&c->next, __ATOMIC_ACQUIRE))
    {
      double d = (double) __atomic_load_n (&c->time, __ATOMIC_RELAXED) * scale
                 - (double) __atomic_load_n (&c->samples, __ATOMIC_RELAXED) * unit;
      squares += d * d;
    }
  double noise = 4 * unit * own;
  if (!(squares > noise))
    return 0;
  double w = 1 - noise / squares;
  return w < limit ? w : limit < 1 ? limit : 1;
}

/* The thread's calls and returns: its contexts' entries and recursive
 * calls, and t->returns (set by the caller, amon-thread.c). */
AMON_FN static uint64_t
events_of (const amon_thread *t)
{
  uint64_t pushes = 0;
  for (const amon_context *c = t->m.root; c; c = __atomic_load_n (&c->next, __ATOMIC_ACQUIRE))
    pushes += __atomic_load_n (&c->entries, __ATOMIC_RELAXED) + __atomic_load_n (&c->recursive, __ATOMIC_RELAXED);
  return pushes + t->returns;
}

AMON_FN void
amon_measure_settle (amon_thread *t, uint64_t charged)
{
  t->keep = 1;
  t->per_sample = 0;
  t->resid_total = 0;
  t->checked = 0;
  t->split_permille = 0;
  t->cal_total = t->samples_total = t->blind_total = 0;
  /* the blind windows charged nothing (amon-blind.h): the calibrations'
   * total for the whole run is the timed windows' charge scaled by events */
  uint64_t events = events_of (t);
  uint64_t timed = events > t->blind_events ? events - t->blind_events : 0;
  double scale_up = t->blind_events && timed ? (double) events / (double) timed : 1;
  double full = (double) charged * scale_up;
  t->cal_total = (uint64_t) full;
  uint64_t program = t->samples_program, all = program + t->samples_monitor;
  if (all < AMON_MEASURE_MIN || t->cpu_units == 0)
    {
      if (scale_up != 1)
        {
          t->keep = scale_up;
          t->resid_total = (int64_t) corrected_sum (t->m.root, t->keep, 0) - (int64_t) charged;
        }
      return;
    }
  t->checked = 1;
  /* samples of the thread's own code only (user_only) see none of its
   * time in the kernel, which is counted as the program's: its system
   * calls', and the monitor's own with it (its page faults, checks and
   * samples' delivery, libamon(3)) */
  double cpu = (double) t->cpu_units, n = (double) all;
  double sys = t->user_only ? (double) (t->sys_units < t->cpu_units ? t->sys_units : t->cpu_units) : 0;
  double user = cpu - sys, unit = user / n, own = unit * (double) program + sys;
  /* two standard errors of the program's time; the share smoothed by a
   * sample each way, so that a run whose samples all fell in the program
   * does not claim to know its time exactly */
  double f = ((double) program + 1) / (n + 2), error = 2 * user * square_root (f * (1 - f) / n);
  t->samples_total = (uint64_t) own;
  /* where the blind windows had the samples, their share of the
   * program's sets its time instead: the CPU time a blind window spends
   * per event, times that share, times the thread's events, to two
   * standard errors of the share (amon-blind.h) */
  uint64_t blind_all = t->blind_program + t->blind_monitor;
  if (blind_all >= AMON_MEASURE_MIN && t->blind_events && !t->user_only)
    {
      double nb = (double) blind_all, fb = ((double) t->blind_program + 1) / (nb + 2);
      double per_event = (double) t->blind_units / (double) t->blind_events;
      own = per_event * fb * (double) events;
      error = 2 * own * square_root ((1 - fb) / (fb * nb));
      t->blind_total = (uint64_t) own;
    }
  /* the samples' estimate of each context, at @unit_p a sample of the
   * program's code, adds up to @own too */
  double unit_p = program ? (own - sys) / (double) program : 0;
  /* the charge scaled to @own and the context's samples at @unit_p each
   * (with the kernel's time spread as the charges are, they add up to
   * @own too), the samples weighing as much as the calibrations are off,
   * up to a half, or more where the split shows the charges' own bias
   * (split_weight); the split stays the calibrations' where they agree
   * with the samples in both */
  double off = full > own ? (full - own) / full : (own - full) / own;
  double w = charged == 0 ? 1 : off < 0.5 ? off : 0.5;
  if (full <= own + error && full >= own - error)
    w = 0;
  if (charged > 0)
    {
      double split = split_weight (t->m.root, (own - sys) / (double) charged, unit_p, own - sys, f);
      if (split > w)
        {
          w = split;
          t->split_permille = (uint32_t) (split * 1000 + 0.5);
        }
    }
  if (w == 0)
    {
      /* the calibrations stand, over the blind windows too */
      if (scale_up != 1)
        {
          t->keep = scale_up;
          t->resid_total = (int64_t) corrected_sum (t->m.root, t->keep, 0) - (int64_t) charged;
        }
      return;
    }
  t->keep = charged > 0 ? ((1 - w) * own + w * sys) / (double) charged : 0;
  t->per_sample = w * unit_p;
  t->resid_total = (int64_t) corrected_sum (t->m.root, t->keep, t->per_sample) - (int64_t) charged;
}
