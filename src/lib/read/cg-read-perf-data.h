/* cg-read-perf-data.h — a perf.data file, read through `perf script`.
 *
 * perf.data's layout is perf's own and changes with perf's versions
 * (tools/perf/Documentation/perf.data-file-format.txt), and its samples
 * are addresses that only perf's symbol resolution (with the build-id
 * cache, kallsyms, DWARF or frame-pointer call chains) turns into
 * functions.  So cgtools does not parse it: it runs
 *     perf script -i FILE -F comm,pid,tid,period,event,ip,sym,symoff,dso
 * (GSubprocess), and reads what perf prints (cg-read-perf.h); where
 * samples came out with an empty call chain, a second run with -G gives
 * them the frame of their own address (formats/perf.md).  Standard
 * input is copied to a temporary file first (perf needs to seek).  The
 * perf found in PATH is used; perf's own messages (lost samples, a file
 * written by a newer perf) are passed on.
 */
#pragma once

#include <glib.h>

#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* The row of cg-formats.h's table: perf.data's magic number, "PERFILE2"
 * (and "PERFFILE", version 1, which perf itself refuses with its message). */
gboolean cg_perf_data_detect (const guint8 *data, gsize len, gboolean complete);

/* Adds the samples of the perf.data @input to @profile, as perf script
 * prints them.
 * Errors: CG_ERROR_UNSUPPORTED when perf is not installed (the message
 * says how to get it); CG_ERROR_IO when perf cannot be run or copying
 * standard input fails; CG_ERROR_FORMAT with perf's message when perf
 * script fails (a file of a newer perf, a truncated file); and those of
 * cg_read_perf (). */
gboolean cg_read_perf_data (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error);

G_END_DECLS
