/* cg-report-times.c — the ticks and samples a gprof report printed. */
#include "config.h"

#include "cg-report-times.h"

#include <math.h>
#include <string.h>

/* numbers of samples tried on either side of the printed sum */
#define MAX_TRIES 100000
/* widths tried between two whole ones */
#define MAX_STEPS 200000


typedef struct {
  gdouble seconds, percent;
  gdouble percent_half; /* half the last printed digit's unit (gprof -T: "%5.1f") */
  gdouble t_lo, t_hi; /* the ticks the printed seconds allow */
  gboolean has_percent;
  gdouble ch_lo, ch_hi; /* the children's ticks the printed seconds allow (0: a flat row) */
  gboolean has_per_call;
  gdouble c_lo, c_hi; /* the ticks the time per call allows */
} Row;

/* The digits after @s's point. */
static int
decimals (const char *s)
{
  const char *dot = strchr (s, '.');
  return dot ? (int) MIN (strlen (dot + 1), 9) : 0;
}

/* Whether @value prints as @want with as many decimals ("%.2f": gprof's
 * "%6.2f" and "%8.2f" differ only in leading blanks, which are not
 * compared; gprof -T prints percentages with "%5.1f"). */
static gboolean
prints_as (gdouble value, const char *want)
{
  char buf[64];
  g_snprintf (buf, sizeof buf, "%.*f", decimals (want), value);
  const char *b = buf;
  while (*b == ' ')
    b++;
  while (*want == ' ')
    want++;
  return strcmp (b, want) == 0;
}

/* Whether @ticks and some children's ticks within the row's interval
 * print as the row's % time: a flat row's is its self time's, a
 * call-graph entry's of self plus children. */
static gboolean
percent_fits (const CgReportTime *r, const Row *row, gdouble ticks, gdouble total)
{
  if (r->children == NULL)
    return prints_as (100 * ticks / total, r->percent);
  gdouble lo = 100 * (ticks + row->ch_lo) / total, hi = 100 * (ticks + row->ch_hi) / total;
  return lo < row->percent + row->percent_half + 1e-9 && hi >= row->percent - row->percent_half - 1e-9;
}

static gboolean
fits (const CgReportTime *r, const Row *row, gdouble ticks, gdouble rate, gdouble total)
{
  return prints_as (ticks / rate, r->self) && (!row->has_percent || percent_fits (r, row, ticks, total))
         && (!row->has_per_call || prints_as (r->scale * ticks / rate / (gdouble) r->calls, r->per_call));
}

/* The row's interval of ticks for @total samples. */
static void
interval (const Row *row, gdouble total, gdouble *lo, gdouble *hi)
{
  *lo = row->t_lo;
  *hi = row->t_hi;
  if (row->has_per_call)
    {
      *lo = MAX (*lo, row->c_lo);
      *hi = MIN (*hi, row->c_hi);
    }
  if (row->has_percent)
    {
      *lo = MAX (*lo, (row->percent - row->percent_half) * total / 100 - row->ch_hi);
      *hi = MIN (*hi, (row->percent + row->percent_half) * total / 100 - row->ch_lo);
    }
}

/* The ticks of row @r for @total samples, or -1 when none prints as
 * printed: within the interval both printed numbers allow, a multiple of
 * 1/width (the bins' split) when there is one, the nearest to the
 * interval's middle; else the middle (bins wider than the granularity
 * says: gprof prints the width rounded down). */
static gdouble
best (const CgReportTime *r, const Row *row, gdouble rate, guint width, gdouble total)
{
  gdouble lo, hi;
  interval (row, total, &lo, &hi);
  if (lo > hi)
    return -1;
  gdouble mid = (lo + hi) / 2;
  /* the two multiples on either side of the middle, the nearer first: a
   * row printed 0.00 allows up to half a tick, whose nearest multiple
   * with 4-byte bins (width 2) is the half tick itself, which prints as
   * 0.01; zero, the other one, is what the row was */
  gdouble below = floor (mid * width) / width, above = below + 1.0 / width;
  gdouble m[2] = { below, above };
  if (above - mid < mid - below)
    {
      m[0] = above;
      m[1] = below;
    }
  for (guint i = 0; i < 2; i++)
    if (m[i] >= lo && m[i] <= hi && fits (r, row, m[i], rate, total))
      return m[i];
  if (fits (r, row, mid, rate, total))
    return mid;
  /* the interval's ends are where printing rounds: try inside them */
  for (gint i = 1; i < 8; i++)
    {
      gdouble a = lo + (hi - lo) * i / 8;
      if (fits (r, row, a, rate, total))
        return a;
    }
  return -1;
}

