/* cg-strings.c — the strings in a GStringChunk, their ids in an array,
 * a tag table from their hash to their id. */
#include "config.h"

#include "cg-strings.h"
#include "cg-tag-table.h"

#include <string.h>

/* a lookup that finds a free slot returns its value as "none" */
G_STATIC_ASSERT (CG_STRINGS_NONE == CG_TAG_TABLE_EMPTY);

struct _CgStrings {
  GStringChunk *chunk;
  GPtrArray *strings; /* id -> string */
  CgTagTable index;   /* tag -> id */
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

CgStrings *
cg_strings_new (void)
{
  CgStrings *t = g_new0 (CgStrings, 1);
  t->chunk = g_string_chunk_new (64 * 1024);
  t->strings = g_ptr_array_new ();
  cg_tag_table_init (&t->index);
  return t;
}

void
cg_strings_free (CgStrings *t)
{
  if (t == NULL)
    return;
  g_string_chunk_free (t->chunk);
  g_ptr_array_unref (t->strings);
  cg_tag_table_clear (&t->index);
  g_free (t);
}

typedef struct {
  const char *s;
  gsize len;
} Key;

static inline gboolean
same_string (gconstpointer owner, gconstpointer key, guint32 id)
{
  const CgStrings *t = owner;
  const Key *k = key;
  const char *have = g_ptr_array_index (t->strings, id);
  return strncmp (have, k->s, k->len) == 0 && have[k->len] == '\0';
}

static inline CgTagSlot *
find (const CgStrings *t, const char *s, gsize len, guint32 tag)
{
  Key key = { s, len };
  return cg_tag_table_find (&t->index, tag, same_string, t, &key);
}

guint32
cg_strings_tag (const char *s, gsize len)
{
  return (guint32) (hash_bytes (s, len) >> 32);
}

guint32
cg_strings_intern_tagged (CgStrings *t, const char *s, gsize len, guint32 tag)
{
  CgTagSlot *slot = find (t, s, len, tag);
  if (slot->value != CG_TAG_TABLE_EMPTY)
    return slot->value;
  guint32 id = t->strings->len;
  if (id == CG_STRINGS_NONE)
    return CG_STRINGS_NONE;
  g_ptr_array_add (t->strings, g_string_chunk_insert_len (t->chunk, s, (gssize) len));
  cg_tag_table_fill (&t->index, slot, tag, id);
  return id;
}

guint32
cg_strings_intern (CgStrings *t, const char *s, gsize len)
{
  return cg_strings_intern_tagged (t, s, len, cg_strings_tag (s, len));
}

void
cg_strings_prefetch (const CgStrings *t, guint32 tag)
{
  cg_tag_table_prefetch (&t->index, tag);
}

guint32
cg_strings_lookup (const CgStrings *t, const char *s, gsize len)
{
  return find (t, s, len, cg_strings_tag (s, len))->value;
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
