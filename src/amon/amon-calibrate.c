/* amon-calibrate.c — a histogram of calibrations and its percentiles. */
#include "amon-calibrate.h"

AMON_FN void
amon_cal_add (amon_cal *c, uint64_t v)
{
  if (c->count == 0 || v < c->lowest)
    c->lowest = v;
  if (v > c->highest)
    c->highest = v;
  c->hist[v < AMON_CAL_BUCKETS ? v : AMON_CAL_BUCKETS - 1]++;
  c->recent[c->count % AMON_CAL_RECENT] = v;
  c->count++;
}

AMON_FN uint64_t
amon_cal_estimate (const amon_cal *c)
{
  uint64_t n = c->count < AMON_CAL_RECENT ? c->count : AMON_CAL_RECENT, low = UINT64_MAX;
  for (uint64_t i = 0; i < n; i++)
    low = c->recent[i] < low ? c->recent[i] : low;
  return n ? low : 0;
}

AMON_FN uint64_t
amon_cal_percentile (const amon_cal *c, uint32_t percent)
{
  if (c->count == 0)
    return 0;
  if (percent > 100)
    percent = 100;
  /* the rank of the value wanted, 1-based: at least one */
  uint64_t rank = (c->count * percent + 99) / 100;
  if (rank == 0)
    rank = 1;
  uint64_t seen = 0;
  for (uint64_t v = 0; v < AMON_CAL_BUCKETS; v++)
    {
      seen += c->hist[v];
      if (seen >= rank)
        return v == AMON_CAL_BUCKETS - 1 ? c->highest : v;
    }
  return c->highest;
}

AMON_FN static uint64_t
shifted (uint64_t v, int64_t delta)
{
  return delta < 0 && (uint64_t) -delta > v ? 0 : v + (uint64_t) delta;
}

AMON_FN void
amon_cal_shift (amon_cal *c, int64_t delta)
{
  if (delta == 0 || c->count == 0)
    return;
  c->lowest = shifted (c->lowest, delta);
  c->highest = shifted (c->highest, delta);
  for (uint32_t i = 0; i < AMON_CAL_RECENT; i++)
    c->recent[i] = shifted (c->recent[i], delta);
  /* the histogram's counts move bucket by bucket, in place, taking the
   * buckets in the order that never moves a count twice: from the top
   * when they move up, from the bottom when down */
  for (uint64_t i = 0; i < AMON_CAL_BUCKETS; i++)
    {
      uint64_t v = delta > 0 ? AMON_CAL_BUCKETS - 1 - i : i, w = shifted (v, delta);
      if (w >= AMON_CAL_BUCKETS)
        w = AMON_CAL_BUCKETS - 1;
      if (w != v)
        {
          c->hist[w] += c->hist[v];
          c->hist[v] = 0;
        }
    }
}
