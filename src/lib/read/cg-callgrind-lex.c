/* cg-callgrind-lex.c — blocks of lines lexed on a thread of their own and
 * handed to the reader in order: four blocks in all, so that the lexer
 * works on one while the reader has another.  Reading and lexing a block
 * fall to whichever thread has nothing else to do (see the lexer's
 * struct): which of the two is the busier depends on the file.
 *
 * What is lexed is only the common form of the common lines, exactly as
 * callgrind writes them: one blank between fields, decimal numbers of at
 * most 19 digits (which cannot overflow), and the line ending in "\n".
 * Everything else (and every line where something is unusual) is left to
 * the reader, which also says what is wrong with a line.
 */
#include "config.h"

#include "cg-callgrind-lex.h"
#include "cg-digits.h"
#include "cg-graph.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define MAX_POSITIONS 3
/* for the copies of the hot loop made with constant column counts */
#define ALWAYS_INLINE __attribute__ ((always_inline))
#define POOL 4

/* A line's position change is kept below 2^62 in size, and what a run's
 * changes add up to within 2^62: adding one to the other then never
 * overflows.  Real positions (lines, addresses) change by far less. */
#define CHANGE_LIMIT (G_GINT64_CONSTANT (1) << 62)

/* What the lexer knows of the part's header, as the reader would know
 * it after the same lines (the reader checks each record against its
 * own). */
typedef struct {
  guint n_positions;
  guint n_cols;
  gboolean have_events;
} Header;

/* Whether the reader's pending state (a calls= or a jump waiting for its
 * cost line) may be set before a line: at the start of a piece nothing is
 * known. */
typedef enum { AFTER_UNKNOWN, AFTER_FREE, AFTER_PENDING } After;

/* Records, positions and numbers are plain arrays with a capacity,
 * filled in place: appending through GArray cost a memcpy call for every
 * few bytes. */
typedef struct {
  GByteArray *text;
  guint64 seq;   /* its place in the input, counted from 0 */
  CgLexRecord *records;
  CgLexPosition *positions;
  guint64 *numbers;
  gsize n_records, n_positions, n_numbers;
  gsize records_cap, positions_cap, numbers_cap;
  GError *error;
  gboolean last;  /* the end of the input: no text */
  gboolean lexed; /* from @start */
  gboolean exact; /* lexed from the header its predecessor left */
  Header start;
  /* while lexing: the header as the lines so far leave it, and scratch
   * for the costs of a line and the sums of a run */
  Header header;
  GArray *costs, *sums;
} Block;

/* Makes room for @more items after the @len in *@items. */
static inline void
reserve (gpointer items, gsize *cap, gsize len, gsize more, gsize size)
{
  /* never left NULL, even for none: NULL + 0 is undefined */
  if (G_LIKELY (len + more <= *cap && *cap > 0))
    return;
  *cap = MAX (MAX (len + more, *cap * 2), 256);
  *(gpointer *) items = g_realloc_n (*(gpointer *) items, *cap, size);
}

/* Room for @n more positions (numbers) after the block's, which
 * add_positions (add_numbers) then takes: a record's items may be lexed
 * straight into the room, and kept only if its lines lex. */
static inline CgLexPosition *
room_positions (Block *b, gsize n)
{
  reserve (&b->positions, &b->positions_cap, b->n_positions, n, sizeof (CgLexPosition));
  return b->positions + b->n_positions;
}

static inline guint64 *
room_numbers (Block *b, gsize n)
{
  reserve (&b->numbers, &b->numbers_cap, b->n_numbers, n, sizeof (guint64));
  return b->numbers + b->n_numbers;
}

static inline CgLexPosition *
add_positions (Block *b, gsize n)
{
  CgLexPosition *p = room_positions (b, n);
  b->n_positions += n;
  return p;
}

static inline guint64 *
add_numbers (Block *b, gsize n)
{
  guint64 *p = room_numbers (b, n);
  b->n_numbers += n;
  return p;
}

