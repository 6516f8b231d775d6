/* cg-read-options.h — what every reader is given: the caller's options,
 * where its warnings go, and the one way readers report bad input.
 *
 * Readers include this header, never cg-read.h: cg-read dispatches to the
 * readers through the table of formats (cg-formats.h), so the readers sit
 * below it.
 */
#pragma once

#include <glib.h>

#include "cg-elf-cache.h"
#include "cg-error.h"
#include "cg-input.h"
#include "cg-symbols.h"

G_BEGIN_DECLS

/* Sampled stacks (perf script): which root frame a sample's stack gets,
 * as FlameGraph's stackcollapse-perf.pl names them (formats/perf.md). */
typedef enum {
  CG_SPLIT_COMM = 0, /* the command name (comm), blanks as '_' (the default) */
  CG_SPLIT_NONE,     /* no root frame: every process and thread joined */
  CG_SPLIT_PID,      /* "comm-PID" (stackcollapse-perf --pid) */
  CG_SPLIT_TID,      /* "comm-PID/TID" (stackcollapse-perf --tid) */
} CgSplit;

/* Sampled stacks: what becomes of kernel frames. */
typedef enum {
  CG_KERNEL_KEEP = 0, /* as they are (the default) */
  CG_KERNEL_DROP,     /* left out: their cost is the user frame's below them */
  CG_KERNEL_ANNOTATE, /* kept, named "name_[k]" (stackcollapse-perf --kernel) */
} CgKernelFrames;

/* An input read (CgReadOptions.inputs_read): its name and the format it
 * was read as (a name of cg-formats.h's table, static). */
typedef struct {
  char *name;
  const char *format;
} CgInputRead;

typedef struct {
  /* downgrade recoverable inconsistencies (totals that do not add up,
   * unknown lines) from errors to warnings */
  gboolean lenient;
  CgWarnFunc warn;     /* nullable: warnings are dropped */
  gpointer warn_data;
  CgInputProgress progress; /* nullable: bytes read, about every megabyte */
  gpointer progress_data;
  /* gmon.out: the profiled executable (NULL: "a.out", as gprof); when set
   * explicitly, an input in no other format is read as an old BSD
   * gmon.out, which has no magic number.  amon.out: names the routines
   * the runtime left unnamed (only when set).  gperftools: read in place
   * of the mapped file of its base name, else of the program's own */
  const char *executable;
  /* gmon.out: which of the executable's local symbols are functions
   * (gprof's choice, the default, or all: gcc's clones and parts too) */
  CgSymbolChoice symbol_choice;
  gboolean symbols_chosen; /* the user chose it: what gprof's leaves out goes unsaid */
  /* nullable: executables' symbols kept from one input to the next (the
   * caller creates the cache for a series of inputs and frees it after);
   * without it each input loads them again */
  CgSymbolsCache *symbols;
  /* nullable: the files gperftools profiles map, read once for a series
   * of inputs as @symbols are (the same ownership) */
  CgElfCache *elf;
  /* gmon.out: add gprof's -c static call arcs (count 0) found by scanning
   * the executable's code for call instructions; done by cg_read_finish
   * after the last input, as gprof does it after the last file */
  gboolean static_calls;
  /* when set, an empty input adds nothing, with a warning, and is
   * counted here instead of being an error (for one of several inputs:
   * callgrind --separate-threads=yes leaves an empty callgrind.out.PID
   * beside the threads' files) */
  guint *n_skipped_empty;
  /* nullable: the name of the input format every input is read as
   * (cg_formats_lookup), where detection would choose another or none */
  const char *input_format;
  /* nullable: each input read is appended to it (CgInputRead, whose
   * name the array's clear function frees: cg_inputs_read_new) */
  GArray *inputs_read;
  /* perf script and perf.data: the root frames; and theirs and folded stacks' kernel frames */
  CgSplit split;
  CgKernelFrames kernel;
} CgReadOptions;

/* An empty array for CgReadOptions.inputs_read.  (transfer full) */
GArray *cg_inputs_read_new (void);

/* Emits a warning through @options (nullable; printf-style). */
void cg_read_warn (const CgReadOptions *options, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* Where in an input a message points: a line (text formats) or a byte
 * offset (binary formats). */
typedef enum {
  CG_AT_LINE,
  CG_AT_OFFSET,
} CgPositionKind;

/* Sets @error (domain CG_ERROR, @code) to "NAME:LINE: message" or "NAME:
 * offset N: message", @name being the input's name, and returns FALSE, so
 * that a reader writes `return cg_read_fail (...)`.  The one error
 * constructor of the readers, so that every format's messages look
 * alike. */
gboolean cg_read_fail (GError **error, CgError code, const char *name, CgPositionKind kind, guint64 position,
                       const char *format, ...) G_GNUC_PRINTF (6, 7);

/* The same with a va_list, for readers' own wrappers that add their
 * position. */
gboolean cg_read_failv (GError **error, CgError code, const char *name, CgPositionKind kind, guint64 position,
                        const char *format, va_list ap) G_GNUC_PRINTF (6, 0);

G_END_DECLS

G_BEGIN_DECLS

/* For text formats' detectors: finds the first line of @data (@len
 * bytes) that is neither blank nor a '#' comment, after a UTF-8 byte
 * order mark.  Sets @line and @line_len (without the line end) and
 * @complete (FALSE when the line runs to the end of @data and @data_complete
 * is FALSE, so the line may have been cut); FALSE when there is none. */
gboolean cg_read_first_line (const guint8 *data, gsize len, gboolean data_complete, const char **line,
                             gsize *line_len, gboolean *complete);

G_END_DECLS
