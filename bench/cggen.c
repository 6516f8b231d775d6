/* cggen.c — generates the benchmark's inputs, deterministically.
 *
 *   cggen compiler MB     a callgrind profile of about MB megabytes shaped
 *                         like a compiler's: ~1,200 functions per MB with
 *                         long C++ names in a few objects, 60 cost lines and
 *                         6 calls per function, callgrind's name compression,
 *                         5% of functions recursive (with "'2" names), a
 *                         totals: line that adds up, and inclusive costs
 *                         that add up as a real profile's do
 *   cggen cycles N        a callgrind profile (taken without the recursion
 *                         split) whose graph has N cycles of 2 to 5 members
 *   cggen ring N          one cycle of N functions, with chords
 *   cggen chain DEPTH     folded stacks: one stack DEPTH frames deep, and
 *                         shorter ones along it
 *   cggen perf MB         perf script text of about MB megabytes, its
 *                         default layout with pid/tid and cpu: samples of
 *                         a compiler-shaped program (4,000 functions in
 *                         the program and three libraries, 6 callees each,
 *                         some recursion) whose stack evolves from one
 *                         sample to the next, 10% with kernel frames on
 *                         top, 2% through an [unknown] frame
 *   cggen deep MB         folded stacks of about MB megabytes, every
 *                         stack 100,000 frames deep or more: an
 *                         interpreter's recursion through 60 functions
 *                         whose top moves from one stack to the next
 *   cggen wide MB         folded stacks of about MB megabytes, millions of
 *                         distinct ones: a walk over 20,000 functions (6
 *                         callees each, some recursion) 8 to 64 frames
 *                         deep, a few frames returning and a few calls
 *                         made between one stack and the next
 *   cggen amon MB         an amon.out of about MB megabytes (version 1,
 *                         the wall clock in ns): 30,000 routines with
 *                         C++ names, and the contexts a walk over them
 *                         (6 callees each, 4 to 40 deep) passes through,
 *                         each once; one in ten re-enters an earlier
 *                         routine (mutual recursion: its earlier entry
 *                         unmarked); totals that add up
 *   cggen program N       a C program of N functions for gcc -pg, each
 *                         looping a while and calling up to two later
 *                         ones, one in twenty also an earlier one (cycles,
 *                         kept shallow); its argument scales the work
 *
 * Everything goes to standard output.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t
next (void)
{
  /* xorshift64*: fast and reproducible */
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 0x2545f4914f6cdd1du;
}

static unsigned
below (unsigned n)
{
  return (unsigned) (next () % n);
}

static const char *const words[] = {
  "tree", "node", "rtx", "gimple", "basic_block", "edge", "loop", "vec", "hash_table", "bitmap",
  "symtab", "cgraph", "varpool", "ipa", "ssa", "dom", "pass", "expand", "fold", "lower",
  "combine", "reload", "sched", "regalloc", "alias", "points_to", "value_range", "simplify",
};
#define N_WORDS (sizeof words / sizeof words[0])

/* A long C++-like name, unique per index. */
static void
function_name (char *buf, size_t size, unsigned i)
{
  const char *a = words[i % N_WORDS], *b = words[(i / 7) % N_WORDS], *c = words[(i / 49) % N_WORDS];
  switch (i % 4)
    {
    case 0:
      snprintf (buf, size, "%s_%s_%u(%s*, %s const&)", a, b, i, c, a);
      break;
    case 1:
      snprintf (buf, size, "%s::%s_impl<std::vector<%s*, std::allocator<%s*> >, %u>::run(%s&)", a, b, c, c, i, a);
      break;
    case 2:
      snprintf (buf, size, "0x%016x", 0x400000u + i * 16u);
      break;
    default:
      snprintf (buf, size, "%s_%u", b, i);
      break;
    }
}

/* "fn=(id)" with the name on first use, as callgrind compresses names. */
static void
name_ref (const char *key, unsigned id, const char *name, unsigned char *defined)
{
  if (defined[id])
    printf ("%s=(%u)\n", key, id);
  else
    {
      printf ("%s=(%u) %s\n", key, id, name);
      defined[id] = 1;
    }
}

