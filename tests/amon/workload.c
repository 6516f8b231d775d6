/* workload.c — programs whose profile is known from their structure, for
 * the end-to-end tests of libamon (tests/cli/amon.sh).  Built at test
 * time with -finstrument-functions and linked with libamon.
 *
 * All CPU work is burn(N): N iterations of the same loop, so time is
 * proportional to iterations; burn itself is not instrumented, so its
 * time is its caller's self time.  Every count below is exact.
 *
 *   callers  10 rounds of cheap, which calls leaf(50,000) 10 times, and
 *            costly, which calls leaf(1,000,000) once: the arcs carry 1:2
 *            of leaf's time while gprof's call-count split says 10:1.
 *            The rounds alternate so that both callers run under the
 *            same conditions (other load, frequency).
 *   mutual   20 chains even(100) -> odd(99) -> ... -> even(0); even
 *            calls leaf(50,000) and odd calls leaf(150,000) at each step.
 * Calls do at least 50,000 iterations (25 us or more), so the fixed cost
 * of a call (about a dozen iterations' worth) stays near 0.02% of its
 * time, and what the measurement adds to a call and cannot take back
 * exactly (see measure_clock_cost) stays under 0.5%.  In callers,
 * mutual and threads the program also measures, with the thread's CPU clock around
 * each call of leaf, the time leaf took for each caller, and prints it
 * (nanoseconds): the truth of this very run, whatever else the machine
 * was doing.  A call's wall-clock time inside leaf (read by the vDSO,
 * no system call) is taken where it is less: a call that nothing
 * preempted took that, while the readings of the CPU clock around it
 * took more on a loaded machine, whose kernel switches to other
 * processes as a system call returns and charges the switch to the
 * thread (at a load of 10 on two cores the CPU clock gave such calls
 * 1.4% to 5.3% more than their wall time; libamon's default clock, whose
 * intervals lie inside the calls, 0.2% to 0.9% more, its hooks' share).
 *   selfrec  100 times down(999), directly recursive 999 deep.
 *   threads  thread_a calls leaf(100,000) 150 times, thread_b 50 times.
 *   fork     main calls leaf 10 times, forks; the child calls leaf 30
 *            times, the parent 20 more.
 *   longjmp  10 times from one call site, deep(100) recurses and
 *            longjmps back to main, which then calls leaf 10 times.
 *   exit     deep(200) calls exit(0) at the bottom.
 *   cancel   200 threads, cancelled asynchronously while spin calls leaf
 *            (most often inside a profiling hook), then main calls leaf
 *            10 times.
 *   sigjmp   200 attempts: attempt(r) climbs 20 + r % 50 frames deep and
 *            calls tick 100,000 times at the top, while SIGALRM comes
 *            every millisecond and every second signal's handler
 *            siglongjmps back to attempt (often out of a profiling hook,
 *            as calls are most of the time); then 200 sweeps: sweep
 *            calls eight routines in turn (more than a context's cache
 *            holds) and is jumped back to the same way, its next calls
 *            made at the depth of the hook the jump left; then main calls
 *            leaf 10 times.  Before the signals, one climb and one sweep
 *            make every context the run needs.
 *   sigprof  main installs its own SIGPROF handler, then calls leaf 10
 *            times.
 *   altstack 100 probes from one loop; every second one raises SIGUSR1,
 *            whose handler runs on an alternate signal stack and
 *            siglongjmps back to the loop, which then calls after.
 *   exec     main calls leaf 10 times, then runs a shell's busy loop
 *            through fork and execv and with system(3): with
 *            AMON_CLOCK=sample the shell must not die of SIGPROF (the
 *            program fails when it does).
 *   sleepy   10 times nap, which sleeps 2 ms (off the processor) and
 *            calls leaf(1,000,000); the program measures nap's CPU time
 *            and leaf's, which the CPU clock must give without the sleep
 *            (the monitor's check of the CPU clock after the sleep, a
 *            microsecond or two, 3.5 us seen on a virtual machine, falls
 *            in the program's measurement of leaf but not in the
 *            monitor's: under 1% of a call of leaf).
 */
