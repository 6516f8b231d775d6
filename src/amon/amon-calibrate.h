/* amon-calibrate.h — the monitor's own cost per event, measured
 * robustly: many short calibrations spread over the run, summarised by a
 * low percentile.
 *
 * What the monitor subtracts from every interval is what a call or a
 * return costs it (the hooks' work between two clock readings).  One
 * calibration at start-up is at the mercy of the moment: on a loaded
 * 2-core machine it ranged from 9.2 to 59.7 ns between runs (the issue's
 * numbers), and an 8% change moved one function's total 6 times.  So the
 * monitor repeats a short calibration (AMON_CAL_PAIRS calls and returns
 * of a fake routine, a few microseconds) every AMON_CAL_EVERY correction
 * windows of each thread (some 65,000 events).  Load only ever adds to a
 * calibration's time (a preemption, a cache evicted by another process,
 * a sibling hyperthread), but the load a run meets changes during it, and
 * so does what a call costs the monitor: on the parser of
 * bench/amon-honest.sh beside two spinning processes the instrumented
 * run's CPU time varied by 12% between runs while a cost calibrated once
 * (or a low percentile of the whole run) stayed put, which moved the
 * profile's total by 46%.  So the estimate in force is the lowest of the
 * last AMON_CAL_RECENT calibrations (some 20 ms of a busy thread): it
 * follows the load, and a preemption inside one calibration cannot raise
 * it.  Every calibration is also kept in a histogram, whose lowest,
 * median and highest values the file records.
 *
 * Values are in eighths of a clock unit (a TSC cycle is 0.3-0.5 ns),
 * so that the estimate is finer than the unit the hooks subtract in.
 * Plain C, no locks: the monitor lets one thread calibrate at a time.
 */
#ifndef AMON_CALIBRATE_H
#define AMON_CALIBRATE_H

#include <stdint.h>

#include "amon-private.h"

#define AMON_CAL_PAIRS 128      /* calls and returns per calibration */
#define AMON_CAL_EVERY 16       /* correction windows of a thread between two */
#define AMON_CAL_STARTUP 32     /* calibrations before the program runs */
#define AMON_CAL_RECENT 32      /* the estimate: the lowest of the last this many */
#define AMON_CAL_BUCKETS 4096   /* eighths of a unit: up to 512 units an event */

typedef struct {
  uint64_t count;
  uint64_t lowest, highest;     /* eighths of a unit */
  uint64_t recent[AMON_CAL_RECENT]; /* the last ones, a ring */
  uint32_t hist[AMON_CAL_BUCKETS];
} amon_cal;

/* Adds a calibration that took @per_event eighths of a unit per event
 * (values past the last bucket count in it). */
void amon_cal_add (amon_cal *c, uint64_t per_event) AMON_HIDDEN;

/* The @percent-th percentile (0-100) of all the calibrations, in eighths
 * of a unit: the smallest value at or below which @percent% of them lie
 * (for the file's summary).  0 when there are none. */
uint64_t amon_cal_percentile (const amon_cal *c, uint32_t percent) AMON_HIDDEN;

/* Moves every calibration recorded by @delta eighths of a unit (none
 * below 0): the hooks' cost was found to be another's than the one added
 * to them. */
void amon_cal_shift (amon_cal *c, int64_t delta) AMON_HIDDEN;

/* The lowest of the last AMON_CAL_RECENT calibrations (of all, when
 * fewer were made), in eighths of a unit: the estimate in force.  0 when
 * there are none. */
uint64_t amon_cal_estimate (const amon_cal *c) AMON_HIDDEN;

#endif
