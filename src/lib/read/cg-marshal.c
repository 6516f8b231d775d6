/* cg-marshal.c — Python's marshal format, one object head at a time
 * (cg-marshal.h). */
#include "config.h"

#include "cg-marshal.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "cg-error.h"
#include "cg-read-options.h"

#define FLAG_REF 0x80

/* An entry of the table of references: a scalar's value, or a
 * container's meaning once it is whole. */
typedef struct {
  CgMarshalKind kind;
  guint8 type;    /* the object's type byte, without FLAG_REF */
  gboolean whole; /* a container: its contents read (a reference to it may follow) */
  gboolean big;
  gint64 n;
  gdouble x;
  gsize at, len; /* STRING: its bytes in the data */
  guint64 meaning;
} Ref;

struct _CgMarshal {
  const guint8 *data;
  gsize len, pos;
  const char *name;
  GArray *refs;     /* Ref */
  GArray *strings;  /* Ref: the strings read as 't' (versions 1 and 2) */
};

CgMarshal *
cg_marshal_new (const guint8 *data, gsize len, const char *name)
{
  CgMarshal *m = g_new0 (CgMarshal, 1);
  m->data = data;
  m->len = len;
  m->name = name;
  m->refs = g_array_new (FALSE, FALSE, sizeof (Ref));
  m->strings = g_array_new (FALSE, FALSE, sizeof (Ref));
  return m;
}

void
cg_marshal_free (CgMarshal *m)
{
  if (m == NULL)
    return;
  g_array_unref (m->refs);
  g_array_unref (m->strings);
  g_free (m);
}

guint64
cg_marshal_offset (const CgMarshal *m)
{
  return m->pos;
}

gboolean
cg_marshal_at_end (const CgMarshal *m)
{
  return m->pos == m->len;
}

static gboolean G_GNUC_PRINTF (5, 6)
fail (CgMarshal *m, GError **error, CgError code, guint64 at, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  cg_read_failv (error, code, m->name, CG_AT_OFFSET, at, format, ap);
  va_end (ap);
  return FALSE;
}

/* Whether @n more bytes are there; else the error, for the object whose
 * type byte is at @at. */
static gboolean
need (CgMarshal *m, gsize n, guint64 at, const char *what, GError **error)
{
  if (m->len - m->pos >= n)
    return TRUE;
  return fail (m, error, CG_ERROR_TRUNCATED, at, "%s needs %" G_GSIZE_FORMAT " more bytes, the file has %" G_GSIZE_FORMAT
               " (truncated)", what, n, m->len - m->pos);
}

static guint32
u32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

static gboolean
read_u32 (CgMarshal *m, guint32 *v, guint64 at, const char *what, GError **error)
{
  if (!need (m, 4, at, what, error))
    return FALSE;
  *v = u32 (m->data + m->pos);
  m->pos += 4;
  return TRUE;
}

/* A 32-bit length and then that many bytes (@wide), or a one-byte one. */
static gboolean
read_bytes (CgMarshal *m, gboolean wide, CgMarshalItem *item, GError **error)
{
  guint32 n;
  if (wide)
    {
      if (!read_u32 (m, &n, item->offset, "a string's length", error))
        return FALSE;
    }
  else
    {
      if (!need (m, 1, item->offset, "a short string's length", error))
        return FALSE;
      n = m->data[m->pos++];
    }
  if (!need (m, n, item->offset, "a string", error))
    return FALSE;
  item->kind = CG_MARSHAL_STRING;
  item->s = m->data + m->pos;
  item->len = n;
  m->pos += n;
  return TRUE;
}

