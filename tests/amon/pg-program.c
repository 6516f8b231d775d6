/* pg-program.c — a program for libamon's -pg mode (tests/cli/amon-pg.sh),
 * built with -pg (or -pg -mfentry) and linked with -lamon.  Each mode
 * exercises one way a return can go other than by `ret`, and the
 * program counts its own calls, so that the test can hold the profile's
 * call counts against the program's: it prints "NAME COUNT" for each
 * counted routine.
 *
 *   recursive  a binary recursion and a mutual one
 *   longjmp    longjmp out of deep recursion, many times, then calls
 *   samesite   a routine called from one site in a loop longjmps straight
 *              back to its caller every other time: its frame, left at the same
 *              place with the same return address, is not the next one's
 *              caller
 *   siglongjmp a signal handler (on sigaltstack) siglongjmps out
 *   signals    handlers that call routines, raised deep in a recursion,
 *              and a timer interrupting everything (hooks included)
 *   threads    four threads at once, each calling routines from a key's
 *              destructor as it exits
 *   fork       a child that calls, and exits; the parent calls after
 *   vfork      a hundred children of vfork(2), each calling a routine
 *              (on the parent's memory) before it execs a shell that
 *              exits, the parent waiting for it; the parent's CPU time:
 *              "time_vfork NS"
 *   exit       exit(3) from deep inside
 *   tail       tail calls (a jump to another routine)
 *   timed      the recursions with costly leaves, each phase timed by the
 *              thread's CPU clock: "time_walk NS", "time_even NS"
 *   settle     a routine that calls a tiny one and then works long itself:
 *              samples taken after the tiny one returned are its caller's
 *   coroutines a coroutine on a stack of its own (swapcontext) yields from
 *              deep inside, a thousand times, to a recursion on the main one
 *   fibers     two coroutines on stacks side by side in one allocation (as
 *              CRuby's fibers are, from one pool), resumed in turn; each
 *              yields from deep inside and, resumed, ends its yield with a
 *              tail call: a stack's frames lie within a few kilobytes of
 *              the other's, where they look like frames left by a jump
 *   backtrace  backtrace(3) from deep inside a recursion: "frames N"
 *   empty      a million calls of a routine that does nothing, timed by the
 *              thread's CPU clock: "time_empty NS"; emptylong: 30 million
 *   freedstack a routine left on a coroutine's stack (it switched back
 *              without returning), the stack unmapped, then calls on the
 *              thread's own: the stack lies just above the thread's, where
 *              a frame above a call looks like a caller; "placed 1" when it
 *              could be put there
 *   stackargs  calls that pass arguments on the stack (seven, eight and
 *              nine integers: gcc pads the stack before an odd number of
 *              them, right where the return address of the call before
 *              was, or pushes one there),
 *              each after a call of a sibling that returned; and qsort(3)'s
 *              recursion calling back a comparison that calls a leaf
 *   callback   a library's recursion (built without hooks, as libc's
 *              qsort(3) is) calls back a visitor that calls a leaf, then
 *              goes deeper and calls back again: the leaf's return
 *              address stays in its slot, in the library's frame, above
 *              the next callback's
 *   plugin PATH  loads the shared object PATH (pg-plugin.c) by dlopen(3)
 *              after the first calls and runs it: "plug_padder N" and so
 *              on, its counts
 *   recpad     a recursion whose routine, after each recursive call,
 *              calls routines that take nine arguments (three on the
 *              stack, padded right over the recursive call's return
 *              address), through a routine between
 *   registers  a caller that keeps values in every call-clobbered register
 *              but %rax across calls of a routine that writes only %eax,
 *              as gcc's -fipa-ra makes one of a routine in the same unit
 *              (mujs 1.3.2's regexp parser): "regs_kept N", the calls
 *              after which all were as before; the routine (reg_leaf)
 *              returns plainly, and as -minstrument-return=call makes it
 *              (reg_leaf_told); the program linked with -z now
 *   vectors    the same with the whole vector state: the full width of
 *              every AVX register (%ymm0-15, or %zmm0-31 and the mask
 *              registers %k1-7 with AVX-512) and the x87 stack's top
 *              (a long double being returned), across calls of three
 *              routines in turn that one set of a context's small cache
 *              cannot hold (its growth) and the first calls of 64
 *              routines each way (the monitor's rare path, which calls
 *              the C library, whose memory functions use them):
 *              "vec_kind K" (0 none, 1 AVX, 2 AVX-512), "vec_kept N"
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define NOINLINE __attribute__ ((noinline, noclone))
#define COUNT(name) __atomic_add_fetch (&n_##name, 1, __ATOMIC_RELAXED)

static unsigned long n_leaper, n_co_work, n_yield_back, n_main_work, n_tiny, n_settler, n_walk, n_leaf, n_even, n_odd, n_deep, n_after, n_jumper, n_handler_work, n_worker, n_child_only,
    n_parent_only, n_tail_a, n_tail_b, n_alarm_work, n_sibling, n_many7, n_many8, n_many9, n_padder, n_stranded, n_after_free, n_stacker, n_compare, n_cmp_leaf,
    n_visit, n_visit_leaf, n_visitor, n_recpad, n_fib_work, n_fib_yield, n_fib_after, n_fib_resume;
static volatile long sink;
static int spin = 20;

NOINLINE static long
leaf (long x)
{
  COUNT (leaf);
  for (volatile int i = 0; i < spin; i++)
    sink += i;
  return x + 1;
}

/* 2^(d+1) - 1 calls of walk, 2^d of leaf */
NOINLINE static long
walk (int d)
{
  COUNT (walk);
  if (d == 0)
    return leaf (d);
  long r = walk (d - 1);
  sink = r;
  r += walk (d - 1);
  sink = r;
  return r;
}

