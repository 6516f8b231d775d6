/* cg-tag-table.c — see cg-tag-table.h. */
#include "config.h"

#include "cg-tag-table.h"

static void
alloc_slots (CgTagTable *table, guint bits)
{
  gsize n = (gsize) 1 << bits;
  table->bits = bits;
  table->slots = g_new (CgTagSlot, n);
  for (gsize i = 0; i < n; i++)
    table->slots[i].value = CG_TAG_TABLE_EMPTY;
}

void
cg_tag_table_init (CgTagTable *table)
{
  table->size = 0;
  alloc_slots (table, 6);
}

void
cg_tag_table_clear (CgTagTable *table)
{
  g_clear_pointer (&table->slots, g_free);
  table->size = 0;
}

static void
grow (CgTagTable *table)
{
  CgTagSlot *old = table->slots;
  gsize n = (gsize) 1 << table->bits;
  alloc_slots (table, table->bits + 1);
  gsize mask = ((gsize) 1 << table->bits) - 1;
  for (gsize i = 0; i < n; i++)
    if (old[i].value != CG_TAG_TABLE_EMPTY)
      {
        gsize j = cg_tag_table_home (table, old[i].tag);
        while (table->slots[j].value != CG_TAG_TABLE_EMPTY)
          j = (j + 1) & mask;
        table->slots[j] = old[i];
      }
  g_free (old);
}

void
cg_tag_table_fill (CgTagTable *table, CgTagSlot *slot, guint32 tag, guint32 value)
{
  g_return_if_fail (value != CG_TAG_TABLE_EMPTY && slot->value == CG_TAG_TABLE_EMPTY);
  *slot = (CgTagSlot) { tag, value };
  table->size++;
  /* linear probing with a mixed hash stays short up to 3/4 (2^32 slots at
   * most: the values are 32-bit ids anyway) */
  if ((guint64) table->size * 4 > ((guint64) 3 << table->bits) && table->bits < 32)
    grow (table);
}
