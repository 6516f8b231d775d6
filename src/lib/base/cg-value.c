/* cg-value.c — checked arithmetic and exact printing of cost values. */
#include "config.h"

#include "cg-value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gboolean
cg_value_add (CgKind kind, CgValue *acc, CgValue v)
{
  if (kind == CG_KIND_REAL)
    {
      acc->x += v.x;
      return TRUE;
    }
  guint64 sum;
  if (!g_uint64_checked_add (&sum, acc->n, v.n))
    return FALSE;
  acc->n = sum;
  return TRUE;
}

gboolean
cg_values_add (const CgKind *kinds, CgValue *acc, const CgValue *v, guint n)
{
  for (guint i = 0; i < n; i++)
    if (!cg_value_add (kinds[i], &acc[i], v[i]))
      return FALSE;
  return TRUE;
}

gdouble
cg_value_to_double (CgKind kind, CgValue v)
{
  return kind == CG_KIND_REAL ? v.x : (gdouble) v.n;
}

CgValue
cg_value_convert (CgKind from, CgKind to, CgValue v)
{
  if (from == to)
    return v;
  g_return_val_if_fail (to == CG_KIND_REAL, v);
  return (CgValue) { .x = (gdouble) v.n };
}

CgValue
cg_value_scaled (CgKind *kind, CgValue v, gdouble scale)
{
  if (scale == 1.0)
    return v;
  CgValue x = { .x = cg_value_to_double (*kind, v) * scale };
  *kind = CG_KIND_REAL;
  return x;
}

int
cg_value_compare (CgKind kind, CgValue a, CgValue b)
{
  if (kind == CG_KIND_REAL)
    return (a.x > b.x) - (a.x < b.x);
  return (a.n > b.n) - (a.n < b.n);
}

/* Shortest "%.*e" form of @x that reads back exactly, split into its
 * significant digits and decimal exponent. */
static void
shortest_digits (gdouble x, char digits[24], int *exponent)
{
  /* 16 digits after the point always read back exactly, and whether p
   * digits do grows with p (the nearest p+1-digit decimal is at least as
   * close as the nearest p-digit one).  Most costs that methods compute
   * need 15 or 16; shorter ones are found by a binary search below 15:
   * two to five conversions instead of up to seventeen. */
  static const char *const formats[] = {
    "%.0e", "%.1e", "%.2e", "%.3e", "%.4e", "%.5e", "%.6e", "%.7e", "%.8e",
    "%.9e", "%.10e", "%.11e", "%.12e", "%.13e", "%.14e", "%.15e", "%.16e",
  };
  char buf[40];
  int lo = 0, hi = 15;
  g_ascii_formatd (buf, sizeof buf, formats[hi], x);
  if (g_ascii_strtod (buf, NULL) != x)
    lo = hi = 16;
  while (lo < hi)
    {
      int mid = (lo + hi) / 2;
      g_ascii_formatd (buf, sizeof buf, formats[mid], x);
      if (g_ascii_strtod (buf, NULL) == x)
        hi = mid;
      else
        lo = mid + 1;
    }
  g_ascii_formatd (buf, sizeof buf, formats[lo], x);
  /* buf is "d.ddde±XX" or "de±XX" */
  char *e = strchr (buf, 'e');
  *exponent = atoi (e + 1);
  int k = 0;
  for (char *p = buf; p < e; p++)
    if (g_ascii_isdigit (*p))
      digits[k++] = *p;
  while (k > 1 && digits[k - 1] == '0')
    k--;
  digits[k] = '\0';
}

/* Appends 0.@digits × 10^@point as a plain decimal. */
static void
append_digits (GString *out, const char *digits, int point)
{
  int nd = (int) strlen (digits);
  if (point <= 0)
    {
      g_string_append (out, "0.");
      for (int i = 0; i < -point; i++)
        g_string_append_c (out, '0');
      g_string_append (out, digits);
    }
  else if (point >= nd)
    {
      g_string_append (out, digits);
      for (int i = nd; i < point; i++)
        g_string_append_c (out, '0');
    }
  else
    {
      g_string_append_len (out, digits, point);
      g_string_append_c (out, '.');
      g_string_append (out, digits + point);
    }
}

static void
append_real_plain (GString *out, gdouble x)
{
  if (!isfinite (x))
    {
      /* Not produced by cgtools' methods; printed recognisably. */
      g_string_append (out, isnan (x) ? "nan" : x > 0 ? "inf" : "-inf");
      return;
    }
  if (x == 0.0)
    {
      g_string_append_c (out, '0');
      return;
    }
  if (x < 0)
    {
      g_string_append_c (out, '-');
      x = -x;
    }
  char digits[24];
  int exp10;
  shortest_digits (x, digits, &exp10);
  /* value = 0.d1d2d3... * 10^(exp10 + 1) */
  append_digits (out, digits, exp10 + 1);
}

const char cg_decimal_pairs[201] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

