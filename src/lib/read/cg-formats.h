/* cg-formats.h — the table of input formats: one row per format, in the
 * order detection tries them.
 *
 * Adding a format is one reader module (read/cg-read-X.{c,h}, with a
 * detector and a reader of the signatures below) and one row in
 * cg-formats.c.  cg-read dispatches through this table, cgmerge's --help
 * and the "unknown input format" message list its rows, and
 * tests/cli/tables.sh checks that cgmerge(1) describes each of them.
 */
#pragma once

#include <glib.h>

#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* The bytes of an input the detectors see: enough for the longest
 * callgrind header and several lines of folded stacks. */
#define CG_FORMATS_DETECT_BYTES 4096

/* TRUE only when the first bytes of an input (@len of them, at most
 * CG_FORMATS_DETECT_BYTES; @complete: they are the whole input) parse as
 * the format.  A detector never guesses: text that merely could be the
 * format is not.  A text format's detector checks every line the window
 * holds whole, not the first alone, and wants a line only its format
 * has; fuzz/fuzz-detect.c checks that no input two rows accept fails to
 * read as the first of them, but at a line past the window, which no
 * detector sees (cg_read_input's message then names the other format). */
typedef gboolean (*CgFormatDetect) (const guint8 *data, gsize len, gboolean complete);

/* Adds @input to @profile (summing: several inputs are read into one
 * profile one after the other).  Errors: CG_ERROR_* with messages naming
 * the input and the line or offset (cg_read_fail). */
typedef gboolean (*CgFormatRead) (CgProfile *profile, CgInput *input, const CgReadOptions *options,
                                  GError **error);

typedef struct {
  const char *name;    /* the format's name, as the man page heads its entry: "callgrind" */
  const char *noun;    /* in messages: "a callgrind profile" */
  const char *summary; /* one line for --help and the man page's lead */
  CgFormatDetect detect;
  CgFormatRead read;
  /* nullable: reads an input no detector recognised, tried only when the
   * user named the executable (old BSD gmon.out files have no magic) */
  CgFormatRead read_without_magic;
} CgFormatInfo;

/* The formats, in detection order; @n_formats receives their number.
 * (transfer none: a static table) */
const CgFormatInfo *cg_formats (guint *n_formats);

/* The format whose detector accepts @data (@len bytes, @complete: the
 * whole input), trying the rows in order; NULL when none does. */
const CgFormatInfo *cg_formats_detect (const guint8 *data, gsize len, gboolean complete);

/* The row a user names (--input-format): its name in any case, with
 * '-' or '_' for its blank ("folded-stacks", "cgtools-xml"), or the
 * first word of one row's name alone ("folded", "gprof", "perf" for perf
 * script); NULL for no row. */
const CgFormatInfo *cg_formats_lookup (const char *name);

/* What the user types to name @format: its name, blanks as '-'.
 * (transfer full) */
char *cg_formats_option_name (const CgFormatInfo *format);

/* "a callgrind profile, a gmon.out, ... or cgtools XML", for messages.
 * (transfer full) */
char *cg_formats_nouns (void);

/* "callgrind, gmon.out, ..., cgtools XML", for --help.  (transfer full) */
char *cg_formats_names (void);

G_END_DECLS