struct _CgCallgrindLexer {
  CgInput *input;
  gsize piece;
  Block pool[POOL];
  GThread *thread; /* NULL: lexing inline, on the caller's thread */
  /* Where the two threads meet, under lock.  A block goes round: unread
   * (given back), read (its bytes read, numbered in input order), lexed,
   * held by the caller, which takes them in order.  Either thread may
   * read the next block, one at a time, and either may lex a block read:
   * the lexer's thread whenever there is one, the caller's rather than
   * wait for the block it needs next.  Neither idles while the other has
   * work, whichever is the busier on a given file. */
  GMutex lock;
  GCond changed;
  Block *unread[POOL];
  guint n_unread;
  GQueue to_lex;         /* blocks read, oldest first */
  guint64 n_read;        /* blocks read so far: the next one's seq */
  guint64 n_taken;       /* blocks the caller took: the seq it needs next */
  gboolean reading;      /* a thread is reading into a block */
  gboolean input_ended;  /* the last block has been read */
  gboolean thread_reads; /* a regular file: a read never blocks for long */
  gboolean stop;
  /* A block is lexed from the header its predecessor leaves, known once
   * that one is lexed: the blocks before n_exact have been, and their
   * last left @header.  A block lexed alongside its predecessor starts
   * from this header as it was, which is the same unless the predecessor
   * begins a part; it is then lexed again, before the caller takes it. */
  Header header;
  guint64 n_exact;
  /* the caller's side */
  Block *held;
  gboolean ended;
};

/* ---- the common forms ---- */

static inline gboolean
is_cost_start (char c)
{
  return (guint) (guchar) c - '0' <= 9 || c == '+' || c == '-' || c == '*';
}

/* Bytes readable past a block's text: a short cost line is read sixteen
 * bytes at a time, a number's digits eight, and a line may end a block. */
#define PADDING 16
G_STATIC_ASSERT (PADDING >= CG_DIGITS_PADDING);

/* A position "*", "+N", "-N" or "N", as what it does to the one before. */
static inline const char *
lex_position (const char *p, CgLexPosition *out)
{
  char c = *p;
  if (c == '*')
    {
      *out = (CgLexPosition) { 0, 0, 0, FALSE };
      return p + 1;
    }
  guint64 v;
  gboolean relative = c == '+' || c == '-';
  if ((p = cg_digits_lex (p + relative, &v)) == NULL)
    return NULL;
  if (!relative)
    {
      *out = (CgLexPosition) { v, 0, 0, TRUE };
      return p;
    }
  if (v >= (guint64) CHANGE_LIMIT)
    return NULL;
  gint64 change = c == '+' ? (gint64) v : -(gint64) v;
  *out = (CgLexPosition) { (guint64) change, MIN (change, 0), MAX (change, 0), FALSE };
  return p;
}

/* A cost line: the header's positions, each after one blank but the
 * first, then at most n_cols costs, each after one blank, then "\n".
 * Returns the next line, or NULL when the line is not in this form. */
static inline ALWAYS_INLINE const char *
lex_cost_line (const char *p, const Header *h, CgLexPosition *pos, guint64 *costs, guint *n_costs)
{
  for (guint i = 0; i < h->n_positions; i++)
    if ((i > 0 && *p++ != ' ') || (p = lex_position (p, &pos[i])) == NULL)
      return NULL;
  guint n = 0;
  for (;;)
    {
      char c = *p++;
      if (c == '\n')
        break;
      if (c != ' ' || n == h->n_cols || (p = cg_digits_lex (p, &costs[n])) == NULL)
        return NULL;
      n++;
    }
  *n_costs = n;
  return p;
}

/* "calls=COUNT" and at most n_positions target positions, then "\n". */
static const char *
lex_calls_line (const char *p, const Header *h, guint64 *count, CgLexPosition *targets, guint *n_targets)
{
  if ((p = cg_digits_lex (p, count)) == NULL)
    return NULL;
  guint n = 0;
  for (; *p == ' '; n++)
    if (n == h->n_positions || (p = lex_position (p + 1, &targets[n])) == NULL)
      return NULL;
  if (*p != '\n')
    return NULL;
  *n_targets = n;
  return p + 1;
}

