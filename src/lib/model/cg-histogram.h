/* cg-histogram.h — what gprof knows about a profile's PC-sampling
 * histograms beyond the self times they gave the functions.
 *
 * A gmon.out holds histogram records: an address range [low, high) cut
 * into bins of sample counts, taken at a rate of `rate` samples per
 * second (binutils gprof hist.c, glibc gmon.c).  The gmon reader credits
 * the bins to functions as self time, in samples (ticks); what gprof
 * needs besides is kept here:
 *  - the rate, for seconds = ticks / rate (the time event's scale is
 *    1/rate, but gprof divides by the rate, and the last bits matter);
 *  - the bin width in 2-byte units, ((high - low) / 2) / bins, which
 *    gprof prints as its granularity and requires equal when summing;
 *  - the total number of samples, including those in bins no function
 *    covers (gprof's 100 % of the flat profile);
 *  - the ranges, so that summing obeys gprof's rules: identical ranges
 *    add, disjoint ones are kept, overlapping ones are an error;
 *  - whether call-graph records were read (gprof prints a call graph
 *    then, even when no arc resolved).
 * In memory only, the summed bin counts and the credit each function got
 * from them, so that summing several gmon.out files re-credits the summed
 * bins as gprof does (bit for bit) instead of adding rounded credits; and
 * the arcs that gprof's -c found in the executable's code, in the order
 * it found them, since gprof adds them after the arc specs (-k, -q/-Q
 * FROM/TO) have deleted arcs, so that a deleted arc comes back with no
 * calls when the code holds the call.
 *
 * Ownership: a profile owns its histogram (cg_profile_set_histogram).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CgHistogram CgHistogram;

/* A new histogram description for the time event @event, sampled at
 * @rate per second, with bins @bin_width 2-byte units wide. */
CgHistogram *cg_histogram_new (guint event, guint32 rate, gdouble bin_width);
void cg_histogram_free (CgHistogram *histogram);

guint cg_histogram_event (const CgHistogram *histogram);
void cg_histogram_set_event (CgHistogram *histogram, guint event);
guint32 cg_histogram_rate (const CgHistogram *histogram);
gdouble cg_histogram_bin_width (const CgHistogram *histogram);
/* Bytes per bin as gprof prints them: (long) bin_width * 2. */
guint64 cg_histogram_granularity (const CgHistogram *histogram);

/* All samples read, including those no function got. */
guint64 cg_histogram_samples (const CgHistogram *histogram);
/* FALSE when the sum would exceed 64 bits. */
gboolean cg_histogram_add_samples (CgHistogram *histogram, guint64 samples);

gboolean cg_histogram_call_graph (const CgHistogram *histogram);
void cg_histogram_set_call_graph (CgHistogram *histogram, gboolean call_graph);

/* Adds the range [@low, @high) of @n_bins bins with @bin_width (gprof's
 * hist_read_rec rules): returns the index of the identical range already
 * present, or of the new one.  Errors CG_ERROR_MISMATCH when @bin_width
 * differs from the histogram's by more than 1e-6 ("different scales") or
 * the range overlaps another without being equal. */
gboolean cg_histogram_add_range (CgHistogram *histogram, guint64 low, guint64 high, guint32 n_bins,
                                 gdouble bin_width, guint *index, GError **error);

guint cg_histogram_n_ranges (const CgHistogram *histogram);
void cg_histogram_range (const CgHistogram *histogram, guint index, guint64 *low, guint64 *high,
                         guint32 *n_bins);

/* The summed counts of range @index (n_bins values), or NULL when they
 * are not known (see cg_histogram_forget_counts).  The mutable form
 * allocates zeros on first use while counts are known. */
const guint64 *cg_histogram_counts (const CgHistogram *histogram, guint index);
guint64 *cg_histogram_counts_mut (CgHistogram *histogram, guint index);
/* Marks every range's counts and every credit as unknown: the self times
 * now include data from elsewhere (XML) or the functions were renumbered. */
void cg_histogram_forget_counts (CgHistogram *histogram);

/* TRUE while every count and credit is known: then summing one more
 * gmon.out can re-credit the summed bins exactly. */
gboolean cg_histogram_counts_known (const CgHistogram *histogram);

/* Credit (in ticks) function @f last received from the counts, 0 when
 * none; kept in memory only (see the header comment). */
gdouble cg_histogram_credit (const CgHistogram *histogram, guint f);
void cg_histogram_set_credit (CgHistogram *histogram, guint f, gdouble credit);

/* Adds @src (read from another document, its time event being @dst's
 * @event) into @dst: same rate and width, ranges by the rules of
 * cg_histogram_add_range, samples summed; counts and credits become
 * unknown.  Errors CG_ERROR_MISMATCH, CG_ERROR_OVERFLOW. */
gboolean cg_histogram_merge (CgHistogram *dst, const CgHistogram *src, guint event, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgHistogram, cg_histogram_free)

/* The arcs (ids in the profile's graph) that gprof's -c scan found, each
 * once, in the order found (cg_read_gmon_static_calls); n = 0 when no
 * scan was made.  The setter copies @arcs. */
void cg_histogram_set_static_arcs (CgHistogram *histogram, const guint32 *arcs, guint n);
const guint32 *cg_histogram_static_arcs (const CgHistogram *histogram, guint *n);

G_END_DECLS