static gboolean
all_fit (const CgReportTime *rows, const Row *r, guint n, gdouble rate, guint width, gdouble total)
{
  for (guint i = 0; i < n; i++)
    if (r[i].has_percent && best (&rows[i], &r[i], rate, width, total) < 0)
      return FALSE;
  return TRUE;
}

static gboolean
width_fits (const Row *r, guint n, gdouble total, gdouble w)
{
  for (guint i = 0; i < n; i++)
    {
      gdouble lo, hi;
      interval (&r[i], total, &lo, &hi);
      if (ceil (lo * w - 1e-9) > floor (hi * w + 1e-9))
        return FALSE;
    }
  return TRUE;
}

/* A function's ticks are N / w for an integer N (overlaps in 2-byte units
 * times samples) and the bins' true width w, which gprof prints rounded
 * down (w is in [@width, @width + 1): glibc makes bins of about 4 bytes,
 * 1.9978 units for one program).  The w for which every row's interval
 * holds such a multiple, the middle of the longest such range, gives
 * ticks that add up as gprof's do.  FALSE when no w does. */
static gdouble
true_width (const CgReportTime *rows, const Row *r, guint n, gdouble rate, guint width, gdouble total,
            gdouble *ticks)
{
  gdouble step = 1e-3, n_max = 1.0;
  for (guint i = 0; i < n; i++)
    {
      gdouble lo, hi;
      interval (&r[i], total, &lo, &hi);
      n_max = MAX (n_max, hi * (width + 1));
    }
  for (guint i = 0; i < n; i++)
    {
      gdouble lo, hi;
      interval (&r[i], total, &lo, &hi);
      if (hi > lo)
        step = MIN (step, (hi - lo) * width / (4 * n_max));
    }
  step = MAX (step, 1.0 / MAX_STEPS);
  gdouble best_w = -1, run_start = -1, best_len = -1;
  if (width_fits (r, n, total, width))
    best_w = width;
  for (gdouble w = width; best_w < 0 && w <= width + 1; w += step)
    {
      gboolean ok = w < width + 1 && width_fits (r, n, total, w);
      if (ok && run_start < 0)
        run_start = w;
      if (!ok && run_start >= 0)
        {
          if (w - run_start > best_len)
            {
              best_len = w - run_start;
              best_w = -2 - (run_start + w) / 2; /* found, not final */
            }
          run_start = -1;
        }
    }
  if (best_w < -1.5)
    best_w = -2 - best_w;
  if (best_w < 0)
    return 0.0;
  for (guint i = 0; i < n; i++)
    {
      gdouble lo, hi;
      interval (&r[i], total, &lo, &hi);
      /* the multiple nearest the ticks chosen at the printed width, not
       * the interval's middle: a row printed 0.00 had no time, not a
       * third of a tick */
      gdouble t = round (ticks[i] * best_w) / best_w;
      if (t < lo || t > hi)
        t = ceil (lo * best_w - 1e-9) / best_w;
      if (fits (&rows[i], &r[i], t, rate, total))
        ticks[i] = t;
    }
  return best_w;
}

static void
setup_rows (const CgReportTime *rows, guint n, gdouble rate, gboolean no_time, Row *r)
{
  for (guint i = 0; i < n; i++)
    {
      r[i].seconds = g_ascii_strtod (rows[i].self, NULL);
      gdouble t_lo = MAX (0.0, (r[i].seconds - 0.005) * rate), t_hi = (r[i].seconds + 0.005) * rate;
      if (rows[i].none)
        t_lo = t_hi = 0.0;
      r[i].t_lo = t_lo;
      r[i].t_hi = t_hi;
      r[i].has_percent = rows[i].percent != NULL && !no_time;
      r[i].percent = rows[i].percent ? g_ascii_strtod (rows[i].percent, NULL) : 0.0;
      r[i].percent_half = rows[i].percent ? 0.5 * pow (10.0, -decimals (rows[i].percent)) : 0.005;
      if (rows[i].children)
        {
          gdouble c = g_ascii_strtod (rows[i].children, NULL);
          r[i].ch_lo = MAX (0.0, (c - 0.005) * rate);
          r[i].ch_hi = (c + 0.005) * rate;
        }
      r[i].has_per_call = rows[i].per_call != NULL && rows[i].calls > 0 && rows[i].scale > 0;
      if (r[i].has_per_call)
        {
          gdouble c = g_ascii_strtod (rows[i].per_call, NULL), k = (gdouble) rows[i].calls * rate / rows[i].scale;
          r[i].c_lo = MAX (0.0, (c - 0.005) * k);
          r[i].c_hi = (c + 0.005) * k;
        }
    }
}

