/* cg-callgrind-lex.h — private: the common lines of a callgrind file,
 * lexed on a second thread while the reader interprets the lines before.
 *
 * Most of a large callgrind file is three kinds of line: runs of self
 * cost lines, names by id ("fn=(ID)", "cfn=(ID)", "ob=(ID)"...) or
 * defined ("cfn=(ID) NAME", hashed here for the reader), and
 * "calls=COUNT TARGET" followed by the call's cost line.  The lexer reads blocks of whole lines ahead of the reader
 * and parses those lines, in the form callgrind writes them, into
 * records: numbers, and for positions the change they make to the
 * position before them.  It cannot know everything the reader knows (the
 * positions at the start of a block, whether an id is defined, a header
 * it did not see), so the reader checks each record against its own
 * state and reads the lines itself where the record does not apply.  A
 * record therefore only saves work: applying it does exactly what
 * reading its lines would have done.
 *
 * Threads: the blocks are lexed on a thread of the lexer's own, and on
 * the caller's while it waits for the next block, or on the caller's only
 * when no thread can be made; either way the blocks and records are the
 * same.  A regular file is read on either thread, whichever is idle; a
 * pipe only on the caller's (a read may block there, as any read would),
 * so that the lexer's thread never waits on input.
 *
 * Ownership: a block and its records belong to the lexer and stay valid
 * until the next call of cg_callgrind_lexer_next or the lexer is freed.
 */
#pragma once

#include <glib.h>

#include "cg-input.h"

G_BEGIN_DECLS

/* What a position column does over one or more lines: sets it (absolute)
 * or moves it by a change; and, for the moves that came before any
 * absolute position, the lowest and highest change on the way, since
 * every position on the way must lie in 0 .. 2^64-1 (lo <= 0 <= hi). */
typedef struct {
  guint64 value; /* absolute: the position; else the change, as a gint64 */
  gint64 lo, hi;
  gboolean absolute;
} CgLexPosition;

/* The position @p leaves of @base in *@out; FALSE when a position on the
 * way would leave 0 .. 2^64-1 (the lines are then in error). */
static inline gboolean
cg_lex_position_apply (const CgLexPosition *p, guint64 base, guint64 *out)
{
  if ((p->lo < 0 && base < (guint64) -p->lo) || (p->hi > 0 && base > G_MAXUINT64 - (guint64) p->hi))
    return FALSE;
  *out = p->absolute ? p->value : base + p->value; /* wraps to base - change */
  return TRUE;
}

typedef enum {
  /* self cost lines after a cost line: positions (n_positions) and the
   * per-column sums of their costs (n_cols numbers) */
  CG_LEX_RUN,
  /* "calls=" and its cost line: numbers: the call count, then n_costs
   * costs; positions: n_targets targets, then n_positions for the cost line */
  CG_LEX_CALL,
  /* "KEY=(ID)", a name by its id alone: numbers: the key (CgLexNameKey),
   * then the id */
  CG_LEX_NAME,
  /* "KEY=(ID) NAME", a name defined, stored as it is (printable ASCII):
   * numbers: the key, the id, the name's offset in the line, its length
   * and its hash tag (cg_graph_string_tag) */
  CG_LEX_DEFINITION,
} CgLexKind;

/* The keys of the names the lexer reads by id: the common ones, repeated
 * for every function and call. */
typedef enum {
  CG_LEX_KEY_FN,
  CG_LEX_KEY_CFN,
  CG_LEX_KEY_OB,
  CG_LEX_KEY_COB,
  CG_LEX_KEY_FL,
} CgLexNameKey;

typedef struct {
  guint32 start, end;  /* byte offsets of its first line and past its last */
  guint32 lines;
  guint32 position;    /* index of its first position in the block's */
  guint32 number;      /* index of its first number in the block's */
  guint32 n_positions; /* the positions: and events: it was lexed under */
  guint32 n_cols;
  guint32 n_costs;     /* CALL: the costs on the cost line (<= n_cols) */
  guint32 n_targets;   /* CALL: target positions given (<= n_positions) */
  CgLexKind kind;
} CgLexRecord;

/* A block of whole lines (the last one of the input may lack its "\n")
 * and the records of the lines it could lex, in order. */
typedef struct {
  const char *text;
  gsize len;
  const CgLexRecord *records;
  gsize n_records;
  const CgLexPosition *positions;
  const guint64 *numbers;
} CgLexBlock;

typedef struct _CgCallgrindLexer CgCallgrindLexer;

/* A lexer over @input (borrowed: it must outlive the lexer, and nothing
 * else may read it meanwhile).  @piece: 0 makes no records at all; else
 * each block is lexed in pieces of at most @piece bytes (whole lines),
 * each starting from nothing known, as a block does: tests use small
 * pieces to put block boundaries everywhere.  G_MAXSIZE: whole blocks. */
CgCallgrindLexer *cg_callgrind_lexer_new (CgInput *input, gsize piece);

/* The next block, once lexed; the blocks given back get the input's next
 * bytes here first.  FALSE at the end of the input, or on a read error
 * with @error set (CG_ERROR_IO, as cg_input_next_lines). */
gboolean cg_callgrind_lexer_next (CgCallgrindLexer *lexer, CgLexBlock *block, GError **error);

/* Stops the lexer's thread (after the block it may be reading or lexing)
 * and frees it and its blocks. */
void cg_callgrind_lexer_free (CgCallgrindLexer *lexer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgCallgrindLexer, cg_callgrind_lexer_free)

G_END_DECLS