NOINLINE static long odd (int n);

NOINLINE static long
even (int n)
{
  COUNT (even);
  long r = n == 0 ? leaf (n) : odd (n - 1);
  sink = r;
  return r;
}

NOINLINE static long
odd (int n)
{
  COUNT (odd);
  long r = n == 0 ? leaf (n) : even (n - 1);
  sink = r;
  return r;
}

static jmp_buf back;
static sigjmp_buf sigback;

NOINLINE static long
deep (int d, int how)
{
  COUNT (deep);
  if (d == 0)
    {
      if (how == 0)
        longjmp (back, 1);
      if (how == 1)
        raise (SIGUSR2); /* the handler siglongjmps */
      if (how == 2)
        raise (SIGUSR1); /* the handler returns */
      if (how == 3)
        exit (3);
      return leaf (d);
    }
  long r = deep (d - 1, how);
  sink = r;
  return r;
}

NOINLINE static long
after (long x)
{
  COUNT (after);
  sink = x;
  return x * 2;
}

/* every other call longjmps back to its caller, which calls it again
 * from the same site; the others return (so that the monitor has seen it
 * tell a return, in a build that has it tell them) */
NOINLINE static void
leaper (int i)
{
  COUNT (leaper);
  sink = i;
  if (i & 1)
    longjmp (back, 1);
}

/* calls deep, which longjmps back here */
NOINLINE static int
jumper (int how)
{
  COUNT (jumper);
  if (how == 0 ? setjmp (back) == 0 : sigsetjmp (sigback, 1) == 0)
    deep (100, how);
  return 1;
}

NOINLINE static void
handler_work (void)
{
  COUNT (handler_work);
  walk (3);
}

static void
on_usr1 (int sig)
{
  (void) sig;
  handler_work ();
}

static void
on_usr2 (int sig)
{
  (void) sig;
  handler_work ();
  siglongjmp (sigback, 1);
}

NOINLINE static void
alarm_work (void)
{
  COUNT (alarm_work);
  leaf (1);
}

static void
on_alarm (int sig)
{
  (void) sig;
  alarm_work ();
}

static ucontext_t main_ctx, co_ctx;

NOINLINE static void
yield_back (void)
{
  COUNT (yield_back);
  swapcontext (&co_ctx, &main_ctx);
}

NOINLINE static long
co_work (int d)
{
  COUNT (co_work);
  if (d == 0)
    {
      yield_back ();
      return 1;
    }
  long r = co_work (d - 1);
  sink = r;
  return r + 1;
}

static void
co_main (void)
{
  for (int i = 0; i < 1000; i++)
    sink += co_work (5);
}

/* resumes the coroutine from some depth */
NOINLINE static long
main_work (int d)
{
  COUNT (main_work);
  if (d == 0)
    {
      swapcontext (&main_ctx, &co_ctx);
      return 1;
    }
  long r = main_work (d - 1);
  sink = r;
  return r + 1;
}

/* the fibers: two stacks of 64 KiB side by side */
static ucontext_t fib_main_ctx, fib_ctx[2];

NOINLINE static long
fib_after (int k)
{
  COUNT (fib_after);
  sink = k;
  return k;
}

/* a tail call once resumed (the resumed frame's return address is the
 * trampoline's, its entry not on top) */
NOINLINE static long
fib_yield (int k)
{
  COUNT (fib_yield);
  swapcontext (&fib_ctx[k], &fib_main_ctx);
  return fib_after (k);
}

NOINLINE static long
fib_work (int k, int d)
{
  COUNT (fib_work);
  long r = d == 0 ? fib_yield (k) : fib_work (k, d - 1);
  sink = r;
  return r + 1;
}

static void
fib_main (int k)
{
  for (;;)
    sink += fib_work (k, 4);
}

