/* cg-strings.c — open addressing with linear probing over a power-of-two
 * table; a slot's home is taken from the top bits of its tag times a
 * constant (Fibonacci hashing), so the tag alone relocates it on growth. */
#include "config.h"

#include "cg-strings.h"

#include <string.h>

typedef struct {
  guint32 tag;  /* high half of the string's 64-bit hash */
  guint32 id;   /* CG_STRINGS_NONE: empty */
} Slot;

struct _CgStrings {
  GStringChunk *chunk;
  GPtrArray *strings; /* id -> string */
  Slot *slots;
  guint bits;         /* log2 of the capacity */
};

static inline guint64
load64 (const char *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return v;
}

/* A multiply-xorshift hash, eight bytes a step.  Names are long and share
 * prefixes ("std::vector<..."), so every byte counts, but none is hashed
 * alone. */
static guint64
hash_bytes (const char *s, gsize n)
{
  const guint64 k = G_GUINT64_CONSTANT (0x9fb21c651e98df25);
  guint64 h = (guint64) n * k;
  while (n >= 8)
    {
      h = (h ^ load64 (s)) * k;
      h ^= h >> 29;
      s += 8;
      n -= 8;
    }
  guint64 tail = 0;
  memcpy (&tail, s, n);
  h = (h ^ tail) * k;
  h ^= h >> 32;
  h *= G_GUINT64_CONSTANT (0xd6e8feb86659fd93);
  h ^= h >> 32;
  return h;
}

static inline gsize
home (const CgStrings *t, guint32 tag)
{
  return (gsize) ((guint32) (tag * 0x9E3779B1u) >> (32 - t->bits));
}

static void
init_slots (CgStrings *t, guint bits)
{
  gsize n = (gsize) 1 << bits;
  t->bits = bits;
  t->slots = g_new (Slot, n);
  for (gsize i = 0; i < n; i++)
    t->slots[i].id = CG_STRINGS_NONE;
}

CgStrings *
cg_strings_new (void)
{
  CgStrings *t = g_new0 (CgStrings, 1);
  t->chunk = g_string_chunk_new (64 * 1024);
  t->strings = g_ptr_array_new ();
  init_slots (t, 6);
  return t;
}

void
cg_strings_free (CgStrings *t)
{
  if (t == NULL)
    return;
  g_string_chunk_free (t->chunk);
  g_ptr_array_unref (t->strings);
  g_free (t->slots);
  g_free (t);
}

/* The slot holding @s, or the empty slot where it belongs. */
static Slot *
find (const CgStrings *t, const char *s, gsize len, guint32 tag)
{
  gsize mask = ((gsize) 1 << t->bits) - 1;
  for (gsize i = home (t, tag);; i = (i + 1) & mask)
    {
      Slot *slot = &t->slots[i];
      if (slot->id == CG_STRINGS_NONE)
        return slot;
      if (slot->tag == tag)
        {
          const char *have = g_ptr_array_index (t->strings, slot->id);
          if (strncmp (have, s, len) == 0 && have[len] == '\0')
            return slot;
        }
    }
}

static void
grow (CgStrings *t)
{
  Slot *old = t->slots;
  gsize n = (gsize) 1 << t->bits;
  init_slots (t, t->bits + 1);
  gsize mask = ((gsize) 1 << t->bits) - 1;
  for (gsize i = 0; i < n; i++)
    if (old[i].id != CG_STRINGS_NONE)
      {
        gsize j = home (t, old[i].tag);
        while (t->slots[j].id != CG_STRINGS_NONE)
          j = (j + 1) & mask;
        t->slots[j] = old[i];
      }
  g_free (old);
}

guint32
cg_strings_intern (CgStrings *t, const char *s, gsize len)
{
  guint32 tag = (guint32) (hash_bytes (s, len) >> 32);
  Slot *slot = find (t, s, len, tag);
  if (slot->id != CG_STRINGS_NONE)
    return slot->id;
  if (t->strings->len == CG_STRINGS_NONE)
    return CG_STRINGS_NONE;
  slot->tag = tag;
  slot->id = t->strings->len;
  g_ptr_array_add (t->strings, g_string_chunk_insert_len (t->chunk, s, (gssize) len));
  guint32 id = slot->id;
  /* grow past 3/4 (2^32 slots at most: ids are 32-bit anyway) */
  if ((guint64) t->strings->len * 4 > ((guint64) 3 << t->bits) && t->bits < 32)
    grow (t);
  return id;
}

guint32
cg_strings_lookup (const CgStrings *t, const char *s, gsize len)
{
  return find (t, s, len, (guint32) (hash_bytes (s, len) >> 32))->id;
}

const char *
cg_strings_get (const CgStrings *t, guint32 id)
{
  g_assert (id < t->strings->len);
  return g_ptr_array_index (t->strings, id);
}

guint
cg_strings_size (const CgStrings *t)
{
  return t->strings->len;
}