/* Adds the move @step to @acc, what the lines before did; FALSE when the
 * result cannot be kept (a position out of range, a change past the
 * limit), and @acc is then as it was. */
static inline ALWAYS_INLINE gboolean
compose (CgLexPosition *acc, const CgLexPosition *step)
{
  if (step->absolute)
    {
      acc->absolute = TRUE;
      acc->value = step->value;
      return TRUE;
    }
  gint64 change = (gint64) step->value;
  if (acc->absolute)
    {
      if (change < 0 ? (guint64) -change > acc->value : acc->value > G_MAXUINT64 - (guint64) change)
        return FALSE;
      acc->value += (guint64) change;
      return TRUE;
    }
  gint64 now = (gint64) acc->value + change;
  if (now > CHANGE_LIMIT || now < -CHANGE_LIMIT)
    return FALSE;
  acc->value = (guint64) now;
  acc->lo = MIN (acc->lo, now);
  acc->hi = MAX (acc->hi, now);
  return TRUE;
}

/* ---- lexing a piece ---- */

static const char *
line_end (const char *p, const char *end)
{
  const char *nl = memchr (p, '\n', (gsize) (end - p));
  return nl ? nl + 1 : end;
}

static guint
count_words (const char *p, const char *end)
{
  guint n = 0;
  while (p < end)
    {
      while (p < end && (*p == ' ' || *p == '\t'))
        p++;
      if (p == end)
        break;
      n++;
      while (p < end && *p != ' ' && *p != '\t')
        p++;
    }
  return n;
}

/* Follows the header lines that start a part, as the reader does. */
static void
header_line (Block *b, const char *key, gsize klen, const char *p, const char *end)
{
#define KEY(s) (klen == sizeof (s) - 1 && memcmp (key, s, klen) == 0)
  if (!(KEY ("part") || KEY ("pid") || KEY ("thread") || KEY ("positions") || KEY ("events")))
    return;
  Header *h = &b->header;
  if (h->have_events)
    *h = (Header) { 1, 0, FALSE };
  if (end > p && end[-1] == '\r')
    end--;
  guint n = count_words (p, end);
  if (KEY ("positions"))
    h->n_positions = n >= 1 && n <= MAX_POSITIONS ? n : 0; /* 0: no cost line lexes */
  if (KEY ("events") && n > 0)
    {
      h->n_cols = n;
      h->have_events = TRUE;
      if (b->costs->len < n)
        {
          g_array_set_size (b->costs, n);
          g_array_set_size (b->sums, n);
        }
    }
#undef KEY
}

static inline CgLexRecord *
add_record (Block *b, CgLexKind kind, const Header *h, gsize start, gsize end, guint lines)
{
  reserve (&b->records, &b->records_cap, b->n_records, 1, sizeof (CgLexRecord));
  CgLexRecord *r = &b->records[b->n_records++];
  *r = (CgLexRecord) { (guint32) start, (guint32) end, lines, (guint32) b->n_positions, (guint32) b->n_numbers,
                       h->n_positions, h->n_cols, 0, 0, kind };
  return r;
}

/* The record of a run of @lines self cost lines: the moves @acc of its
 * positions and the sums of its first @n_costs costs. */
static inline ALWAYS_INLINE void
add_run (Block *b, const Header *h, gsize start, gsize end, guint lines, const CgLexPosition *acc,
         const guint64 *sums, guint n_costs)
{
  CgLexRecord *r = add_record (b, CG_LEX_RUN, h, start, end, lines);
  r->n_costs = n_costs;
  /* item by item: a run is a few items, and with the header's constant
   * counts (lex_runs) these are moves, not calls of memcpy */
  CgLexPosition *positions = add_positions (b, h->n_positions);
  for (guint i = 0; i < h->n_positions; i++)
    positions[i] = acc[i];
  guint64 *numbers = add_numbers (b, n_costs);
  for (guint i = 0; i < n_costs; i++)
    numbers[i] = sums[i];
}

