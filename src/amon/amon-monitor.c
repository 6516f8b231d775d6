/* amon-monitor.c — the hooks gcc -finstrument-functions calls, per-thread
 * state, fork and exit.
 *
 * Each thread has its own monitor (amon-thread.h), found through an
 * initial-exec TLS pointer, so the hot path takes no lock.  Threads are
 * registered once, under a mutex; when one exits, its contexts are merged
 * into those of the threads gone before (amon-write.h) and its memory is
 * returned, so a program that starts thousands of threads keeps only
 * their distinct contexts; at process exit the live threads are merged
 * too and the file is written.
 * A destructor writes amon.out (or $AMON_OUT, "%p" expanded to the pid);
 * a child of fork starts with zeroed counters and writes its own file
 * (".PID" is appended when $AMON_OUT has no "%p").  Reaching a limit
 * stops profiling everywhere and the file says so.  Everything here is
 * marked no_instrument_function, and a per-thread busy flag makes the
 * hooks ignore calls made while they run (an instrumented signal handler,
 * an instrumented allocator).
 */
#define _GNU_SOURCE 1

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "amon-calibrate.h"
#include "amon-cfa.h"
#include "amon-clock.h"
#include "amon-format.h"
#include "amon-hook.h"
#include "amon-measure.h"
#include "amon-output.h"
#include "amon-owner.h"
#include "amon-plt.h"
#include "amon-signal.h"
#include "amon-thread.h"
#include "amon-walk.h"
#include "amon-write.h"

/* the hooks are the library's interface; in the monitor's section, so
 * that a sample that falls in them is the monitor's (in_monitor) */
void __cyg_profile_func_enter (void *fn, void *site) AMON_FN __attribute__ ((visibility ("default")));
void __cyg_profile_func_exit (void *fn, void *site) AMON_FN __attribute__ ((visibility ("default")));

/* a thread that cannot be profiled points here: always busy */
static amon_thread disabled = { .busy = AMON_BUSY };
/* a thread's first hook finds this one, also busy, so that the hot path
 * needs no test for a thread without a monitor */
static amon_thread unstarted = { .busy = AMON_BUSY };

__thread amon_thread *amon_self __attribute__ ((tls_model ("initial-exec"))) = &unstarted;
#define self amon_self
/* profiling is over: a limit, or the file was written */
int amon_halt;

static struct {
  pthread_once_t once;
  int ready;
  amon_clock clock;
  amon_limits limits;
  uint64_t overhead;  /* clock units per event: the estimate in force (amon-calibrate.h) */
  amon_thread *cal;   /* the calibrations' own monitor (fake routines only) */
  int cal_busy;       /* one thread calibrates at a time */
  /* eighths of a unit: the -pg mode's hooks' cost over gcc's, per event,
   * returns caught by the trampoline [0] or told by the routine [1] */
  uint64_t pg_extra[2];
  int told;           /* the program's routines tell their returns: pg_extra[1] is in force */
  amon_cal cal_hist;
  uint64_t gap;
  uint64_t longish;   /* clock units: intervals that may hold a preemption */
  pthread_mutex_t lock;
  amon_thread *threads;
  amon_merge *retired; /* contexts of threads that have exited */
  uint64_t lost;       /* threads that ended inside a hook, left out */
  pthread_key_t key;
  int written;
  uint32_t stop_reason;
  int child;          /* this process is a child of fork */
  int sampled;        /* AMON_CLOCK=sample: time comes from SIGPROF */
  int measured;       /* the default clock: SIGPROF samples measure the monitor's cost (amon-measure.h) */
  int untimed;        /* a thread of the sampling clock had no timer: said once */
  char out[4096];
} G = { .once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER };

AMON_FN static void
say (const char *a, const char *b, const char *c)
{
  char line[512];
  int n = snprintf (line, sizeof line, "amon: %s%s%s\n", a, b ? b : "", c ? c : "");
  if (n > 0)
    {
      ssize_t w = write (STDERR_FILENO, line, (size_t) n < sizeof line ? (size_t) n : sizeof line - 1);
      (void) w;
    }
}

AMON_FN static const char *
stop_message (uint32_t reason)
{
  switch (reason)
    {
    case AMON_STOP_DEPTH:
      return "the shadow stack reached AMON_MAX_DEPTH frames";
    case AMON_STOP_MEMORY:
      return "profiling memory reached AMON_MAX_MEMORY bytes (or mmap failed)";
    case AMON_STOP_HISTORY:
      return "a history exceeded the longest the monitor keeps";
    case AMON_STOP_ROUTINES:
      return "more routines than the monitor can index";
    case AMON_STOP_JUMPED:
      return "a signal handler jumped out of the monitor while it changed its tables";
    default:
      return "unknown reason";
    }
}