const guint64 cg_powers_of_ten[CG_UINT_DIGITS] = {
  G_GUINT64_CONSTANT (1),
  G_GUINT64_CONSTANT (10),
  G_GUINT64_CONSTANT (100),
  G_GUINT64_CONSTANT (1000),
  G_GUINT64_CONSTANT (10000),
  G_GUINT64_CONSTANT (100000),
  G_GUINT64_CONSTANT (1000000),
  G_GUINT64_CONSTANT (10000000),
  G_GUINT64_CONSTANT (100000000),
  G_GUINT64_CONSTANT (1000000000),
  G_GUINT64_CONSTANT (10000000000),
  G_GUINT64_CONSTANT (100000000000),
  G_GUINT64_CONSTANT (1000000000000),
  G_GUINT64_CONSTANT (10000000000000),
  G_GUINT64_CONSTANT (100000000000000),
  G_GUINT64_CONSTANT (1000000000000000),
  G_GUINT64_CONSTANT (10000000000000000),
  G_GUINT64_CONSTANT (100000000000000000),
  G_GUINT64_CONSTANT (1000000000000000000),
  G_GUINT64_CONSTANT (10000000000000000000),
};


void
cg_uint_append (GString *out, guint64 n)
{
  char buf[CG_UINT_DIGITS];
  g_string_append_len (out, buf, cg_uint_put (buf, n) - buf);
}

void
cg_value_append (GString *out, CgKind kind, CgValue v)
{
  if (kind == CG_KIND_REAL)
    append_real_plain (out, v.x);
  else
    cg_uint_append (out, v.n);
}

void
cg_value_append_scaled (GString *out, CgKind kind, CgValue v, gdouble scale)
{
  /* the doubles nearest 10^-1 to 10^-19, as the scales are read */
  static const gdouble tenths[] = { 1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,  1e-7,  1e-8,  1e-9, 1e-10,
                                    1e-11, 1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18, 1e-19 };
  if (kind == CG_KIND_INTEGER && v.n != 0)
    for (int k = 0; k < (int) G_N_ELEMENTS (tenths); k++)
      if (scale == tenths[k])
        {
          char digits[CG_UINT_DIGITS + 1];
          int n = (int) (cg_uint_put (digits, v.n) - digits), nd = n;
          while (digits[nd - 1] == '0')
            nd--;
          digits[nd] = '\0';
          append_digits (out, digits, n - (k + 1));
          return;
        }
  cg_value_append (out, kind, cg_value_scaled (&kind, v, scale));
}

static void
append_grouped (GString *out, const char *digits)
{
  gsize n = strlen (digits);
  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, digits[i]);
    }
}

void
cg_value_append_human (GString *out, CgKind kind, CgValue v, guint decimals)
{
  char buf[64];
  if (kind == CG_KIND_INTEGER)
    {
      g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, v.n);
      append_grouped (out, buf);
      return;
    }
  if (!isfinite (v.x) || fabs (v.x) >= 1e18)
    {
      append_real_plain (out, v.x);
      return;
    }
  char fmt[8];
  g_snprintf (fmt, sizeof fmt, "%%.%uf", MIN (decimals, 9u));
  g_ascii_formatd (buf, sizeof buf, fmt, fabs (v.x));
  char *point = strchr (buf, '.');
  if (v.x < 0 && strspn (buf, "0.") != strlen (buf))
    g_string_append_c (out, '-');
  if (point)
    *point = '\0';
  append_grouped (out, buf);
  if (point)
    {
      g_string_append_c (out, '.');
      g_string_append (out, point + 1);
    }
}

gdouble
cg_time_unit_seconds (const char *unit)
{
  static const struct {
    const char *name;
    gdouble seconds;
  } units[] = { { "seconds", 1 },      { "s", 1 },          { "ms", 1e-3 },          { "us", 1e-6 },
                { "\u00b5s", 1e-6 },     { "ns", 1e-9 },      { "milliseconds", 1e-3 }, { "microseconds", 1e-6 },
                { "nanoseconds", 1e-9 } }; /* pprofile's event "microseconds" */
  if (unit == NULL)
    return 0;
  /* a multiple: Xdebug 3 counts its time in "10ns" */
  guint64 times = 1;
  const char *p = unit;
  if (g_ascii_isdigit (*p))
    {
      times = 0;
      while (g_ascii_isdigit (*p) && times < 1000000000)
        times = times * 10 + (guint64) (*p++ - '0');
      if (times == 0 || g_ascii_isdigit (*p))
        return 0;
    }
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (strcmp (p, units[i].name) == 0)
      return (gdouble) times * units[i].seconds;
  return 0;
}

CgDisplayUnit
cg_display_unit (const char *unit, gdouble largest)
{
  static const struct {
    const char *name;
    gdouble factor;
  } times[] = { { "s", 1 }, { "ms", 1e3 }, { "\u00b5s", 1e6 }, { "ns", 1e9 } };
  CgDisplayUnit d = { unit, 1.0 };
  gdouble seconds = cg_time_unit_seconds (unit);
  if (seconds == 0)
    return d;
  largest *= seconds;
  guint i = 0;
  while (i + 1 < G_N_ELEMENTS (times) && largest > 0 && largest * times[i].factor < 1.0)
    i++;
  d.unit = times[i].name;
  d.factor = times[i].factor * seconds;
  return d;
}

