/* test-amon.c — libamon's context machine against brute force.
 *
 * Oracles:
 *  - steps A2-A5 read literally from Spivey 2004 (each deletion rule
 *    applied, restarting, until none applies) on random call sequences;
 *  - the paper's own example, Main -> (P -> Q -> R)^n -> P -> S, whose
 *    contexts are listed in Figure 2 and the text around it;
 *  - the whole chain (monitor, amon.out writer, cgtools reader, Spivey's
 *    costs) on random programs of up to 5 routines with self and mutual
 *    recursion up to 10,000 deep, replayed with explicit timestamps,
 *    against a computation over the full stack at every instant: each
 *    interval charged to every distinct routine on the stack, and to the
 *    incoming and outgoing arcs of each routine's most recent activation
 *    (runs of direct recursion count as one activation, as step A1 makes
 *    them).
 */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "amon-calibrate.h"
#include "amon-format.h"
#include "amon-measure.h"
#include "amon-plt.h"
#include "amon-symbols.h"
#include "amon-thread.h"
#include "amon-walk.h"
#include "amon-write.h"
#include "cg-test.h"

#define F AMON_ENTRY_MARKED

/* ---- steps A2-A5, literally ---- */

static guint
brute_history (const guint32 *h, guint n, guint32 p, guint32 *out)
{
  guint32 s[4096];
  guint8 m[4096];
  for (guint i = 0; i < n; i++)
    {
      s[i] = h[i] >> 1;
      m[i] = h[i] & 1;
    }
  /* A2 */
  s[n] = p;
  m[n] = 1;
  n++;
  /* A3 */
  for (guint i = 0; i + 1 < n; i++)
    if (s[i] == p)
      m[i] = 0;
  /* A4: 1 < i < n (1-based), repeat until no deletion applies */
  for (gboolean again = TRUE; again;)
    {
      again = FALSE;
      for (guint i = 1; i + 1 < n; i++)
        if (!m[i - 1] && !m[i] && !m[i + 1])
          {
            memmove (s + i, s + i + 1, (n - i - 1) * sizeof *s);
            memmove (m + i, m + i + 1, n - i - 1);
            n--;
            again = TRUE;
            break;
          }
    }
  /* A5 */
  for (gboolean again = TRUE; again;)
    {
      again = FALSE;
      for (guint i = 0; i + 1 < n; i++)
        if (s[i] == s[i + 1] && !m[i] && !m[i + 1])
          {
            memmove (s + i, s + i + 1, (n - i - 1) * sizeof *s);
            memmove (m + i, m + i + 1, n - i - 1);
            n--;
            again = TRUE;
            break;
          }
    }
  for (guint i = 0; i < n; i++)
    out[i] = s[i] << 1 | m[i];
  return n;
}

static void
test_history_against_paper (void)
{
  GRand *rand = g_rand_new_with_seed (4);
  guint32 stack[64][4096];
  guint len[64];
  for (int program = 0; program < 300; program++)
    {
      guint routines = 2 + (guint) g_rand_int_range (rand, 0, 7);
      guint depth = 1;
      stack[0][0] = 0 << 1 | 1;
      len[0] = 1;
      for (int step = 0; step < 400; step++)
        {
          if (depth > 1 && (depth == 64 || g_rand_int_range (rand, 0, 100) < 40))
            {
              depth--;
              continue;
            }
          guint32 *h = stack[depth - 1];
          guint n = len[depth - 1];
          guint32 p = (guint32) g_rand_int_range (rand, 0, (gint32) routines);
          if ((h[n - 1] >> 1) == p)
            continue; /* A1: the context stays */
          guint32 want[4096];
          guint wn = brute_history (h, n, p, want);
          guint got_n = amon_history_call (h, n, p, stack[depth]);
          CU_ASSERT_EQUAL_FATAL (got_n, wn);
          CU_ASSERT_FATAL (memcmp (stack[depth], want, wn * 4) == 0);
          /* invariants: each routine marked once, at its last entry;
           * bounded by 3R + 2 for R distinct routines */
          guint marked[16] = { 0 }, distinct = 0;
          for (guint i = got_n; i-- > 0;)
            {
              guint32 r = stack[depth][i] >> 1;
              if (marked[r] == 0)
                {
                  CU_ASSERT (stack[depth][i] & 1);
                  distinct++;
                }
              else
                CU_ASSERT (!(stack[depth][i] & 1));
              marked[r]++;
            }
          CU_ASSERT (got_n <= 3 * distinct + 2);
          len[depth] = got_n;
          depth++;
        }
    }
  g_rand_free (rand);
}

/* ---- the paper's example ---- */

static amon_limits limits = { AMON_DEFAULT_MAX_DEPTH, AMON_DEFAULT_MAX_HISTORY, AMON_DEFAULT_MAX_MEMORY };

/* fake entry addresses, 24 bytes apart so that some share a home slot in
 * the contexts' transition caches and some do not (amon-fsm.h) */
static char routine_addr[24 * 16];
enum { MAIN, P, Q, R, S };
#define FN(x) ((void *) &routine_addr[24 * (x)])

static guint
contexts_of (amon_machine *m)
{
  guint n = 0;
  for (amon_context *c = m->root; c; c = c->next)
    n++;
  return n;
}

/* The history of @c as "Main P (Q) R" with machine routine indexes
 * translated back to letters; unmarked entries in parentheses. */
static char *
show (amon_machine *m, amon_context *c)
{
  static const char *const names[] = { "Main", "P", "Q", "R", "S" };
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < c->len; i++)
    {
      char *addr = amon_machine_routine (m, c->hist[i] >> 1);
      const char *name = names[(addr - routine_addr) / 24];
      g_string_append_printf (s, (c->hist[i] & 1) ? "%s%s" : "%s(%s)", i ? " " : "", name);
    }
  return g_string_free (s, FALSE);
}

static void
test_paper_example (void)
{
  for (int n = 1; n <= 50; n += 49)
    {
      amon_machine m;
      CU_ASSERT_FATAL (amon_machine_init (&m, &limits) == 0);
      amon_context *main_ctx = amon_machine_call (&m, m.root, FN (MAIN));
      amon_context *c = main_ctx, *c4 = NULL, *c5 = NULL, *c6 = NULL;
      for (int i = 0; i < n; i++)
        {
          c = amon_machine_call (&m, c, FN (P));
          if (i == 1)
            c4 = c;
          c = amon_machine_call (&m, c, FN (Q));
          if (i == 1)
            c5 = c;
          c = amon_machine_call (&m, c, FN (R));
          if (i == 1)
            c6 = c;
        }
      c = amon_machine_call (&m, c, FN (P));
      amon_context *s = amon_machine_call (&m, c, FN (S));
      if (n == 1)
        {
          /* Main, C1, C2, C3, C4 and S's context, plus the root */
          CU_ASSERT_EQUAL (contexts_of (&m), 7);
          g_autofree char *h = show (&m, c);
          CU_ASSERT_STRING_EQUAL (h, "Main (P) Q R P");
        }
      else
        {
          /* however deep the recursion: C1..C6 of Figure 2, Main, S's
           * context and the root */
          CU_ASSERT_EQUAL (contexts_of (&m), 9);
          g_autofree char *h4 = show (&m, c4), *h5 = show (&m, c5), *h6 = show (&m, c6), *hs = show (&m, s);
          CU_ASSERT_STRING_EQUAL (h4, "Main (P) Q R P");
          CU_ASSERT_STRING_EQUAL (h5, "Main (P) (Q) R P Q");
          /* "Q is redundant, and deleting it yields ..." */
          CU_ASSERT_STRING_EQUAL (h6, "Main (P) (R) P Q R");
          CU_ASSERT_PTR_EQUAL (c, c4); /* back to C4: a cycle in the machine */
          CU_ASSERT_STRING_EQUAL (hs, "Main (P) Q R P S");
          CU_ASSERT_EQUAL (c4->entries, (guint64) n);
          /* transitions made at most a few times more than contexts */
          CU_ASSERT (m.trans_count <= 10);
        }
      amon_machine_release (&m);
    }
}

/* ---- the whole chain against the full stack ---- */

#define NR 12
typedef struct {
  guint64 total[NR], self[NR];
  guint64 self1[NR][NR], child1[NR][NR], self2[NR][NR], child2[NR][NR];
  guint64 calls[NR][NR];
  guint64 outside;
} Truth;

typedef struct {
  uintptr_t sp;
  void *site;
} Hook;

typedef struct {
  GArray *stack;      /* guint: routine per real frame */
  GArray *hooks;      /* Hook per real frame: what its hooks pass */
  GArray *collapsed;  /* guint: routine per run of direct recursion */
  GArray *run;        /* guint: length of each run */
  GArray *occ[NR];    /* guint: positions in collapsed */
} Model;

static void
model_charge (Model *mo, Truth *t, guint64 d)
{
  guint n = mo->collapsed->len;
  if (n == 0)
    {
      t->outside += d;
      return;
    }
  guint running = g_array_index (mo->collapsed, guint, n - 1);
  t->self[running] += d;
  for (guint r = 0; r < NR; r++)
    {
      if (mo->occ[r]->len == 0)
        continue;
      guint j = g_array_index (mo->occ[r], guint, mo->occ[r]->len - 1);
      t->total[r] += d;
      if (j + 1 < n)
        {
          guint c = g_array_index (mo->collapsed, guint, j + 1);
          if (c == running)
            t->self1[r][c] += d;
          else
            t->child1[r][c] += d;
        }
      if (j > 0)
        {
          guint a = g_array_index (mo->collapsed, guint, j - 1);
          if (r == running)
            t->self2[a][r] += d;
          else
            t->child2[a][r] += d;
        }
    }
}

static void
model_push (Model *mo, Truth *t, guint r)
{
  guint n = mo->collapsed->len;
  if (mo->stack->len)
    t->calls[g_array_index (mo->stack, guint, mo->stack->len - 1)][r]++;
  g_array_append_val (mo->stack, r);
  if (n && g_array_index (mo->collapsed, guint, n - 1) == r)
    {
      g_array_index (mo->run, guint, n - 1)++;
      return;
    }
  guint one = 1;
  g_array_append_val (mo->collapsed, r);
  g_array_append_val (mo->run, one);
  g_array_append_val (mo->occ[r], n);
}