/* One block of the compiler-shaped profile, drawn from its own seed, so
 * that the passes below see the same block each time. */
typedef struct {
  unsigned line, costs[60];
  int steps[60];
  unsigned n_calls, callee[6], count[6];
  int target[6];
  uint64_t self;
} Block;

static void
plan_block (unsigned b, unsigned n, Block *k)
{
  uint64_t saved = rng;
  rng = (b + 1) * 0x9e3779b97f4a7c15u ^ 0x5851f42d4c957f2du;
  unsigned i = b % n;
  k->line = 100 + below (5000);
  k->self = 0;
  for (int c = 0; c < 60; c++)
    {
      k->costs[c] = c == 0 ? 1 + below (50) : 1 + below (40);
      k->steps[c] = (int) below (7) - 2;
      k->self += k->costs[c];
    }
  /* down the call graph only (callees have higher indexes), so that the
   * inclusive costs can be worked out from the leaves up; a recursive
   * function's outermost block first calls its own "'2" block */
  k->n_calls = 0;
  for (int c = 0; c < 6; c++)
    {
      unsigned callee;
      if (b < n && i % 20 == 0 && c == 0)
        callee = n + i;
      else if (i + 1 < n)
        callee = i + 1 + below (n - 1 - i < 2000 ? n - 1 - i : 2000);
      else
        break;
      k->callee[k->n_calls] = callee;
      k->count[k->n_calls] = 1 + below (100);
      k->target[k->n_calls] = (int) below (200) - 100;
      k->n_calls++;
    }
  rng = saved;
}

