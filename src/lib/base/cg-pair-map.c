/* cg-pair-map.c — a tag table from the pair's hash to the value. */
#include "config.h"

#include "cg-pair-map.h"
#include "cg-tag-table.h"

/* a lookup that finds a free slot returns its value as "none" */
G_STATIC_ASSERT (CG_PAIR_MAP_NONE == CG_TAG_TABLE_EMPTY);

struct _CgPairMap {
  CgTagTable index;
  CgPairMapKeyFunc key_func;
  gconstpointer user_data;
};

/* A 64-bit mix (splitmix64's finaliser) of the pair, high half: ids are
 * dense small integers, so a plain combination would cluster. */
static inline guint32
tag_of (guint32 a, guint32 b)
{
  guint64 h = ((guint64) a << 32) | b;
  h ^= h >> 30;
  h *= G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  h ^= h >> 27;
  h *= G_GUINT64_CONSTANT (0x94d049bb133111eb);
  h ^= h >> 31;
  return (guint32) (h >> 32);
}

CgPairMap *
cg_pair_map_new (CgPairMapKeyFunc key_func, gconstpointer user_data)
{
  CgPairMap *map = g_new0 (CgPairMap, 1);
  map->key_func = key_func;
  map->user_data = user_data;
  cg_tag_table_init (&map->index);
  return map;
}

void
cg_pair_map_free (CgPairMap *map)
{
  if (map == NULL)
    return;
  cg_tag_table_clear (&map->index);
  g_free (map);
}

static inline gboolean
same_pair (gconstpointer owner, gconstpointer key, guint32 value)
{
  const CgPairMap *map = owner;
  const guint32 *pair = key;
  guint32 a, b;
  map->key_func (map->user_data, value, &a, &b);
  return a == pair[0] && b == pair[1];
}

static inline CgTagSlot *
find_slot (const CgPairMap *map, guint32 a, guint32 b, guint32 tag)
{
  const guint32 pair[2] = { a, b };
  return cg_tag_table_find (&map->index, tag, same_pair, map, pair);
}

guint32
cg_pair_map_lookup (const CgPairMap *map, guint32 a, guint32 b)
{
  return find_slot (map, a, b, tag_of (a, b))->value;
}

guint32
cg_pair_map_insert (CgPairMap *map, guint32 a, guint32 b, guint32 value)
{
  g_return_val_if_fail (value != CG_PAIR_MAP_NONE, CG_PAIR_MAP_NONE);
  guint32 tag = tag_of (a, b);
  CgTagSlot *s = find_slot (map, a, b, tag);
  if (s->value != CG_PAIR_MAP_NONE)
    return s->value;
  cg_tag_table_fill (&map->index, s, tag, value);
  return value;
}

guint
cg_pair_map_size (const CgPairMap *map)
{
  return map->index.size;
}
