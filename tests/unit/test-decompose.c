/* test-decompose.c — the linear decomposition against numbers derived by
 * hand (each derivation is written next to its case), gprof2dot's worked
 * example, its crash cases, scale, determinism, and a report of how far
 * the estimate is from the exact totals where the call tree is known. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cg-read-folded.h"
#include "cg-test.h"

/* ---- building arc-only graphs: weights are call counts ---- */

static CgProfile *
new_profile (void)
{
  CgProfile *p = cg_profile_new ();
  guint e;
  cg_profile_ensure_event (p, "time", "ticks", CG_KIND_INTEGER, &e, NULL);
  return p;
}

static CgFunctionId
fn (CgProfile *p, const char *name, guint64 self)
{
  CgGraph *g = cg_profile_graph (p);
  CgFunctionId f = cg_graph_ensure_function (g, "", name);
  cg_graph_self (g, f)->n = self;
  return f;
}

static void
call (CgProfile *p, const char *from, const char *to, guint64 calls)
{
  CgGraph *g = cg_profile_graph (p);
  CgArcId a = cg_graph_ensure_arc (g, cg_graph_lookup_function (g, "", from), cg_graph_lookup_function (g, "", to));
  cg_graph_arc_add_calls (g, a, calls);
}

static gdouble
total (CgProfile *p, CgCosts *c, const char *name)
{
  CgGraph *g = cg_profile_graph (p);
  CgFunctionId f = cg_graph_lookup_function (g, "", name);
  g_assert (f != CG_NO_ID);
  return cg_costs_total_const (c, f)[0].x;
}

static gdouble
carried (CgProfile *p, CgCosts *c, const char *from, const char *to)
{
  CgGraph *g = cg_profile_graph (p);
  CgArcId a = cg_graph_lookup_arc (g, cg_graph_lookup_function (g, "", from), cg_graph_lookup_function (g, "", to));
  g_assert (a != CG_NO_ID);
  return cg_costs_arc_const (c, a)[0].x;
}

#define CLOSE(x, want) CU_ASSERT_DOUBLE_EQUAL ((x), (want), 1e-9 * MAX (1.0, fabs ((gdouble) (want))))