static int
compiler (unsigned mb)
{
  unsigned n = mb * 1200u;
  if (n < 100)
    n = 100;
  /* blocks 0..n-1: the functions' outermost activations; n + i: the
   * "'2" block of recursive function i (i % 20 == 0) */
  unsigned char *defined = calloc ((size_t) n * 2, 1);
  uint64_t *act = calloc ((size_t) n * 2, sizeof *act);   /* a block's cost with its calls */
  unsigned *indeg = calloc (n, sizeof *indeg);             /* calls into function i */
  unsigned *first = malloc ((size_t) n * sizeof *first);   /* the first of them: block * 6 + c */
  unsigned char *objects = calloc (8, 1);
  if (!defined || !act || !indeg || !first || !objects)
    return 1;
  static const char *const object_names[] = {
    "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "/usr/lib/x86_64-linux-gnu/libc.so.6",
    "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6",
    "/usr/lib/x86_64-linux-gnu/libgmp.so.10", "/usr/lib/x86_64-linux-gnu/libmpfr.so.6",
    "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", "/usr/libexec/valgrind/vgpreload_core-amd64-linux.so",
  };
  Block k;
  /* the calls into each function, in the order they are written */
  memset (first, 0xff, (size_t) n * sizeof *first);
  for (unsigned b = 0; b < 2 * n; b++)
    {
      if (b >= n && (b - n) % 20 != 0)
        continue;
      plan_block (b, n, &k);
      for (unsigned c = 0; c < k.n_calls; c++)
        if (k.callee[c] < n && indeg[k.callee[c]]++ == 0)
          first[k.callee[c]] = b * 6 + c;
    }
  /* A call's inclusive cost is its share of the callee's activations (the
   * first call also takes the remainder), so that, as in a real profile,
   * the calls into a function carry exactly its self cost plus its own
   * calls' inclusive costs. */
#define INCLUSIVE(b, c, g) \
  ((g) >= n ? act[g] : act[g] / indeg[g] + ((b) * 6 + (c) == first[g] ? act[g] % indeg[g] : 0))
  for (unsigned i = n; i-- > 0;)
    for (int deeper = 1; deeper >= 0; deeper--)
      {
        unsigned b = deeper ? n + i : i;
        if (deeper && i % 20 != 0)
          continue;
        plan_block (b, n, &k);
        act[b] = k.self;
        for (unsigned c = 0; c < k.n_calls; c++)
          act[b] += INCLUSIVE (b, c, k.callee[c]);
      }
  char name[512], name2[520], callee_name[512];
  uint64_t total = 0;
  printf ("# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 4242\ncmd:  cc1 -O2 big.c\npart: 1\n\n"
          "desc: I1 cache: \ndesc: D1 cache: \ndesc: LL cache: \n\ndesc: Timerange: Basic block 0 - 1\n"
          "desc: Trigger: Program termination\n\npositions: line\nevents: Ir\n\n");
  for (unsigned b = 0; b < 2 * n; b++)
    {
      unsigned i = b % n;
      int deeper = b >= n;
      if (deeper && i % 20 != 0)
        continue; /* only recursive functions have a "'2" block */
      plan_block (b, n, &k);
      unsigned object = i % 50 == 0 ? 1 + i % 7 : 0;
      if (!objects[object])
        {
          printf ("ob=(%u) %s\n", object + 1, object_names[object]);
          objects[object] = 1;
        }
      else
        printf ("ob=(%u)\n", object + 1);
      printf ("fl=(%u) /build/gcc/%s/%s-%u.cc\n", i / 20 + 1, words[(i / 20) % N_WORDS], words[(i / 400) % N_WORDS], i / 20);
      function_name (name, sizeof name, i);
      if (deeper)
        {
          snprintf (name2, sizeof name2, "%s'2", name);
          name_ref ("fn", n + i, name2, defined);
        }
      else
        name_ref ("fn", i, name, defined);
      total += k.self;
      printf ("%u %u\n", k.line, k.costs[0]);
      for (int c = 1; c < 60; c++)
        if (k.steps[c] == 0)
          printf ("* %u\n", k.costs[c]);
        else
          printf ("%+d %u\n", k.steps[c], k.costs[c]);
      for (unsigned c = 0; c < k.n_calls; c++)
        {
          unsigned g = k.callee[c], callee_object = g % n % 50 == 0 ? 1 + g % n % 7 : 0;
          if (callee_object != object)
            {
              if (!objects[callee_object])
                {
                  printf ("cob=(%u) %s\n", callee_object + 1, object_names[callee_object]);
                  objects[callee_object] = 1;
                }
              else
                printf ("cob=(%u)\n", callee_object + 1);
            }
          /* as callgrind: the callee's file where it is not the current one */
          unsigned gi = g % n;
          if (gi / 20 != i / 20)
            printf ("cfi=(%u) /build/gcc/%s/%s-%u.cc\n", gi / 20 + 1, words[(gi / 20) % N_WORDS],
                    words[(gi / 400) % N_WORDS], gi / 20);
          if (g >= n)
            {
              snprintf (name2, sizeof name2, "%s'2", name);
              name_ref ("cfn", g, name2, defined);
            }
          else
            {
              function_name (callee_name, sizeof callee_name, g);
              name_ref ("cfn", g, callee_name, defined);
            }
          printf ("calls=%u %+d\n* %" PRIu64 "\n", k.count[c], k.target[c], INCLUSIVE (b, c, g));
        }
    }
#undef INCLUSIVE
  printf ("totals: %" PRIu64 "\n", total);
  free (defined);
  free (act);
  free (indeg);
  free (first);
  free (objects);
  return 0;
}

/* A graph given as arcs: the program's main calls entries[], and each arc
 * (a, b) becomes a call with a small inclusive cost.  No recursion split,
 * as with --separate-recs=1, so cycles stay cycles. */
typedef struct {
  unsigned a, b;
} Arc;

