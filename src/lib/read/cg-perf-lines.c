/* cg-perf-lines.c — perf script's header and frame lines (cg-perf-lines.h). */
#include "config.h"

#include "cg-perf-lines.h"

#include <string.h>

/* perf's printf widths: "%10" for the period, at most 7 digits of a pid */
#define PERIOD_WIDTH 10
#define MAX_PID_DIGITS 7

typedef struct {
  const char *line;
  gsize len;
  gsize pos;
} Cursor;

static gboolean
is_digits (const char *s, gsize n)
{
  if (n == 0)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (!g_ascii_isdigit (s[i]))
      return FALSE;
  return TRUE;
}

static gboolean
is_id (const char *s, gsize n)
{
  /* perf prints -1 for an unknown pid or tid */
  if (n > 0 && s[0] == '-')
    s++, n--;
  return is_digits (s, n);
}

/* The next blank-separated token from @c; its start in @tok, the blanks
 * before it in @blanks.  FALSE at the end of the line. */
static gboolean
next_token (Cursor *c, CgPerfText *tok, gsize *blanks)
{
  gsize p = c->pos;
  while (p < c->len && c->line[p] == ' ')
    p++;
  *blanks = p - c->pos;
  if (p == c->len)
    return FALSE;
  gsize q = p;
  while (q < c->len && c->line[q] != ' ')
    q++;
  tok->s = c->line + p;
  tok->len = q - p;
  c->pos = q;
  return TRUE;
}

static gboolean
parse_u64 (const char *s, gsize n, guint64 *v)
{
  guint64 x = 0;
  for (gsize i = 0; i < n; i++)
    {
      guint d = (guint) (s[i] - '0');
      if (x > (G_MAXUINT64 - d) / 10)
        return FALSE;
      x = x * 10 + d;
    }
  *v = x;
  return TRUE;
}

/* "K", "U", "KM"...: perf's misc field */
static gboolean
is_misc (const CgPerfText *t)
{
  if (t->len == 0 || t->len > 3)
    return FALSE;
  for (gsize i = 0; i < t->len; i++)
    if (strchr ("KUHGgMESp", t->s[i]) == NULL || t->s[i] == '\0')
      return FALSE;
  return TRUE;
}

/* "2026-11-26" */
static gboolean
is_date (const CgPerfText *t)
{
  return t->len == 10 && is_digits (t->s, 4) && t->s[4] == '-' && is_digits (t->s + 5, 2) && t->s[7] == '-'
         && is_digits (t->s + 8, 2);
}

/* "22:40:05" and a fraction */
static gboolean
is_clock (const CgPerfText *t)
{
  return t->len >= 8 && is_digits (t->s, 2) && t->s[2] == ':' && is_digits (t->s + 3, 2) && t->s[5] == ':'
         && is_digits (t->s + 6, 2) && (t->len == 8 || (t->s[8] == '.' && is_digits (t->s + 9, t->len - 9)));
}

/* "12595.768509:", perf's time field */
static gboolean
is_time (const CgPerfText *t)
{
  if (t->len < 4 || t->s[t->len - 1] != ':')
    return FALSE;
  const char *dot = memchr (t->s, '.', t->len);
  return dot && is_digits (t->s, (gsize) (dot - t->s)) && is_digits (dot + 1, t->len - (gsize) (dot - t->s) - 2);
}

/* The fields after the command name, from @c on; @separated: a field
 * precedes, whose trailing blank is not padding. */
