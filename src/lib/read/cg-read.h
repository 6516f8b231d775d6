/* cg-read.h — reading any supported input into a profile.
 *
 * Every reader adds to the profile it is given, so several inputs are
 * summed simply by reading them one after the other (design §3, "Merge").
 * The format is told from the content, never from the file name, by the
 * table of formats (cg-formats.h).
 */
#pragma once

#include <glib.h>

#include "cg-formats.h"
#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* Readies what the readers share and must set up on one thread before
 * two read at once (libxml2's parser, whose first use on two threads
 * raced: cgtree --base, reading the base on a thread of its own, leaked
 * libxml2's table of encoding handlers now and then).  Call before
 * starting threads that read; calling it again does nothing. */
void cg_read_init (void);

/* Reads @path (NULL or "-": stdin) in whatever format it is and adds it to
 * @profile.  When @profile was empty and the input is cgtools XML, the
 * derived data (cycles, costs) are kept; otherwise they are dropped,
 * since they would describe other data.  Errors: CG_ERROR_IO,
 * CG_ERROR_FORMAT (unknown input, or empty without
 * @options->n_skipped_empty), and the readers' errors. */
gboolean cg_read_file (CgProfile *profile, const char *path, const CgReadOptions *options,
                       GError **error);

/* The same for an input already open (the format is told from its first
 * bytes, which are not consumed by telling, unless @options names it:
 * input_format, an unknown name being CG_ERROR_USAGE).  Where a reader
 * refuses an input that another format's detector took too, its message
 * says so and names the option that reads it as the other. */
gboolean cg_read_input (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error);

/* Completes @profile after its last input with what needs all of them:
 * gprof's -c static call arcs (@options->static_calls, when the profile
 * holds gmon.out data: of @options->executable, else of the executable
 * recorded with the first gmon.out source).  Errors: those of the
 * readers. */
gboolean cg_read_finish (CgProfile *profile, const CgReadOptions *options, GError **error);


G_END_DECLS