static void
emit_graph (unsigned n, const Arc *arcs, size_t n_arcs)
{
  printf ("# callgrind format\nversion: 1\ncreator: cggen\npositions: line\nevents: Ir\n");
  uint64_t total = 0;
  size_t k = 0;
  for (unsigned f = 0; f < n; f++)
    {
      printf ("fn=(%u) f%u\n1 %u\n", f + 1, f, 10 + f % 90);
      total += 10 + f % 90;
      for (; k < n_arcs && arcs[k].a == f; k++)
        printf ("cfn=(%u) f%u\ncalls=%u 1\n1 %u\n", arcs[k].b + 1, arcs[k].b, 1 + (f + arcs[k].b) % 9, 100 + (f * 7 + arcs[k].b) % 1000);
    }
  printf ("totals: %" PRIu64 "\n", total);
}

static int
cycles (unsigned n_cycles)
{
  /* f0 is main; cycles of 2..5 members follow; main calls every cycle,
   * members also call the next cycle's head (a DAG between cycles) */
  size_t cap = (size_t) n_cycles * 16 + 16;
  unsigned n = 1;
  unsigned *head = malloc ((n_cycles + 1) * sizeof *head);
  for (unsigned c = 0; c < n_cycles; c++)
    {
      head[c] = n;
      n += 2 + c % 4;
    }
  head[n_cycles] = n;
  /* arcs must be grouped by caller: emit per function in order */
  size_t m = 0;
  Arc *sorted = malloc (cap * sizeof *sorted);
  for (unsigned c = 0; c < n_cycles; c++)
    sorted[m++] = (Arc) { 0, head[c] };
  for (unsigned c = 0; c < n_cycles; c++)
    {
      unsigned size = head[c + 1] - head[c];
      for (unsigned j = 0; j < size; j++)
        {
          unsigned f = head[c] + j;
          sorted[m++] = (Arc) { f, head[c] + (j + 1) % size };
          if (c + 1 < n_cycles && j == size - 1)
            sorted[m++] = (Arc) { f, head[c + 1] };
        }
    }
  emit_graph (n, sorted, m);
  free (sorted);
  free (head);
  return 0;
}

static int
ring (unsigned n)
{
  Arc *arcs = malloc (((size_t) n * 2 + 2) * sizeof *arcs);
  size_t m = 0;
  arcs[m++] = (Arc) { 0, 1 };
  for (unsigned f = 1; f <= n; f++)
    {
      arcs[m++] = (Arc) { f, f == n ? 1 : f + 1 };
      if (f % 10 == 0)
        arcs[m++] = (Arc) { f, 1 + (f * 37) % n };
    }
  emit_graph (n + 1, arcs, m);
  free (arcs);
  return 0;
}

static int
chain (unsigned depth)
{
  /* the deep stack, then a sample at every 100,000th level */
  for (unsigned d = 1; d <= depth; d++)
    {
      if (d % 100000 != 0 && d != depth)
        continue;
      for (unsigned i = 0; i < d; i++)
        printf (i ? ";f%u" : "f%u", i);
      printf (" %u\n", d == depth ? 1000 : 1);
    }
  return 0;
}

static int
program (unsigned n)
{
  printf ("#include <stdlib.h>\nstatic volatile unsigned long sink;\nstatic int depth;\n");
  for (unsigned i = 0; i < n; i++)
    printf ("__attribute__ ((noinline)) void f%u (unsigned k);\n", i);
  for (unsigned i = 0; i < n; i++)
    {
      printf ("__attribute__ ((noinline)) void\nf%u (unsigned k)\n{\n", i);
      printf ("  unsigned long s = 0;\n  for (unsigned j = 0; j < %u; j++)\n    s += j ^ (s >> 3);\n  sink += s;\n",
              20 + below (200));
      for (unsigned c = 1; c <= 2; c++)
        {
          unsigned j = i + 1 + below (40);
          if (j < n)
            printf ("  if (k & %u)\n    f%u (k >> 1);\n", c, j);
        }
      if (i > 10 && below (20) == 0)
        printf ("  if (depth < 3)\n    {\n      depth++;\n      f%u (k + 1);\n      depth--;\n    }\n", i - 1 - below (10));
      printf ("}\n");
    }
  printf ("int\nmain (int argc, char **argv)\n{\n  unsigned r = argc > 1 ? (unsigned) atoi (argv[1]) : 1;\n"
          "  for (unsigned t = 0; t < 100 * r; t++)\n    {\n");
  for (unsigned i = 0; i < n; i += 50)
    printf ("      f%u (t);\n", i);
  printf ("    }\n  return 0;\n}\n");
  return 0;
}

