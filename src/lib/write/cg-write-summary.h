/* cg-write-summary.h — a merged profile as text for people (cgmerge).
 *
 * What the sum holds before any cost method runs: its sources, its size
 * (functions, objects, arcs and the calls on them, call-tree frames,
 * contexts), each event with its total, then every function's self costs
 * in every event, in order of self cost in the first event (then name),
 * with the calls it received from other functions.  Self costs are what
 * the profiler measured, so nothing here is estimated; totals are
 * cgcost's business.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-profile.h"

G_BEGIN_DECLS

/* Writes the summary of @profile to @stream, names demangled (cg_demangle)
 * when @demangle; @brief: the table of functions alone, without the lines
 * that describe the profile and its events (gprof -b).  Write errors are left in the stream's error flag.
 * FALSE (CG_ERROR_OVERFLOW) when an event's total or the number of calls
 * exceeds 64 bits. */
gboolean cg_write_summary_text (CgProfile *profile, gboolean demangle, gboolean brief, FILE *stream,
                                GError **error);

G_END_DECLS
