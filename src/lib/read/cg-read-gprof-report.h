/* cg-read-gprof-report.h — reader for the text GNU gprof prints.
 *
 * For the archived report of a profile whose gmon.out and executable are
 * gone (formats/gprof-report.md).  Reads what GNU gprof 2.40 prints in its
 * default layout (gprof.c, hist.c, cg_print.c; research notes
 * gprof-analysis.md §4-5), with or without -b: the flat profile, the call
 * graph, or both; the explanations (blurbs) and copyright notices between
 * them are skipped; <spontaneous> entries, cycles with their "as a whole"
 * entries and members, N+M recursive counts, names demangled or not, any
 * -w width of the index at the end.  The BSD layout (-T) is not read.
 *
 * What it adds to the profile:
 *  - event "time" (kind real, unit the flat profile's "seconds"), in
 *    sampling ticks with scale 1/rate, where the rate is what "Each sample
 *    counts as 0.01 seconds." implies (100 when the report has no flat
 *    profile: the call graph does not print it);
 *  - one function per name the report prints (object "", the name as
 *    printed: demangled when gprof demangled it), and a static function's
 *    file where the index names it ("frame_dummy (crtstuff.c)");
 *  - self time: the seconds printed, turned back into ticks: the flat
 *    profile's self seconds and percentages (of an integer number of
 *    samples) decide the ticks, in the bin width's fractions of a tick
 *    (samples split between two functions), so that gprof's analysis
 *    prints the same seconds again (cg-report-times.h);
 *  - an arc per caller and callee with the calls printed (N+M: M calls of
 *    the function itself), in an order that gives the report's ties back
 *    their printed order (gprof lists equal arcs in order of first
 *    appearance);
 *  - the profile's histogram (cg-histogram.h): the rate, the bin width of
 *    the granularity line, the samples of the flat profile's 100 %, and
 *    whether a call graph was printed; no address ranges.
 * Summing several reports of one program adds their self times, calls
 * and samples; their rates and granularities must agree.
 *
 * A report that holds only the flat profile has no arcs: its calls
 * column is not kept (a warning says so).
 *
 * Errors: CG_ERROR_PARSE naming the line (a line that is not what gprof
 * prints there, an arc whose two listings disagree), CG_ERROR_TRUNCATED
 * (the report ends inside a table's header), CG_ERROR_MISMATCH (rates or
 * granularities of summed reports differ), CG_ERROR_OVERFLOW.
 *
 * Complexity: O(bytes + arcs log arcs); no recursion.
 */
#pragma once

#include <glib.h>

#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* The row of cg-formats.h's table: TRUE when @data begins with what gprof
 * prints first: "Flat profile:", an empty line and "Each sample counts
 * as", or the call graph's heading, two empty lines and "granularity:
 * each sample hit covers". */
gboolean cg_gprof_report_detect (const guint8 *data, gsize len, gboolean complete);

/* Adds the report read from @input to @profile (see above). */
gboolean cg_read_gprof_report (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error);

G_END_DECLS
