/* cg-protobuf.c — protocol buffers' wire format, read with bounds checks. */
#include "config.h"

#include "cg-protobuf.h"

#include "cg-error.h"
#include "cg-read-options.h"

/* Why a read stopped, for the quiet and the reporting readers alike. */
typedef enum {
  PB_OK,
  PB_CUT,       /* the bytes end inside a varint or a payload */
  PB_OVERLONG,  /* a varint of more than 64 bits */
  PB_BAD_TAG,   /* field number 0 or too large */
  PB_BAD_WIRE,  /* wire type 3, 4, 6 or 7 */
  PB_PAST_END,  /* a length (in the field's value) beyond the message's end */
} PbStatus;

CgPbCursor
cg_pb_cursor (const guint8 *data, gsize len, const char *name, const char *message)
{
  return (CgPbCursor) { .data = data, .pos = 0, .end = len, .name = name, .message = message };
}

CgPbCursor
cg_pb_sub (const CgPbCursor *c, const CgPbField *field, const char *message, guint kind)
{
  return (CgPbCursor) { .data = c->data, .pos = field->start, .end = field->start + field->len, .name = c->name,
                        .message = message, .namer = c->namer, .kind = kind };
}

/* "Sample field 1 (location_id)", or without the name where the namer
 * has none, into @buf. */
static const char *
label (const CgPbCursor *c, guint32 number, char *buf, gsize size)
{
  const char *n = c->namer ? c->namer (c->kind, number) : NULL;
  if (n)
    g_snprintf (buf, size, "%s field %u (%s)", c->message, number, n);
  else
    g_snprintf (buf, size, "%s field %u", c->message, number);
  return buf;
}

/* Reads a varint at *@pos (before @end) into *@value. */
static PbStatus
varint (const guint8 *data, gsize *pos, gsize end, guint64 *value)
{
  guint64 v = 0;
  for (guint i = 0; i < 10; i++)
    {
      if (*pos >= end)
        return PB_CUT;
      guint8 b = data[(*pos)++];
      /* the tenth byte holds bit 63 alone */
      if (i == 9 && b > 1)
        return PB_OVERLONG;
      v |= (guint64) (b & 0x7f) << (7 * i);
      if (b < 0x80)
        {
          *value = v;
          return PB_OK;
        }
    }
  return PB_OVERLONG;
}

/* Reads the field at c->pos; on failure *@at is where the trouble is. */
static PbStatus
next_field (CgPbCursor *c, CgPbField *f, gsize *at)
{
  f->at = *at = c->pos;
  f->number = 0;
  guint64 tag;
  PbStatus s = varint (c->data, &c->pos, c->end, &tag);
  if (s != PB_OK)
    return s;
  if (tag >> 3 == 0 || tag >> 3 > 0x1fffffff)
    return PB_BAD_TAG;
  f->number = (guint32) (tag >> 3);
  f->wire = (CgPbWire) (tag & 7);
  *at = c->pos;
  gsize left = c->end - c->pos;
  switch (tag & 7)
    {
    case CG_PB_VARINT:
      return varint (c->data, &c->pos, c->end, &f->value);
    case CG_PB_FIXED64:
    case CG_PB_FIXED32:
      {
        guint n = (tag & 7) == CG_PB_FIXED64 ? 8 : 4;
        if (left < n)
          return PB_CUT;
        f->value = 0;
        for (guint i = 0; i < n; i++)
          f->value |= (guint64) c->data[c->pos + i] << (8 * i);
        c->pos += n;
        return PB_OK;
      }
    case CG_PB_LEN:
      {
        guint64 len;
        s = varint (c->data, &c->pos, c->end, &len);
        if (s != PB_OK)
          return s;
        if (len > c->end - c->pos)
          {
            f->value = len;
            f->start = c->pos;
            f->len = c->end - c->pos;
            return PB_PAST_END;
          }
        f->start = c->pos;
        f->len = (gsize) len;
        c->pos += (gsize) len;
        return PB_OK;
      }
    default:
      *at = f->at;
      return PB_BAD_WIRE;
    }
}

int
cg_pb_next_quiet (CgPbCursor *c, CgPbField *field)
{
  if (c->pos >= c->end)
    return 0;
  gsize at;
  PbStatus s = next_field (c, field, &at);
  return s == PB_OK ? 1 : s == PB_CUT ? -2 : s == PB_PAST_END ? -3 : -1;
}

static const char *
wire_name (guint wire)
{
  static const char *const names[] = { "a varint", "a fixed64", "a length-delimited payload",
                                       "a group start (3)", "a group end (4)", "a fixed32",
                                       "wire type 6", "wire type 7" };
  return names[wire & 7];
}

