/* cg-v8-detect.c — a JSON prefix scanner that sees V8's profile shape. */
#include "config.h"

#include "cg-v8-detect.h"

#include <string.h>

/* V8's profile nests four deep (the object, "nodes", a node, its
 * callFrame or positionTicks' entries): deeper input is not one */
#define MAX_DEPTH 16

typedef enum {
  WANT_VALUE,          /* after ':' or ',' in an array, or at the start */
  WANT_VALUE_OR_CLOSE, /* after '[' */
  WANT_KEY,            /* after ',' in an object */
  WANT_KEY_OR_CLOSE,   /* after '{' */
  WANT_COLON,
  WANT_COMMA_OR_CLOSE,
  WANT_END,            /* the top-level value is whole */
} State;

typedef struct {
  const guint8 *p, *end;
  char stack[MAX_DEPTH];
  guint depth;
  State state;
  gboolean in_nodes;     /* the top-level member being read is "nodes" */
  gboolean saw_nodes, saw_samples, saw_call_frame;
} Scan;

static gboolean
is_blank (guint8 c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Whether the raw key @s (@n bytes between the quotes) is @key. */
static gboolean
key_is (const guint8 *s, gsize n, const char *key)
{
  return n == strlen (key) && memcmp (s, key, n) == 0;
}

/* Reads the string at s->p (its '"'): 1 whole, 0 cut by the window's
 * end, -1 not JSON.  *@s_start and *@s_len receive its raw bytes. */
static int
scan_string (Scan *s, const guint8 **start, gsize *len)
{
  const guint8 *q = s->p + 1;
  *start = q;
  while (q < s->end && *q != '"')
    {
      if (*q < 0x20)
        return -1;
      if (*q == '\\')
        {
          if (++q == s->end)
            return 0;
          if (*q == 'u')
            {
              for (int k = 0; k < 4; k++)
                if (++q == s->end)
                  return 0;
                else if (!g_ascii_isxdigit (*q))
                  return -1;
            }
          else if (strchr ("\"\\/bfnrt", *q) == NULL || *q == '\0')
            return -1;
        }
      q++;
    }
  if (q == s->end)
    return 0;
  *len = (gsize) (q - *start);
  s->p = q + 1;
  return 1;
}

/* Reads a number or a literal at s->p: 1 whole, 0 cut, -1 not JSON. */
static int
scan_scalar (Scan *s)
{
  static const char *const literals[] = { "true", "false", "null" };
  for (guint i = 0; i < G_N_ELEMENTS (literals); i++)
    if (*s->p == (guint8) literals[i][0])
      {
        gsize n = strlen (literals[i]), have = MIN (n, (gsize) (s->end - s->p));
        if (memcmp (s->p, literals[i], have) != 0)
          return -1;
        s->p += have;
        return have == n ? 1 : 0;
      }
  if (*s->p != '-' && !g_ascii_isdigit (*s->p))
    return -1;
  const guint8 *q = s->p + 1;
  while (q < s->end && (g_ascii_isdigit (*q) || (*q != '\0' && strchr (".eE+-", *q) != NULL)))
    q++;
  s->p = q;
  return q < s->end ? 1 : 0;
}

/* A value has ended: what the container around it wants next. */
static void
value_done (Scan *s)
{
  s->state = s->depth == 0 ? WANT_END : WANT_COMMA_OR_CLOSE;
}

/* A key has been read at the current depth. */
static void
key_read (Scan *s, const guint8 *key, gsize n)
{
  if (s->depth == 1)
    {
      s->in_nodes = key_is (key, n, "nodes");
      s->saw_nodes |= s->in_nodes;
      s->saw_samples |= key_is (key, n, "samples") || key_is (key, n, "timeDeltas");
    }
  else if (s->depth == 3 && s->in_nodes && s->stack[1] == '[' && s->stack[2] == '{')
    s->saw_call_frame |= key_is (key, n, "callFrame");
  s->state = WANT_COLON;
}

/* One token at s->p: 1 read, 0 the window ends inside it, -1 not JSON. */
static int
scan_token (Scan *s)
{
  guint8 c = *s->p;
  gboolean want_value = s->state == WANT_VALUE || s->state == WANT_VALUE_OR_CLOSE;
  if ((c == '}' && (s->state == WANT_KEY_OR_CLOSE || (s->state == WANT_COMMA_OR_CLOSE && s->stack[s->depth - 1] == '{')))
      || (c == ']' && (s->state == WANT_VALUE_OR_CLOSE
                       || (s->state == WANT_COMMA_OR_CLOSE && s->stack[s->depth - 1] == '['))))
    {
      s->depth--, s->p++;
      value_done (s);
      return 1;
    }
  if (c == ',' && s->state == WANT_COMMA_OR_CLOSE)
    {
      s->state = s->stack[s->depth - 1] == '{' ? WANT_KEY : WANT_VALUE;
      s->p++;
      return 1;
    }
  if (c == ':' && s->state == WANT_COLON)
    {
      s->state = WANT_VALUE;
      s->p++;
      return 1;
    }
  if (c == '"' && (want_value || s->state == WANT_KEY || s->state == WANT_KEY_OR_CLOSE))
    {
      const guint8 *start;
      gsize n;
      int r = scan_string (s, &start, &n);
      if (r == 1 && want_value)
        value_done (s);
      else if (r == 1)
        key_read (s, start, n);
      return r;
    }
  if ((c == '{' || c == '[') && want_value)
    {
      if (s->depth == MAX_DEPTH || (s->depth == 0 && c != '{'))
        return -1;
      s->stack[s->depth++] = (char) c;
      s->state = c == '{' ? WANT_KEY_OR_CLOSE : WANT_VALUE_OR_CLOSE;
      s->p++;
      return 1;
    }
  if (!want_value || s->depth == 0)
    return -1;
  int r = scan_scalar (s);
  if (r == 1)
    value_done (s);
  return r;
}

gboolean
cg_v8_detect (const guint8 *data, gsize len, gboolean complete)
{
  Scan s = { .p = data, .end = data + len, .state = WANT_VALUE };
  (void) complete; /* a whole input that stops inside the JSON is the reader's to name */
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    s.p += 3;
  while (s.p < s.end)
    {
      if (is_blank (*s.p))
        {
          s.p++;
          continue;
        }
      if (s.state == WANT_END)
        return FALSE;
      int r = scan_token (&s);
      if (r < 0)
        return FALSE;
      if (r == 0)
        break;
    }
  return s.saw_nodes && (s.saw_samples || s.saw_call_frame);
}
