/* cg-read-pprof.h — reader for pprof's profile.proto (formats/pprof.md).
 *
 * The format of google/pprof's proto/profile.proto and its README: a
 * protocol-buffers message Profile, gzip-compressed on disk (cg-input
 * undoes the compression), as Go's runtime/pprof and `go test
 * -cpuprofile`, gperftools' newer pprof, Parca and Pyroscope write it.
 * Its parts refer to one another by ids and to a string table by index:
 *   sample_type (1): ValueType {type (1), unit (2)}, one per value;
 *   sample (2): location_id (1, repeated, the leaf first), value (2,
 *     repeated int64, one per sample_type), label (3);
 *   mapping (3): id (1), filename (5), ...;
 *   location (4): id (1), mapping_id (2), address (3), line (4, repeated:
 *     function_id (1), line (2)); several lines are inlined frames, the
 *     first the innermost;
 *   function (5): id (1), name (2), system_name (3), filename (4),
 *     start_line (5);
 *   string_table (6), whose entry 0 is "";
 *   drop_frames (7), keep_frames (8), default_sample_type (14) as string
 *   indexes, and informational fields (times, period, comments).
 * Repeated scalars are taken packed or not; fields in any order; fields
 * of a number profile.proto does not define are skipped (newer versions
 * add some).
 *
 * What is built, as for perf script's sampled stacks (cg-read-perf.h) and
 * folded stacks: each sample is a path of the call tree G_0, root first,
 * its values added to the self cost of the path's last frame (Kaes 2005,
 * "Computing the call graph"); the graph merges frames of one function.
 * A location with several lines is that many frames, the outermost
 * nearest the root, as pprof shows inlined calls.  A frame's function is
 * (object, name): the object the base name of the location's mapping's
 * file ("" without one: go test runs its binary from a new temporary
 * directory each time, and two runs' functions must be one), the name the
 * Function's name (its system_name when the name is empty), its source
 * file and start line recorded; a location
 * without lines is named as pprof's default view names it, "[FILE]" with
 * the base name of its mapping's file, or "<unknown>" without one, and so
 * is a sample without locations.  Call counts are 0: sampling records
 * none.
 *
 * Events: one per sample_type, named by its type, in its unit
 * ("nanoseconds", "microseconds", "milliseconds" as "ns", "us", "ms", so
 * that views show times; others as written, "count", "bytes"); the event
 * pprof shows by default (default_sample_type, else the last) first, so
 * that it is the tools' default too.  drop_frames and keep_frames are
 * applied as pprof's profile.Prune applies them (cg-pprof-prune.h): the
 * frames they drop go, with those nearer the leaf.  Labels, the period and
 * the times are checked and not kept.
 *
 * Complexity: O(bytes) with one hash look-up per id (GHashTable), the
 * whole input in memory (mapped when it is a file; decompressed into
 * memory when compressed); no recursion.
 */
#pragma once

#include <glib.h>

#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* Adds the samples of the profile.proto message in @input to @profile
 * (its call tree, created when absent, and its graph).
 * Errors, "NAME: offset N: ..." (offsets in the decompressed bytes):
 * CG_ERROR_TRUNCATED for a varint or a payload that the input or its
 * message ends inside; CG_ERROR_PARSE for malformed protocol buffers (a
 * varint beyond 64 bits, a wire type that is not the field's), an id 0 or
 * repeated, a reference to an id no mapping, location or function has, a
 * string index outside the string table, string_table[0] not empty, a
 * sample whose values are not one per sample_type or negative (pprof
 * -diff_base's profiles), two sample_types of one type, drop_frames or
 * keep_frames that GRegex does not take for a regular expression or that
 * backtracks to PCRE's match limit on a function's name;
 * CG_ERROR_OVERFLOW when a 64-bit cost sum overflows or the tree would
 * exceed 2^32 frames; CG_ERROR_MISMATCH when an event exists with another
 * unit. */
gboolean cg_read_pprof (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error);

/* The row of cg-formats.h's table: TRUE when @data (@len bytes, @complete:
 * the whole input) parse as a Profile message: every field one of
 * Profile's (1 to 14) with its wire type, the sub-messages' fields of
 * theirs (a field of a number profile.proto does not define is taken below
 * Profile when it is a varint, as every field added so far), string_table's
 * first entry empty, and at least one whole message or string.  A payload
 * the window cuts is checked as far as it goes, and a window cut is taken
 * after a whole message or string (every writer known puts sample_type, a
 * few bytes, first).  Bytes that stop parsing (a whole input that ends
 * inside a field, a malformed field) after a whole sample_type and two
 * more whole parts are a damaged profile, taken so that the reader names
 * the offset. */
gboolean cg_pprof_detect (const guint8 *data, gsize len, gboolean complete);

G_END_DECLS
