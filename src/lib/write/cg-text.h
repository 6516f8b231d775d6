/* cg-text.h — what every view for people shares: costs in the event's
 * unit, the sources a profile was read from, the note on the method.
 *
 * The writers for people (the text report, the display tree as text, HTML
 * and dot, the summary, the difference) include this header, not one
 * another's.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-diff.h"
#include "cg-profile.h"

G_BEGIN_DECLS

/* Appends @v (of @kind, in stored units, @scale to the event's unit) for
 * people: thousands grouped, reals with two decimals. */
void cg_append_cost_human (GString *out, CgKind kind, CgValue v, gdouble scale);

/* Appends the change from @base to @new (of @kind, in stored units,
 * @scale to the unit shown) for people, signed and as
 * cg_append_cost_human prints a cost: "+1,234", "-0.25".  The sign is
 * that of what is printed: a change that reads zero in the digits shown
 * is "+0.00" (or "+0"), never "-0.00", whichever way it went (a base
 * normalized to the new total, 7 samples scaled by 29/7, differs from
 * 29 by 4e-15).  Returns the sign as printed: -1, 0 (reads zero) or 1,
 * for a view that colours changes by it.  Every view for people that
 * prints a change prints it so (cgcost's text, cgtree's text and dot;
 * the HTML page's script follows the same rule). */
int cg_append_change_human (GString *out, CgKind kind, CgValue base, CgValue new, gdouble scale);

/* Appends the percentage @pct signed with two decimals, "+12.50%",
 * "-0.25%", and "+0.00%" where it reads zero (never "-0.00%"). */
void cg_append_change_percent (GString *out, gdouble pct);

/* Whether a number as printed (a sign, digits, group commas, a point)
 * reads zero: "+0.00", "-0", "0,000". */
gboolean cg_reads_zero (const char *printed);

/* The views written as one document (the HTML page, the SVG flame
 * graph) build it in @s and call this after each piece: once @s holds
 * CG_FLUSH_BYTES or more, it is written to @stream and emptied, so that
 * the document is streamed in pieces of about that size, never held
 * whole (a 400 MB profile's page).  Write errors are left in @stream's
 * error flag, which the caller's output checks. */
#define CG_FLUSH_BYTES (1 << 16)
void cg_flush_if_large (GString *s, FILE *stream);

/* Sources a view lists one by one; more are summarised. */
#define CG_SOURCES_LISTED 4

/* A line per source of @profile: "Profile: PATH (FORMAT)", and " of:
 * COMMAND" where the source names the command it profiled; then its
 * note, "Note: NOTE", wrapped at blanks to 80 columns, the lines after
 * the first indented by six spaces.  More than CG_SOURCES_LISTED sources (a program's
 * forked children, a series of dumps: dash's script wrote 108 files) make
 * one line, "Profiles: N files (COUNT FORMAT, ...): PATH, PATH, PATH and
 * M more", then each kind of note once, as cg_append_source_notes.
 * @in_full: each source's detail in place of its note where it has one
 * (the report of the inputs, cgmerge --format=text); else the note, and
 * where it is the summary of a detail, "(in full: cgmerge --format=text)"
 * after it (the views, whose table it heads). */
void cg_append_sources (GString *out, CgProfile *profile, gboolean in_full);

/* "Note (PATH): NOTE", wrapped as cg_append_sources wraps notes, per
 * source of @profile that has a note
 * (what a reader of the times must know: libamon's instrumentation cost
 * taken out); nothing for the others.  Every view that shows times
 * prints it.  Of more than CG_SOURCES_LISTED sources, the notes that
 * differ only in their numbers are one kind, printed once for its first
 * source, "Note (PATH and N others alike): NOTE" ("and 1 other alike"
 * for two).  A note that summarises a detail says where to read it in
 * full, as cg_append_sources. */
void cg_append_source_notes (GString *out, CgProfile *profile);

/* The same notes, each one string "Note (PATH): NOTE" without wrapping
 * (for HTML, which wraps them itself).  Newly allocated, strings owned
 * by the array. */
GPtrArray *cg_source_notes (CgProfile *profile);

/* "Numbers to fit the width: ..." and a newline, for a view whose
 * costs show in @unit, a multiple (@factor: 1e-3, 1e-6, 1e-9 ...) of
 * @event_unit (NULL: costs as they are), and whose calls of 10,000 or
 * more show to three digits where @short_calls (cg_append_count_short);
 * nothing where neither. */
void cg_append_narrow_note (GString *out, const char *event_unit, const char *unit, gdouble factor,
                            gboolean short_calls);

/* One line naming the method and whether its totals are exact (the note
 * of the method's row, cg-method.h); where cg_overlap_note finds
 * measured totals of @event above the profile's total, that they are
 * not, in place of the row's note; where the profile records no call
 * (a cachegrind file), that each total is the function's own cost, which
 * no method can make exact. */
void cg_append_method_note (GString *out, const CgGraph *graph, const CgCosts *costs, guint event);

/* Where measured totals of @event exceed the profile's total of it
 * (cg_measured_above_all: a file whose inclusive costs of calls
 * overlap), a note ("Measured totals exceed ...") naming the function with the largest, its
 * percentage, and how many others exceed 100 %: nothing else in a view
 * says that such totals are no share of the profile.  NULL where none
 * does (always with the methods other than measured).  Newly allocated,
 * unwrapped. */
char *cg_overlap_note (const CgGraph *graph, const CgCosts *costs, guint event);

/* cg_overlap_note's note after @lead ("Note: "), wrapped as
 * cg_append_source_notes wraps notes; nothing where there is none.
 * Every view that shows totals prints it with its notes. */
void cg_append_overlap_note (GString *out, const char *lead, const CgGraph *graph, const CgCosts *costs,
                             guint event);

/* For a difference: each profile's note, "Note (base): " and "Note
 * (new): ", where it has one (@out nullable: only the answer); TRUE
 * where either has, and then no difference of their totals is exact. */
gboolean cg_append_diff_overlap_notes (GString *out, const CgDiff *diff);

/* For a difference of two sampled profiles (cg_diff_sampled): "Sampled:
 * N samples in the base, M in the new profile." and a line break, the
 * counts each profile's total over one sample's cost; nothing
 * otherwise. */
void cg_append_diff_samples (GString *out, const CgDiff *diff);

G_END_DECLS
