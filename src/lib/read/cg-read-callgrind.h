/* cg-read-callgrind.h — reader for callgrind profiles (callgrind.out.*).
 *
 * Follows the format as valgrind 3.19's callgrind writes it (its dump.c),
 * which differs from its own specification in places; see
 * formats/callgrind.md for what is read and how:
 *  - name compression with three shared id spaces (objects: ob/cob;
 *    files: fl/fi/fe/cfi/cfl/jfi; functions: fn/cfn/jfn), ids first defined
 *    on any of those lines, sparse and in any order, kept per file;
 *  - "(below main)" and other names beginning with "(" and a non-digit are
 *    literal names;
 *  - positions (instr, line, bb) with relative (+N, -N) and "*" forms,
 *    tracked per column; call and jump targets do not move them;
 *  - any number of events, cost lines shorter than the event list;
 *  - calls= followed by the inclusive cost line (calls=0 included);
 *  - fi=/fe= inlined files and the callee-file default;
 *  - jump=, jcnd= (both "a/b" and "a b"), jfi=, jfn=;
 *  - several parts in one file (summed, each checked against its totals:);
 *  - callgrind's context names: "f'2" (recursion level) and "f'caller"
 *    (--separate-callers) are folded into f, where the file is
 *    callgrind's (see CgCallgrindNames); other producers' names are
 *    verbatim (pyprof2calltree's "<method 'read' of 'file' objects>");
 *  - an id used but never defined reads as an empty name, with one
 *    warning per file (callgrind_annotate and gprof2dot read old
 *    callgrind files so).
 *
 * How recursion is kept exact: a call into a level-1 name (no "'N") enters
 * the callee's outermost activation; only such calls put their inclusive
 * cost on the graph's arc.  A level-1 context that nobody called in a part
 * (program entry, thread start) contributes its self cost plus its calls'
 * inclusive costs as the function's spontaneous cost.  See cg-measured.h.
 * A file with no "'N" name at all but with a function calling itself
 * straight into its outermost activation was taken without the split
 * (--separate-recs=1): its functions inside cycles get CG_FUNCTION_NESTED;
 * so do they in another producer's file (a creator neither callgrind nor
 * cgtools), as none splits recursion.
 *
 * Complexity: one pass, O(size of file); memory O(functions + arcs +
 * distinct context names), independent of the number of lines (about half
 * the file's size for a large profile: 198 MB for the 407 MB one of make
 * bench).
 */
#pragma once

#include <glib.h>

#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* Adds the callgrind profile read from @input to @profile.
 * Errors (messages "NAME:LINE: ..."): CG_ERROR_PARSE for malformed lines,
 * CG_ERROR_TRUNCATED when the file ends inside a call
 * or before its totals: line, CG_ERROR_OVERFLOW for 64-bit overflow,
 * CG_ERROR_UNSUPPORTED for a format version >= 2. */
/* The row of cg-formats.h's table: the "# callgrind format" header, or a
 * first line that is not blank or a comment and starts with one of the
 * format's header or position keys; then more than half the lines the
 * window holds whole (blank lines and comments aside) have a callgrind
 * line's shape (handle_line's kinds, in text), and
 * one of them is a line only the format has (events:, positions:,
 * totals:, summary:, fn=, calls= ...) unless the window ends inside the
 * headers or the header declares the format.  So "version: 1" YAML is
 * not taken for a profile. */
gboolean cg_callgrind_detect (const guint8 *data, gsize len, gboolean complete);

gboolean cg_read_callgrind (CgProfile *profile, CgInput *input, const CgReadOptions *options,
                            GError **error);

/* cg_read_callgrind with the lexer's @piece (see cg_callgrind_lexer_new):
 * 0 reads every line by the reader's general path, small pieces put the
 * lexer's block boundaries everywhere.  For tests, which compare them. */
gboolean cg_read_callgrind_in_pieces (CgProfile *profile, CgInput *input, const CgReadOptions *options,
                                      gsize piece, GError **error);

/* How a file's function names carry context, told by its creator: line.
 * @CG_CALLGRIND_NAMES_CALLGRIND: callgrind's (creator "callgrind..."):
 *   "base['L]('caller)*", split at the first apostrophe (C, C++ and Rust
 *   symbols hold none);
 * @CG_CALLGRIND_NAMES_CGTOOLS: cgtools' own writer (creator "cgtools..."),
 *   which adds one context to a verbatim name: a final "'N" or
 *   "'<spontaneous>", split at the last apostrophe;
 * @CG_CALLGRIND_NAMES_SHAPED: no creator: line; a name is split as
 *   callgrind's only when it has callgrind's exact shape (every part
 *   between apostrophes non-empty, none starting or ending with a blank:
 *   symbols never do, "<method 'read' of 'file' objects>" does);
 * @CG_CALLGRIND_NAMES_VERBATIM: another producer named (xdebug, ...):
 *   names are whole, apostrophes and all. */
typedef enum
{
  CG_CALLGRIND_NAMES_CALLGRIND,
  CG_CALLGRIND_NAMES_CGTOOLS,
  CG_CALLGRIND_NAMES_SHAPED,
  CG_CALLGRIND_NAMES_VERBATIM,
} CgCallgrindNames;

/* The naming of a file whose creator: line says @creator (NULL: none). */
CgCallgrindNames cg_callgrind_names_of (const char *creator);

/* Splits a callgrind function name "base['L]('caller)*" into the length
 * of its base name and its recursion level (1 when there is no 'L), as
 * callgrind names (CG_CALLGRIND_NAMES_CALLGRIND). */
void cg_callgrind_split_name (const char *name, gsize len, gsize *base_len, guint *level);

/* cg_callgrind_split_name for a file named as @names says: a name that
 * carries no context there gives *@base_len = @len and level 1. */
void cg_callgrind_split_name_as (CgCallgrindNames names, const char *name, gsize len, gsize *base_len,
                                 guint *level);

G_END_DECLS
