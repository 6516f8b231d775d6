/* cg-fit-line.c — the functions of a text tree's line fitted into a width
 * (see the header): whole functions out of a chain's middle, then the
 * names' middles, never a mark. */
#include "config.h"

#include "cg-fit-line.h"

#include "cg-cut-name.h"

#include <string.h>

gsize
cg_fit_visible_width (const char *s)
{
  gsize n = 0;
  for (const char *p = s; *p;)
    {
      if (p[0] == '\033' && p[1] == '[')
        {
          p += 2 + strcspn (p + 2, "m");
          p += *p == 'm';
          continue;
        }
      n++;
      p = g_utf8_next_char (p);
    }
  return n;
}

/* @n bytes of @s without their SGR sequences. */
static char *
plain_text (const char *s, gsize n)
{
  GString *out = g_string_sized_new (n);
  for (const char *p = s, *end = s + n; p < end;)
    {
      if (p[0] == '\033' && p + 1 < end && p[1] == '[')
        {
          p += 2;
          while (p < end && *p != 'm')
            p++;
          p += p < end;
          continue;
        }
      g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

typedef struct {
  char *text;   /* without colours */
  gsize cols;
  guint function;
  CgFitKind kind;
  gboolean dropped; /* an aside or optional mark left out */
} Piece;

/* The columns of the line from the functions on: the kept functions'
 * pieces, and for each run of left-out ones its separator and @mark_w. */
static gsize
functions_width (const Piece *p, guint n, const gboolean *keep, gsize mark_w)
{
  gsize cols = 0;
  for (guint i = 0; i < n; i++)
    {
      guint f = p[i].function;
      if (keep[f])
        cols += p[i].dropped ? 0 : p[i].cols;
      else if (p[i].kind == CG_FIT_SEPARATOR && keep[f - 1])
        cols += p[i].cols + mark_w;
    }
  return cols;
}

/* The largest number of columns c (at least CG_FIT_LINE_MIN_NAME) such
 * that the kept names, each cut to c where longer, take at most @room. */
static gsize
name_cap (const Piece *p, guint n, const gboolean *keep, gsize room)
{
  gsize lo = CG_FIT_LINE_MIN_NAME, hi = lo;
  for (guint i = 0; i < n; i++)
    if (keep[p[i].function] && p[i].kind == CG_FIT_NAME)
      hi = MAX (hi, p[i].cols);
  while (lo < hi)
    {
      gsize c = lo + (hi - lo + 1) / 2, sum = 0;
      for (guint i = 0; i < n; i++)
        if (keep[p[i].function] && p[i].kind == CG_FIT_NAME)
          sum += MIN (p[i].cols, c);
      if (sum <= room)
        lo = c;
      else
        hi = c - 1;
    }
  return lo;
}

/* Appends @p cut to @cap columns where it is a longer name
 * (cg_cut_name); other pieces whole. */
static void
append_cut (GString *out, const Piece *p, gsize cap, const char *mark)
{
  if (p->kind != CG_FIT_NAME)
    g_string_append (out, p->text);
  else
    cg_cut_name (out, p->text, p->cols, cap, mark);
}

void
cg_fit_line (GString *line, gsize from, const GArray *pieces, guint width, const char *mark)
{
  if (width == 0 || pieces->len == 0 || cg_fit_visible_width (line->str) <= width)
    return;
  gsize before = cg_fit_visible_width (line->str) - cg_fit_visible_width (line->str + from);
  guint n = pieces->len;
  g_autofree Piece *p = g_new0 (Piece, n);
  for (guint i = 0; i < n; i++)
    {
      const CgFitPiece *q = &g_array_index (pieces, CgFitPiece, i);
      p[i].text = plain_text (line->str + q->start, q->end - q->start);
      p[i].cols = (gsize) g_utf8_strlen (p[i].text, -1);
      p[i].function = q->function;
      p[i].kind = q->kind;
    }
  guint n_functions = p[n - 1].function + 1;
  g_autofree gboolean *keep = g_new (gboolean, n_functions);
  for (guint f = 0; f < n_functions; f++)
    keep[f] = TRUE;
  gsize mark_w = (gsize) g_utf8_strlen (mark, -1);

  /* a chain's ends stay; its middle goes: the most functions that fit,
   * as many from its start as from its end (one more from its start) */
  if (before + functions_width (p, n, keep, mark_w) > width && n_functions > 2)
    for (guint m = n_functions - 1; m >= 2; m--)
      {
        guint head = (m + 1) / 2;
        for (guint f = 0; f < n_functions; f++)
          keep[f] = f < head || f >= n_functions - (m - head);
        if (m == 2 || before + functions_width (p, n, keep, mark_w) <= width)
          break;
      }

  /* then the names' middles, the longest first; where that cuts a name
   * under CG_FIT_LINE_READABLE columns, the asides go first, and where
   * even the shortest names leave no room for the marks, the optional
   * ones go */
  gsize cap = G_MAXSIZE;
  gboolean asides = TRUE;
  for (int pass = 0; pass < 3; pass++)
    {
      gsize names = 0, shortest = 0;
      for (guint i = 0; i < n; i++)
        if (keep[p[i].function] && p[i].kind == CG_FIT_NAME)
          {
            names += p[i].cols;
            shortest += MIN (p[i].cols, CG_FIT_LINE_MIN_NAME);
          }
      gsize fixed = before + functions_width (p, n, keep, mark_w) - names;
      gsize room = width > fixed ? width - fixed : 0;
      cap = names > room ? name_cap (p, n, keep, room) : G_MAXSIZE;
      if (asides && cap < CG_FIT_LINE_READABLE)
        {
          asides = FALSE;
          for (guint i = 0; i < n; i++)
            p[i].dropped |= p[i].kind == CG_FIT_ASIDE;
          continue;
        }
      if (shortest <= room)
        break;
      for (guint i = 0; i < n; i++)
        p[i].dropped |= p[i].kind == CG_FIT_OPTIONAL;
    }

  g_string_truncate (line, from);
  for (guint i = 0; i < n; i++)
    {
      guint f = p[i].function;
      if (keep[f] && !p[i].dropped)
        append_cut (line, &p[i], cap, mark);
      else if (p[i].kind == CG_FIT_SEPARATOR && keep[f - 1])
        {
          g_string_append (line, p[i].text);
          g_string_append (line, mark);
        }
    }
  for (guint i = 0; i < n; i++)
    g_free (p[i].text);
}

void
cg_fit_fold_lines (GString *s, guint width)
{
  if (width == 0)
    return;
  g_autoptr (GString) out = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (s->str, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      if (i > 0)
        g_string_append_c (out, '\n');
      g_auto (GStrv) words = g_strsplit (lines[i], " ", -1);
      gsize col = 0;
      gboolean folded = FALSE; /* at the start of a line this fold began */
      for (guint k = 0; words[k]; k++)
        {
          gsize len = (gsize) g_utf8_strlen (words[k], -1);
          if (k > 0 && col > 0 && col + 1 + len > width)
            {
              /* the blanks of a two-space gap end no line and begin none */
              while (out->len > 0 && out->str[out->len - 1] == ' ')
                g_string_truncate (out, out->len - 1);
              g_string_append_c (out, '\n');
              col = 0;
              folded = TRUE;
            }
          else if (k > 0 && !(folded && col == 0))
            {
              g_string_append_c (out, ' ');
              col++;
            }
          g_string_append (out, words[k]);
          col += len;
        }
    }
  g_string_assign (s, out->str);
}
