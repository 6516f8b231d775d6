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

typedef struct {
  GArray *values; /* CgValue [rows * cols] */
  guint rows;
  guint cols;
} CgMatrix;

void cg_matrix_init (CgMatrix *m, guint cols);
void cg_matrix_clear (CgMatrix *m);

/* Grows (with zero rows) or shrinks to @rows. */
void cg_matrix_set_rows (CgMatrix *m, guint rows);

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
  return &g_array_index (m->values, CgValue, (gsize) row * m->cols);
}

G_END_DECLS