#define PERF_FUNCTIONS 4000
#define PERF_MAX_DEPTH 48

static int
perf (unsigned mb)
{
  static const char *const dsos[] = { "/usr/lib/gcc/x86_64-linux-gnu/12/cc1plus", "/usr/lib/x86_64-linux-gnu/libc.so.6",
                                      "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30", "/usr/lib/x86_64-linux-gnu/libgmp.so.10" };
  static const char *const kernel[] = { "asm_exc_page_fault", "exc_page_fault", "handle_mm_fault", "__handle_mm_fault",
                                        "do_anonymous_page", "clear_page_erms", "entry_SYSCALL_64_after_hwframe",
                                        "do_syscall_64", "__x64_sys_write", "ksys_write", "vfs_write" };
  static char names[PERF_FUNCTIONS][160];
  static unsigned callees[PERF_FUNCTIONS][6];
  for (unsigned i = 0; i < PERF_FUNCTIONS; i++)
    {
      function_name (names[i], sizeof names[i], i);
      if (i % 4 == 2)
        snprintf (names[i], sizeof names[i], "%s_%u", words[i % N_WORDS], i);
      for (unsigned c = 0; c < 6; c++)
        /* mostly later functions, sometimes an earlier one: recursion */
        callees[i][c] = below (10) == 0 ? below (PERF_FUNCTIONS) : (i + 1 + below (200)) % PERF_FUNCTIONS;
    }
  unsigned stack[PERF_MAX_DEPTH], depth = 1;
  stack[0] = 0;
  uint64_t bytes = 0, limit = (uint64_t) mb * 1000000u, t = 1000000;
  while (bytes < limit)
    {
      /* the stack moves: a few frames return, a few calls are made */
      unsigned pop = below (4);
      depth = pop >= depth ? 1 : depth - pop;
      for (unsigned push = below (5); push > 0 && depth < PERF_MAX_DEPTH; push--, depth++)
        stack[depth] = callees[stack[depth - 1]][below (6)];
      t += 250 + below (20);
      unsigned tid = 4242 + below (4);
      int n = printf ("cc1plus %7u/%-7u [%03u] %5" PRIu64 ".%06" PRIu64 ":     250000 cpu-clock: \n", 4242, tid,
                      below (8), t / 1000000, t % 1000000);
      if (below (10) == 0)
        for (unsigned k = 2 + below (5); k-- > 0;)
          {
            unsigned j = below (sizeof kernel / sizeof kernel[0]);
            n += printf ("\t%16" PRIx64 " %s+0x%x ([kernel.kallsyms])\n", UINT64_C (0xffffffff81000000) + j * 4096u,
                         kernel[j], below (300));
          }
      for (unsigned d = depth; d-- > 0;)
        {
          unsigned f = stack[d];
          if (d == depth / 2 && below (50) == 0)
            n += printf ("\t%16x [unknown] (%s)\n", 0x7f0000u + below (65536), dsos[1]);
          n += printf ("\t%16x %s+0x%x (%s)\n", 0x400000u + f * 64u + below (64), names[f], below (600),
                       dsos[f % 7 == 0 ? 1 + f % 3 : 0]);
        }
      n += printf ("\n");
      if (n < 0)
        return 1;
      bytes += (uint64_t) n;
    }
  return 0;
}

/* one folded line: the stack bottom first, then its count; returns the
   bytes written, or -1 */
static long
folded_line (const unsigned *stack, unsigned depth, const char *prefix, unsigned count)
{
  long n = 0;
  for (unsigned d = 0; d < depth; d++)
    {
      int k = printf (d ? ";%s%u" : "%s%u", prefix, stack[d]);
      if (k < 0)
        return -1;
      n += k;
    }
  int k = printf (" %u\n", count);
  return k < 0 ? -1 : n + k;
}

