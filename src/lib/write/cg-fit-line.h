/* cg-fit-line.h — the functions of a text tree's line fitted into a width.
 *
 * A line of cgtree's text view ends in the functions it joins ("f > g >
 * h"), each a name followed by its marks (" <cycle 1>", " [2]", " -> [2]",
 * " (9.61% in all)").  Where the line is wider than the terminal, the
 * functions in the middle of a chain go first (f > … > h: the ends of a
 * chain say where it starts and what it reaches), then the names lose
 * their middle (a C++ name the middle of its parameter list, where that
 * is enough, else the whole list and the middle of what stands before
 * the function's own name), the longest first, each keeping at least
 * CG_FIT_LINE_MIN_NAME columns; the marks are never cut, so that no
 * number is shown half, and where even the shortest names leave them no
 * room, the optional ones (a cycle's, which cgcycles lists) go.  Linear
 * in the line's length. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A name keeps at least this many columns, its cut mark included. */
#define CG_FIT_LINE_MIN_NAME 8

/* The part of a line a piece is: a name (or other prose) that may lose
 * its middle, a mark that stays whole, one that may go, or the separator
 * before a function of a chain (" > ", " < "). */
typedef enum {
  CG_FIT_NAME,
  CG_FIT_MARK,
  CG_FIT_OPTIONAL,
  CG_FIT_SEPARATOR,
} CgFitKind;

typedef struct {
  gsize start, end; /* bytes of the line, SGR colour sequences included */
  guint function;   /* the function of the chain (0, 1, ...) it belongs to */
  CgFitKind kind;
} CgFitPiece;

/**
 * cg_fit_line:
 * @line: a line whose bytes from @from on are @pieces, in order, covering
 *   them all; the separator of function k > 0 comes first among its pieces
 * @from: where the functions begin (the columns before it stay)
 * @pieces: (element-type CgFitPiece): the pieces of the functions
 * @width: the columns the line may take (0: no limit)
 * @mark: the cut mark ("…", or "..." where the locale is not UTF-8)
 *
 * Fits @line into @width columns as the header says.  A line that fits is
 * left as it is; one that does not loses its colours after @from (a cut
 * could split a colour's span).  Where the marks and the shortest names
 * alone take more than @width, the line stays wider: nothing is cut
 * further.  Columns are counted as UTF-8 characters, SGR sequences
 * taking none.
 */
void cg_fit_line (GString *line, gsize from, const GArray *pieces, guint width, const char *mark);

/* The columns @s takes on a terminal: its characters less its SGR
 * sequences (ESC [ ... m). */
gsize cg_fit_visible_width (const char *s);

G_END_DECLS
