// pg-throw.cc — C++ exceptions through libamon's -pg mode
// (tests/cli/amon-pg.sh): thrown from the bottom of a recursion, through
// frames whose return addresses the monitor swapped, past destructors
// that call routines themselves, rethrown, caught, and a catch inside a
// destructor while another exception unwinds; thrown through frames of
// routines that told their returns before (gcc's -minstrument-return=call:
// nothing swapped), the exception's destructor then called by the C++
// runtime (__cxa_end_catch) for the routine that caught it; and a thread
// cancelled deep in a recursion, whose destructors must all run; and
// thrown in two coroutines whose stacks lie side by side, once resumed,
// through the frames they had before they yielded (whose entries the
// monitor put aside at the switch).  The program counts its own calls
// and checks its own results; it prints "NAME COUNT" lines.
#include <cstdio>
#include <pthread.h>
#include <ucontext.h>
#include <unistd.h>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#define NOINLINE __attribute__ ((noinline))

static unsigned long n_descend, n_cleanup, n_after, n_rethrower, n_guarded, n_inner_throw;
static volatile long sink;

struct Tidy
{
  int depth;
  ~Tidy ();
};

NOINLINE static void
cleanup (int d)
{
  n_cleanup++;
  sink = d;
}

// a catch inside a destructor, while an exception unwinds
NOINLINE static void
inner_throw (int d)
{
  n_inner_throw++;
  try
    {
      if (d % 10 == 0)
        throw std::runtime_error ("inner");
    }
  catch (const std::exception &)
    {
      sink = d;
    }
}

Tidy::~Tidy ()
{
  cleanup (depth);
  inner_throw (depth);
}

NOINLINE static long
descend (int d, std::vector<long> &trail)
{
  n_descend++;
  Tidy t{ d };
  trail.push_back (d);
  if (d == 0)
    throw std::out_of_range ("bottom");
  long r = descend (d - 1, trail);
  sink = r;
  return r + 1;
}

NOINLINE static long
rethrower (int d)
{
  n_rethrower++;
  std::vector<long> trail;
  try
    {
      return descend (d, trail);
    }
  catch (const std::out_of_range &)
    {
      if (trail.size () != (size_t) d + 1)
        std::abort ();
      throw;
    }
}

NOINLINE static long
guarded (int d)
{
  n_guarded++;
  try
    {
      return rethrower (d);
    }
  catch (const std::exception &e)
    {
      return (long) std::string (e.what ()).size ();
    }
}

NOINLINE static long
after (long x)
{
  n_after++;
  std::map<long, long> m;
  for (long i = 0; i < 8; i++)
    m[i] = i * x;
  return m[7];
}

// probe returns from depth 10, or throws a Deep from depth @limit: its
// frames have told their returns before the throws pass them (gcc turns
// part of the recursion into a loop: its calls are not compared); the
// runtime calls ~Deep at the end of prober's catch, deeper on the stack
// than probe's frame was
static unsigned long n_probe, n_prober, n_deep_gone;

struct Deep
{
  int d;
  ~Deep ();
};

NOINLINE Deep::~Deep ()
{
  n_deep_gone++;
  sink = d;
}

NOINLINE static long
probe (int d, int limit)
{
  n_probe++;
  if (d >= limit)
    throw Deep{ d };
  if (d == 10)
    return d;
  return probe (d + 1, limit) + 1;
}

NOINLINE static long
prober (int i)
{
  n_prober++;
  long s = 0;
  try
    {
      s = probe (0, i % 2 ? 5 : 100);
    }
  catch (const Deep &e)
    {
      s = e.d;
    }
  // work after the catch, so that the runtime's __cxa_end_catch is not
  // reached by a jump (a tail call, whose callee is its caller's caller's)
  sink = s;
  return s + 1;
}

// a thread cancelled at the bottom of a recursion: each level's
// destructor runs as the cancellation unwinds it
static int n_unwound;

struct Count
{
  ~Count () { n_unwound++; }
};

NOINLINE static void
sink_deep (int d)
{
  Count c;
  if (d == 0)
    for (;;)
      {
        pthread_testcancel ();
        usleep (1000);
      }
  sink_deep (d - 1);
  sink = d;
}

// the coroutines: each yields from the bottom of a recursion and, once
// resumed, throws from there to its loop at the top
static ucontext_t fib_main_ctx, fib_ctx[2];
static unsigned long n_fib_dive, n_fib_caught;

NOINLINE static void
fib_dive (int k, int d)
{
  n_fib_dive++;
  if (d == 0)
    {
      swapcontext (&fib_ctx[k], &fib_main_ctx);
      throw std::runtime_error ("resumed");
    }
  fib_dive (k, d - 1);
  sink = d;
}

static void
fib_loop (int k)
{
  for (;;)
    try
      {
        fib_dive (k, 4);
      }
    catch (const std::runtime_error &)
      {
        n_fib_caught++;
      }
}

static void *
cancelled (void *)
{
  Count c;
  sink_deep (10);
  return nullptr;
}

int
main ()
{
  pthread_t t;
  if (pthread_create (&t, nullptr, cancelled, nullptr) != 0)
    return 1;
  usleep (20000);
  pthread_cancel (t);
  pthread_join (t, nullptr);
  if (n_unwound != 12)
    {
      std::printf ("cancellation ran %d destructors, not 12\n", n_unwound);
      return 1;
    }
  long s = 0;
  for (int i = 0; i < 20; i++)
    s += guarded (30);
  if (s != 20 * 6)
    {
      std::printf ("wrong result %ld\n", s);
      return 1;
    }
  static char stacks[2][1 << 16];
  for (int k = 0; k < 2; k++)
    {
      getcontext (&fib_ctx[k]);
      fib_ctx[k].uc_stack.ss_sp = stacks[k];
      fib_ctx[k].uc_stack.ss_size = sizeof stacks[k];
      fib_ctx[k].uc_link = &fib_main_ctx;
      makecontext (&fib_ctx[k], (void (*) ()) fib_loop, 1, k);
    }
  for (int i = 0; i < 1000; i++)
    swapcontext (&fib_main_ctx, &fib_ctx[i & 1]);
  if (n_fib_caught != 998)
    {
      std::printf ("the coroutines caught %lu exceptions, not 998\n", n_fib_caught);
      return 1;
    }
  for (int i = 0; i < 100; i++)
    s += after (i);
  for (int i = 0; i < 20; i++)
    s += prober (i);
  std::printf ("descend %lu\ncleanup %lu\ninner_throw %lu\nrethrower %lu\nguarded %lu\nafter %lu\n", n_descend, n_cleanup,
               n_inner_throw, n_rethrower, n_guarded, n_after);
  std::printf ("probe %lu\nprober %lu\ndeep_gone %lu\nfib_dive %lu\n", n_probe, n_prober, n_deep_gone, n_fib_dive);
  return 0;
}