AMON_FN static void
halt (uint32_t reason)
{
  uint32_t none = 0;
  if (__atomic_compare_exchange_n (&G.stop_reason, &none, reason, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
    say ("profiling stopped early: ", stop_message (reason), "; the profile says so");
  __atomic_store_n (&amon_halt, 1, __ATOMIC_SEQ_CST);
}

AMON_FN static uint64_t
env_u64 (const char *name, uint64_t fallback)
{
  const char *s = amon_getenv (name);
  if (s == NULL || *s == 0)
    return fallback;
  char *end;
  errno = 0;
  unsigned long long v = strtoull (s, &end, 10);
  if (errno || *end || v == 0)
    {
      say (name, ": not a positive number, using the default", NULL);
      return fallback;
    }
  return v;
}

/* ---- the sampling clock ---- */

/* SIGPROF, from the thread's own timer (amon-measure.h), so always on the
 * thread whose CPU clock it reads: with the sampling clock the CPU time
 * this thread used since its last sample goes to its current context
 * (the time after its last sample is charged at its end: charge_tail);
 * with the default clock the sample is counted as the program's or the
 * monitor's.  Async-signal-safe: a TLS load, clock_gettime and two
 * stores.  (The -pg mode tells of returns only here and at calls, from
 * where the interrupted code's stack pointer is: amon-mcount.c.) */
/* the monitor's code (AMON_FN), bounds given by the linker */
extern const char __start_amon_text[] AMON_HIDDEN;
extern const char __stop_amon_text[] AMON_HIDDEN;

/* Whether the code a signal interrupted (@uc) is the monitor's: its own,
 * or a stub of the program's PLT that jumps to it (amon-plt.h). */
AMON_FN static int
in_monitor (const void *uc)
{
  uintptr_t pc;
#if defined(__x86_64__)
  pc = (uintptr_t) ((const ucontext_t *) uc)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  pc = (uintptr_t) ((const ucontext_t *) uc)->uc_mcontext.pc;
#else
  (void) uc;
  return 0;
#endif
  uintptr_t to;
  return (pc >= (uintptr_t) __start_amon_text && pc < (uintptr_t) __stop_amon_text)
         /* only code of a loaded object is read: a JIT's execute-only
          * pages (PROT_EXEC alone, a protection key where the processor
          * has them) would fault */
         || (amon_owner_object (pc) != NULL && amon_plt_target (pc, &to) && to >= (uintptr_t) __start_amon_text
             && to < (uintptr_t) __stop_amon_text);
}

/* With the sampling clock, for a thread whose samples count its own code
 * only (t->user_only, amon-measure.c): the time it spent in the kernel
 * since its last sample, at most what it had of the processor since
 * (@now less t->start), and that sample's moved to now.  0 for the
 * others, whose samples fall in the kernel too and are taken on its way
 * out, where the code the kernel returns to tells whose time it was. */
AMON_FN static uint64_t
kernel_since (amon_thread *t, uint64_t now)
{
  uint64_t sys;
  if (!t->user_only || !amon_clock_thread_sys (&sys))
    return 0;
  uint64_t kernel = sys > t->sample_sys ? sys - t->sample_sys : 0;
  t->sample_sys = sys;
  return kernel < now - t->start ? kernel : now - t->start;
}

AMON_FN static void
on_sigprof (int sig, siginfo_t *info, void *uc)
{
  int saved = errno;
  if (AMON_UNLIKELY (!amon_signal_is_sample (info)))
    {
      /* the program's own SIGPROF (kill, raise, its timer) */
      amon_signal_forward (sig, info, uc);
      errno = saved;
      return;
    }
  amon_thread *t = self;
  if (t != &unstarted && t != &disabled && !__atomic_load_n (&amon_halt, __ATOMIC_RELAXED))
    {
      /* a sample in the monitor's hooks is the monitor's time, no
       * context's: as gprof's histogram, which covers the program's text
       * and not mcount in libc, the profile leaves it out */
      if (t->mode != AMON_MODE_SAMPLED)
        {
          /* the default clock: a sample of whose code runs */
          if (in_monitor (uc) || t->busy)
            {
              t->samples_monitor++;
              t->blind_monitor += t->blind;
            }
          else
            {
              /* not busy: the top frame is whole */
              amon_context *c = t->top->ctx;
              t->samples_program++;
              t->blind_program += t->blind;
              __atomic_store_n (&c->samples, __atomic_load_n (&c->samples, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
            }
          errno = saved;
          return;
        }
      uint64_t now = amon_clock_ns (CLOCK_THREAD_CPUTIME_ID);
      if (in_monitor (uc))
        {
          /* samples of the thread's own code only: its time in the
           * kernel since the last one (its system calls') is the
           * program's wherever this one fell */
          uint64_t kernel = kernel_since (t, now);
          amon_context *c = t->top->ctx;
          __atomic_store_n (&c->time, __atomic_load_n (&c->time, __ATOMIC_RELAXED) + kernel, __ATOMIC_RELAXED);
          t->start = now;
          errno = saved;
          return;
        }
      (void) kernel_since (t, now);
      if (amon_pg_active)
        amon_pg_settle (uc);
      amon_context *c = t->top->ctx;
      __atomic_store_n (&c->time, __atomic_load_n (&c->time, __ATOMIC_RELAXED) + (now - t->start), __ATOMIC_RELAXED);
      t->start = now;
      if (t->top != t->stack)
        __atomic_store_n (&t->tail_root, t->stack[1].ctx, __ATOMIC_RELAXED);
    }
  errno = saved;
}

/* Installs on_sigprof where the program leaves SIGPROF alone (at its
 * default action or ignored), @old receiving what was there.  1 when
 * installed. */
AMON_FN static int
take_sigprof (struct sigaction *old)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigprof;
  sa.sa_flags = SA_RESTART | SA_SIGINFO;
  sigemptyset (&sa.sa_mask);
  if (amon_sigaction (SIGPROF, NULL, old) != 0 || (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN))
    return 0;
  if (amon_sigaction (SIGPROF, &sa, NULL) != 0)
    return 0;
  /* the program sees and sets its own disposition from now on */
  amon_signal_hold (old);
  return 1;
}

/* Where the time @t used since its last sample goes when it ends (no
 * sample will come), @top being the live top of its shadow stack then:
 * the sentinel at the thread's end (thread_end), what a sample would
 * find at exit (amon_fini, live_top).
 * What is current then is often the root: at thread_end every routine
 * of the thread has returned (its start routine returned, or
 * pthread_exit unwound it, before the key's destructors run), and so has
 * main at exit after it returned.  But the root's time is in no routine
 * (TOTALS' time outside, which no view shows), and the time after the
 * last sample, up to a tick of the kernel's check of CPU timers, was
 * spent before, in the routines the thread ran; of them only the one at
 * the bottom of its stack (its start routine, main) is known to have run
 * throughout.  So that routine's context takes it: the one at the
 * bottom at the last sample (t->tail_root), or, before any sample, the
 * frame above the sentinel, where its return left it.  Not that frame
 * always: routines called after main returned (an atexit(3) handler, a
 * C++ static destructor) or after a thread's start routine did (a C++
 * thread's state's destructor) take its place there, and an exit handler
 * of a program that spun 29 ms with SIGPROF blocked took those 29 ms.
 * The thread's and the program's totals are then right, and the split
 * below that routine is what the samples made it.  At exit(3) called
 * from inside a routine, the frames still live hold the current
 * context, and that takes it. */
AMON_FN static amon_context *
tail_context (const amon_thread *t, const amon_frame *top)
{
  if (top != t->stack)
    return top->ctx;
  amon_context *c = __atomic_load_n (&t->tail_root, __ATOMIC_RELAXED);
  if (c)
    return c;
  return t->stack[1].ctx ? t->stack[1].ctx : t->stack[0].ctx;
}

/* Charges the CPU time the calling thread @t used since its last sample
 * (since it started, when it had none) to tail_context (@t, @top): a
 * program of many short threads lost most of their time without it (300
 * threads of 2 ms each kept 0.16 s of 0.60 s), as a thread may end before
 * its first sample.  The caller keeps SIGPROF's handler off @t (self no
 * longer @t, or amon_halt set), so that no sample charges the same time
 * again, and t->start moves past it. */
AMON_FN static void
charge_tail (amon_thread *t, const amon_frame *top)
{
  __atomic_signal_fence (__ATOMIC_SEQ_CST); /* the handler is off before the clock is read */
  uint64_t now = amon_clock_ns (CLOCK_THREAD_CPUTIME_ID);
  if (now > t->start)
    {
      amon_context *c = tail_context (t, top);
      __atomic_store_n (&c->time, __atomic_load_n (&c->time, __ATOMIC_RELAXED) + (now - t->start), __ATOMIC_RELAXED);
    }
  t->start = now;
}

/* Charges the CPU time that @t, a thread still running when the program
 * exits (not the caller), used since its last sample to its start
 * routine's context, as its end would (tail_context: its live top is not
 * known, the -pg mode's returns being seen only at its own calls and
 * samples).  A thread that blocks SIGPROF has no samples at all: xz 5.4's
 * liblzma starts its workers with every signal blocked and never ends
 * them, and 27 ms were left of xz -T4's 5.6 s. */
AMON_FN static void
charge_running (amon_thread *t)
{
  struct timespec ts;
  if (!t->has_cpu_clock || clock_gettime (t->cpu_clock, &ts) != 0)
    return; /* it is gone */
  uint64_t now = (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
  if (now > t->start)
    {
      amon_context *c = tail_context (t, t->stack);
      __atomic_store_n (&c->time, __atomic_load_n (&c->time, __ATOMIC_RELAXED) + (now - t->start), __ATOMIC_RELAXED);
    }
  t->start = now;
}

/* Whether SIGPROF still reaches on_sigprof: a program that took it over
 * later has had no samples since, and the time since its thread's last
 * one is not charged either (amon_fini says so). */
AMON_FN static int
sigprof_ours (void)
{
  struct sigaction now;
  return amon_sigaction (SIGPROF, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_sigprof;
}

AMON_FN static void
thread_end (void *p)
{
  amon_thread *t = p;
  if (t == NULL || t == &disabled || t == &unstarted)
    return;
  /* The keys' destructors run in rounds, ours perhaps before another
   * key's whose destructor calls the program's routines (a library's
   * thread data): the thread stays profiled while another round may
   * come, its key set again to ask for it. */
  if (!t->busy && ++t->end_rounds < PTHREAD_DESTRUCTOR_ITERATIONS && pthread_setspecific (G.key, t) == 0)
    return;
  self = &disabled;
  amon_measure_stop (t);
  if (t->busy)
    {
      /* It ended inside a hook: cancelled asynchronously, or a signal
       * handler jumped out of one.  Its tables may be half-updated (a
       * table freed, its pointer not yet replaced), so it is left out of
       * the profile and its memory is never touched again. */
      pthread_mutex_lock (&G.lock);
      amon_thread **link = &G.threads;
      while (*link && *link != t)
        link = &(*link)->next;
      if (*link)
        *link = t->next;
      G.lost++;
      pthread_mutex_unlock (&G.lock);
      return;
    }
  if (!__atomic_load_n (&amon_halt, __ATOMIC_RELAXED))
    {
      t->busy = AMON_BUSY;
      /* self is no longer @t: a sample that comes now charges nothing */
      if (G.sampled && !G.child && sigprof_ours ())
        charge_tail (t, t->stack);
      amon_thread_charge_all (t, G.sampled ? 0 : amon_clock_read (&G.clock));
      t->busy = 0;
    }
  t->finished = 1;
  /* its contexts join those of the threads gone before, and its memory
   * is returned: a program may start many threads */
  pthread_mutex_lock (&G.lock);
  if (!__atomic_load_n (&G.written, __ATOMIC_SEQ_CST))
    {
      if (G.retired == NULL)
        G.retired = amon_merge_new ();
      if (G.retired && amon_merge_thread (G.retired, t) == 0)
        {
          amon_thread **link = &G.threads;
          while (*link && *link != t)
            link = &(*link)->next;
          if (*link)
            *link = t->next;
          amon_thread_release (t);
          munmap (t, sizeof *t);
        }
    }
  pthread_mutex_unlock (&G.lock);
}

/* A monitor for the calling thread, registered; NULL when none can be had. */
AMON_FN static amon_thread *
thread_new (void)
{
  uint64_t bytes = 0;
  amon_thread *t = amon_map (sizeof *t, &bytes, 0);
  if (t == NULL || amon_thread_init (t, &G.limits, amon_clock_read (&G.clock)) != 0)
    {
      if (t)
        munmap (t, sizeof *t);
      return NULL;
    }
  t->overhead = G.overhead;
  t->gap = G.gap;
  t->on_stop = halt;
  t->mode = G.sampled ? AMON_MODE_SAMPLED : G.clock.tsc ? AMON_MODE_COUNTER : AMON_MODE_CALL;
  t->start = t->origin = G.sampled ? amon_clock_ns (CLOCK_THREAD_CPUTIME_ID) : amon_clock_read (&G.clock);
  if (G.sampled)
    t->has_cpu_clock = pthread_getcpuclockid (pthread_self (), &t->cpu_clock) == 0;
  if (G.clock.kind == AMON_CLOCK_CPU && G.clock.tsc)
    {
      t->correct = amon_clock_correct_cpu;
      t->longish = G.longish;
      amon_clock_sync_start (t);
    }
  return t;
}

/* Fake routines for calibration: distinct addresses, never called. */
static char calibration_routines[3];

/* One calibration on G.cal (self must point at it): eighths of a clock
 * unit per event, through gcc's hooks (@pg 0), or the -pg mode's, the
 * return through the trampoline (1) or told by the routine (2).  The
 * probes are called from a frame of a fake routine, as the program's
 * routines are from their callers': from the root's sentinel, whose slot
 * no stack holds, every -pg call would take the slow way (amon-exact.c),
 * which keeps the vector state, and the estimate would be several times
 * the common case's cost (100 against 12 ns a call and return on
 * bench/amon-honest.sh's parser). */
AMON_FN static uint64_t
calibration (int pg)
{
  void *a = &calibration_routines[0], *b = &calibration_routines[1];
  amon_thread *t = self;
  amon_frame *sentinel = t->top;
  /* the caller's return-address slot, holding its site as the hooks
   * require of a live frame */
  volatile uintptr_t slot = (uintptr_t) &calibration_routines[2];
  amon_thread_push (t, &calibration_routines[2], (void *) slot, (uintptr_t) &slot);
  uint64_t t0 = amon_clock_read (&G.clock);
  for (int i = 0; i < AMON_CAL_PAIRS; i++)
    if (pg == 1)
      amon_pg_probe ();
    else if (pg == 2)
      amon_pg_probe_told ();
    else
      {
        __cyg_profile_func_enter (a, b);
        __cyg_profile_func_exit (a, b);
      }
  uint64_t t1 = amon_clock_read (&G.clock);
  t->top = sentinel;
  return (t1 - t0) * 8 / (2 * AMON_CAL_PAIRS);
}

/* Adds a calibration and sets the estimate in force (amon_cal_estimate),
 * to the nearest clock unit. */
AMON_FN static void
calibrated (uint64_t per_event)
{
  amon_cal_add (&G.cal_hist, per_event);
  uint64_t e = amon_cal_estimate (&G.cal_hist);
  __atomic_store_n (&G.overhead, (e + 4) / 8, __ATOMIC_RELAXED);
}

/* Start-up: the calibrations' monitor, kept for the run, and a first
 * estimate from AMON_CAL_STARTUP calibrations.  In the -pg mode the hooks
 * the program calls are the -pg ones, which the monitor cannot enter
 * from inside a hook: what they cost over gcc's (the least of each), for
 * a return through the trampoline and for one the routine tells, is
 * measured here once and added to every later calibration, the first
 * until a routine of the program tells a return (told_seen). */
AMON_FN static void
calibrate (void)
{
  amon_thread *t = thread_new ();
  if (t == NULL)
    return;
  t->correct = NULL; /* its system call is outside the intervals it corrects */
  self = t;
  uint64_t least[3] = { UINT64_MAX, UINT64_MAX, UINT64_MAX }, v[AMON_CAL_STARTUP];
  for (int round = 0; round < AMON_CAL_STARTUP; round++)
    {
      v[round] = calibration (0);
      least[0] = v[round] < least[0] ? v[round] : least[0];
      for (int pg = 1; pg <= 2 && amon_pg_active; pg++)
        {
          uint64_t x = calibration (pg);
          least[pg] = x < least[pg] ? x : least[pg];
        }
    }
  self = &unstarted;
  for (int pg = 1; pg <= 2; pg++)
    G.pg_extra[pg - 1] = amon_pg_active && least[pg] > least[0] ? least[pg] - least[0] : 0;
  for (int round = 0; round < AMON_CAL_STARTUP; round++)
    calibrated (v[round] + G.pg_extra[0]);
  G.cal = t;
}

/* A routine of @t told its return (amon_hook_leave), its context's first:
 * from the program's first, the -pg hooks' cost is that of a told return
 * (the recorded calibrations are moved by the difference), and @t
 * subtracts the estimate so moved from then on (other threads at their
 * own first, or their next calibration).  Left to the next context's
 * first told return while another thread calibrates. */
AMON_FN static void
told_seen (amon_thread *t)
{
  if (G.cal == NULL || t == G.cal)
    return;
  if (!__atomic_load_n (&G.told, __ATOMIC_ACQUIRE))
    {
      if (__atomic_exchange_n (&G.cal_busy, 1, __ATOMIC_ACQUIRE))
        return;
      amon_cal_shift (&G.cal_hist, (int64_t) G.pg_extra[1] - (int64_t) G.pg_extra[0]);
      __atomic_store_n (&G.overhead, (amon_cal_estimate (&G.cal_hist) + 4) / 8, __ATOMIC_RELAXED);
      __atomic_store_n (&G.told, 1, __ATOMIC_RELEASE);
      __atomic_store_n (&G.cal_busy, 0, __ATOMIC_RELEASE);
    }
  t->overhead = __atomic_load_n (&G.overhead, __ATOMIC_RELAXED);
}

/* A calibration during the run, from a hook of @t that ended a
 * correction window, every AMON_CAL_EVERY of them: the time it takes is
 * no interval's (the next one starts after it), and @t subtracts the new
 * estimate from then on.  Skipped while another thread calibrates. */
AMON_FN static void
recalibrate (amon_thread *t)
{
  if (t->countdown != AMON_WINDOW || ++t->cal_windows % AMON_CAL_EVERY != 0 || G.cal == NULL
      || __atomic_exchange_n (&G.cal_busy, 1, __ATOMIC_ACQUIRE))
    return;
  /* a signal handler that jumped out of the calibration would leave the
   * thread's hooks on the calibrations' monitor: signals wait */
  sigset_t all, old;
  sigfillset (&all);
  pthread_sigmask (SIG_BLOCK, &all, &old);
  self = G.cal;
  uint64_t v = calibration (0);
  self = t;
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  calibrated (v + G.pg_extra[__atomic_load_n (&G.told, __ATOMIC_ACQUIRE)]);
  __atomic_store_n (&G.cal_busy, 0, __ATOMIC_RELEASE);
  t->overhead = __atomic_load_n (&G.overhead, __ATOMIC_RELAXED);
  t->start = amon_clock_read (&G.clock);
}

AMON_FN static void
at_fork_prepare (void)
{
  pthread_mutex_lock (&G.lock);
}

AMON_FN static void
at_fork_parent (void)
{
  pthread_mutex_unlock (&G.lock);
}

AMON_FN static void
at_fork_child (void)
{
  pthread_mutex_init (&G.lock, NULL);
  G.child = 1;
  amon_signal_forked ();
  G.cal_busy = 0; /* a thread that calibrated is not in the child */
  /* only the forking thread exists here */
  amon_thread *keep = (self != &unstarted && self != &disabled) ? self : NULL;
  for (amon_thread *t = G.threads, *next; t; t = next)
    {
      next = t->next;
      if (t != keep)
        {
          amon_measure_forget (t); /* its descriptor, inherited */
          amon_thread_release (t);
          munmap (t, sizeof *t);
        }
    }
  G.threads = keep;
  amon_merge_free (G.retired); /* the parent's */
  G.retired = NULL;
  if (keep)
    {
      keep->next = NULL;
      amon_measure_forget (keep); /* a child makes none (amon-measure.h) */
      amon_thread_reset_counts (keep, amon_clock_read (&G.clock));
      amon_clock_sync_start (keep);
    }
}

AMON_FN static void
init (void)
{
  /* a set-user-ID program trusts no variable (amon_getenv) */
  const char *out = amon_getenv ("AMON_OUT");
  if (out == NULL || *out == 0)
    out = "amon.out";
  if (strlen (out) >= sizeof G.out - 32)
    {
      say ("AMON_OUT is too long, writing amon.out", NULL, NULL);
      out = "amon.out";
    }
  strcpy (G.out, out);
  const char *clock = amon_getenv ("AMON_CLOCK");
  if (amon_clock_setup (&G.clock, clock) != 0)
    say ("AMON_CLOCK=", clock, ": unknown clock (cpu, wall, tsc or sample), using cpu");
  amon_clock_use (&G.clock);
  G.limits.max_depth = (uint32_t) env_u64 ("AMON_MAX_DEPTH", AMON_DEFAULT_MAX_DEPTH);
  if (G.limits.max_depth > (1u << 30))
    G.limits.max_depth = 1u << 30;
  G.limits.max_memory = env_u64 ("AMON_MAX_MEMORY", AMON_DEFAULT_MAX_MEMORY);
  G.limits.max_history = AMON_DEFAULT_MAX_HISTORY;
  if (pthread_key_create (&G.key, thread_end) != 0)
    return;
  pthread_atfork (at_fork_prepare, at_fork_parent, at_fork_child);
  if (G.clock.kind == AMON_CLOCK_SAMPLE)
    {
      struct sigaction old;
      if (!take_sigprof (&old))
        say ("AMON_CLOCK=sample: the program handles SIGPROF itself, using cpu", NULL, NULL);
      else
        {
          G.sampled = amon_measure_possible ();
          if (!G.sampled)
            {
              amon_signal_release ();
              amon_sigaction (SIGPROF, &old, NULL);
              say ("AMON_CLOCK=sample: cannot make a timer on a thread's CPU clock, using cpu", NULL, NULL);
            }
        }
      if (!G.sampled)
        amon_clock_setup (&G.clock, "cpu");
    }
  if (G.clock.kind == AMON_CLOCK_CPU && G.clock.tsc)
    {
      struct sigaction old;
      G.measured = take_sigprof (&old);
      G.gap = (uint64_t) (50000.0 * G.clock.tsc_per_ns); /* 50 us */
      G.longish = (uint64_t) (AMON_LONGISH_NS * G.clock.tsc_per_ns);
    }
  if (!G.sampled)
    calibrate ();
  G.ready = 1;
}

AMON_FN static amon_thread *
thread_start (void)
{
  self = &disabled; /* while setting up: no reentry */
  pthread_once (&G.once, init);
  if (!G.ready || __atomic_load_n (&amon_halt, __ATOMIC_RELAXED))
    return NULL;
  amon_thread *t = thread_new ();
  if (t == NULL)
    {
      halt (AMON_STOP_MEMORY);
      return NULL;
    }
  pthread_mutex_lock (&G.lock);
  t->next = G.threads;
  G.threads = t;
  pthread_mutex_unlock (&G.lock);
  pthread_setspecific (G.key, t);
  /* each thread samples its own CPU time (amon-measure.h); a child of
   * fork makes no timers */
  if ((G.measured || G.sampled) && !G.child && !amon_measure_start (t) && G.sampled
      && !__atomic_exchange_n (&G.untimed, 1, __ATOMIC_RELAXED))
    say ("AMON_CLOCK=sample: cannot make a thread's timer: its time is charged when it ends, to its start"
         " routine", NULL, NULL);
  self = t;
  return t;
}

/* The clock at an event: the time-stamp counter where it serves. */
AMON_FN AMON_INLINE uint64_t
now (void)
{
  return amon_clock_read (&G.clock);
}

/* The time-stamp counter, in the hooks of AMON_MODE_COUNTER only. */
AMON_FN AMON_INLINE uint64_t
counter (void)
{
#ifdef AMON_HAVE_TSC
  return __rdtsc ();
#else
  return now ();
#endif
}

/* The hook's own stack pointer: the caller's stack address less a
 * constant, which is all the resynchronisation needs (amon-thread.h); read
 * without making the hook set up a frame of its own. */
#if defined(__x86_64__)
#define HOOK_SP(sp) __asm__ ("mov %%rsp, %0" : "=r" (sp))
#elif defined(__aarch64__)
#define HOOK_SP(sp) __asm__ ("mov %0, sp" : "=r" (sp))
#else
#define HOOK_SP(sp) ((sp) = (uintptr_t) __builtin_frame_address (0))
#endif

/* glibc's: the stack pointer the kernel started the program with, above
 * every frame of the initial thread (weak: another C library may have
 * none) */
extern void *__libc_stack_end __attribute__ ((weak));

/* How far up its stack a thread whose first hook runs at @sp may read it
 * (amon_slot_readable): to the top of that stack where it is known, and
 * otherwise from that hook's frame.  A thread's first hook may lie deeper
 * than its later calls: a library's constructor, which the dynamic linker
 * calls from deeper than __libc_start_main calls the program's
 * constructors and main, or a routine that a library's start routine
 * reaches through its own deeper frames before it calls the program's
 * routines itself.  Read only under that hook, with the sampling clock
 * the routines called above it were never found returned, nor could a
 * walk pass them: a pugixml 1.13 test program (its shared library's
 * constructor first) showed main and every exit handler called by its
 * last constructor.  The initial thread's stack ends at __libc_stack_end;
 * glibc (and musl) put any other thread's descriptor, pthread_self (), at
 * the top of the mapping that holds its stack, its own or one the program
 * gave.  Either counts only less than AMON_READ_SPAN above @sp. */
AMON_FN static uintptr_t
home_of (uintptr_t sp)
{
  uintptr_t top[2] = { (uintptr_t) pthread_self (), &__libc_stack_end != NULL ? (uintptr_t) __libc_stack_end : 0 };
  for (int i = 0; i < 2; i++)
    if (top[i] > sp && top[i] - sp < AMON_READ_SPAN)
      return top[i];
  return sp;
}

/* A thread's first call: its monitor is set up, then the call counted. */
AMON_FN __attribute__ ((noinline, cold)) static void
first_enter (void *fn, void *site, uintptr_t sp)
{
  amon_thread *t = thread_start ();
  if (t == NULL || __atomic_load_n (&amon_halt, __ATOMIC_RELAXED))
    return;
  t->busy = sp;
  t->home = home_of (sp);
  if (t->mode == AMON_MODE_SAMPLED)
    amon_thread_push (t, fn, site, sp);
  else
    amon_thread_enter (t, fn, site, sp, now ());
  t->busy = 0;
}

/* Clocks read by a call: no need to be quick, the call is slow anyway. */
AMON_FN __attribute__ ((noinline)) static void
enter_call (amon_thread *t, void *fn, void *site, uintptr_t sp)
{
  amon_thread_enter (t, fn, site, sp, now ());
  t->busy = 0;
}

AMON_FN __attribute__ ((noinline)) static void
exit_call (amon_thread *t, void *fn, void *site)
{
  amon_thread_exit (t, fn, site, 0, now ());
  t->busy = 0;
}

/* The rare cases of the hooks, each finishing the hook's work, so that the
 * hooks reach them by tail calls and keep nothing across a call: the
 * common case then saves no register and sets up no frame. */
AMON_FN __attribute__ ((noinline)) static void
enter_slow (amon_thread *t, void *fn, void *site, uintptr_t sp)
{
  amon_thread_push_slow (t, fn, site, sp);
  t->busy = 0;
}

AMON_FN __attribute__ ((noinline)) static void
enter_miss (amon_thread *t, void *fn, void *site, uintptr_t sp)
{
  amon_thread_push_miss (t, fn, site, sp);
  t->busy = 0;
}

AMON_FN __attribute__ ((noinline)) static void
enter_long (amon_thread *t, void *fn, void *site, uintptr_t sp, uint64_t e, uint64_t at)
{
  amon_thread_long (t, t->top->ctx, e, at);
  recalibrate (t);
  amon_thread_push (t, fn, site, sp);
  t->busy = 0;
}

AMON_FN __attribute__ ((noinline)) static void
exit_slow (amon_thread *t, void *fn, void *site)
{
  amon_thread_pop_slow (t, fn, site);
  t->busy = 0;
}

AMON_FN __attribute__ ((noinline)) static void
exit_long (amon_thread *t, void *fn, void *site, uint64_t e, uint64_t at)
{
  amon_thread_long (t, t->top->ctx, e, at);
  recalibrate (t);
  amon_thread_pop (t, fn, site);
  t->busy = 0;
}

/* A signal handler's frame lies below the red zone and the signal frame
 * (some 800 bytes at least on x86-64, 4 KiB on AArch64) under the code it
 * interrupted; a hook that runs less deep than this under a busy hook's
 * frame is not inside it. */
#define AMON_NESTED_BELOW 512

/* Whether the hook that left @t busy was left by a jump out of a signal
 * handler that interrupted it (siglongjmp): a hook runs now at or above
 * that hook's frame (less than AMON_NESTED_BELOW under it), on the same
 * stack, so that frame is gone.  Profiling goes
 * on (the frames left are found as after any longjmp) unless the jump
 * cut short a change to the context tables or the shadow stack, which
 * cannot be trusted then: it stops, and the file says why.  (A handler that interrupts a hook and
 * returns runs below its frame, or on another stack.) */
AMON_FN __attribute__ ((noinline, cold)) static int
left_by_jump (amon_thread *t, uintptr_t sp)
{
  uintptr_t busy = t->busy;
  if (busy == AMON_BUSY || busy == 0 || sp < busy - AMON_NESTED_BELOW || !amon_same_stack (sp, busy)
      || __atomic_load_n (&amon_halt, __ATOMIC_RELAXED))
    return 0;
  if (t->m.critical)
    {
      amon_thread_stop (t, AMON_STOP_JUMPED);
      return 0;
    }
  /* a correction window cut short may have lowered some of its contexts'
   * times: its log goes, so that none is lowered twice */
  t->n_log = 0;
  t->countdown = AMON_WINDOW;
  t->busy = 0;
  return 1;
}

/* A hook that finds @t busy with a hook's stack address (not AMON_BUSY:
 * a thread not profiled, or ending) runs in a signal handler that
 * interrupted that hook: its call is left out, and counted (a SIGALRM
 * handler every 200 us lost 6% of its calls so with the default clock,
 * 46% with the sampling clock and 89% with -finstrument-functions, where
 * the hooks hold that much of the time; see libamon(3), CAVEATS). */
AMON_FN static inline void
unseen (amon_thread *t)
{
  if (t->busy != AMON_BUSY && !__atomic_load_n (&amon_halt, __ATOMIC_RELAXED))
    t->unseen++;
}

AMON_FN __attribute__ ((noinline, cold)) void
amon_hook_unseen (void)
{
  /* the -pg layer's busy flag: the monitor's may be set or not yet */
  unseen (self);
}

/* The hooks' bodies, for gcc's hooks and for the -pg mode's
 * (amon-mcount.c), which passes the address of the return address it
 * swapped as @sp.  The common case (a known transition, a matching
 * return) is a TLS load, a few compares, the clock, one add to the
 * current context and the frame written or dropped: some thirty
 * instructions a call. */
AMON_FN AMON_INLINE void
hook_enter (void *fn, void *site, uintptr_t sp)
{
  amon_thread *t = self;
  if (AMON_UNLIKELY (t->busy | __atomic_load_n (&amon_halt, __ATOMIC_RELAXED)))
    {
      if (t == &unstarted)
        first_enter (fn, site, sp);
      else if (left_by_jump (t, sp))
        amon_hook_enter (fn, site, sp);
      else if (t->busy)
        unseen (t);
      return;
    }
  t->busy = sp;
  if (t->mode != AMON_MODE_SAMPLED)
    {
      if (AMON_UNLIKELY (t->mode != AMON_MODE_COUNTER))
        {
          enter_call (t, fn, site, sp);
          return;
        }
      uint64_t at = counter (), e = amon_thread_interval (t, at);
      if (amon_thread_rare (t, e))
        {
          enter_long (t, fn, site, sp, e, at);
          return;
        }
    }
  int r = amon_thread_push_fast (t, fn, site, sp);
  if (AMON_UNLIKELY (r != AMON_PUSHED))
    {
      if (r == AMON_PUSH_MISS)
        enter_miss (t, fn, site, sp);
      else
        enter_slow (t, fn, site, sp);
      return;
    }
  t->busy = 0;
}

AMON_FN AMON_INLINE void
hook_exit (void *fn, void *site, uintptr_t sp)
{
  amon_thread *t = self;
  if (AMON_UNLIKELY (t->busy | __atomic_load_n (&amon_halt, __ATOMIC_RELAXED)))
    {
      if (left_by_jump (t, sp))
        amon_hook_exit (fn, site, sp);
      return;
    }
  t->busy = sp;
  if (t->mode != AMON_MODE_SAMPLED)
    {
      if (AMON_UNLIKELY (t->mode != AMON_MODE_COUNTER))
        {
          exit_call (t, fn, site);
          return;
        }
      uint64_t at = counter (), e = amon_thread_interval (t, at);
      if (amon_thread_rare (t, e))
        {
          exit_long (t, fn, site, e, at);
          return;
        }
    }
  amon_frame *f = t->top;
  if (AMON_UNLIKELY (f->fn != fn || f->site != site))
    {
      exit_slow (t, fn, site);
      return;
    }
  t->top = f - 1;
  t->busy = 0;
}

AMON_FN int
amon_hook_start (void)
{
  pthread_once (&G.once, init);
  return G.sampled;
}

AMON_FN void
amon_hook_enter (void *fn, void *site, uintptr_t sp)
{
  hook_enter (fn, site, sp);
}

AMON_FN void
amon_hook_exit (void *fn, void *site, uintptr_t sp)
{
  hook_exit (fn, site, sp);
}

/* Pops @t's frames above @g, gone by a jump or an exception (counted as
 * a resynchronisation). */
AMON_FN static void
drop_to (amon_thread *t, amon_frame *g)
{
  amon_frame *f = t->top;
  if (g != f)
    {
      t->discarded += (uint64_t) (f - g);
      t->resyncs++;
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
      t->top = g;
    }
}

AMON_FN void
amon_hook_leave (uintptr_t sp)
{
  amon_thread *t = self;
  if (AMON_UNLIKELY (t->busy | __atomic_load_n (&amon_halt, __ATOMIC_RELAXED)))
    {
      if (left_by_jump (t, sp))
        amon_hook_leave (sp);
      return;
    }
  t->busy = sp;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  void *site = *(void *const *) sp;
  /* frames deeper on this stack were left by a jump or an exception:
   * the time since the last event was the returning routine's */
  amon_frame *g = t->top;
  while (g != t->stack && amon_same_stack (g->sp, sp) && g->sp < sp)
    g--;
  drop_to (t, g);
  int mine = g != t->stack && g->sp == sp && g->site == site;
  if (mine && !g->ctx->told)
    {
      amon_machine_told (&t->m, g->ctx);
      told_seen (t);
    }
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->busy = 0;
  if (mine)
    hook_exit (g->fn, site, sp);
}

AMON_FN void
amon_hook_gone (uintptr_t sp, uintptr_t swapped)
{
  amon_thread *t = self;
  if (t->busy | __atomic_load_n (&amon_halt, __ATOMIC_RELAXED))
    return;
  t->busy = sp;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  amon_frame *g = t->top;
  while (g != t->stack && amon_same_stack (g->sp, sp)
         && (g->sp <= sp || (amon_slot_readable (t, g->sp, sp) && *(const uintptr_t *) g->sp != (uintptr_t) g->site
                             && *(const uintptr_t *) g->sp != swapped)))
    g--;
  drop_to (t, g);
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->busy = 0;
}

AMON_FN void
amon_hook_unwound (uintptr_t sp)
{
  amon_thread *t = self;
  if (t->busy | __atomic_load_n (&amon_halt, __ATOMIC_RELAXED) | (t->mode == AMON_MODE_SAMPLED))
    return;
  t->busy = sp;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  amon_frame *g = t->top;
  while (g != t->stack && amon_same_stack (g->sp, sp) && g->sp < sp)
    g--;
  if (g != t->top)
    {
      /* the unwinder's time so far was the deepest frame's, as at its
       * return; what it takes from here is the frame's at @sp */
      amon_thread_charge (t, now ());
      drop_to (t, g);
    }
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->busy = 0;
}

AMON_FN int
amon_hook_told (uintptr_t sp)
{
  const amon_thread *t = self;
  return !t->busy && t->top->sp == sp && t->top->ctx->told;
}

/* The -pg mode with the sampling clock (amon-mcount.c): one shadow stack,
 * this one.  A frame whose return-address slot lies at or below a call's,
 * on the same stack, is of a routine that returned (a sibling called
 * before, or one that jumped to this routine: a tail call, which then
 * takes its place as in gprof), so it is popped before the push.  No
 * clock: SIGPROF charges the top frame's context. */
AMON_FN void
amon_hook_enter_lazy (void *fn, void *site, uintptr_t sp)
{
  amon_thread *t = self;
  if (AMON_UNLIKELY (t->busy | __atomic_load_n (&amon_halt, __ATOMIC_RELAXED)))
    {
      if (t == &unstarted)
        first_enter (fn, site, sp);
      else if (left_by_jump (t, sp))
        amon_hook_enter_lazy (fn, site, sp);
      else if (t->busy)
        unseen (t);
      return;
    }
  t->busy = sp;
  amon_frame *f = amon_lazy_live_top (t, sp);
  /* a frame whose slot the caller left alone (gcc pads the stack before
   * an odd number of pushed arguments, right where the return address
   * was) is found by the call's site: not in the top frame's routine */
  const amon_context *c = f->ctx;
  if (AMON_UNLIKELY (!amon_lazy_site_known (t, c, (uintptr_t) site)))
    {
      /* the caller's frame pointer: __fentry__'s return address lies
       * under @sp, mcount's pushed the caller's %rbp there */
      uintptr_t below = ((const uintptr_t *) sp)[-1];
      f = amon_walk_site (t, f, (uintptr_t) site, sp, below == (uintptr_t) fn ? AMON_NO_RBP : below, 0);
    }
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  t->top = f;
  int r = amon_thread_push_fast (t, fn, site, sp);
  if (AMON_UNLIKELY (r != AMON_PUSHED))
    {
      if (r == AMON_PUSH_MISS)
        enter_miss (t, fn, site, sp);
      else
        enter_slow (t, fn, site, sp);
      return;
    }
  t->busy = 0;
}

/* From the SIGPROF handler, in the -pg mode with the sampling clock: the
 * routines whose return-address slots lie below the interrupted stack
 * pointer @sp have returned, and so have those whose slots no longer hold
 * their return addresses, or whose caller's routine holds the interrupted
 * @pc (as at a call: amon_hook_enter_lazy), so that the sample is charged
 * to the code that ran.  Nothing while a hook runs (busy). */
AMON_FN void
amon_hook_settle (uintptr_t sp, uintptr_t pc, uintptr_t rbp)
{
  amon_thread *t = self;
  if (t->busy)
    return;
  t->busy = sp;
  amon_frame *f = t->top;
  while (f != t->stack && amon_same_stack (f->sp, sp) && f->sp < sp)
    f--;
  while (amon_slot_readable (t, f->sp, sp) && *(const uintptr_t *) f->sp != (uintptr_t) f->site)
    f--;
  const amon_context *c = f->ctx;
  /* as a call from @pc (amon_walk_site looks one byte before its return
   * address) would see it: its slot just under @sp */
  if (!amon_site_seen (c, pc))
    f = amon_walk_site (t, f, pc + 1, sp - 8, rbp, 0);
  t->top = f;
  t->busy = 0;
}

AMON_FN void
__cyg_profile_func_enter (void *fn, void *site)
{
  uintptr_t sp;
  HOOK_SP (sp);
  hook_enter (fn, site, sp);
}

AMON_FN void
__cyg_profile_func_exit (void *fn, void *site)
{
  uintptr_t sp;
  HOOK_SP (sp);
  hook_exit (fn, site, sp);
}

/* The output path: %p is the pid; a child of fork without %p appends .PID. */
AMON_FN static void
output_path (char *buf, size_t size)
{
  char pid[32];
  snprintf (pid, sizeof pid, "%llu", (unsigned long long) getpid ());
  size_t k = 0;
  int has_p = 0;
  for (const char *s = G.out; *s && k + 24 < size; s++)
    {
      if (s[0] == '%' && s[1] == 'p')
        {
          k += (size_t) snprintf (buf + k, size - k, "%s", pid);
          s++;
          has_p = 1;
        }
      else
        buf[k++] = *s;
    }
  buf[k] = 0;
  if (G.child && !has_p)
    snprintf (buf + k, size - k, ".%s", pid);
}

/* Eighths of a clock unit in picoseconds. */
AMON_FN static uint64_t
eighths_ps (uint64_t v)
{
  return G.clock.tsc ? (uint64_t) ((double) v * 125.0 / G.clock.tsc_per_ns + 0.5) : v * 125u;
}

/* The top of the calling thread @t's shadow stack as a sample taken here
 * would find it: the -pg mode with the sampling clock sees returns only
 * at calls and samples, so frames whose return addresses are no longer
 * in their slots are skipped (amon_lazy_live_top at this function's
 * stack pointer, which lies below every live frame's slot), and so are
 * those that a walk up the stack from here passes, as a call from here
 * would find them (amon_walk_up): the exit handlers run at one depth, so an
 * atexit(3) handler or a static destructor that returned before the one
 * that writes the profile may still have its address in its slot, and
 * was taken for live (its context then took what the thread used after
 * its last sample, tail_context: 29 ms a program spent with SIGPROF
 * blocked went to a handler that did nothing). */
AMON_FN __attribute__ ((noinline)) static const amon_frame *
live_top (amon_thread *t)
{
  if (!amon_pg_active)
    return t->top;
  uintptr_t sp;
  HOOK_SP (sp);
  amon_frame *f = amon_lazy_live_top (t, sp);
#if defined(__x86_64__)
  /* this routine's own return address, just above its frame pointer */
  uintptr_t slot = (uintptr_t) __builtin_frame_address (0) + sizeof (uintptr_t);
  amon_frame *w = amon_walk_up (t, f, (uintptr_t) __builtin_return_address (0), slot, AMON_NO_RBP);
  if (w != NULL)
    f = w;
#endif
  return f;
}

__attribute__ ((destructor, no_instrument_function)) static void
amon_fini (void)
{
  if (!G.ready || __atomic_exchange_n (&G.written, 1, __ATOMIC_SEQ_CST))
    return;
  /* the program may have taken SIGPROF for itself */
  int ours = G.sampled && sigprof_ours ();
  /* a child of fork, which makes no timers, says so in its file
   * (AMON_FLAG_UNTIMED), not on the program's standard error, which
   * every subshell of a shell script would add a line to */
  if (G.sampled && !G.child && !ours)
    say ("AMON_CLOCK=sample: the program replaced the monitor's SIGPROF handler, so the profile misses the"
         " time after that (AMON_CLOCK=cpu times calls without signals)", NULL, NULL);
  if (G.measured || G.sampled)
    {
      pthread_mutex_lock (&G.lock);
      for (amon_thread *t = G.threads; t; t = t->next)
        amon_measure_stop (t);
      pthread_mutex_unlock (&G.lock);
    }
  int was_halted = __atomic_exchange_n (&amon_halt, 1, __ATOMIC_SEQ_CST);
  amon_thread *me = self;
  if (me != &unstarted && me != &disabled && me->busy)
    {
      /* exit(3) from a signal handler that interrupted one of this
       * thread's hooks (the way libamon(3) gives a server to stop): its
       * frames, current interval and log of long ones may be half
       * written, so nothing more is charged or corrected, but what the
       * end derives (the cost taken out, the samples' correction) is, as
       * for a thread running elsewhere; else the views said "0 s taken
       * out" of a run whose calls cost the monitor most of its time */
      me->correct = NULL;
      amon_thread_finish (me);
    }
  else if (me != &unstarted && me != &disabled)
    {
      if (!was_halted)
        {
          /* amon_halt is set: a sample that comes now charges nothing */
          if (ours && !G.child)
            charge_tail (me, live_top (me));
          amon_thread_charge_all (me, G.sampled ? 0 : amon_clock_read (&G.clock));
        }
      else
        {
          /* a limit stopped profiling: the hooks have timed nothing
           * since, so the CPU clock is not read again, as for the other
           * threads below; read now, all the time the program ran after
           * the stop was taken for the monitor's cost ("2.01 s taken out
           * of 2.01 s measured (10 calls and returns ...)") */
          me->correct = NULL;
          amon_thread_finish (me);
        }
    }
  pthread_mutex_lock (&G.lock);
  for (amon_thread *t = G.threads; t; t = t->next)
    {
      if (t == me || t->finished)
        continue;
      /* a thread still running may be inside a hook: give it a moment */
      for (int i = 0; i < 1000 && __atomic_load_n (&t->busy, __ATOMIC_SEQ_CST); i++)
        usleep (10);
      if (!__atomic_load_n (&t->busy, __ATOMIC_SEQ_CST))
        {
          if (!was_halted && ours && !G.child)
            charge_running (t);
          t->correct = NULL; /* it would read this thread's CPU clock */
          amon_thread_finish (t);
        }
    }
  amon_clock_finish (&G.clock);
  amon_run run = {
    .clock = &G.clock,
    .threads = G.threads,
    .overhead_ps = G.sampled ? 0 : eighths_ps (amon_cal_estimate (&G.cal_hist)),
    .calibrations = G.sampled ? 0 : G.cal_hist.count,
    .recent = AMON_CAL_RECENT,
    .lowest_ps = eighths_ps (G.cal_hist.lowest),
    .median_ps = eighths_ps (amon_cal_percentile (&G.cal_hist, 50)),
    .highest_ps = eighths_ps (G.cal_hist.highest),
    .pid = (uint64_t) getpid (),
    .secure = amon_output_secure (),
    .stop_reason = G.stop_reason,
    .stop_message = G.stop_reason ? stop_message (G.stop_reason) : NULL,
    .untimed = G.sampled && G.child,
  };
  char path[4200];
  output_path (path, sizeof path);
  int err = amon_write_file (&run, G.retired, path);
  amon_merge_free (G.retired);
  G.retired = NULL;
  uint64_t lost = G.lost;
  pthread_mutex_unlock (&G.lock);
  if (err)
    {
      /* the reason, and the program's exit status stays its own */
      char why[160];
      snprintf (why, sizeof why, ": %s%s", strerror (err),
                err == ELOOP && run.secure ? " (a set-user-ID or set-group-ID program follows no symbolic link)"
                : err == ENXIO ? " (a FIFO that nobody opened for reading)"
                : "");
      say ("cannot write the profile to ", path, why);
    }
  if (lost)
    {
      char n[24];
      snprintf (n, sizeof n, "%" PRIu64, lost);
      say (n, " threads ended inside a profiling hook (cancelled asynchronously, or left by a signal handler"
              " that jumped out): their data are left out", NULL);
    }
}
