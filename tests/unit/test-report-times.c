/* test-report-times.c — ticks back from printed seconds, against the
 * ticks the report was printed from (made here as gprof makes them). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cg-report-times.h"
#include "cg-test.h"

#define RATE 100.0

typedef struct {
  char self[32], percent[32], per_call[32];
} Printed;

/* gprof's printf formats of hist.c's flat profile rows. */
static void
print_row (Printed *p, gdouble ticks, gdouble samples, guint64 calls, gdouble scale)
{
  g_snprintf (p->self, sizeof p->self, "%8.2f", ticks / RATE);
  g_snprintf (p->percent, sizeof p->percent, "%6.2f", 100 * ticks / samples);
  if (calls)
    g_snprintf (p->per_call, sizeof p->per_call, "%8.2f", scale * ticks / RATE / (gdouble) calls);
}

/* @n rows of whole samples split over bins @w 2-byte units wide (each
 * sample credits 2 / w ticks, as gprof's hist_assign_samples does when a
 * bin of w units lies inside one function), plus @lost samples no
 * function got; solved back, every row prints as printed.  With bins of
 * whole units (@exact) the samples and ticks are found exactly; else
 * samples and bin width trade against each other within what was
 * printed (by a few samples: half a percent at most here), and the ticks
 * follow. */
static void
round_trip (GRand *rand, guint n, gdouble w, guint granularity_units, guint lost, gboolean exact)
{
  g_autofree gdouble *truth = g_new0 (gdouble, n);
  g_autofree gdouble *ticks = g_new0 (gdouble, n);
  g_autofree Printed *printed = g_new0 (Printed, n);
  g_autofree CgReportTime *rows = g_new0 (CgReportTime, n);
  guint64 samples = lost;
  for (guint i = 0; i < n; i++)
    {
      guint s = g_rand_int_range (rand, 0, 4) == 0 ? 0 : (guint) g_rand_int_range (rand, 1, 400);
      truth[i] = (gdouble) (2 * s) / w;
      samples += s;
    }
  for (guint i = 0; i < n; i++)
    {
      guint64 calls = g_rand_int_range (rand, 0, 3) == 0 ? 0 : (guint64) g_rand_int_range (rand, 1, 50);
      print_row (&printed[i], truth[i], (gdouble) samples, calls, 1e3);
      rows[i] = (CgReportTime) { .self = printed[i].self, .percent = printed[i].percent, .per_call = calls ? printed[i].per_call : NULL, .calls = calls, .scale = 1e3 };
    }
  guint64 got;
  gdouble true_w;
  CU_ASSERT_TRUE (cg_report_times_solve (rows, n, RATE, granularity_units, FALSE, NULL, &got, ticks, &true_w));
  gdouble slack = exact ? 0.0 : 5e-3;
  CU_ASSERT_TRUE (fabs ((gdouble) got - (gdouble) samples) <= slack * (gdouble) samples);
  for (guint i = 0; i < n; i++)
    {
      Printed again = { 0 };
      print_row (&again, ticks[i], (gdouble) got, rows[i].calls, 1e3);
      CU_ASSERT_STRING_EQUAL (again.self, printed[i].self);
      CU_ASSERT_STRING_EQUAL (again.percent, printed[i].percent);
      if (rows[i].calls)
        CU_ASSERT_STRING_EQUAL (again.per_call, printed[i].per_call);
      CU_ASSERT_TRUE (fabs (ticks[i] - truth[i]) <= (exact ? 1e-9 : 0.01 + slack * truth[i]));
    }
}

static void
test_whole_bins (void)
{
  GRand *rand = g_rand_new_with_seed (3);
  for (guint k = 0; k < 50; k++)
    round_trip (rand, 1 + (guint) g_rand_int_range (rand, 0, 30), 2.0, 2, 0, TRUE);
  g_rand_free (rand);
}

/* glibc's bins are a little under 2 units wide (exprparse: 1.9978):
 * gprof prints 2 bytes, and each sample is worth 1.001 ticks */
static void
test_bins_under_two_units (void)
{
  GRand *rand = g_rand_new_with_seed (5);
  for (guint k = 0; k < 50; k++)
    round_trip (rand, 2 + (guint) g_rand_int_range (rand, 0, 30), g_rand_double_range (rand, 1.99, 1.9999), 1,
                (guint) g_rand_int_range (rand, 0, 3), FALSE);
  g_rand_free (rand);
}