#include <pthread.h>
#include <time.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__ ((noinline, no_instrument_function)) static void
burn (unsigned long n)
{
  for (unsigned long i = 0; i < n; i++)
    sink += i;
}

__attribute__ ((no_instrument_function)) static unsigned long long
clock_ns (clockid_t id)
{
  struct timespec t;
  clock_gettime (id, &t);
  return (unsigned long long) t.tv_sec * 1000000000u + (unsigned long long) t.tv_nsec;
}

static __thread unsigned long long leaf_wall; /* ns inside leaf, this thread's */

__attribute__ ((noinline)) static void
leaf (unsigned long n)
{
  unsigned long long w0 = clock_ns (CLOCK_MONOTONIC);
  burn (n);
  leaf_wall += clock_ns (CLOCK_MONOTONIC) - w0;
}

static unsigned long long measured[2]; /* ns in leaf, per caller */

__attribute__ ((no_instrument_function)) static unsigned long long
cpu_ns (void)
{
  return clock_ns (CLOCK_THREAD_CPUTIME_ID);
}

/* What the measurement itself adds to a call of leaf: two readings of
 * the clock and, between them, the call of an empty function with the
 * monitor's hooks on both sides.  The typical (median) cost, not the
 * least: on a virtual machine reading the thread's CPU clock is a system
 * call of half a microsecond or more, and the least of 2,000 is some 100
 * ns under what a call pays, 2% of a short call of leaf. */
static unsigned long long clock_cost;

__attribute__ ((noinline)) static void
empty (void)
{
  __asm__ volatile ("");
}

__attribute__ ((no_instrument_function)) static int
by_value (const void *a, const void *b)
{
  unsigned long long x = *(const unsigned long long *) a, y = *(const unsigned long long *) b;
  return (x > y) - (x < y);
}

__attribute__ ((no_instrument_function)) static void
measure_clock_cost (void)
{
  enum { N = 2001 };
  static unsigned long long cost[N];
  for (int i = 0; i < N; i++)
    {
      unsigned long long a = cpu_ns ();
      empty ();
      cost[i] = cpu_ns () - a;
    }
  qsort (cost, N, sizeof cost[0], by_value);
  clock_cost = cost[N / 2];
}

/* leaf(n), its time added to measured[who]: its CPU time, or its wall
 * time inside it where that is less (each holds what it took) */
#define TIMED_LEAF(who, n) \
  do \
    { \
      unsigned long long w0_ = leaf_wall; \
      unsigned long long t0_ = cpu_ns (); \
      leaf (n); \
      unsigned long long t1_ = cpu_ns () - t0_; \
      unsigned long long w1_ = leaf_wall - w0_; \
      t1_ = t1_ > clock_cost ? t1_ - clock_cost : 0; \
      measured[who] += w1_ < t1_ ? w1_ : t1_; \
    } \
  while (0)

__attribute__ ((noinline)) static void
cheap (void)
{
  for (int i = 0; i < 10; i++)
    TIMED_LEAF (0, 50000);
}

__attribute__ ((noinline)) static void
costly (void)
{
  TIMED_LEAF (1, 1000000);
}

static int odd (int n);

__attribute__ ((noinline)) static int
even (int n)
{
  TIMED_LEAF (0, 50000);
  return n == 0 ? 1 : odd (n - 1);
}

__attribute__ ((noinline)) static int
odd (int n)
{
  TIMED_LEAF (1, 150000);
  return n == 0 ? 0 : even (n - 1);
}

__attribute__ ((noinline)) static int
down (int n)
{
  burn (100);
  return n == 0 ? 0 : 1 + down (n - 1);
}