/* 'l': a signed count of 15-bit digits, low first. */
static gboolean
read_long (CgMarshal *m, CgMarshalItem *item, GError **error)
{
  guint32 raw;
  if (!read_u32 (m, &raw, item->offset, "an integer's digit count", error))
    return FALSE;
  gint32 count = (gint32) raw;
  guint64 size = count < 0 ? (guint64) (-(gint64) count) : (guint64) count;
  if (size > (m->len - m->pos) / 2)
    return fail (m, error, CG_ERROR_TRUNCATED, item->offset, "an integer of %" G_GUINT64_FORMAT " digits needs twice"
                 " as many bytes, the file has %" G_GSIZE_FORMAT " (truncated)", size, m->len - m->pos);
  guint64 magnitude = 0;
  item->big = FALSE;
  for (guint64 i = 0; i < size; i++)
    {
      guint d = (guint) m->data[m->pos] | (guint) m->data[m->pos + 1] << 8;
      m->pos += 2;
      if (d >= 1u << 15)
        return fail (m, error, CG_ERROR_PARSE, item->offset, "an integer's digit %u is out of range (15 bits)", d);
      if (i == size - 1 && d == 0)
        return fail (m, error, CG_ERROR_PARSE, item->offset, "an integer's last digit is 0 (not normalized)");
      if (i * 15 >= 63 || ((guint64) d >> (63 - i * 15)) != 0)
        item->big = TRUE;
      else
        magnitude |= (guint64) d << (i * 15);
    }
  item->kind = CG_MARSHAL_INT;
  item->n = count < 0 ? -(gint64) magnitude : (gint64) magnitude;
  return TRUE;
}

/* 'f': a double as text, of a one-byte length. */
static gboolean
read_text_float (CgMarshal *m, CgMarshalItem *item, GError **error)
{
  CgMarshalItem text = { .offset = item->offset };
  if (!read_bytes (m, FALSE, &text, error))
    return FALSE;
  char buf[256];
  memcpy (buf, text.s, text.len);
  buf[text.len] = '\0';
  char *end;
  item->x = g_ascii_strtod (buf, &end);
  if (text.len == 0 || *end != '\0')
    return fail (m, error, CG_ERROR_PARSE, item->offset, "a float's text is no number");
  item->kind = CG_MARSHAL_FLOAT;
  return TRUE;
}

/* A reference's entry as the item it stands for. */
static gboolean
resolve (CgMarshal *m, CgMarshalItem *item, GError **error)
{
  guint32 index;
  if (!read_u32 (m, &index, item->offset, "a reference", error))
    return FALSE;
  if (index >= m->refs->len)
    return fail (m, error, CG_ERROR_PARSE, item->offset, "a reference to object %u, of %u read", index, m->refs->len);
  const Ref *r = &g_array_index (m->refs, Ref, index);
  switch (r->kind)
    {
    case CG_MARSHAL_TUPLE:
    case CG_MARSHAL_DICT:
      if (!r->whole)
        return fail (m, error, CG_ERROR_PARSE, item->offset, "a reference to object %u, which contains it", index);
      item->kind = CG_MARSHAL_CONTAINER_REF;
      item->type = r->type;
      item->meaning = r->meaning;
      break;
    case CG_MARSHAL_STRING:
      item->s = m->data + r->at;
      item->len = r->len;
      G_GNUC_FALLTHROUGH;
    default:
      item->kind = r->kind;
      item->n = r->n;
      item->big = r->big;
      item->x = r->x;
    }
  return TRUE;
}

/* 'R' (versions 1 and 2): the Nth string read as 't'. */
static gboolean
resolve_interned (CgMarshal *m, CgMarshalItem *item, GError **error)
{
  guint32 index;
  if (!read_u32 (m, &index, item->offset, "an interned string's index", error))
    return FALSE;
  if (index >= m->strings->len)
    return fail (m, error, CG_ERROR_PARSE, item->offset, "a reference to interned string %u, of %u read", index,
                 m->strings->len);
  const Ref *r = &g_array_index (m->strings, Ref, index);
  item->kind = CG_MARSHAL_STRING;
  item->s = m->data + r->at;
  item->len = r->len;
  return TRUE;
}

