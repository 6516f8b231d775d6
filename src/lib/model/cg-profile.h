/* cg-profile.h — one profile as the stages exchange it.
 *
 * A profile is what one cgtools XML document holds: the sources it was
 * read from, the call graph, the call tree where the source recorded
 * stacks, Spivey's contexts where the source recorded them (amon.out),
 * and what later stages derived: the cycles (cgcycles) and the
 * costs of a method (cgcost).  Derived parts are dropped whenever the raw
 * data change (merging), so they never describe other data.
 */
#pragma once

#include <glib.h>

#include "cg-contexts.h"
#include "cg-cost.h"
#include "cg-graph.h"
#include "cg-cycles.h"
#include "cg-histogram.h"
#include "cg-tree.h"

G_BEGIN_DECLS

typedef struct _CgProfile CgProfile;

/* Where the data came from, one per input file.  Strings may be NULL. */
typedef struct {
  const char *format;  /* "callgrind", "gmon", "cgtools-xml", ... */
  const char *path;
  const char *command; /* the profiled command line, when recorded */
  const char *creator; /* the producing tool, when recorded */
  const char *note;    /* what a reader of the times must know (libamon: the
                          instrumentation cost taken out), or NULL */
  const char *detail;  /* the note in full where @note is its summary (libamon:
                          how each measure of the times was found), or NULL */
} CgSource;

CgProfile *cg_profile_new (void);
void cg_profile_free (CgProfile *profile);

CgGraph *cg_profile_graph (CgProfile *profile);

/* The call tree, or NULL when the sources recorded no stacks. */
CgTree *cg_profile_tree (CgProfile *profile);
/* Takes the call tree out of the profile (transfer full; nullable). */
CgTree *cg_profile_steal_tree (CgProfile *profile);

/* The call tree, created empty on first use. */
CgTree *cg_profile_ensure_tree (CgProfile *profile);

/* Spivey's contexts (cg-contexts.h), or NULL when the sources recorded
 * none; _ensure creates them empty on first use.  _set takes ownership
 * (transfer full; NULL clears).  Contexts are raw data, like the tree:
 * merging keeps them and cg_profile_replace_data leaves them alone (the
 * caller remaps them, as cg_collapse_cycles does). */
CgContexts *cg_profile_contexts (CgProfile *profile);
CgContexts *cg_profile_ensure_contexts (CgProfile *profile);
/* Takes the contexts out of the profile (transfer full; nullable). */
CgContexts *cg_profile_steal_contexts (CgProfile *profile);
void cg_profile_set_contexts (CgProfile *profile, CgContexts *contexts);

/* Adds an event to the graph's schema, which the tree and contexts share
 * (see cg_graph_ensure_event for the rules and errors). */
gboolean cg_profile_ensure_event (CgProfile *profile, const char *name, const char *unit,
                                  CgKind kind, guint *index, GError **error);

/* Records a source; strings are copied (interned). */
void cg_profile_add_source (CgProfile *profile, const char *format, const char *path,
                            const char *command, const char *creator);
guint cg_profile_n_sources (const CgProfile *profile);
/* Sets the note of the last source added (copied; NULL clears): a
 * sentence that every view showing times prints with the source. */
void cg_profile_set_source_note (CgProfile *profile, const char *note);
/* Sets the detail of the last source added (copied; NULL clears): the
 * note in full, of which the note is the summary that views print at the
 * head of a table; the report of the inputs (cgmerge --format=text)
 * prints it in the note's place. */
void cg_profile_set_source_detail (CgProfile *profile, const char *detail);
const CgSource *cg_profile_source (const CgProfile *profile, guint i);
/* What a view names the profile by in its title: the first source's
 * command where one has one, else the first path, else "profile"
 * (owned by @profile, or static). */
const char *cg_profile_title (const CgProfile *profile);

/* Derived data; setters take ownership (transfer full) and free what was
 * there.  NULL clears.  Each is valid for the graph as it was when it was
 * set: after any change to the graph (cg_graph_generation) the getters
 * return NULL for a stale one, so that it is computed again, never used
 * (it is freed when replaced, as callers may still hold it). */
CgCycles *cg_profile_cycles (CgProfile *profile);
void cg_profile_set_cycles (CgProfile *profile, CgCycles *cycles);
CgCosts *cg_profile_costs (CgProfile *profile);
void cg_profile_set_costs (CgProfile *profile, CgCosts *costs);

/* What gprof needs to know of gmon.out histograms (cg-histogram.h), or
 * NULL when no source had one.  The setter takes ownership (transfer
 * full) and frees the previous one. */
CgHistogram *cg_profile_histogram (CgProfile *profile);
void cg_profile_set_histogram (CgProfile *profile, CgHistogram *histogram);

/* A new, empty profile (transfer full) with @profile's sources (and their
 * notes) and its event schema (names, units, kinds, descriptions,
 * scales), for an analysis that derives one profile from another (focus,
 * hide).  NULL with @error set as cg_profile_ensure_event sets it. */
CgProfile *cg_profile_new_like (CgProfile *profile, GError **error);

/* Replaces the graph and tree (transfer full) and drops derived data. */
void cg_profile_replace_data (CgProfile *profile, CgGraph *graph, CgTree *tree);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgProfile, cg_profile_free)

G_END_DECLS
