/* cg-read.h — reading any supported input into a profile.
 *
 * Every reader adds to the profile it is given, so several inputs are
 * summed simply by reading them one after the other (design §3, "Merge").
 * The format is told from the content, never from the file name.
 */
#pragma once

#include <glib.h>

#include "cg-input.h"
#include "cg-profile.h"
#include "cg-symbols.h"

G_BEGIN_DECLS

/* Receives a warning (a message with the input's name and line). */
typedef void (*CgWarnFunc) (const char *message, gpointer user_data);

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
   * the runtime left unnamed (only when set) */
  const char *executable;
  /* nullable: executables' symbols kept from one input to the next (the
   * caller creates the cache for a series of inputs and frees it after);
   * without it each input loads them again */
  CgSymbolsCache *symbols;
  /* gmon.out: add gprof's -c static call arcs (count 0) found by scanning
   * the executable's code for call instructions; done by cg_read_finish
   * after the last input, as gprof does it after the last file */
  gboolean static_calls;
  /* when set, an empty input adds nothing, with a warning, and is
   * counted here instead of being an error (for one of several inputs:
   * callgrind --separate-threads=yes leaves an empty callgrind.out.PID
   * beside the threads' files) */
  guint *n_skipped_empty;
} CgReadOptions;

typedef enum {
  CG_FORMAT_UNKNOWN,
  CG_FORMAT_XML,
  CG_FORMAT_CALLGRIND,
  CG_FORMAT_GMON,
  CG_FORMAT_FOLDED,
  CG_FORMAT_AMON,
} CgFormat;

const char *cg_format_to_string (CgFormat format);

/* Tells the format from the first bytes of an input. */
CgFormat cg_format_detect (const guint8 *data, gsize len);

/* Reads @path (NULL or "-": stdin) in whatever format it is and adds it to
 * @profile.  When @profile was empty and the input is cgtools XML, the
 * derived data (cycles, costs) are kept; otherwise they are dropped,
 * since they would describe other data.  Errors: CG_ERROR_IO,
 * CG_ERROR_FORMAT (unknown input, or empty without
 * @options->n_skipped_empty), and the readers' errors. */
gboolean cg_read_file (CgProfile *profile, const char *path, const CgReadOptions *options,
                       GError **error);

/* The same for an input already open (the format is told from its first
 * bytes, which are not consumed by telling). */
gboolean cg_read_input (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error);

/* Completes @profile after its last input with what needs all of them:
 * gprof's -c static call arcs (@options->static_calls, when the profile
 * holds gmon.out data: of @options->executable, else of the executable
 * recorded with the first gmon.out source).  Errors: those of the
 * readers. */
gboolean cg_read_finish (CgProfile *profile, const CgReadOptions *options, GError **error);

/* Emits a warning through @options (printf-style). */
void cg_read_warn (const CgReadOptions *options, const char *format, ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS
