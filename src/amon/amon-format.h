/* amon-format.h — the constants of the amon.out file format, version 3
 * (version 2 writes every context's history in full, where version 3 may
 * name an earlier context whose history it extends; version 1 also lacks
 * the CALIBRATION section; readers take all three).
 *
 * Shared by the runtime that writes the file (src/amon) and the cgtools
 * reader (src/lib/cg-read-amon.c), so the two cannot drift apart.  The
 * layout is specified in formats/amon.md and amon.out(5): a 64-byte
 * header, then tagged sections (u32 tag, u32 zero, u64 payload length),
 * ending with an END section.  Every integer is little-endian whatever the
 * host; names are UTF-8 bytes without a terminating NUL.
 *
 * Plain C, no dependencies: this header is included by code that must not
 * use GLib.
 */
#ifndef AMON_FORMAT_H
#define AMON_FORMAT_H

/* "\x89" first so that no text format can start like an amon.out file,
 * "\r\n" and "\x1a" so that a text-mode transfer shows as corruption. */
#define AMON_MAGIC "\x89" "AMON\r\n\x1a"
#define AMON_MAGIC_LEN 8
#define AMON_VERSION 3
#define AMON_VERSION_MIN 1 /* the oldest version readers take */
#define AMON_HEADER_SIZE 64

/* header flags */
#define AMON_FLAG_STOPPED 0x1u /* profiling stopped early: see the STOPPED section */
#define AMON_FLAG_UNTIMED 0x2u /* a child of fork with the sampling clock: calls counted, no times */

/* clocks (AMON_CLOCK) */
#define AMON_CLOCK_CPU 1u  /* CPU time of each thread */
#define AMON_CLOCK_WALL 2u /* CLOCK_MONOTONIC */
#define AMON_CLOCK_TSC 3u  /* the processor's time-stamp counter */
#define AMON_CLOCK_SAMPLE 4u /* CPU time of each thread, sampled by SIGPROF */

/* section tags */
#define AMON_SECTION_END 0u
#define AMON_SECTION_OBJECTS 1u
#define AMON_SECTION_ROUTINES 2u
#define AMON_SECTION_CONTEXTS 3u
#define AMON_SECTION_TOTALS 4u
#define AMON_SECTION_STOPPED 5u
#define AMON_SECTION_CALIBRATION 6u /* version 2: how the monitor's own cost was measured */
#define AMON_SECTION_HEADER_SIZE 16

/* objects */
#define AMON_OBJECT_MAIN 0x1u /* the program itself (not a shared library) */
#define AMON_NO_OBJECT 0xffffffffu

/* a history entry: routine index << 1 | mark (1 = marked, Spivey's m_i = T) */
#define AMON_ENTRY_MARKED 0x1u

/* fixed sizes of records, before their variable parts */
#define AMON_OBJECT_FIXED 16   /* u64 load bias, u32 flags, u32 path length */
#define AMON_ROUTINE_FIXED 16  /* u64 address, u32 object, u32 name length */
#define AMON_CONTEXT_FIXED 32  /* u32 length, u32 parent (version 3; 0 before), u64 time, u64 entries, u64 recursive */
/* the CALIBRATION section: u64 calibrations; u32 window (the estimate in
 * force was the lowest of the last this many); u32 zero; u64 cost per
 * event in force at the end, lowest, median and highest calibration, all
 * in picoseconds (AMON_CALIBRATION_MIN bytes: the first files had no
 * more); then u64 samples in the program's code, u64 samples in the
 * monitor's, i64 clock units the samples' correction added to the
 * contexts, u64 threads that had the samples to check the calibrations
 * (AMON_CALIBRATION_SAMPLES bytes); then u32 threads whose split between
 * contexts the samples set beyond the calibrations' error, u32 the
 * largest weight they had there, per mille (amon-measure.h)
 * (AMON_CALIBRATION_SPLIT bytes); then the blind windows (amon-blind.h):
 * u64 their calls and returns, u64 their CPU time in clock units, u64
 * their samples in the program's code,
 * u64 in the monitor's, u64 threads whose program's time they set; and
 * the estimates of the program's time, in clock units, summed over the
 * threads that had each: u64 the calibrations' (the timed windows' charge
 * scaled to every event), u64 all the samples', u64 the blind windows'
 * samples' (later versions may append) */
#define AMON_CALIBRATION_MIN 48
#define AMON_CALIBRATION_SAMPLES 80
#define AMON_CALIBRATION_SPLIT 88
#define AMON_CALIBRATION_SIZE 152

/* the u64 fields of the TOTALS section, in order (later versions append) */
enum {
  AMON_TOTAL_THREADS,       /* threads that ran instrumented code */
  AMON_TOTAL_CALLS,         /* calls that changed context (entries) */
  AMON_TOTAL_RECURSIVE,     /* direct recursive calls (step A1) */
  AMON_TOTAL_RETURNS,
  AMON_TOTAL_TIME,          /* clock units charged, contexts and outside */
  AMON_TOTAL_OUTSIDE,       /* clock units outside every instrumented routine */
  AMON_TOTAL_STATES,        /* contexts created, all threads (step B3) */
  AMON_TOTAL_TRANSITIONS,   /* transitions created, all threads */
  AMON_TOTAL_B2,            /* calls resolved by the history table (step B2) */
  AMON_TOTAL_MAX_HISTORY,   /* longest history */
  AMON_TOTAL_SUM_HISTORY,   /* sum of the lengths of created histories */
  AMON_TOTAL_MAX_DEPTH,     /* deepest shadow stack */
  AMON_TOTAL_RESYNCS,       /* shadow-stack repairs (longjmp, exceptions) */
  AMON_TOTAL_UNMATCHED,     /* exits with no matching entry, ignored */
  AMON_TOTAL_MEMORY,        /* bytes of profiling memory, all threads */
  AMON_TOTAL_OVERHEAD,      /* clock units subtracted as the monitor's own */
  AMON_TOTAL_OFFCPU,        /* clock units removed as off-CPU (clock cpu) */
  AMON_TOTAL_UNSEEN,        /* calls a signal handler made while it interrupted a hook, not
                             * profiled (absent from the first files: AMON_TOTAL_MIN fields) */
  AMON_TOTAL_N
};
#define AMON_TOTAL_MIN 17 /* the fields of the first files, which readers take */

/* reasons in the STOPPED section */
#define AMON_STOP_DEPTH 1u    /* the shadow stack reached AMON_MAX_DEPTH */
#define AMON_STOP_MEMORY 2u   /* profiling memory reached AMON_MAX_MEMORY or mmap failed */
#define AMON_STOP_HISTORY 3u  /* a history longer than the limit */
#define AMON_STOP_ROUTINES 4u /* more routines than indexes */
#define AMON_STOP_JUMPED 5u   /* a signal handler jumped out of the monitor while it changed its tables */

#endif