static CgCosts *
decompose (CgProfile *p)
{
  GError *error = NULL;
  CgCosts *c = cg_method_compute (p, CG_METHOD_DECOMPOSE, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  CU_ASSERT_EQUAL (cg_costs_method (c), CG_METHOD_DECOMPOSE);
  return c;
}

static void
test_gprof2dot_worked_example (void)
{
  /* research/gprof2dot.md §c.7, a callgrind profile: the weights are the
   * inclusive costs on the calls= lines.  Self: main 10, a 100, b 200,
   * c 300, d 40 (650 in all).  Calls main→a 500, main→d 140, a→b 350,
   * b→a 120, a→c 100, b→c 200, d→b 100, c→c 50.  Cycle {a, b}, entered
   * by main→a (500) and d→b (100): r_a = 5/6, r_b = 1/6.
   * Ratios: a→c 100/300, b→c 200/300 (c gets 300, its self); a→b
   * 350/(350+100) = 7/9; b→a 120/(500+120) = 6/31.
   * CT = 100 + 200 + 300 = 600.
   * Entry a (ranks a 0, b 1; forward a→b, cr[b] = 7/9, k = 1):
   *   q(b) = 5/6 × (200 + 200) = 1000/3, q(a) = 5/6 × (100 + 100) + q(b) = 500.
   * Entry b (ranks b 0, a 1; forward b→a, k = 1):
   *   q(a) = 1/6 × 200 = 100/3, q(b) = 1/6 × 400 + q(a) = 100.
   * Totals: a = 500 + 100/3 = 1600/3, b = 1000/3 + 100 = 1300/3, c = 300,
   * d = 40 + 1/6 × 600 = 140, main = 10 + 5/6 × 600 + 140 = 650.
   * Arcs: a→b 1000/3, b→a 100/3, main→a 500, d→b 100, a→c 100, b→c 200.
   * gprof2dot prints a 0.82051 = (1600/3)/650, b 0.66667 = (1300/3)/650. */
  static const char text[] = "# callgrind format\nevents: Ir\n"
                             "fn=main\n0 10\ncfn=a\ncalls=1 0\n0 500\ncfn=d\ncalls=1 0\n0 140\n"
                             "fn=a\n0 100\ncfn=b\ncalls=1 0\n0 350\ncfn=c\ncalls=1 0\n0 100\n"
                             "fn=b\n0 200\ncfn=a\ncalls=1 0\n0 120\ncfn=c\ncalls=1 0\n0 200\n"
                             "fn=c\n0 300\ncfn=c\ncalls=1 0\n0 50\n"
                             "fn=d\n0 40\ncfn=b\ncalls=1 0\n0 100\n";
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string (text, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CU_ASSERT_EQUAL (cg_decompose_weights_for (p), CG_WEIGHTS_INCLUSIVE);
  g_autoptr (CgCosts) c = decompose (p);
  CLOSE (total (p, c, "a"), 1600.0 / 3);
  CLOSE (total (p, c, "b"), 1300.0 / 3);
  CLOSE (total (p, c, "c"), 300);
  CLOSE (total (p, c, "d"), 140);
  CLOSE (total (p, c, "main"), 650);
  CLOSE (carried (p, c, "a", "b"), 1000.0 / 3);
  CLOSE (carried (p, c, "b", "a"), 100.0 / 3);
  CLOSE (carried (p, c, "main", "a"), 500);
  CLOSE (carried (p, c, "d", "b"), 100);
  CLOSE (carried (p, c, "a", "c"), 100);
  CLOSE (carried (p, c, "b", "c"), 200);
  CLOSE (carried (p, c, "c", "c"), 0);
  /* c calls nobody else: its total is its self cost, exactly */
  CgGraph *g = cg_profile_graph (p);
  CU_ASSERT_FALSE (cg_costs_total_is_estimated (c, cg_graph_lookup_function (g, "", "c")));
  CU_ASSERT_TRUE (cg_costs_total_is_estimated (c, cg_graph_lookup_function (g, "", "a")));
}

static void
test_one_entry_with_exit (void)
{
  /* main→a 1 call, a→b 3, b→a 2, b→c 1; self a 10, b 20, c 30.
   * Cycle {a, b} entered at a only: r_a = 1.  b→c: ratio 1, carries 30.
   * CT = 10 + (20 + 30) = 60.  Ranks a 0, b 1; forward a→b (ratio
   * 3/3 = 1, the only forward arc into b: k = 1); b→a goes back.
   * q(b) = 20 + 30 = 50, q(a) = 10 + 50 = 60.
   * Totals a 60, b 50, c 30, main 60; arcs a→b 50, b→a 0, main→a 60. */
  g_autoptr (CgProfile) p = new_profile ();
  fn (p, "main", 0), fn (p, "a", 10), fn (p, "b", 20), fn (p, "c", 30);
  call (p, "main", "a", 1), call (p, "a", "b", 3), call (p, "b", "a", 2), call (p, "b", "c", 1);
  CU_ASSERT_EQUAL (cg_decompose_weights_for (p), CG_WEIGHTS_CALLS);
  g_autoptr (CgCosts) c = decompose (p);
  CLOSE (total (p, c, "a"), 60);
  CLOSE (total (p, c, "b"), 50);
  CLOSE (total (p, c, "c"), 30);
  CLOSE (total (p, c, "main"), 60);
  CLOSE (carried (p, c, "a", "b"), 50);
  CLOSE (carried (p, c, "b", "a"), 0);
  CLOSE (carried (p, c, "main", "a"), 60);
  CLOSE (carried (p, c, "b", "c"), 30);
}

static void
test_two_entries (void)
{
  /* main→a 1, main→b 3, a→b 1, b→a 1; self a 10, b 30.  The cycle is
   * entered with weight 4: r_a = 1/4, r_b = 3/4; CT = 40.
   * Ratios inside: a→b 1/(3+1) = 1/4, b→a 1/(1+1) = 1/2.
   * Entry a: ranks a 0, b 1; cr[b] = 1/4, k = 1: q(b) = 30/4 = 7.5,
   *   q(a) = 10/4 + 7.5 = 10.
   * Entry b: ranks b 0, a 1; cr[a] = 1/2, k = 1: q(a) = 3/4 × 10 = 7.5,
   *   q(b) = 3/4 × 30 + 7.5 = 30.
   * Totals a 10 + 7.5 = 17.5, b 7.5 + 30 = 37.5, main 40; arcs main→a
   * 10, main→b 30, a→b 7.5, b→a 7.5. */
  g_autoptr (CgProfile) p = new_profile ();
  fn (p, "main", 0), fn (p, "a", 10), fn (p, "b", 30);
  call (p, "main", "a", 1), call (p, "main", "b", 3), call (p, "a", "b", 1), call (p, "b", "a", 1);
  g_autoptr (CgCosts) c = decompose (p);
  CLOSE (total (p, c, "a"), 17.5);
  CLOSE (total (p, c, "b"), 37.5);
  CLOSE (total (p, c, "main"), 40);
  CLOSE (carried (p, c, "main", "a"), 10);
  CLOSE (carried (p, c, "main", "b"), 30);
  CLOSE (carried (p, c, "a", "b"), 7.5);
  CLOSE (carried (p, c, "b", "a"), 7.5);
}

static void
test_forward_split (void)
{
  /* A four-member cycle where a member has two forward callers:
   * main→a 1; a→b 1, a→c 3, b→d 1, c→d 1, d→a 1; self b 10, c 20, d 100.
   * Entry a (r = 1): ranks a 0, b 1, c 1, d 2.  Ratios: b→d = c→d = 1/2
   * (d's incoming weight 2), a→b = a→c = 1 (their only callers); cr[d] = 1.
   * q(d) = 100; q(b) = 10 + 1/2 × 100 = 60; q(c) = 20 + 50 = 70;
   * q(a) = 60 + 70 = 130 = CT.
   * Totals a 130, b 60, c 70, d 100; arcs b→d 50, c→d 50, a→b 60, a→c 70,
   * d→a 0 (never forward). */
  g_autoptr (CgProfile) p = new_profile ();
  fn (p, "main", 0), fn (p, "a", 0), fn (p, "b", 10), fn (p, "c", 20), fn (p, "d", 100);
  call (p, "main", "a", 1), call (p, "a", "b", 1), call (p, "a", "c", 3);
  call (p, "b", "d", 1), call (p, "c", "d", 1), call (p, "d", "a", 1);
  g_autoptr (CgCosts) c = decompose (p);
  CLOSE (total (p, c, "a"), 130);
  CLOSE (total (p, c, "b"), 60);
  CLOSE (total (p, c, "c"), 70);
  CLOSE (total (p, c, "d"), 100);
  CLOSE (carried (p, c, "b", "d"), 50);
  CLOSE (carried (p, c, "c", "d"), 50);
  CLOSE (carried (p, c, "a", "b"), 60);
  CLOSE (carried (p, c, "a", "c"), 70);
  CLOSE (carried (p, c, "d", "a"), 0);
  CLOSE (total (p, c, "main"), 130);
}

/* The shape of gprof2dot's issues #7 and #33: the forward arcs into d
 * (b→d, c→d) have weight 0 while d has weight from outside (main→d). */
static CgProfile *
zero_forward_profile (guint64 self_a, guint64 self_d)
{
  CgProfile *p = new_profile ();
  fn (p, "main", 0), fn (p, "a", self_a), fn (p, "b", 0), fn (p, "c", 0), fn (p, "d", self_d);
  call (p, "main", "a", 1), call (p, "main", "d", 1), call (p, "a", "b", 1), call (p, "a", "c", 1);
  call (p, "b", "d", 0), call (p, "c", "d", 0), call (p, "d", "a", 1);
  return p;
}

static void
test_gprof2dot_assertion_case (void)
{
  /* Self d 100, others 0.  Entries a and d, r = 1/2 each; CT = 100.
   * Ratios: b→d = c→d = 0/1, so for entry a cr[d] = 0 and gprof2dot's
   * 0/0 = 1 gives both b and c all of q(d) = 50: q(a) = 100, twice its
   * share 50, and gprof2dot stops on its assertion.  We split q(d)
   * equally: q(b) = q(c) = 25, q(a) = 50.  Entry d: ranks d 0, a 1, b 2,
   * c 2; only d has cost: q(d) = 50.
   * Totals a 50, b 25, c 25, d 100, main 100; arcs b→d 25, c→d 25,
   * a→b 25, a→c 25, main→a 50, main→d 50, d→a 0. */
  g_autoptr (CgProfile) p = zero_forward_profile (0, 100);
  g_autoptr (CgCosts) c = decompose (p);
  CLOSE (total (p, c, "a"), 50);
  CLOSE (total (p, c, "b"), 25);
  CLOSE (total (p, c, "c"), 25);
  CLOSE (total (p, c, "d"), 100);
  CLOSE (total (p, c, "main"), 100);
  CLOSE (carried (p, c, "b", "d"), 25);
  CLOSE (carried (p, c, "c", "d"), 25);
  CLOSE (carried (p, c, "a", "b"), 25);
  CLOSE (carried (p, c, "main", "a"), 50);
  CLOSE (carried (p, c, "main", "d"), 50);
  CLOSE (carried (p, c, "d", "a"), 0);
}

static void
test_gprof2dot_tolerated_double_count (void)
{
  /* The same shape with self a 100000, d 1: the double count is 0.5 of
   * an entry share of 50000.5, within gprof2dot's 0.1 % check, so
   * gprof2dot finishes and we give its numbers.
   * Entry a (r = 1/2): q(d) = 0.5, q(b) = q(c) = 0.5 (k = 1 each),
   *   q(a) = 50000 + 1 = 50001.
   * Entry d (r = 1/2): ranks d 0, a 1, b 2, c 2; cr[a] = ratio(d→a) =
   *   1/2, k = 1: q(a) = 50000, q(d) = 0.5 + 50000 = 50000.5.
   * Totals a 100001, b 0.5, c 0.5, d 50001, main 100001 (gprof2dot:
   * b 4.99995e-06 and d 0.500005 of 100001). */
  g_autoptr (CgProfile) p = zero_forward_profile (100000, 1);
  g_autoptr (CgCosts) c = decompose (p);
  CLOSE (total (p, c, "a"), 100001);
  CLOSE (total (p, c, "b"), 0.5);
  CLOSE (total (p, c, "c"), 0.5);
  CLOSE (total (p, c, "d"), 50001);
  CLOSE (total (p, c, "main"), 100001);
}

static void
test_gprof2dot_impossible (void)
{
  /* Two of gprof2dot's results that design §3's definitions rule out,
   * and which a reader of cgtools XML refuses (cg-cost-check.h): a cycle
   * that nothing outside calls got 0, below its members' self costs (its
   * members are no entry); and a function whose callers' weights are all
   * 0 was charged in full to each of them (0/0 = 1), its cost counted as
   * often as it has callers.  Now each member gets its cycle's whole cost
   * (gprof's cycle as a unit), and the callers share the callee equally.
   * a↔b (a the root), self a 5, b 7: totals 12 (were 0).  x→f 0, y→f 0,
   * self f 3: x and y total 1.5 each (were 3 each, and z, calling both,
   * 6 of a profile of 15). */
  g_autoptr (CgProfile) p = new_profile ();
  fn (p, "a", 5), fn (p, "b", 7), fn (p, "x", 0), fn (p, "y", 0), fn (p, "f", 3), fn (p, "z", 0);
  call (p, "a", "b", 1), call (p, "b", "a", 1), call (p, "x", "f", 0), call (p, "y", "f", 0);
  call (p, "z", "x", 1), call (p, "z", "y", 1);
  g_autoptr (CgCosts) c = decompose (p);
  CLOSE (total (p, c, "a"), 12);
  CLOSE (total (p, c, "b"), 12);
  CLOSE (total (p, c, "x"), 1.5);
  CLOSE (total (p, c, "y"), 1.5);
  CLOSE (total (p, c, "z"), 3);
  CLOSE (carried (p, c, "x", "f"), 1.5);
}

static void
test_stack_weights (void)
{
  /* folded stacks: an arc weighs the samples of the stacks that contain
   * it, once per occurrence (a;b;a;b holds a→b twice) */
  GError *error = NULL;
  g_autoptr (CgProfile) p = cg_test_read_string ("a;b;a;b 3\na;c 2\n", &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CU_ASSERT_EQUAL (cg_decompose_weights_for (p), CG_WEIGHTS_STACKS);
  g_autofree gdouble *w = cg_decompose_weights (p, CG_WEIGHTS_STACKS);
  CgGraph *g = cg_profile_graph (p);
  CgFunctionId a = cg_graph_lookup_function (g, "", "a"), b = cg_graph_lookup_function (g, "", "b");
  CgFunctionId cc = cg_graph_lookup_function (g, "", "c");
  CU_ASSERT_EQUAL (w[cg_graph_lookup_arc (g, a, b)], 6);
  CU_ASSERT_EQUAL (w[cg_graph_lookup_arc (g, b, a)], 3);
  CU_ASSERT_EQUAL (w[cg_graph_lookup_arc (g, a, cc)], 2);
}

static void
test_long_chain_and_ring (void)
{
  /* 300,000 functions called in a chain, and a ring of 100,000 members
   * entered once: nothing recurses in C.  Self 1 each.  The chain's
   * head carries everything below it; in the ring, entered at r0, the
   * ranks follow the ring, every member has one forward caller, so
   * member i totals (n − i). */
  const guint chain = 300000, ring = 100000;
  g_autoptr (CgProfile) p = new_profile ();
  char name[32];
  for (guint i = 0; i < chain; i++)
    {
      g_snprintf (name, sizeof name, "c%u", i);
      fn (p, name, 1);
    }
  for (guint i = 0; i < ring; i++)
    {
      g_snprintf (name, sizeof name, "r%u", i);
      fn (p, name, 1);
    }
  CgGraph *g = cg_profile_graph (p);
  for (guint i = 0; i + 1 < chain; i++)
    cg_graph_arc_add_calls (g, cg_graph_ensure_arc (g, i, i + 1), 1);
  cg_graph_arc_add_calls (g, cg_graph_ensure_arc (g, chain - 1, chain), 1);
  for (guint i = 0; i < ring; i++)
    cg_graph_arc_add_calls (g, cg_graph_ensure_arc (g, chain + i, chain + (i + 1) % ring), 1);
  g_autoptr (CgCosts) c = decompose (p);
  CLOSE (cg_costs_total_const (c, 0)[0].x, chain + ring);
  CLOSE (cg_costs_total_const (c, chain - 1)[0].x, 1 + ring);
  CLOSE (cg_costs_total_const (c, chain)[0].x, ring);
  CLOSE (cg_costs_total_const (c, chain + ring / 2)[0].x, ring / 2);
  CLOSE (cg_costs_total_const (c, chain + ring - 1)[0].x, 1);
}

static void
test_many_cycles (void)
{
  /* 50,000 two-member cycles: main→a0, a_i→a_{i+1}, a_i↔b_i; self 1
   * each.  Cycle i is entered at a_i only (r = 1); CT_i = 2 + CT_{i+1},
   * so CT_i = 2 (n − i); q(b_i) = 1, q(a_i) = 1 + CT_{i+1} + 1 = CT_i:
   * a_i totals 2 (n − i), b_i 1.  gprof2dot rescans the whole graph for
   * each cycle; this is linear. */
  const guint n = 50000;
  g_autoptr (CgProfile) p = new_profile ();
  CgGraph *g = cg_profile_graph (p);
  char name[32];
  fn (p, "main", 0);
  for (guint i = 0; i < n; i++)
    {
      g_snprintf (name, sizeof name, "a%u", i);
      fn (p, name, 1);
      g_snprintf (name, sizeof name, "b%u", i);
      fn (p, name, 1);
    }
  /* main is 0, a_i is 1 + 2i, b_i is 2 + 2i */
  cg_graph_arc_add_calls (g, cg_graph_ensure_arc (g, 0, 1), 1);
  for (guint i = 0; i < n; i++)
    {
      cg_graph_arc_add_calls (g, cg_graph_ensure_arc (g, 1 + 2 * i, 2 + 2 * i), 1);
      cg_graph_arc_add_calls (g, cg_graph_ensure_arc (g, 2 + 2 * i, 1 + 2 * i), 1);
      if (i + 1 < n)
        cg_graph_arc_add_calls (g, cg_graph_ensure_arc (g, 1 + 2 * i, 3 + 2 * i), 1);
    }
  g_autoptr (CgCosts) c = decompose (p);
  guint bad = 0;
  for (guint i = 0; i < n; i++)
    {
      bad += fabs (cg_costs_total_const (c, 1 + 2 * i)[0].x - 2.0 * (n - i)) > 1e-9 * 2.0 * (n - i);
      bad += fabs (cg_costs_total_const (c, 2 + 2 * i)[0].x - 1.0) > 1e-9;
    }
  CU_ASSERT_EQUAL (bad, 0);
  CLOSE (total (p, c, "main"), 2.0 * n);
}

/* Random folded stacks over @nf functions, with recursion when @recursive,
 * else along a fixed order (an acyclic graph) from roots nobody calls. */
static char *
random_folded (GRand *rand, guint nf, guint n_stacks, gboolean recursive)
{
  GString *out = g_string_new (NULL);
  for (guint i = 0; i < n_stacks; i++)
    {
      guint depth = (guint) g_rand_int_range (rand, 1, 10);
      g_autoptr (GArray) st = g_array_new (FALSE, FALSE, sizeof (guint));
      g_string_append_printf (out, "root%u", (guint) g_rand_int_range (rand, 0, 2));
      guint last = 0;
      for (guint d = 1; d < depth; d++)
        {
          guint f;
          if (recursive && st->len > 0 && g_rand_double (rand) < 0.3)
            f = g_array_index (st, guint, (guint) g_rand_int_range (rand, 0, (gint32) st->len));
          else if (recursive)
            f = (guint) g_rand_int_range (rand, 0, (gint32) nf);
          else if (last + 1 < nf + 1)
            f = (guint) g_rand_int_range (rand, (gint32) last + 1, (gint32) nf + 1);
          else
            break;
          last = f;
          g_array_append_val (st, f);
          g_string_append_printf (out, ";f%u", f);
        }
      g_string_append_printf (out, " %d\n", g_rand_int_range (rand, 1, 100));
    }
  return g_string_free (out, FALSE);
}

/* @text read as folded stacks by their reader, without detection: a
 * random profile may hold stacks of one frame only, which detection does
 * not take for folded stacks (formats/folded.md). */
static CgProfile *
read_folded (const char *text)
{
  CgProfile *p = cg_profile_new ();
  g_autoptr (CgInput) in = cg_input_new_from_bytes ("random", (const guint8 *) text, strlen (text));
  if (!cg_read_folded (p, in, NULL, NULL))
    g_clear_pointer (&p, cg_profile_free);
  return p;
}

static void
test_equals_exact_without_cycles (void)
{
  /* Where the graph has no cycle and roots are never called, an arc's
   * weight (the samples of the stacks through it) is its exact cost and
   * the ratios recover the exact totals. */
  GRand *rand = g_rand_new_with_seed (7);
  guint bad = 0;
  for (guint round = 0; round < 100; round++)
    {
      g_autofree char *text = random_folded (rand, 8, (guint) g_rand_int_range (rand, 1, 40), FALSE);
      g_autoptr (CgProfile) p = read_folded (text);
      CU_ASSERT_PTR_NOT_NULL_FATAL (p);
      g_autoptr (CgCosts) exact = cg_method_compute (p, CG_METHOD_EXACT, NULL);
      g_autoptr (CgCosts) est = cg_method_compute (p, CG_METHOD_DECOMPOSE, NULL);
      CgGraph *g = cg_profile_graph (p);
      for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
        {
          gdouble want = (gdouble) cg_costs_total_const (exact, f)[0].n;
          bad += fabs (cg_costs_total_const (est, f)[0].x - want) > 1e-9 * want;
        }
    }
  g_rand_free (rand);
  CU_ASSERT_EQUAL (bad, 0);
}

static int
by_double (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return (x > y) - (x < y);
}

static void
test_report_distance_from_exact (void)
{
  /* Not an equality: how far the estimate is from the truth on random
   * recursive stacks, printed for the record.  Asserted: the profile's
   * whole cost is conserved at the roots' level (Σ over uncalled roots
   * of decompose totals = Σ of exact totals), and no estimate is
   * negative. */
  GRand *rand = g_rand_new_with_seed (11);
  g_autoptr (GArray) errors = g_array_new (FALSE, FALSE, sizeof (gdouble));
  guint profiles = 200, negative = 0, unconserved = 0, members = 0, off = 0;
  for (guint round = 0; round < profiles; round++)
    {
      g_autofree char *text = random_folded (rand, 6, (guint) g_rand_int_range (rand, 2, 40), TRUE);
      g_autoptr (CgProfile) p = read_folded (text);
      CU_ASSERT_PTR_NOT_NULL_FATAL (p);
      g_autoptr (CgCosts) exact = cg_method_compute (p, CG_METHOD_EXACT, NULL);
      g_autoptr (CgCosts) est = cg_method_compute (p, CG_METHOD_DECOMPOSE, NULL);
      CgGraph *g = cg_profile_graph (p);
      g_autoptr (CgCycles) cycles = cg_cycles_find (g, NULL, NULL);
      gdouble root_exact = 0, root_est = 0;
      for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
        {
          gdouble want = (gdouble) cg_costs_total_const (exact, f)[0].n;
          gdouble got = cg_costs_total_const (est, f)[0].x;
          negative += got < 0;
          if (g_str_has_prefix (cg_graph_function_name (g, f), "root"))
            root_exact += want, root_est += got;
          gdouble rel = fabs (got - want) / want;
          g_array_append_val (errors, rel);
          if (cg_cycles_cycle_of (cycles, f))
            members++, off += rel > 0.01;
        }
      unconserved += fabs (root_est - root_exact) > 1e-9 * root_exact;
    }
  g_array_sort (errors, by_double);
  gdouble *e = (gdouble *) errors->data;
  guint n = errors->len;
  printf ("\n  decompose vs exact on %u random recursive profiles (%u totals, %u of cycle members):\n"
          "  relative error: median %.3g, 90th percentile %.3g, max %.3g;"
          " %u cycle members off by more than 1 %%\n",
          profiles, n, members, e[n / 2], e[n * 9 / 10], e[n - 1], off);
  CU_ASSERT_EQUAL (negative, 0);
  CU_ASSERT_EQUAL (unconserved, 0);
  g_rand_free (rand);
}

static void
test_deterministic (void)
{
  GRand *rand = g_rand_new_with_seed (3);
  g_autofree char *text = random_folded (rand, 12, 300, TRUE);
  g_rand_free (rand);
  g_autoptr (CgProfile) p = read_folded (text);
  g_autoptr (CgProfile) q = read_folded (text);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CU_ASSERT_PTR_NOT_NULL_FATAL (q);
  g_autoptr (CgCosts) x = cg_method_compute (p, CG_METHOD_DECOMPOSE, NULL);
  g_autoptr (CgCosts) y = cg_method_compute (q, CG_METHOD_DECOMPOSE, NULL);
  CgGraph *g = cg_profile_graph (p);
  guint differ = 0;
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    differ += memcmp (cg_costs_total_const (x, f), cg_costs_total_const (y, f), sizeof (CgValue)) != 0;
  for (CgArcId a = 0; a < cg_graph_n_arcs (g); a++)
    differ += memcmp (cg_costs_arc_const (x, a), cg_costs_arc_const (y, a), sizeof (CgValue)) != 0;
  CU_ASSERT_EQUAL (differ, 0);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "gprof2dot's worked example", test_gprof2dot_worked_example },
    { "one entry, an exit", test_one_entry_with_exit },
    { "two entries", test_two_entries },
    { "forward split", test_forward_split },
    { "gprof2dot's assertion case (#7, #33)", test_gprof2dot_assertion_case },
    { "gprof2dot's tolerated double count", test_gprof2dot_tolerated_double_count },
    { "gprof2dot's impossible totals corrected", test_gprof2dot_impossible },
    { "stack weights", test_stack_weights },
    { "long chain and ring", test_long_chain_and_ring },
    { "many cycles", test_many_cycles },
    { "equals exact without cycles", test_equals_exact_without_cycles },
    { "report: distance from exact", test_report_distance_from_exact },
    { "deterministic", test_deterministic },
    { NULL, NULL },
  };
  return cg_test_main ("decompose", cases);
}
