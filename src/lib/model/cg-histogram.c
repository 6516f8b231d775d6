/* cg-histogram.c — histogram ranges and their summing rules. */
#include "config.h"

#include "cg-histogram.h"

#include <math.h>

#include "cg-error.h"

typedef struct {
  guint64 low, high;
  guint32 n_bins;
  guint64 *counts;  /* nullable */
} Range;

struct _CgHistogram {
  guint event;
  guint32 rate;
  gdouble bin_width;
  guint64 samples;
  gboolean call_graph;
  gboolean forgotten; /* counts and credits unknown */
  GArray *ranges;  /* Range */
  GArray *credits; /* gdouble per function, grown on demand */
  GArray *static_arcs; /* guint32 arc ids, gprof -c's, in scan order */
};

CgHistogram *
cg_histogram_new (guint event, guint32 rate, gdouble bin_width)
{
  CgHistogram *h = g_new0 (CgHistogram, 1);
  h->event = event;
  h->rate = rate;
  h->bin_width = bin_width;
  h->ranges = g_array_new (FALSE, FALSE, sizeof (Range));
  h->credits = g_array_new (FALSE, TRUE, sizeof (gdouble));
  h->static_arcs = g_array_new (FALSE, FALSE, sizeof (guint32));
  return h;
}

void
cg_histogram_free (CgHistogram *h)
{
  if (h == NULL)
    return;
  for (guint i = 0; i < h->ranges->len; i++)
    g_free (g_array_index (h->ranges, Range, i).counts);
  g_array_unref (h->ranges);
  g_array_unref (h->credits);
  g_array_unref (h->static_arcs);
  g_free (h);
}

guint
cg_histogram_event (const CgHistogram *h)
{
  return h->event;
}

void
cg_histogram_set_event (CgHistogram *h, guint event)
{
  h->event = event;
}

guint32
cg_histogram_rate (const CgHistogram *h)
{
  return h->rate;
}

gdouble
cg_histogram_bin_width (const CgHistogram *h)
{
  return h->bin_width;
}

guint64
cg_histogram_granularity (const CgHistogram *h)
{
  /* gprof: (long) hist_scale * sizeof (UNIT) */
  if (!(h->bin_width >= 0) || h->bin_width >= 9.2e18)
    return 0;
  return (guint64) (gint64) h->bin_width * 2;
}

guint64
cg_histogram_samples (const CgHistogram *h)
{
  return h->samples;
}

gboolean
cg_histogram_add_samples (CgHistogram *h, guint64 samples)
{
  return g_uint64_checked_add (&h->samples, h->samples, samples);
}

gboolean
cg_histogram_call_graph (const CgHistogram *h)
{
  return h->call_graph;
}

void
cg_histogram_set_call_graph (CgHistogram *h, gboolean call_graph)
{
  h->call_graph = call_graph;
}

gboolean
cg_histogram_add_range (CgHistogram *h, guint64 low, guint64 high, guint32 n_bins, gdouble bin_width,
                        guint *index, GError **error)
{
  if (fabs (h->bin_width - bin_width) > 0.000001)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_MISMATCH,
                   "histogram bins of %g bytes do not match the %g bytes of the first histogram "
                   "(different scales)",
                   bin_width * 2, h->bin_width * 2);
      return FALSE;
    }
  for (guint i = 0; i < h->ranges->len; i++)
    {
      Range *r = &g_array_index (h->ranges, Range, i);
      if (r->low == low && r->high == high)
        {
          if (r->n_bins != n_bins)
            {
              g_set_error (error, CG_ERROR, CG_ERROR_MISMATCH,
                           "histogram [0x%" G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER
                           "x) has %u bins here and %u before",
                           low, high, n_bins, r->n_bins);
              return FALSE;
            }
          *index = i;
          return TRUE;
        }
      if (MAX (r->low, low) < MIN (r->high, high))
        {
          g_set_error (error, CG_ERROR, CG_ERROR_MISMATCH,
                       "histogram [0x%" G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER
                       "x) overlaps [0x%" G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER
                       "x) without being equal (overlapping histogram records)",
                       low, high, r->low, r->high);
          return FALSE;
        }
    }
  Range r = { low, high, n_bins, NULL };
  g_array_append_val (h->ranges, r);
  *index = h->ranges->len - 1;
  return TRUE;
}

guint
cg_histogram_n_ranges (const CgHistogram *h)
{
  return h->ranges->len;
}

void
cg_histogram_range (const CgHistogram *h, guint index, guint64 *low, guint64 *high, guint32 *n_bins)
{
  const Range *r = &g_array_index (h->ranges, Range, index);
  *low = r->low;
  *high = r->high;
  *n_bins = r->n_bins;
}

const guint64 *
cg_histogram_counts (const CgHistogram *h, guint index)
{
  const Range *r = &g_array_index (h->ranges, Range, index);
  return h->forgotten ? NULL : r->counts;
}

guint64 *
cg_histogram_counts_mut (CgHistogram *h, guint index)
{
  Range *r = &g_array_index (h->ranges, Range, index);
  if (h->forgotten)
    return NULL;
  if (r->counts == NULL)
    r->counts = g_new0 (guint64, MAX (r->n_bins, 1));
  return r->counts;
}

void
cg_histogram_forget_counts (CgHistogram *h)
{
  for (guint i = 0; i < h->ranges->len; i++)
    {
      Range *r = &g_array_index (h->ranges, Range, i);
      g_clear_pointer (&r->counts, g_free);
    }
  g_array_set_size (h->credits, 0);
  h->forgotten = TRUE;
}

gboolean
cg_histogram_counts_known (const CgHistogram *h)
{
  return !h->forgotten;
}

gdouble
cg_histogram_credit (const CgHistogram *h, guint f)
{
  return f < h->credits->len ? g_array_index (h->credits, gdouble, f) : 0.0;
}

void
cg_histogram_set_credit (CgHistogram *h, guint f, gdouble credit)
{
  if (f >= h->credits->len)
    g_array_set_size (h->credits, f + 1);
  g_array_index (h->credits, gdouble, f) = credit;
}

gboolean
cg_histogram_merge (CgHistogram *dst, const CgHistogram *src, guint event, GError **error)
{
  if (dst->event != event)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_MISMATCH,
                   "the histograms belong to different events");
      return FALSE;
    }
  if (dst->rate != src->rate)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_MISMATCH,
                   "histograms sampled at %u and %u per second cannot be summed", dst->rate,
                   src->rate);
      return FALSE;
    }
  for (guint i = 0; i < src->ranges->len; i++)
    {
      const Range *r = &g_array_index (src->ranges, Range, i);
      guint k;
      if (!cg_histogram_add_range (dst, r->low, r->high, r->n_bins, src->bin_width, &k, error))
        return FALSE;
    }
  dst->call_graph |= src->call_graph;
  cg_histogram_forget_counts (dst); /* the self times are sums now */
  if (!cg_histogram_add_samples (dst, src->samples))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "the number of samples exceeds 64 bits");
      return FALSE;
    }
  return TRUE;
}

void
cg_histogram_set_static_arcs (CgHistogram *h, const guint32 *arcs, guint n)
{
  g_array_set_size (h->static_arcs, 0);
  g_array_append_vals (h->static_arcs, arcs, n);
}

const guint32 *
cg_histogram_static_arcs (const CgHistogram *h, guint *n)
{
  *n = h->static_arcs->len;
  return (const guint32 *) h->static_arcs->data;
}