static void
model_pop (Model *mo)
{
  g_array_set_size (mo->stack, mo->stack->len - 1);
  guint n = mo->collapsed->len;
  if (--g_array_index (mo->run, guint, n - 1) > 0)
    return;
  guint r = g_array_index (mo->collapsed, guint, n - 1);
  g_array_set_size (mo->collapsed, n - 1);
  g_array_set_size (mo->run, n - 1);
  g_array_set_size (mo->occ[r], mo->occ[r]->len - 1);
}

#define BASE ((uintptr_t) 1 << 40)
#define SP(depth) (BASE - (uintptr_t) (depth) * 64)
#define SITE(n) ((void *) ((uintptr_t) 1 << 32 | (uintptr_t) (n)))

static guint64
value_of (CgGraph *g, CgCosts *c, const CgValue *(*get) (const CgCosts *, CgArcId), CgFunctionId a, CgFunctionId b)
{
  CgArcId arc = a == CG_NO_ID || b == CG_NO_ID ? CG_NO_ID : cg_graph_lookup_arc (g, a, b);
  if (arc == CG_NO_ID)
    return 0;
  const CgValue *v = get (c, arc);
  return v ? v[0].n : 0;
}

static guint64 resyncs_seen;

/* Replays one random program; @longjmps: sometimes leave frames without
 * their exits, as longjmp does.  Calls are real (a new frame below the
 * caller's, a call site of their own) or inlined (the caller's frame and
 * return address, as gcc passes them for a callee it inlined); exits
 * pass a stack address that means nothing, as gcc's may not. */
