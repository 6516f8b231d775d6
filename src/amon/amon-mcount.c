/* amon-mcount.c — the -pg mode: the entry hook gcc -pg and clang -pg
 * already insert (`mcount`, or `__fentry__` with -mfentry), and returns
 * caught by swapping the routine's return address for a trampoline, the
 * technique of uftrace (namhyung/uftrace) and of the kernel's function
 * graph tracer.  Only routines that exist after inlining call the hook,
 * so a program pays for its real calls only (gcc's
 * -finstrument-functions calls the hooks at every inlined copy too).
 *
 * Each thread keeps a stack of the return addresses it swapped: the real
 * address, where it was (@slot, on the program's stack) and the routine.
 * The trampoline (amon-mcount-x86_64.S) finds its entry by the stack
 * pointer it returns with, tells the monitor of the return and jumps to
 * the real address.  What breaks the order of that stack, and the answer:
 *   - longjmp, siglongjmp: frames vanish without returning.  The next
 *     hook drops the entries whose slots lie below its own (deeper, so
 *     gone) and tells the monitor of their returns; a trampoline whose
 *     entry is not on top finds it below the dropped ones.
 *   - C++ exceptions: an unwinder looks return addresses up in unwind
 *     tables.  The trampoline's entry there has a personality routine
 *     (amon_pg_personality) that puts the real address back as the
 *     unwinder leaves a frame; with the shared library, the real
 *     addresses are also put back before it walks (amon-unwind.c) and
 *     swapped again once the exception is caught, the frames below the
 *     catch dropped.
 *   - tail calls: a routine that jumps to another leaves its return
 *     address (already swapped) to it; the callee's hook sees the
 *     trampoline there and replaces the caller's entry: the machine's
 *     stack holds the callee in the caller's place, and so does the
 *     profile (as in gprof, the callee is called from the caller's
 *     caller).
 *   - signals: a handler's calls nest inside whatever they interrupted;
 *     a hook that interrupts a hook is ignored (the busy flag, as in
 *     amon-monitor.c), and a handler that jumped out of a hook is
 *     recognised by where the next hook runs.
 *   - threads: one stack per thread, found by an initial-exec TLS
 *     pointer, returned at thread exit; fork: the child has a copy.
 *   - stacks that are not the thread's (sigaltstack, coroutines on their
 *     own stacks): entries more than AMON_STACK_WINDOW away are never
 *     taken for dead by a hook on another stack, unless they lie on the
 *     signal stack and the thread no longer runs there.  Coroutines'
 *     stacks closer together than that (CRuby's fibers, a few hundred
 *     kilobytes apart in one pool) cannot be told from one stack by their
 *     addresses: a dropped entry is parked by its slot (pg_park), and a
 *     trampoline that finds no entry takes the parked one's address.
 * Cost: the common call and return are a TLS load, two compares and the
 * entry written or dropped, besides the monitor's own work.
 */
#define _GNU_SOURCE 1

#include "amon-hook.h"

#ifdef AMON_HAVE_PG

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <ucontext.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "amon-mcount.h"
#include "amon-owner.h"
#include "amon-signal.h"
#include "amon-thread.h"

int amon_pg_active;
/* the monitor's clock is the sampling one: returns need not be seen when
 * they happen, so no address is swapped (see amon_pg_settle) */
int amon_pg_lazy;
#define pg_lazy amon_pg_lazy

/* a thread that cannot use the mode: always busy, never swaps; its
 * frame is a sentinel that the hot path can read without a test */
static amon_pg_frame pg_none = { .slot = UINTPTR_MAX };
static amon_pg_thread pg_disabled = { .busy = AMON_BUSY, .top = &pg_none, .limit = &pg_none + 1, .base = &pg_none };
static amon_pg_thread pg_unstarted = { .busy = AMON_BUSY, .top = &pg_none, .limit = &pg_none + 1, .base = &pg_none };
__thread amon_pg_thread *amon_pg_self __attribute__ ((tls_model ("initial-exec"))) = &pg_unstarted;
#define pg_self amon_pg_self

static pthread_once_t pg_once = PTHREAD_ONCE_INIT;
static pthread_key_t pg_key;
static int pg_keyed;