NOINLINE static void
fib_resume (int k)
{
  COUNT (fib_resume);
  swapcontext (&fib_main_ctx, &fib_ctx[k]);
}

NOINLINE static int
traced (int d)
{
  if (d == 0)
    {
      void *b[64];
      return backtrace (b, 64);
    }
  int r = traced (d - 1);
  sink = r;
  return r;
}

NOINLINE static long
nothing (long x)
{
  __asm__ volatile ("" : "+r" (x));
  return x;
}

NOINLINE static long
tiny (long x)
{
  COUNT (tiny);
  return x + 1;
}

/* nearly all of its time is its own, after tiny returned */
NOINLINE static long
settler (int n)
{
  COUNT (settler);
  long s = 0;
  for (int i = 0; i < n; i++)
    {
      s += tiny (i);
      for (volatile int k = 0; k < 100000; k++)
        sink += k;
    }
  return s;
}

/* The threads mode's key, whose destructor calls routines as a thread
 * exits, perhaps after the monitor's own destructor (Tcl's thread data). */
static pthread_key_t exit_key;

NOINLINE static long
at_thread_exit (long x)
{
  return walk (3) + x;
}

static void
exit_key_dtor (void *value)
{
  sink += at_thread_exit ((long) value);
}

static void *
worker (void *arg)
{
  COUNT (worker);
  pthread_setspecific (exit_key, arg);
  long s = 0;
  for (int i = 0; i < 5; i++)
    s += walk (8);
  return (void *) (s + (long) arg);
}

NOINLINE static long
child_only (long x)
{
  COUNT (child_only);
  return walk (2) + x;
}

NOINLINE static long
parent_only (long x)
{
  COUNT (parent_only);
  return walk (2) + x;
}

NOINLINE static long
tail_b (long x)
{
  COUNT (tail_b);
  sink = x;
  return x + 3;
}

/* ends in a jump to tail_b at -O2 */
NOINLINE static long
tail_a (long x)
{
  COUNT (tail_a);
  sink = x;
  return tail_b (x + 1);
}

/* external, so that no compiler drops or moves their arguments */
NOINLINE long many7 (long a, long b, long c, long d, long e, long f, long g);
NOINLINE long many8 (long a, long b, long c, long d, long e, long f, long g, long h);
NOINLINE long many9 (long a, long b, long c, long d, long e, long f, long g, long h, long i);

NOINLINE long
many7 (long a, long b, long c, long d, long e, long f, long g)
{
  COUNT (many7);
  return a + b + c + d + e + f + g;
}

NOINLINE long
many8 (long a, long b, long c, long d, long e, long f, long g, long h)
{
  COUNT (many8);
  return a + b + c + d + e + f + g + h;
}

NOINLINE long
many9 (long a, long b, long c, long d, long e, long f, long g, long h, long i)
{
  COUNT (many9);
  return a + b + c + d + e + f + g + h + i;
}

NOINLINE static long
sibling (long x)
{
  COUNT (sibling);
  sink = x;
  return x + 1;
}

static ucontext_t fs_main, fs_co;

NOINLINE static void
stranded (void)
{
  COUNT (stranded);
  swapcontext (&fs_co, &fs_main); /* never resumed */
}

NOINLINE static long
after_free (long x)
{
  COUNT (after_free);
  sink = x;
  return x + 1;
}