#ifdef __SSE2__
/* The bounds within which a run's position (a change, or a position
 * when absolute) and sum must lie for extend_short to take lines without
 * a check for overflow: a short line moves the position by less than
 * 2^24 and adds less than 2^24, and a block has fewer than 2^32 lines,
 * so the run stays within 2^61 + 2^56 of 0, below CHANGE_LIMIT. */
#define SHORT_LIMIT (G_GINT64_CONSTANT (1) << 61)

/* Extends the open run of one position (@acc) and at least one cost
 * column (@sum the first's sum) by the lines from @p on that are short:
 * "POSITION COST\n", each number at most seven digits, which is most of
 * what callgrind writes.  Does what lex_runs_of would for each, without
 * its checks, and returns the first line that is not short, or would
 * take the position below 0: lex_runs_of reads that line.
 *
 * A line is read sixteen bytes at once.  Where it ends is found from a
 * mask of its newlines, not by reading its numbers, so that a line need
 * not wait for the numbers of the line before: in lex_runs_of, that wait
 * and the number of instructions bounded the lexer about equally. */
static inline ALWAYS_INLINE const char *
extend_short (const char *p, const char *end, CgLexPosition *acc, guint64 *sum, guint *lines, guint *n_costs)
{
  gboolean absolute = acc->absolute;
  gint64 value = (gint64) acc->value, lo = acc->lo, hi = acc->hi;
  guint64 s = *sum;
  /* a relative run's change lies between its lowest and highest */
  if (s >= (guint64) SHORT_LIMIT || (absolute ? acc->value >= (guint64) SHORT_LIMIT : lo <= -SHORT_LIMIT || hi >= SHORT_LIMIT))
    return p;
  guint n = 0;
  while (p < end)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) p);
      __m128i d = _mm_sub_epi8 (v, _mm_set1_epi8 ('0'));
      guint newlines = (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\n')));
      guint blanks = (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 (' ')));
      /* a digit: its byte less '0' is at most 9, unsigned */
      guint digits = (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (_mm_min_epu8 (d, _mm_set1_epi8 (9)), d));
      if (newlines == 0)
        break;
      /* before the newline, every byte a digit but a sign or star that
       * leads and one blank; then both numbers 1 to 7 digits long, but
       * for a star alone */
      guint nl = (guint) __builtin_ctz (newlines);
      guint others = ~digits & ((1u << nl) - 1);
      char c = *p;
      guint lead = c == '+' || c == '-' || c == '*';
      guint blank = others & ~lead;
      if (blank == 0 || (blank & (blank - 1)) != 0 || (blank & blanks) == 0)
        break;
      guint at = (guint) __builtin_ctz (blank), n_position = at - lead, n_cost = nl - at - 1;
      if (n_cost - 1 > 6 || (c == '*' ? n_position != 0 : n_position - 1 > 6))
        break;
      guint64 w;
      memcpy (&w, p + at + 1, sizeof w);
      guint64 cost = cg_digits_value (GUINT64_FROM_LE (w), n_cost);
      if (c != '*')
        {
          memcpy (&w, p + lead, sizeof w);
          gint64 number = (gint64) cg_digits_value (GUINT64_FROM_LE (w), n_position);
          if (!lead)
            {
              absolute = TRUE;
              value = number;
            }
          else
            {
              gint64 now = value + (c == '-' ? -number : number);
              if (absolute && now < 0)
                break;
              value = now;
              if (!absolute)
                {
                  lo = MIN (lo, now);
                  hi = MAX (hi, now);
                }
            }
        }
      s += cost;
      n++;
      p += nl + 1;
    }
  if (n > 0)
    {
      *acc = (CgLexPosition) { (guint64) value, lo, hi, absolute };
      *sum = s;
      *lines += n;
      *n_costs = MAX (*n_costs, 1);
    }
  return p;
}
#endif

/* Lexes the self cost lines from @p on into runs, one record each: a run
 * goes on while its lines' moves compose and their costs sum without
 * overflow.  The open run is kept in locals, not in the block, until it
 * ends: this loop is most of the lexer's time.  Returns the first line
 * that is not a self cost line in the common form, @p when there is none. */
