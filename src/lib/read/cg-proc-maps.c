/* cg-proc-maps.c — parsing /proc/PID/maps text (cg-proc-maps.h). */
#include "config.h"

#include "cg-proc-maps.h"

#include <string.h>

struct _CgProcMaps {
  GArray *maps;       /* CgProcMap, by start */
  GStringChunk *paths;
};

/* Reads hex digits at *@p (at most 16, one at least) into *@v. */
static gboolean
hex (const char **p, const char *end, guint64 *v)
{
  const char *s = *p;
  guint64 x = 0;
  guint n = 0;
  for (; s < end && g_ascii_isxdigit (*s); s++, n++)
    {
      if (n == 16)
        return FALSE;
      x = x << 4 | (guint64) g_ascii_xdigit_value (*s);
    }
  *p = s;
  *v = x;
  return n > 0;
}

static gboolean
decimal (const char **p, const char *end, guint64 *v)
{
  const char *s = *p;
  guint64 x = 0;
  for (; s < end && g_ascii_isdigit (*s); s++)
    if (!g_uint64_checked_mul (&x, x, 10) || !g_uint64_checked_add (&x, x, (guint64) (*s - '0')))
      return FALSE;
  if (s == *p)
    return FALSE;
  *p = s;
  *v = x;
  return TRUE;
}

static gboolean
blanks (const char **p, const char *end)
{
  const char *s = *p;
  while (s < end && (*s == ' ' || *s == '\t'))
    s++;
  if (s == *p)
    return FALSE;
  *p = s;
  return TRUE;
}

static gboolean
expect (const char **p, const char *end, char c)
{
  if (*p >= end || **p != c)
    return FALSE;
  (*p)++;
  return TRUE;
}

/* One line [@s, @end) into @map (its path into @path, @path_len); FALSE
 * when it is no executable mapping. */
static gboolean
parse_line (const char *s, const char *end, CgProcMap *map, const char **path, gsize *path_len)
{
  guint64 major, minor;
  if (!hex (&s, end, &map->start) || !expect (&s, end, '-') || !hex (&s, end, &map->end) || !blanks (&s, end))
    return FALSE;
  if (end - s < 4 || s[2] != 'x')
    return FALSE;
  s += 4;
  if (!blanks (&s, end) || !hex (&s, end, &map->offset) || !blanks (&s, end) || !hex (&s, end, &major)
      || !expect (&s, end, ':') || !hex (&s, end, &minor) || !blanks (&s, end) || !decimal (&s, end, &map->inode))
    return FALSE;
  if (s < end && !blanks (&s, end))
    return FALSE;
  const char *e = end;
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
    e--;
  static const char deleted[] = " (deleted)";
  gsize dl = sizeof deleted - 1;
  map->deleted = (gsize) (e - s) > dl && memcmp (e - dl, deleted, dl) == 0;
  if (map->deleted)
    e -= dl;
  *path = s;
  *path_len = (gsize) (e - s);
  return map->end > map->start;
}

static gint
by_start (gconstpointer a, gconstpointer b)
{
  const CgProcMap *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->end < y->end ? -1 : x->end > y->end;
}

CgProcMaps *
cg_proc_maps_parse (const char *text, gsize len)
{
  CgProcMaps *maps = g_new (CgProcMaps, 1);
  maps->maps = g_array_new (FALSE, FALSE, sizeof (CgProcMap));
  maps->paths = g_string_chunk_new (4096);
  const char *p = text, *end = text + len;
  while (p < end)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      const char *line_end = nl ? nl : end;
      CgProcMap map = { 0 };
      const char *path;
      gsize path_len;
      if (memchr (p, '\0', (gsize) (line_end - p)) == NULL && parse_line (p, line_end, &map, &path, &path_len))
        {
          map.path = g_string_chunk_insert_len (maps->paths, path, (gssize) path_len);
          g_array_append_val (maps->maps, map);
        }
      p = nl ? nl + 1 : end;
    }
  g_array_sort (maps->maps, by_start);
  return maps;
}

void
cg_proc_maps_free (CgProcMaps *maps)
{
  if (maps == NULL)
    return;
  g_array_unref (maps->maps);
  g_string_chunk_free (maps->paths);
  g_free (maps);
}

const CgProcMap *
cg_proc_maps_array (const CgProcMaps *maps, guint *n_maps)
{
  *n_maps = maps->maps->len;
  return (const CgProcMap *) (gpointer) maps->maps->data;
}

const CgProcMap *
cg_proc_maps_find (const CgProcMaps *maps, guint64 address)
{
  /* the first mapping starting above @address */
  guint lo = 0, hi = maps->maps->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (maps->maps, CgProcMap, mid).start <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return NULL;
  const CgProcMap *m = &g_array_index (maps->maps, CgProcMap, lo - 1);
  return address < m->end ? m : NULL;
}