/* a coroutine's stack mapped 64 MiB above this thread's stack pointer */
static long
freed_stack (void)
{
  size_t size = 1 << 20;
  uintptr_t at = ((uintptr_t) __builtin_frame_address (0) + (64u << 20)) & ~(uintptr_t) 0xfffff;
  void *stack = mmap ((void *) at, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (stack == MAP_FAILED || stack != (void *) at)
    {
      printf ("placed 0\n");
      return 0;
    }
  printf ("placed 1\n");
  getcontext (&fs_co);
  fs_co.uc_stack.ss_sp = stack;
  fs_co.uc_stack.ss_size = size;
  fs_co.uc_link = &fs_main;
  makecontext (&fs_co, stranded, 0);
  swapcontext (&fs_main, &fs_co);
  munmap (stack, size);
  long s = 0;
  for (int i = 0; i < 1000; i++)
    s += after_free (i);
  return s;
}

/* the stack aligned at the sibling's call, so padded before many9's
 * three pushes, right over the sibling's return address */
NOINLINE static long
padder (long x)
{
  COUNT (padder);
  long s = sibling (x);
  return many9 (x, s, 2, 3, 4, 5, 6, 7, 8) + 1;
}

NOINLINE static long
stacker (int n)
{
  COUNT (stacker);
  long s = 0;
  for (int i = 0; i < n; i++)
    {
      s += sibling (i);
      s += many7 (s, i, 2, 3, 4, 5, 6);
      s += sibling (s);
      s += many8 (i, s, 2, 3, 4, 5, 6, 7);
      s += padder (s);
    }
  return s;
}

NOINLINE static long
cmp_leaf (long x)
{
  COUNT (cmp_leaf);
  sink = x;
  return x;
}

static int
compare (const void *a, const void *b)
{
  COUNT (compare);
  long x = cmp_leaf (*(const long *) a), y = cmp_leaf (*(const long *) b);
  return (x > y) - (x < y);
}

NOINLINE static long
sorter (int n)
{
  long v[64];
  for (int i = 0; i < 64; i++)
    v[i] = (i * 37 + n) % 64;
  qsort (v, 64, sizeof *v, compare);
  return v[0] + v[63];
}

/* many9's calls after a recursive call, whose return address the padding
 * before many9's three stacked arguments leaves in its slot */
NOINLINE static long
recpad (int d)
{
  COUNT (recpad);
  long s = d > 0 ? recpad (d - 1) : 0;
  return many9 (d, s, 2, 3, 4, 5, 6, 7, 8) + 1;
}

NOINLINE static long
visit_leaf (long *w)
{
  COUNT (visit_leaf);
  return w[0] + w[15];
}

/* a frame of 16 words under the library's, so that the leaf's return
 * address lies deep in the library's next frame */
NOINLINE static void
visit (int depth)
{
  COUNT (visit);
  long w[16];
  for (int i = 0; i < 16; i++)
    w[i] = depth + i;
  sink += visit_leaf (w);
}

/* a library's recursion, built without hooks: a call back between two
 * descents, as a merge sort's merge between its halves; its frames hold
 * a buffer written only when asked (never here), where the return
 * addresses of the visitor's calls stay after it returned */
__attribute__ ((noinline, noclone, no_instrument_function)) static void
lib_descend (int depth, void (*cb) (int), volatile char *copy)
{
  char buf[512];
  if (copy)
    {
      memcpy (buf, (const char *) copy, sizeof buf);
      memcpy ((char *) copy, buf, sizeof buf);
    }
  if (depth > 0)
    lib_descend (depth - 1, cb, copy);
  cb (depth);
  if (depth > 0)
    lib_descend (depth - 1, cb, copy);
}

/* through a variable: no compiler calls the visitor directly */
static void (*volatile visit_fn) (int) = visit;

NOINLINE static long
visitor (int depth)
{
  COUNT (visitor);
  lib_descend (depth, visit_fn, NULL);
  sink += depth; /* not a tail call */
  return 1;
}

static void
handle (int sig, void (*fn) (int), int onstack)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = fn;
  sa.sa_flags = onstack ? SA_ONSTACK : 0;
  sigemptyset (&sa.sa_mask);
  sigaction (sig, &sa, NULL);
}

static long
cpu_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* The vfork mode's child, on its parent's memory until the exec. */
NOINLINE static void
vfork_exec (void)
{
  execl ("/bin/sh", "sh", "-c", ":", (char *) NULL);
  _exit (127);
}

NOINLINE static long
vfork_spawn (void)
{
  pid_t pid = vfork ();
  if (pid == 0)
    vfork_exec ();
  int status = 1;
  if (pid > 0)
    waitpid (pid, &status, 0);
  return status + walk (2);
}

/* The registers mode's routines, in assembly since the register allocator
 * decides what a C caller keeps.  reg_leaf and reg_leaf_told are what gcc
 * -O2 -pg -mfentry (and -minstrument-return=call) make of
 * `int f (int x) { return x + 1; }`.  reg_keeper (routine) loads marks in
 * %rcx, %rdx, %rsi, %rdi, %r8-%r11 and %xmm0-%xmm15, calls routine
 * (which hooks, and with the exact clock a trampoline, surround) and
 * returns 1 when every one still holds its mark and %eax is the mark
 * of %edi plus one, else 0.  __fentry__ is called through the GOT, as
 * gcc calls it in a PIE, __return__ through the PLT, as gcc calls it: a
 * first call through a lazily bound PLT entry runs the dynamic linker's
 * resolver, which does not keep %r10 and %r11, so the program must be
 * linked as amon.pc says (-z now: bound at start). */
