/* cg-cli.h — what the four filters share: common options, reading the
 * inputs, writing the output atomically, messages and exit statuses.
 *
 * Each tool declares its options in a static GOptionEntry table pointing
 * into its own options struct (which starts with a CgCliCommon; option
 * callbacks get that struct as their data), and a
 * run() function that tests can call directly; cg_cli_main() does the
 * rest.  Exit status: 0 success, 1 bad data or I/O, 2 bad usage.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-diff.h"
#include "cg-method.h"
#include "cg-profile.h"
#include "cg-read.h"

G_BEGIN_DECLS

typedef struct {
  char *output;   /* -o FILE; NULL = stdout */
  char *format;   /* --format; NULL = the tool's default */
  gboolean lenient;
  gboolean quiet;  /* no progress line */
  gboolean brief;  /* views: the table without the lines that explain it (gprof -b) */
  gboolean help;
  gboolean version;
  char **files;   /* positional arguments; NULL or empty = stdin */
  char *executable; /* gmon.out and amon.out inputs: the profiled executable (gmon: NULL = a.out) */
  char *base_executable; /* --base-executable: a gmon.out or amon.out base's (NULL = executable) */
  gboolean static_calls; /* gmon.out inputs: add gprof's -c static call arcs */
  char *symbols; /* --symbols: gmon.out inputs' functions (gprof|all); NULL = gprof */
  char *split;  /* --split: perf samples' root frames (none|comm|pid|tid); NULL = comm */
  char *kernel; /* --kernel: perf samples' kernel frames (keep|drop|annotate); NULL = keep */
  char *input_format; /* --input-format: every input's format (cg_formats_lookup); NULL = told from each */
  gpointer progress;     /* cg_cli_main's progress line (private) */
} CgCliCommon;

typedef gboolean (*CgCliRun) (gpointer options, GError **error);

/* Writes a tool's result, @data, to @stream (named @name in messages). */
typedef gboolean (*CgCliWriteFunc) (FILE *stream, const char *name, gpointer data, GError **error);

/* One row of a tool's table of output formats: --format=NAME, its line in
 * --help, and its writer.  A tool's table ends with a row whose name is
 * NULL; its first row is the default.  tests/cli/tables.sh checks each
 * table against the tool's man page. */
typedef struct {
  const char *name;
  const char *summary;
  CgCliWriteFunc write;
} CgCliFormat;

typedef struct {
  const char *parameters;     /* "[FILE...]" */
  const char *summary;        /* one line for --help */
  const char *description;    /* paragraph after the options */
  const CgCliFormat *formats; /* the table of output formats, listed in --help */
  gboolean input_formats;     /* list the table of input formats (cg-formats.h) in --help */
  gboolean methods;           /* list the table of cost methods (cg-method.h) in --help */
  const GOptionEntry *entries; /* the tool's own options (nullable) */
  CgCliRun run;
} CgCliSpec;

/* Parses @argv, runs @spec->run (@options must begin with @common), prints
 * errors as "PROG: message" and returns the exit status. */
int cg_cli_main (int argc, char **argv, const CgCliSpec *spec, CgCliCommon *common, gpointer options);

/* The exit status for @error: 2 for usage errors, 1 otherwise. */
int cg_cli_exit_status (const GError *error);

/* Index of @given (NULL: 0, the default) in the NULL-terminated @choices.
 * Error CG_ERROR_USAGE naming the option and the choices. */
gboolean cg_cli_choose (const char *option, const char *given, const char *const *choices,
                        guint *index, GError **error);

/* The row of @formats called @given (NULL: the first, the default).
 * Error CG_ERROR_USAGE listing the names. */
gboolean cg_cli_choose_format (const char *given, const CgCliFormat *formats, const CgCliFormat **chosen,
                               GError **error);

/* The method called @given (NULL: auto) from the table of methods.
 * Error CG_ERROR_USAGE listing them. */
gboolean cg_cli_choose_method (const char *given, CgMethod *method, GError **error);

/* The index of the event called @name (NULL: the first event).  Error
 * CG_ERROR_USAGE listing the events when there is no such event,
 * CG_ERROR_UNSUPPORTED when the profile has none. */
gboolean cg_cli_choose_event (CgGraph *graph, const char *name, guint *event, GError **error);

/* Reads every input of @common (stdin when none) into a new profile,
 * merging them.  Warnings go to stderr. */
CgProfile *cg_cli_read_inputs (CgCliCommon *common, GError **error);

/* Prints the warnings of @costs (cg_costs_warning) to stderr, as the
 * readers' are. */
void cg_cli_warn_costs (const CgCosts *costs);

/* --base=FILE of cgcost and cgtree: reads @base_path with the options of
 * @common (its inputs aside), costs it and @profile by the same method
 * (@method, or the best both allow: cg_method_resolve_both), and compares
 * them on the event @event_name (NULL: the new profile's first), which the
 * base must have in the same unit.  Sets @base (transfer full) and returns
 * the difference, which borrows both (free it first); where *@base is
 * already a profile (cg_cli_read_inputs_and_base), it is the base, and
 * @base_path only names it.  Errors: the readers', CG_ERROR_MISMATCH for
 * events that differ, the methods'. */
/* cg_cli_read_inputs, and the base of --base (@base_path, transfer full
 * into @base) read at the same time on a thread of its own with the same
 * options (both inputs of a difference are usually large: the two reads
 * then take about as long as one).  Errors: the inputs' first, then the
 * base's. */
CgProfile *cg_cli_read_inputs_and_base (CgCliCommon *common, const char *base_path, CgProfile **base,
                                        GError **error);

CgDiff *cg_cli_diff (const CgCliCommon *common, const char *base_path, CgProfile *profile, CgMethod method,
                     const char *event_name, const CgDiffOptions *options, CgProfile **base, GError **error);

/* Writes with @write to the output of @common, atomically. */
gboolean cg_cli_write (CgCliCommon *common, CgCliWriteFunc write, gpointer data,
                       GError **error);

/* The columns a text view fits its rows in (--width): @width where it is
 * 0 (no limit) or more; where it is -1 (not given), the terminal's width
 * when @stream is a terminal (its size, else $COLUMNS, else 80), and no
 * limit in a pipe or a file, which keep whole names for grep and less -S
 * (as ls(1) and ps(1) do). */
guint cg_cli_text_width (gint width, FILE *stream);

/* @help (GOption's --help text) with each line longer than @width
 * columns folded at blanks: the description of an option (or of any
 * indented name followed by two blanks) goes on in its column, other
 * text under its first word.  Transfer full. */
GString *cg_cli_fold_help (const char *help, gsize width);

G_END_DECLS
