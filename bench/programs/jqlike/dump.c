/* dump.c — jqlike's JSON printer, recursive, into a growing buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jv.h"

static void
put (char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
  if (*len + n + 1 > *cap)
    {
      while (*len + n + 1 > *cap)
        *cap = *cap ? *cap * 2 : 256;
      *buf = realloc (*buf, *cap);
    }
  memcpy (*buf + *len, s, n);
  *len += n;
  (*buf)[*len] = 0;
}

static void
put_string (jv v, char **buf, size_t *len, size_t *cap)
{
  put (buf, len, cap, "\"", 1);
  const char *s = jv_string_value (v);
  for (size_t i = 0; i < jv_string_length (v); i++)
    {
      if (s[i] == '"' || s[i] == '\\')
        put (buf, len, cap, "\\", 1);
      put (buf, len, cap, s + i, 1);
    }
  put (buf, len, cap, "\"", 1);
}

void
jv_dump (jv v, char **buf, size_t *len, size_t *cap)
{
  char num[32];
  switch (jv_get_kind (v))
    {
    case JV_NULL:
      put (buf, len, cap, "null", 4);
      break;
    case JV_TRUE:
      put (buf, len, cap, "true", 4);
      break;
    case JV_FALSE:
      put (buf, len, cap, "false", 5);
      break;
    case JV_NUMBER:
      put (buf, len, cap, num, (size_t) snprintf (num, sizeof num, "%.17g", jv_number_value (v)));
      break;
    case JV_STRING:
      put_string (v, buf, len, cap);
      break;
    case JV_ARRAY:
      put (buf, len, cap, "[", 1);
      for (int i = 0; i < jv_array_length (v); i++)
        {
          if (i)
            put (buf, len, cap, ",", 1);
          jv x = jv_array_get (v, i);
          jv_dump (x, buf, len, cap);
          jv_free (x);
        }
      put (buf, len, cap, "]", 1);
      break;
    case JV_OBJECT:
      put (buf, len, cap, "{", 1);
      for (int i = jv_object_iter (v, 0); i >= 0; i = jv_object_iter (v, i + 1))
        {
          if (i)
            put (buf, len, cap, ",", 1);
          jv k = jv_object_iter_key (v, i), x = jv_object_iter_value (v, i);
          put_string (k, buf, len, cap);
          put (buf, len, cap, ":", 1);
          jv_dump (x, buf, len, cap);
          jv_free (k);
          jv_free (x);
        }
      put (buf, len, cap, "}", 1);
      break;
    default:
      break;
    }
}
