/* test-measured.c — totals from measured inclusive costs. */
#include "config.h"

#include <string.h>

#include "cg-cycles.h"
#include "cg-measured.h"
#include "cg-test.h"

static CgGraph *
graph_with_event (void)
{
  CgGraph *g = cg_graph_new ();
  guint e;
  cg_graph_ensure_event (g, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL);
  cg_graph_set_has_inclusive (g, TRUE);
  return g;
}

static CgArcId
arc (CgGraph *g, CgFunctionId a, CgFunctionId b, guint64 calls, guint64 inclusive)
{
  CgArcId x = cg_graph_ensure_arc (g, a, b);
  cg_graph_arc_add_calls (g, x, calls);
  cg_graph_arc_inclusive (g, x)->n = inclusive;
  return x;
}

static void
test_needs_inclusive (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  GError *error = NULL;
  CU_ASSERT_PTR_NULL (cg_measured_compute (g, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_UNSUPPORTED, "callgrind");
  g_clear_error (&error);
}

static void
test_legitimate_cycle_stays_exact (void)
{
  /* f calls g at one time and g calls f at another: a cycle in the graph,
   * but no nesting; both totals are exact sums */
  g_autoptr (CgGraph) g = graph_with_event ();
  CgFunctionId m = cg_graph_ensure_function (g, "", "main");
  CgFunctionId f = cg_graph_ensure_function (g, "", "f"), h = cg_graph_ensure_function (g, "", "g");
  cg_graph_spontaneous_mut (g, m)->n = 100;
  arc (g, m, f, 1, 30);
  arc (g, m, h, 1, 60);
  arc (g, f, h, 1, 20);
  arc (g, h, f, 1, 10);
  g_autoptr (CgCosts) c = cg_measured_compute (g, NULL);
  CU_ASSERT_EQUAL (cg_costs_total (c, f)->n, 40);
  CU_ASSERT_EQUAL (cg_costs_total (c, h)->n, 80);
  CU_ASSERT_FALSE (cg_costs_any_estimated (c));
  CU_ASSERT_EQUAL (cg_costs_arc (c, cg_graph_lookup_arc (g, f, h))->n, 20);
}

static void
test_total_above_its_cycle (void)
{
  /* no flag, but a member's sum exceeds everything that entered its cycle:
   * impossible without nesting, so the cycle's total is used */
  g_autoptr (CgGraph) g = graph_with_event ();
  CgFunctionId m = cg_graph_ensure_function (g, "", "main");
  CgFunctionId a = cg_graph_ensure_function (g, "", "a"), b = cg_graph_ensure_function (g, "", "b");
  cg_graph_spontaneous_mut (g, m)->n = 100;
  arc (g, m, a, 1, 50);
  arc (g, a, b, 10, 45);
  CgArcId ba = arc (g, b, a, 9, 40);
  g_autoptr (CgCosts) c = cg_measured_compute (g, NULL);
  CU_ASSERT_EQUAL (cg_costs_total (c, a)->n, 50); /* not 90 */
  CU_ASSERT_TRUE (cg_costs_total_is_estimated (c, a));
  CU_ASSERT_EQUAL (cg_costs_total (c, b)->n, 45); /* within the bound: kept */
  CU_ASSERT_FALSE (cg_costs_total_is_estimated (c, b));
  CU_ASSERT_TRUE (cg_costs_arc_is_estimated (c, ba));
  CU_ASSERT_EQUAL (cg_costs_total (c, m)->n, 100);
}

static void
test_nested_arcs_capped (void)
{
  /* calls between members nest (--separate-recs=1): each call's
   * inclusive cost holds the next one's, so the arcs' sums far exceed
   * everything that entered the cycle; they are capped at its total */
  g_autoptr (CgGraph) g = graph_with_event ();
  CgFunctionId m = cg_graph_ensure_function (g, "", "main");
  CgFunctionId a = cg_graph_ensure_function (g, "", "a"), b = cg_graph_ensure_function (g, "", "b");
  CgFunctionId leaf = cg_graph_ensure_function (g, "", "leaf");
  cg_graph_spontaneous_mut (g, m)->n = 100;
  CgArcId ma = arc (g, m, a, 1, 50);
  CgArcId ab = arc (g, a, b, 10, 400), ba = arc (g, b, a, 9, 300);
  CgArcId bl = arc (g, b, leaf, 10, 20);
  g_autoptr (CgCosts) c = cg_measured_compute (g, NULL);
  CU_ASSERT_EQUAL (cg_costs_arc (c, ab)->n, 50);
  CU_ASSERT_EQUAL (cg_costs_arc (c, ba)->n, 50);
  CU_ASSERT_TRUE (cg_costs_arc_is_estimated (c, ab) && cg_costs_arc_is_estimated (c, ba));
  /* into and out of the cycle: exact */
  CU_ASSERT_EQUAL (cg_costs_arc (c, ma)->n, 50);
  CU_ASSERT_EQUAL (cg_costs_arc (c, bl)->n, 20);
  CU_ASSERT_FALSE (cg_costs_arc_is_estimated (c, ma) || cg_costs_arc_is_estimated (c, bl));
  CU_ASSERT_EQUAL (cg_costs_total (c, a)->n, 50);
  CU_ASSERT_EQUAL (cg_costs_total (c, b)->n, 50);
}

static void
test_overflow (void)
{
  g_autoptr (CgGraph) g = graph_with_event ();
  CgFunctionId a = cg_graph_ensure_function (g, "", "a"), b = cg_graph_ensure_function (g, "", "b");
  CgFunctionId c = cg_graph_ensure_function (g, "", "c");
  arc (g, a, c, 1, G_MAXUINT64);
  arc (g, b, c, 1, 1);
  GError *error = NULL;
  CU_ASSERT_PTR_NULL (cg_measured_compute (g, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_OVERFLOW, NULL);
  g_clear_error (&error);
}

static void
test_cycles_over_all_arcs (void)
{
  /* without the recursion split (nested marks), a -> b whose calls
   * carried nothing (rounded to 0 by the producer) still closes the cycle
   * cgcycles lists: both members get the cycle's total, estimated */
  g_autoptr (CgGraph) g = graph_with_event ();
  CgFunctionId m = cg_graph_ensure_function (g, "", "main");
  CgFunctionId a = cg_graph_ensure_function (g, "", "a"), b = cg_graph_ensure_function (g, "", "b");
  cg_graph_spontaneous_mut (g, m)->n = 100;
  cg_graph_self (g, m)->n = 40;
  cg_graph_self (g, a)->n = 30;
  cg_graph_self (g, b)->n = 30;
  arc (g, m, a, 1, 60);
  arc (g, a, b, 3, 0);
  arc (g, b, a, 2, 25);
  for (CgFunctionId f = a; f <= b; f++)
    cg_graph_function_set_flags (g, f, CG_FUNCTION_NESTED);
  g_autoptr (CgCosts) c = cg_measured_compute (g, NULL);
  g_autoptr (CgCycles) cycles = cg_cycles_find (g, NULL, NULL);
  CU_ASSERT_EQUAL (cg_cycles_count (cycles), 1);
  for (CgFunctionId f = a; f <= b; f++)
    {
      CU_ASSERT_EQUAL (cg_cycles_cycle_of (cycles, f), 1);
      CU_ASSERT_TRUE (cg_costs_total_is_estimated (c, f));
      CU_ASSERT_EQUAL (cg_costs_total (c, f)->n, 60);
    }
  CU_ASSERT_FALSE (cg_costs_total_is_estimated (c, m));
}

static void
test_raised_to_self_and_calls (void)
{
  /* pyprof2calltree rounds each call's cost on its own: lstat, called
   * from two places, has self 18005 but calls of 18004 into it; run's
   * total falls below its self plus its call of work.  Both are raised,
   * estimated, in one warning; an event no arc carries (callgrind's
   * --cacheuse ones) is left alone. */
  g_autoptr (CgGraph) g = graph_with_event ();
  guint e2;
  cg_graph_ensure_event (g, "AcCost1", "AcCost1", CG_KIND_INTEGER, &e2, NULL);
  CgFunctionId m = cg_graph_ensure_function (g, "", "main"), l = cg_graph_ensure_function (g, "", "<posix.lstat>");
  CgFunctionId x = cg_graph_ensure_function (g, "", "x"), run = cg_graph_ensure_function (g, "", "run");
  CgFunctionId w = cg_graph_ensure_function (g, "", "work");
  cg_graph_spontaneous_mut (g, m)[0].n = 100000;
  cg_graph_self (g, l)[0].n = 18005;
  cg_graph_self (g, l)[1].n = 7;
  cg_graph_self (g, run)[0].n = 10;
  cg_graph_self (g, w)[0].n = 50;
  arc (g, m, l, 1, 9002);
  arc (g, m, x, 1, 20000);
  arc (g, x, l, 1, 9002);
  arc (g, m, run, 1, 55);
  arc (g, run, w, 1, 50);
  arc (g, m, w, 1, 0);
  g_autoptr (CgCosts) c = cg_measured_compute (g, NULL);
  CU_ASSERT_EQUAL (cg_costs_total (c, l)[0].n, 18005);
  CU_ASSERT_EQUAL (cg_costs_total (c, l)[1].n, 0);
  CU_ASSERT_TRUE (cg_costs_total_is_estimated (c, l));
  CU_ASSERT_EQUAL (cg_costs_total (c, run)[0].n, 60);
  CU_ASSERT_TRUE (cg_costs_total_is_estimated (c, run));
  CU_ASSERT_EQUAL (cg_costs_total (c, w)[0].n, 50);
  CU_ASSERT_FALSE (cg_costs_total_is_estimated (c, w));
  CU_ASSERT_FALSE (cg_costs_total_is_estimated (c, x));
  CU_ASSERT_FALSE (cg_costs_total_is_estimated (c, m));
  const char *warning = cg_costs_warning (c, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL (warning);
  CU_ASSERT_PTR_NOT_NULL (strstr (warning, "2 functions with a measured total below self cost plus calls"));
  CU_ASSERT_PTR_NOT_NULL (strstr (warning, "<posix.lstat>"));
  /* main's 100000 spontaneous against 18065 of self costs in all: its
   * total exceeds the profile's, said in a second warning */
  warning = cg_costs_warning (c, 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL (warning);
  CU_ASSERT_PTR_NOT_NULL (strstr (warning, "measured totals of Ir exceed the profile's total (its self costs): main's is"));
  CU_ASSERT_PTR_NULL (cg_costs_warning (c, 2));
}

static void
test_above_all (void)
{
  /* a JRuby-like root: self costs 10 + 90 + 0, and (top)'s calls carry 90
   * and 119 (Thread#join timed while the threads ran): (top) at 219 %,
   * join at 119 %; the same calls carrying 90 and 0 exceed nothing */
  for (guint join = 0; join <= 119; join += 119)
    {
      g_autoptr (CgGraph) g = graph_with_event ();
      CgFunctionId top = cg_graph_ensure_function (g, "", "(top)");
      CgFunctionId run = cg_graph_ensure_function (g, "", "Worker#run");
      CgFunctionId j = cg_graph_ensure_function (g, "", "Thread#join");
      cg_graph_self (g, top)->n = 10;
      cg_graph_self (g, run)->n = 90;
      cg_graph_spontaneous_mut (g, top)->n = 10 + 90 + join;
      arc (g, top, run, 2, 90);
      arc (g, top, j, 2, join);
      g_autoptr (CgCosts) c = cg_measured_compute (g, NULL);
      guint n = 99;
      gdouble pct = -1;
      CgFunctionId f = cg_measured_above_all (g, c, 0, &n, &pct);
      if (join == 0)
        {
          CU_ASSERT_EQUAL (f, CG_NO_ID);
          CU_ASSERT_EQUAL (n, 0);
          CU_ASSERT_PTR_NULL (cg_costs_warning (c, 0));
          continue;
        }
      CU_ASSERT_EQUAL (f, top);
      CU_ASSERT_EQUAL (n, 2);
      CU_ASSERT_DOUBLE_EQUAL (pct, 219.0, 1e-9);
      CU_ASSERT_PTR_NOT_NULL (cg_costs_warning (c, 0));
      /* another method's totals are parts of the self costs: never */
      g_autoptr (CgCosts) other = cg_costs_new (CG_METHOD_EXACT, g);
      cg_costs_total (other, top)->n = 219;
      CU_ASSERT_EQUAL (cg_measured_above_all (g, other, 0, &n, &pct), CG_NO_ID);
    }
}

static void
test_above_all_by_rounding (void)
{
  /* a producer that times each call apart in units of 10 ns rounds each
   * number it writes: main calls leaf 40 times, self costs 100 + 4000,
   * and the calls carry 4000 + excess.  With 3 functions' and 40 calls'
   * worth of units allowed, an excess of 43 is rounding, 44 is an
   * overlap; counts of instructions are never rounded, so there 1 is */
  static const struct {
    const char *unit;
    guint64 excess;
    gboolean above;
  } cases[] = {
    { "10ns", 43, FALSE }, { "10ns", 44, TRUE }, { "ns", 0, FALSE }, { "Ir", 1, TRUE }, { "Ir", 0, FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (CgGraph) g = cg_graph_new ();
      guint e;
      cg_graph_ensure_event (g, "Time", cases[i].unit, CG_KIND_INTEGER, &e, NULL);
      cg_graph_set_has_inclusive (g, TRUE);
      CgFunctionId m = cg_graph_ensure_function (g, "", "main");
      CgFunctionId l = cg_graph_ensure_function (g, "", "leaf");
      cg_graph_ensure_function (g, "", "unused");
      cg_graph_self (g, m)->n = 100;
      cg_graph_self (g, l)->n = 4000;
      cg_graph_spontaneous_mut (g, m)->n = 100 + 4000 + cases[i].excess;
      arc (g, m, l, 40, 4000 + cases[i].excess);
      g_autoptr (CgCosts) c = cg_measured_compute (g, NULL);
      guint n;
      gdouble pct;
      CgFunctionId f = cg_measured_above_all (g, c, 0, &n, &pct);
      CU_ASSERT_EQUAL (f, cases[i].above ? m : CG_NO_ID);
      CU_ASSERT_EQUAL (n, cases[i].above ? 1 : 0);
      CU_ASSERT_EQUAL (cg_costs_warning (c, 0) != NULL, cases[i].above);
    }
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "needs measured inclusive costs", test_needs_inclusive },
    { "a cycle without nesting stays exact", test_legitimate_cycle_stays_exact },
    { "a total above its cycle's is estimated", test_total_above_its_cycle },
    { "arcs between nested members are capped", test_nested_arcs_capped },
    { "overflow is an error", test_overflow },
    { "cycles over all arcs, as cgcycles finds them", test_cycles_over_all_arcs },
    { "totals below self plus calls are raised", test_raised_to_self_and_calls },
    { "totals above the profile's total", test_above_all },
    { "totals above it by the producer's rounding", test_above_all_by_rounding },
    { NULL, NULL },
  };
  return cg_test_main ("measured", cases);
}
