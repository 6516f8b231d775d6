/* cg-output.h — an output file that appears whole or not at all.
 *
 * A named output is written to a temporary file in the same directory and
 * renamed over the target only on cg_output_commit(), so a failed run
 * (bad input, full disk, interruption) never leaves a partial file.  A
 * symbolic link stays: the file it names is replaced.  What is not a
 * regular file (/dev/null, a FIFO) is written directly, as is standard
 * output; commit flushes it and reports a write error (a full disk, a
 * closed pipe) instead of losing it.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

G_BEGIN_DECLS

typedef struct _CgOutput CgOutput;

/* Opens @path for writing; NULL or "-" means stdout.  Error CG_ERROR_IO. */
CgOutput *cg_output_open (const char *path, GError **error);

/* The stream to write to (owned by the output). */
FILE *cg_output_stream (CgOutput *output);

/* Name for messages: the path or "<stdout>". */
const char *cg_output_name (const CgOutput *output);

/* Flushes and, for a file, syncs, closes and renames it into place.
 * Error CG_ERROR_IO on any write failure (the target is then untouched). */
gboolean cg_output_commit (CgOutput *output, GError **error);

/* Frees the output; an uncommitted temporary file is removed. */
void cg_output_free (CgOutput *output);

/* The errno of a write to @stream that failed earlier, once errno no
 * longer says (stdio keeps only the error flag): EPIPE when @stream is a
 * pipe whose reader has gone, else EIO. */
int cg_output_lost_errno (FILE *stream);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgOutput, cg_output_free)

G_END_DECLS
