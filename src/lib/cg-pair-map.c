/* cg-pair-map.c — linear probing over a power-of-two table. */
#include "config.h"

#include "cg-pair-map.h"

typedef struct {
  guint32 a, b, value;
} Slot;

struct _CgPairMap {
  Slot *slots;
  gsize mask;   /* capacity - 1 */
  guint size;
};

/* A 64-bit mix (splitmix64's finaliser): ids are dense small integers, so
 * the low bits of a plain combination would cluster. */
static inline gsize
hash_pair (guint32 a, guint32 b)
{
  guint64 h = ((guint64) a << 32) | b;
  h ^= h >> 30;
  h *= G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  h ^= h >> 27;
  h *= G_GUINT64_CONSTANT (0x94d049bb133111eb);
  h ^= h >> 31;
  return (gsize) h;
}

static void
init_slots (CgPairMap *map, gsize capacity)
{
  map->slots = g_new (Slot, capacity);
  for (gsize i = 0; i < capacity; i++)
    map->slots[i].value = CG_PAIR_MAP_NONE;
  map->mask = capacity - 1;
}

CgPairMap *
cg_pair_map_new (void)
{
  CgPairMap *map = g_new0 (CgPairMap, 1);
  init_slots (map, 64);
  return map;
}

void
cg_pair_map_free (CgPairMap *map)
{
  if (map == NULL)
    return;
  g_free (map->slots);
  g_free (map);
}

static Slot *
find_slot (const CgPairMap *map, guint32 a, guint32 b)
{
  gsize i = hash_pair (a, b) & map->mask;
  for (;;)
    {
      Slot *s = &map->slots[i];
      if (s->value == CG_PAIR_MAP_NONE || (s->a == a && s->b == b))
        return s;
      i = (i + 1) & map->mask;
    }
}

guint32
cg_pair_map_lookup (const CgPairMap *map, guint32 a, guint32 b)
{
  return find_slot (map, a, b)->value;
}

static void
grow (CgPairMap *map)
{
  Slot *old = map->slots;
  gsize old_capacity = map->mask + 1;
  init_slots (map, old_capacity * 2);
  for (gsize i = 0; i < old_capacity; i++)
    if (old[i].value != CG_PAIR_MAP_NONE)
      *find_slot (map, old[i].a, old[i].b) = old[i];
  g_free (old);
}

guint32
cg_pair_map_insert (CgPairMap *map, guint32 a, guint32 b, guint32 value)
{
  g_return_val_if_fail (value != CG_PAIR_MAP_NONE, CG_PAIR_MAP_NONE);
  Slot *s = find_slot (map, a, b);
  if (s->value != CG_PAIR_MAP_NONE)
    return s->value;
  *s = (Slot) { a, b, value };
  map->size++;
  /* grow past 3/4: linear probing with a mixed hash stays short there,
   * and the table is a third smaller than at 1/2 */
  if ((gsize) map->size * 4 > (map->mask + 1) * 3)
    grow (map);
  return value;
}

guint
cg_pair_map_size (const CgPairMap *map)
{
  return map->size;
}
