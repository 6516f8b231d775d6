/* cg-pair-map.c — linear probing over a power-of-two table; a slot's home
 * comes from the top bits of its tag times a constant (Fibonacci
 * hashing), so the tag alone relocates it when the table grows. */
#include "config.h"

#include "cg-pair-map.h"

typedef struct {
  guint32 tag;
  guint32 value; /* CG_PAIR_MAP_NONE: empty */
} Slot;

struct _CgPairMap {
  Slot *slots;
  guint bits;  /* log2 of the capacity */
  guint size;
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

static inline gsize
home (const CgPairMap *map, guint32 tag)
{
  return (gsize) ((guint32) (tag * 0x9E3779B1u) >> (32 - map->bits));
}

static void
init_slots (CgPairMap *map, guint bits)
{
  gsize n = (gsize) 1 << bits;
  map->bits = bits;
  map->slots = g_new (Slot, n);
  for (gsize i = 0; i < n; i++)
    map->slots[i].value = CG_PAIR_MAP_NONE;
}

CgPairMap *
cg_pair_map_new (CgPairMapKeyFunc key_func, gconstpointer user_data)
{
  CgPairMap *map = g_new0 (CgPairMap, 1);
  map->key_func = key_func;
  map->user_data = user_data;
  init_slots (map, 6);
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
find_slot (const CgPairMap *map, guint32 a, guint32 b, guint32 tag)
{
  gsize mask = ((gsize) 1 << map->bits) - 1;
  for (gsize i = home (map, tag);; i = (i + 1) & mask)
    {
      Slot *s = &map->slots[i];
      if (s->value == CG_PAIR_MAP_NONE)
        return s;
      if (s->tag == tag)
        {
          guint32 sa, sb;
          map->key_func (map->user_data, s->value, &sa, &sb);
          if (sa == a && sb == b)
            return s;
        }
    }
}

guint32
cg_pair_map_lookup (const CgPairMap *map, guint32 a, guint32 b)
{
  return find_slot (map, a, b, tag_of (a, b))->value;
}

static void
grow (CgPairMap *map)
{
  Slot *old = map->slots;
  gsize n = (gsize) 1 << map->bits;
  init_slots (map, map->bits + 1);
  gsize mask = ((gsize) 1 << map->bits) - 1;
  for (gsize i = 0; i < n; i++)
    if (old[i].value != CG_PAIR_MAP_NONE)
      {
        gsize j = home (map, old[i].tag);
        while (map->slots[j].value != CG_PAIR_MAP_NONE)
          j = (j + 1) & mask;
        map->slots[j] = old[i];
      }
  g_free (old);
}

guint32
cg_pair_map_insert (CgPairMap *map, guint32 a, guint32 b, guint32 value)
{
  g_return_val_if_fail (value != CG_PAIR_MAP_NONE, CG_PAIR_MAP_NONE);
  guint32 tag = tag_of (a, b);
  Slot *s = find_slot (map, a, b, tag);
  if (s->value != CG_PAIR_MAP_NONE)
    return s->value;
  *s = (Slot) { tag, value };
  map->size++;
  /* grow past 3/4: linear probing with a mixed hash stays short there */
  if ((guint64) map->size * 4 > ((guint64) 3 << map->bits) && map->bits < 32)
    grow (map);
  return value;
}

guint
cg_pair_map_size (const CgPairMap *map)
{
  return map->size;
}