static gboolean
parse_tail (Cursor c, gboolean separated, CgPerfHeader *h)
{
  CgPerfText tok;
  gsize blanks;
  gboolean more = next_token (&c, &tok, &blanks);
  gsize padding = blanks - (separated && blanks > 0);
  if (more)
    {
      const char *slash = memchr (tok.s, '/', tok.len);
      if (slash && is_id (tok.s, (gsize) (slash - tok.s)) && is_id (slash + 1, tok.len - (gsize) (slash - tok.s) - 1))
        {
          h->fields |= CG_PERF_PID | CG_PERF_TID;
          h->pid = (CgPerfText) { tok.s, (gsize) (slash - tok.s) };
          h->tid = (CgPerfText) { slash + 1, tok.len - (gsize) (slash - tok.s) - 1 };
          more = next_token (&c, &tok, &blanks);
        }
      /* a lone number is the tid unless padded as a period is */
      else if (is_id (tok.s, tok.len) && tok.len <= MAX_PID_DIGITS && padding + tok.len < PERIOD_WIDTH)
        {
          h->fields |= CG_PERF_TID;
          h->tid = tok;
          more = next_token (&c, &tok, &blanks);
        }
    }
  if (more && tok.len >= 3 && tok.s[0] == '[' && tok.s[tok.len - 1] == ']' && is_digits (tok.s + 1, tok.len - 2))
    {
      h->fields |= CG_PERF_CPU;
      more = next_token (&c, &tok, &blanks);
    }
  /* misc: the record's mode letters, as perf prints them */
  if (more && is_misc (&tok))
    {
      h->fields |= CG_PERF_MISC;
      more = next_token (&c, &tok, &blanks);
    }
  /* tod: the wall-clock date and time, "2026-11-26 22:40:05.123456" */
  if (more && is_date (&tok))
    {
      more = next_token (&c, &tok, &blanks);
      if (!more || !is_clock (&tok))
        return FALSE;
      h->fields |= CG_PERF_TOD;
      more = next_token (&c, &tok, &blanks);
    }
  if (more && is_time (&tok))
    {
      h->fields |= CG_PERF_TIME;
      more = next_token (&c, &tok, &blanks);
    }
  if (more && is_digits (tok.s, tok.len))
    {
      if (!parse_u64 (tok.s, tok.len, &h->period))
        return FALSE;
      h->fields |= CG_PERF_PERIOD;
      more = next_token (&c, &tok, &blanks);
    }
  /* a time is no event's name: a command named as misc letters ("p",
   * "S") read as the misc field left the time to be taken for the event */
  if (more && tok.len >= 2 && tok.s[tok.len - 1] == ':' && !is_time (&tok))
    {
      h->fields |= CG_PERF_EVENT;
      h->event = (CgPerfText) { tok.s, tok.len - 1 };
      gsize p = c.pos;
      while (p < c.len && c.line[p] == ' ')
        p++;
      gsize e = c.len;
      while (e > p && c.line[e - 1] == ' ')
        e--;
      h->rest = (CgPerfText) { c.line + p, e - p };
      return TRUE;
    }
  return !more;
}

gboolean
cg_perf_parse_header (const char *line, gsize len, guint layout, CgPerfHeader *header)
{
  for (gsize i = 0; i < len; i++)
    if ((guchar) line[i] < 0x20 || line[i] == 0x7f)
      return FALSE;
  Cursor c = { line, len, 0 };
  CgPerfText tok;
  gsize blanks;
  /* a guest's machine pid and vcpu come first */
  for (int k = 0; k < 2; k++)
    {
      Cursor probe = c;
      if (!next_token (&probe, &tok, &blanks))
        break;
      if ((tok.len >= 3 && memcmp (tok.s, "VM:", 3) == 0) || (tok.len >= 5 && memcmp (tok.s, "VCPU:", 5) == 0))
        {
          c = probe;
          if (tok.s[tok.len - 1] == ':' && next_token (&probe, &tok, &blanks))
            c = probe; /* "VM:  123": the number is its own token */
        }
    }
  gsize comm_start = c.pos;
  while (comm_start < len && line[comm_start] == ' ')
    comm_start++;
  /* the command name is everything before the first place where the
   * rest parses: first none, then one token, two, ... (each try reads a
   * few tokens at most, so this is linear in the line) */
  gboolean first = TRUE;
  for (;;)
    {
      CgPerfHeader h = { 0 };
      if (!first)
        {
          h.fields = CG_PERF_COMM;
          h.comm = (CgPerfText) { line + comm_start, c.pos - comm_start };
        }
      if (parse_tail (c, !first, &h) && (layout == 0 || h.fields == layout))
        {
          *header = h;
          return TRUE;
        }
      if (!next_token (&c, &tok, &blanks))
        return FALSE;
      first = FALSE;
    }
}

/* Strips a trailing "+0xHEX" from @t (perf's symoff and dsoff), and
 * sets @off (nullable) to its HEX digits, or to empty text. */
