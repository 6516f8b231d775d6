/* cg-tag-table.h — private: the open-addressing index under cg-strings
 * and cg-pair-map.
 *
 * Both index millions of items that their owner already stores (strings,
 * pairs of ids), so a slot holds only a 32-bit tag (high bits of the
 * item's hash) and the item's 32-bit id: 8 bytes, at most 3/4 full.  A
 * slot whose tag matches is confirmed by asking the owner.  Linear
 * probing over a power-of-two table; a slot's home comes from the top
 * bits of its tag times a constant (Fibonacci hashing), so the tag alone
 * relocates it when the table grows.  Expected O(1) probes.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CG_TAG_TABLE_EMPTY G_MAXUINT32

typedef struct {
  guint32 tag;
  guint32 value; /* CG_TAG_TABLE_EMPTY: a free slot */
} CgTagSlot;

typedef struct {
  CgTagSlot *slots;
  guint bits;  /* log2 of the capacity */
  guint size;  /* slots in use */
} CgTagTable;

/* An empty table, for cg_tag_table_clear to free. */
void cg_tag_table_init (CgTagTable *table);
void cg_tag_table_clear (CgTagTable *table);

/* Where probing for @tag starts. */
static inline gsize
cg_tag_table_home (const CgTagTable *table, guint32 tag)
{
  return (guint32) (tag * 0x9E3779B1u) >> (32 - table->bits);
}

/* Starts loading the slot where probing for @tag starts, for a find soon
 * after: finds in a batch, each after the prefetch of one a few items
 * ahead, overlap their cache misses instead of waiting for each. */
static inline void
cg_tag_table_prefetch (const CgTagTable *table, guint32 tag)
{
  __builtin_prefetch (&table->slots[cg_tag_table_home (table, tag)]);
}

/* Whether stored @value is the item @key that @owner's table is asked for. */
typedef gboolean (*CgTagMatchFunc) (gconstpointer owner, gconstpointer key, guint32 value);

/* The slot of the item @key with hash tag @tag, or the free slot where it
 * belongs.  Inline, so that a constant @match inlines too. */
static inline CgTagSlot *
cg_tag_table_find (const CgTagTable *table, guint32 tag, CgTagMatchFunc match, gconstpointer owner,
                   gconstpointer key)
{
  gsize mask = ((gsize) 1 << table->bits) - 1;
  for (gsize i = cg_tag_table_home (table, tag);; i = (i + 1) & mask)
    {
      CgTagSlot *slot = &table->slots[i];
      if (slot->value == CG_TAG_TABLE_EMPTY || (slot->tag == tag && match (owner, key, slot->value)))
        return slot;
    }
}

/* Stores (@tag, @value) in @slot, a free slot that cg_tag_table_find
 * returned (@value must not be CG_TAG_TABLE_EMPTY); the table grows past
 * 3/4 full, which moves every slot. */
void cg_tag_table_fill (CgTagTable *table, CgTagSlot *slot, guint32 tag, guint32 value);

G_END_DECLS
