/* amon-signal.c — SIGPROF shared between the monitor and the program
 * (amon-signal.h).
 *
 * The program's disposition is kept in one of two slots, the one in
 * force named by an index that a change flips once the other slot is
 * written, so that the monitor's handler, which may interrupt a change,
 * reads a whole one.  Two threads changing SIGPROF's disposition at the
 * same time may leave either's, as the kernel would.
 */
#define _GNU_SOURCE 1

#include "amon-signal.h"
#include "amon-next.h"

#include <pthread.h>
#include <string.h>

int amon_signal_marker;

static struct sigaction program[2];
static int current;
static int held;
/* the process the slots are kept for: a child of vfork(2) shares them
 * with its parent, not the parent's handlers, so its own calls go to the
 * kernel (a child of fork, which has copies, takes them over) */
static pid_t holder;

#include <unistd.h>

#if defined(PIC)
#include <dlfcn.h>
#include <stdlib.h>

#define EXPORT AMON_FN __attribute__ ((visibility ("default")))

typedef int (*sigaction_fn) (int, const struct sigaction *, struct sigaction *);
typedef sighandler_t (*signal_fn) (int, sighandler_t);

int sigaction (int sig, const struct sigaction *act, struct sigaction *old) EXPORT;
sighandler_t signal (int sig, sighandler_t handler) EXPORT;
sighandler_t bsd_signal (int sig, sighandler_t handler) EXPORT;
sighandler_t sysv_signal (int sig, sighandler_t handler) EXPORT;

static void *real_sigaction, *real_signal, *real_bsd_signal, *real_sysv_signal, *real_sigaltstack;

/* The C library's definition of @name, looked up once; never NULL. */
AMON_FN static void *
next (void **cache, const char *name)
{
  return amon_next (cache, name, "the C library has no ");
}

/* dlsym is not async-signal-safe: look them up before any handler of
 * the program's can call them (one that re-arms itself with signal(3),
 * as System V's handlers do); a C library without one (bsd_signal,
 * sysv_signal) leaves it to next, which the program cannot reach then */
__attribute__ ((constructor, no_instrument_function)) static void
look_up (void)
{
  (void) next (&real_sigaction, "sigaction");
  (void) next (&real_sigaltstack, "sigaltstack");
  __atomic_store_n (&real_signal, dlsym (RTLD_NEXT, "signal"), __ATOMIC_RELEASE);
  __atomic_store_n (&real_bsd_signal, dlsym (RTLD_NEXT, "bsd_signal"), __ATOMIC_RELEASE);
  __atomic_store_n (&real_sysv_signal, dlsym (RTLD_NEXT, "sysv_signal"), __ATOMIC_RELEASE);
}

AMON_FN int
amon_sigaction (int sig, const struct sigaction *act, struct sigaction *old)
{
  return ((sigaction_fn) next (&real_sigaction, "sigaction")) (sig, act, old);
}

/* The program's sigaction of SIGPROF while the monitor holds it. */
AMON_FN static void
program_sigaction (const struct sigaction *act, struct sigaction *old)
{
  int i = __atomic_load_n (&current, __ATOMIC_ACQUIRE);
  if (old != NULL)
    *old = program[i];
  if (act != NULL)
    {
      program[!i] = *act;
      __atomic_store_n (&current, !i, __ATOMIC_RELEASE);
    }
}

/* Whether SIGPROF's disposition is kept in the slots for this process. */
AMON_FN static int
held_here (int sig)
{
  return sig == SIGPROF && __atomic_load_n (&held, __ATOMIC_ACQUIRE) && getpid () == holder;
}

int
sigaction (int sig, const struct sigaction *act, struct sigaction *old)
{
  if (!held_here (sig))
    return amon_sigaction (sig, act, old);
  program_sigaction (act, old);
  return 0;
}

/* signal(3) and its kin for SIGPROF held: glibc's flags for each (BSD's
 * restart and mask the signal, System V's reset and do not). */
AMON_FN static sighandler_t
program_signal (int sig, sighandler_t handler, int flags)
{
  struct sigaction sa, old;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sa.sa_flags = flags;
  sigemptyset (&sa.sa_mask);
  if (!(flags & SA_NODEFER))
    sigaddset (&sa.sa_mask, sig);
  program_sigaction (&sa, &old);
  return old.sa_handler;
}

