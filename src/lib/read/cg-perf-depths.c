/* cg-perf-depths.c — the lengths of perf's call chains (cg-perf-depths.h). */
#include "config.h"

#include "cg-perf-depths.h"

/* lengths beyond this count as this: no unwinder gets near it (a 64 KB
 * stack copy holds 8191 return addresses at most), and the tally stays
 * small whatever the input says */
#define MAX_TALLIED (1u << 16)

struct _CgPerfDepths {
  GArray *count; /* guint64 samples per chain length */
  guint64 n;
};

CgPerfDepths *
cg_perf_depths_new (void)
{
  CgPerfDepths *d = g_new0 (CgPerfDepths, 1);
  d->count = g_array_new (FALSE, TRUE, sizeof (guint64));
  return d;
}

void
cg_perf_depths_free (CgPerfDepths *depths)
{
  if (depths == NULL)
    return;
  g_array_unref (depths->count);
  g_free (depths);
}

void
cg_perf_depths_add (CgPerfDepths *depths, guint frames)
{
  if (frames > MAX_TALLIED)
    frames = MAX_TALLIED;
  if (frames >= depths->count->len)
    g_array_set_size (depths->count, frames + 1);
  g_array_index (depths->count, guint64, frames)++;
  depths->n++;
}

gboolean
cg_perf_depths_cut (const CgPerfDepths *depths, guint64 *n_cut, guint64 *n_samples)
{
  const GArray *c = depths->count;
  const guint l = CG_PERF_DEPTHS_LIMIT;
  if (c->len <= l)
    return FALSE;
  guint64 at = g_array_index (c, guint64, l), below = g_array_index (c, guint64, l - 1), longer = 0;
  for (guint i = l + 1; i < c->len; i++)
    longer += g_array_index (c, guint64, i);
  if (at < 2 || at <= below || at <= longer)
    return FALSE;
  *n_cut = at;
  *n_samples = depths->n;
  return TRUE;
}
