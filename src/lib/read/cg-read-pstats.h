/* cg-read-pstats.h — reader for Python's profile statistics files, as
 * `python3 -m cProfile -o FILE`, cProfile.Profile.dump_stats,
 * pstats.Stats.dump_stats and the pure-Python profile module write them
 * (formats/pstats.md).
 *
 * The file is marshal.dump of pstats' dict (CPython's Lib/cProfile.py,
 * Lib/profile.py, Lib/pstats.py):
 *   {(filename, lineno, funcname): (cc, nc, tt, ct, callers)}
 * cc the function's primitive (not recursive) calls, nc all its calls,
 * tt the time in the function itself, ct the time of its primitive calls
 * (the outermost activations: an exact total), in seconds; callers
 * {caller_key: (nc, cc, tt, ct)} from cProfile, the arc's own counts and
 * times, or {caller_key: count} from the profile module.  Built-ins are
 * ('~', 0, "<built-in method builtins.print>") from cProfile and ('', 0,
 * "print") from the profile module.  Read by its shape with cg-marshal's
 * scanner, never recursing.
 *
 * What is built is what the callgrind reader makes of pyprof2calltree's
 * conversion of the file (so that both read alike, and a profile of
 * either merges with the other): a function is (object: its filename,
 * name: its funcname, or "funcname:lineno" where one file has that name
 * at two lines), located at its file and line; its self cost tt; an arc
 * per caller with the arc's nc as its calls and its ct as its measured
 * inclusive cost (cProfile's calls of one caller to one callee never
 * nest: cg-measured.h); a function no one calls gets its self cost and
 * its calls' as spontaneous cost; the members of cycles are flagged
 * CG_FUNCTION_NESTED, as calls among them may nest.  Times are in the
 * event "ns" (unit ns), each rounded to the nanosecond: cProfile counts
 * integer nanoseconds and writes them times 1e-9, so rounding gives back
 * what it measured (pyprof2calltree truncates each: the same on
 * cProfile's values, n times 1e-9 landing at or just above n when times
 * 1e9, and up to 1 ns less on sums of files and the profile module's
 * times).  The profile module's callers hold counts only: a function's
 * ct is shared among its calls from other functions in proportion to
 * their counts (gprof2dot does the same), so that its total stays its
 * ct.
 *
 * Complexity: O(bytes + functions log functions + arcs log arcs).
 */
#pragma once

#include <glib.h>

#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* The row of cg-formats.h's table: a dict ('{', with or without
 * FLAG_REF) whose first key is a tuple of three ('(' or ')'), its first
 * member a string; or, as the whole input (@complete), an empty dict
 * ("{0", two bytes), an empty profile. */
gboolean cg_pstats_detect (const guint8 *data, gsize len, gboolean complete);

/* Adds the profile statistics in @input to @profile.
 * Errors (cg_read_fail, "NAME: offset N: ..."): CG_ERROR_TRUNCATED where
 * the file ends inside an object; CG_ERROR_PARSE for what marshal or
 * pstats' shape does not allow: an object of the wrong type (a key that
 * is no (string, integer, string) tuple, a value no 5-tuple, a caller's
 * entry neither a 4-tuple nor a count), a negative or non-finite time or
 * a negative count, a caller that is no key of the dict, bytes after the
 * dict; CG_ERROR_OVERFLOW for a count past 64 bits, a time past 2^63 ns
 * or sums past 64 bits; CG_ERROR_MISMATCH when the event "ns" exists
 * with another unit. */
gboolean cg_read_pstats (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error);

G_END_DECLS
