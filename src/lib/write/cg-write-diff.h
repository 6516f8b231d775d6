/* cg-write-diff.h — a difference of two profiles (cg-diff.h) for people,
 * for scripts and for differential flame graphs.
 *
 * tsv, a contract of its own (README, cgcost(1)): a header line
 *   function base_total new_total total_change base_self new_self self_change presence exactness
 * then one row per function, by absolute change of total descending, then
 * name; values as plain decimals in the event's unit (the base scaled
 * when normalized); presence is "both", "added" (new only) or "removed"
 * (base only); exactness "exact" where both totals are, else "estimated".
 *
 * Text: a header naming the profiles, the method for both and whether the
 * differences are exact, the totals and their change, then the functions
 * whose totals or self costs changed, by absolute change.
 *
 * Arcs (--arcs), tsv, a contract of its own (README, cgcost(1)): a header
 *   caller callee base_calls new_calls base_inclusive new_inclusive inclusive_change presence exactness
 * then one row per arc of either profile (cg_diff_arcs), by absolute
 * change of the calls' inclusive cost descending, then caller and callee;
 * functions named as the new profile names them where it has them.
 * presence: "both", "added" (an arc of the new profile only, though both
 * of its ends may be in the base) or "removed"; exactness as above, of the
 * two arcs' costs.  The text view shows the same, changed arcs only.
 *
 * Folded: the two-column form of difffolded.pl, "STACK BASE NEW", one line
 * per distinct stack of either call tree (frames of matched functions
 * named as in the new profile), for flamegraph.pl's differential mode.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-diff.h"

G_BEGIN_DECLS

void cg_write_diff_tsv (const CgDiff *diff, FILE *stream);

typedef struct {
  gboolean demangle; /* names demangled (cg_demangle) */
  gboolean strip;    /* C++ names without parameter lists and template arguments (cg_names_set_strip) */
  /* columns a row fits in (0: no limit): the numbers, each column as
   * wide as its widest cell, stay whole; the names last lose their middle
   * (cg_fit_line) */
  guint width;
} CgDiffTextOptions;

/* @base_name and @new_name: how the header names the two inputs.  FALSE
 * on overflow. */
gboolean cg_write_diff_text (const CgDiff *diff, const char *base_name, const char *new_name,
                             const CgDiffTextOptions *options, FILE *stream, GError **error);

void cg_write_diff_arcs_tsv (const CgDiff *diff, FILE *stream);
gboolean cg_write_diff_arcs_text (const CgDiff *diff, const char *base_name, const char *new_name,
                                  const CgDiffTextOptions *options, FILE *stream, GError **error);

/* Both profiles must have a call tree: CG_ERROR_UNSUPPORTED otherwise. */
gboolean cg_write_diff_folded (const CgDiff *diff, FILE *stream, GError **error);

G_END_DECLS