gboolean
cg_pb_next (CgPbCursor *c, CgPbField *field, GError **error)
{
  if (c->pos >= c->end)
    return FALSE;
  gsize start = c->pos, at;
  PbStatus s = next_field (c, field, &at);
  char buf[128];
  switch (s)
    {
    case PB_OK:
      return TRUE;
    case PB_CUT:
      if (at == start)
        return cg_read_fail (error, CG_ERROR_TRUNCATED, c->name, CG_AT_OFFSET, at,
                             "%s ends inside a field's tag (expected a varint of at most 10 bytes)", c->message);
      return cg_read_fail (error, CG_ERROR_TRUNCATED, c->name, CG_AT_OFFSET, at,
                           "%s: the %s ends inside %s%s", label (c, field->number, buf, sizeof buf), c->message,
                           field->wire == CG_PB_LEN ? "the length of " : "", wire_name (field->wire));
    case PB_PAST_END:
      return cg_read_fail (error, CG_ERROR_TRUNCATED, c->name, CG_AT_OFFSET, at,
                           "%s: a length of %" G_GUINT64_FORMAT " bytes runs past the end of the %s"
                           " (%" G_GSIZE_FORMAT " bytes remain)",
                           label (c, field->number, buf, sizeof buf), field->value, c->message, field->len);
    case PB_OVERLONG:
      return cg_read_fail (error, CG_ERROR_PARSE, c->name, CG_AT_OFFSET, at,
                           "%s: a varint longer than 64 bits (expected at most 10 bytes, the 10th 0 or 1)",
                           c->message);
    case PB_BAD_TAG:
      return cg_read_fail (error, CG_ERROR_PARSE, c->name, CG_AT_OFFSET, at,
                           "%s: field number %s (expected 1 to 536870911: not protocol buffers, or corrupt)",
                           c->message, field->number == 0 ? "0" : "out of range");
    default:
      return cg_read_fail (error, CG_ERROR_PARSE, c->name, CG_AT_OFFSET, at,
                           "%s has %s (expected a varint, a length-delimited payload or a fixed"
                           " 32 or 64 bits: not protocol buffers, or corrupt)",
                           label (c, field->number, buf, sizeof buf), wire_name (field->wire));
    }
}

gboolean
cg_pb_expect (const CgPbCursor *c, const CgPbField *field, CgPbWire wire, const char *what, GError **error)
{
  if (field->wire == wire)
    return TRUE;
  return cg_read_fail (error, CG_ERROR_PARSE, c->name, CG_AT_OFFSET, field->at, "%s field %u (%s) has %s, expected %s",
                       c->message, field->number, what, wire_name (field->wire), wire_name (wire));
}

gboolean
cg_pb_varints (const CgPbCursor *c, const CgPbField *field, const char *what, CgPbVarints *values,
               GError **error)
{
  *values = (CgPbVarints) { 0 };
  if (field->wire == CG_PB_VARINT)
    {
      values->is_single = TRUE;
      values->single = field->value;
      return TRUE;
    }
  if (field->wire == CG_PB_LEN)
    {
      values->packed = cg_pb_sub (c, field, c->message, c->kind);
      return TRUE;
    }
  return cg_read_fail (error, CG_ERROR_PARSE, c->name, CG_AT_OFFSET, field->at,
                       "%s field %u (%s) has %s, expected varints (one, or packed in a length-delimited"
                       " payload)",
                       c->message, field->number, what, wire_name (field->wire));
}

gboolean
cg_pb_varints_next (CgPbVarints *values, guint64 *value, GError **error)
{
  if (values->is_single)
    {
      if (values->done)
        return FALSE;
      values->done = TRUE;
      *value = values->single;
      return TRUE;
    }
  CgPbCursor *c = &values->packed;
  if (c->pos >= c->end)
    return FALSE;
  gsize at = c->pos;
  PbStatus s = varint (c->data, &c->pos, c->end, value);
  if (s == PB_OK)
    return TRUE;
  if (s == PB_CUT)
    return cg_read_fail (error, CG_ERROR_TRUNCATED, c->name, CG_AT_OFFSET, at,
                         "%s: packed varints end inside a varint (expected the last to end with the payload)",
                         c->message);
  return cg_read_fail (error, CG_ERROR_PARSE, c->name, CG_AT_OFFSET, at,
                       "%s: a varint longer than 64 bits (expected at most 10 bytes, the 10th 0 or 1)", c->message);
}