#define DEEP_BASE 100000
#define DEEP_FUNCTIONS 60

static int
deep (unsigned mb)
{
  /* an interpreter recursing through a few functions: the bottom
     100,000 frames stay, the part above them moves */
  static unsigned stack[DEEP_BASE + 1000];
  unsigned depth = DEEP_BASE;
  for (unsigned d = 0; d < depth; d++)
    stack[d] = d < 3 ? d : 3 + (d * 7 + below (3)) % DEEP_FUNCTIONS;
  uint64_t bytes = 0, limit = (uint64_t) mb * 1000000u;
  while (bytes < limit)
    {
      unsigned pop = below (40);
      depth = depth - pop < DEEP_BASE ? DEEP_BASE : depth - pop;
      for (unsigned push = below (50); push > 0 && depth < DEEP_BASE + 1000; push--, depth++)
        stack[depth] = 3 + (stack[depth - 1] + 1 + below (5)) % DEEP_FUNCTIONS;
      long n = folded_line (stack, depth, "lua_fn_", 1 + below (100));
      if (n < 0)
        return 1;
      bytes += (uint64_t) n;
    }
  return 0;
}

#define WIDE_FUNCTIONS 20000
#define WIDE_MAX_DEPTH 64

static int
wide (unsigned mb)
{
  static unsigned callees[WIDE_FUNCTIONS][6];
  for (unsigned i = 0; i < WIDE_FUNCTIONS; i++)
    for (unsigned c = 0; c < 6; c++)
      callees[i][c] = below (10) == 0 ? below (WIDE_FUNCTIONS) : (i + 1 + below (500)) % WIDE_FUNCTIONS;
  unsigned stack[WIDE_MAX_DEPTH], depth = 1;
  stack[0] = 0;
  uint64_t bytes = 0, limit = (uint64_t) mb * 1000000u;
  while (bytes < limit)
    {
      unsigned pop = below (4);
      depth = pop >= depth ? 1 : depth - pop;
      for (unsigned push = below (5); push > 0 && depth < WIDE_MAX_DEPTH; push--, depth++)
        stack[depth] = callees[stack[depth - 1]][below (6)];
      if (depth < 8)
        continue;
      long n = folded_line (stack, depth, "app::mod::fn", 1 + below (10));
      if (n < 0)
        return 1;
      bytes += (uint64_t) n;
    }
  return 0;
}

static void
put32 (uint32_t v)
{
  for (int i = 0; i < 4; i++)
    putchar ((int) (v >> (8 * i) & 0xff));
}

static void
put64 (uint64_t v)
{
  put32 ((uint32_t) v);
  put32 ((uint32_t) (v >> 32));
}

static void
section (uint32_t tag, uint64_t len)
{
  put32 (tag);
  put32 (0);
  put64 (len);
}

#define AMON_ROUTINES 30000
#define AMON_MAX_DEPTH 40

