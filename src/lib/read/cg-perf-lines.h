/* cg-perf-lines.h — the two kinds of line `perf script` prints for a
 * sample, cut into their fields (formats/perf.md).
 *
 * A header line holds the fields -F chose, in perf's order (builtin-script.c,
 * perf_sample__fprintf_start and process_event):
 *     [VM:N] [VCPU:N] [comm] [pid/tid | tid] [[cpu]] [misc] [tod] [time:] [period] [event: [rest]]
 * The command name may hold blanks, so it is everything before the first
 * place where the rest parses as the other fields.  A bare number before
 * the time is the tid ("%7d", or "%5d" in perf before 6.4) unless it is
 * padded as a period ("%10"), which tells the two apart in layouts
 * without a time.  After the event comes what else -F chose: a
 * tracepoint's fields, or the address, symbol and DSO of a sample
 * without a call chain.
 *
 * A frame line is TAB, the address ("%16" PRIx64), and as -F chose " sym"
 * or " sym+0xOFF", " (dso)" or " (dso+0xOFF)", and " (inlined)"; without
 * sym, " (dso)" or " (inlined)" follows the address.
 *
 * Both parsers only point into the line; nothing is allocated.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  CG_PERF_COMM = 1 << 0,
  CG_PERF_PID = 1 << 1,
  CG_PERF_TID = 1 << 2,
  CG_PERF_CPU = 1 << 3,
  CG_PERF_TIME = 1 << 4,
  CG_PERF_PERIOD = 1 << 5,
  CG_PERF_EVENT = 1 << 6,
  CG_PERF_MISC = 1 << 7,
  CG_PERF_TOD = 1 << 8,
} CgPerfField;

/* A run of bytes in a line. */
typedef struct {
  const char *s;
  gsize len;
} CgPerfText;

typedef struct {
  guint fields; /* CgPerfField bits present */
  CgPerfText comm, pid, tid, event, rest;
  guint64 period;
} CgPerfHeader;

/* Cuts @line (@len bytes, no newline) into a header.  @layout: the fields
 * a header must have (those of the file's first sample), or 0 to accept
 * any.  FALSE when it is no header (of that layout), or holds control
 * characters, or its period exceeds 2^64-1. */
gboolean cg_perf_parse_header (const char *line, gsize len, guint layout, CgPerfHeader *header);

typedef struct {
  CgPerfText ip;   /* the address, hex digits (empty when -F has no ip) */
  CgPerfText sym;  /* without +0xOFF; empty when -F has no sym */
  CgPerfText symoff; /* the hex digits of the symbol's "+0xOFF"; empty without */
  CgPerfText dso;  /* without parentheses and +0xOFF; empty when -F has no dso */
  gboolean inlined;
} CgPerfFrame;

/* Cuts the text after a frame line's TAB (or a one-line sample's rest)
 * into its parts: blanks, hex digits, then nothing or a blank and the
 * symbol.  @strict: the address fills exactly 16 columns, as perf prints
 * it (for detection).  FALSE when it is no frame. */
gboolean cg_perf_parse_frame (const char *text, gsize len, gboolean strict, CgPerfFrame *frame);

/* Whether a frame of @dso (or at @ip when no DSO was printed) is the
 * kernel's: [kernel.kallsyms] and the other bracketed names perf gives
 * kernel maps and modules, vmlinux and *.ko files; not [vdso],
 * [vsyscall], [unknown] or the other user-space pseudo maps. */
gboolean cg_perf_is_kernel (const CgPerfText *dso, const CgPerfText *ip);

G_END_DECLS