__attribute__ ((noinline)) static void *
spin (void *arg)
{
  (void) arg;
  pthread_setcanceltype (PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
  for (;;)
    leaf (10);
  return NULL;
}

__attribute__ ((noinline)) static void *
thread_a (void *arg)
{
  (void) arg;
  for (int i = 0; i < 150; i++)
    TIMED_LEAF (0, 100000);
  return NULL;
}

__attribute__ ((noinline)) static void *
thread_b (void *arg)
{
  (void) arg;
  for (int i = 0; i < 50; i++)
    TIMED_LEAF (1, 100000);
  return NULL;
}

__attribute__ ((noinline)) static void
nap (void)
{
  usleep (2000);
  TIMED_LEAF (1, 1000000);
}

static jmp_buf env;

__attribute__ ((noinline)) static int
deep (int n, int how)
{
  burn (10);
  if (n == 0)
    {
      if (how)
        longjmp (env, 1);
      exit (0);
    }
  return deep (n - 1, how) + 1;
}

__attribute__ ((no_instrument_function)) static void
on_sigprof (int sig)
{
  (void) sig;
}

static sigjmp_buf attempt_env;
/* Whether a signal may jump: attempt_env belongs to a live frame (a jump
 * into an attempt that returned would resume the loop with its old
 * counter and make one attempt twice) and the frames the test counts are
 * all entered (a loaded machine delays the climb by more than a tick). */
static volatile sig_atomic_t armed;
static volatile sig_atomic_t alarms;

__attribute__ ((noinline)) static void
on_alarm (int sig)
{
  (void) sig;
  if (armed && ++alarms % 2 == 0)
    {
      armed = 0;
      siglongjmp (attempt_env, 1);
    }
}

__attribute__ ((noinline)) static unsigned long
tick (unsigned long x)
{
  return x * 2654435761u >> 7;
}

__attribute__ ((noinline)) static unsigned long
climb (int d)
{
  if (d > 0)
    return climb (d - 1) + 1;
  unsigned long s = 0;
  armed = 1; /* at the top: the climb's calls are all made, whatever the load */
  for (unsigned long i = 0; i < 100000; i++)
    s += tick (i);
  return s;
}

__attribute__ ((noinline)) static void
attempt (int r)
{
  if (!sigsetjmp (attempt_env, 1))
    {
      sink += climb (20 + r % 50);
      armed = 0;
    }
}

__attribute__ ((noinline)) static unsigned long step0 (unsigned long x) { return x + 1; }
__attribute__ ((noinline)) static unsigned long step1 (unsigned long x) { return x ^ 3; }
__attribute__ ((noinline)) static unsigned long step2 (unsigned long x) { return x * 5; }
__attribute__ ((noinline)) static unsigned long step3 (unsigned long x) { return x >> 1; }
__attribute__ ((noinline)) static unsigned long step4 (unsigned long x) { return x + 7; }
__attribute__ ((noinline)) static unsigned long step5 (unsigned long x) { return x ^ 11; }
__attribute__ ((noinline)) static unsigned long step6 (unsigned long x) { return x * 13; }
__attribute__ ((noinline)) static unsigned long step7 (unsigned long x) { return x >> 2; }

/* Calls the eight steps in turn @n times (until a jump, once the signals
 * come). */
__attribute__ ((noinline)) static void
sweep (unsigned long n)
{
  static unsigned long (*const steps[8]) (unsigned long) = { step0, step1, step2, step3,
                                                            step4, step5, step6, step7 };
  if (sigsetjmp (attempt_env, 1))
    return;
  armed = 1;
  for (unsigned long i = 0; i < n; i++)
    sink += steps[i % 8] (i);
  armed = 0;
}

static sigjmp_buf probe_env;

__attribute__ ((noinline)) static void
on_usr1 (int sig)
{
  (void) sig;
  siglongjmp (probe_env, 1);
}

/* Its frame is larger than after's: the monitor tells a frame left by a
 * jump from a caller by the stack address its hooks see, which is below
 * the routine's own frame (libamon(3), CAVEATS). */
__attribute__ ((noinline)) static void
probe (int k)
{
  volatile char room[256];
  room[k % sizeof room] = (char) k;
  if (k % 2)
    raise (SIGUSR1);
}

__attribute__ ((noinline)) static void
after (int k)
{
  sink += (unsigned long) k;
}

__attribute__ ((noinline)) static void
probes (int n)
{
  for (volatile int k = 0; k < n; k++)
    {
      if (!sigsetjmp (probe_env, 1))
        probe (k);
      after (k);
    }
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "callers";
  int r = 0;
  measure_clock_cost ();
  if (strcmp (mode, "callers") == 0)
    {
      for (int i = 0; i < 10; i++)
        {
          cheap ();
          costly ();
        }
    }
  else if (strcmp (mode, "mutual") == 0)
    for (int i = 0; i < 20; i++)
      r += even (100);
  else if (strcmp (mode, "selfrec") == 0)
    for (int i = 0; i < 100; i++)
      r += down (999);
  else if (strcmp (mode, "threads") == 0)
    {
      pthread_t a, b;
      if (pthread_create (&a, NULL, thread_a, NULL) || pthread_create (&b, NULL, thread_b, NULL))
        return 2;
      pthread_join (a, NULL);
      pthread_join (b, NULL);
    }
  else if (strcmp (mode, "fork") == 0)
    {
      for (int i = 0; i < 10; i++)
        leaf (1000);
      pid_t pid = fork ();
      if (pid < 0)
        return 2;
      if (pid == 0)
        {
          for (int i = 0; i < 30; i++)
            leaf (1000);
          return 0;
        }
      for (int i = 0; i < 20; i++)
        leaf (1000);
      int status;
      waitpid (pid, &status, 0);
      r = WIFEXITED (status) && WEXITSTATUS (status) == 0 ? 0 : 1;
    }
  else if (strcmp (mode, "longjmp") == 0)
    {
      for (volatile int i = 0; i < 10; i++)
        if (!setjmp (env))
          deep (100, 1);
      for (int i = 0; i < 10; i++)
        leaf (100);
    }
  else if (strcmp (mode, "exit") == 0)
    deep (200, 0);
  else if (strcmp (mode, "cancel") == 0)
    {
      for (int i = 0; i < 200; i++)
        {
          pthread_t t;
          if (pthread_create (&t, NULL, spin, NULL))
            return 2;
          usleep (200);
          pthread_cancel (t);
          pthread_join (t, NULL);
        }
      for (int i = 0; i < 10; i++)
        leaf (100);
    }
  else if (strcmp (mode, "sigjmp") == 0)
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = on_alarm;
      sigemptyset (&sa.sa_mask);
      sigaction (SIGALRM, &sa, NULL);
      struct itimerval every_ms = { { 0, 1000 }, { 0, 1000 } }, off = { { 0, 0 }, { 0, 0 } };
      sink += climb (1);
      sweep (8);
      setitimer (ITIMER_REAL, &every_ms, NULL);
      for (int i = 0; i < 200; i++)
        attempt (i);
      for (int i = 0; i < 200; i++)
        sweep (1000000);
      setitimer (ITIMER_REAL, &off, NULL);
      for (int i = 0; i < 10; i++)
        leaf (100);
    }
  else if (strcmp (mode, "sigprof") == 0)
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = on_sigprof;
      sigemptyset (&sa.sa_mask);
      sigaction (SIGPROF, &sa, NULL);
      for (int i = 0; i < 10; i++)
        leaf (100);
    }
  else if (strcmp (mode, "altstack") == 0)
    {
      static char alternate[1 << 16];
      stack_t ss = { .ss_sp = alternate, .ss_size = sizeof alternate };
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = on_usr1;
      sa.sa_flags = SA_ONSTACK;
      sigemptyset (&sa.sa_mask);
      if (sigaltstack (&ss, NULL) != 0 || sigaction (SIGUSR1, &sa, NULL) != 0)
        return 5;
      probes (100);
    }
  else if (strcmp (mode, "exec") == 0)
    {
      static const char busy[] = "i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done";
      for (int i = 0; i < 10; i++)
        leaf (100);
      pid_t pid = fork ();
      if (pid == 0)
        {
          execl ("/bin/sh", "sh", "-c", busy, (char *) NULL);
          _exit (127);
        }
      int status = -1;
      if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
        return 3;
      status = system (busy);
      if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
        return 4;
    }
  else if (strcmp (mode, "sleepy") == 0)
    for (int i = 0; i < 10; i++)
      {
        unsigned long long t0 = cpu_ns ();
        nap ();
        unsigned long long t1 = cpu_ns () - t0;
        measured[0] += t1 > clock_cost ? t1 - clock_cost : 0;
      }
  else
    return 2;
  printf ("%d %llu %llu\n", r, measured[0], measured[1]);
  return 0;
}
