/* cg-json-depth.c — the nesting depth of a JSON text (cg-json-depth.h). */
#include "config.h"

#include "cg-json-depth.h"

gboolean
cg_json_depth_within (const char *data, gsize len, guint max, guint64 *line, guint64 *column)
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
          if (++depth > max)
            {
              *line = at_line;
              *column = i - line_start + 1;
              return FALSE;
            }
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return TRUE;
}
