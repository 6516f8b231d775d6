/* test-measured.c — totals from measured inclusive costs. */
#include "config.h"

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

int
main (void)
{
  static const CgTestCase cases[] = {
    { "needs measured inclusive costs", test_needs_inclusive },
    { "a cycle without nesting stays exact", test_legitimate_cycle_stays_exact },
    { "a total above its cycle's is estimated", test_total_above_its_cycle },
    { "arcs between nested members are capped", test_nested_arcs_capped },
    { "overflow is an error", test_overflow },
    { NULL, NULL },
  };
  return cg_test_main ("measured", cases);
}
