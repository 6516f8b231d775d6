/* cg-cold-part.c — the part of a function gcc splits off as cold (cg-cold-part.h). */
#include "config.h"

#include <string.h>

#include "cg-cold-part.h"

gsize
cg_cold_part_base (const char *name, gsize len)
{
  gsize end = len;
  while (end > 0 && g_ascii_isdigit (name[end - 1]))
    end--;
  if (end < len && end > 0 && name[end - 1] == '.')
    end--;
  else
    end = len;
  return end > 5 && memcmp (name + end - 5, ".cold", 5) == 0 ? end - 5 : len;
}
