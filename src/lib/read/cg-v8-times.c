/* cg-v8-times.c — samples' durations from V8's timeDeltas (cg-v8-times.h). */
#include "config.h"

#include "cg-v8-times.h"

#include <stdlib.h>

#include "cg-error.h"

typedef struct {
  gint64 time; /* microseconds */
  gsize index; /* in the profile's order: ties keep it */
} Sample;

static int
by_time (const void *a, const void *b)
{
  const Sample *x = a, *y = b;
  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

gboolean
cg_v8_sample_times (const char *name, const gint64 *deltas, gsize n, gint64 start, gint64 end, guint64 *ns,
                    GError **error)
{
  if (n == 0)
    return TRUE;
  Sample *s = g_new (Sample, n);
  gint64 t = start;
  for (gsize i = 0; i < n; i++)
    {
      if (__builtin_add_overflow (t, deltas[i], &t))
        {
          g_free (s);
          g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s: timeDeltas[%" G_GSIZE_FORMAT "]: the sample's time,"
                       " startTime plus the deltas up to it, passes 64 bits", name, i);
          return FALSE;
        }
      s[i] = (Sample) { t, i };
    }
  qsort (s, n, sizeof *s, by_time);
  if (s[n - 1].time > end)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_PARSE, "%s: timeDeltas[%" G_GSIZE_FORMAT "]: the sample's time (%"
                   G_GINT64_FORMAT " us, startTime plus the deltas up to it) is after endTime (%" G_GINT64_FORMAT
                   " us)", name, s[n - 1].index, s[n - 1].time, end);
      g_free (s);
      return FALSE;
    }
  for (gsize k = 0; k < n; k++)
    {
      gint64 next = k + 1 < n ? s[k + 1].time : end;
      guint64 us;
      /* sorted: next >= time; the difference of two int64 fits in uint64 */
      us = (guint64) next - (guint64) s[k].time;
      if (__builtin_mul_overflow (us, (guint64) 1000, &ns[s[k].index]))
        {
          g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s: timeDeltas[%" G_GSIZE_FORMAT "]: the sample's"
                       " duration in nanoseconds passes 64 bits", name, s[k].index);
          g_free (s);
          return FALSE;
        }
    }
  g_free (s);
  return TRUE;
}
