/* cg-text.h — what every view for people shares: costs in the event's
 * unit, the sources a profile was read from, the note on the method.
 *
 * The writers for people (the text report, the display tree as text, HTML
 * and dot, the summary, the difference) include this header, not one
 * another's.
 */
#pragma once

#include <glib.h>

#include "cg-profile.h"

G_BEGIN_DECLS

/* Appends @v (of @kind, in stored units, @scale to the event's unit) for
 * people: thousands grouped, reals with two decimals. */
void cg_append_cost_human (GString *out, CgKind kind, CgValue v, gdouble scale);

/* Sources a view lists one by one; more are summarised. */
#define CG_SOURCES_LISTED 4

/* A line per source of @profile: "Profile: PATH (FORMAT)", and " of:
 * COMMAND" where the source names the command it profiled; then its
 * note, "Note: NOTE", wrapped at blanks to 80 columns, the lines after
 * the first indented by six spaces.  More than CG_SOURCES_LISTED sources (a program's
 * forked children, a series of dumps: dash's script wrote 108 files) make
 * one line, "Profiles: N files (COUNT FORMAT, ...): PATH, PATH, PATH and
 * M more", then each kind of note once, as cg_append_source_notes. */
void cg_append_sources (GString *out, CgProfile *profile);

/* "Note (PATH): NOTE", wrapped as cg_append_sources wraps notes, per
 * source of @profile that has a note
 * (what a reader of the times must know: libamon's instrumentation cost
 * taken out); nothing for the others.  Every view that shows times
 * prints it.  Of more than CG_SOURCES_LISTED sources, the notes that
 * differ only in their numbers are one kind, printed once for its first
 * source, "Note (PATH and N others alike): NOTE" ("and 1 other alike"
 * for two). */
void cg_append_source_notes (GString *out, CgProfile *profile);

/* The same notes, each one string "Note (PATH): NOTE" without wrapping
 * (for HTML, which wraps them itself).  Newly allocated, strings owned
 * by the array. */
GPtrArray *cg_source_notes (CgProfile *profile);

/* One line naming the method and whether its totals are exact (the note
 * of the method's row, cg-method.h). */
void cg_append_method_note (GString *out, const CgCosts *costs);

G_END_DECLS
