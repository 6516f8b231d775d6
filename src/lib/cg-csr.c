/* cg-csr.c — counting sort into compressed rows. */
#include "config.h"

#include "cg-csr.h"

void
cg_csr_build (const guint32 *keys, gsize stride, guint n_items, guint n_keys, guint32 **start,
              guint32 **items)
{
  g_free (*start);
  g_free (*items);
  guint32 *s = g_new0 (guint32, (gsize) n_keys + 1);
  guint32 *list = g_new (guint32, MAX (n_items, 1));
  for (guint i = 0; i < n_items; i++)
    {
      guint32 k = keys[i * stride];
      if (k != G_MAXUINT32)
        s[k + 1]++;
    }
  for (guint k = 0; k < n_keys; k++)
    s[k + 1] += s[k];
  g_autofree guint32 *fill = g_memdup2 (s, ((gsize) n_keys + 1) * sizeof (guint32));
  for (guint i = 0; i < n_items; i++)
    {
      guint32 k = keys[i * stride];
      if (k != G_MAXUINT32)
        list[fill[k]++] = i;
    }
  *start = s;
  *items = list;
}