#define TRAMPOLINE ((uintptr_t) amon_pg_return)
#define PG_FIRST_CAP 1024
#define PG_MAX_CAP (1u << 24)
#define AMON_PG_PARK_WAYS 4
#define PG_PARK_FIRST_BITS 10
#define PG_PARK_MAX_BITS 18
#define PG_PARK_BYTES(bits) (((size_t) AMON_PG_PARK_WAYS << (bits)) * sizeof (amon_pg_parked))

AMON_FN static void
pg_thread_end (void *v)
{
  amon_pg_thread *p = v;
  /* the monitor's reason (amon-monitor.c, thread_end): the program's
   * routines that a later destructor calls are still hooked */
  if (p && p != &pg_disabled && p != &pg_unstarted && !p->busy && ++p->end_rounds < PTHREAD_DESTRUCTOR_ITERATIONS
      && pthread_setspecific (pg_key, p) == 0)
    return;
  pg_self = &pg_disabled;
  if (p && p != &pg_disabled && p != &pg_unstarted)
    {
      munmap (p->base, (size_t) (p->cap + 1) * sizeof *p->base);
      if (p->park)
        munmap (p->park, PG_PARK_BYTES (p->park_bits));
      munmap (p, sizeof *p);
    }
}

AMON_FN static void
pg_init (void)
{
  pg_keyed = pthread_key_create (&pg_key, pg_thread_end) == 0;
}

