/* cg-write-profile.h — a cost result as text for people.
 *
 * A flat profile (functions by self cost, with their totals) and a
 * call-graph profile in gprof's spirit (Graham et al. 1982 §5): for each
 * function in order of total, its callers above it and its callees below,
 * each with the cost the arc carried and its calls.  The header says which
 * method produced the totals; estimated totals are marked "~".
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-profile.h"

G_BEGIN_DECLS

/* Writes the report of @costs for @event (cycles, when given, mark their
 * members), names demangled (cg_demangle) when @demangle; @brief leaves
 * out the lines on the profile, event and method, and the explanations of
 * the headings (gprof -b).  Write errors are left in the stream's error
 * flag; FALSE on 64-bit overflow of the profile's total. */
gboolean cg_write_profile_text (CgProfile *profile, const CgCosts *costs, guint event, gboolean demangle,
                                gboolean brief, FILE *stream, GError **error);

G_END_DECLS
