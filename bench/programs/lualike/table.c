/* table.c — lualike's tables and strings (ltable.c, lstring.c shapes):
 * an array part for keys 1..n and a hash part with open addressing;
 * strings interned in a chained hash table, compared by pointer. */
#include <stdlib.h>
#include <string.h>

#include "lua.h"

Table *
luaH_new (void)
{
  Table *t = calloc (1, sizeof *t);
  if (t == NULL)
    abort ();
  return t;
}

void
luaH_free (Table *t)
{
  free (t->array);
  free (t->node);
  free (t);
}

static unsigned
hashvalue (const Value *k)
{
  switch (k->t)
    {
    case T_NUM:
      {
        long long i = (long long) k->u.n;
        return (unsigned) (i ^ (i >> 32)) * 2654435761u;
      }
    case T_STR:
      return k->u.s->hash;
    case T_BOOL:
      return (unsigned) k->u.b;
    default:
      return (unsigned) ((size_t) k->u.h >> 4);
    }
}

static int
rawequal (const Value *a, const Value *b)
{
  if (a->t != b->t)
    return 0;
  switch (a->t)
    {
    case T_NIL:
      return 1;
    case T_NUM:
      return a->u.n == b->u.n;
    case T_BOOL:
      return a->u.b == b->u.b;
    default:
      return a->u.h == b->u.h;
    }
}

static int
arrayindex (const Value *k, int asize)
{
  if (k->t != T_NUM)
    return -1;
  int i = (int) k->u.n;
  return (double) i == k->u.n && i >= 1 && i <= asize ? i - 1 : -1;
}

static Node *
mainposition (Table *t, const Value *k)
{
  return &t->node[hashvalue (k) & (unsigned) (t->nsize - 1)];
}

static Node *
getnode (Table *t, const Value *k)
{
  if (t->nsize == 0)
    return NULL;
  Node *n = mainposition (t, k);
  Node *end = t->node + t->nsize;
  while (n->used)
    {
      if (rawequal (&n->key, k))
        return n;
      if (++n == end)
        n = t->node;
    }
  return NULL;
}

Value
luaH_get (Table *t, const Value *key)
{
  int i = arrayindex (key, t->asize);
  if (i >= 0)
    return t->array[i];
  Node *n = getnode (t, key);
  if (n)
    return n->val;
  Value nil = { T_NIL, { 0 } };
  return nil;
}

static void rehash (State *L, Table *t);

static void
newkey (State *L, Table *t, const Value *key, const Value *val)
{
  if (2 * (t->ncount + 1) > t->nsize)
    rehash (L, t);
  Node *n = mainposition (t, key);
  Node *end = t->node + t->nsize;
  while (n->used)
    if (++n == end)
      n = t->node;
  n->used = 1;
  n->key = *key;
  n->val = *val;
  t->ncount++;
}

/* grows the array part while the hash part holds its next index, as
 * Lua's rehash moves integer keys to the array part */
static void
rehash (State *L, Table *t)
{
  Node *old = t->node;
  int oldsize = t->nsize;
  t->nsize = oldsize ? oldsize * 2 : 4;
  t->node = calloc ((size_t) t->nsize, sizeof *t->node);
  t->ncount = 0;
  for (int i = 0; i < oldsize; i++)
    if (old[i].used)
      newkey (L, t, &old[i].key, &old[i].val);
  free (old);
}

static void
growarray (Table *t)
{
  int n = t->asize ? t->asize * 2 : 4;
  t->array = realloc (t->array, (size_t) n * sizeof *t->array);
  for (int i = t->asize; i < n; i++)
    t->array[i].t = T_NIL;
  t->asize = n;
}

void
luaH_set (State *L, Table *t, const Value *key, const Value *val)
{
  if (key->t == T_NIL)
    luaG_runerror (L, "index is nil");
  int i = arrayindex (key, t->asize);
  if (i < 0 && key->t == T_NUM && key->u.n == (double) (t->asize + 1))
    {
      growarray (t);
      i = arrayindex (key, t->asize);
    }
  if (i >= 0)
    {
      t->array[i] = *val;
      return;
    }
  Node *n = getnode (t, key);
  if (n)
    n->val = *val;
  else
    newkey (L, t, key, val);
}

int
luaH_getn (Table *t)
{
  int n = 0;
  while (n < t->asize && t->array[n].t != T_NIL)
    n++;
  return n;
}

unsigned
luaS_hash (const char *s, size_t len)
{
  unsigned h = (unsigned) len ^ 0x9e3779b9u;
  for (size_t i = 0; i < len; i++)
    h ^= (h << 5) + (h >> 2) + (unsigned char) s[i];
  return h;
}

Str *
luaS_new (State *L, const char *s, size_t len)
{
  unsigned h = luaS_hash (s, len);
  for (Str *x = L->strt[h & (unsigned) (L->strtsize - 1)]; x; x = x->next)
    if (x->hash == h && x->len == len && memcmp (x->data, s, len) == 0)
      return x;
  Str *x = malloc (sizeof *x + len + 1);
  memcpy (x->data, s, len);
  x->data[len] = 0;
  x->len = len;
  x->hash = h;
  Str **slot = &L->strt[h & (unsigned) (L->strtsize - 1)];
  x->next = *slot;
  *slot = x;
  L->nstr++;
  return x;
}
