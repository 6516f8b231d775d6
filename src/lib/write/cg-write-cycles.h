/* cg-write-cycles.h — the cycles of a profile as text for people.
 *
 * One block per cycle: its number, size, summed self cost, how often it
 * was entered from outside and how many calls stayed inside, its exact
 * total where measured inclusive costs allow (the calls entering a cycle
 * never nest), then its members with their self costs.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-cycles.h"
#include "cg-graph.h"
#include "cg-profile.h"

G_BEGIN_DECLS

/* Writes the cycles of @graph for @event to @stream, names demangled
 * (cg_demangle) when @demangle; @brief leaves out what the heading
 * explains; a member's line fits in @width columns (0: no limit), its
 * name losing its middle (cg_fit_line).  Write errors are left in the
 * stream's error flag.  FALSE on 64-bit overflow. */
gboolean cg_write_cycles_text (CgGraph *graph, const CgCycles *cycles, guint event, gboolean demangle,
                               gboolean brief, guint width, FILE *stream, GError **error);

/* Lists the cycles the run of a context profile went round
 * (cg_spivey_traversed_cycles) for @event, names demangled when
 * @demangle, each cycle's line fitted in @width columns as a chain of
 * its members ("a, …, z": cg_fit_line; 0: no limit).  Write errors are
 * left in the stream's error flag; FALSE with CG_ERROR_UNSUPPORTED
 * without contexts, CG_ERROR_OVERFLOW. */
gboolean cg_write_traversed_cycles_text (CgProfile *profile, guint event, gboolean demangle, gboolean brief,
                                         guint width, FILE *stream, GError **error);

G_END_DECLS
