/* cg-write-callgrind.h — a profile as a callgrind file.
 *
 * For KCachegrind, callgrind_annotate and every tool that reads
 * callgrind's format (valgrind's "Callgrind Format Specification"; what
 * cgtools reads back is formats/callgrind.md).  One `fn=` block per
 * function with its self cost, one `calls=` line per arc with the call
 * count, followed by the inclusive cost the calls carried: the method's
 * arc cost, which for callgrind data (method measured) is callgrind's own
 * measurement of the calls that entered the callee's outermost
 * activation.  Names, objects and files are compressed ("(id) name").
 *
 * The file is laid out so that reading it back gives the same totals:
 *  - self-calls go to "f'2" (callgrind's name for a deeper activation),
 *    which adds to the call count without nesting costs;
 *  - a function that nobody calls gets, as callgrind's roots do, its total
 *    as the sum of its self cost and its calls' inclusive costs; where
 *    the two differ (data merged from several runs, estimates) the
 *    difference goes on its self-call line, or on one call, taken from an
 *    arc with one to spare, into a deeper activation "g'2" of one of its
 *    callees, which carries cost but no arc (a "calls=0" line where no
 *    arc has a call to spare);
 *  - a function that is called and also started spontaneously (a thread
 *    entry that is also called, merged profiles) gets a context
 *    "f'<spontaneous>" that no call enters, holding the spontaneous part;
 *  - a member of a cycle, whose self cost plus its calls' costs would
 *    count its nested activations twice or miss what only they called,
 *    writes the difference from "f'2" and on a call into "g'2" (see
 *    the writer), so that that sum too is its total.
 *  - in a profile with nested marks, the calls between a cycle's members
 *    carry what each member's (estimated) total needs beyond the calls
 *    from outside, so that the calls into it sum to that total.
 * For KCachegrind and callgrind_annotate (formats/callgrind.md): an fn=
 * id per (object, file, name), since KCachegrind binds an id to one
 * function; a call that carries cost counts at least one call, since
 * callgrind_annotate adds a calls=0 line's cost to the caller's self
 * (arcs of no counted calls, folded stacks', are written as one call).
 * With callgrind data the reader's graph is then the same graph (self
 * costs, calls, inclusive and spontaneous costs), so callgrind -> cgtools
 * -> callgrind -> cgtools gives the same totals, and callgrind_annotate
 * --inclusive=yes shows each plain function's total, whether it takes it
 * as the sum of the calls into the function or as self cost plus calls.
 *
 * What callgrind's format cannot hold is reported through the warning
 * callback and written as close as it can be: real-valued events (rounded
 * to integers of their stored unit), event scales and units (callgrind
 * has neither), totals an estimating method made inconsistent with its
 * arcs, names ending as the contexts this writer adds ("'2",
 * "'<spontaneous>"),
 * and the "nested" marks of profiles taken with --separate-recs=1 when a
 * correction needs a deeper activation.
 *
 * Complexity: O(|V| + |E|) time and memory.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-profile.h"
#include "cg-error.h"

G_BEGIN_DECLS

typedef struct {
  CgWarnFunc warn; /* nullable: warnings are dropped */
  gpointer warn_data;
  /* nullable: the "creator:" line, e.g. "cgtools 0.1.0 (cgcost)"; one
   * that does not start with "cgtools" gets PACKAGE_STRING before it in
   * brackets, since readers split context names by the creator */
  const char *creator;
} CgCallgrindWriteOptions;

/* Writes @profile with the totals and arc costs of @costs (all events)
 * in callgrind's format.  Write errors are left in the stream's error
 * flag; FALSE (CG_ERROR_OVERFLOW) when a sum exceeds 64 bits. */
gboolean cg_write_callgrind (CgProfile *profile, const CgCosts *costs, const CgCallgrindWriteOptions *options,
                             FILE *stream, GError **error);

G_END_DECLS