#if defined(__x86_64__)
__asm__ (
  "	.text\n"
  "	.p2align 4\n"
  "	.type reg_leaf, @function\n"
  "reg_leaf:\n"
  "	call *__fentry__@GOTPCREL(%rip)\n"
  "	leal 1(%rdi), %eax\n"
  "	ret\n"
  "	.size reg_leaf, . - reg_leaf\n"
  "	.p2align 4\n"
  "	.type reg_leaf_told, @function\n"
  "reg_leaf_told:\n"
  "	call *__fentry__@GOTPCREL(%rip)\n"
  "	leal 1(%rdi), %eax\n"
  "	call __return__@PLT\n"
  "	ret\n"
  "	.size reg_leaf_told, . - reg_leaf_told\n"
  "	.p2align 4\n"
  "	.type reg_keeper, @function\n"
  "reg_keeper:\n"
  "	pushq %rbx\n"
  "	movq %rdi, %rbx\n"
  "	movl $0x1001, %ecx\n"
  "	movl $0x1002, %edx\n"
  "	movl $0x1003, %esi\n"
  "	movl $0x1004, %edi\n"
  "	movl $0x1005, %r8d\n"
  "	movl $0x1006, %r9d\n"
  "	movl $0x1007, %r10d\n"
  "	movl $0x1008, %r11d\n"
  "	movl $0x2000, %eax\n"
  "	movq %rax, %xmm0\n"
  "	incl %eax\n	movq %rax, %xmm1\n"
  "	incl %eax\n	movq %rax, %xmm2\n"
  "	incl %eax\n	movq %rax, %xmm3\n"
  "	incl %eax\n	movq %rax, %xmm4\n"
  "	incl %eax\n	movq %rax, %xmm5\n"
  "	incl %eax\n	movq %rax, %xmm6\n"
  "	incl %eax\n	movq %rax, %xmm7\n"
  "	incl %eax\n	movq %rax, %xmm8\n"
  "	incl %eax\n	movq %rax, %xmm9\n"
  "	incl %eax\n	movq %rax, %xmm10\n"
  "	incl %eax\n	movq %rax, %xmm11\n"
  "	incl %eax\n	movq %rax, %xmm12\n"
  "	incl %eax\n	movq %rax, %xmm13\n"
  "	incl %eax\n	movq %rax, %xmm14\n"
  "	incl %eax\n	movq %rax, %xmm15\n"
  "	call *%rbx\n"
  "	cmpl $0x1005, %eax\n	jne 1f\n"
  "	cmpq $0x1001, %rcx\n	jne 1f\n"
  "	cmpq $0x1002, %rdx\n	jne 1f\n"
  "	cmpq $0x1003, %rsi\n	jne 1f\n"
  "	cmpq $0x1004, %rdi\n	jne 1f\n"
  "	cmpq $0x1005, %r8\n	jne 1f\n"
  "	cmpq $0x1006, %r9\n	jne 1f\n"
  "	cmpq $0x1007, %r10\n	jne 1f\n"
  "	cmpq $0x1008, %r11\n	jne 1f\n"
  "	movq %xmm0, %rax\n	cmpq $0x2000, %rax\n	jne 1f\n"
  "	movq %xmm1, %rax\n	cmpq $0x2001, %rax\n	jne 1f\n"
  "	movq %xmm2, %rax\n	cmpq $0x2002, %rax\n	jne 1f\n"
  "	movq %xmm3, %rax\n	cmpq $0x2003, %rax\n	jne 1f\n"
  "	movq %xmm4, %rax\n	cmpq $0x2004, %rax\n	jne 1f\n"
  "	movq %xmm5, %rax\n	cmpq $0x2005, %rax\n	jne 1f\n"
  "	movq %xmm6, %rax\n	cmpq $0x2006, %rax\n	jne 1f\n"
  "	movq %xmm7, %rax\n	cmpq $0x2007, %rax\n	jne 1f\n"
  "	movq %xmm8, %rax\n	cmpq $0x2008, %rax\n	jne 1f\n"
  "	movq %xmm9, %rax\n	cmpq $0x2009, %rax\n	jne 1f\n"
  "	movq %xmm10, %rax\n	cmpq $0x200a, %rax\n	jne 1f\n"
  "	movq %xmm11, %rax\n	cmpq $0x200b, %rax\n	jne 1f\n"
  "	movq %xmm12, %rax\n	cmpq $0x200c, %rax\n	jne 1f\n"
  "	movq %xmm13, %rax\n	cmpq $0x200d, %rax\n	jne 1f\n"
  "	movq %xmm14, %rax\n	cmpq $0x200e, %rax\n	jne 1f\n"
  "	movq %xmm15, %rax\n	cmpq $0x200f, %rax\n	jne 1f\n"
  "	movl $1, %eax\n"
  "	popq %rbx\n"
  "	ret\n"
  "1:	xorl %eax, %eax\n"
  "	popq %rbx\n"
  "	ret\n"
  "	.size reg_keeper, . - reg_keeper\n");
int reg_keeper (int (*routine) (int));
int reg_leaf (int);
int reg_leaf_told (int);

