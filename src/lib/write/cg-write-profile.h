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

typedef struct {
  guint event;
  gboolean demangle; /* names demangled (cg_demangle) */
  gboolean strip;    /* C++ names without parameter lists and template arguments (cg_names_set_strip) */
  gboolean brief;    /* without the lines on the profile, event and method, and the headings' explanations (gprof -b) */
  /* columns a row fits in (0: no limit): the numbers come first and stay
   * whole, the names last lose their middle (cg_fit_line), never their
   * marks ("<cycle N>", "[N]", "(recursive)") */
  guint width;
} CgProfileTextOptions;

/* Writes the report of @costs as @options say (cycles, when given, mark
 * their members).  Write errors are left in the stream's error flag;
 * FALSE on 64-bit overflow of the profile's total. */
gboolean cg_write_profile_text (CgProfile *profile, const CgCosts *costs, const CgProfileTextOptions *options,
                                FILE *stream, GError **error);

G_END_DECLS