static void
replay (GRand *rand, guint routines, guint max_depth, guint events, gboolean longjmps)
{
  amon_thread *th = g_new0 (amon_thread, 1);
  guint64 now = 1000;
  CU_ASSERT_FATAL (amon_thread_init (th, &limits, now) == 0);
  Truth *t = g_new0 (Truth, 1);
  Model mo = { g_array_new (FALSE, FALSE, sizeof (guint)), g_array_new (FALSE, FALSE, sizeof (Hook)),
               g_array_new (FALSE, FALSE, sizeof (guint)), g_array_new (FALSE, FALSE, sizeof (guint)), { NULL } };
  guint sites = 0;
  gboolean after_longjmp = FALSE;
  guint recall_fn = G_MAXUINT; /* after a longjmp: call again, so */
  Hook recall = { 0, NULL };
  for (guint r = 0; r < NR; r++)
    mo.occ[r] = g_array_new (FALSE, FALSE, sizeof (guint));
  /* dive deep and come back, a few times */
  gboolean diving = TRUE;
  for (guint e = 0; e < events; e++)
    {
      guint64 d = (guint64) g_rand_int_range (rand, 0, 1000);
      model_charge (&mo, t, d);
      now += d;
      guint depth = mo.stack->len;
      if (depth >= max_depth)
        diving = FALSE;
      else if (depth == 0)
        diving = TRUE;
      if (longjmps && depth > 2 && g_rand_int_range (rand, 0, 200) == 0)
        {
          /* longjmp: the frames above a random depth vanish; the monitor
           * learns it at the next event, which follows at once */
          guint keep = (guint) g_rand_int_range (rand, 1, (gint32) depth);
          /* not out of an inlined callee into its container: the two
           * share a frame and a return address, so no monitor could tell
           * that the callee is gone */
          while (keep < depth && g_array_index (mo.hooks, Hook, keep).sp == g_array_index (mo.hooks, Hook, keep - 1).sp)
            keep++;
          /* the caller may call the routine it called again, from the
           * same site, which the monitor can tell from gcc's inlining of
           * a routine into itself only when deeper frames were left */
          recall_fn = G_MAXUINT;
          if (keep < depth && g_array_index (mo.hooks, Hook, depth - 1).sp < g_array_index (mo.hooks, Hook, keep).sp
              && g_rand_boolean (rand))
            {
              recall_fn = g_array_index (mo.stack, guint, keep);
              recall = g_array_index (mo.hooks, Hook, keep);
            }
          while (mo.stack->len > keep)
            {
              model_pop (&mo);
              g_array_set_size (mo.hooks, mo.stack->len);
            }
          depth = keep;
          after_longjmp = TRUE;
        }
      gboolean call = depth == 0 || recall_fn != G_MAXUINT || g_rand_int_range (rand, 0, 100) < (diving ? 65 : 35);
      if (recall_fn != G_MAXUINT)
        {
          model_push (&mo, t, recall_fn);
          g_array_append_val (mo.hooks, recall);
          amon_thread_enter (th, FN (recall_fn), recall.site, recall.sp, now);
          recall_fn = G_MAXUINT;
        }
      else if (call)
        {
          guint caller = depth ? g_array_index (mo.stack, guint, depth - 1) : 0;
          /* bias to recursion: self (direct) or the routine below (mutual) */
          guint r = (guint) g_rand_int_range (rand, 0, (gint32) routines);
          int k = g_rand_int_range (rand, 0, 10);
          if (depth && k < 2)
            r = caller;
          else if (depth >= 2 && k < 5)
            r = g_array_index (mo.stack, guint, depth - 2);
          Hook h = { SP (1), SITE (++sites) };
          if (depth)
            {
              Hook top = g_array_index (mo.hooks, Hook, depth - 1);
              /* inlined, into itself too as gcc does; not right after a
               * longjmp, where it could not be told from the frame left
               * behind */
              if (!after_longjmp && g_rand_int_range (rand, 0, 5) == 0)
                h = top;
              else
                h.sp = top.sp - 64;
            }
          model_push (&mo, t, r);
          g_array_append_val (mo.hooks, h);
          amon_thread_enter (th, FN (r), h.site, h.sp, now);
        }
      else
        {
          guint r = g_array_index (mo.stack, guint, depth - 1);
          Hook h = g_array_index (mo.hooks, Hook, depth - 1);
          model_pop (&mo);
          g_array_set_size (mo.hooks, mo.stack->len);
          amon_thread_exit (th, FN (r), h.site, h.sp + (uintptr_t) g_rand_int_range (rand, 0, 3) * 8 - 8, now);
        }
      after_longjmp = FALSE;
      CU_ASSERT_EQUAL_FATAL (th->stop_reason, 0);
    }
  guint64 d = 17;
  model_charge (&mo, t, d);
  amon_thread_charge_all (th, now + d);

  /* write amon.out, read it with cgtools */
  amon_clock clock = { .kind = AMON_CLOCK_WALL, .rate = 1000000000u, .resolution_ps = 1000 };
  amon_run run = { .clock = &clock, .threads = th, .pid = 1 };
  char *path = cg_test_temp_file ("", 0);
  CU_ASSERT_EQUAL_FATAL (amon_write_file (&run, NULL, path), 0);
  g_autoptr (CgProfile) p = cg_profile_new ();
  GError *error = NULL;
  CU_ASSERT_FATAL (cg_read_file (p, path, NULL, &error));
  g_autoptr (CgCosts) c = cg_method_compute (p, CG_METHOD_AUTO, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  CU_ASSERT_EQUAL (cg_costs_method (c), CG_METHOD_EXACT);
  CgGraph *g = cg_profile_graph (p);
  CgFunctionId id[NR];
  for (guint r = 0; r < NR; r++)
    {
      g_autofree char *name = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", (guint64) (uintptr_t) FN (r));
      id[r] = cg_graph_lookup_function (g, cg_graph_intern (g, "", -1), cg_graph_intern (g, name, -1));
    }
  guint64 sum_self = 0;
  for (guint r = 0; r < routines; r++)
    {
      guint64 total = id[r] == CG_NO_ID ? 0 : cg_costs_total_const (c, id[r])[0].n;
      guint64 self = id[r] == CG_NO_ID ? 0 : cg_graph_self_const (g, id[r])[0].n;
      CU_ASSERT_EQUAL (total, t->total[r]);
      CU_ASSERT_EQUAL (self, t->self[r]);
      sum_self += self;
      for (guint q = 0; q < routines; q++)
        {
          CU_ASSERT_EQUAL (value_of (g, c, cg_costs_arc_self_const, id[r], id[q]), t->self1[r][q]);
          CU_ASSERT_EQUAL (value_of (g, c, cg_costs_arc_children_const, id[r], id[q]), t->child1[r][q]);
          CU_ASSERT_EQUAL (value_of (g, c, cg_costs_arc_self2_const, id[r], id[q]), t->self2[r][q]);
          CU_ASSERT_EQUAL (value_of (g, c, cg_costs_arc_children2_const, id[r], id[q]), t->child2[r][q]);
          CU_ASSERT_EQUAL (value_of (g, c, cg_costs_arc_const, id[r], id[q]), t->self1[r][q] + t->child1[r][q]);
          CgArcId arc = id[r] == CG_NO_ID || id[q] == CG_NO_ID ? CG_NO_ID : cg_graph_lookup_arc (g, id[r], id[q]);
          CU_ASSERT_EQUAL (arc == CG_NO_ID ? 0 : cg_graph_arc_calls (g, arc), t->calls[r][q]);
        }
    }
  CU_ASSERT_EQUAL (sum_self + t->outside, now + d - 1000);
  if (!longjmps)
    CU_ASSERT_EQUAL (th->resyncs, 0);
  CU_ASSERT (th->max_depth >= max_depth);
  resyncs_seen += th->resyncs;
  g_clear_error (&error);
  cg_test_remove (path);
  amon_thread_release (th);
  g_free (th);
  g_free (t);
  g_array_unref (mo.stack);
  g_array_unref (mo.hooks);
  g_array_unref (mo.collapsed);
  g_array_unref (mo.run);
  for (guint r = 0; r < NR; r++)
    g_array_unref (mo.occ[r]);
}

/* Calls the routines of @path (letters of "MPQRS") each inside the one
 * before, then returns from them all. */
static void
call_path (amon_thread *th, const char *path, uint64_t *now)
{
  static const char letters[] = "MPQRS";
  guint n = (guint) strlen (path);
  for (guint i = 0; i < n; i++)
    amon_thread_enter (th, FN (strchr (letters, path[i]) - letters), SITE (i + 1), SP (i + 1), (*now)++);
  for (guint i = n; i-- > 0;)
    amon_thread_exit (th, FN (strchr (letters, path[i]) - letters), SITE (i + 1), SP (i + 1), (*now)++);
}

/* The count of contexts in amon.out @path (formats/amon.md). */
static guint64
contexts_in_file (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0, off;
  guint64 n = 0;
  CU_ASSERT_FATAL (g_file_get_contents (path, &data, &len, NULL));
  memcpy (&off, data + 12, 4);
  off &= 0xffffffffu;
  while (off + 16 <= len)
    {
      guint32 tag;
      guint64 size;
      memcpy (&tag, data + off, 4);
      memcpy (&size, data + off + 8, 8);
      if (tag == AMON_SECTION_CONTEXTS)
        memcpy (&n, data + off + 16, 8);
      if (tag == 0)
        break;
      off += 16 + size;
    }
  return n;
}

/* Threads merged: the first one's contexts go in without a look-up (its
 * histories are distinct), and the next threads' find them, through
 * their own routine indexes (R before P in the second thread), so that
 * the histories the threads share are one context each, their calls
 * summed: 5 contexts (M, MP, MPQ, MPR, MR), main->P called 5 times,
 * P->Q 4, P->R 1, main->R 1.  The same with the first thread merged as
 * one that exited before the others (copied, not shared). */
static void
test_merge_threads (void)
{
  static const char *const paths[3][3] = { { "MPQ", "MPR", NULL }, { "MR", "MPQ", NULL }, { "MPQ", "MPQ", NULL } };
  for (int retire_first = 0; retire_first < 2; retire_first++)
    {
      amon_thread *th[3];
      for (int k = 0; k < 3; k++)
        {
          th[k] = g_new0 (amon_thread, 1);
          CU_ASSERT_FATAL (amon_thread_init (th[k], &limits, 0) == 0);
          uint64_t now = 1;
          for (int i = 0; paths[k][i]; i++)
            call_path (th[k], paths[k][i], &now);
          amon_thread_charge_all (th[k], now);
        }
      th[0]->next = th[1];
      th[1]->next = th[2];
      amon_merge *retired = NULL;
      if (retire_first)
        {
          retired = amon_merge_new ();
          CU_ASSERT_FATAL (retired != NULL && amon_merge_thread (retired, th[0]) == 0);
        }
      amon_clock clock = { .kind = AMON_CLOCK_WALL, .rate = 1000000000u, .resolution_ps = 1000 };
      amon_run run = { .clock = &clock, .threads = th[retire_first], .pid = 1 };
      char *path = cg_test_temp_file ("", 0);
      CU_ASSERT_EQUAL_FATAL (amon_write_file (&run, retired, path), 0);
      amon_merge_free (retired);
      CU_ASSERT_EQUAL (contexts_in_file (path), 5);
      g_autoptr (CgProfile) p = cg_profile_new ();
      GError *error = NULL;
      CU_ASSERT_FATAL (cg_read_file (p, path, NULL, &error));
      CgGraph *g = cg_profile_graph (p);
      CgFunctionId id[4];
      for (guint r = 0; r < 4; r++)
        {
          g_autofree char *name = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", (guint64) (uintptr_t) FN (r));
          id[r] = cg_graph_lookup_function (g, cg_graph_intern (g, "", -1), cg_graph_intern (g, name, -1));
          CU_ASSERT_FATAL (id[r] != CG_NO_ID);
        }
      static const struct { guint from, to; guint64 calls; } arcs[] = { { MAIN, P, 5 }, { P, Q, 4 }, { P, R, 1 }, { MAIN, R, 1 } };
      for (guint a = 0; a < G_N_ELEMENTS (arcs); a++)
        {
          CgArcId arc = cg_graph_lookup_arc (g, id[arcs[a].from], id[arcs[a].to]);
          CU_ASSERT_FATAL (arc != CG_NO_ID);
          CU_ASSERT_EQUAL (cg_graph_arc_calls (g, arc), arcs[a].calls);
        }
      cg_test_remove (path);
      for (int k = 0; k < 3; k++)
        {
          amon_thread_release (th[k]);
          g_free (th[k]);
        }
    }
}

static void
test_random_programs (void)
{
  GRand *rand = g_rand_new_with_seed (2004);
  for (int i = 0; i < 40; i++)
    replay (rand, 2 + (guint) (i % 4), 40, 3000, FALSE);
  g_rand_free (rand);
}

/* more routines than a context's cache holds: its transitions are
 * evicted and found again in the machine's table */
static void
test_many_routines (void)
{
  GRand *rand = g_rand_new_with_seed (2026);
  for (int i = 0; i < 6; i++)
    replay (rand, NR, 30, 6000, i % 2);
  g_rand_free (rand);
}

static void
test_deep_recursion (void)
{
  GRand *rand = g_rand_new_with_seed (10000);
  for (guint routines = 1; routines <= 5; routines++)
    replay (rand, routines, 10000, 80000, FALSE);
  g_rand_free (rand);
}

static void
test_longjmp_resynchronises (void)
{
  GRand *rand = g_rand_new_with_seed (1979);
  resyncs_seen = 0;
  for (int i = 0; i < 30; i++)
    replay (rand, 2 + (guint) (i % 4), 60, 4000, TRUE);
  /* the generator did make the monitor repair its stack */
  CU_ASSERT (resyncs_seen > 30);
  g_rand_free (rand);
}

static void
test_unmatched_exit_ignored (void)
{
  amon_thread *th = g_new0 (amon_thread, 1);
  CU_ASSERT_FATAL (amon_thread_init (th, &limits, 0) == 0);
  /* profiling started inside P: its return matches nothing */
  amon_thread_exit (th, FN (P), SITE (1), SP (1), 5);
  CU_ASSERT_EQUAL (th->unmatched, 1);
  amon_thread_enter (th, FN (Q), SITE (2), SP (1), 6);
  /* a return from a routine that is not on the stack at all, and one
   * from another call site */
  amon_thread_exit (th, FN (R), SITE (2), SP (1), 7);
  amon_thread_exit (th, FN (Q), SITE (3), SP (1), 7);
  CU_ASSERT_EQUAL (th->unmatched, 3);
  CU_ASSERT_EQUAL (amon_thread_depth (th), 1);
  amon_thread_exit (th, FN (Q), SITE (2), SP (1), 8);
  CU_ASSERT_EQUAL (amon_thread_depth (th), 0);
  amon_thread_release (th);
  g_free (th);
}

/* Routines aligned to 16, 32 or 64 bytes (gcc's -falign-functions), at
 * any entry offset (-mfentry's call past an endbr64 is 9 bytes in), each
 * fill the cache's sets evenly: 64 routines side by side put 8 in each
 * of its AMON_CACHE / 2 sets, not all in a half or a quarter of them. */
static void
test_cache_sets_spread (void)
{
  static const uintptr_t aligns[] = { 16, 32, 64, 128 };
  static const uintptr_t offsets[] = { 0, 5, 9 };
  for (guint a = 0; a < G_N_ELEMENTS (aligns); a++)
    for (guint o = 0; o < G_N_ELEMENTS (offsets); o++)
      {
        guint in_set[AMON_CACHE / 2] = { 0 };
        guint n = 8 * AMON_CACHE / 2;
        for (guint i = 0; i < n; i++)
          {
            uintptr_t h = AMON_CACHE_HOME (0x401000 + i * aligns[a] + offsets[o]);
            CU_ASSERT_FATAL (h % 2 == 0 && h < AMON_CACHE);
            in_set[h / 2]++;
          }
        for (guint k = 0; k < AMON_CACHE / 2; k++)
          CU_ASSERT_EQUAL (in_set[k], 8);
      }
}

/* Entry addresses for the cache tests, 16 bytes apart (gcc's default
 * alignment), so that tags and far sets are shared as in a program. */
static char callee_addr[16 * 1024];
#define CALLEE(i) ((void *) &callee_addr[16 * (i)])

/* The paper's example over 700 triples of routines (P_i, Q_i, R_i) from
 * one Main: 4,200 contexts, so that the history table grows three times
 * (it starts with 1,024 slots, at most half full), and each triple's
 * cycle back to its C4 (C6 --P_i--> C4, a history made long before and
 * moved by every growth) is found in the table (B2), not made again. */
enum { TRIPLES = 700 };
static char triple_addr[16 * 3 * TRIPLES];
#define TRIPLE(i, k) ((void *) &triple_addr[16 * (3 * (i) + (k))])

static void
test_history_table_grows (void)
{
  amon_machine m;
  CU_ASSERT_FATAL (amon_machine_init (&m, &limits) == 0);
  amon_context *main_ctx = amon_machine_call (&m, m.root, FN (MAIN));
  amon_context *c4[TRIPLES];
  for (guint i = 0; i < TRIPLES; i++)
    {
      amon_context *c = main_ctx;
      for (guint round = 0; round < 2; round++)
        {
          c = amon_machine_call (&m, c, TRIPLE (i, 0));
          if (round == 1)
            c4[i] = c;
          c = amon_machine_call (&m, c, TRIPLE (i, 1));
          c = amon_machine_call (&m, c, TRIPLE (i, 2));
        }
    }
  CU_ASSERT_EQUAL (contexts_of (&m), 2 + 6 * TRIPLES);
  CU_ASSERT (m.hist_mask + 1 >= 8192);
  for (guint i = 0; i < TRIPLES; i++)
    {
      /* C6 of triple i, reached again through the caches, calls P_i:
       * a transition not made yet */
      amon_context *c = main_ctx;
      for (guint k = 0; k < 6; k++)
        c = amon_machine_call (&m, c, TRIPLE (i, k % 3));
      c = amon_machine_call (&m, c, TRIPLE (i, 0));
      CU_ASSERT_PTR_EQUAL (c, c4[i]);
    }
  CU_ASSERT_EQUAL (contexts_of (&m), 2 + 6 * TRIPLES);
  CU_ASSERT_EQUAL (m.n_b2, (guint64) TRIPLES);
  amon_machine_release (&m);
}

/* One context per history (steps B2-B3): random walks of calls and
 * returns over 3 to 8 routines, half the calls recursive, so that
 * histories hold unmarked entries and many are reached by more than one
 * transition.  Each context a call enters has the history that steps
 * A2-A5 read literally give from its caller's (brute_history), and no
 * two contexts have one history: those all marked, which the machine
 * neither looks up nor keeps in its history table (a transition of
 * their parent's alone makes them), and the others, found again by B2
 * (both kinds many times). */
static void
test_one_context_per_history (void)
{
  GRand *rand = g_rand_new_with_seed (62);
  guint64 contexts = 0, marked = 0, found = 0, differ = 0, twice = 0;
  for (guint program = 0; program < 120; program++)
    {
      amon_machine m;
      CU_ASSERT_FATAL (amon_machine_init (&m, &limits) == 0);
      guint routines = 3 + program % 6, depth = 1;
      amon_context *stack[48];
      stack[0] = amon_machine_call (&m, m.root, CALLEE (1));
      for (guint step = 0; step < 4000; step++)
        {
          if (depth > 1 && (depth == G_N_ELEMENTS (stack) || g_rand_int_range (rand, 0, 100) < 45))
            {
              depth--;
              continue;
            }
          amon_context *from = stack[depth - 1];
          guint fn = 1 + (guint) g_rand_int_range (rand, 0, (gint32) routines);
          if (depth >= 2 && g_rand_boolean (rand))
            {
              /* recursion: a routine of the stack called again */
              guint32 h = from->hist[g_rand_int_range (rand, 0, (gint32) from->len)] >> 1;
              fn = (guint) (((char *) amon_machine_routine (&m, h) - callee_addr) / 16);
            }
          amon_context *to = amon_machine_call (&m, from, CALLEE (fn));
          CU_ASSERT_FATAL (to != NULL);
          if (to != from)
            {
              guint32 want[4096];
              guint n = brute_history (from->hist, from->len, to->hist[to->len - 1] >> 1, want);
              differ += to->len != n || memcmp (to->hist, want, (size_t) n * 4) != 0;
            }
          stack[depth++] = to;
        }
      GHashTable *seen = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
      for (amon_context *c = m.root->next; c; c = c->next)
        {
          guint32 all = F;
          for (guint i = 0; i < c->len; i++)
            all &= c->hist[i];
          marked += all;
          contexts++;
          GBytes *key = g_bytes_new (c->hist, (gsize) c->len * 4);
          twice += !g_hash_table_add (seen, key);
        }
      found += m.n_b2;
      g_hash_table_destroy (seen);
      amon_machine_release (&m);
    }
  CU_ASSERT_EQUAL (differ, 0);
  CU_ASSERT_EQUAL (twice, 0);
  /* both kinds, and histories found again, many times */
  CU_ASSERT (marked > 500 && contexts - marked > 1000 && found > 1000);
  g_rand_free (rand);
}

/* A context that calls 1, 2, 3 or 20 routines (each several times):
 * the first two are in its near slots, in the order first called, and it
 * has no far cache until a third is called; every call finds the
 * context that the transition table has, each entered as often as it was
 * called, and a context that calls nothing has neither. */
static void
test_cache_levels (void)
{
  static const guint callees[] = { 1, 2, 3, 20 };
  for (guint k = 0; k < G_N_ELEMENTS (callees); k++)
    {
      guint n = callees[k];
      amon_machine m;
      CU_ASSERT_FATAL (amon_machine_init (&m, &limits) == 0);
      amon_context *from = amon_machine_call (&m, m.root, FN (MAIN));
      amon_context *to[20];
      for (guint round = 0; round < 4; round++)
        for (guint i = 0; i < n; i++)
          {
            amon_context *c = amon_machine_call (&m, from, CALLEE (i));
            CU_ASSERT_FATAL (c != NULL && c->fn == CALLEE (i));
            /* the table is asked only once the caches lost one */
            amon_context *t = amon_machine_find (&m, from, CALLEE (i));
            CU_ASSERT (t == c || (t == NULL && !from->spilled));
            if (round == 0)
              to[i] = c;
            else
              CU_ASSERT_PTR_EQUAL (c, to[i]);
          }
      for (guint i = 0; i < n; i++)
        {
          CU_ASSERT_EQUAL (to[i]->entries, 4);
          CU_ASSERT (to[i]->tag[0] == 0 && to[i]->tag[1] == 0 && to[i]->far_at == 0);
          amon_context *c = amon_cache_find (from, CALLEE (i));
          if (i < AMON_NEAR)
            {
              CU_ASSERT_PTR_EQUAL (from->near[i], to[i]);
              CU_ASSERT_EQUAL (from->tag[i], AMON_NEAR_TAG (CALLEE (i)));
              CU_ASSERT_PTR_EQUAL (c, to[i]);
            }
          else
            /* the far cache keeps the two last taken of each set */
            CU_ASSERT (c == to[i] || (c == NULL && n > AMON_NEAR + AMON_CACHE / 2));
        }
      CU_ASSERT_EQUAL (from->tag[1] != 0, n >= 2);
      CU_ASSERT_EQUAL (from->far_at != 0, n > AMON_NEAR);
      CU_ASSERT_EQUAL (from->spilled, n > AMON_NEAR + AMON_CACHE);
      /* the root's call of main besides; in the table only where spilled */
      CU_ASSERT_EQUAL (m.n_transitions, n + 1);
      CU_ASSERT_EQUAL (m.trans_count, from->spilled ? n : 0);
      CU_ASSERT_PTR_NULL (amon_cache_find (from, CALLEE (100)));
      amon_machine_release (&m);
    }
}

/* Calls of random routines (1 to 40 callees a context, so that some
 * far caches push transitions out and others never do) from random
 * contexts, checked against a brute-force list of the transitions made:
 * a call along a transition made before enters the same context and
 * adds none (the table is asked only when the caller's caches lost one,
 * amon_context.spilled, so one that lost any and missed must find it
 * there), and the table holds each transition once. */
static void
test_cache_spill_random (void)
{
  enum { CALLS = 200000, MAXT = 40000 };
  static struct { amon_context *from, *to; guint fn; } seen[MAXT];
  guint n_seen = 0;
  amon_machine m;
  CU_ASSERT_FATAL (amon_machine_init (&m, &limits) == 0);
  GRand *rand = g_rand_new_with_seed (49);
  GHashTable *index = g_hash_table_new (g_int64_hash, g_int64_equal);
  gint64 *keys = g_new (gint64, MAXT);
  amon_context *ctx[512];
  guint n_ctx = 0;
  ctx[n_ctx++] = amon_machine_call (&m, m.root, FN (MAIN));
  guint wrong = 0;
  for (guint k = 0; k < CALLS && n_seen + 1 < MAXT; k++)
    {
      guint i = (guint) g_rand_int_range (rand, 0, (gint32) n_ctx);
      amon_context *from = ctx[i];
      /* a context's callees: a few, or up to 40 for one in eight */
      guint spread = i % 8 == 0 ? 40 : 1 + i % 3;
      guint fn = g_rand_int_range (rand, 0, (gint32) spread) + 1;
      amon_context *to = amon_machine_call (&m, from, CALLEE (fn));
      CU_ASSERT_FATAL (to != NULL);
      if (to == from)
        continue; /* A1 */
      gint64 key = (gint64) (((guint64) (uintptr_t) from) << 12 ^ fn);
      gpointer at;
      if (g_hash_table_lookup_extended (index, &key, NULL, &at))
        wrong += seen[GPOINTER_TO_UINT (at)].to != to;
      else
        {
          keys[n_seen] = key;
          seen[n_seen].from = from;
          seen[n_seen].to = to;
          seen[n_seen].fn = fn;
          g_hash_table_insert (index, &keys[n_seen], GUINT_TO_POINTER (n_seen));
          n_seen++;
          if (n_ctx < G_N_ELEMENTS (ctx) && g_rand_int_range (rand, 0, 4) == 0)
            ctx[n_ctx++] = to;
        }
    }
  CU_ASSERT_EQUAL (wrong, 0);
  /* the root's call of main besides */
  CU_ASSERT_EQUAL (m.n_transitions, n_seen + 1);
  guint spilled = 0, lost = 0;
  for (guint i = 0; i < n_seen; i++)
    {
      amon_context *c = amon_cache_find (seen[i].from, CALLEE (seen[i].fn));
      amon_context *t = amon_machine_find (&m, seen[i].from, CALLEE (seen[i].fn));
      CU_ASSERT (c == seen[i].to || (c == NULL && t == seen[i].to));
      /* a context that spilled has all its transitions in the table */
      lost += seen[i].from->spilled && t != seen[i].to;
      spilled += seen[i].from->spilled;
    }
  CU_ASSERT_EQUAL (lost, 0);
  /* and the table holds those alone, each once */
  CU_ASSERT_EQUAL (m.trans_count, spilled);
  guint others = 0;
  for (guint j = 0; j <= m.trans_mask; j++)
    others += m.trans[j].from != NULL && !m.trans[j].from->spilled;
  CU_ASSERT_EQUAL (others, 0);
  /* both kinds were made */
  CU_ASSERT (spilled > 0 && spilled < n_seen);
  g_hash_table_destroy (index);
  g_free (keys);
  g_rand_free (rand);
  amon_machine_release (&m);
}

/* A call the hooks' plain way makes (amon_machine_make_plain, falling
 * back to amon_machine_call_slow where it needs memory mapped): random
 * walks of calls and returns over 300 routines, the same on a machine
 * that takes the slow way only; both make the same contexts in the same
 * order, each entered as often, with the same transitions.  Where the
 * plain way declines it changes nothing, and it declines only near where
 * the slow way maps memory (a table's growth, a new chunk of the arena:
 * it asks for room for the longest history the call could make). */
static void
test_make_plain_as_slow (void)
{
  amon_machine a, b;
  CU_ASSERT_FATAL (amon_machine_init (&a, &limits) == 0);
  CU_ASSERT_FATAL (amon_machine_init (&b, &limits) == 0);
  GRand *rand = g_rand_new_with_seed (4949);
  amon_context *sa[64], *sb[64];
  guint depth = 0, made = 0, declined = 0, mapped = 0, unchanged = 0;
  sa[0] = a.root;
  sb[0] = b.root;
  for (guint k = 0; k < 400000; k++)
    {
      if (depth > 0 && (depth == 63 || g_rand_int_range (rand, 0, 2) == 0))
        {
          depth--;
          continue;
        }
      void *fn = CALLEE (g_rand_int_range (rand, 0, 300));
      amon_context *from = sa[depth], *to;
      if (fn == from->fn)
        to = amon_machine_call (&a, from, fn);
      else if ((to = amon_cache_find (from, fn)) != NULL || (to = amon_machine_find (&a, from, fn)) != NULL)
        {
          /* as the hooks do with one found: counted, cached */
          if (amon_cache_find (from, fn) == NULL)
            amon_cache_put (from, fn, to);
          to->entries++;
        }
      else
        {
          uint64_t bytes = a.bytes;
          uint32_t contexts = (uint32_t) a.n_contexts, trans = a.trans_count;
          char *next = a.arena.next;
          to = amon_machine_make_plain (&a, from, fn);
          if (to != NULL)
            {
              made++;
              CU_ASSERT_EQUAL (a.bytes, bytes); /* nothing mapped */
              to->entries++;
            }
          else
            {
              declined++;
              unchanged += a.n_contexts == contexts && a.trans_count == trans && a.arena.next == next && a.bytes == bytes;
              to = amon_machine_call_slow (&a, from, fn);
              mapped += a.bytes != bytes;
            }
        }
      amon_context *tb = amon_machine_call (&b, sb[depth], fn);
      CU_ASSERT_FATAL (to != NULL && tb != NULL);
      depth++;
      sa[depth] = to;
      sb[depth] = tb;
    }
  CU_ASSERT (made > 1000 && declined > 0);
  CU_ASSERT_EQUAL (unchanged, declined);
  /* near a growth only (here 1,002 of 195,004, 814 of them mapping) */
  CU_ASSERT (mapped > 0 && declined < made / 100);
  CU_ASSERT_EQUAL (a.n_contexts, b.n_contexts);
  CU_ASSERT_EQUAL (a.trans_count, b.trans_count);
  CU_ASSERT_EQUAL (a.n_b2, b.n_b2);
  guint differ = 0;
  for (amon_context *x = a.root, *y = b.root; x || y; x = x->next, y = y->next)
    {
      if (!x || !y)
        {
          differ++;
          break;
        }
      differ += x->len != y->len || x->fn != y->fn || x->entries != y->entries || x->recursive != y->recursive
                || memcmp (x->hist, y->hist, (size_t) x->len * 4) != 0;
    }
  CU_ASSERT_EQUAL (differ, 0);
  g_rand_free (rand);
  amon_machine_release (&a);
  amon_machine_release (&b);
}

/* A routine that told a return in one context (amon_machine_told):
 * its contexts made from then on start told, whoever calls it, and
 * those of other routines do not. */
static void
test_told_by_routine (void)
{
  amon_machine m;
  CU_ASSERT_FATAL (amon_machine_init (&m, &limits) == 0);
  amon_context *main_ctx = amon_machine_call (&m, m.root, FN (MAIN));
  amon_context *a = amon_machine_call (&m, main_ctx, CALLEE (1));
  amon_context *early = amon_machine_call (&m, a, CALLEE (3));
  amon_context *b = amon_machine_call (&m, main_ctx, CALLEE (2));
  amon_context *x = amon_machine_call (&m, a, CALLEE (2));
  CU_ASSERT (!a->told && !b->told && !x->told && !early->told);
  amon_machine_told (&m, x);
  CU_ASSERT (x->told && !b->told);
  /* CALLEE (2) called from CALLEE (3)'s context, new: told */
  amon_context *y = amon_machine_call (&m, early, CALLEE (2));
  CU_ASSERT (y != x && y->fn == CALLEE (2) && y->told);
  /* CALLEE (3) from CALLEE (2)'s: not */
  CU_ASSERT (!amon_machine_call (&m, b, CALLEE (3))->told);
  /* one made before stays as it was until its own told return */
  CU_ASSERT (!b->told);
  amon_machine_release (&m);
}

/* ---- the walk up the stack (amon-walk.h) ----
 * A stack of words made here, routines and call sites at addresses in a
 * fake code area, and what a walk knows of each site (t->owners) written
 * as amon_owner and amon_cfa_at would find it. */
static char walk_code[4096];
#define CODE(off) ((uintptr_t) &walk_code[off])

/* What the thread knows of return address @site: its routine starts at
 * @owner, and the CFA at the call is the stack pointer there + @offset. */
static void
walk_know (amon_thread *t, uintptr_t site, uintptr_t owner, int32_t offset)
{
  amon_site *e = &t->owners[AMON_SITE_SLOT (site)];
  e->site = site;
  e->owner = owner;
  e->cfa = (amon_cfa) { .offset = offset };
}

static void
walk_forget (amon_thread *t, uintptr_t site)
{
  t->owners[AMON_SITE_SLOT (site)].site = 0;
}

/* A stack: main's frame at word 240 (the root calls it), A's at 200
 * (called by main), B's at 180 (called by A, returned, its return
 * address left in its slot: a walk alone tells).  A calls from S (word
 * 170: B's frame is gone), and a library routine L, called by A from RL
 * (word 190), calls back from S2 (word 150).  A plain walk finds A from
 * what the thread knows and declines, changing nothing, where it knows
 * too little; one that is not plain finds the same. */
static void
test_walk_plain (void)
{
  /* the thread's machine: a walk learns a site in it */
  amon_thread *t = g_malloc0 (sizeof *t);
  amon_machine *m = &t->m;
  CU_ASSERT_FATAL (amon_machine_init (m, &limits) == 0);
  t->owners = g_new0 (amon_site, AMON_OWNERS);
  static uintptr_t stack[256];
  amon_frame frames[8];
  uintptr_t main_fn = CODE (3072), a_fn = CODE (0), b_fn = CODE (512), l_fn = CODE (2048);
  uintptr_t s = CODE (100), rl = CODE (120), s2 = CODE (2100), rb = CODE (60), ra = CODE (3100);
  amon_context *main_ctx = amon_machine_call (m, m->root, (void *) main_fn);
  amon_context *a_ctx = amon_machine_call (m, main_ctx, (void *) a_fn);
  amon_context *b_ctx = amon_machine_call (m, a_ctx, (void *) b_fn);
  frames[0] = (amon_frame) { NULL, NULL, UINTPTR_MAX, m->root };
  frames[1] = (amon_frame) { (void *) main_fn, (void *) CODE (4000), (uintptr_t) &stack[240], main_ctx };
  frames[2] = (amon_frame) { (void *) a_fn, (void *) ra, (uintptr_t) &stack[200], a_ctx };
  frames[3] = (amon_frame) { (void *) b_fn, (void *) rb, (uintptr_t) &stack[180], b_ctx };
  stack[240] = CODE (4000);
  stack[200] = ra;
  stack[180] = rb;
  stack[190] = rl;
  t->stack = frames;
  t->top = &frames[3];
  t->home = (uintptr_t) &stack[255];
  amon_frame *top = &frames[3];

  for (int plain = 1; plain >= 0; plain--)
    {
      /* A's own call, B gone: found once S is known, learnt by A's context */
      a_ctx->site_lo = 0;
      a_ctx->site_span = 0;
      t->foreign_site = 0;
      t->foreign_ctx = NULL;
      walk_forget (t, s);
      if (plain)
        {
          CU_ASSERT_PTR_NULL (amon_walk_site (t, top, s, (uintptr_t) &stack[170], AMON_NO_RBP, 1));
          CU_ASSERT (!amon_site_seen (a_ctx, s));
        }
      walk_know (t, s, a_fn, (200 - 170) * 8);
      CU_ASSERT_PTR_EQUAL (amon_walk_site (t, top, s, (uintptr_t) &stack[170], AMON_NO_RBP, plain), &frames[2]);
      CU_ASSERT (amon_site_seen (a_ctx, s));
      CU_ASSERT (!amon_site_seen (b_ctx, s));
      CU_ASSERT_EQUAL (t->foreign_site, 0);

      /* L's callback: two steps, through RL, whose routine the thread
       * must know too; A's context is remembered with S2 */
      walk_know (t, s2, l_fn, (190 - 150) * 8);
      walk_forget (t, rl);
      if (plain)
        {
          CU_ASSERT_PTR_NULL (amon_walk_site (t, top, s2, (uintptr_t) &stack[150], AMON_NO_RBP, 1));
          CU_ASSERT_EQUAL (t->foreign_site, 0);
        }
      walk_know (t, rl, a_fn, (200 - 190) * 8);
      CU_ASSERT_PTR_EQUAL (amon_walk_site (t, top, s2, (uintptr_t) &stack[150], AMON_NO_RBP, plain), &frames[2]);
      CU_ASSERT_EQUAL (t->foreign_site, s2);
      CU_ASSERT_PTR_EQUAL (t->foreign_ctx, a_ctx);
      CU_ASSERT (!amon_site_seen (a_ctx, s2));

      /* B's slot holding A's call's return address is A's frame only
       * when the CFA says so: with B's routine owning the site, B */
      walk_know (t, CODE (530), b_fn, (180 - 170) * 8);
      CU_ASSERT_PTR_EQUAL (amon_walk_site (t, top, CODE (530), (uintptr_t) &stack[170], AMON_NO_RBP, plain),
                           &frames[3]);
      CU_ASSERT (amon_site_seen (b_ctx, CODE (530)));
      b_ctx->site_lo = 0;
      b_ctx->site_span = 0;
    }
  /* the shadow stack is the walk's to read, not to change */
  CU_ASSERT_PTR_EQUAL (t->top, &frames[3]);
  g_free (t->owners);
  amon_machine_release (m);
  g_free (t);
}

/* The call sites seen from a routine are its own in every context: a
 * context made after a walk found one of A's sites (A called from
 * main) knows it when A is called from B, and so do those made after
 * that one learnt another; a context made before, and B's, do not; a
 * site more than 2 GB from A's entry is learnt by none. */
static void
test_sites_by_routine (void)
{
  /* the thread's machine: a walk learns a site in it */
  amon_thread *t = g_malloc0 (sizeof *t);
  amon_machine *m = &t->m;
  CU_ASSERT_FATAL (amon_machine_init (m, &limits) == 0);
  t->owners = g_new0 (amon_site, AMON_OWNERS);
  static uintptr_t stack[256];
  amon_frame frames[4];
  uintptr_t main_fn = CODE (3072), a_fn = CODE (0), b_fn = CODE (512), c_fn = CODE (1024), d_fn = CODE (1536),
            e_fn = CODE (2048);
  uintptr_t s = CODE (100), s3 = CODE (40);
  amon_context *main_ctx = amon_machine_call (m, m->root, (void *) main_fn);
  amon_context *b_ctx = amon_machine_call (m, main_ctx, (void *) b_fn);
  amon_context *early = amon_machine_call (m, b_ctx, (void *) a_fn);
  amon_context *a_ctx = amon_machine_call (m, main_ctx, (void *) a_fn);
  frames[0] = (amon_frame) { NULL, NULL, UINTPTR_MAX, m->root };
  frames[1] = (amon_frame) { (void *) main_fn, (void *) CODE (4000), (uintptr_t) &stack[240], main_ctx };
  frames[2] = (amon_frame) { (void *) a_fn, (void *) CODE (3100), (uintptr_t) &stack[200], a_ctx };
  stack[240] = CODE (4000);
  stack[200] = CODE (3100);
  t->stack = frames;
  t->top = &frames[2];
  t->home = (uintptr_t) &stack[255];
  walk_know (t, s, a_fn, (200 - 170) * 8);
  CU_ASSERT_PTR_EQUAL (amon_walk_site (t, &frames[2], s, (uintptr_t) &stack[170], AMON_NO_RBP, 1), &frames[2]);
  CU_ASSERT (amon_site_seen (a_ctx, s));

  amon_context *c_ctx = amon_machine_call (m, main_ctx, (void *) c_fn);
  amon_context *later = amon_machine_call (m, c_ctx, (void *) a_fn);
  CU_ASSERT_PTR_NOT_EQUAL (later, a_ctx);
  CU_ASSERT_PTR_NOT_EQUAL (later, early);
  CU_ASSERT (amon_site_seen (later, s));
  CU_ASSERT (!amon_site_seen (later, CODE (200)));
  CU_ASSERT (!amon_site_seen (early, s));
  CU_ASSERT (!amon_site_seen (b_ctx, s));

  /* a site learnt by the later context widens the routine's */
  amon_machine_learn (m, later, s3);
  amon_context *d_ctx = amon_machine_call (m, main_ctx, (void *) d_fn);
  amon_context *third = amon_machine_call (m, d_ctx, (void *) a_fn);
  CU_ASSERT (amon_site_seen (third, s) && amon_site_seen (third, s3) && amon_site_seen (third, CODE (70)));
  CU_ASSERT (!amon_site_seen (third, CODE (101)) && !amon_site_seen (third, CODE (39)));
  CU_ASSERT (!amon_site_seen (a_ctx, s3));

  /* nor does a site out of reach change the routine's */
  amon_machine_learn (m, third, a_fn + ((uintptr_t) 3 << 30));
  amon_context *e_ctx = amon_machine_call (m, main_ctx, (void *) e_fn);
  amon_context *fourth = amon_machine_call (m, e_ctx, (void *) a_fn);
  CU_ASSERT_EQUAL (fourth->site_lo, third->site_lo);
  CU_ASSERT_EQUAL (fourth->site_span, third->site_span);
  g_free (t->owners);
  amon_machine_release (m);
  g_free (t);
}

/* Two routines whose near tags are equal, called from one context: each
 * finds its own context (a tag only filters; the context says its
 * routine), and a third of that tag, not called, finds none. */
static void
test_cache_tag_shared (void)
{
  guint a = 0, b = 0, c = 0;
  for (guint i = 1; i < 1024 && c == 0; i++)
    if (AMON_NEAR_TAG (CALLEE (i)) == AMON_NEAR_TAG (CALLEE (a)))
      {
        if (b == 0)
          b = i;
        else
          c = i;
      }
  CU_ASSERT_FATAL (b != 0 && c != 0);
  amon_machine m;
  CU_ASSERT_FATAL (amon_machine_init (&m, &limits) == 0);
  amon_context *from = amon_machine_call (&m, m.root, FN (MAIN));
  amon_context *ca = amon_machine_call (&m, from, CALLEE (a));
  amon_context *cb = amon_machine_call (&m, from, CALLEE (b));
  CU_ASSERT (ca != cb && from->far_at == 0);
  CU_ASSERT_PTR_EQUAL (amon_cache_find (from, CALLEE (a)), ca);
  CU_ASSERT_PTR_EQUAL (amon_cache_find (from, CALLEE (b)), cb);
  CU_ASSERT_PTR_NULL (amon_cache_find (from, CALLEE (c)));
  CU_ASSERT_PTR_EQUAL (amon_machine_call (&m, from, CALLEE (b)), cb);
  CU_ASSERT_EQUAL (cb->entries, 2);
  amon_machine_release (&m);
}

#if defined(__x86_64__) && defined(__linux__)
/* What the single-stepped put checks after each instruction: every
 * routine of @step_fn finds its own context in @step_from's caches, or
 * none (a miss, which the transition table answers). */
static amon_context *step_from;
static void *step_fn[6];
static amon_context *step_to[6];
static volatile guint step_traps, step_wrong;

static void
on_step (int sig)
{
  (void) sig;
  step_traps++;
  for (guint i = 0; i < G_N_ELEMENTS (step_fn); i++)
    {
      amon_context *c = amon_cache_find (step_from, step_fn[i]);
      if (c != NULL && c != step_to[i])
        step_wrong++;
    }
}

/* amon_cache_put with the trap flag set: a SIGTRAP after each of its
 * instructions, where a handler may jump out. */
static __attribute__ ((noinline)) void
stepped_put (amon_context *from, void *fn, amon_context *to)
{
  __asm__ volatile ("pushfq; orq $0x100, (%%rsp); popfq" ::: "memory", "cc");
  amon_cache_put (from, fn, to);
  __asm__ volatile ("pushfq; andq $~0x100, (%%rsp); popfq" ::: "memory", "cc");
}
#endif

/* A put interrupted after any of its instructions (by a signal handler
 * that jumps out) leaves each slot finding its own routine's context or
 * missing, never another's: near slots as they fill, then a far set
 * whose first way moves to the second, twice.  Checked by single-stepping
 * the put (x86-64 Linux: the trap flag); where no trap comes (valgrind),
 * nothing can be checked. */
static void
test_cache_put_interrupted (void)
{
#if defined(__x86_64__) && defined(__linux__)
  /* five routines of one far set, besides the two near ones */
  guint same[5], n_same = 0;
  for (guint i = 2; i < 256 && n_same < 5; i++)
    if (AMON_CACHE_HOME (CALLEE (i)) == AMON_CACHE_HOME (CALLEE (2)))
      same[n_same++] = i;
  CU_ASSERT_FATAL (n_same == 5);
  static amon_context ctx[6];
  /* the caller on a line of its own, as the machine's arena puts
   * contexts: its far cache lies a whole number of lines away (ctx[7]
   * of an array, 88 bytes each, was not, and the cache found from it lay
   * 40 bytes off the array far, outside it) */
  static amon_context from __attribute__ ((aligned (64)));
  static amon_cached far[AMON_CACHE] __attribute__ ((aligned (64)));
  memset (ctx, 0, sizeof ctx);
  memset (&from, 0, sizeof from);
  memset (far, 0, sizeof far);
  step_from = &from;
  for (guint i = 0; i < 6; i++)
    {
      step_fn[i] = CALLEE (i < 2 ? i : same[i - 2]);
      step_to[i] = &ctx[i];
      ctx[i].fn = step_fn[i];
    }
  struct sigaction sa = { .sa_handler = on_step }, old;
  sigemptyset (&sa.sa_mask);
  CU_ASSERT_FATAL (sigaction (SIGTRAP, &sa, &old) == 0);
  step_traps = step_wrong = 0;
  for (guint i = 0; i < 6; i++)
    {
      if (i == AMON_NEAR)
        {
          step_from->far_at = (int32_t) (((intptr_t) far - (intptr_t) step_from) / 64);
          CU_ASSERT_FATAL (amon_far (step_from) == far);
        }
      stepped_put (step_from, step_fn[i], step_to[i]);
      /* the routine put is found, and the way it pushed out of its set */
      CU_ASSERT_PTR_EQUAL (amon_cache_find (step_from, step_fn[i]), step_to[i]);
      if (i > AMON_NEAR)
        CU_ASSERT_PTR_EQUAL (amon_cache_find (step_from, step_fn[i - 1]), step_to[i - 1]);
      if (i > AMON_NEAR + 1)
        CU_ASSERT_PTR_NULL (amon_cache_find (step_from, step_fn[i - 2]));
    }
  sigaction (SIGTRAP, &old, NULL);
  if (step_traps == 0)
    return; /* not single-stepped here */
  CU_ASSERT (step_traps > 6 * 5);
  CU_ASSERT_EQUAL (step_wrong, 0);
#endif
}

/* PLT stubs as the linkers write them for x86-64, each jumping through a
 * slot that holds a hook's address: found, with the slot's address as the
 * target; other code not. */
static void
test_plt_stub_target (void)
{
#if defined(__x86_64__)
  static const unsigned char leads[][5] = {
    { 0 },                            /* .plt: jmp *slot(%rip) */
    { 0xf3, 0x0f, 0x1e, 0xfa },       /* .plt.sec: endbr64 first */
    { 0xf3, 0x0f, 0x1e, 0xfa, 0xf2 }, /* and bnd (MPX) */
    { 0xf2 },
  };
  static const size_t lead_len[] = { 0, 4, 5, 1 };
  struct {
    unsigned char code[16];
    uintptr_t slot;
  } stub;
  uintptr_t target;
  for (guint i = 0; i < G_N_ELEMENTS (lead_len); i++)
    {
      memset (&stub, 0xcc, sizeof stub);
      memcpy (stub.code, leads[i], lead_len[i]);
      unsigned char *jmp = stub.code + lead_len[i];
      jmp[0] = 0xff;
      jmp[1] = 0x25;
      int32_t disp = (int32_t) ((unsigned char *) &stub.slot - (jmp + 6));
      memcpy (jmp + 2, &disp, sizeof disp);
      stub.slot = (uintptr_t) 0x7f0000001230;
      target = 0;
      CU_ASSERT_TRUE (amon_plt_target ((uintptr_t) stub.code, &target));
      CU_ASSERT_EQUAL (target, (uintptr_t) 0x7f0000001230);
      if (lead_len[i] == 4)
        {
          /* endbr64 not followed by the jump: a function's first instruction */
          stub.code[4] = 0x55; /* push %rbp */
          CU_ASSERT_FALSE (amon_plt_target ((uintptr_t) stub.code, &target));
        }
    }
  /* call *slot(%rip) (ff 15) and a direct jmp are not stubs */
  static const unsigned char others[][6] = { { 0xff, 0x15, 0, 0, 0, 0 }, { 0xe9, 0, 0, 0, 0, 0x90 }, { 0xf3, 0x90, 0x90 } };
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    CU_ASSERT_FALSE (amon_plt_target ((uintptr_t) others[i], &target));
#endif
}

static void
test_limits_stop_cleanly (void)
{
  amon_limits small = { 100, AMON_DEFAULT_MAX_HISTORY, AMON_DEFAULT_MAX_MEMORY };
  amon_thread *th = g_new0 (amon_thread, 1);
  CU_ASSERT_FATAL (amon_thread_init (th, &small, 0) == 0);
  guint i;
  for (i = 1; i <= 200 && th->stop_reason == 0; i++)
    amon_thread_enter (th, FN (i % 2 ? P : Q), NULL, SP (i), i);
  CU_ASSERT_EQUAL (th->stop_reason, AMON_STOP_DEPTH);
  CU_ASSERT_EQUAL (amon_thread_depth (th), 100);
  amon_thread_release (th);
  g_free (th);

  /* memory: a machine that may not grow past its first tables */
  amon_limits tiny = { AMON_DEFAULT_MAX_DEPTH, AMON_DEFAULT_MAX_HISTORY, 300 * 1024 };
  th = g_new0 (amon_thread, 1);
  CU_ASSERT_FATAL (amon_thread_init (th, &tiny, 0) == 0);
  static char many[100000];
  for (i = 0; i < 100000 && th->stop_reason == 0; i++)
    {
      amon_thread_enter (th, &many[i], NULL, SP (1), i);
      if (th->stop_reason == 0)
        amon_thread_exit (th, &many[i], NULL, SP (1), i);
    }
  CU_ASSERT_EQUAL (th->stop_reason, AMON_STOP_MEMORY);
  CU_ASSERT (th->m.bytes <= 300 * 1024);
  amon_thread_release (th);
  g_free (th);
}

/* A thread that ran root -> P -> Q and back to P, at a cost of 10 units
 * per event: intervals of 100 (root), 5 (P, less than the cost), 1000
 * (Q) and, ended by amon_thread_charge_all at 1205 after @cpu_units (0:
 * unknown) and the samples given (@own: each context's, root, P and Q,
 * of the @samples_program), 100 (P). */
static amon_thread *
replay_p_q (uint64_t cpu_units, uint64_t samples_program, uint64_t samples_monitor, const uint64_t own[3])
{
  amon_thread *th = g_new0 (amon_thread, 1);
  CU_ASSERT_FATAL (amon_thread_init (th, &limits, 0) == 0);
  th->overhead = 10;
  amon_thread_enter (th, FN (P), NULL, SP (1), 100);
  amon_thread_enter (th, FN (Q), NULL, SP (2), 105);
  amon_thread_exit (th, FN (Q), NULL, SP (2), 1105);
  th->cpu_units = cpu_units;
  th->samples_program = samples_program;
  th->samples_monitor = samples_monitor;
  if (own)
    for (amon_context *c = th->m.root; c; c = c->next)
      c->samples = *own++;
  amon_thread_charge_all (th, 1205);
  return th;
}

static void
test_overhead_subtracted (void)
{
  amon_thread *th = replay_p_q (0, 0, 0, NULL);
  amon_context *p = th->stack ? th->m.root->next : NULL;
  CU_ASSERT_EQUAL (th->m.root->time, 90);
  CU_ASSERT_EQUAL (p->time, 0 + 90);
  CU_ASSERT_EQUAL (p->next->time, 990);
  CU_ASSERT_EQUAL (th->overhead_total, 10 + 5 + 10 + 10);
  amon_thread_release (th);
  g_free (th);
}

/* Many calibrations on a loaded machine: the issue's single start-up
 * calibration ranged from 9.2 to 59.7 ns for one program.  Load only adds
 * time, so the estimate is the lowest of the recent ones: with most
 * inflated (by 5% to 6.5 times, as there) it is still the undisturbed
 * cost, 10 ns (80 eighths of a 1 ns unit); and when the load changes so
 * that every call costs 12 ns, the estimate follows within
 * AMON_CAL_RECENT calibrations, while a lucky low one long ago, or a
 * preemption, moves it no more. */
static void
test_calibration_robust (void)
{
  amon_cal *c = g_new0 (amon_cal, 1);
  CU_ASSERT_EQUAL (amon_cal_estimate (c), 0);
  g_autoptr (GRand) r = g_rand_new_with_seed (28);
  amon_cal_add (c, 40);
  for (int i = 0; i < 3000; i++)
    {
      gboolean loaded = g_rand_int_range (r, 0, 100) < 70;
      amon_cal_add (c, loaded ? (uint64_t) (80 * g_rand_double_range (r, 1.05, 6.5)) : 80);
    }
  amon_cal_add (c, 100000); /* a preemption: past the last bucket */
  CU_ASSERT_EQUAL (amon_cal_estimate (c), 80);
  for (int i = 0; i < AMON_CAL_RECENT; i++)
    amon_cal_add (c, i == 7 ? 5000 : i % 3 ? (uint64_t) (96 * g_rand_double_range (r, 1.05, 1.5)) : 96);
  CU_ASSERT_EQUAL (amon_cal_estimate (c), 96);
  CU_ASSERT_EQUAL (c->lowest, 40);
  CU_ASSERT_EQUAL (c->highest, 100000);
  CU_ASSERT_EQUAL (amon_cal_percentile (c, 100), 100000);
  CU_ASSERT (amon_cal_percentile (c, 50) > 100);
  g_free (c);
}

/* The -pg hooks' cost added to the calibrations turned out another (the
 * program's routines tell their returns): every value recorded moves,
 * against the same calibrations made with the other cost from the start,
 * whose record must be the same, bucket for bucket; none goes below 0. */
static void
test_calibration_shift (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (2811);
  for (int round = 0; round < 50; round++)
    {
      int64_t delta = g_rand_int_range (r, -300, 300);
      amon_cal *c = g_new0 (amon_cal, 1), *want = g_new0 (amon_cal, 1);
      int n = g_rand_int_range (r, 1, 200);
      for (int i = 0; i < n; i++)
        {
          uint64_t v = (uint64_t) g_rand_int_range (r, 0, 5000); /* past the last bucket too */
          amon_cal_add (c, v);
          amon_cal_add (want, delta < 0 && (uint64_t) -delta > v ? 0 : (uint64_t) ((int64_t) v + delta));
        }
      amon_cal_shift (c, delta);
      CU_ASSERT_EQUAL (c->count, want->count);
      CU_ASSERT_EQUAL (c->lowest, want->lowest);
      CU_ASSERT_EQUAL (c->highest, want->highest);
      CU_ASSERT_EQUAL (amon_cal_estimate (c), amon_cal_estimate (want));
      /* a value past the last bucket that moves down lands where the
       * last bucket's lower edge moves: only those buckets may differ */
      uint64_t total = 0;
      gboolean same = TRUE;
      for (uint64_t v = 0; v < AMON_CAL_BUCKETS; v++)
        {
          total += c->hist[v];
          if (v + (uint64_t) (delta < 0 ? -delta : 0) < AMON_CAL_BUCKETS - 1 && c->hist[v] != want->hist[v])
            same = FALSE;
        }
      CU_ASSERT_EQUAL (total, (uint64_t) n);
      CU_ASSERT (same);
      for (uint32_t p = 10; p <= 90 && delta >= 0; p += 40)
        CU_ASSERT_EQUAL (amon_cal_percentile (c, p), amon_cal_percentile (want, p));
      g_free (c);
      g_free (want);
    }
}

/* On the CPU clock the monitor's cost is the CPU time it did not charge:
 * time off the processor outside every interval (in a check's system
 * call, a calibration) is not its cost.  The intervals span 1205 units
 * and charge 90 + 0 + 990 + 90 = 1170 of them, but the thread had 1200
 * units of the processor: the monitor's cost is 30, not 35. */
static void
test_overhead_from_cpu_time (void)
{
  amon_thread *th = replay_p_q (1200, 0, 0, NULL);
  CU_ASSERT_EQUAL (th->overhead_total, 30);
  amon_thread_release (th);
  g_free (th);
}

/* The run's samples correct what the calibrated cost left: the thread of
 * test_overhead_from_cpu_time (1200 units of CPU; root 90 over 1
 * interval, P 90 over 2, Q 990 over 1: 1170 charged).
 *  - 4875 of 10000 samples in the program's code, in proportion to the
 *    charges (375 with the root current, 375 with P, 4125 with Q): it
 *    ran 585 units, to two standard errors of 2 * 1200 * sqrt(f (1 - f)
 *    / 10000) = 12 (f = 4876 / 10002, the share smoothed), far from the
 *    1170 charged, which is off by (1170 - 585) / 1170, a half: the total
 *    becomes 585, each context the mean of its charge scaled by 585 /
 *    1170 and its samples at 0.12 units each, which agree: the root 45,
 *    P 45, Q 495.
 *  - 4875 again, but (876, 1923, 2076): the split is what the samples
 *    dispute, (105.1, 230.8, 249.1) against the charges scaled, (45, 45,
 *    495), 98,578 in squared differences against 4 * 0.12 * 585 = 280.8
 *    that the samples' noise would make, so they would weigh 0.997, but
 *    the monitor had 51% of them (more than a half): a half: the root
 *    (45 + 105.12) / 2 = 75.1, P (45 + 230.76) / 2 = 137.9, Q (495 +
 *    249.12) / 2 = 372.1, to the nearest unit.
 *  - 8775 of 10000 (775, 1000, 7000): 1053 units, to 7.9; the charge is
 *    off by a tenth, but the split is what the samples dispute: scaled
 *    by 1053 / 1170, the charges are (81, 81, 891) where the samples at
 *    0.12 units make (93, 120, 840), 4266 in squared differences against
 *    4 * 0.12 * 1053 = 505.4 the samples' noise would make, so they weigh
 *    1 - 505.4 / 4266 = 0.8815 (the monitor had 12% of them, under a
 *    quarter: no limit): the root 81 + 0.8815 * 12 = 91.6, P 81 +
 *    0.8815 * 39 = 115.4, Q 891 - 0.8815 * 51 = 846.0, to the nearest
 *    unit.
 *  - 965 of 1000 in the program's, in proportion to the charges (74, 74,
 *    817): 1158 units, to 2 * 1200 * sqrt(f (1 - f) / 1000) = 14.1 (f =
 *    966 / 1002): the 1170 charged agree in total and in split, and
 *    stand.
 *  - 965 of 1000 again, but (5, 10, 950): the total agrees, the split
 *    does not (1.2 units a sample: (6, 12, 1140) against the charges
 *    scaled, (89.1, 89.1, 979.8); 38418 against 5558), and the samples
 *    weigh 0.8556: (18, 23, 1117).
 *  - 59 of 99: too few samples, nothing changes. */
static void
test_overhead_from_samples (void)
{
  static const struct { uint64_t program, monitor, own[3], want[3]; } cases[] = {
    { 4875, 5125, { 375, 375, 4125 }, { 45, 45, 495 } },
    { 4875, 5125, { 876, 1923, 2076 }, { 75, 138, 372 } },
    { 8775, 1225, { 775, 1000, 7000 }, { 92, 115, 846 } },
    { 965, 35, { 74, 74, 817 }, { 90, 90, 990 } },
    { 965, 35, { 5, 10, 950 }, { 18, 23, 1117 } },
    { 59, 40, { 9, 20, 30 }, { 90, 90, 990 } } };
  for (int k = 0; k < 6; k++)
    {
      amon_thread *th = replay_p_q (1200, cases[k].program, cases[k].monitor, cases[k].own);
      amon_context *root = th->m.root;
      uint64_t total = 0;
      amon_context *c = root;
      for (int i = 0; i < 3; i++, c = c->next)
        {
          uint64_t v = amon_measure_corrected (c->time, c->samples, th->keep, th->per_sample);
          CU_ASSERT_EQUAL (v, cases[k].want[i]);
          total += v;
        }
      CU_ASSERT_EQUAL (th->resid_total, (int64_t) total - 1170);
      CU_ASSERT_EQUAL (th->overhead_total, 1200 - total);
      amon_thread_release (th);
      g_free (th);
    }
}

/* The correction on random threads: whenever it is made, the contexts
 * hold the samples' total (to the rounding, half a unit each), none
 * below zero; and where the samples fall in proportion to the charges
 * (both estimates agree on every share), each context keeps exactly its
 * share of that total. */
static void
test_measure_settle_random (void)
{
  g_autoptr (GRand) r = g_rand_new_with_seed (2028);
  for (int round = 0; round < 400; round++)
    {
      guint n = (guint) g_rand_int_range (r, 1, 40);
      gboolean proportional = round % 2;
      amon_thread th = { 0 };
      amon_context *c = g_malloc0 (n * sizeof *c);
      uint64_t charged = 0, per = (uint64_t) g_rand_int_range (r, 1, 1000);
      for (guint i = 0; i < n; i++)
        {
          c[i].samples = g_rand_int_range (r, 0, 4) ? (uint64_t) g_rand_int_range (r, 0, 5000) : 0;
          c[i].time = proportional ? c[i].samples * per
                                   : (g_rand_int_range (r, 0, 4) ? (uint64_t) g_rand_int_range (r, 0, 10000000) : 0);
          c[i].next = i + 1 < n ? &c[i + 1] : NULL;
          charged += c[i].time;
          th.samples_program += c[i].samples;
        }
      th.m.root = c;
      th.samples_monitor = (uint64_t) g_rand_int_range (r, 0, 100000);
      th.cpu_units = (uint64_t) g_rand_int_range (r, 1, 1000000000);
      amon_measure_settle (&th, charged);
      double all = (double) (th.samples_program + th.samples_monitor);
      double own = (double) th.cpu_units * (double) th.samples_program / all;
      double sum = 0;
      for (guint i = 0; i < n; i++)
        {
          uint64_t v = amon_measure_corrected (c[i].time, c[i].samples, th.keep, th.per_sample);
          sum += (double) v;
          if (th.resid_total != 0 && proportional && charged > 0)
            CU_ASSERT_DOUBLE_EQUAL ((double) v, (double) c[i].time * own / (double) charged, 1.0);
        }
      if (th.resid_total != 0)
        CU_ASSERT_DOUBLE_EQUAL (sum, own, n / 2.0 + 1);
      CU_ASSERT_EQUAL ((int64_t) sum - (int64_t) charged, th.resid_total);
      g_free (c);
    }
}

/* Blind windows (amon-blind.h): where they had 100 samples or more, the
 * program's time is their CPU time per event times the program's share
 * of their samples times the thread's events, whatever the calibrations
 * charged, and the contexts hold it in proportion to their charges where
 * the samples fall so; with fewer, all the samples set it; and where the
 * calibrations agree with it, their charges in the timed windows are
 * scaled to every event (the blind windows charged nothing). */
static void
test_measure_settle_blind (void)
{
  struct
  {
    uint64_t blind_units, blind_program, blind_monitor;
    uint64_t per; /* clock units each context is charged per sample */
    double want;                                /* the contexts' total */
  } cases[] = {
    /* 400,000 events, 100,000 blind ones at 10 units each: the program
     * 101 / 402 of them, so 10 * 400,000 * 101 / 402 */
    { 1000000, 100, 300, 1000, 10.0 * 400000 * 101 / 402 },
    /* 99 samples in the blind windows: all the samples (1,000 of the
     * program's, 3,000 of the monitor's) of 2,000,000 units */
    { 1000000, 30, 69, 1000, 2000000.0 * 1000 / 4000 },
    /* the calibrations charged 1,000 units a sample, 1,000,000 in the
     * timed windows, 4/3 of that over every event, within the blind
     * windows' error (some 10%) of 11 * 400,000 * 301 / 1002 = 1,321,756 */
    { 1100000, 300, 700, 1000, 1000000.0 * 4 / 3 },
  };
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      amon_thread th = { 0 };
      amon_context c[4] = { { 0 } };
      uint64_t charged = 0;
      for (guint i = 0; i < 4; i++)
        {
          c[i].samples = 100 * (i + 1); /* 1,000 in all */
          c[i].time = c[i].samples * cases[k].per;
          c[i].entries = 50000;
          c[i].next = i + 1 < 4 ? &c[i + 1] : NULL;
          charged += c[i].time;
          th.samples_program += c[i].samples;
        }
      th.m.root = c;
      th.returns = 200000;
      th.samples_monitor = 3000;
      th.cpu_units = 2000000;
      th.blind_events = 100000;
      th.blind_units = cases[k].blind_units;
      th.blind_program = cases[k].blind_program;
      th.blind_monitor = cases[k].blind_monitor;
      amon_measure_settle (&th, charged);
      double sum = 0;
      for (guint i = 0; i < 4; i++)
        {
          uint64_t v = amon_measure_corrected (c[i].time, c[i].samples, th.keep, th.per_sample);
          CU_ASSERT_DOUBLE_EQUAL ((double) v, cases[k].want * (i + 1) / 10, 1.0);
          sum += (double) v;
        }
      CU_ASSERT_DOUBLE_EQUAL (sum, cases[k].want, 2.0);
      CU_ASSERT_EQUAL ((int64_t) sum - (int64_t) charged, th.resid_total);
      CU_ASSERT_EQUAL (th.cal_total, charged * 4 / 3);
      CU_ASSERT_EQUAL (th.samples_total, 500000);
      double blind = k == 1 ? 0
                            : (double) cases[k].blind_units / 100000 * 400000 * (double) (cases[k].blind_program + 1)
                                  / (double) (cases[k].blind_program + cases[k].blind_monitor + 2);
      CU_ASSERT_DOUBLE_EQUAL ((double) th.blind_total, blind, 1.0);
    }
}

