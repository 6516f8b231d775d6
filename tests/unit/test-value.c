/* test-value.c — checked arithmetic and exact printing of cost values. */
#include "config.h"

#include <math.h>

#include "cg-test.h"

static char *
plain (CgKind kind, CgValue v)
{
  GString *s = g_string_new (NULL);
  cg_value_append (s, kind, v);
  return g_string_free (s, FALSE);
}

static void
test_integer_overflow (void)
{
  CgValue acc = { .n = G_MAXUINT64 - 2 };
  CU_ASSERT_TRUE (cg_value_add (CG_KIND_INTEGER, &acc, (CgValue) { .n = 2 }));
  CU_ASSERT_EQUAL (acc.n, G_MAXUINT64);
  CU_ASSERT_FALSE (cg_value_add (CG_KIND_INTEGER, &acc, (CgValue) { .n = 1 }));
  CU_ASSERT_EQUAL (acc.n, G_MAXUINT64); /* unchanged on overflow */
}

static void
test_plain_decimals (void)
{
  static const struct {
    double x;
    const char *text;
  } cases[] = {
    { 0.0, "0" },        { 0.1, "0.1" },       { 1.5, "1.5" },         { 123.456, "123.456" },
    { 1e-7, "0.0000001" }, { 1e20, "100000000000000000000" }, { -2.25, "-2.25" },
    { 1.0 / 3.0, "0.3333333333333333" }, { 12248083.0, "12248083" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *s = plain (CG_KIND_REAL, (CgValue) { .x = cases[i].x });
      CU_ASSERT_STRING_EQUAL (s, cases[i].text);
      /* and it reads back to the same double */
      CgValue back;
      CU_ASSERT_TRUE (cg_value_parse (CG_KIND_REAL, s, strlen (s), &back));
      CU_ASSERT_EQUAL (back.x, cases[i].x);
    }
  g_autofree char *n = plain (CG_KIND_INTEGER, (CgValue) { .n = G_MAXUINT64 });
  CU_ASSERT_STRING_EQUAL (n, "18446744073709551615");
}

static void
test_shortest_round_trip_random (void)
{
  GRand *rand = g_rand_new_with_seed (42);
  for (int i = 0; i < 10000; i++)
    {
      /* the whole range of exponents too: the plain digits of 5e-75 are
       * 80 characters, which the parser refused at 64 (fuzz found a
       * gprof report whose XML did not read back) */
      double x = g_rand_double (rand) * pow (10, i % 2 ? g_rand_int_range (rand, -12, 15) : g_rand_int_range (rand, -307, 308));
      g_autofree char *s = plain (CG_KIND_REAL, (CgValue) { .x = x });
      CgValue back;
      CU_ASSERT_TRUE (cg_value_parse (CG_KIND_REAL, s, strlen (s), &back));
      CU_ASSERT_EQUAL (back.x, x);
      CU_ASSERT_PTR_NULL (strchr (s, 'e'));
    }
  g_rand_free (rand);
  /* and the extremes of a double */
  static const double extremes[] = { 4.9406564584124654e-324, 2.2250738585072014e-308, 1.7976931348623157e308 };
  for (guint i = 0; i < G_N_ELEMENTS (extremes); i++)
    {
      g_autofree char *s = plain (CG_KIND_REAL, (CgValue) { .x = extremes[i] });
      CgValue back;
      CU_ASSERT_TRUE (cg_value_parse (CG_KIND_REAL, s, strlen (s), &back));
      CU_ASSERT_EQUAL (back.x, extremes[i]);
    }
}

/* The oracle: the shortest "%.*e" precision that reads back, by trying
 * every precision from 0 up. */
static int
shortest_precision_brute (double x)
{
  char fmt[8], buf[40];
  for (int prec = 0; prec < 17; prec++)
    {
      g_snprintf (fmt, sizeof fmt, "%%.%de", prec);
      g_ascii_formatd (buf, sizeof buf, fmt, x);
      if (g_ascii_strtod (buf, NULL) == x)
        return prec;
    }
  return 16;
}

/* Significant digits of a plain decimal as cg_value_append writes it. */
static int
significant_digits (const char *s)
{
  int n = 0, leading = 1, zeros = 0;
  for (; *s; s++)
    {
      if (!g_ascii_isdigit (*s))
        continue;
      if (leading && *s == '0')
        continue;
      leading = 0;
      n++;
      zeros = *s == '0' ? zeros + 1 : 0;
    }
  /* trailing zeros of an integer part are not significant either */
  return n - zeros;
}

static void
test_shortest_is_shortest (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  for (int i = 0; i < 3000; i++)
    {
      double x;
      if (i < 240)
        x = ldexp (1.0, i - 120); /* powers of two: where the gaps between doubles are uneven */
      else if (i < 1000)
        x = (double) g_rand_int_range (rand, 1, 100000) / 8.0;
      else
        x = g_rand_double (rand) * pow (10, g_rand_int_range (rand, -12, 15));
      g_autofree char *s = plain (CG_KIND_REAL, (CgValue) { .x = x });
      int want = shortest_precision_brute (x) + 1;
      CU_ASSERT_EQUAL (significant_digits (s), want);
      if (significant_digits (s) != want)
        printf ("\n  %.17g: '%s' has %d significant digits, the shortest %d\n", x, s, significant_digits (s), want);
    }
  g_rand_free (rand);
}

static void
test_human (void)
{
  static const struct {
    CgKind kind;
    CgValue v;
    const char *text;
  } cases[] = {
    { CG_KIND_INTEGER, { .n = 0 }, "0" },
    { CG_KIND_INTEGER, { .n = 999 }, "999" },
    { CG_KIND_INTEGER, { .n = 1000 }, "1,000" },
    { CG_KIND_INTEGER, { .n = 12248083 }, "12,248,083" },
    { CG_KIND_REAL, { .x = 1234.5 }, "1,234.50" },
    { CG_KIND_REAL, { .x = 0.004 }, "0.00" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GString) s = g_string_new (NULL);
      cg_value_append_human (s, cases[i].kind, cases[i].v, 2);
      CU_ASSERT_STRING_EQUAL (s->str, cases[i].text);
    }
}

static void
test_parse_rejects (void)
{
  CgValue v;
  CU_ASSERT_FALSE (cg_value_parse (CG_KIND_INTEGER, "18446744073709551616", 20, &v)); /* 2^64 */
  CU_ASSERT_TRUE (cg_value_parse (CG_KIND_INTEGER, "18446744073709551615", 20, &v));
  CU_ASSERT_EQUAL (v.n, G_MAXUINT64);
  /* 19 digits are read unchecked, the 20th on checked */
  CU_ASSERT_TRUE (cg_value_parse (CG_KIND_INTEGER, "9999999999999999999", 19, &v));
  CU_ASSERT_EQUAL (v.n, G_GUINT64_CONSTANT (9999999999999999999));
  CU_ASSERT_FALSE (cg_value_parse (CG_KIND_INTEGER, "99999999999999999999", 20, &v));
  CU_ASSERT_TRUE (cg_value_parse (CG_KIND_INTEGER, "0000000000000000000000042", 25, &v));
  CU_ASSERT_EQUAL (v.n, 42);
  CU_ASSERT_FALSE (cg_value_parse (CG_KIND_INTEGER, "12345678901234567890x", 21, &v));
  CU_ASSERT_FALSE (cg_value_parse (CG_KIND_INTEGER, "1.5", 3, &v));
  CU_ASSERT_FALSE (cg_value_parse (CG_KIND_INTEGER, "-1", 2, &v));
  CU_ASSERT_FALSE (cg_value_parse (CG_KIND_INTEGER, "", 0, &v));
  CU_ASSERT_FALSE (cg_value_parse (CG_KIND_REAL, "1.5x", 4, &v));
  CU_ASSERT_FALSE (cg_value_parse (CG_KIND_REAL, "inf", 3, &v));
}

static void
test_lists (void)
{
  const CgKind kinds[3] = { CG_KIND_INTEGER, CG_KIND_REAL, CG_KIND_INTEGER };
  CgValue v[3] = { { .n = 7 }, { .x = 0.5 }, { .n = 0 } };
  g_autoptr (GString) s = g_string_new (NULL);
  cg_values_append_list (s, kinds, v, 3);
  CU_ASSERT_STRING_EQUAL (s->str, "7 0.5"); /* trailing zero omitted */
  CgValue back[3];
  CU_ASSERT_TRUE (cg_values_parse_list (s->str, kinds, 3, back));
  CU_ASSERT_EQUAL (back[0].n, 7);
  CU_ASSERT_EQUAL (back[1].x, 0.5);
  CU_ASSERT_EQUAL (back[2].n, 0);
  CU_ASSERT_TRUE (cg_values_parse_list ("", kinds, 3, back));
  CU_ASSERT_EQUAL (back[0].n, 0);
  CU_ASSERT_FALSE (cg_values_parse_list ("1 2 3 4", kinds, 3, back)); /* too many */
  CU_ASSERT_FALSE (cg_values_parse_list ("1  2", kinds, 3, back));    /* empty field */
  CU_ASSERT_FALSE (cg_values_parse_list ("1 ", kinds, 3, back));
}

/* cg_uint_put and cg_uint_digits against printf: every power of two and
 * of ten, one either side, and random values of every length. */
static void
check_uint (guint64 n)
{
  char want[32], got[CG_UINT_DIGITS + 1];
  g_snprintf (want, sizeof want, "%" G_GUINT64_FORMAT, n);
  char *end = cg_uint_put (got, n);
  *end = '\0';
  CU_ASSERT_STRING_EQUAL (got, want);
  CU_ASSERT_EQUAL (cg_uint_digits (n), strlen (want));
}

static void
test_integers (void)
{
  for (guint k = 0; k < 64; k++)
    for (gint d = -1; d <= 1; d++)
      check_uint ((G_GUINT64_CONSTANT (1) << k) + (guint64) d);
  guint64 ten = 1;
  for (guint k = 0; k < 20; k++, ten *= 10)
    for (gint d = -1; d <= 1; d++)
      check_uint (ten + (guint64) d);
  check_uint (G_MAXUINT64);
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  for (guint i = 0; i < 100000; i++)
    {
      guint64 n = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      check_uint (n >> g_rand_int_range (rand, 0, 64));
    }
}

/* Integers in units of 10^-k print exactly: read back digit by digit
 * (no double on the way), the text is the integer again, with no zero
 * after the last digit of its fraction. */
static void
test_scaled_exact (void)
{
  static const struct {
    guint64 n;
    double scale;
    const char *text;
  } cases[] = {
    { 50975, 1e-9, "0.000050975" }, { 1500000000, 1e-9, "1.5" }, { 10, 1e-1, "1" },
    { 108805394, 1e-9, "0.108805394" }, { 0, 1e-9, "0" }, { 3, 0.5, "1.5" }, { 7, 1.0, "7" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GString) s = g_string_new (NULL);
      cg_value_append_scaled (s, CG_KIND_INTEGER, (CgValue) { .n = cases[i].n }, cases[i].scale);
      CU_ASSERT_STRING_EQUAL (s->str, cases[i].text);
    }
  static const double tenths[] = { 1e-1, 1e-2, 1e-3, 1e-6, 1e-9, 1e-12, 1e-19 };
  static const int k_of[] = { 1, 2, 3, 6, 9, 12, 19 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);
  for (guint i = 0; i < 20000; i++)
    {
      guint64 n = (((guint64) g_rand_int (rand) << 32) | g_rand_int (rand)) >> g_rand_int_range (rand, 0, 64);
      guint t = (guint) g_rand_int_range (rand, 0, G_N_ELEMENTS (tenths));
      g_autoptr (GString) s = g_string_new (NULL);
      cg_value_append_scaled (s, CG_KIND_INTEGER, (CgValue) { .n = n }, tenths[t]);
      const char *point = strchr (s->str, '.');
      int fraction = point ? (int) strlen (point + 1) : 0;
      CU_ASSERT_TRUE (fraction <= k_of[t] && (!point || (fraction > 0 && s->str[s->len - 1] != '0')));
      /* the digits, the point taken out and k - fraction zeros put after */
      guint64 back = 0;
      gboolean fits = TRUE;
      for (const char *p = s->str; *p; p++)
        if (*p != '.')
          fits &= g_uint64_checked_mul (&back, back, 10) && g_uint64_checked_add (&back, back, (guint64) (*p - '0'));
      for (int z = fraction; z < k_of[t]; z++)
        fits &= g_uint64_checked_mul (&back, back, 10);
      CU_ASSERT_TRUE (fits && back == n);
    }
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "integer overflow is refused", test_integer_overflow },
    { "integers print as printf prints them", test_integers },
    { "reals print as plain decimals", test_plain_decimals },
    { "integers in tenths to the k print exactly", test_scaled_exact },
    { "shortest digits round-trip", test_shortest_round_trip_random },
    { "shortest digits are the shortest", test_shortest_is_shortest },
    { "thousands separators", test_human },
    { "parsing rejects what is not a number", test_parse_rejects },
    { "cost lists", test_lists },
    { NULL, NULL },
  };
  return cg_test_main ("value", cases);
}
