/* cg-events.h — a profile's event schema: the cost dimensions every cost
 * vector runs over (design §2, "Event").
 *
 * One schema per profile, shared by reference: the graph owns it, and the
 * call tree and the contexts hold a reference to the same one instead of
 * copies of its kinds.  Each cost store whose columns are the events
 * (CgMatrix) is attached to the schema, which keeps it in step: adding an
 * event appends a zero column to every attached matrix, and an integer
 * event that meets real values is promoted in every one of them.
 *
 * Ownership: reference-counted (cg_events_ref/unref); strings are copied
 * and owned by the schema.  Attached matrices are borrowed: their owner
 * detaches them before freeing them.
 */
#pragma once

#include <glib.h>

#include "cg-matrix.h"
#include "cg-value.h"

G_BEGIN_DECLS

typedef struct _CgEvents CgEvents;

/* An empty schema (transfer full). */
CgEvents *cg_events_new (void);
CgEvents *cg_events_ref (CgEvents *events);
void cg_events_unref (CgEvents *events);

guint cg_events_n (const CgEvents *events);

/* The index of the event called @name, or -1. */
gint cg_events_find (const CgEvents *events, const char *name);

/* Index of the event @name counted in @unit, added when absent (every
 * attached matrix gets a zero column); an integer event asked for as
 * CG_KIND_REAL becomes real (its column in every attached matrix is
 * converted).  Error CG_ERROR_MISMATCH when @name exists in another
 * unit. */
gboolean cg_events_ensure (CgEvents *events, const char *name, const char *unit, CgKind kind, guint *index,
                           GError **error);

const char *cg_events_name (const CgEvents *events, guint event);
/* The event's unit: "seconds", "samples", "Ir" ... */
const char *cg_events_unit (const CgEvents *events, guint event);
/* Nullable: a longer description (callgrind's event: lines). */
const char *cg_events_description (const CgEvents *events, guint event);
void cg_events_set_description (CgEvents *events, guint event, const char *description);
CgKind cg_events_kind (const CgEvents *events, guint event);
/* The kinds of all events, in event order (valid until an event is added). */
const CgKind *cg_events_kinds (const CgEvents *events);
/* Stored values times the scale give the unit (default 1): gmon.out's
 * histogram counts ticks, amon.out's times are nanoseconds. */
gdouble cg_events_scale (const CgEvents *events, guint event);
void cg_events_set_scale (CgEvents *events, guint event, gdouble scale);

/* Samples behind the event: a sampling profiler's (perf, gprof's
 * histogram, folded stacks) adds the samples it read and the cost they
 * carry in stored units, so that a sample's cost is @cost / samples and
 * a function's cost c holds about c / that many samples, whose count
 * varies by about its square root from run to run (Poisson); the
 * differences of two profiles say which changes lie within that noise.
 * An event no reader added samples to has 0.  Several inputs add up. */
void cg_events_add_samples (CgEvents *events, guint event, guint64 samples, gdouble cost);
/* The samples added, and (nullable @cost) the stored cost they carry. */
guint64 cg_events_samples (const CgEvents *events, guint event, gdouble *cost);

/* Keeps @matrix's columns in step with the events from now on; it must
 * have one column per event now (cg_events_n). */
void cg_events_attach (CgEvents *events, CgMatrix *matrix);
void cg_events_detach (CgEvents *events, CgMatrix *matrix);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgEvents, cg_events_unref)

G_END_DECLS