static void
strip_offset (CgPerfText *t, CgPerfText *off)
{
  gsize e = t->len;
  while (e > 0 && g_ascii_isxdigit (t->s[e - 1]))
    e--;
  if (off)
    *off = (CgPerfText) { t->s + t->len, 0 };
  if (e < t->len && e >= 3 && memcmp (t->s + e - 3, "+0x", 3) == 0 && e > 3)
    {
      if (off)
        *off = (CgPerfText) { t->s + e, t->len - e };
      t->len = e - 3;
    }
}

gboolean
cg_perf_parse_frame (const char *text, gsize len, gboolean strict, CgPerfFrame *frame)
{
  gsize p = 0;
  while (p < len && text[p] == ' ')
    p++;
  gsize q = p;
  while (q < len && g_ascii_isxdigit (text[q]))
    q++;
  if (q == p || (q < len && text[q] != ' ') || (strict && q != 16))
    return FALSE;
  /* detection wants text; the reader takes any bytes (the graph escapes
   * what names cannot hold) */
  for (gsize i = q; strict && i < len; i++)
    if ((guchar) text[i] < 0x20 || text[i] == 0x7f)
      return FALSE;
  *frame = (CgPerfFrame) { .ip = { text + p, q - p } };
  if (q == len)
    return TRUE;
  const char *s = text + q + 1;
  gsize n = len - q - 1;
  static const char inlined[] = " (inlined)";
  if (n >= sizeof inlined - 1 && memcmp (s + n - (sizeof inlined - 1), inlined, sizeof inlined - 1) == 0)
    {
      frame->inlined = TRUE;
      n -= sizeof inlined - 1;
    }
  else if (n == sizeof inlined - 2 && memcmp (s, inlined + 1, n) == 0)
    {
      /* -F ip or ip,dso: an inlined frame has no DSO, so its mark follows
       * the address's blank */
      frame->inlined = TRUE;
      return TRUE;
    }
  /* the DSO: the parenthesis that closes the text, with the one that
   * opens it after a blank (symbols may hold parentheses: f(int)) */
  if (n > 0 && s[n - 1] == ')')
    {
      gsize depth = 0, i = n;
      while (i > 0)
        {
          i--;
          depth += s[i] == ')';
          depth -= s[i] == '(';
          if (depth == 0)
            break;
        }
      /* at i == 0 the blank is the address's: -F ip,dso has no symbol */
      if (depth == 0 && (i == 0 || s[i - 1] == ' '))
        {
          frame->dso = (CgPerfText) { s + i + 1, n - i - 2 };
          strip_offset (&frame->dso, NULL);
          n = i == 0 ? 0 : i - 1;
        }
    }
  frame->sym = (CgPerfText) { s, n };
  strip_offset (&frame->sym, &frame->symoff);
  return TRUE;
}

static gboolean
text_is (const CgPerfText *t, const char *s)
{
  return t->len == strlen (s) && memcmp (t->s, s, t->len) == 0;
}

static gboolean
ends_with (const CgPerfText *t, const char *s)
{
  gsize n = strlen (s);
  return t->len >= n && memcmp (t->s + t->len - n, s, n) == 0;
}

gboolean
cg_perf_is_kernel (const CgPerfText *dso, const CgPerfText *ip)
{
  if (dso->len == 0)
    /* no DSO printed: the upper half of the address space is the kernel's
     * on the 64-bit architectures perf samples call chains on */
    return ip->len == 16 && g_ascii_xdigit_value (ip->s[0]) >= 8;
  if (dso->s[0] == '[' && dso->s[dso->len - 1] == ']')
    {
      static const char *const user[] = { "[unknown]", "[vdso]", "[vdso32]", "[vdsox32]", "[vsyscall]",
                                          "[heap]", "[stack]", "[anon]", "[uprobes]", "[jit]" };
      for (guint i = 0; i < G_N_ELEMENTS (user); i++)
        if (text_is (dso, user[i]))
          return FALSE;
      return TRUE; /* [kernel.kallsyms], [guest.kernel.kallsyms], [module] */
    }
  if (dso->s[0] == '[')
    return TRUE; /* "[kernel.kallsyms]_text" and the like */
  return ends_with (dso, "vmlinux") || ends_with (dso, ".ko") || ends_with (dso, ".ko.gz")
         || ends_with (dso, ".ko.xz") || ends_with (dso, ".ko.zst");
}
