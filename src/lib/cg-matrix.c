/* cg-matrix.c — re-striding in place, from the last row backwards. */
#include "config.h"

#include "cg-matrix.h"

#include <string.h>

CgValue cg_matrix_no_values[1];

void
cg_matrix_init (CgMatrix *m, guint cols)
{
  m->values = g_array_new (FALSE, TRUE, sizeof (CgValue));
  m->rows = 0;
  m->cols = cols;
}

void
cg_matrix_clear (CgMatrix *m)
{
  if (m->values)
    g_array_unref (m->values);
  m->values = NULL;
  m->rows = m->cols = 0;
}

void
cg_matrix_set_rows (CgMatrix *m, guint rows)
{
  g_array_set_size (m->values, (gsize) rows * m->cols);
  m->rows = rows;
}

void
cg_matrix_add_column (CgMatrix *m)
{
  guint old_n = m->cols, new_n = old_n + 1;
  g_array_set_size (m->values, (gsize) m->rows * new_n);
  CgValue *v = (CgValue *) m->values->data;
  for (guint r = m->rows; r-- > 0;)
    {
      memmove (&v[(gsize) r * new_n], &v[(gsize) r * old_n], old_n * sizeof (CgValue));
      v[(gsize) r * new_n + old_n] = CG_VALUE_ZERO;
    }
  m->cols = new_n;
}

void
cg_matrix_promote_column (CgMatrix *m, guint col)
{
  for (guint r = 0; r < m->rows; r++)
    {
      CgValue *v = cg_matrix_row (m, r) + col;
      *v = cg_value_convert (CG_KIND_INTEGER, CG_KIND_REAL, *v);
    }
}