/* The vectors mode's routines.  vec_leaves and vec_leaves_told are 64
 * routines each like reg_leaf and reg_leaf_told, 16 bytes apart.
 * vec_keeper (routine, marks, out, kind) loads the vector registers from
 * @marks (64 bytes a register; %ymm0-15 when @kind is 1, %zmm0-31 and
 * %k1-7, from marks + 2048, when it is 2) and pushes the long double at
 * marks + 2112 onto the x87 stack, calls routine (41), and stores them
 * the same way into @out (the x87 top popped); returns routine's
 * result. */
__asm__ (
  "	.text\n"
  "	.p2align 4\n"
  "	.type vec_leaves, @function\n"
  "vec_leaves:\n"
  "	.rept 64\n"
  "	.p2align 4\n"
  "	call *__fentry__@GOTPCREL(%rip)\n"
  "	leal 1(%rdi), %eax\n"
  "	ret\n"
  "	.endr\n"
  "	.size vec_leaves, . - vec_leaves\n"
  "	.p2align 4\n"
  "	.type vec_leaves_told, @function\n"
  "vec_leaves_told:\n"
  "	.rept 64\n"
  "	.p2align 4\n"
  "	call *__fentry__@GOTPCREL(%rip)\n"
  "	leal 1(%rdi), %eax\n"
  "	call __return__@PLT\n"
  "	ret\n"
  "	.endr\n"
  "	.size vec_leaves_told, . - vec_leaves_told\n"
  "	.p2align 4\n"
  "	.type vec_keeper, @function\n"
  "vec_keeper:\n"
  "	pushq %rbx\n"
  "	pushq %r12\n"
  "	pushq %r13\n"
  "	movq %rdi, %rbx\n"
  "	movq %rdx, %r12\n"
  "	movl %ecx, %r13d\n"
  "	fldt 2112(%rsi)\n"
  "	cmpl $2, %r13d\n"
  "	jb 1f\n"
  "	.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
  "	vmovdqu64 \\i*64(%rsi), %zmm\\i\n"
  "	.endr\n"
  "	.irp i, 1,2,3,4,5,6,7\n"
  "	kmovq 2048+\\i*8(%rsi), %k\\i\n"
  "	.endr\n"
  "	jmp 2f\n"
  "1:\n"
  "	.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
  "	vmovdqu \\i*64(%rsi), %ymm\\i\n"
  "	.endr\n"
  "2:\n"
  "	movl $41, %edi\n"
  "	call *%rbx\n"
  "	fstpt 2112(%r12)\n"
  "	cmpl $2, %r13d\n"
  "	jb 3f\n"
  "	.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
  "	vmovdqu64 %zmm\\i, \\i*64(%r12)\n"
  "	.endr\n"
  "	.irp i, 1,2,3,4,5,6,7\n"
  "	kmovq %k\\i, 2048+\\i*8(%r12)\n"
  "	.endr\n"
  "	jmp 4f\n"
  "3:\n"
  "	.irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
  "	vmovdqu %ymm\\i, \\i*64(%r12)\n"
  "	.endr\n"
  "4:\n"
  "	vzeroupper\n"
  "	popq %r13\n"
  "	popq %r12\n"
  "	popq %rbx\n"
  "	ret\n"
  "	.size vec_keeper, . - vec_keeper\n");
int vec_keeper (int (*routine) (int), const unsigned char *marks, unsigned char *out, int kind);
void vec_leaves (void);
void vec_leaves_told (void);

/* The vectors mode: how many of the calls kept every mark.  Called
 * through vec_deep, so that each leaf's context, new to the monitor, has
 * a history long enough that the C library copies it with vector
 * registers. */
static NOINLINE long
vec_kept (int kind, int *calls)
{
  static unsigned char marks[2112 + 16], out[2112 + 16];
  for (size_t i = 0; i < 2112; i++)
    marks[i] = (unsigned char) (i * 7 + 13 + (i >> 8));
  long double top = 1.5L;
  memcpy (marks + 2112, &top, 10);
  size_t width = kind == 2 ? 64 : 32, regs = kind == 2 ? 32 : 16;
  long kept = 0;
  *calls = 0;
  /* first leaves 0, 2 and 4 in turn, 12 times: one set of a context's
   * small cache, missed at every call once each is known, so that its
   * growth falls in a hook's common case; then all 64, 4 times */
  for (int told = 0; told < 2; told++)
    for (int k = 0; k < 36 + 4 * 64; k++)
        {
          int i = k < 36 ? k % 3 * 2 : (k - 36) % 64;
          uintptr_t base = (uintptr_t) (told ? vec_leaves_told : vec_leaves);
          int (*leaf) (int) = (int (*) (int)) (base + 16 * (uintptr_t) i);
          memset (out, 0, sizeof out);
          int ok = vec_keeper (leaf, marks, out, kind) == 42;
          for (size_t r = 0; r < regs; r++)
            ok &= memcmp (out + 64 * r, marks + 64 * r, width) == 0;
          if (kind == 2)
            ok &= memcmp (out + 2048 + 8, marks + 2048 + 8, 56) == 0;
          ok &= memcmp (out + 2112, marks + 2112, 10) == 0;
          kept += ok;
          ++*calls;
        }
  return kept;
}

