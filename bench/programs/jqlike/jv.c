/* jv.c — jqlike's values (see jv.h): strings, arrays and objects on the
 * heap with reference counts; objects are open-addressing hash tables
 * keyed by string, as jq's are. */
#include "jv.h"

#include <stdlib.h>
#include <string.h>

struct jv_heap {
  int refs;
  jv_kind kind;
  size_t len, cap; /* string bytes, array items, object slots used */
  unsigned hash;   /* strings */
  char *str;
  jv *items;       /* arrays; objects: key, value pairs in slot order */
  int *slots;      /* objects: index into items / 2, or -1 */
  size_t nslots;
};

static struct jv_heap *
heap_new (jv_kind k)
{
  struct jv_heap *h = calloc (1, sizeof *h);
  if (h == NULL)
    abort ();
  h->refs = 1;
  h->kind = k;
  return h;
}

jv_kind
jv_get_kind (jv v)
{
  return v.kind;
}

jv
jv_copy (jv v)
{
  if (v.p)
    v.p->refs++;
  return v;
}

void
jv_free (jv v)
{
  if (v.p == NULL || --v.p->refs > 0)
    return;
  struct jv_heap *h = v.p;
  if (h->kind == JV_ARRAY || h->kind == JV_OBJECT)
    for (size_t i = 0; i < h->len * (h->kind == JV_OBJECT ? 2 : 1); i++)
      jv_free (h->items[i]);
  free (h->str);
  free (h->items);
  free (h->slots);
  free (h);
}

jv
jv_null (void)
{
  jv v = { JV_NULL, 0, NULL };
  return v;
}

jv
jv_bool (int b)
{
  jv v = { b ? JV_TRUE : JV_FALSE, 0, NULL };
  return v;
}

jv
jv_invalid (void)
{
  jv v = { JV_INVALID, 0, NULL };
  return v;
}

int
jv_is_valid (jv v)
{
  return jv_get_kind (v) != JV_INVALID;
}

jv
jv_number (double d)
{
  jv v = { JV_NUMBER, d, NULL };
  return v;
}

double
jv_number_value (jv v)
{
  return v.number;
}

static unsigned
hash_bytes (const char *s, size_t n)
{
  unsigned h = 2166136261u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char) s[i]) * 16777619u;
  return h;
}

jv
jv_string_sized (const char *s, size_t n)
{
  struct jv_heap *h = heap_new (JV_STRING);
  h->str = malloc (n + 1);
  memcpy (h->str, s, n);
  h->str[n] = 0;
  h->len = n;
  h->hash = hash_bytes (s, n);
  jv v = { JV_STRING, 0, h };
  return v;
}

jv
jv_string (const char *s)
{
  return jv_string_sized (s, strlen (s));
}

const char *
jv_string_value (jv v)
{
  return v.p->str;
}

size_t
jv_string_length (jv v)
{
  return v.p->len;
}

int
jv_string_equal (jv a, const char *s)
{
  return jv_get_kind (a) == JV_STRING && strcmp (jv_string_value (a), s) == 0;
}

jv
jv_array (void)
{
  jv v = { JV_ARRAY, 0, heap_new (JV_ARRAY) };
  return v;
}

jv
jv_array_append (jv a, jv v)
{
  struct jv_heap *h = a.p;
  if (h->len == h->cap)
    {
      h->cap = h->cap ? h->cap * 2 : 4;
      h->items = realloc (h->items, h->cap * sizeof *h->items);
    }
  h->items[h->len++] = v;
  return a;
}

int
jv_array_length (jv a)
{
  return (int) a.p->len;
}

jv
jv_array_get (jv a, int i)
{
  if (i < 0 || (size_t) i >= a.p->len)
    return jv_invalid ();
  return jv_copy (a.p->items[i]);
}

jv
jv_object (void)
{
  jv v = { JV_OBJECT, 0, heap_new (JV_OBJECT) };
  return v;
}

static int
find_slot (struct jv_heap *h, jv key)
{
  if (h->nslots == 0)
    return -1;
  size_t mask = h->nslots - 1;
  for (size_t i = key.p->hash & mask;; i = (i + 1) & mask)
    {
      if (h->slots[i] < 0)
        return (int) i;
      if (jv_equal (h->items[2 * h->slots[i]], key))
        return (int) i;
    }
}

static void
rehash (struct jv_heap *h)
{
  size_t n = h->nslots ? h->nslots * 2 : 8;
  free (h->slots);
  h->slots = malloc (n * sizeof *h->slots);
  for (size_t i = 0; i < n; i++)
    h->slots[i] = -1;
  h->nslots = n;
  for (size_t k = 0; k < h->len; k++)
    h->slots[find_slot (h, h->items[2 * k])] = (int) k;
}

jv
jv_object_set (jv o, jv key, jv v)
{
  struct jv_heap *h = o.p;
  if (2 * (h->len + 1) > h->nslots)
    rehash (h);
  int s = find_slot (h, key);
  if (h->slots[s] >= 0)
    {
      jv_free (key);
      jv_free (h->items[2 * h->slots[s] + 1]);
      h->items[2 * h->slots[s] + 1] = v;
      return o;
    }
  if (h->len == h->cap)
    {
      h->cap = h->cap ? h->cap * 2 : 4;
      h->items = realloc (h->items, 2 * h->cap * sizeof *h->items);
    }
  h->slots[s] = (int) h->len;
  h->items[2 * h->len] = key;
  h->items[2 * h->len + 1] = v;
  h->len++;
  return o;
}

jv
jv_object_get (jv o, jv key)
{
  int s = find_slot (o.p, key);
  jv r = s >= 0 && o.p->slots[s] >= 0 ? jv_copy (o.p->items[2 * o.p->slots[s] + 1]) : jv_invalid ();
  jv_free (key);
  return r;
}

int
jv_object_length (jv o)
{
  return (int) o.p->len;
}

int
jv_object_iter (jv o, int i)
{
  return (size_t) i < o.p->len ? i : -1;
}

jv
jv_object_iter_key (jv o, int i)
{
  return jv_copy (o.p->items[2 * i]);
}

jv
jv_object_iter_value (jv o, int i)
{
  return jv_copy (o.p->items[2 * i + 1]);
}

int
jv_cmp (jv a, jv b)
{
  if (jv_get_kind (a) != jv_get_kind (b))
    return (int) jv_get_kind (a) - (int) jv_get_kind (b);
  switch (jv_get_kind (a))
    {
    case JV_NUMBER:
      return jv_number_value (a) < jv_number_value (b) ? -1 : jv_number_value (a) > jv_number_value (b);
    case JV_STRING:
      return strcmp (jv_string_value (a), jv_string_value (b));
    case JV_ARRAY:
      {
        int n = jv_array_length (a) < jv_array_length (b) ? jv_array_length (a) : jv_array_length (b);
        for (int i = 0; i < n; i++)
          {
            int c = jv_cmp (a.p->items[i], b.p->items[i]);
            if (c)
              return c;
          }
        return jv_array_length (a) - jv_array_length (b);
      }
    default:
      return 0;
    }
}

int
jv_equal (jv a, jv b)
{
  if (jv_get_kind (a) == JV_STRING && jv_get_kind (b) == JV_STRING)
    return a.p->hash == b.p->hash && a.p->len == b.p->len && memcmp (a.p->str, b.p->str, a.p->len) == 0;
  return jv_cmp (a, b) == 0;
}