gboolean
cg_report_times_solve (const CgReportTime *rows, guint n, gdouble rate, guint width, gboolean no_time,
                       const char *cumulative, guint64 *samples, gdouble *ticks, gdouble *true_w)
{
  *true_w = 0.0;
  if (width == 0)
    width = 1;
  g_autofree Row *r = g_new0 (Row, MAX (n, 1));
  gdouble sum = 0.0, lo = 0.0, hi = G_MAXDOUBLE;
  gboolean any_percent = FALSE;
  setup_rows (rows, n, rate, no_time, r);
  for (guint i = 0; i < n; i++)
    {
      gdouble t_lo = r[i].t_lo, t_hi = r[i].t_hi;
      sum += r[i].seconds * rate;
      if (!r[i].has_percent)
        continue;
      any_percent = TRUE;
      gdouble p = r[i].percent, half = r[i].percent_half;
      /* samples = 100 · ticks / percent, within the rounding of both
       * (the ticks of self plus children, for a call-graph entry) */
      lo = MAX (lo, 100 * (t_lo + r[i].ch_lo) / (p + half));
      if (p > half)
        hi = MIN (hi, 100 * (t_hi + r[i].ch_hi) / (p - half));
    }

  gboolean ok = TRUE;
  gdouble total = no_time ? 1.0 : MAX (round (sum), 0.0);
  if (any_percent)
    {
      ok = FALSE;
      /* nearest the printed sum of the rows first: the cumulative
       * column's last figure, else the printed seconds' own sum */
      gdouble printed = cumulative ? g_ascii_strtod (cumulative, NULL) * rate : sum;
      if (!(printed >= 0.0 && printed <= 1e18))
        printed = sum;
      gdouble start = MIN (MAX (round (printed), ceil (lo)), floor (MIN (hi, 1e18)));
      for (guint k = 0; k < 2 * MAX_TRIES && !ok; k++)
        {
          gdouble t = start + ((k & 1) ? -(gdouble) (k / 2 + 1) : (gdouble) (k / 2));
          if (t < 1.0 || t < floor (lo) || t > ceil (hi))
            continue;
          if (all_fit (rows, r, n, rate, width, t))
            {
              total = t;
              ok = TRUE;
            }
        }
      if (!ok)
        total = MAX (round (sum), 1.0);
    }
  /* the caller keeps the printed seconds below 2^53 samples; a
   * percentage may still ask for more */
  if (!(total <= 9007199254740992.0))
    {
      ok = FALSE;
      total = MAX (round (sum), 1.0);
    }
  *samples = no_time ? 0 : (guint64) total;
  for (guint i = 0; i < n; i++)
    {
      gdouble t = best (&rows[i], &r[i], rate, width, total);
      if (t < 0 && r[i].has_percent)
        {
          /* the percentage alone cannot be met: the seconds can */
          Row alone = r[i];
          alone.has_percent = FALSE;
          t = best (&rows[i], &alone, rate, width, total);
        }
      ticks[i] = t >= 0 ? t : r[i].seconds * rate;
    }
  if (ok)
    *true_w = true_width (rows, r, n, rate, width, total, ticks);
  return ok;
}

gboolean
cg_report_times_rescale (const CgReportTime *rows, guint n, gdouble rate, guint64 samples, gdouble w0,
                         gdouble lo_w, gdouble hi_w, gdouble *ticks)
{
  g_autofree Row *r = g_new0 (Row, MAX (n, 1));
  g_autofree gdouble *num = g_new0 (gdouble, MAX (n, 1));
  setup_rows (rows, n, rate, samples == 0, r);
  for (guint i = 0; i < n; i++)
    {
      num[i] = round (ticks[i] * w0);
      if (fabs (num[i] / w0 - ticks[i]) > 1e-9 * MAX (1.0, ticks[i]))
        num[i] = -1; /* not a multiple of 1/w0: left alone */
    }
  gdouble total = samples ? (gdouble) samples : 1.0;
  for (guint k = 0; k <= 16; k++)
    {
      /* the middle first, then across the range */
      gdouble w = k == 0 ? (lo_w + hi_w) / 2 : lo_w + (hi_w - lo_w) * (k - 0.5) / 16;
      gboolean ok = w > 0;
      for (guint i = 0; i < n && ok; i++)
        ok = num[i] < 0 || fits (&rows[i], &r[i], num[i] / w, rate, total);
      if (!ok)
        continue;
      for (guint i = 0; i < n; i++)
        if (num[i] >= 0)
          ticks[i] = num[i] / w;
      return TRUE;
    }
  return FALSE;
}