gboolean
cg_marshal_next (CgMarshal *m, CgMarshalItem *item, GError **error)
{
  *item = (CgMarshalItem) { .offset = m->pos, .ref = CG_MARSHAL_NO_REF };
  if (!need (m, 1, item->offset, "an object", error))
    return FALSE;
  guint8 byte = m->data[m->pos++];
  item->type = byte & ~FLAG_REF;
  /* containers take their entry before their contents */
  gboolean flagged = (byte & FLAG_REF) != 0;
  guint32 n;
  gboolean ok = TRUE;
  switch (item->type)
    {
    case 'N':
      item->kind = CG_MARSHAL_NONE;
      break;
    case 'T': case 'F': case 'S': case '.':
      item->kind = CG_MARSHAL_OTHER;
      break;
    case 'i':
      ok = read_u32 (m, &n, item->offset, "an integer", error);
      item->kind = CG_MARSHAL_INT;
      item->n = (gint32) n;
      break;
    case 'I':
      ok = need (m, 8, item->offset, "a 64-bit integer", error);
      if (ok)
        {
          item->kind = CG_MARSHAL_INT;
          item->n = (gint64) ((guint64) u32 (m->data + m->pos) | (guint64) u32 (m->data + m->pos + 4) << 32);
          m->pos += 8;
        }
      break;
    case 'l':
      ok = read_long (m, item, error);
      break;
    case 'g':
      ok = need (m, 8, item->offset, "a float", error);
      if (ok)
        {
          guint64 bits = (guint64) u32 (m->data + m->pos) | (guint64) u32 (m->data + m->pos + 4) << 32;
          memcpy (&item->x, &bits, sizeof item->x);
          item->kind = CG_MARSHAL_FLOAT;
          m->pos += 8;
        }
      break;
    case 'f':
      ok = read_text_float (m, item, error);
      break;
    case 'y':
      ok = need (m, 16, item->offset, "a complex number", error);
      m->pos += ok ? 16 : 0;
      item->kind = CG_MARSHAL_OTHER;
      break;
    case 'x':
      ok = read_bytes (m, FALSE, item, error) && read_bytes (m, FALSE, item, error);
      item->kind = CG_MARSHAL_OTHER;
      break;
    case 'u': case 's': case 't': case 'a': case 'A':
      ok = read_bytes (m, TRUE, item, error);
      break;
    case 'z': case 'Z':
      ok = read_bytes (m, FALSE, item, error);
      break;
    case 'r':
      return resolve (m, item, error);
    case 'R':
      return resolve_interned (m, item, error);
    case '(': case '[': case '<': case '>':
      ok = read_u32 (m, &n, item->offset, "a container's count", error);
      /* each member takes at least its type byte */
      if (ok && n > m->len - m->pos)
        ok = need (m, (gsize) n, item->offset, "a container's members", error);
      item->kind = item->type == '(' ? CG_MARSHAL_TUPLE : CG_MARSHAL_OTHER;
      item->n = n;
      break;
    case ')':
      ok = need (m, 1, item->offset, "a small tuple's count", error);
      if (ok)
        {
          item->n = m->data[m->pos++];
          ok = (gsize) item->n <= m->len - m->pos || need (m, (gsize) item->n, item->offset, "a tuple's members", error);
        }
      item->kind = CG_MARSHAL_TUPLE;
      break;
    case ':':
      item->kind = CG_MARSHAL_OTHER;
      item->n = 3;
      break;
    case '{':
      item->kind = CG_MARSHAL_DICT;
      break;
    case '0':
      item->kind = CG_MARSHAL_DICT_END;
      break;
    case 'c':
      item->kind = CG_MARSHAL_CODE;
      break;
    default:
      m->pos--;
      return fail (m, error, CG_ERROR_PARSE, item->offset, "type byte 0x%02x is no marshal type", byte);
    }
  if (!ok)
    return FALSE;
  if (item->type == 't')
    {
      Ref s = { .kind = CG_MARSHAL_STRING, .at = (gsize) (item->s - m->data), .len = item->len };
      g_array_append_val (m->strings, s);
    }
  if (flagged)
    {
      Ref r = { .kind = item->kind, .type = item->type, .big = item->big, .n = item->n, .x = item->x };
      if (item->kind == CG_MARSHAL_STRING)
        r.at = (gsize) (item->s - m->data), r.len = item->len;
      /* a list, set or code object is one more container, never referred
       * to by what a profile's reader looks for */
      if (item->kind == CG_MARSHAL_OTHER || item->kind == CG_MARSHAL_CODE)
        r.kind = CG_MARSHAL_TUPLE, r.whole = item->n == 0 && item->kind == CG_MARSHAL_OTHER && item->type != ':';
      item->ref = m->refs->len;
      g_array_append_val (m->refs, r);
    }
  return TRUE;
}