static inline ALWAYS_INLINE const char *
lex_runs_of (Block *b, const char *text, const char *p, const char *end, const Header *h, guint64 *costs,
             guint64 *sums)
{
  CgLexPosition acc[MAX_POSITIONS], pos[MAX_POSITIONS], moved[MAX_POSITIONS];
  const char *start = NULL; /* the open run's first line */
  guint lines = 0, n_costs = 0, n;
  for (const char *next; p < end && is_cost_start (*p) && (next = lex_cost_line (p, h, pos, costs, &n)); p = next)
    {
      gboolean fits = start != NULL;
      for (guint i = 0; fits && i < h->n_positions; i++)
        {
          moved[i] = acc[i];
          fits = compose (&moved[i], &pos[i]);
        }
      for (guint i = 0; fits && i < n; i++)
        fits = sums[i] <= G_MAXUINT64 - costs[i];
      if (!fits)
        {
          if (start != NULL)
            add_run (b, h, (gsize) (start - text), (gsize) (p - text), lines, acc, sums, n_costs);
          start = p;
          lines = n_costs = 0;
          for (guint i = 0; i < h->n_positions; i++)
            moved[i] = pos[i];
          memset (sums, 0, h->n_cols * sizeof (guint64));
        }
      /* column by column: with a constant count, the columns stay in
       * registers */
      for (guint i = 0; i < h->n_positions; i++)
        acc[i] = moved[i];
      for (guint i = 0; i < n; i++)
        sums[i] += costs[i];
      n_costs = MAX (n_costs, n);
      lines++;
#ifdef __SSE2__
      if (h->n_positions == 1 && h->n_cols >= 1)
        next = extend_short (next, end, &acc[0], &sums[0], &lines, &n_costs);
#endif
    }
  if (start != NULL)
    add_run (b, h, (gsize) (start - text), (gsize) (p - text), lines, acc, sums, n_costs);
  return p;
}

static const char *
lex_runs (Block *b, const char *text, const char *p, const char *end)
{
  /* callgrind's default, one position (line or instr) and one event (Ir),
   * gets its own copy, with the loops over columns unrolled */
  const Header *h = &b->header;
  guint64 *costs = (guint64 *) b->costs->data, *sums = (guint64 *) b->sums->data;
  if (h->n_positions == 1 && h->n_cols == 1)
    {
      /* its one cost and sum in locals, which nothing else can reach, so
       * that they stay in registers */
      guint64 cost = 0, sum = 0;
      return lex_runs_of (b, text, p, end, &(const Header) { 1, 1, TRUE }, &cost, &sum);
    }
  if (h->n_positions == 1)
    return lex_runs_of (b, text, p, end, &(const Header) { 1, h->n_cols, TRUE }, costs, sums);
  return lex_runs_of (b, text, p, end, h, costs, sums);
}

/* The CgLexNameKey of the key @line[0..@k), or -1: two or three
 * characters, told apart without a call, as the key of most lines. */
static inline gint
name_key (const char *line, gsize k)
{
  if (k == 2)
    return line[0] == 'f' && line[1] == 'n'   ? CG_LEX_KEY_FN
           : line[0] == 'o' && line[1] == 'b' ? CG_LEX_KEY_OB
           : line[0] == 'f' && line[1] == 'l' ? CG_LEX_KEY_FL
                                              : -1;
  if (k == 3 && line[0] == 'c')
    return line[1] == 'f' && line[2] == 'n'   ? CG_LEX_KEY_CFN
           : line[1] == 'o' && line[2] == 'b' ? CG_LEX_KEY_COB
                                              : -1;
  return -1;
}