/* whole ticks at a rate of 100: exactly the printed hundredths */
static void
test_exact_ticks (void)
{
  const char *self[] = { "0.48", "0.36", "0.11", "0.00" };
  const char *percent[] = { "50.53", "37.89", "11.58", "0.00" };
  CgReportTime rows[4];
  for (guint i = 0; i < 4; i++)
    rows[i] = (CgReportTime) { .self = self[i], .percent = percent[i] };
  gdouble ticks[4], w;
  guint64 samples;
  CU_ASSERT_TRUE (cg_report_times_solve (rows, 4, RATE, 2, FALSE, NULL, &samples, ticks, &w));
  CU_ASSERT_EQUAL (samples, 95);
  CU_ASSERT_EQUAL (ticks[0], 48.0);
  CU_ASSERT_EQUAL (ticks[1], 36.0);
  CU_ASSERT_EQUAL (ticks[2], 11.0);
  CU_ASSERT_EQUAL (ticks[3], 0.0);
}

/* 32-bit programs' 4-byte bins (width 2): a row printed 0.00 without a
 * percentage (a call-graph entry of a report without its flat profile)
 * gets the multiple nearest what 0.00 allows that prints as 0.00: the
 * half tick nearest the middle prints as 0.01, zero does not.  With wider
 * bins a third of a tick would print as 0.00 too, but a row the flat
 * profile left out (none) had no time at all. */
static void
test_zero_rows_with_wide_bins (void)
{
  const char *self[] = { "0.02", "0.01", "0.01", "0.00" };
  const char *percent[] = { "50.00", "25.00", "25.00", NULL };
  for (guint width = 2; width <= 3; width++)
    {
      CgReportTime rows[4];
      for (guint i = 0; i < 4; i++)
        rows[i] = (CgReportTime) { .self = self[i], .percent = percent[i], .none = width == 3 && i == 3 };
      gdouble ticks[4], w;
      guint64 samples;
      CU_ASSERT_TRUE (cg_report_times_solve (rows, 4, RATE, width, FALSE, NULL, &samples, ticks, &w));
      CU_ASSERT_EQUAL (samples, 4);
      CU_ASSERT_EQUAL (ticks[0], 2.0);
      CU_ASSERT_EQUAL (ticks[3], 0.0);
    }
}

/* percentages no number of samples gives: FALSE, the seconds kept */
static void
test_impossible (void)
{
  CgReportTime rows[2] = { { .self = "0.50", .percent = "10.00" }, { .self = "0.50", .percent = "90.00" } };
  gdouble ticks[2], w;
  guint64 samples;
  CU_ASSERT_FALSE (cg_report_times_solve (rows, 2, RATE, 2, FALSE, NULL, &samples, ticks, &w));
  CU_ASSERT_EQUAL (ticks[0], 50.0);
  CU_ASSERT_EQUAL (ticks[1], 50.0);
}

/* gprof -T prints percentages with "%5.1f": they still tell a bin split
 * between two functions.  gawk 5.2.1's -T flat profile (26 samples, 2-byte
 * bins): r_unref and cmp_awknums printed 0.01 s each but 1.9 %, half a
 * tick each (the gmon.out's histogram, which gprof -b prints as 1.92 %). */
static void
test_one_decimal (void)
{
  CgReportTime rows[4] = {
    { .self = "0.08", .percent = "30.8", .per_call = "80.00", .calls = 1, .scale = 1e3 },
    { .self = "0.17", .percent = "65.4" },
    { .self = "0.01", .percent = "1.9", .per_call = "0.00", .calls = 5112989, .scale = 1e3 },
    { .self = "0.01", .percent = "1.9" },
  };
  gdouble ticks[4], w;
  guint64 samples;
  CU_ASSERT_TRUE (cg_report_times_solve (rows, 4, RATE, 1, FALSE, NULL, &samples, ticks, &w));
  CU_ASSERT_EQUAL (samples, 26);
  CU_ASSERT_DOUBLE_EQUAL (ticks[0], 8.0, 1e-9);
  /* gprof prints the bins' width rounded down ("2 byte(s)"): the half
   * ticks come back within what the printed seconds and percentages
   * allow */
  CU_ASSERT_DOUBLE_EQUAL (ticks[2], 0.5, 0.025);
  CU_ASSERT_DOUBLE_EQUAL (ticks[3], 0.5, 0.025);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "whole bins: 50 random flat profiles print again", test_whole_bins },
    { "bins under two units: 50 random flat profiles print again", test_bins_under_two_units },
    { "whole ticks come back exactly", test_exact_ticks },
    { "rows printed 0.00 have no time, with 4- and 6-byte bins too", test_zero_rows_with_wide_bins },
    { "impossible percentages keep the seconds", test_impossible },
    { "one-decimal percentages (gprof -T) tell half ticks", test_one_decimal },
    { NULL, NULL },
  };
  return cg_test_main ("report-times", cases);
}
