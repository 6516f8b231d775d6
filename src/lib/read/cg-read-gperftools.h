/* cg-read-gperftools.h — reader for gperftools' CPU profiles
 * (formats/gperftools.md).
 *
 * The legacy binary format gperftools' CPU profiler (libprofiler:
 * CPUPROFILE=prof.out, ProfilerStart) writes, as its
 * docs/cpuprofile-fileformat, src/profiledata.cc (the writer) and
 * pprof's readers (the perl pprof's ReadCPUProfile, google/pprof's
 * legacy_profile.go parseCPU) define it.  Words ("slots") are the writing
 * program's pointer size, 4 or 8 bytes, in its byte order:
 *   header: 0, 3 (header words after this one), 0 (version), the sampling
 *     period in microseconds, 0 (padding);
 *   records: a count (>= 1), a depth (>= 1), that many PCs: the first the
 *     interrupted PC (the leaf's), the others return addresses, callers
 *     nearer the root after;
 *   trailer: 0, 1, 0;
 *   then the text of the process's /proc/self/maps (cg-proc-maps.h).
 *
 * What is built, as for perf script's sampled stacks (cg-read-perf.h):
 * each record is a path of the call tree G_0, root first, its count added
 * to the self cost of the path's last frame (Kaes 2005, "Computing the
 * call graph"); the graph merges frames of one function.  PCs become
 * functions as pprof makes them: a return address less 1 (the call
 * instruction, not the one after it: the last call of a function would
 * otherwise land in the next one); the mapping that holds it and its
 * object's own address (cg-elf-functions.h), the function of the
 * object's symbols there, and inside it the calls its DWARF says were
 * inlined there, each a frame of its own, the innermost nearest the leaf
 * (cg-elf-inlines.h; addr2line -i's chain, which pprof shows).  A record whose second PC repeats the first
 * (an unwinder that found the interrupted PC again) keeps one, as
 * google/pprof's cleanupDuplicateLocations does.  A function is (object,
 * name): the object the base name of the mapped file, the name its
 * symbol's; a PC that no symbol holds, or whose file cannot be read, is
 * "[BASE]", as pprof's default view names it, and one in no mapping
 * "<unknown>".  The file named in the maps is read; @options->executable,
 * when set, is read instead of the mapped file with its base name (a
 * program moved or rebuilt since; as gmon.out's --executable).
 *
 * Warnings (once per file): a mapped file that cannot be read (its frames
 * are "[BASE]"), one with no symbols, one whose inode is not the maps'
 * (replaced since the run: its names may not be the profiled code's), one
 * the kernel said was deleted, one whose loadable segments do not hold a
 * mapping's offset.
 *
 * Events: "cpu" in ns (count x period x 1000, as pprof scales the
 * profile) and "samples" (count), cpu first, as google/pprof converts
 * this format into profile.proto.  Call counts are 0: sampling records
 * none.
 *
 * Complexity: two passes over the records, O(bytes), one hash look-up per
 * PC and O(log n) per distinct PC; each mapped file's symbols loaded once
 * per input; no recursion (a deep stack is a loop).
 */
#pragma once

#include <glib.h>

#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* The row of cg-formats.h's table: TRUE when @data (@len bytes) begin
 * with the header, 0, 3, 0, a period of at least 1, 0, in 4- or 8-byte
 * words of either byte order, as google/pprof's parseCPU tells the
 * format.  The header alone decides: its four layouts differ (3 lies in
 * another word or byte in each, and the others read 0 where it is), and
 * no other format's input begins with a zero word (text has no NUL; a
 * protocol-buffers field number is never 0; the binary formats before it
 * have magic numbers), so that a profile damaged anywhere after its
 * header reaches the reader, which names the offset. */
gboolean cg_gperftools_detect (const guint8 *data, gsize len, gboolean complete);

/* Adds the samples of the CPU profile in @input to @profile (its call
 * tree, created when absent, and its graph).
 * Errors ("NAME: offset N: ..."): CG_ERROR_TRUNCATED when the input ends
 * inside the header or a record, or before the trailer; CG_ERROR_PARSE for
 * a header that is not gperftools', a record with a count of 0 that is
 * not the trailer, a depth of 0, a NUL byte in the maps text after the
 * trailer; CG_ERROR_OVERFLOW when a 64-bit cost sum overflows or the tree
 * would exceed 2^32 frames; CG_ERROR_MISMATCH when @options->executable
 * names a file no mapping has the base name of, or an event exists with
 * another unit; CG_ERROR_IO when @options->executable cannot be read. */
gboolean cg_read_gperftools (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error);

G_END_DECLS
