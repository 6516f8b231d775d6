/* cg-read-amon.h — reader for amon.out, the context profiles libamon
 * writes (formats/amon.md, amon.out(5)).
 *
 * Routines become functions (object path, name); a routine the runtime
 * could not name gets the name of the executable's symbol that holds its
 * offset (cg-symbols.h, gprof's rules) when CgReadOptions.executable is
 * given and the routine is in the main program, else "0xOFFSET" (its
 * address less its object's load bias).
 * Contexts become the profile's contexts (cg-contexts.h) with their time
 * in nanoseconds, whatever the clock (event "cpu-time" for AMON_CLOCK=cpu,
 * "wall-time" for wall and tsc, unit seconds, scale 1e-9), so files from
 * different runs merge.  The graph gets each context's time as self cost
 * of its running routine, its entries as calls on the arc from s_{n-1},
 * its direct recursive calls on the self-arc, and an arc for every item.
 *
 * Every size and count is checked against the bytes that remain before
 * anything is allocated; the whole-run totals must match the contexts
 * (a warning with CgReadOptions.lenient).  A file whose profiling stopped
 * early is read, with a warning naming the reason.
 *
 * Complexity: O(file size).
 */
#pragma once

#include <glib.h>

#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* TRUE when @data (@len bytes) starts with amon.out's magic (a row of
 * cg-formats.h's table; @complete is not needed). */
gboolean cg_amon_detect (const guint8 *data, gsize len, gboolean complete);

/* Adds the amon.out read from @input to @profile.  Errors (messages
 * "NAME: offset N: ..."): CG_ERROR_PARSE for malformed data,
 * CG_ERROR_TRUNCATED when the file ends before its END section,
 * CG_ERROR_UNSUPPORTED for another format version, CG_ERROR_MISMATCH when
 * totals disagree (not lenient), CG_ERROR_OVERFLOW, CG_ERROR_IO for an
 * unreadable executable. */
gboolean cg_read_amon (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error);

G_END_DECLS