void
cg_marshal_set_meaning (CgMarshal *m, const CgMarshalItem *item, guint64 meaning)
{
  if (item->ref == CG_MARSHAL_NO_REF)
    return;
  Ref *r = &g_array_index (m->refs, Ref, item->ref);
  r->meaning = meaning;
  r->whole = TRUE;
}

/* ---- skipping code objects ---- */

/* A container being skipped: its members left, or a dict's (until its
 * '0'; value_next: a key was read), or a code object's fields left, 'L'
 * a 32-bit field, 'O' an object. */
typedef struct {
  CgMarshalItem item;
  gint64 left;
  gboolean dict, value_next;
  const char *fields;
} Frame;

static const char fields_311[] = "LLLLLOOOOOOOOLOO"; /* 3.11 on */
static const char fields_38[] = "LLLLLLOOOOOOOOLO";  /* 3.8 to 3.10 */

/* Whether a bytes object (the bytecode) starts @skip bytes on. */
static gboolean
bytes_at (const CgMarshal *m, gsize skip)
{
  return m->len - m->pos > skip && (m->data[m->pos + skip] & ~FLAG_REF) == 's';
}

static gboolean
is_container (const CgMarshalItem *item)
{
  return item->kind == CG_MARSHAL_DICT || item->kind == CG_MARSHAL_CODE
         || ((item->kind == CG_MARSHAL_TUPLE || item->kind == CG_MARSHAL_OTHER) && item->n > 0);
}

static gboolean
push (CgMarshal *m, GArray *stack, const CgMarshalItem *item, GError **error)
{
  Frame f = { .item = *item, .left = item->n, .dict = item->kind == CG_MARSHAL_DICT };
  if (item->kind == CG_MARSHAL_CODE)
    {
      if (bytes_at (m, 20))
        f.fields = fields_311;
      else if (bytes_at (m, 24))
        f.fields = fields_38;
      else
        return fail (m, error, CG_ERROR_PARSE, item->offset,
                     "a code object of a layout other than Python 3.8's to 3.14's");
    }
  g_array_append_val (stack, f);
  return TRUE;
}

gboolean
cg_marshal_skip_code (CgMarshal *m, GError **error)
{
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  /* the code object's item was read: its entry is the last one taken, if any */
  CgMarshalItem code = { .kind = CG_MARSHAL_CODE, .offset = m->pos - 1, .ref = CG_MARSHAL_NO_REF };
  if ((m->data[m->pos - 1] & FLAG_REF) != 0)
    code.ref = m->refs->len - 1;
  if (!push (m, stack, &code, error))
    return FALSE;
  while (stack->len > 0)
    {
      Frame *top = &g_array_index (stack, Frame, stack->len - 1);
      if (top->fields ? *top->fields == '\0' : !top->dict && top->left == 0)
        {
          cg_marshal_set_meaning (m, &top->item, 0);
          g_array_set_size (stack, stack->len - 1);
          continue;
        }
      if (top->fields && *top->fields == 'L')
        {
          top->fields++;
          guint32 ignored;
          if (!read_u32 (m, &ignored, top->item.offset, "a code object's field", error))
            return FALSE;
          continue;
        }
      CgMarshalItem item;
      if (!cg_marshal_next (m, &item, error))
        return FALSE;
      if (item.kind == CG_MARSHAL_DICT_END)
        {
          if (!top->dict || top->value_next)
            return fail (m, error, CG_ERROR_PARSE, item.offset, "a dict's end where an object was expected");
          top->dict = FALSE;
          top->left = 0;
          continue;
        }
      if (top->fields)
        top->fields++;
      else if (top->dict)
        top->value_next = !top->value_next;
      else
        top->left--;
      if (is_container (&item))
        {
          if (!push (m, stack, &item, error))
            return FALSE;
        }
      else
        cg_marshal_set_meaning (m, &item, 0);
    }
  return TRUE;
}