#define HELD(sig) held_here (sig)

sighandler_t
signal (int sig, sighandler_t handler)
{
  if (!HELD (sig) || handler == SIG_ERR)
    return ((signal_fn) next (&real_signal, "signal")) (sig, handler);
  return program_signal (sig, handler, SA_RESTART);
}

sighandler_t
bsd_signal (int sig, sighandler_t handler)
{
  if (!HELD (sig) || handler == SIG_ERR)
    return ((signal_fn) next (&real_bsd_signal, "bsd_signal")) (sig, handler);
  return program_signal (sig, handler, SA_RESTART);
}

sighandler_t
sysv_signal (int sig, sighandler_t handler)
{
  if (!HELD (sig) || handler == SIG_ERR)
    return ((signal_fn) next (&real_sysv_signal, "sysv_signal")) (sig, handler);
  return program_signal (sig, handler, SA_RESETHAND | SA_NODEFER);
}

int sigaltstack (const stack_t *ss, stack_t *old) EXPORT;
unsigned amon_altstacks_set = 1;

/* sigaltstack(2), counted when it sets a stack, so that the -pg mode may
 * keep a thread's (amon-mcount.c, pg_left_altstack) */
int
sigaltstack (const stack_t *ss, stack_t *old)
{
  int r = ((int (*) (const stack_t *, stack_t *)) next (&real_sigaltstack, "sigaltstack")) (ss, old);
  if (ss)
    __atomic_add_fetch (&amon_altstacks_set, 1, __ATOMIC_RELEASE);
  return r;
}

#else

AMON_FN int
amon_sigaction (int sig, const struct sigaction *act, struct sigaction *old)
{
  return sigaction (sig, act, old);
}

unsigned amon_altstacks_set;

#endif

AMON_FN void
amon_signal_hold (const struct sigaction *p)
{
  program[0] = *p;
  holder = getpid ();
  __atomic_store_n (&current, 0, __ATOMIC_RELEASE);
  __atomic_store_n (&held, 1, __ATOMIC_RELEASE);
}

AMON_FN void
amon_signal_forked (void)
{
  holder = getpid ();
}

AMON_FN void
amon_signal_release (void)
{
  __atomic_store_n (&held, 0, __ATOMIC_RELEASE);
}

AMON_FN int
amon_signal_is_sample (const siginfo_t *info)
{
  if (info->si_code == SI_TIMER)
    return info->si_value.sival_ptr == (void *) &amon_signal_marker;
  /* a perf event's signal (F_SETSIG): POLL_IN, or POLL_HUP as it ends;
   * taken for the monitor's even after its descriptor is closed, as one
   * may still be pending then */
  return info->si_code >= POLL_IN && info->si_code <= POLL_HUP;
}

/* SIGPROF's default action, which ends the process, as it would have
 * without the monitor: the signal, raised while the handler blocks it,
 * is delivered as the handler unblocks it. */
AMON_FN static void
default_action (int sig)
{
  struct sigaction dfl;
  memset (&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset (&dfl.sa_mask);
  amon_sigaction (sig, &dfl, NULL);
  sigset_t set;
  sigemptyset (&set);
  sigaddset (&set, sig);
  raise (sig);
  pthread_sigmask (SIG_UNBLOCK, &set, NULL);
}

AMON_FN void
amon_signal_forward (int sig, siginfo_t *info, void *uc)
{
  int i = __atomic_load_n (&current, __ATOMIC_ACQUIRE);
  struct sigaction p = program[i];
  if (p.sa_handler == SIG_IGN)
    return;
  if (p.sa_handler == SIG_DFL)
    {
      default_action (sig);
      return;
    }
  if (p.sa_flags & SA_RESETHAND)
    {
      memset (&program[!i], 0, sizeof program[!i]);
      program[!i].sa_handler = SIG_DFL;
      __atomic_store_n (&current, !i, __ATOMIC_RELEASE);
    }
  /* the program's mask while its handler runs (SIGPROF stays blocked,
   * as the monitor's handler has it, SA_NODEFER or not) */
  sigset_t before;
  pthread_sigmask (SIG_BLOCK, &p.sa_mask, &before);
  if (p.sa_flags & SA_SIGINFO)
    p.sa_sigaction (sig, info, uc);
  else
    p.sa_handler (sig);
  pthread_sigmask (SIG_SETMASK, &before, NULL);
}
