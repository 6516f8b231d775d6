/* cg-v8-times.h — the time each sample of a V8 CPU profile stands for.
 *
 * V8's profile (Chrome DevTools protocol, Profiler.Profile) gives the
 * samples' times as "timeDeltas", microseconds: the first from
 * "startTime", each next from the sample before it, so sample i was
 * taken at t_i = startTime + timeDeltas[0] + ... + timeDeltas[i].
 * V8 may record a sample out of time order (a negative delta: samples
 * taken at deoptimisation), which Chrome DevTools' CPUProfileDataModel
 * puts in order by its time first (sortSamples).  In that order, as
 * DevTools' flame chart draws it, a sample stands for the time from its
 * own t_i to the next sample's: the stack seen then is taken to run
 * until the next look; the time before the first sample belongs to no
 * sample.  The last runs until "endTime", when profiling stopped (where
 * DevTools gives it the average interval instead: they differ by a part
 * of one interval).  formats/v8.md, "Time".
 *
 * Complexity: O(n log n) for the sort, n 16-byte entries.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The durations, in nanoseconds, of the @n samples whose deltas are
 * @deltas (microseconds, as the profile has them), of a profile from
 * @start to @end (microseconds): @ns[i] for sample i in the profile's
 * order.  Samples of one time are ordered as the profile has them, and
 * all but the last of them stand for 0.
 * Errors (CG_ERROR, messages "NAME: ..."): CG_ERROR_OVERFLOW when a time
 * or a duration in nanoseconds passes 64 bits; CG_ERROR_PARSE when a
 * sample's time is after @end. */
gboolean cg_v8_sample_times (const char *name, const gint64 *deltas, gsize n, gint64 start, gint64 end, guint64 *ns,
                             GError **error);

G_END_DECLS
