/* cg-fit-line.c — the functions of a text tree's line fitted into a width
 * (see the header): whole functions out of a chain's middle, then the
 * names' middles, never a mark. */
#include "config.h"

#include "cg-fit-line.h"

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
  gboolean dropped; /* an optional mark left out */
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

/* The characters inside the last parenthesized group of @text that
 * follows a name (a C++ function's parameter list: "f(int, char*)
 * const"), as [*open, *close); FALSE where there is none. */
static gboolean
parameters (const char *text, gsize *open, gsize *close)
{
  gsize depth = 0, i = 0, start = 0;
  gboolean found = FALSE;
  for (const char *q = text; *q; q = g_utf8_next_char (q), i++)
    {
      if (*q == '(' && depth++ == 0)
        start = i + 1;
      else if (*q == ')' && depth > 0 && --depth == 0 && start > 1)
        {
          *open = start;
          *close = i;
          found = TRUE;
        }
    }
  return found;
}

/* Appends the characters [@from, @to) of @text. */
static void
append_chars (GString *out, const char *text, gsize from, gsize to)
{
  const char *a = g_utf8_offset_to_pointer (text, (glong) from), *b = g_utf8_offset_to_pointer (text, (glong) to);
  g_string_append_len (out, a, b - a);
}

/* Where the function's own name starts in @text (in characters), whose
 * parameter list's contents start at character @open (after its '('): after the last "::" or blank
 * before it, a template argument list just before the list counted in
 * ("ns::Doc::Create<Elem, 120>(...)": at "Create"); @open where no name
 * is found (an operator, brackets that do not balance). */
static gsize
own_name_start (const char *text, gsize open)
{
  /* the byte before the list's '(' */
  const char *q = g_utf8_offset_to_pointer (text, (glong) open) - 2;
  if (q >= text && *q == '>')
    {
      /* back over the template arguments (ASCII brackets: bytes do) */
      gsize depth = 0;
      for (; q >= text; q--)
        if (*q == '>')
          depth++;
        else if (*q == '<' && --depth == 0)
          break;
      if (q < text)
        return open;
      q--;
    }
  const char *end = q;
  while (q >= text && (g_ascii_isalnum (*q) || *q == '_' || *q == '~'))
    q--;
  return q == end ? open : (gsize) g_utf8_pointer_to_offset (text, q + 1);
}

/* Appends @p cut to @cap columns where it is a longer name: its middle
 * goes, or where the parameter list of a C++ name can give all that must
 * go, the middle of that list, so that the function's name stays whole
 * ("Builder::Build(std::__cxx1…<char> >*)", not "Builder::Bu…<char>
 * >*)"); where it cannot, the whole list and then the middle of what is
 * before the function's own name ("tinyxml2::XMLDocument::LoadFile(char
 * const*)" at 20 columns: "tiny…nt::LoadFile(…)", where a cut in the
 * middle read "tinyxml2:…r const*)", no function at all); only where the
 * name itself does not fit so, the middle of the whole. */
static void
append_cut (GString *out, const Piece *p, gsize cap, const char *mark, gsize mark_w)
{
  if (p->kind != CG_FIT_NAME || p->cols <= cap)
    {
      g_string_append (out, p->text);
      return;
    }
  gsize room = cap - mark_w, gone = p->cols - room, head = (room + 1) / 2, open = 0, close = 0;
  gboolean params = parameters (p->text, &open, &close);
  if (params && close - open < gone)
    {
      /* the list goes whole: what is before the name has what is left */
      gsize name = own_name_start (p->text, open);
      gsize list_mark = close > open ? mark_w : 0; /* "()" stays as it is */
      gsize kept = (open - name) + list_mark + (p->cols - close);
      if (name < open && kept + (name > 0 ? mark_w : 0) <= cap)
        {
          gsize before = cap - kept; /* columns for the text before the name */
          if (before >= name)
            append_chars (out, p->text, 0, name);
          else
            {
              gsize left = before - mark_w, front = (left + 1) / 2;
              append_chars (out, p->text, 0, front);
              g_string_append (out, mark);
              append_chars (out, p->text, name - (left - front), name);
            }
          append_chars (out, p->text, name, open);
          g_string_append (out, list_mark ? mark : "");
          append_chars (out, p->text, close, p->cols);
          return;
        }
    }
  if (params && close - open >= gone)
    head = open + (close - open - gone) / 2;
  append_chars (out, p->text, 0, head);
  g_string_append (out, mark);
  append_chars (out, p->text, head + gone, p->cols);
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

  /* then the names' middles, the longest first; where even the shortest
   * names leave no room for them, the optional marks go */
  gsize cap = G_MAXSIZE;
  for (int pass = 0; pass < 2; pass++)
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
      if (shortest <= room)
        break;
      for (guint i = 0; i < n; i++)
        p[i].dropped = p[i].kind == CG_FIT_OPTIONAL;
    }

  g_string_truncate (line, from);
  for (guint i = 0; i < n; i++)
    {
      guint f = p[i].function;
      if (keep[f] && !p[i].dropped)
        append_cut (line, &p[i], cap, mark, mark_w);
      else if (p[i].kind == CG_FIT_SEPARATOR && keep[f - 1])
        {
          g_string_append (line, p[i].text);
          g_string_append (line, mark);
        }
    }
  for (guint i = 0; i < n; i++)
    g_free (p[i].text);
}
