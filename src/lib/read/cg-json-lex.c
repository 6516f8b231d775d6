/* cg-json-lex.c — what json-glib would get wrong in a JSON text (cg-json-lex.h). */
#include "config.h"

#include <string.h>

#include "cg-json-lex.h"

/* Whether the digits @d[0..@n) (no sign) lie past what a gint64 holds,
 * 2^63 - 1, or 2^63 after a minus sign (@negative). */
static gboolean
past_64_bits (const char *d, gsize n, gboolean negative)
{
  static const char limit[] = "9223372036854775807";
  while (n > 1 && *d == '0')
    d++, n--;
  if (n != sizeof limit - 1)
    return n > sizeof limit - 1;
  if (negative && memcmp (d, "9223372036854775808", n) == 0)
    return FALSE;
  return memcmp (d, limit, n) > 0;
}

static gboolean
in_number (char c)
{
  return g_ascii_isdigit (c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

CgJsonLex
cg_json_lex_check (const char *data, gsize len, guint max_depth, guint64 *line, guint64 *column)
{
  guint64 depth = 0, at_line = 1;
  gsize line_start = 0;
  gboolean in_string = FALSE;
  for (gsize i = 0; i < len; i++)
    {
      char c = data[i];
      if (c == '\n')
        at_line++, line_start = i + 1;
      else if (in_string)
        {
          if (c == '\\')
            i += i + 1 < len && data[i + 1] != '\n';
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > max_depth)
            {
              *line = at_line;
              *column = i - line_start + 1;
              return CG_JSON_LEX_DEEP;
            }
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
      else if ((g_ascii_isdigit (c) || c == '-') && (i == 0 || !in_number (data[i - 1])))
        {
          /* a number's start: its integer part, then what follows */
          gsize start = i, d = i + (c == '-');
          gsize end = d;
          while (end < len && g_ascii_isdigit (data[end]))
            end++;
          gboolean integer = end == len || !in_number (data[end]);
          if (integer && past_64_bits (data + d, end - d, c == '-'))
            {
              *line = at_line;
              *column = start - line_start + 1;
              return CG_JSON_LEX_INTEGER;
            }
          /* the rest of the token, which holds no newline or bracket */
          while (end < len && in_number (data[end]))
            end++;
          i = end - 1;
        }
    }
  return CG_JSON_LEX_OK;
}
