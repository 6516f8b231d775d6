/* main.c — jqlike: a program written to jq 1.6's shape (values in jv.c,
 * a parser, a printer, and a filter evaluated node by node over an
 * abstract syntax tree) for bench/amon-overhead.sh, since jq's sources
 * are not at hand offline.  It runs, ROUNDS times over a JSON file (the
 * benchmark's is Debian's package status made JSON), the equivalent of
 *
 *   [.[] | {name: .Package, section: .Section,
 *           size: (."Installed-Size" | tonumber), deps: (.Depends | length)}]
 *   | sort_by(.size) | group_by(.section)
 *   | map({section: .[0].section, n: length, total: (map(.size) | add)})
 *
 * and prints the result's length and a checksum.
 *
 * Usage: jqlike FILE [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jv.h"

typedef enum { N_IDENT, N_FIELD, N_PIPE, N_COLLECT, N_OBJECT, N_TONUMBER, N_LENGTH, N_SORT_BY, N_GROUP_BY, N_MAP,
               N_ADD, N_INDEX } node_kind;

typedef struct node {
  node_kind kind;
  const char *name;   /* N_FIELD; N_OBJECT: keys, separated by ',' */
  int index;          /* N_INDEX */
  struct node *a, *b; /* operands; N_OBJECT: a list through b of values in a */
} node;

static jv eval (const node *n, jv in);

static node *
mk (node_kind k, const char *name, node *a, node *b)
{
  node *n = calloc (1, sizeof *n);
  n->kind = k;
  n->name = name;
  n->a = a;
  n->b = b;
  return n;
}

static jv
eval_field (const node *n, jv in)
{
  if (jv_get_kind (in) != JV_OBJECT)
    {
      jv_free (in);
      return jv_null ();
    }
  jv r = jv_object_get (in, jv_string (n->name));
  jv_free (in);
  return jv_is_valid (r) ? r : jv_null ();
}

static jv
eval_collect (const node *n, jv in)
{
  jv out = jv_array ();
  for (int i = 0; i < jv_array_length (in); i++)
    out = jv_array_append (out, eval (n->a, jv_array_get (in, i)));
  jv_free (in);
  return out;
}

static jv
eval_object (const node *n, jv in)
{
  jv o = jv_object ();
  const char *k = n->name;
  for (const node *v = n->b; v; v = v->b)
    {
      const char *end = strchr (k, ',');
      size_t len = end ? (size_t) (end - k) : strlen (k);
      o = jv_object_set (o, jv_string_sized (k, len), eval (v->a, jv_copy (in)));
      k = end ? end + 1 : k + len;
    }
  jv_free (in);
  return o;
}

static jv
eval_tonumber (jv in)
{
  jv r = jv_get_kind (in) == JV_STRING ? jv_number (atof (jv_string_value (in)))
         : jv_get_kind (in) == JV_NUMBER ? jv_copy (in) : jv_number (0);
  jv_free (in);
  return r;
}

static jv
eval_length (jv in)
{
  double n = jv_get_kind (in) == JV_ARRAY ? jv_array_length (in)
             : jv_get_kind (in) == JV_OBJECT ? jv_object_length (in)
             : jv_get_kind (in) == JV_STRING ? (double) jv_string_length (in) : 0;
  jv_free (in);
  return jv_number (n);
}

typedef struct {
  jv key, value;
  int order;
} keyed;

static int
by_key (const void *x, const void *y)
{
  const keyed *a = x, *b = y;
  int c = jv_cmp (a->key, b->key);
  return c ? c : a->order - b->order;
}

/* sort_by(f) and group_by(f): jq sorts by the keys, stably */
static keyed *
sorted (const node *f, jv in, int *count)
{
  int n = jv_array_length (in);
  keyed *k = malloc ((size_t) (n ? n : 1) * sizeof *k);
  for (int i = 0; i < n; i++)
    {
      k[i].value = jv_array_get (in, i);
      k[i].key = eval (f, jv_copy (k[i].value));
      k[i].order = i;
    }
  qsort (k, (size_t) n, sizeof *k, by_key);
  *count = n;
  jv_free (in);
  return k;
}

static jv
eval_sort_by (const node *n, jv in)
{
  int count;
  keyed *k = sorted (n->a, in, &count);
  jv out = jv_array ();
  for (int i = 0; i < count; i++)
    {
      out = jv_array_append (out, k[i].value);
      jv_free (k[i].key);
    }
  free (k);
  return out;
}

static jv
eval_group_by (const node *n, jv in)
{
  int count;
  keyed *k = sorted (n->a, in, &count);
  jv out = jv_array (), group = jv_invalid ();
  for (int i = 0; i < count; i++)
    {
      if (i == 0 || !jv_equal (k[i].key, k[i - 1].key))
        {
          if (jv_is_valid (group))
            out = jv_array_append (out, group);
          group = jv_array ();
        }
      group = jv_array_append (group, k[i].value);
    }
  if (jv_is_valid (group))
    out = jv_array_append (out, group);
  for (int i = 0; i < count; i++)
    jv_free (k[i].key);
  free (k);
  return out;
}