/* The calling thread's stack of swapped addresses; NULL when none. */
AMON_FN __attribute__ ((noinline, cold)) static amon_pg_thread *
pg_thread_start (void)
{
  pg_self = &pg_disabled; /* no reentry while setting up */
  amon_pg_active = 1;
  pthread_once (&pg_once, pg_init);
  amon_pg_thread *p = mmap (NULL, sizeof *p, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  memset (p, 0, sizeof *p);
  p->cap = PG_FIRST_CAP;
  p->base = mmap (NULL, (size_t) (p->cap + 1) * sizeof *p->base, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p->base == MAP_FAILED)
    {
      munmap (p, sizeof *p);
      return NULL;
    }
  /* the sentinel: the highest slot, never dead, never matched */
  p->base[0].slot = UINTPTR_MAX;
  p->top = p->base;
  p->limit = p->base + p->cap + 1;
  if (pg_keyed)
    pthread_setspecific (pg_key, p);
  pg_self = p;
  /* the monitor's set-up calibrates through these hooks: after pg_self */
  pg_lazy = amon_hook_start ();
  /* the unwind tables' index, found here and not first in a signal
   * handler (amon_hook_settle), where dl_iterate_phdr may not run */
  if (pg_lazy)
    amon_owner_init ();
  return p;
}

/* Doubles the stack; 0 when it cannot.  Only the thread itself and its
 * signal handlers touch it, and they are kept out by @busy. */
AMON_FN static int
pg_grow (amon_pg_thread *p)
{
  if (p->cap >= PG_MAX_CAP)
    return 0;
  uint32_t cap = p->cap * 2;
  amon_pg_frame *b = mmap (NULL, (size_t) (cap + 1) * sizeof *b, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (b == MAP_FAILED)
    return 0;
  size_t depth = (size_t) (p->top - p->base);
  memcpy (b, p->base, (depth + 1) * sizeof *b);
  munmap (p->base, (size_t) (p->cap + 1) * sizeof *p->base);
  p->base = b;
  p->top = b + depth;
  p->cap = cap;
  p->limit = b + cap + 1;
  return 1;
}

/* Whether @slot lies on the thread's alternate signal stack while the
 * thread, whose hook's slot is @s, does not run there: the handler that
 * ran there jumped out (siglongjmp).  An entry on any other stack is
 * kept: code that switches stacks itself (coroutines, swapcontext) comes
 * back to it.  The stack is asked of the kernel once for each change
 * the wrapper of sigaltstack(2) saw (each time in libamon.a): asked at
 * every slow hook, it took 79% of CPU time's system calls on CRuby 3.1's
 * fibers (11 a resume). */
AMON_FN static int
pg_left_altstack (amon_pg_thread *p, uintptr_t slot, uintptr_t s)
{
  unsigned set = __atomic_load_n (&amon_altstacks_set, __ATOMIC_ACQUIRE);
  if (!set || p->alt_seen != set)
    {
      stack_t ss;
      if (sigaltstack (NULL, &ss) != 0 || (ss.ss_flags & SS_DISABLE))
        p->alt_sp = p->alt_size = 0;
      else
        {
          p->alt_sp = (uintptr_t) ss.ss_sp;
          p->alt_size = ss.ss_size;
        }
      p->alt_seen = set;
    }
  return s - p->alt_sp >= p->alt_size && slot - p->alt_sp < p->alt_size;
}

/* Whether entry @f is of a frame that is gone, seen from a hook whose
 * slot is @s: on the same stack, it is deeper, or at the same place
 * without being the tail caller (@s holds no trampoline, or @f's address
 * was put back); on another, it is on the signal stack a handler left. */
AMON_FN static int
pg_dead (amon_pg_thread *p, const amon_pg_frame *f, uintptr_t s)
{
  if (f == p->base)
    return 0;
  if (amon_same_stack (f->slot, s))
    return f->slot < s || (f->slot == s && (*(uintptr_t *) s != TRAMPOLINE || f->restored));
  return pg_left_altstack (p, f->slot, s);
}

/* The set of a table of 2^@bits sets that @slot's entry would be in. */
AMON_FN static amon_pg_parked *
pg_park_set (amon_pg_parked *park, uint32_t bits, uintptr_t slot)
{
  return park + (((slot >> 3) * 0x9E3779B97F4A7C15ull) >> (64 - bits)) * AMON_PG_PARK_WAYS;
}

/* Puts @e in @park, in place of one of its slot; 0 when its set is full. */
AMON_FN static int
pg_park_put (amon_pg_parked *park, uint32_t bits, amon_pg_parked e)
{
  amon_pg_parked *set = pg_park_set (park, bits, e.slot), *empty = NULL;
  for (int i = 0; i < AMON_PG_PARK_WAYS; i++)
    {
      if (set[i].slot == e.slot)
        {
          set[i] = e;
          return 1;
        }
      if (!set[i].slot && !empty)
        empty = &set[i];
    }
  if (!empty)
    return 0;
  *empty = e;
  return 1;
}

/* A table twice as large with every parked entry of @p's, or the first;
 * 0 when it cannot be had. */
AMON_FN static int
pg_park_grow (amon_pg_thread *p)
{
  uint32_t bits = p->park ? p->park_bits + 1 : PG_PARK_FIRST_BITS;
  if (bits > PG_PARK_MAX_BITS)
    return 0;
  amon_pg_parked *m = mmap (NULL, PG_PARK_BYTES (bits), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return 0;
  if (p->park)
    {
      size_t n = (size_t) AMON_PG_PARK_WAYS << p->park_bits;
      for (size_t i = 0; i < n; i++)
        if (p->park[i].slot)
          (void) pg_park_put (m, bits, p->park[i]);
      munmap (p->park, PG_PARK_BYTES (p->park_bits));
    }
  p->park = m;
  p->park_bits = bits;
  return 1;
}

/* Keeps entry @f by its slot, off the stack of entries: one dropped as a
 * frame gone (@told: its return told to the monitor), which may not be
 * gone (a frame on a coroutine's stack near the thread's, or near another
 * coroutine's, is taken for one left by a jump when a hook runs on the
 * other stack, but its slot still holds the trampoline, which it returns
 * to when the coroutine is resumed: pg_unpark); or one of another stack
 * moved aside (pg_clear_top).  A later one of the same slot replaces it (the
 * slot's newest swap).  The table grows to 2^18 sets of 4 (24 MiB);
 * beyond that a full set gives up its ways in turn, and an entry lost so
 * brings back the abort. */
AMON_FN static void
pg_park (amon_pg_thread *p, const amon_pg_frame *f, int told)
{
  if (f->restored || (!p->park && !pg_park_grow (p)))
    return;
  amon_pg_parked e = { f->slot, f->ret, told ? NULL : f->fn };
  while (!pg_park_put (p->park, p->park_bits, e))
    if (!pg_park_grow (p))
      {
        amon_pg_parked *set = pg_park_set (p->park, p->park_bits, f->slot);
        set[p->park_next++ % AMON_PG_PARK_WAYS] = e;
        return;
      }
}

/* The parked entry of @slot, taken out: its real address (0 when none)
 * and its routine in *@fn, NULL when its return was told. */
AMON_FN static uintptr_t
pg_unpark (amon_pg_thread *p, uintptr_t slot, void **fn)
{
  if (!p->park)
    return 0;
  amon_pg_parked *set = pg_park_set (p->park, p->park_bits, slot);
  for (int i = 0; i < AMON_PG_PARK_WAYS; i++)
    if (set[i].slot == slot)
      {
        set[i].slot = 0;
        *fn = set[i].fn;
        return set[i].ret;
      }
  return 0;
}

/* Drops the entry on top, telling the monitor of its routine's return. */
AMON_FN static void
pg_drop (amon_pg_thread *p)
{
  amon_pg_frame *f = p->top;
  pg_park (p, f, 1);
  p->top = f - 1;
  amon_hook_exit (f->fn, (void *) f->ret, f->slot);
}

/* Clears the top of the stack of entries for a hook whose slot is @s:
 * drops the entries of frames gone (pg_dead), and moves those of another
 * stack (a coroutine's, left by a switch, or the thread's own under a
 * signal handler on its alternate stack) aside, their returns still
 * awaited: kept on top, they sent every later call and return of this
 * stack the slow way (CRuby 3.1's miniruby, 200,000 resumes of a fiber:
 * 2.9 s of CPU time where gprof's build took 0.1 s). */
AMON_FN static void
pg_clear_top (amon_pg_thread *p, uintptr_t s)
{
  for (;;)
    if (pg_dead (p, p->top, s))
      pg_drop (p);
    else if (p->top != p->base && !amon_same_stack (p->top->slot, s))
      {
        pg_park (p, p->top, 0);
        __atomic_signal_fence (__ATOMIC_SEQ_CST);
        p->top--;
      }
    else
      return;
}

/* A hook while @p was busy: a signal handler interrupted a hook (ignored),
 * or one jumped out of a hook (siglongjmp), which is over then: the hook
 * now runs at or above that one's stack address, on the same stack. */
AMON_FN static int
pg_left_by_jump (amon_pg_thread *p, uintptr_t s)
{
  uintptr_t busy = p->busy;
  if (busy == AMON_BUSY || busy == 0 || s < busy - 512 || !amon_same_stack (s, busy))
    return 0;
  p->busy = 0;
  return 1;
}

/* The sampling clock's way (pg_lazy): nothing is swapped, and a routine's
 * return is told when the next call or sample finds its frame gone; the
 * monitor keeps the only stack (amon_hook_enter_lazy), this one stays
 * empty.  A sample is charged to the context of the code it interrupted
 * once the frames below its stack pointer are popped. */
AMON_FN void
amon_pg_settle (void *ucontext)
{
  if (pg_lazy)
    amon_hook_settle ((uintptr_t) ((ucontext_t *) ucontext)->uc_mcontext.gregs[REG_RSP],
                      (uintptr_t) ((ucontext_t *) ucontext)->uc_mcontext.gregs[REG_RIP],
                      (uintptr_t) ((ucontext_t *) ucontext)->uc_mcontext.gregs[REG_RBP]);
}

/* Swaps the return address at @slot of a call of @fn for the
 * trampoline's, keeping it in a new entry (there is room). */
AMON_FN static void
pg_swap (amon_pg_thread *p, uintptr_t *slot, void *fn)
{
  amon_pg_frame *f = p->top + 1;
  f->ret = *slot;
  f->slot = (uintptr_t) slot;
  f->fn = fn;
  f->restored = 0;
  __atomic_signal_fence (__ATOMIC_SEQ_CST); /* the entry before the pointer to it */
  p->top = f;
  *slot = TRAMPOLINE;
}

/* A tail call from a frame at @s whose entry is not on top: a coroutine
 * resumed on its own stack, the entries of the stack it left above its
 * own, or its entry parked (pg_park).  The caller's entry, taken out
 * from where it is, becomes the callee's on top, so that its return
 * through the trampoline is told. */
AMON_FN static void
pg_tail_resumed (amon_pg_thread *p, uintptr_t s, void *fn)
{
  amon_pg_frame *f = p->top;
  while (f != p->base && !(f->slot == s && !f->restored))
    f--;
  uintptr_t ret;
  void *caller = NULL;
  if (f != p->base)
    {
      ret = f->ret;
      caller = f->fn;
      for (amon_pg_frame *g = f; g < p->top; g++)
        g[0] = g[1];
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
      p->top--;
    }
  else if (!(ret = pg_unpark (p, s, &caller)))
    return;
  if (caller)
    amon_hook_exit (caller, (void *) ret, s);
  amon_hook_enter (fn, (void *) ret, s);
  if (p->top + 1 == p->limit && !pg_grow (p))
    {
      /* no room: the slot gets its address back, the return goes untold */
      *(uintptr_t *) s = ret;
      return;
    }
  amon_pg_frame *e = p->top + 1;
  e->ret = ret;
  e->slot = s;
  e->fn = fn;
  e->restored = 0;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  p->top = e;
}

/* The rare cases of a call: the thread's first, frames left by a jump or
 * an exception, a tail call, a full stack; every call of the sampling
 * clock's way. */
AMON_FN __attribute__ ((noinline)) static void
pg_enter_slow (amon_pg_thread *p, uintptr_t *slot, void *fn)
{
  uintptr_t s = (uintptr_t) slot;
  if (p->busy)
    {
      if (p == &pg_unstarted)
        p = pg_thread_start ();
      else if (!pg_left_by_jump (p, s))
        {
          /* a signal handler's call, which interrupted a hook (not a
           * thread that cannot use the mode) */
          if (p->busy != AMON_BUSY)
            amon_hook_unseen ();
          return;
        }
      if (p == NULL)
        return;
    }
  p->busy = s;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  uintptr_t ret = *slot;
  if (pg_lazy)
    {
      p->busy = 0;
      amon_hook_enter_lazy (fn, (void *) ret, s);
      return;
    }
  pg_clear_top (p, s);
  if (ret == TRAMPOLINE)
    {
      /* a tail call: the callee takes the caller's place */
      amon_pg_frame *f = p->top;
      if (f != p->base && f->slot == s)
        {
          amon_hook_exit (f->fn, (void *) f->ret, s);
          f->fn = fn;
          amon_hook_enter (fn, (void *) f->ret, s);
        }
      else
        pg_tail_resumed (p, s, fn);
      p->busy = 0;
      return;
    }
  amon_hook_gone (s, TRAMPOLINE);
  amon_hook_enter (fn, (void *) ret, s);
  if (!amon_hook_told (s) && (p->top + 1 != p->limit || pg_grow (p)))
    pg_swap (p, slot, fn);
  p->busy = 0;
}

/* Called by the hooks (amon-mcount-x86_64.S): routine @fn was called and
 * its return address is at @slot. */
AMON_FN void
amon_pg_enter (uintptr_t *slot, void *fn)
{
  amon_pg_thread *p = pg_self;
  uintptr_t s = (uintptr_t) slot, ret = *slot;
  amon_pg_frame *f = p->top;
  /* profiling stopped: no return needs catching (amon-exact.c, halted) */
  if (AMON_UNLIKELY (__atomic_load_n (&amon_halt, __ATOMIC_RELAXED)))
    return;
  if (pg_lazy)
    {
      amon_hook_enter_lazy (fn, (void *) ret, s);
      return;
    }
  /* not busy, the entry on top (if any) is an ancestor's (above, on this
   * stack), not a tail call, room */
  if (AMON_UNLIKELY (p->busy | ((f != p->base) & (f->slot - s - 1 >= AMON_STACK_WINDOW - 1)) | (ret == TRAMPOLINE)
                     | (f + 1 == p->limit)))
    {
      pg_enter_slow (p, slot, fn);
      return;
    }
  p->busy = s;
  __atomic_signal_fence (__ATOMIC_SEQ_CST); /* busy before anything changes */
  amon_hook_gone (s, TRAMPOLINE);
  amon_hook_enter (fn, (void *) ret, s);
  /* the monitor knows whether the routine tells its returns */
  if (!amon_hook_told (s))
    pg_swap (p, slot, fn);
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  p->busy = 0;
}

AMON_FN static void
lost_return (void)
{
  static const char msg[] = "amon: a routine returned through the -pg mode's trampoline, but its return address"
                            " is not on the thread's stack of swapped addresses (it switched stacks in a way"
                            " amon cannot follow); aborting\n";
  ssize_t w = write (STDERR_FILENO, msg, sizeof msg - 1);
  (void) w;
  abort ();
}

/* The trampoline's rare case: its entry is not on top.  Entries above it
 * on the same stack are of frames gone by a jump (dropped, their returns
 * told); entries on other stacks (coroutines) are put aside.  No entry:
 * the frame's was parked (pg_park), taken for a frame gone while it lived
 * on another stack (its return told then) or put aside at a switch (its
 * return told now). */
AMON_FN __attribute__ ((noinline)) static uintptr_t
pg_exit_slow (amon_pg_thread *p, uintptr_t s)
{
  amon_pg_frame *f = p->top;
  while (f != p->base && !(f->slot == s && !f->restored))
    f--;
  int tell = !p->busy || pg_left_by_jump (p, s);
  if (f == p->base)
    {
      void *parked_fn = NULL;
      uintptr_t parked = tell ? pg_unpark (p, s, &parked_fn) : 0;
      if (!parked)
        lost_return ();
      if (parked_fn)
        {
          p->busy = s;
          __atomic_signal_fence (__ATOMIC_SEQ_CST);
          amon_hook_exit (parked_fn, (void *) parked, s);
          __atomic_signal_fence (__ATOMIC_SEQ_CST);
          p->busy = 0;
        }
      return parked;
    }
  uintptr_t ret = f->ret;
  void *fn = f->fn;
  if (tell)
    p->busy = s;
  /* the returns of those above @f on this stack, the deepest first;
   * those on other stacks are moved aside (pg_clear_top), or kept, in
   * order, under a hook that this one interrupted */
  if (tell)
    {
      for (amon_pg_frame *g = p->top; g > f; g--)
        {
          int here = amon_same_stack (g->slot, s);
          pg_park (p, g, here);
          if (here)
            amon_hook_exit (g->fn, (void *) g->ret, g->slot);
        }
    }
  amon_pg_frame *to = f;
  if (!tell)
    for (amon_pg_frame *g = f + 1; g <= p->top; g++)
      if (!amon_same_stack (g->slot, s))
        *to++ = *g;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  p->top = to - 1;
  if (tell)
    {
      amon_hook_exit (fn, (void *) ret, s);
      p->busy = 0;
    }
  return ret;
}

/* Called by the trampoline with the stack pointer it was returned to
 * with: the routine whose return address was at @sp - 8 returned.
 * Returns the real return address. */
AMON_FN uintptr_t
amon_pg_exit (uintptr_t sp)
{
  amon_pg_thread *p = pg_self;
  uintptr_t s = sp - 8;
  amon_pg_frame *f = p->top;
  if (AMON_UNLIKELY ((f->slot != s) | p->busy))
    return pg_exit_slow (p, s);
  p->busy = s;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  uintptr_t ret = f->ret;
  p->top = f - 1;
  amon_hook_exit (f->fn, (void *) ret, s);
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  p->busy = 0;
  return ret;
}

/* Called by `__return__` (amon-mcount-x86_64.S) when amon_pg_leave_exact
 * could not: the routine whose return address is at @s returns, telling
 * it itself.  Entries of frames gone below it are dropped, their returns
 * told; its own, when its address was swapped before the monitor knew it
 * tells its returns, is dropped and the address put back, so that its
 * return goes straight to its caller. */
AMON_FN void
amon_pg_leave (uintptr_t s)
{
  amon_pg_thread *p = pg_self;
  if (p->busy && !pg_left_by_jump (p, s))
    return;
  p->busy = s;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  pg_clear_top (p, s);
  amon_pg_frame *f = p->top;
  if (f != p->base && f->slot == s && !f->restored && *(uintptr_t *) s == TRAMPOLINE)
    {
      *(uintptr_t *) s = f->ret;
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
      p->top = f - 1;
    }
  amon_hook_leave (s);
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  p->busy = 0;
}

/* ---- for the unwinder (amon-unwind.c) ---- */

AMON_FN void
amon_pg_unhook (uintptr_t sp)
{
  amon_pg_thread *p = pg_self;
  if (p == &pg_unstarted || p == &pg_disabled)
    return;
  for (amon_pg_frame *f = p->top; f != p->base; f--)
    if (!f->restored && amon_same_stack (f->slot, sp) && f->slot >= sp && *(uintptr_t *) f->slot == TRAMPOLINE)
      {
        *(uintptr_t *) f->slot = f->ret;
        f->restored = 1;
      }
}

AMON_FN void
amon_pg_unwound (uintptr_t sp)
{
  amon_pg_thread *p = pg_self;
  if (p == &pg_unstarted || p == &pg_disabled)
    return;
  int tell = !p->busy || pg_left_by_jump (p, sp);
  if (tell)
    p->busy = sp;
  /* frames below the catching one are gone: those swapped told as
   * returned, the deepest first, then any that told their own returns
   * (and so were not swapped), which the monitor alone knows */
  while (p->top != p->base && amon_same_stack (p->top->slot, sp) && p->top->slot < sp)
    {
      if (tell)
        pg_drop (p);
      else
        p->top--;
    }
  if (tell)
    {
      amon_hook_unwound (sp);
      p->busy = 0;
    }
}

AMON_FN void
amon_pg_rehook (uintptr_t sp)
{
  amon_pg_thread *p = pg_self;
  if (p == &pg_unstarted || p == &pg_disabled)
    return;
  amon_pg_unwound (sp);
  int tell = !p->busy || pg_left_by_jump (p, sp);
  if (tell)
    p->busy = sp;
  for (amon_pg_frame *f = p->top; f != p->base; f--)
    if (f->restored && amon_same_stack (f->slot, sp) && *(uintptr_t *) f->slot == f->ret)
      {
        *(uintptr_t *) f->slot = TRAMPOLINE;
        f->restored = 0;
      }
  if (tell)
    p->busy = 0;
}

/* The personality routine of the trampoline's unwind entry
 * (amon-mcount-x86_64.S): an unwinder that reached a frame whose return
 * address is the trampoline's, to leave it (the frame is one an
 * exception or a forced unwind destroys: personalities run only there).
 * The real address goes back into the slot, where the entry's rule reads
 * it; the entry stays, its frame's return told at the next hook, as
 * after a longjmp.  The CFA, which libgcc's and LLVM's unwinders give as
 * the slot's address + 8, comes from whichever unwinder is linked
 * (weak: a C program need not link one, and a libgcc that glibc opened
 * itself is not in the lookup scope; then the walk ends there). */
struct _Unwind_Context;
struct _Unwind_Exception;
extern uintptr_t _Unwind_GetCFA (struct _Unwind_Context *) __attribute__ ((weak));

int amon_pg_personality (int version, int actions, uint64_t cls, struct _Unwind_Exception *e,
                         struct _Unwind_Context *c) AMON_FN AMON_HIDDEN;

int
amon_pg_personality (int version, int actions, uint64_t cls, struct _Unwind_Exception *e,
                     struct _Unwind_Context *c)
{
  (void) version;
  (void) actions;
  (void) cls;
  (void) e;
  if (_Unwind_GetCFA != NULL)
    {
      amon_pg_thread *p = pg_self;
      uintptr_t s = _Unwind_GetCFA (c) - 8;
      amon_pg_frame *f = p->top;
      while (f != p->base && !(f->slot == s && !f->restored && *(uintptr_t *) s == TRAMPOLINE))
        f--;
      if (f != p->base)
        {
          *(uintptr_t *) s = f->ret;
          f->restored = 1;
        }
      else if (*(uintptr_t *) s == TRAMPOLINE)
        {
          /* a frame whose entry was parked (a coroutine's, moved aside
           * at a switch): its address back, its entry gone with it */
          void *fn;
          uintptr_t ret = pg_unpark (p, s, &fn);
          if (ret)
            *(uintptr_t *) s = ret;
        }
    }
  return 8; /* _URC_CONTINUE_UNWIND */
}

/* ---- glibc's gmon, which a program linked with -pg starts ----
 * gcrt1.o calls __monstartup (gmon's buffers and a profil(3) SIGPROF
 * timer) and registers _mcleanup (writes gmon.out).  The monitor writes
 * amon.out instead, and its sampling clock has SIGPROF: these take their
 * place when libamon comes before libc on the link line. */

void __monstartup (unsigned long lowpc, unsigned long highpc) AMON_FN __attribute__ ((visibility ("default")));
void monstartup (unsigned long lowpc, unsigned long highpc) AMON_FN __attribute__ ((visibility ("default"), alias ("__monstartup")));
void _mcleanup (void) AMON_FN __attribute__ ((visibility ("default")));
void moncontrol (int mode) AMON_FN __attribute__ ((visibility ("default")));

void
__monstartup (unsigned long lowpc, unsigned long highpc)
{
  (void) lowpc;
  (void) highpc;
}

void
_mcleanup (void)
{
}

void
moncontrol (int mode)
{
  (void) mode;
}

#endif
