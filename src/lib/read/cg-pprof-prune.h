/* cg-pprof-prune.h — which functions a pprof profile's drop_frames and
 * keep_frames name.
 *
 * profile.proto: "frames with Function.function_name fully matching" the
 * regular expression drop_frames "will be dropped from the samples, along
 * with their successors", unless they fully match keep_frames.  As pprof's
 * profile.Prune matches them (google/pprof, profile/prune.go): the
 * expressions anchored, ^(EXPR)$, against the name less a leading '.'
 * (PowerPC ELF v1) and less what follows its first '(' after the first
 * byte (C++ parameters), unless that is "(anonymous namespace)".  RE2's
 * syntax, which pprof's Go regexp speaks, is read by GRegex (PCRE), which
 * takes the same for what profiles hold (alternatives, classes,
 * repetition, escapes).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CgPprofPrune CgPprofPrune;

/* The expressions @drop (not empty) and @keep (nullable or empty: none),
 * compiled; NULL with @error's message (from GRegex) when one is not a
 * regular expression.  (transfer full) */
CgPprofPrune *cg_pprof_prune_new (const char *drop, const char *keep, GError **error);
void cg_pprof_prune_free (CgPprofPrune *prune);

/* Whether the function named by the @len bytes at @name is dropped.
 * FALSE with @error (GRegex's) when matching fails: an expression that
 * backtracks past PCRE's match limit on the name. */
gboolean cg_pprof_prune_drops (const CgPprofPrune *prune, const char *name, gsize len, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgPprofPrune, cg_pprof_prune_free)

G_END_DECLS
