/* cg-matrix.h — private: a growable row-major matrix of CgValue.
 *
 * Every cost store in cgtools is one row per item (function, arc, frame)
 * and one column per event.  Merging a profile with new events adds a
 * column to every row, which is rare and done once, in O(rows × cols).
 */
#pragma once

#include <glib.h>

#include "cg-value.h"

G_BEGIN_DECLS

/* The values are a plain array with room to grow, not a GArray: readers
 * add a row for every arc and context, millions of them, and GArray's
 * every call divided to check its limits.  Values from rows * cols up to
 * @zeroed are zero, and the room past @zeroed is not yet touched, so it
 * takes no memory. */
typedef struct {
  CgValue *values;  /* CgValue [rows * cols]; NULL until cg_matrix_init */
  gsize capacity;   /* values allocated */
  gsize zeroed;     /* values written or zeroed, <= capacity */
  guint rows;
  guint cols;
} CgMatrix;

void cg_matrix_init (CgMatrix *m, guint cols);
void cg_matrix_clear (CgMatrix *m);

/* cg_matrix_set_rows when the rows do not fit in what is zeroed, or
 * shrink. */
void cg_matrix_resize (CgMatrix *m, guint rows);

/* Grows (with zero rows) or shrinks to @rows. */
static inline void
cg_matrix_set_rows (CgMatrix *m, guint rows)
{
  if (G_LIKELY (rows >= m->rows && (gsize) rows * m->cols <= m->zeroed))
    m->rows = rows;
  else
    cg_matrix_resize (m, rows);
}

/* Appends a zero column to every row. */
void cg_matrix_add_column (CgMatrix *m);

/* Converts column @col from integer to real values. */
void cg_matrix_promote_column (CgMatrix *m, guint col);

/* A row of a matrix without columns: a valid pointer to no values. */
extern CgValue cg_matrix_no_values[1];

static inline CgValue *
cg_matrix_row (const CgMatrix *m, guint row)
{
  if (m->cols == 0)
    return cg_matrix_no_values;
  return &m->values[(gsize) row * m->cols];
}

G_END_DECLS
