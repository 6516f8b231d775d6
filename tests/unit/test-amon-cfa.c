/* test-amon-cfa.c — libamon's reader of the unwind tables (amon-cfa.c)
 * against libgcc's unwinder.
 *
 * Oracle: _Unwind_Backtrace and _Unwind_GetCFA (libgcc, which C++
 * exceptions and backtrace(3) use) give each frame's return address and
 * canonical frame address.  From a comparison called back by qsort(3) —
 * through libc's frames, which amon's -pg mode never sees — under a
 * recursion whose frames need a frame pointer (alloca) and one whose
 * frames do not, amon_cfa_at's offset at each return address, from the
 * stack pointer or from the frame pointer (followed through the frames
 * that saved it), must give the same CFA as libgcc's, frame after frame
 * up to main.
 */
#define _GNU_SOURCE 1

#include "config.h"

#include <alloca.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

#include "amon-cfa.h"
#include "cg-test.h"

#define FRAMES 128
#ifdef __clang__
#define NOINLINE __attribute__ ((noinline))
#define FRAME_POINTER /* __builtin_frame_address (0) keeps one */
#else
#define NOINLINE __attribute__ ((noinline, noclone))
#define FRAME_POINTER __attribute__ ((optimize ("no-omit-frame-pointer")))
#endif

typedef struct {
  uintptr_t ip, cfa;
} frame;

typedef struct {
  frame ref[FRAMES];
  int n_ref;
  int compared, unknown, differ, lost_at;
  uintptr_t rbp; /* the comparison's %rbp */
} walk;

static walk w;
static volatile long sink;

static _Unwind_Reason_Code
collect (struct _Unwind_Context *ctx, void *arg)
{
  walk *x = arg;
  if (x->n_ref == FRAMES)
    return _URC_END_OF_STACK;
  x->ref[x->n_ref].ip = _Unwind_GetIP (ctx);
  x->ref[x->n_ref].cfa = _Unwind_GetCFA (ctx);
  x->n_ref++;
  return _URC_NO_REASON;
}

/* Frame i's return address (into frame i) lies just under libgcc's CFA
 * of the frame below (its context's CFA: frame i's stack pointer at the
 * call, after the return), and frame i's own CFA is frame i + 1's
 * context's.  From frame 0 (the comparison, whose %rbp is x->rbp), each
 * frame's CFA by amon_cfa_at, against libgcc's; stops at the first frame
 * it cannot tell (x->lost_at) or at the end of libgcc's. */
static void
compare_walk (walk *x)
{
  uintptr_t rbp = x->rbp;
  int have_rbp = 1;
  x->lost_at = -1;
  for (int i = 0; i + 1 < x->n_ref; i++)
    {
      uintptr_t slot = x->ref[i].cfa - 8, ret = x->ref[i].ip;
      if (*(const uintptr_t *) slot != ret)
        {
          x->differ++;
          return;
        }
      amon_cfa k;
      if (!amon_cfa_at (ret, &k) || (k.via_rbp && !have_rbp))
        {
          x->unknown++;
          x->lost_at = i;
          return;
        }
      uintptr_t cfa = (k.via_rbp ? rbp : slot + 8) + (uintptr_t) k.offset;
      x->compared++;
      if (cfa != x->ref[i + 1].cfa)
        {
          x->differ++;
          return;
        }
      if (k.rbp == AMON_RBP_LOST)
        have_rbp = 0;
      else if (k.rbp != 0)
        {
          rbp = *(const uintptr_t *) (cfa + (uintptr_t) (intptr_t) k.rbp);
          have_rbp = 1;
        }
    }
}

/* with a frame pointer, whose value the test knows */
FRAME_POINTER NOINLINE static int
cmp_longs (const void *a, const void *b)
{
  if (w.n_ref == 0)
    {
      w.rbp = (uintptr_t) __builtin_frame_address (0);
      _Unwind_Backtrace (collect, &w);
      compare_walk (&w); /* while the frames are there */
    }
  long x = *(const long *) a, y = *(const long *) b;
  return (x > y) - (x < y);
}

NOINLINE static void
sort_some (void)
{
  long v[200];
  for (int i = 0; i < 200; i++)
    v[i] = (i * 7919) % 200;
  qsort (v, 200, sizeof *v, cmp_longs);
  sink += v[0];
}

/* frames whose CFA is the frame pointer's (alloca) */
NOINLINE static void
with_alloca (int depth)
{
  char *p = alloca (64 + (size_t) depth * 16);
  memset (p, depth, 64);
  if (depth > 0)
    with_alloca (depth - 1);
  else
    sort_some ();
  sink += p[depth];
}

/* frames whose CFA is the stack pointer's, with arguments on the stack */
NOINLINE static long
with_args (int depth, long a, long b, long c, long d, long e, long f, long g)
{
  long r = depth > 0 ? with_args (depth - 1, a, b, c, d, e, f, g + 1) : 0;
  if (depth == 0)
    with_alloca (3);
  return r + g;
}

static void
test_against_libgcc (void)
{
  memset (&w, 0, sizeof w);
  sink += with_args (5, 1, 2, 3, 4, 5, 6, 7);
  CU_ASSERT_FATAL (w.n_ref > 12);
  CU_ASSERT_EQUAL (w.differ, 0);
  /* through qsort's frames, the recursions and this test, at least */
  CU_ASSERT (w.compared >= 12);
  if (w.lost_at >= 0)
    CU_ASSERT (w.lost_at > 12);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "each frame's CFA equals libgcc's, through qsort and frame pointers", test_against_libgcc },
    { NULL, NULL },
  };
  return cg_test_main ("amon-cfa", cases);
}