/* Lexes the whole lines of @b's text in [@from, @to), which ends in "\n". */
static void
lex_piece (Block *b, gsize from, gsize to)
{
  const char *text = (const char *) b->text->data, *p = text + from, *end = text + to;
  const Header *h = &b->header;
  After after = AFTER_UNKNOWN;
  guint n;
  gint key;
  while (p < end)
    {
      const char *line = p, *next;
      char c = *p;
      if (is_cost_start (c))
        {
          next = after == AFTER_FREE && h->have_events ? lex_runs (b, text, p, end) : p;
          if (next == p)
            next = line_end (p, end); /* the reader's to read */
          after = AFTER_FREE;         /* any cost line ends what was pending */
          p = next;
          continue;
        }
      next = line_end (p, end);
      gsize k = 0;
      while (g_ascii_isalnum (line[k]) || line[k] == '_')
        k++;
      const char *rest = line + k + 1;
      if (k == 0)
        {
          /* blank lines and comments leave the reader's state as it was;
           * any other line that starts with no key is an error there */
          const char *q = line, *eol = next - 1 > line && next[-2] == '\r' ? next - 2 : next - 1;
          while (q < eol && (*q == ' ' || *q == '\t'))
            q++;
          if (!(q == eol || *line == '#'))
            after = AFTER_FREE;
        }
      else if (line[k] == ':')
        {
          header_line (b, line, k, rest, next - 1);
          after = AFTER_FREE;
        }
      else if (line[k] != '=')
        after = AFTER_FREE;
      else if (*rest == '(' && (key = name_key (line, k)) >= 0)
        {
          guint64 id;
          const char *q = cg_digits_lex (rest + 1, &id);
          guint32 tag;
          if (q && q[0] == ')' && q[1] == '\n' && id <= G_MAXUINT32 - 1)
            {
              add_record (b, CG_LEX_NAME, h, (gsize) (line - text), (gsize) (next - text), 1);
              guint64 *numbers = add_numbers (b, 2);
              numbers[0] = (guint64) key;
              numbers[1] = id;
            }
          else if (q && q[0] == ')' && q[1] == ' ' && q[2] != ' ' && q + 2 < next - 1 && id <= G_MAXUINT32 - 1
                   && cg_graph_string_tag (q + 2, (gsize) (next - 1 - (q + 2)), &tag))
            {
              /* the name's hash is taken here, off the reader's thread */
              const char *name = q + 2;
              add_record (b, CG_LEX_DEFINITION, h, (gsize) (line - text), (gsize) (next - text), 1);
              guint64 *numbers = add_numbers (b, 5);
              numbers[0] = (guint64) key;
              numbers[1] = id;
              numbers[2] = (guint64) (name - line);
              numbers[3] = (guint64) (next - 1 - name);
              numbers[4] = tag;
            }
          after = AFTER_FREE;
        }
      else if (k == 5 && memcmp (line, "calls", 5) == 0)
        {
          /* lexed straight into the block's room: the count, then the
           * costs; the targets, then the cost line's positions */
          CgLexPosition *positions = room_positions (b, 2 * MAX_POSITIONS);
          guint64 *numbers = room_numbers (b, 1 + (gsize) h->n_cols);
          guint n_targets;
          const char *cost = h->have_events ? lex_calls_line (rest, h, &numbers[0], positions, &n_targets) : NULL;
          const char *after_cost = NULL;
          if (cost && cost < end)
            after_cost = lex_cost_line (cost, h, positions + n_targets, numbers + 1, &n);
          if (after_cost)
            {
              CgLexRecord *r = add_record (b, CG_LEX_CALL, h, (gsize) (line - text), (gsize) (after_cost - text), 2);
              r->n_costs = n;
              r->n_targets = n_targets;
              b->n_positions += n_targets + h->n_positions;
              b->n_numbers += 1 + n;
              next = after_cost;
              after = AFTER_FREE;
            }
          else
            after = AFTER_PENDING;
        }
      else if ((k == 4 && memcmp (line, "jump", 4) == 0) || (k == 4 && memcmp (line, "jcnd", 4) == 0))
        after = AFTER_PENDING;
      else
        after = AFTER_FREE;
      p = next;
    }
}

/* Lexes @b's text, in pieces of at most @piece bytes of whole lines,
 * from the header b->header, which it leaves as the text does. */
