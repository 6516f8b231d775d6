/* cg-read-gmon.h — reader for gprof's gmon.out (and gmon.sum) files.
 *
 * Reads what GNU gprof 2.40 reads (gmon_io.c, hist.c, call_graph.c), as
 * glibc 2.36 writes it; formats/gmon.md says what is read and how:
 *  - the tagged format: the 20-byte header ("gmon", version 0 or 1), then
 *    records in any order and number: time histograms (tag 0), call-graph
 *    arcs (tag 1), basic-block counts (tag 2, parsed and ignored, as gprof
 *    does without -l);
 *  - the old untagged BSD and 4.4BSD formats (when @bsd is TRUE: they have
 *    no magic number to be recognised by);
 *  - gmon.sum files written by `gprof -s` (tagged; arcs between symbol
 *    addresses).
 * The pointer size (4 or 8) and byte order are the executable's, as in
 * gprof: the file records neither.
 *
 * What it adds to the profile:
 *  - event "time" (kind real, unit the histogram's dimension, "seconds"),
 *    in histogram ticks, with scale 1/rate;
 *  - one function per symbol gprof keeps (cg-symbols.h), all of them, in
 *    address order, object = the executable's path (a second symbol of
 *    the same name gets "PATH@0xADDRESS", so that static functions of the
 *    same name stay apart as in gprof);
 *  - self time: every histogram bin credited to the symbols it overlaps in
 *    proportion to the overlap, as gprof's hist_assign_samples does (bins
 *    straddling two functions are split, samples before the first symbol
 *    go to nobody); several files of one executable are summed bin by bin
 *    and re-credited, so that the result equals gprof's on all of them;
 *  - arcs caller -> callee from each record's from_pc and self_pc (a
 *    callee that is not a function symbol is charged to the function
 *    before it), in order of first appearance, which is what makes gprof's
 *    cycle numbering and tie-breaks reproducible; records whose addresses
 *    match no symbol are dropped, as gprof drops them (callers outside the
 *    executable, such as libc calling main, are never recorded: such
 *    functions are <spontaneous>);
 *  - the profile's histogram description (cg-histogram.h), checked with
 *    gprof's rules: same bin width, identical ranges add, overlapping
 *    ranges are an error.
 *
 * Errors: CG_ERROR_TRUNCATED (the file ends inside the header, a
 * histogram or an arc), CG_ERROR_PARSE (unknown tag, unsupported version,
 * impossible sizes), CG_ERROR_FORMAT / CG_ERROR_IO (the executable is
 * missing, not ELF, stripped), CG_ERROR_MISMATCH (the histogram or the
 * arcs lie outside the executable: another binary, or run-time addresses
 * of a PIE written by glibc < 2.27; histograms that cannot be summed).
 * Messages are "FILE: offset N: message".  Sizes read from the file are
 * checked against its size before anything is allocated; the whole file
 * is parsed and checked before the profile is touched.
 *
 * Complexity: O(file size + symbols × log symbols + bins).
 */
#pragma once

#include <glib.h>

#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* Adds the gmon.out read from @input to @profile, with the executable
 * @options->executable ("a.out" when NULL).  @bsd: read the old untagged
 * formats instead of the tagged one. */
gboolean cg_read_gmon (CgProfile *profile, CgInput *input, gboolean bsd, const CgReadOptions *options,
                       GError **error);

/* The rows of cg-formats.h's table: glibc's tagged format, told by its
 * "gmon" magic and a version below 256 in either byte order, and the old untagged BSD formats, which have none (read
 * only when the user named the executable). */
gboolean cg_gmon_detect (const guint8 *data, gsize len, gboolean complete);
gboolean cg_read_gmon_tagged (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error);
gboolean cg_read_gmon_bsd (CgProfile *profile, CgInput *input, const CgReadOptions *options,
                       GError **error);

/* gprof's -c: adds to @profile an arc with count 0 from every function
 * of the executable @options->executable ("a.out" when NULL) to every
 * function entry that a call instruction in its code reaches (x86
 * `e8 rel32`, tried at every byte, within the histogram's ranges), as
 * gprof's cg_assemble does once after reading every gmon.out: called
 * after the last file, the arcs come after all the files' arcs in
 * first-appearance order, as in gprof.  Does nothing when @profile has no
 * histogram; warns and adds nothing for executables of other
 * instruction sets.  Errors: those of cg_symbols_load. */
gboolean cg_read_gmon_static_calls (CgProfile *profile, const CgReadOptions *options, GError **error);

G_END_DECLS
