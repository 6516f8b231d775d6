/* cg-protobuf.h — a bounds-checked cursor over protocol buffers' wire format.
 *
 * The encoding Google's protobuf documentation calls "Encoding": a
 * message is a run of fields, each a tag varint (field number << 3 |
 * wire type) and a payload: a varint (wire type 0), 8 bytes (1), a
 * length varint and that many bytes (2: strings, bytes, sub-messages and
 * packed repeated scalars), or 4 bytes (5).  Wire types 3 and 4 (groups,
 * deprecated) and 6, 7 (none) are refused.  A varint is at most 10 bytes,
 * 7 bits each, low first; the 10th may hold one bit only.  Fields may come
 * in any order; a repeated scalar may be written packed (one field of
 * wire type 2) or not (one field per value), and readers take both.
 *
 * For cg-read-pprof: the cursor reads one message's bytes inside a buffer
 * the caller owns (borrowed, valid while the cursor is used); offsets in
 * messages are from the start of that buffer, the whole input.  Every
 * length read from the data is checked against what remains before it is
 * used (no addition that can overflow), and nothing recurses: a
 * sub-message is a new cursor over its payload, which the caller opens.
 *
 * Errors: CG_ERROR_TRUNCATED or CG_ERROR_PARSE, "NAME: offset N: what was
 * found, what was expected" (cg_read_fail).  Complexity: O(bytes read).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  CG_PB_VARINT = 0,
  CG_PB_FIXED64 = 1,
  CG_PB_LEN = 2,
  CG_PB_FIXED32 = 5,
} CgPbWire;

/* The name of field @number of messages of type @kind ("location_id"),
 * or NULL, for errors. */
typedef const char *(*CgPbNamer) (guint kind, guint32 number);

/* One message's bytes [pos, end) of @data; @name (the input's) and
 * @message (the message's type, "Sample") are for errors (borrowed), and
 * so is @namer (nullable), which names its fields, @kind telling the
 * message's type. */
typedef struct {
  const guint8 *data;
  gsize pos, end;
  const char *name;
  const char *message;
  CgPbNamer namer;
  guint kind;
} CgPbCursor;

/* A field as read: its number and wire type, the offset of its tag, and
 * its payload: the value (varint, fixed64, fixed32) or, for CG_PB_LEN,
 * the payload's offset and length. */
typedef struct {
  guint32 number;
  CgPbWire wire;
  gsize at;
  guint64 value;
  gsize start, len;
} CgPbField;

/* A cursor over @len bytes at @data, all of them one message. */
CgPbCursor cg_pb_cursor (const guint8 *data, gsize len, const char *name, const char *message);

/* A cursor over the payload of @field (CG_PB_LEN), read from @c, as a
 * message of type @message (@kind for @c's namer). */
CgPbCursor cg_pb_sub (const CgPbCursor *c, const CgPbField *field, const char *message, guint kind);

/* Reads the next field of @c into @field.  FALSE at the end of the
 * message (error unset) or on error (set): a truncated varint, a varint
 * beyond 64 bits, a field number 0 or beyond 2^29-1, a wire type that is
 * none of 0, 1, 2, 5, a payload that runs past the message's end. */
gboolean cg_pb_next (CgPbCursor *c, CgPbField *field, GError **error);

/* The same without an error, for detectors: 1 a field, 0 the end, -1
 * malformed, -2 the bytes end inside the field (a detection window cut
 * it; @field->number and @field->wire are read unless the number is 0),
 * -3 they end inside its length-delimited payload (whose length is
 * @field->value, and whose @field->len bytes at @field->start are
 * there).  Never allocates. */
int cg_pb_next_quiet (CgPbCursor *c, CgPbField *field);

/* Checks that @field of @c has wire type @wire; else CG_ERROR_PARSE:
 * "offset N: Sample field 2 (value) has wire type W, expected a varint". */
gboolean cg_pb_expect (const CgPbCursor *c, const CgPbField *field, CgPbWire wire, const char *what,
                       GError **error);

/* The values of a repeated varint field, packed or not: @field's value
 * when it is a varint, else the varints its payload holds. */
typedef struct {
  CgPbCursor packed;
  guint64 single;
  gboolean is_single, done;
} CgPbVarints;

/* Starts reading the values of @field (of @c) of the repeated field
 * @what; error CG_ERROR_PARSE when its wire type is neither 0 nor 2. */
gboolean cg_pb_varints (const CgPbCursor *c, const CgPbField *field, const char *what, CgPbVarints *values,
                        GError **error);

/* The next value into *@value: FALSE at the end (error unset) or on error
 * (a truncated or overlong varint in the packed payload). */
gboolean cg_pb_varints_next (CgPbVarints *values, guint64 *value, GError **error);

/* A varint field's value as protobuf's int64: the two's complement of its
 * 64 bits (a negative int64 is written as 10 bytes). */
static inline gint64
cg_pb_int64 (guint64 value)
{
  return value <= (guint64) G_MAXINT64 ? (gint64) value : -(gint64) (~value) - 1;
}

G_END_DECLS