/* The multiples of counts, for narrow columns */
static const struct {
  const char *prefix;
  gdouble factor;
} multiples[] = { { "k", 1e3 }, { "M", 1e6 }, { "G", 1e9 }, { "T", 1e12 }, { "P", 1e15 } };

CgDisplayUnit
cg_display_unit_compact (const char *unit, gdouble largest)
{
  CgDisplayUnit d = { unit, 1.0 };
  if (cg_time_unit_seconds (unit) > 0 || !(largest >= 1e8))
    return d;
  guint i = 0;
  while (i + 1 < G_N_ELEMENTS (multiples) && largest / multiples[i].factor >= 1e4)
    i++;
  g_autofree char *name = g_strdup_printf ("%s %s", multiples[i].prefix, unit ? unit : "");
  g_strchomp (name);
  d.unit = g_intern_string (name);
  d.factor = 1.0 / multiples[i].factor;
  return d;
}

void
cg_append_count_short (GString *out, guint64 n)
{
  if (n < 10000)
    {
      cg_value_append_human (out, CG_KIND_INTEGER, (CgValue) { .n = n }, 0);
      return;
    }
  guint i = 0;
  while (i + 1 < G_N_ELEMENTS (multiples) && (gdouble) n / multiples[i].factor >= 999.5)
    i++;
  gdouble x = (gdouble) n / multiples[i].factor;
  /* three significant digits, rounded as printf rounds */
  char buf[32];
  g_ascii_formatd (buf, sizeof buf, x >= 99.95 ? "%.0f" : x >= 9.995 ? "%.1f" : "%.2f", x);
  g_string_append_printf (out, "%s%s", buf, multiples[i].prefix);
}

void
cg_append_padded (GString *out, const char *text, int width)
{
  glong n = g_utf8_strlen (text, -1);
  for (glong i = n; i < width; i++)
    g_string_append_c (out, ' ');
  g_string_append (out, text);
}

/* the longest real cg_value_parse takes: more than the plainly written
 * extremes of a double (a sign, 309 digits; or "0.", 323 zeros and 17
 * digits) */
#define CG_REAL_MAX_CHARS 400

gboolean
cg_value_parse (CgKind kind, const char *s, gsize len, CgValue *out)
{
  /* a real as cg_value_append writes it, in plain digits, takes up to
   * some 345 characters (4.9e-324: "0." and 323 zeros before its
   * digits); an integer up to 20 */
  if (len == 0 || len > (kind == CG_KIND_INTEGER ? 64 : CG_REAL_MAX_CHARS))
    return FALSE;
  if (kind == CG_KIND_INTEGER)
    {
      /* 19 digits cannot overflow: only longer numbers are checked */
      guint64 n = 0;
      for (gsize i = 0; i < len; i++)
        {
          guint d = (guint) (guchar) s[i] - '0';
          if (d > 9)
            return FALSE;
          if (i < 19)
            n = n * 10 + d;
          else if (!g_uint64_checked_mul (&n, n, 10) || !g_uint64_checked_add (&n, n, d))
            return FALSE;
        }
      out->n = n;
      return TRUE;
    }
  char buf[CG_REAL_MAX_CHARS + 1];
  memcpy (buf, s, len);
  buf[len] = '\0';
  char *end;
  gdouble x = g_ascii_strtod (buf, &end);
  if (end != buf + len || !isfinite (x))
    return FALSE;
  out->x = x;
  return TRUE;
}

void
cg_values_append_list (GString *out, const CgKind *kinds, const CgValue *v, guint n)
{
  while (n > 0 && cg_value_is_zero (kinds[n - 1], v[n - 1]))
    n--;
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (out, ' ');
      cg_value_append (out, kinds[i], v[i]);
    }
}

gboolean
cg_values_parse_list (const char *s, const CgKind *kinds, guint n, CgValue *out)
{
  guint i = 0;
  const char *p = s;
  for (guint k = 0; k < n; k++)
    out[k] = CG_VALUE_ZERO;
  while (*p)
    {
      const char *q = p;
      while (*q && *q != ' ')
        q++;
      if (i == n || !cg_value_parse (kinds[i], p, (gsize) (q - p), &out[i]))
        return FALSE;
      i++;
      if (*q == '\0')
        break;
      p = q + 1;
      if (*p == '\0')
        return FALSE;
    }
  return TRUE;
}

const char *
cg_kind_to_string (CgKind kind)
{
  return kind == CG_KIND_REAL ? "real" : "integer";
}

gboolean
cg_kind_from_string (const char *s, CgKind *kind)
{
  if (g_strcmp0 (s, "integer") == 0)
    *kind = CG_KIND_INTEGER;
  else if (g_strcmp0 (s, "real") == 0)
    *kind = CG_KIND_REAL;
  else
    return FALSE;
  return TRUE;
}
