/* cg-pprof-schema.h — the field numbers and wire types of profile.proto's
 * messages (google/pprof's proto/profile.proto), for the detector and
 * the reader of cg-read-pprof.c.
 *
 * A field's kind says what its wire type must be: a varint, varints (a
 * repeated scalar, packed or not), bytes (a string) or a sub-message of
 * the named type.  Three levels deep at most (Profile, then Sample or
 * Location, then Label or Line), so that a check that descends is bounded
 * by the schema, never by the data.
 */
#pragma once

#include <glib.h>

#include "cg-protobuf.h"

G_BEGIN_DECLS

typedef enum {
  CG_PPROF_UNKNOWN = 0, /* a number the message does not define */
  CG_PPROF_VARINT,      /* one varint (int64, uint64, bool) */
  CG_PPROF_VARINTS,     /* a repeated varint field: one, or packed */
  CG_PPROF_BYTES,       /* a string */
  CG_PPROF_MESSAGE,     /* a sub-message, of the type in @sub */
} CgPprofKind;

typedef enum {
  CG_PPROF_PROFILE,
  CG_PPROF_VALUE_TYPE,
  CG_PPROF_SAMPLE,
  CG_PPROF_LABEL,
  CG_PPROF_MAPPING,
  CG_PPROF_LOCATION,
  CG_PPROF_LINE,
  CG_PPROF_FUNCTION,
  CG_PPROF_N_MESSAGES,
} CgPprofMessage;

/* Profile's fields (profile.proto) */
enum {
  CG_PPROF_SAMPLE_TYPE = 1,
  CG_PPROF_SAMPLES = 2,
  CG_PPROF_MAPPINGS = 3,
  CG_PPROF_LOCATIONS = 4,
  CG_PPROF_FUNCTIONS = 5,
  CG_PPROF_STRING_TABLE = 6,
  CG_PPROF_DROP_FRAMES = 7,
  CG_PPROF_KEEP_FRAMES = 8,
  CG_PPROF_COMMENT = 13,
  CG_PPROF_DEFAULT_SAMPLE_TYPE = 14,
};

/* The kind of field @number of @message, and in *@sub the sub-message's
 * type when it is CG_PPROF_MESSAGE. */
CgPprofKind cg_pprof_field_kind (CgPprofMessage message, guint32 number, CgPprofMessage *sub);

/* The message's name, for errors ("Sample"). */
const char *cg_pprof_message_name (CgPprofMessage message);

/* The field's name, for errors ("location_id"), or "unknown". */
const char *cg_pprof_field_name (CgPprofMessage message, guint32 number);

/* Whether @wire suits @kind (a repeated scalar: a varint or a packed
 * payload; an unknown field: any wire type). */
gboolean cg_pprof_wire_fits (CgPprofKind kind, CgPbWire wire);

G_END_DECLS