/* vec_kept, @depth calls down a chain of distinct routines. */
static NOINLINE long vec_deep (int depth, int kind, int *calls);
static NOINLINE long
vec_deep_b (int depth, int kind, int *calls)
{
  long r = depth > 0 ? vec_deep (depth - 1, kind, calls) : vec_kept (kind, calls);
  __asm__ volatile ("" ::: "memory");
  return r;
}
static NOINLINE long
vec_deep_c (int depth, int kind, int *calls)
{
  long r = vec_deep_b (depth, kind, calls);
  __asm__ volatile ("" ::: "memory");
  return r;
}
static NOINLINE long
vec_deep (int depth, int kind, int *calls)
{
  long r = vec_deep_c (depth, kind, calls);
  __asm__ volatile ("" ::: "memory");
  return r;
}
#endif

static void
report (void)
{
#define SAY(name) \
  if (n_##name) \
    printf ("%s %lu\n", #name, n_##name)
  SAY (co_work);
  SAY (fib_work);
  SAY (fib_yield);
  SAY (fib_after);
  SAY (fib_resume);
  SAY (yield_back);
  SAY (main_work);
  SAY (tiny);
  SAY (settler);
  SAY (walk);
  SAY (leaf);
  SAY (even);
  SAY (odd);
  SAY (deep);
  SAY (after);
  SAY (jumper);
  SAY (leaper);
  SAY (handler_work);
  SAY (alarm_work);
  SAY (worker);
  SAY (child_only);
  SAY (parent_only);
  SAY (tail_a);
  SAY (tail_b);
  SAY (sibling);
  SAY (many7);
  SAY (many8);
  SAY (many9);
  SAY (padder);
  SAY (stranded);
  SAY (after_free);
  SAY (stacker);
  SAY (compare);
  SAY (cmp_leaf);
  SAY (visit);
  SAY (visit_leaf);
  SAY (visitor);
  SAY (recpad);
  fflush (stdout);
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "recursive";
  long s = 0;
  if (strcmp (mode, "recursive") == 0)
    {
      for (int i = 0; i < 10; i++)
        s += walk (10);
      for (int i = 0; i < 10; i++)
        s += even (99);
    }
  else if (strcmp (mode, "timed") == 0)
    {
      /* leaves of some 15 us: the calls' own cost (which the program's
       * clock counts and the profile does not) is a few per cent */
      spin = 20000;
      long t0 = cpu_ns ();
      for (int i = 0; i < 20; i++)
        s += walk (8);
      long t1 = cpu_ns ();
      for (int i = 0; i < 1000; i++)
        s += even (9);
      long t2 = cpu_ns ();
      printf ("time_walk %ld\ntime_even %ld\n", t1 - t0, t2 - t1);
    }
  else if (strcmp (mode, "coroutines") == 0)
    {
      static char stack[1 << 16];
      getcontext (&co_ctx);
      co_ctx.uc_stack.ss_sp = stack;
      co_ctx.uc_stack.ss_size = sizeof stack;
      co_ctx.uc_link = &main_ctx;
      makecontext (&co_ctx, co_main, 0);
      for (int i = 0; i < 1001; i++)
        s += main_work (3);
    }
  else if (strcmp (mode, "fibers") == 0)
    {
      static char stacks[2][1 << 16];
      for (int k = 0; k < 2; k++)
        {
          getcontext (&fib_ctx[k]);
          fib_ctx[k].uc_stack.ss_sp = stacks[k];
          fib_ctx[k].uc_stack.ss_size = sizeof stacks[k];
          fib_ctx[k].uc_link = &fib_main_ctx;
          makecontext (&fib_ctx[k], (void (*) (void)) fib_main, 1, k);
        }
      for (int i = 0; i < 1000; i++)
        fib_resume (i & 1);
    }
  else if (strcmp (mode, "backtrace") == 0)
    printf ("frames %d\n", traced (6));
  else if (strcmp (mode, "empty") == 0 || strcmp (mode, "emptylong") == 0)
    {
      int n = mode[5] ? 30000000 : 1000000;
      long t0 = cpu_ns ();
      for (int i = 0; i < n; i++)
        s += nothing (i);
      printf ("time_empty %ld\n", cpu_ns () - t0);
    }
  else if (strcmp (mode, "settle") == 0)
    s += settler (3000);
  else if (strcmp (mode, "longjmp") == 0)
    {
      for (int i = 0; i < 50; i++)
        s += jumper (0);
      for (int i = 0; i < 1000; i++)
        s += after (i);
    }
  else if (strcmp (mode, "samesite") == 0)
    {
      for (volatile int i = 0; i < 100; i++)
        if (setjmp (back) == 0)
          leaper (i);
      for (int i = 0; i < 10; i++)
        s += after (i);
    }
  else if (strcmp (mode, "siglongjmp") == 0)
    {
      static char alt[1 << 16];
      stack_t ss = { .ss_sp = alt, .ss_size = sizeof alt };
      sigaltstack (&ss, NULL);
      handle (SIGUSR2, on_usr2, 1);
      for (int i = 0; i < 20; i++)
        s += jumper (1);
      for (int i = 0; i < 1000; i++)
        s += after (i);
    }
  else if (strcmp (mode, "signals") == 0)
    {
      handle (SIGUSR1, on_usr1, 0);
      handle (SIGALRM, on_alarm, 0);
      struct itimerval every = { { 0, 500 }, { 0, 500 } };
      setitimer (ITIMER_REAL, &every, NULL);
      for (int i = 0; i < 30; i++)
        s += deep (50, 2);
      for (int i = 0; i < 200; i++)
        s += walk (8);
      struct itimerval stop = { { 0, 0 }, { 0, 0 } };
      setitimer (ITIMER_REAL, &stop, NULL);
    }
  else if (strcmp (mode, "threads") == 0)
    {
      pthread_t t[4];
      pthread_key_create (&exit_key, exit_key_dtor);
      for (long i = 0; i < 4; i++)
        pthread_create (&t[i], NULL, worker, (void *) (i + 1));
      for (int i = 0; i < 4; i++)
        {
          void *r;
          pthread_join (t[i], &r);
          s += (long) r;
        }
    }
  else if (strcmp (mode, "fork") == 0)
    {
      s += walk (4);
      fflush (stdout);
      pid_t pid = fork ();
      if (pid == 0)
        {
          n_walk = n_leaf = 0;
          for (int i = 0; i < 7; i++)
            s += child_only (i);
          printf ("child %ld\n", (long) getpid ());
          report ();
          exit (0);
        }
      int status;
      waitpid (pid, &status, 0);
      for (int i = 0; i < 5; i++)
        s += parent_only (i);
    }
  else if (strcmp (mode, "vfork") == 0)
    {
      long t0 = cpu_ns ();
      for (int i = 0; i < 100; i++)
        s += vfork_spawn ();
      printf ("time_vfork %ld\n", cpu_ns () - t0);
    }
  else if (strcmp (mode, "exit") == 0)
    {
      s += walk (3);
      atexit (report);
      deep (500, 3);
    }
  else if (strcmp (mode, "freedstack") == 0)
    s += freed_stack ();
  else if (strcmp (mode, "stackargs") == 0)
    {
      for (int i = 0; i < 100; i++)
        s += stacker (10) + sorter (i);
    }
  else if (strcmp (mode, "callback") == 0)
    {
      for (int i = 0; i < 20; i++)
        s += visitor (8);
    }
  else if (strcmp (mode, "plugin") == 0 && argc > 2)
    {
      s += walk (3);
      void *h = dlopen (argv[2], RTLD_NOW);
      long (*run) (int, unsigned long *) = h ? (long (*) (int, unsigned long *)) dlsym (h, "plugin_run") : NULL;
      if (run == NULL)
        {
          fprintf (stderr, "cannot load %s: %s\n", argv[2], dlerror ());
          return 2;
        }
      unsigned long c[3];
      s += run (1000, c);
      printf ("plug_padder %lu\nplug_sibling %lu\nplug_many9 %lu\n", c[0], c[1], c[2]);
    }
  else if (strcmp (mode, "recpad") == 0)
    {
      for (int i = 0; i < 100; i++)
        s += recpad (10);
    }
#if defined(__x86_64__)
  else if (strcmp (mode, "registers") == 0)
    {
      long kept = 0;
      for (int i = 0; i < 1000; i++)
        kept += reg_keeper (reg_leaf) + reg_keeper (reg_leaf_told);
      printf ("regs_kept %ld\n", kept);
    }
  else if (strcmp (mode, "vectors") == 0)
    {
      __builtin_cpu_init ();
      int kind = __builtin_cpu_supports ("avx512f") ? 2 : __builtin_cpu_supports ("avx") ? 1 : 0, calls = 0;
      long kept = kind ? vec_deep (12, kind, &calls) : 0;
      printf ("vec_kind %d\nvec_kept %ld\nvec_calls %d\n", kind, kept, calls);
    }
#endif
  else if (strcmp (mode, "tail") == 0)
    {
      for (int i = 0; i < 1000; i++)
        s += tail_a (i);
    }
  else
    {
      fprintf (stderr, "unknown mode %s\n", mode);
      return 2;
    }
  report ();
  return s == 42 ? 1 : 0;
}