/* The -pg mode knows an address inside each routine (its hook's return
 * address), not its entry: the symbol whose extent holds it names it,
 * and gives the entry written for it. */
static void
test_names_inside_routines (void)
{
  uint64_t bytes = 0;
  amon_arena arena;
  amon_arena_init (&arena, &bytes, 0);
  amon_objects objs;
  CU_ASSERT_FATAL (amon_objects_collect (&objs, &arena) == 0);
  uintptr_t entry = (uintptr_t) test_overhead_subtracted;
  uint32_t ob = amon_objects_find (&objs, entry);
  CU_ASSERT_FATAL (ob != AMON_NO_OBJECT);
  uintptr_t at_entry = 0, inside_entry = 0;
  const char *at = amon_objects_name (&objs, ob, entry, &at_entry);
  const char *inside = amon_objects_name (&objs, ob, entry + 9, &inside_entry);
  CU_ASSERT_PTR_NOT_NULL_FATAL (at);
  CU_ASSERT_STRING_EQUAL (at, "test_overhead_subtracted");
  CU_ASSERT_PTR_NOT_NULL_FATAL (inside);
  CU_ASSERT_STRING_EQUAL (inside, "test_overhead_subtracted");
  /* the address written is the symbol's, as nm shows it */
  CU_ASSERT_EQUAL (at_entry, entry);
  CU_ASSERT_EQUAL (inside_entry, entry);
  amon_objects_release (&objs);
  amon_arena_release (&arena);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "history: A2-A5 equal the paper's rules applied literally", test_history_against_paper },
    { "history: the paper's P-Q-R-S example", test_paper_example },
    { "history: the table grows, old histories found again", test_history_table_grows },
    { "replay: random programs, every total and arc time", test_random_programs },
    { "replay: recursion 10,000 deep", test_deep_recursion },
    { "threads merged: shared histories one context, calls summed", test_merge_threads },
    { "replay: more routines than a context's cache", test_many_routines },
    { "replay: longjmp out of deep frames resynchronises", test_longjmp_resynchronises },
    { "unmatched returns are ignored", test_unmatched_exit_ignored },
    { "routines aligned to 16, 32 or 64 bytes fill the cache's sets evenly", test_cache_sets_spread },
    { "random calls: one context per history, found again unless all marked", test_one_context_per_history },
    { "a context's first two callees are near, the rest far", test_cache_levels },
    { "near slots of one tag each find their own routine", test_cache_tag_shared },
    { "random calls: a transition made once, found again where the caches lost it", test_cache_spill_random },
    { "the hooks' plain way makes the contexts the slow way makes", test_make_plain_as_slow },
    { "a routine that told a return: its new contexts start told", test_told_by_routine },
    { "a put interrupted anywhere leaves only misses", test_cache_put_interrupted },
    { "a plain walk finds the caller from what it knows, else declines", test_walk_plain },
    { "a routine's call sites, learnt in one context, are known in its new ones", test_sites_by_routine },
    { "a PLT stub's jump through its slot is found", test_plt_stub_target },
    { "limits stop profiling cleanly", test_limits_stop_cleanly },
    { "the monitor's own cost is subtracted", test_overhead_subtracted },
    { "many calibrations: the lowest recent one, whatever the load", test_calibration_robust },
    { "calibrations moved by another hook cost: as if made with it", test_calibration_shift },
    { "the monitor's cost on the CPU clock is the CPU time it did not charge", test_overhead_from_cpu_time },
    { "the run's samples correct the calibrated cost", test_overhead_from_samples },
    { "the samples' correction on random threads", test_measure_settle_random },
    { "blind windows set the program's time", test_measure_settle_blind },
    { "an address inside a routine is named by its symbol", test_names_inside_routines },
    { NULL, NULL },
  };
  return cg_test_main ("amon", cases);
}
