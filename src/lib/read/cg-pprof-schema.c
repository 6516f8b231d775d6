/* cg-pprof-schema.c — profile.proto's messages as a table. */
#include "config.h"

#include "cg-pprof-schema.h"

typedef struct {
  const char *name;
  CgPprofKind kind;
  CgPprofMessage sub;
} Field;

#define MAX_FIELD 14
#define V(n) { n, CG_PPROF_VARINT, 0 }
#define VS(n) { n, CG_PPROF_VARINTS, 0 }
#define M(n, t) { n, CG_PPROF_MESSAGE, t }

/* Indexed by message, then field number (0 unused); numbers past a
 * message's last are unknown.  Line's column (3) and Location's is_folded
 * (5) came later than the rest: a profile may have them or not. */
static const Field schema[CG_PPROF_N_MESSAGES][MAX_FIELD + 1] = {
  [CG_PPROF_PROFILE] = { {0}, M ("sample_type", CG_PPROF_VALUE_TYPE), M ("sample", CG_PPROF_SAMPLE),
                         M ("mapping", CG_PPROF_MAPPING), M ("location", CG_PPROF_LOCATION),
                         M ("function", CG_PPROF_FUNCTION), { "string_table", CG_PPROF_BYTES, 0 },
                         V ("drop_frames"), V ("keep_frames"), V ("time_nanos"), V ("duration_nanos"),
                         M ("period_type", CG_PPROF_VALUE_TYPE), V ("period"), VS ("comment"),
                         V ("default_sample_type") },
  [CG_PPROF_VALUE_TYPE] = { {0}, V ("type"), V ("unit") },
  [CG_PPROF_SAMPLE] = { {0}, VS ("location_id"), VS ("value"), M ("label", CG_PPROF_LABEL) },
  [CG_PPROF_LABEL] = { {0}, V ("key"), V ("str"), V ("num"), V ("num_unit") },
  [CG_PPROF_MAPPING] = { {0}, V ("id"), V ("memory_start"), V ("memory_limit"), V ("file_offset"),
                         V ("filename"), V ("build_id"), V ("has_functions"), V ("has_filenames"),
                         V ("has_line_numbers"), V ("has_inline_frames") },
  [CG_PPROF_LOCATION] = { {0}, V ("id"), V ("mapping_id"), V ("address"), M ("line", CG_PPROF_LINE),
                          V ("is_folded") },
  [CG_PPROF_LINE] = { {0}, V ("function_id"), V ("line"), V ("column") },
  [CG_PPROF_FUNCTION] = { {0}, V ("id"), V ("name"), V ("system_name"), V ("filename"), V ("start_line") },
};

static const char *const message_names[CG_PPROF_N_MESSAGES] = {
  "Profile", "ValueType", "Sample", "Label", "Mapping", "Location", "Line", "Function",
};

CgPprofKind
cg_pprof_field_kind (CgPprofMessage message, guint32 number, CgPprofMessage *sub)
{
  if (number > MAX_FIELD)
    return CG_PPROF_UNKNOWN;
  const Field *f = &schema[message][number];
  if (sub)
    *sub = f->sub;
  return f->kind;
}

const char *
cg_pprof_message_name (CgPprofMessage message)
{
  return message_names[message];
}

const char *
cg_pprof_field_name (CgPprofMessage message, guint32 number)
{
  if (number > MAX_FIELD || schema[message][number].name == NULL)
    return "unknown";
  return schema[message][number].name;
}

gboolean
cg_pprof_wire_fits (CgPprofKind kind, CgPbWire wire)
{
  switch (kind)
    {
    case CG_PPROF_VARINT:
      return wire == CG_PB_VARINT;
    case CG_PPROF_VARINTS:
      return wire == CG_PB_VARINT || wire == CG_PB_LEN;
    case CG_PPROF_BYTES:
    case CG_PPROF_MESSAGE:
      return wire == CG_PB_LEN;
    default:
      return TRUE;
    }
}