static void
lex (gsize piece, Block *b)
{
  const char *text = (const char *) b->text->data;
  gsize whole = b->text->len;
  /* from nothing: a block lexed from the wrong header is lexed again */
  b->n_records = b->n_positions = b->n_numbers = 0;
  if (piece == 0 || whole > G_MAXUINT32)
    return;
  /* the scratch has room for the header's columns */
  if (b->costs->len < b->header.n_cols)
    {
      g_array_set_size (b->costs, b->header.n_cols);
      g_array_set_size (b->sums, b->header.n_cols);
    }
  /* only lines that end in "\n" (the input's last may not) */
  while (whole > 0 && text[whole - 1] != '\n')
    whole--;
  for (gsize from = 0, to; from < whole; from = to)
    {
      to = whole;
      if (whole - from > piece)
        {
          /* the last line that ends within the piece, or the first line
           * when it is longer than a piece */
          to = from + piece;
          while (to > from && text[to - 1] != '\n')
            to--;
          if (to == from)
            to = (gsize) ((const char *) memchr (text + from + piece, '\n', whole - from - piece) - text) + 1;
        }
      lex_piece (b, from, to);
    }
}

/* Reads the next block into @b; FALSE at the end of the input or on an
 * error, which @b then holds (the caller marks it the last). */
static gboolean
read_block (CgCallgrindLexer *x, Block *b)
{
  g_byte_array_set_size (b->text, 0);
  if (!cg_input_next_lines_into (x->input, b->text, &b->error))
    return FALSE;
  /* zeros after the text, kept when the length goes back */
  static const guint8 zeros[PADDING];
  guint len = b->text->len;
  g_byte_array_append (b->text, zeros, PADDING);
  g_byte_array_set_size (b->text, len);
  return TRUE;
}

/* Whether the next block may be read now; under x->lock. */
static gboolean
can_read (const CgCallgrindLexer *x)
{
  return x->n_unread > 0 && !x->input_ended && !x->reading;
}

/* Reads the next block, with x->lock held (and released meanwhile: the
 * other thread goes on); can_read() must hold.  The blocks are read one
 * at a time, so numbered in input order. */
static Block *
read_next_locked (CgCallgrindLexer *x)
{
  Block *b = x->unread[--x->n_unread];
  x->reading = TRUE;
  b->seq = x->n_read++;
  b->lexed = b->exact = FALSE;
  g_mutex_unlock (&x->lock);
  gboolean more = read_block (x, b);
  g_mutex_lock (&x->lock);
  x->reading = FALSE;
  x->input_ended = b->last = !more;
  g_cond_broadcast (&x->changed);
  return b;
}

static gboolean
same_header (const Header *a, const Header *b)
{
  return a->n_positions == b->n_positions && a->n_cols == b->n_cols && a->have_events == b->have_events;
}

static Block *
block_numbered (CgCallgrindLexer *x, guint64 seq)
{
  for (guint i = 0; i < POOL; i++)
    if (x->pool[i].seq == seq && (x->pool[i].lexed || x->pool[i].last))
      return &x->pool[i];
  return NULL;
}

/* Under x->lock: the blocks lexed in order from the exact header become
 * exact; one lexed from another header goes back to be lexed again. */
static void
check_headers (CgCallgrindLexer *x)
{
  Block *b;
  while ((b = block_numbered (x, x->n_exact)) != NULL && !b->exact)
    {
      if (!b->last && !same_header (&b->start, &x->header))
        {
          b->lexed = FALSE;
          g_queue_push_head (&x->to_lex, b);
          return;
        }
      if (!b->last)
        x->header = b->header;
      b->exact = TRUE;
      x->n_exact++;
    }
}

/* Lexes @b, with x->lock held (and released meanwhile). */
static void
lex_locked (CgCallgrindLexer *x, Block *b)
{
  b->start = b->header = x->header;
  g_mutex_unlock (&x->lock);
  if (!b->last)
    lex (x->piece, b);
  g_mutex_lock (&x->lock);
  b->lexed = TRUE;
  check_headers (x);
  g_cond_broadcast (&x->changed);
}

