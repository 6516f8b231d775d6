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

static void
build (gconstpointer records, gsize record_size, gsize key_offset, gsize value_offset, guint n_items,
       guint n_keys, guint32 **start, guint32 **items, guint32 **values)
{
  g_free (*start);
  g_free (*items);
  guint32 *s = g_new0 (guint32, (gsize) n_keys + 1);
  guint32 *list = g_new (guint32, MAX (n_items, 1));
  guint32 *vals = values ? g_new (guint32, MAX (n_items, 1)) : NULL;
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
      if (k == G_MAXUINT32)
        continue;
      guint32 at = fill[k]++;
      list[at] = i;
      if (vals)
        vals[at] = key_of (records, record_size, value_offset, i);
    }
  *start = s;
  *items = list;
  if (values)
    {
      g_free (*values);
      *values = vals;
    }
}

void
cg_csr_build (gconstpointer records, gsize record_size, gsize key_offset, guint n_items, guint n_keys,
              guint32 **start, guint32 **items)
{
  build (records, record_size, key_offset, 0, n_items, n_keys, start, items, NULL);
}

void
cg_csr_build_with_values (gconstpointer records, gsize record_size, gsize key_offset, gsize value_offset,
                          guint n_items, guint n_keys, guint32 **start, guint32 **items, guint32 **values)
{
  build (records, record_size, key_offset, value_offset, n_items, n_keys, start, items, values);
}
