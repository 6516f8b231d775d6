/* cg-csr.c — counting sort into compressed rows. */
#include "config.h"

#include "cg-csr.h"

#include <string.h>

static inline guint32
key_of (gconstpointer records, gsize record_size, gsize key_offset, guint i)
{
  guint32 k;
  memcpy (&k, (const guint8 *) records + (gsize) i * record_size + key_offset, sizeof k);
  return k;
}

void
cg_csr_build (gconstpointer records, gsize record_size, gsize key_offset, guint n_items, guint n_keys,
              guint32 **start, guint32 **items)
{
  g_free (*start);
  g_free (*items);
  guint32 *s = g_new0 (guint32, (gsize) n_keys + 1);
  guint32 *list = g_new (guint32, MAX (n_items, 1));
  for (guint i = 0; i < n_items; i++)
    {
      guint32 k = key_of (records, record_size, key_offset, i);
      if (k != G_MAXUINT32)
        s[k + 1]++;
    }
  for (guint k = 0; k < n_keys; k++)
    s[k + 1] += s[k];
  g_autofree guint32 *fill = g_memdup2 (s, ((gsize) n_keys + 1) * sizeof (guint32));
  for (guint i = 0; i < n_items; i++)
    {
      guint32 k = key_of (records, record_size, key_offset, i);
      if (k != G_MAXUINT32)
        list[fill[k]++] = i;
    }
  *start = s;
  *items = list;
}