static gpointer
lex_ahead (gpointer data)
{
  CgCallgrindLexer *x = data;
  g_mutex_lock (&x->lock);
  while (!x->stop)
    {
      /* a block read by the caller is older than any this thread could
       * read now, and is lexed first */
      Block *b = g_queue_pop_head (&x->to_lex);
      if (b == NULL && x->thread_reads && can_read (x))
        b = read_next_locked (x);
      if (b == NULL)
        g_cond_wait (&x->changed, &x->lock);
      else
        lex_locked (x, b);
    }
  g_mutex_unlock (&x->lock);
  return NULL;
}

CgCallgrindLexer *
cg_callgrind_lexer_new (CgInput *input, gsize piece)
{
  CgCallgrindLexer *x = g_new0 (CgCallgrindLexer, 1);
  x->input = input;
  x->piece = piece;
  x->header = (Header) { 1, 0, FALSE };
  for (guint i = 0; i < POOL; i++)
    {
      x->pool[i] = (Block) { .text = g_byte_array_new (), .seq = G_MAXUINT64,
                             .costs = g_array_new (FALSE, TRUE, sizeof (guint64)),
                             .sums = g_array_new (FALSE, TRUE, sizeof (guint64)) };
      x->unread[x->n_unread++] = &x->pool[i];
    }
  g_mutex_init (&x->lock);
  g_cond_init (&x->changed);
  g_queue_init (&x->to_lex);
  /* a pipe is read on the caller's thread only, so that this thread
   * never waits on input and ending it never waits for a read */
  x->thread_reads = cg_input_size (input) >= 0;
  if (piece > 0)
    x->thread = g_thread_try_new ("cg-lex", lex_ahead, x, NULL);
  return x;
}

gboolean
cg_callgrind_lexer_next (CgCallgrindLexer *x, CgLexBlock *block, GError **error)
{
  if (x->ended)
    return FALSE;
  Block *b;
  if (x->thread)
    {
      g_mutex_lock (&x->lock);
      if (x->held)
        {
          x->held->seq = G_MAXUINT64;
          x->unread[x->n_unread++] = x->held;
          g_cond_broadcast (&x->changed);
        }
      /* rather than wait for the next block, this thread lexes one read
       * (the lexer's may be at the next), or reads one */
      while ((b = block_numbered (x, x->n_taken)) == NULL || !b->exact)
        {
          Block *c = g_queue_pop_head (&x->to_lex);
          if (c)
            lex_locked (x, c);
          else if (can_read (x))
            g_queue_push_tail (&x->to_lex, read_next_locked (x));
          else
            g_cond_wait (&x->changed, &x->lock);
        }
      x->n_taken++;
      g_mutex_unlock (&x->lock);
    }
  else
    {
      b = &x->pool[0];
      b->last = !read_block (x, b);
      if (!b->last)
        {
          b->header = x->header;
          lex (x->piece, b);
          x->header = b->header;
        }
    }
  x->held = b;
  if (b->last)
    {
      x->ended = TRUE;
      if (b->error)
        g_propagate_error (error, g_steal_pointer (&b->error));
      return FALSE;
    }
  *block = (CgLexBlock) { (const char *) b->text->data, b->text->len,
                          b->records, b->n_records, b->positions, b->numbers };
  return TRUE;
}

void
cg_callgrind_lexer_free (CgCallgrindLexer *x)
{
  if (x == NULL)
    return;
  if (x->thread)
    {
      /* it stops after the block it lexes or reads, if any */
      g_mutex_lock (&x->lock);
      x->stop = TRUE;
      g_cond_broadcast (&x->changed);
      g_mutex_unlock (&x->lock);
      g_thread_join (x->thread);
    }
  g_queue_clear (&x->to_lex);
  g_mutex_clear (&x->lock);
  g_cond_clear (&x->changed);
  for (guint i = 0; i < POOL; i++)
    {
      Block *b = &x->pool[i];
      g_byte_array_unref (b->text);
      g_free (b->records);
      g_free (b->positions);
      g_free (b->numbers);
      g_array_unref (b->costs);
      g_array_unref (b->sums);
      g_clear_error (&b->error);
    }
  g_free (x);
}