static int
amon (unsigned mb)
{
  static const char exe[] = "/usr/lib/cgtools-bench/testsuite";
  static char names[AMON_ROUTINES][160];
  static unsigned callees[AMON_ROUTINES][6];
  uint64_t routines_len = 4;
  for (unsigned i = 0; i < AMON_ROUTINES; i++)
    {
      function_name (names[i], sizeof names[i], i);
      routines_len += 16 + strlen (names[i]);
      for (unsigned c = 0; c < 6; c++)
        callees[i][c] = below (10) == 0 ? below (AMON_ROUTINES) : (i + 1 + below (300)) % AMON_ROUTINES;
    }
  /* the contexts first, to know the section's length: the histories of
     a stack that moves, each history written once (a walk revisits few) */
  uint64_t limit = (uint64_t) mb * 1000000u, n = 0, bytes = 8, sum_time = 0, sum_entries = 0, sum_rec = 0;
  FILE *tmp = tmpfile ();
  if (tmp == NULL)
    return 1;
  unsigned stack[AMON_MAX_DEPTH + 1], depth = 1;
  stack[0] = 0;
  while (bytes < limit)
    {
      unsigned pop = below (4);
      depth = pop >= depth ? 1 : depth - pop;
      for (unsigned push = below (5); push > 0 && depth < AMON_MAX_DEPTH; push--, depth++)
        {
          /* a routine not on the stack: every history entry marked */
          unsigned f = callees[stack[depth - 1]][below (6)], d;
          for (d = 0; d < depth && stack[d] != f; d++)
            ;
          if (d < depth)
            break;
          stack[depth] = f;
        }
      if (depth < 4)
        continue;
      uint32_t h[AMON_MAX_DEPTH + 1];
      unsigned len = depth;
      for (unsigned d = 0; d < depth; d++)
        h[d] = stack[d] << 1 | 1u;
      if (below (10) == 0)
        {
          /* re-entering an earlier routine: its earlier entry unmarked */
          unsigned back = below (depth - 2);
          h[back] &= ~1u;
          h[len++] = stack[back] << 1 | 1u;
        }
      uint64_t t = 100 + below (100000), e = 1 + below (1000), r = below (20) == 0 ? below (50) : 0;
      uint32_t fixed[2] = { len, 0 };
      uint64_t counts[3] = { t, e, r };
      if (fwrite (fixed, 4, 2, tmp) != 2 || fwrite (counts, 8, 3, tmp) != 3 || fwrite (h, 4, len, tmp) != len)
        return 1;
      sum_time += t, sum_entries += e, sum_rec += r, n++;
      bytes += 32 + 4 * (uint64_t) len;
    }
  /* little-endian, as amon.out is: this generator runs on x86-64 */
  fputs ("\x89" "AMON\r\n\x1a", stdout);
  put32 (1), put32 (64), put32 (0), put32 (2);
  put64 (1000000000u), put64 (1000), put64 (0), put64 (4242), put64 (0);
  section (1, 4 + 16 + sizeof exe - 1);
  put32 (1), put64 (0), put32 (1), put32 (sizeof exe - 1);
  fputs (exe, stdout);
  section (2, routines_len);
  put32 (AMON_ROUTINES);
  for (unsigned i = 0; i < AMON_ROUTINES; i++)
    {
      put64 (0x401000u + 64u * i), put32 (0), put32 ((uint32_t) strlen (names[i]));
      fputs (names[i], stdout);
    }
  section (3, bytes);
  put64 (n);
  rewind (tmp);
  char buf[65536];
  size_t k;
  while ((k = fread (buf, 1, sizeof buf, tmp)) > 0)
    if (fwrite (buf, 1, k, stdout) != k)
      return 1;
  fclose (tmp);
  uint64_t outside = 123456, totals[17] = { 1, sum_entries, sum_rec, sum_entries, sum_time + outside, outside, n, n };
  section (4, sizeof totals);
  for (unsigned i = 0; i < 17; i++)
    put64 (totals[i]);
  section (0, 0);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: cggen compiler MB | cycles N | ring N | chain DEPTH | deep MB | wide MB | amon MB | program N | perf MB\n");
      return 2;
    }
  unsigned v = (unsigned) strtoul (argv[2], NULL, 10);
  static char buf[1 << 20];
  setvbuf (stdout, buf, _IOFBF, sizeof buf);
  int rc = strcmp (argv[1], "compiler") == 0 ? compiler (v)
           : strcmp (argv[1], "cycles") == 0 ? cycles (v)
           : strcmp (argv[1], "ring") == 0   ? ring (v)
           : strcmp (argv[1], "chain") == 0  ? chain (v)
           : strcmp (argv[1], "deep") == 0  ? deep (v)
           : strcmp (argv[1], "wide") == 0  ? wide (v)
           : strcmp (argv[1], "amon") == 0  ? amon (v)
           : strcmp (argv[1], "program") == 0 ? program (v)
           : strcmp (argv[1], "perf") == 0 ? perf (v)
                                             : 2;
  if (fflush (stdout) != 0)
    return 1;
  return rc;
}
