/* cg-value.h — one cost value of one event.
 *
 * Sources that count (callgrind's Ir, call counts, samples) give exact
 * unsigned 64-bit integers; sources or methods that produce fractions
 * (gprof's split histogram bins, decompositions, decimal folded counts)
 * give doubles.  Each event has a kind, and a CgValue holds either form in
 * eight bytes, so cost vectors stay plain arrays.  Integer arithmetic is
 * checked: overflow is reported, never wrapped.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * CgKind:
 * @CG_KIND_INTEGER: the event counts; values are guint64 (member @n).
 * @CG_KIND_REAL: values are IEEE doubles (member @x).
 */
typedef enum {
  CG_KIND_INTEGER,
  CG_KIND_REAL,
} CgKind;

typedef union {
  guint64 n;
  gdouble x;
} CgValue;

#define CG_VALUE_ZERO ((CgValue) { .n = 0 })

/* Adds @v to *@acc.  Returns FALSE (and leaves *@acc unchanged) when an
 * integer sum would exceed G_MAXUINT64. */
gboolean cg_value_add (CgKind kind, CgValue *acc, CgValue v);

/* Element-wise cg_value_add over @n values of the kinds in @kinds.
 * Returns FALSE on the first overflow; earlier elements are already added. */
gboolean cg_values_add (const CgKind *kinds, CgValue *acc, const CgValue *v, guint n);

gdouble cg_value_to_double (CgKind kind, CgValue v);

/* Converts @v of @from kind to @to kind (integer to real may round above
 * 2^53; real to integer is not offered). */
CgValue cg_value_convert (CgKind from, CgKind to, CgValue v);

static inline gboolean
cg_value_is_zero (CgKind kind, CgValue v)
{
  return kind == CG_KIND_REAL ? v.x == 0.0 : v.n == 0;
}

/* @v in its event's unit: unchanged when @scale is 1, otherwise the real
 * v × scale (*@kind is updated to the kind of the result). */
CgValue cg_value_scaled (CgKind *kind, CgValue v, gdouble scale);

/* Three-way comparison; for reals NaN never occurs in cgtools data. */
int cg_value_compare (CgKind kind, CgValue a, CgValue b);

/* Appends @v as a plain decimal ("12", "0.25", never an exponent, no
 * thousands separators, independent of the locale).  Reals use the
 * shortest digits that read back to the same double. */
void cg_value_append (GString *out, CgKind kind, CgValue v);

/* Appends @v in its event's unit, @v × @scale, as cg_value_append does;
 * an integer with a scale of 10^-1 to 10^-19 (nanoseconds in seconds)
 * exactly, its decimal point moved: the double nearest v × scale may
 * print as another decimal ("0.000050975000000000006" for 50975 ns). */
void cg_value_append_scaled (GString *out, CgKind kind, CgValue v, gdouble scale);

/* Room for any guint64 in decimal. */
#define CG_UINT_DIGITS 20

/* "00" to "99", and 10^0 to 10^19: the tables of cg_uint_digits and
 * cg_uint_put. */
extern const char cg_decimal_pairs[201];
extern const guint64 cg_powers_of_ten[CG_UINT_DIGITS];

/* The number of decimal digits of @n (1 for 0), without a loop: the bits
 * of @n give its digits within one (1233 / 4096 is just under
 * log10 2), and one comparison settles which. */
static inline guint
cg_uint_digits (guint64 n)
{
  guint bits = 64 - (guint) __builtin_clzll (n | 1);
  guint d = bits * 1233 >> 12;
  return d + ((n | 1) >= cg_powers_of_ten[d]);
}

/* Writes @n in plain decimal at @p and returns where it ends; no NUL.
 * The fast path of every integer cgtools prints: inline, as the writers
 * print millions of counts, and two digits at a time. */
static inline char *
cg_uint_put (char *p, guint64 n)
{
  char *end = p + cg_uint_digits (n), *q = end;
  while (n >= 100)
    {
      guint i = (guint) (n % 100) * 2;
      n /= 100;
      q -= 2;
      q[0] = cg_decimal_pairs[i];
      q[1] = cg_decimal_pairs[i + 1];
    }
  if (n >= 10)
    {
      q[-2] = cg_decimal_pairs[n * 2];
      q[-1] = cg_decimal_pairs[n * 2 + 1];
    }
  else
    q[-1] = (char) ('0' + n);
  return end;
}

/* Appends @n in plain decimal. */
void cg_uint_append (GString *out, guint64 n);

/* Appends @v with thousands separators ("12,248,083") for people;
 * reals get @decimals digits after the point. */
void cg_value_append_human (GString *out, CgKind kind, CgValue v, guint decimals);

/* How a view for people shows an event's values: a value in the event's
 * unit (after its scale) times @factor, named @unit. */
typedef struct {
  const char *unit; /* static or the event's */
  gdouble factor;
} CgDisplayUnit;

/* The seconds in one @unit when @unit names a time: "seconds", "s",
 * "ms", "us", "µs" or "ns" (or "milliseconds", "microseconds",
 * "nanoseconds"), possibly after a whole multiple ("10ns", Xdebug 3's
 * Time_(10ns)); 0 for any other unit (or NULL). */
gdouble cg_time_unit_seconds (const char *unit);

/* The unit to show values of an event in @unit (the event's) whose
 * largest is @largest: times (cg_time_unit_seconds) in s, ms, µs or ns,
 * the largest unit in which @largest is at least 1, so that with two
 * decimals it shows three significant digits or more (a 40 ms profile
 * reads 40.00 ms, not 0.04 s; 4,000,000 of "10ns" read 40.00 ms too);
 * other units as they are (factor 1). */
CgDisplayUnit cg_display_unit (const char *unit, gdouble largest);

/* The unit to show counts (an event that is no time: callgrind's Ir,
 * samples) in where columns must be narrow: where @largest is 100
 * million or more (11 columns grouped), its thousands, millions,
 * billions, trillions or quadrillions ("k Ir", "M Ir", "G Ir"), the
 * smallest multiple in which @largest is under 10,000, so that with two
 * decimals it keeps four significant digits (2,413,631,575 Ir read
 * 2,413.63 M Ir); else @unit as it is (factor 1).  The name is interned
 * (g_intern_string). */
CgDisplayUnit cg_display_unit_compact (const char *unit, gdouble largest);

/* Appends the count @n for a narrow column: as it is below 10,000, else
 * to three significant digits with k, M, G, T or P (12.3k, 1.23M, 123G). */
void cg_append_count_short (GString *out, guint64 n);

/* Appends @text right-aligned in @width columns (characters, not bytes:
 * "µs" is two bytes, one column). */
void cg_append_padded (GString *out, const char *text, int width);

/* Parses a plain decimal of @len bytes at @s ("123", "12.5"; for reals
 * also an exponent).  Returns FALSE when the text is not one number of
 * that kind or an integer exceeds 64 bits. */
gboolean cg_value_parse (CgKind kind, const char *s, gsize len, CgValue *out);

/* Appends @n values separated by one blank, without trailing zeros (so an
 * all-zero vector appends nothing).  The compact cost list of cgtools XML. */
void cg_values_append_list (GString *out, const CgKind *kinds, const CgValue *v, guint n);

/* Parses a cost list as written by cg_values_append_list into @out (@n
 * values, missing trailing ones zero).  FALSE when malformed or longer
 * than @n. */
gboolean cg_values_parse_list (const char *s, const CgKind *kinds, guint n, CgValue *out);

const char *cg_kind_to_string (CgKind kind);
gboolean cg_kind_from_string (const char *s, CgKind *kind);

G_END_DECLS
