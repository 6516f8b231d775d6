/* cg-fit-line.h — the functions of a text view's line fitted into a width.
 *
 * A line of cgtree's text view (and a row of cgcost's and cgcycles') ends in the functions it joins ("f > g >
 * h"), each a name followed by its marks (" <cycle 1>", " [2]", " -> [2]",
 * " (9.61% in all)").  Where the line is wider than the terminal, the
 * functions in the middle of a chain go first (f > … > h: the ends of a
 * chain say where it starts and what it reaches), then the names are
 * cut (cg_cut_name: a C++ name its parameter list and template arguments
 * before the function's own name), the longest first, each keeping at least
 * CG_FIT_LINE_MIN_NAME columns; the marks are never cut, so that no
 * number is shown half: the asides go whole where the names would
 * otherwise be cut under CG_FIT_LINE_READABLE columns, and where even the
 * shortest names leave the marks no room, the optional ones (a cycle's,
 * which cgcycles lists) go.  Linear in the line's length. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A name keeps at least this many columns, its cut mark included. */
#define CG_FIT_LINE_MIN_NAME 8

/* Below this many columns a cut name is hard to read ("TclS…loc"): an
 * aside goes before a name is cut shorter. */
#define CG_FIT_LINE_READABLE 16

/* The part of a line a piece is: a name (or other prose) that may lose
 * its middle, a mark that stays whole, one that may go, an aside that
 * goes whole before a name is cut under CG_FIT_LINE_READABLE columns
 * (cgtree's "(9.61% in all)", 16 columns of an 80-column line whose
 * numbers take 46), or the separator before a function of a chain
 * (" > ", " < "). */
typedef enum {
  CG_FIT_NAME,
  CG_FIT_MARK,
  CG_FIT_OPTIONAL,
  CG_FIT_SEPARATOR,
  CG_FIT_ASIDE,
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

/* Folds @s's lines that take more than @width columns at blanks (0: no
 * limit), no line ending or beginning with one: the explanations above a
 * table, which fits its rows with cg_fit_line. */
void cg_fit_fold_lines (GString *s, guint width);

/* The columns @s takes on a terminal: its characters less its SGR
 * sequences (ESC [ ... m). */
gsize cg_fit_visible_width (const char *s);

G_END_DECLS
