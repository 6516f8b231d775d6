/* parse.c — jqlike's JSON parser: recursive descent, a function per
 * token kind, values built through jv.c as jq's parser builds them. */
#include <stdlib.h>
#include <string.h>

#include "jv.h"

typedef struct {
  const char *s, *end;
} P;

static void
skip_ws (P *p)
{
  while (p->s < p->end && (*p->s == ' ' || *p->s == '\n' || *p->s == '\t' || *p->s == '\r'))
    p->s++;
}

static int
peek (P *p)
{
  skip_ws (p);
  return p->s < p->end ? (unsigned char) *p->s : -1;
}

static int
expect (P *p, char c)
{
  if (peek (p) != c)
    return 0;
  p->s++;
  return 1;
}

static jv parse_value (P *p);

static jv
parse_string (P *p)
{
  if (!expect (p, '"'))
    return jv_invalid ();
  char *buf = malloc ((size_t) (p->end - p->s) + 1);
  size_t n = 0;
  while (p->s < p->end && *p->s != '"')
    {
      char c = *p->s++;
      if (c == '\\' && p->s < p->end)
        {
          c = *p->s++;
          c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
        }
      buf[n++] = c;
    }
  p->s++;
  jv v = jv_string_sized (buf, n);
  free (buf);
  return v;
}

static jv
parse_number (P *p)
{
  char *end;
  double d = strtod (p->s, &end);
  if (end == p->s)
    return jv_invalid ();
  p->s = end;
  return jv_number (d);
}

static jv
parse_array (P *p)
{
  jv a = jv_array ();
  p->s++;
  if (expect (p, ']'))
    return a;
  do
    {
      jv v = parse_value (p);
      if (!jv_is_valid (v))
        {
          jv_free (a);
          return v;
        }
      a = jv_array_append (a, v);
    }
  while (expect (p, ','));
  if (!expect (p, ']'))
    {
      jv_free (a);
      return jv_invalid ();
    }
  return a;
}

static jv
parse_object (P *p)
{
  jv o = jv_object ();
  p->s++;
  if (expect (p, '}'))
    return o;
  do
    {
      jv k = parse_string (p);
      if (!jv_is_valid (k) || !expect (p, ':'))
        {
          jv_free (o);
          return jv_invalid ();
        }
      jv v = parse_value (p);
      if (!jv_is_valid (v))
        {
          jv_free (k);
          jv_free (o);
          return v;
        }
      o = jv_object_set (o, k, v);
    }
  while (expect (p, ','));
  if (!expect (p, '}'))
    {
      jv_free (o);
      return jv_invalid ();
    }
  return o;
}

static jv
parse_literal (P *p, const char *word, jv v)
{
  size_t n = strlen (word);
  if ((size_t) (p->end - p->s) < n || memcmp (p->s, word, n) != 0)
    return jv_invalid ();
  p->s += n;
  return v;
}

static jv
parse_value (P *p)
{
  switch (peek (p))
    {
    case '{':
      return parse_object (p);
    case '[':
      return parse_array (p);
    case '"':
      return parse_string (p);
    case 't':
      return parse_literal (p, "true", jv_bool (1));
    case 'f':
      return parse_literal (p, "false", jv_bool (0));
    case 'n':
      return parse_literal (p, "null", jv_null ());
    default:
      return parse_number (p);
    }
}

jv
jv_parse (const char *text, size_t n)
{
  P p = { text, text + n };
  return parse_value (&p);
}
