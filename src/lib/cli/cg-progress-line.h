/* cg-progress-line.h — the progress line a tool shows on a terminal.
 *
 * A line on standard error, shown only after the work has taken a second,
 * redrawn at most ten times a second by a thread of its own, so that it
 * moves while the tool computes or writes as well as while it reads:
 * "PROG: reading FILE: 12 of 300 MB (4%), 80 MB/s", "PROG: computing: 3 s",
 * "PROG: writing FILE: 40 MB, 2 s".  Erased when the tool stops it or
 * prints a message (cg_progress_line_message).
 */
#pragma once

#include <glib.h>
#include <stdio.h>

G_BEGIN_DECLS

typedef struct _CgProgressLine CgProgressLine;

/* A line drawn on @stream (standard error), starting now. */
CgProgressLine *cg_progress_line_new (FILE *stream);

/* Erases the line and stops its thread.  NULL is ignored. */
void cg_progress_line_free (CgProgressLine *line);

/* Reading @name: @done bytes of @total (-1: unknown).  The signature of
 * CgInputProgress, @line as its data. */
void cg_progress_line_read (const char *name, guint64 done, gint64 total, gpointer line);

/* A phase without a byte count ("computing"), timed from now. */
void cg_progress_line_phase (CgProgressLine *line, const char *phase);

/* Writing the output @name through descriptor @fd (-1 while it is being
 * opened: a FIFO's open waits for its reader): the bytes the file holds
 * are shown when it is a regular file, else the time. */
void cg_progress_line_writing (CgProgressLine *line, const char *name, int fd);

/* Prints @message (a whole line) on the line's stream without mixing it
 * with the progress line.  @line may be NULL. */
void cg_progress_line_message (CgProgressLine *line, const char *message);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgProgressLine, cg_progress_line_free)

G_END_DECLS
