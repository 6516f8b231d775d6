/* cg-report-times.h — self times back from the seconds a gprof report
 * printed.
 *
 * gprof prints a function's self time as ticks / rate with "%.2f", and
 * its share of all samples as 100 · ticks / samples with "%6.2f" (hist.c,
 * research notes gprof-analysis.md §4; "%5.1f" with -T, whose digits are
 * read as printed).  A tick is one sample, except
 * where a histogram bin straddles two functions: gprof then splits the
 * bin's samples in proportion to the overlap, in units of 2 bytes, so a
 * function's ticks are a multiple of 1/width, width being the bin's size
 * in 2-byte units (the granularity line's bytes / 2).  The samples are an
 * integer.  This module finds the number of samples and the ticks per
 * function that print exactly as the report printed them, preferring
 * whole ticks, then halves, and so on, and of those the nearest to the
 * printed seconds: gprof's analysis of those ticks then prints the
 * report's numbers again.
 *
 * Complexity: O(rows × candidates per row) for each number of samples
 * tried; the first one tried, the sum of the printed ticks, usually
 * fits.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  const char *self;    /* the self seconds as printed ("0.48") */
  const char *percent; /* the % time as printed ("33.14", or gprof -T's
                        * "33.1"; a call-graph entry's "67.1", with
                        * @children), NULL when unknown */
  const char *per_call; /* the self time per call as printed ("50.05"),
                         * NULL when not printed */
  guint64 calls;        /* the calls it is of */
  gdouble scale;        /* its unit per second (1e3 for ms/call) */
  gboolean none;        /* known to have had no time at all (a call-graph
                         * entry the flat profile left out: gprof lists
                         * every function with time there) */
  const char *children; /* a call-graph entry's children seconds as
                         * printed ("0.13"), whose % time (@percent,
                         * "67.1") is of self plus children; NULL for a
                         * flat profile's row */
} CgReportTime;

/* Fills @ticks (n values) and *@samples for @rows printed at @rate
 * samples per second with bins @width 2-byte units wide as printed (1
 * when unknown).  @no_time: the flat profile said "no time accumulated"
 * (its percentages are of 1).  @cumulative: the last flat row's
 * cumulative seconds as printed ("0.33"; a call graph's "of 0.20
 * seconds" without a flat profile; NULL when unknown), the sum of
 * the rows' self times, which the number of samples is sought nearest
 * to (the printed seconds' own sum is off by up to half a hundredth per
 * row, and a percentage of 33 samples can print as one of 34).
 * *@true_w: the bins' width found, when the
 * ticks are multiples of its inverse (0 otherwise).  Returns FALSE when
 * no number of samples prints every row's percentage as printed; @ticks
 * and *@samples are then the nearest values to the printed seconds (the
 * caller warns). */
gboolean cg_report_times_solve (const CgReportTime *rows, guint n, gdouble rate, guint width, gboolean no_time,
                                const char *cumulative, guint64 *samples, gdouble *ticks, gdouble *true_w);

gboolean cg_report_times_rescale (const CgReportTime *rows, guint n, gdouble rate, guint64 samples, gdouble w0,
                                  gdouble lo_w, gdouble hi_w, gdouble *ticks);

G_END_DECLS