static jv
eval_add (jv in)
{
  double s = 0;
  for (int i = 0; i < jv_array_length (in); i++)
    {
      jv x = jv_array_get (in, i);
      if (jv_get_kind (x) == JV_NUMBER)
        s += jv_number_value (x);
      jv_free (x);
    }
  jv_free (in);
  return jv_number (s);
}

static jv
eval (const node *n, jv in)
{
  switch (n->kind)
    {
    case N_IDENT:
      return in;
    case N_FIELD:
      return eval_field (n, in);
    case N_PIPE:
      return eval (n->b, eval (n->a, in));
    case N_COLLECT:
    case N_MAP:
      return eval_collect (n, in);
    case N_OBJECT:
      return eval_object (n, in);
    case N_TONUMBER:
      return eval_tonumber (in);
    case N_LENGTH:
      return eval_length (in);
    case N_SORT_BY:
      return eval_sort_by (n, in);
    case N_GROUP_BY:
      return eval_group_by (n, in);
    case N_ADD:
      return eval_add (in);
    case N_INDEX:
      {
        jv r = jv_get_kind (in) == JV_ARRAY ? jv_array_get (in, n->index) : jv_null ();
        jv_free (in);
        return jv_is_valid (r) ? r : jv_null ();
      }
    }
  return in;
}

/* the object constructor's values, as a list */
static node *
values (node *first, ...)
{
  node *v[8], **p = v;
  *p++ = first;
  __builtin_va_list ap;
  __builtin_va_start (ap, first);
  node *x;
  while ((x = __builtin_va_arg (ap, node *)) != NULL)
    *p++ = x;
  __builtin_va_end (ap);
  node *list = NULL;
  while (p > v)
    list = mk (N_IDENT, NULL, *--p, list);
  return list;
}

static node *
program (void)
{
  node *row = mk (N_OBJECT, "name,section,size,deps", NULL,
                  values (mk (N_FIELD, "Package", 0, 0), mk (N_FIELD, "Section", 0, 0),
                          mk (N_PIPE, 0, mk (N_FIELD, "Installed-Size", 0, 0), mk (N_TONUMBER, 0, 0, 0)),
                          mk (N_PIPE, 0, mk (N_FIELD, "Depends", 0, 0), mk (N_LENGTH, 0, 0, 0)), NULL));
  node *first = mk (N_INDEX, 0, 0, 0);
  first->index = 0;
  node *summary = mk (N_OBJECT, "section,n,total", NULL,
                      values (mk (N_PIPE, 0, first, mk (N_FIELD, "section", 0, 0)), mk (N_LENGTH, 0, 0, 0),
                              mk (N_PIPE, 0, mk (N_MAP, 0, mk (N_FIELD, "size", 0, 0), 0), mk (N_ADD, 0, 0, 0)), NULL));
  node *p = mk (N_COLLECT, 0, row, 0);
  p = mk (N_PIPE, 0, p, mk (N_SORT_BY, 0, mk (N_FIELD, "size", 0, 0), 0));
  p = mk (N_PIPE, 0, p, mk (N_GROUP_BY, 0, mk (N_FIELD, "section", 0, 0), 0));
  return mk (N_PIPE, 0, p, mk (N_MAP, 0, summary, 0));
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    return 2;
  FILE *f = fopen (argv[1], "rb");
  if (f == NULL)
    return 1;
  size_t cap = 1 << 20, n = 0, k;
  char *text = malloc (cap + 1);
  while ((k = fread (text + n, 1, cap - n, f)) > 0)
    if ((n += k) == cap)
      text = realloc (text, (cap *= 2) + 1);
  fclose (f);
  int rounds = argc > 2 ? atoi (argv[2]) : 1;
  node *prog = program ();
  unsigned long sum = 0;
  size_t groups = 0;
  for (int r = 0; r < rounds; r++)
    {
      jv doc = jv_parse (text, n);
      if (!jv_is_valid (doc))
        {
          fprintf (stderr, "jqlike: %s: not JSON\n", argv[1]);
          return 1;
        }
      jv out = eval (prog, doc);
      char *buf = NULL;
      size_t len = 0, bcap = 0;
      jv_dump (out, &buf, &len, &bcap);
      for (size_t i = 0; i < len; i++)
        sum = sum * 31 + (unsigned char) buf[i];
      groups = (size_t) jv_array_length (out);
      free (buf);
      jv_free (out);
    }
  printf ("%zu groups, checksum %lu\n", groups, sum);
  return 0;
}
